//! The one registry of named settings: every name the command line, the
//! byte-level API, the C ABI and the Python bindings accept, and what each
//! promises.
//!
//! A name is a contract, not a parameter list: it fixes the backend, the
//! starting code rate, the Merkle hash and the proven security floor
//! ([`Named::floor_bits`]) that every statement an aggregator accepts under
//! it must reach. Each aggregator maps a name to its own [`Settings`]
//! (`sigagg_xmss_agg::settings`, `sigagg_lamport_agg::settings`) and sizes
//! what its tables need to meet the floor, so the FRI query counts of
//! `fast` may differ between schemes while what `fast` promises does not.
//! Keeping the names here, below both aggregators, is what makes a name
//! mean the same thing everywhere; the security tests of each aggregator
//! check its settings against these floors.

use core::fmt;
use core::str::FromStr;

use crate::config::{Backend, MerkleHash, Settings};

/// A named setting. The secure names come first, then the insecure test
/// ones (which exist so that functional tests run in about a second).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Named {
    /// FRI at rate 1/2, full-width SHA-256: the fastest prover.
    Fast,
    /// FRI at rate 1/8, full-width SHA-256: shorter proofs, slower prover.
    Compact,
    /// WHIR (Plonky3's multilinear prover) at starting rate 1/2. No
    /// workload measured prefers it: [`Named::WhirSkip`] proves the same
    /// statements faster, in shorter proofs, at the same floor. It stays
    /// as the reference that our prover is measured against, on Plonky3's
    /// backend, which [`Named::WhirCompact`] (the shortest proofs) needs.
    Whir,
    /// WHIR at starting rate 1/8, round rates falling 8-fold: the shortest
    /// proofs of small statements.
    WhirCompact,
    /// Our own multilinear prover on [`Named::Whir`]'s commitment, round
    /// rates falling 4-fold.
    WhirSkip,
    /// [`Named::WhirSkip`] with Merkle trees and Fiat-Shamir transcript
    /// over KoalaBear's Poseidon2 ([`MerkleHash::Poseidon2`]): proofs a
    /// verifier written as AIR tables can check (recursion).
    WhirSkipPoseidon2,
    /// [`Named::WhirSkip`] at starting rate 1/4: shorter proofs for a
    /// slower commitment (merged proofs under 256 KiB).
    WhirSkipCompact,
    /// **Insecure**: FRI at rate 1/2 for functional tests.
    Test,
    /// **Insecure**: FRI at rate 1/8 for functional tests (the compact
    /// layouts of the tables).
    TestCompact,
    /// **Insecure**: WHIR for functional tests.
    TestWhir,
    /// **Insecure**: our multilinear prover for functional tests.
    TestWhirSkip,
}

/// A name no setting has; its message lists every name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown settings {name:?}: use one of {}", Named::names().join(", "))]
pub struct UnknownName {
    /// The name asked for.
    pub name: String,
}

impl Named {
    /// Every name: the secure ones, then the insecure test ones.
    pub const ALL: [Named; 11] = [
        Named::Fast,
        Named::Compact,
        Named::Whir,
        Named::WhirCompact,
        Named::WhirSkip,
        Named::WhirSkipPoseidon2,
        Named::WhirSkipCompact,
        Named::Test,
        Named::TestCompact,
        Named::TestWhir,
        Named::TestWhirSkip,
    ];

    /// The name as `--settings`, Python and the byte API spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Named::Fast => "fast",
            Named::Compact => "compact",
            Named::Whir => "whir",
            Named::WhirCompact => "whir-compact",
            Named::WhirSkip => "whir-skip",
            Named::WhirSkipPoseidon2 => "whir-skip-poseidon2",
            Named::WhirSkipCompact => "whir-skip-compact",
            Named::Test => "test",
            Named::TestCompact => "test-compact",
            Named::TestWhir => "test-whir",
            Named::TestWhirSkip => "test-whir-skip",
        }
    }

    /// Every name, in [`Named::ALL`]'s order (for help texts and errors).
    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|n| n.name()).collect()
    }

    /// The setting called `name` (exact spelling), or an error listing
    /// every name.
    pub fn from_name(name: &str) -> Result<Named, UnknownName> {
        Self::ALL.into_iter().find(|n| n.name() == name).ok_or_else(|| UnknownName { name: name.to_owned() })
    }

    /// Whether the name is one of the insecure test settings, which no
    /// deployment should accept.
    pub const fn is_insecure(self) -> bool {
        matches!(self, Named::Test | Named::TestCompact | Named::TestWhir | Named::TestWhirSkip)
    }

    /// The proof system the name selects.
    pub const fn backend(self) -> Backend {
        match self {
            Named::Fast | Named::Compact | Named::Test | Named::TestCompact => Backend::Fri,
            Named::Whir | Named::WhirCompact | Named::TestWhir => Backend::Whir,
            Named::WhirSkip | Named::WhirSkipPoseidon2 | Named::WhirSkipCompact | Named::TestWhirSkip => Backend::Skip,
        }
    }

    /// log2 of the (starting) Reed-Solomon blowup the name fixes.
    pub const fn log_blowup(self) -> usize {
        match self {
            Named::Compact | Named::WhirCompact | Named::TestCompact => 3,
            Named::WhirSkipCompact => 2,
            _ => 1,
        }
    }

    /// The proven bits the name promises for every statement an
    /// aggregator accepts under it: 100 for the FRI names, 120 for the
    /// multilinear ones (WHIR's Johnson-bound regime), 0 for the test
    /// names.
    pub const fn floor_bits(self) -> usize {
        if self.is_insecure() {
            0
        } else if self.backend().is_multilinear() {
            120
        } else {
            100
        }
    }

    /// The Merkle hash of a secure name's commitments (its collision
    /// resistance must not undercut the floor); the test names leave it to
    /// the aggregator.
    pub const fn merkle(self) -> MerkleHash {
        match self {
            Named::WhirCompact => MerkleHash::Sha256Trunc31,
            Named::WhirSkipPoseidon2 => MerkleHash::Poseidon2,
            _ => MerkleHash::Sha256,
        }
    }

    /// One line saying what the name means, the same for every scheme.
    pub const fn description(self) -> &'static str {
        match self {
            Named::Fast => "FRI, rate 1/2, at least 100 proven bits, SHA-256: the fastest prover",
            Named::Compact => "FRI, rate 1/8, at least 100 proven bits, SHA-256: shorter proofs, slower prover",
            Named::Whir => {
                "WHIR (Plonky3), starting rate 1/2, at least 120 proven bits, SHA-256: the reference whir-skip is measured against"
            }
            Named::WhirCompact => {
                "WHIR (Plonky3), starting rate 1/8, at least 120 proven bits, SHA-256 truncated to 31 bytes: the shortest proofs"
            }
            Named::WhirSkip => "our multilinear prover on WHIR, starting rate 1/2, at least 120 proven bits, SHA-256",
            Named::WhirSkipPoseidon2 => {
                "whir-skip with Merkle trees and transcript over Poseidon2 (KoalaBear), at least 120 proven bits: for recursion"
            }
            Named::WhirSkipCompact => {
                "our multilinear prover on WHIR, starting rate 1/4, at least 120 proven bits, SHA-256: shorter proofs"
            }
            Named::Test => "INSECURE, for tests: FRI, rate 1/2, SHA-256",
            Named::TestCompact => "INSECURE, for tests: FRI, rate 1/8",
            Named::TestWhir => "INSECURE, for tests: WHIR, starting rate 1/2, SHA-256",
            Named::TestWhirSkip => "INSECURE, for tests: our multilinear prover, starting rate 1/2, SHA-256",
        }
    }

    /// Whether `settings` keeps this name's contract in what the name
    /// fixes directly (backend, starting rate and, for a secure name, a
    /// Merkle hash that resists collisions up to the floor); each
    /// aggregator's tests check it for its own mapping, the floor itself by
    /// its security tests.
    pub fn is_kept_by(self, settings: &Settings) -> bool {
        settings.backend() == self.backend()
            && settings.log_blowup() == self.log_blowup()
            && (self.is_insecure() || settings.merkle().collision_bits() >= self.floor_bits())
    }

    /// The name an aggregator's mapping `settings_of` gives `settings`, or
    /// `None` for settings no name gives (a verifier must then be told
    /// which settings to use): the one reverse lookup both aggregators'
    /// `named` functions share.
    pub fn find(settings: &Settings, settings_of: impl Fn(Named) -> Settings) -> Option<Named> {
        Named::ALL.into_iter().find(|&n| settings_of(n) == *settings)
    }
}

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Named {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Named::from_name(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_and_unknown_names_are_typed_errors() {
        for named in Named::ALL {
            assert_eq!(Named::from_name(named.name()), Ok(named));
            assert_eq!(named.to_string().parse::<Named>(), Ok(named));
            assert!(!named.description().is_empty());
        }
        let e = Named::from_name("FAST").unwrap_err();
        assert_eq!(e.name, "FAST");
        for name in Named::names() {
            assert!(e.to_string().contains(name), "{e}");
        }
    }

    #[test]
    fn floors_follow_backend_and_security() {
        for named in Named::ALL {
            let floor = named.floor_bits();
            assert_eq!(floor == 0, named.is_insecure(), "{named}");
            assert!(named.is_insecure() || named.merkle().collision_bits() >= floor, "{named}");
            assert_eq!(named.description().contains("INSECURE"), named.is_insecure(), "{named}");
        }
        assert_eq!(Named::Compact.floor_bits(), Named::Fast.floor_bits());
    }

    #[test]
    fn the_prover_constants_keep_their_names_contracts() {
        for (named, settings) in [
            (Named::Fast, Settings::FAST),
            (Named::Compact, Settings::COMPACT),
            (Named::Whir, Settings::WHIR),
            (Named::WhirCompact, Settings::WHIR_COMPACT),
            (Named::WhirSkip, Settings::WHIR_SKIP),
            (Named::WhirSkipPoseidon2, Settings::WHIR_SKIP_POSEIDON2),
            (Named::WhirSkipCompact, Settings::WHIR_SKIP_COMPACT),
            (Named::Test, Settings::INSECURE_TEST),
            (Named::TestWhir, Settings::INSECURE_TEST_WHIR),
            (Named::TestWhirSkip, Settings::INSECURE_TEST_SKIP),
        ] {
            assert!(named.is_kept_by(&settings), "{named}: {settings:?}");
            assert!(named.is_insecure() || settings.merkle() == named.merkle(), "{named}");
        }
    }

    /// Another backend, another rate, or (for a secure name) a hash whose
    /// collision resistance is below the floor breaks a name's contract;
    /// the reverse lookup finds only exact settings.
    #[test]
    fn contracts_are_broken_by_other_backends_rates_and_weak_hashes() {
        use crate::config::{FriSettings, MerkleHash, WhirSettings};
        let weak = FriSettings { merkle: MerkleHash::Sha256Trunc24, ..FriSettings::COMPACT };
        assert!(!Named::Compact.is_kept_by(&Settings::Fri(weak)));
        assert!(Named::TestCompact.is_kept_by(&Settings::Fri(FriSettings { num_queries: 20, ..weak })));
        assert!(!Named::Fast.is_kept_by(&Settings::Fri(FriSettings { log_blowup: 2, ..FriSettings::FAST })));
        assert!(!Named::Whir.is_kept_by(&Settings::Skip(WhirSettings::WHIR)));
        let prover = |n: Named| match n {
            Named::Fast => Settings::FAST,
            _ => Settings::COMPACT,
        };
        assert_eq!(Named::find(&Settings::FAST, prover), Some(Named::Fast));
        assert_eq!(Named::find(&Settings::Fri(FriSettings { num_queries: 7, ..FriSettings::FAST }), prover), None);
    }
}
