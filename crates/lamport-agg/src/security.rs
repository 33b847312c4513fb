//! Security level of a configuration: what the backend the settings name
//! states for the actual tables (`sigagg_prover::security_level`; for the
//! FRI backend, Plonky3's `p3-security` calculator with every constraint,
//! opening and interaction of the batch counted conservatively and
//! grinding counted at every site).
//!
//! The shape used is the worst one for its size: every codeword bit set, so
//! the overflow table exists (more columns and constraints than any real
//! statement of that size).

use p3_field::PrimeCharacteristicRing;
use sigagg_lamport::GroupKey;
use sigagg_lamport::field::F;

pub use sigagg_prover::SecurityLevel;

use crate::config::Settings;
use crate::poseidon::Rounds;
use crate::system::Instance;

/// Which proof, at which size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofShape {
    /// An aggregate of `signatures` signatures.
    Aggregate {
        /// Number of signatures.
        signatures: usize,
    },
    /// A threshold proof of `signers` signers in a group of `group_size`.
    Threshold {
        /// Number of signers counted.
        signers: usize,
        /// Group size.
        group_size: u32,
    },
}

/// The security level of `settings` for proofs of `shape` with keys of
/// `num_subkeys` sub-keys (256 plain, 224 mined), in the layout
/// `Instance::for_settings` gives that shape.
pub fn security_level(settings: &Settings, num_subkeys: usize, shape: ProofShape) -> SecurityLevel {
    let cw = vec![true; num_subkeys];
    let build = |rounds: Rounds| match shape {
        ProofShape::Aggregate { signatures } => {
            let n = signatures.max(1);
            Instance::aggregate(rounds, num_subkeys, &vec![cw.clone(); n], &vec![[F::ZERO; 8]; n], [0; 32])
        }
        ProofShape::Threshold { signers, group_size } => {
            let group = GroupKey::new([F::ONE; 8], group_size.max(1)).expect("a non-empty group");
            Instance::threshold(
                rounds,
                num_subkeys,
                &cw,
                &group,
                signers.clamp(1, group_size.max(1) as usize),
                None,
                [0; 32],
            )
        }
    };
    sigagg_prover::security_level(settings, &Instance::for_settings(settings, build).tables())
}

#[cfg(test)]
mod tests {
    use sigagg_lamport::{LamportPlus, LamportPlusMined, ParameterSet};

    use super::*;
    use crate::config::MerkleHash;
    use crate::named::{COMPACT, FAST, TEST};

    fn shapes() -> Vec<ProofShape> {
        [1, 127, 1024]
            .into_iter()
            .flat_map(|n| {
                [ProofShape::Aggregate { signatures: n }, ProofShape::Threshold { signers: n, group_size: n as u32 }]
            })
            .collect()
    }

    /// The named settings reach their floors for both sets at every size
    /// checked: 100 proven bits.
    #[test]
    fn named_settings_reach_their_floors() {
        for subkeys in [LamportPlus::NUM_SUBKEYS, LamportPlusMined::NUM_SUBKEYS] {
            for shape in shapes() {
                let fast = security_level(&FAST, subkeys, shape);
                assert!(fast.proven_bits >= 100.0, "fast {shape:?}: {fast:?}");
                let compact = security_level(&COMPACT, subkeys, shape);
                assert!(compact.proven_bits >= 100.0, "compact {shape:?}: {compact:?}");
                assert!(compact.conjectured_bits >= compact.proven_bits, "{compact:?}");
            }
        }
        let test = security_level(&TEST, LamportPlus::NUM_SUBKEYS, ProofShape::Aggregate { signatures: 16 });
        assert!(test.proven_bits < 80.0, "{test:?}");
    }

    /// Every secure name of the registry keeps its promise for Lamport+:
    /// the smallest and the largest statement it accepts, aggregate and
    /// threshold, for both sets, state at least the name's floor.
    #[test]
    fn every_secure_name_reaches_its_floor() {
        for named in crate::Named::ALL.into_iter().filter(|n| !n.is_insecure()) {
            let settings = crate::settings(named);
            let floor = named.floor_bits() as f64;
            for n in [1, crate::layout::max_signatures(&settings)] {
                for subkeys in [LamportPlus::NUM_SUBKEYS, LamportPlusMined::NUM_SUBKEYS] {
                    for shape in [
                        ProofShape::Aggregate { signatures: n },
                        ProofShape::Threshold { signers: n, group_size: n as u32 },
                    ] {
                        let level = security_level(&settings, subkeys, shape);
                        assert!(level.proven_bits >= floor, "{named} {shape:?}: {level:?}");
                    }
                }
            }
        }
    }

    /// The multilinear settings state at least 120 proven bits for both
    /// sets at every size checked, the largest each accepts included; the
    /// test counterpart is insecure.
    #[test]
    fn the_multilinear_settings_reach_120_proven_bits() {
        for settings in [crate::named::WHIR, crate::named::WHIR_COMPACT, crate::named::WHIR_SKIP] {
            let largest = crate::layout::max_signatures(&settings);
            let extremes = [
                ProofShape::Aggregate { signatures: largest },
                ProofShape::Threshold { signers: largest, group_size: largest as u32 },
            ];
            for subkeys in [LamportPlus::NUM_SUBKEYS, LamportPlusMined::NUM_SUBKEYS] {
                for shape in shapes().into_iter().chain(extremes) {
                    let level = security_level(&settings, subkeys, shape);
                    assert!(level.proven_bits >= 120.0, "{settings:?} {shape:?}: {level:?}");
                }
            }
        }
        for insecure in [crate::named::TEST_WHIR, crate::named::TEST_WHIR_SKIP] {
            let test = security_level(&insecure, LamportPlus::NUM_SUBKEYS, ProofShape::Aggregate { signatures: 16 });
            assert!(test.proven_bits > 0.0 && test.proven_bits < 80.0, "{test:?}");
        }
    }

    /// The compact setting's FRI term, not its hash, sets its level:
    /// full-width SHA-256 (128 collision bits) is above every level it
    /// states, and the registry's floor (100) is below it.
    #[test]
    fn compact_level_is_its_fri_term() {
        assert_eq!(COMPACT.merkle, MerkleHash::Sha256);
        for shape in shapes() {
            let level = security_level(&COMPACT, LamportPlus::NUM_SUBKEYS, shape);
            assert!(level.proven_bits >= 100.0 && level.proven_bits < 128.0, "{shape:?}: {level:?}");
        }
    }
}
