//! The XMSS aggregator's settings for each name of the registry
//! ([`Named`]): the name fixes the backend, rate and proven floor, this
//! module the parameters that meet the floor for Seed001's tables (checked
//! by `tests/security.rs` at the smallest and largest accepted statement).

use crate::Settings;
pub use sigagg_prover::named::{Named, UnknownName};

/// The XMSS settings of `named`.
pub const fn settings(named: Named) -> Settings {
    match named {
        Named::Fast => Settings::FAST,
        Named::Compact => Settings::COMPACT,
        Named::Whir => Settings::WHIR,
        Named::WhirCompact => Settings::WHIR_COMPACT,
        Named::WhirSkip => Settings::WHIR_SKIP,
        Named::WhirSkipPoseidon2 => Settings::WHIR_SKIP_POSEIDON2,
        Named::WhirSkipCompact => Settings::WHIR_SKIP_COMPACT,
        Named::Test => Settings::INSECURE_TEST,
        Named::TestCompact => Settings::INSECURE_TEST_COMPACT,
        Named::TestWhir => Settings::INSECURE_TEST_WHIR,
        Named::TestWhirSkip => Settings::INSECURE_TEST_SKIP,
    }
}

/// The name of `settings`, or `None` for settings no name gives (a proof
/// made with custom settings names none, and a verifier must then be told
/// which to use).
pub fn named(settings: &Settings) -> Option<Named> {
    Named::find(settings, self::settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_and_keeps_its_contract() {
        sigagg_prover::testing::assert_names_kept(settings, named);
    }
}
