//! The aggregator's named settings: one table for the command line, the
//! benchmarks and the examples, so that a name means the same everywhere.

use crate::Settings;

/// Every name [`by_name`] knows: the secure settings, then the insecure
/// test ones.
pub const NAMES: [&str; 7] = ["fast", "compact", "whir", "whir-compact", "whir-skip", "test", "test-whir"];

/// The settings called `name`: `fast` and `compact` (FRI), `whir` and
/// `whir-compact` (Plonky3's multilinear prover), `whir-skip` (ours), or
/// `test` and `test-whir` (**not secure**, for fast tests).
pub fn by_name(name: &str) -> Option<Settings> {
    match name {
        "fast" => Some(Settings::FAST),
        "compact" => Some(Settings::COMPACT),
        "whir" => Some(Settings::WHIR),
        "whir-compact" => Some(Settings::WHIR_COMPACT),
        "whir-skip" => Some(Settings::WHIR_SKIP),
        "test" => Some(Settings::INSECURE_TEST),
        "test-whir" => Some(Settings::INSECURE_TEST_WHIR),
        _ => None,
    }
}

/// The name of `settings`, or `"custom"` for settings no name gives.
pub fn name_of(settings: &Settings) -> &'static str {
    NAMES.into_iter().find(|name| by_name(name).is_some_and(|s| s == *settings)).unwrap_or("custom")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_and_others_are_unknown() {
        for name in NAMES {
            assert_eq!(name_of(&by_name(name).expect("a known name")), name);
        }
        assert_eq!(by_name("fastest"), None);
        let custom = Settings { num_queries: 7, ..Settings::FAST };
        assert_eq!(name_of(&custom), "custom");
    }
}
