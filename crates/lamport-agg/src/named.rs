//! The Lamport+ aggregator's settings for each name of the registry
//! ([`Named`]): the name fixes the backend, rate and proven floor, this
//! module the parameters that meet the floor for the Lamport+ tables
//! (checked by [`crate::security`]'s tests), so the FRI query counts differ
//! from the XMSS aggregator's.

use crate::config::{FriSettings, Settings};
pub use sigagg_prover::named::{Named, UnknownName};

/// The fast setting: rate 1/2, 170 queries, 20 bits of query grinding and
/// 16 bits at each other grinding site. About 104 proven bits at n = 1024
/// (see [`crate::security`]).
pub const FAST: Settings = Settings::Fri(FriSettings { num_queries: 170, ..FriSettings::FAST });

/// The compact setting: rate 1/8, fewer queries, smaller proofs, at least
/// 100 proven bits, the registry's floor for `compact` (see
/// [`crate::security`]: 52 queries and 24 bits of query grinding give at
/// least 101.7 at every accepted size, both sets). The rate leaves room for
/// degree-9 constraints, so the permutation tables use the paired layout
/// ([`crate::poseidon::Rounds::Paired`]): 40% fewer permutation columns.
/// Full-width SHA-256 Merkle trees: a 24-byte truncation would cap the
/// level at 96 bits (proofs made before with 24-byte digests and 49
/// queries still verify under those settings).
pub const COMPACT: Settings =
    Settings::Fri(FriSettings { num_queries: 52, query_pow_bits: 24, ..FriSettings::COMPACT });

/// Settings for functional tests (the prover's `INSECURE_TEST`). **Not secure** (about 20 bits): 40
/// queries and no grinding; a corrupted trace or proof is still caught with
/// overwhelming probability, which is what negative tests need.
pub const TEST: Settings = Settings::INSECURE_TEST;

/// [`TEST`] at rate 1/8: exercises the compact setting's paired
/// permutation layout ([`crate::poseidon::Rounds::Paired`]) in functional
/// tests. **Not secure** (20 queries, no grinding).
pub const TEST_COMPACT: Settings = Settings::INSECURE_TEST_COMPACT;

/// The multilinear setting (`sigagg_prover::Settings::WHIR`: WHIR in the
/// Johnson-bound regime, at least 120 proven bits, full-width SHA-256; the
/// Poseidon2 tables in the paired layout).
pub const WHIR: Settings = Settings::WHIR;

/// The multilinear setting for short proofs (`sigagg_prover::Settings::WHIR_COMPACT`:
/// starting rate 1/8, round rates falling 8-fold a round, at least 120
/// proven bits): the plain-set threshold proof at n = 1024 in 150 KiB.
pub const WHIR_COMPACT: Settings = Settings::WHIR_COMPACT;

/// [`WHIR`] for fast tests. **Not secure** (about 20 bits).
pub const TEST_WHIR: Settings = Settings::INSECURE_TEST_WHIR;

/// Our own multilinear prover (`sigagg_prover::Settings::WHIR_SKIP`: the
/// [`WHIR`] commitment with round rates falling 4-fold, at least 120
/// proven bits).
pub const WHIR_SKIP: Settings = Settings::WHIR_SKIP;

/// [`WHIR_SKIP`] over Poseidon2 trees and transcript, for recursion
/// (`sigagg_prover::Settings::WHIR_SKIP_POSEIDON2`).
pub const WHIR_SKIP_POSEIDON2: Settings = Settings::WHIR_SKIP_POSEIDON2;

/// [`WHIR_SKIP`] for fast tests. **Not secure** (about 20 bits).
pub const TEST_WHIR_SKIP: Settings = Settings::INSECURE_TEST_SKIP;

/// [`WHIR_SKIP`] at starting rate 1/4 (`sigagg_prover::Settings::WHIR_SKIP_COMPACT`).
pub const WHIR_SKIP_COMPACT: Settings = Settings::WHIR_SKIP_COMPACT;

/// The Lamport+ settings of `named`: the registry ([`Named`]) fixes what
/// each name promises (backend, rate, proven floor), these parameters meet
/// it for the Lamport+ tables (checked by [`crate::security`]'s tests), so
/// the FRI query counts differ from the XMSS aggregator's.
pub const fn settings(named: Named) -> Settings {
    match named {
        Named::Fast => FAST,
        Named::Compact => COMPACT,
        Named::Whir => WHIR,
        Named::WhirCompact => WHIR_COMPACT,
        Named::WhirSkip => WHIR_SKIP,
        Named::WhirSkipPoseidon2 => WHIR_SKIP_POSEIDON2,
        Named::WhirSkipCompact => WHIR_SKIP_COMPACT,
        Named::Test => TEST,
        Named::TestCompact => TEST_COMPACT,
        Named::TestWhir => TEST_WHIR,
        Named::TestWhirSkip => TEST_WHIR_SKIP,
    }
}

/// The name of `settings`, or `None` for settings no name gives (a
/// verifier must then be told which settings to use).
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
