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
    use crate::named::{COMPACT, TEST};

    fn shapes(sizes: &[usize]) -> Vec<ProofShape> {
        sizes
            .iter()
            .flat_map(|&n| {
                [ProofShape::Aggregate { signatures: n }, ProofShape::Threshold { signers: n, group_size: n as u32 }]
            })
            .collect()
    }

    /// Every secure name of the registry keeps its promise for Lamport+
    /// (100 proven bits for FRI, 120 for the multilinear names): aggregate
    /// and threshold, both sets, from one signature to the largest
    /// statement the setting accepts; the conjectured level is never below
    /// the proven one.
    #[test]
    fn every_secure_name_reaches_its_floor() {
        for named in crate::Named::ALL.into_iter().filter(|n| !n.is_insecure()) {
            let settings = crate::settings(named);
            let floor = named.floor_bits() as f64;
            let largest = crate::layout::max_signatures(&settings);
            let sizes: Vec<usize> = [1, 127, 1024, largest].into_iter().filter(|&n| n <= largest).collect();
            for subkeys in [LamportPlus::NUM_SUBKEYS, LamportPlusMined::NUM_SUBKEYS] {
                for shape in shapes(&sizes) {
                    let level = security_level(&settings, subkeys, shape);
                    assert!(level.proven_bits >= floor, "{named} {shape:?}: {level:?}");
                    assert!(level.conjectured_bits >= level.proven_bits, "{named} {shape:?}: {level:?}");
                }
            }
        }
    }

    /// The test settings state a level, far below any floor.
    #[test]
    fn the_test_settings_are_insecure() {
        for insecure in [TEST, crate::named::TEST_WHIR, crate::named::TEST_WHIR_SKIP] {
            let test = security_level(&insecure, LamportPlus::NUM_SUBKEYS, ProofShape::Aggregate { signatures: 16 });
            assert!(test.proven_bits > 0.0 && test.proven_bits < 80.0, "{test:?}");
        }
    }

    /// The compact setting's FRI term, not its hash, sets its level:
    /// full-width SHA-256 (128 collision bits) is above every level it
    /// states, and the registry's floor (100) is below it.
    #[test]
    fn compact_level_is_its_fri_term() {
        assert_eq!(COMPACT.merkle(), MerkleHash::Sha256);
        for shape in shapes(&[1, 127, 1024]) {
            let level = security_level(&COMPACT, LamportPlus::NUM_SUBKEYS, shape);
            assert!(level.proven_bits >= 100.0 && level.proven_bits < 128.0, "{shape:?}: {level:?}");
        }
    }
}
