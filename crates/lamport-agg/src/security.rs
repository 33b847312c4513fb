//! Security level of a configuration, computed with Plonky3's `p3-security`
//! calculator from the actual AIRs and settings.
//!
//! The batch is modelled as one STARK whose ALI batches every constraint of
//! every table (plus the LogUp constraints), whose trace length is the
//! tallest table's, whose opening batch is the sum of every table's
//! committed columns, and whose LogUp term counts every interaction of every
//! table as if it sat on the tallest table. Each of these choices can only
//! lower the reported level. Grinding is counted at every site the prover
//! grinds and the verifier checks (FRI query and commit phases, the batching
//! challenge, the lookup challenges and the out-of-domain point).
//!
//! The shape used is the worst one for its size: every codeword bit set, so
//! the overflow table exists (more columns and constraints than any real
//! statement of that size).

use p3_air::BaseAir;
use p3_air::symbolic::AirLayout;
use p3_batch_stark::num_batched_openings;
use p3_field::{Field, PrimeCharacteristicRing};
use p3_fri::FriParameters;
use p3_lookup::InteractionSymbolicBuilder;
use p3_security::grinding::GrindingSites;
use p3_security::logup::{self, LogUpAir};
use p3_security::shape::{InstanceShape, StarkAirParams};
use p3_security::stark::{conjectured_security_report, proven_security_report};
use p3_uni_stark::OpeningShape;
use serde::Serialize;
use sigagg_lamport::GroupKey;
use sigagg_lamport::field::F;

use crate::air::LampAir;
use crate::poseidon::Rounds;
use crate::bus;
use crate::config::{Challenge, Settings, Val};
use crate::system::Instance;

/// Security of one configuration at one statement size.
#[derive(Clone, Debug, Serialize)]
pub struct SecurityLevel {
    /// Proven bits (the better of the unique- and list-decoding regimes).
    pub proven_bits: f64,
    /// The term that binds the proven level.
    pub proven_binding: String,
    /// Conjectured bits (random-words regime).
    pub conjectured_bits: f64,
    /// The term that binds the conjectured level.
    pub conjectured_binding: String,
}

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

/// Extension degree of the challenge field.
const CHALLENGE_DIM: usize = 5;

/// The security level of `settings` for proofs of `shape` with keys of
/// `num_subkeys` sub-keys (256 plain, 224 mined).
pub fn security_level(settings: &Settings, num_subkeys: usize, shape: ProofShape) -> SecurityLevel {
    let cw = vec![true; num_subkeys];
    let instance = match shape {
        ProofShape::Aggregate { signatures } => {
            let n = signatures.max(1);
            Instance::aggregate(Rounds::for_settings(settings), num_subkeys, &vec![cw; n], &vec![[F::ZERO; 8]; n], [0; 32])
        }
        ProofShape::Threshold { signers, group_size } => {
            let group = GroupKey::new([F::ONE; 8], group_size.max(1)).expect("a non-empty group");
            Instance::threshold(Rounds::for_settings(settings), num_subkeys, &cw, &group, signers.clamp(1, group_size.max(1) as usize), None, [0; 32])
        }
    };
    level(settings, &instance.airs, &instance.degree_bits())
}

/// The level of `settings` for these AIRs at these heights.
pub(crate) fn level(settings: &Settings, airs: &[LampAir], log_heights: &[usize]) -> SecurityLevel {
    let rounds = Rounds::for_settings(settings);
    // The prover's own lookup folding (tested equal to Plonky3's derivation,
    // without its symbolic degree inference).
    let all_lookups = crate::system::lookups(airs);
    let mut num_constraints = 0;
    let mut batched = 0;
    let mut interactions = 0;
    for (air, lookups) in airs.iter().zip(&all_lookups) {
        let layout = AirLayout {
            main_width: BaseAir::<Val>::width(air),
            num_periodic_columns: air.num_periodic_columns(),
            ..Default::default()
        };
        let builder = InteractionSymbolicBuilder::<Val, Challenge>::from_air(air, layout);
        // Every lookup column adds its pin constraint; the accumulator adds three.
        let lookup_constraints = if lookups.is_empty() { 0 } else { lookups.len() + 3 };
        num_constraints +=
            builder.base_constraints().len() + builder.extension_constraints().len() + lookup_constraints;
        batched += num_batched_openings(
            layout.main_width,
            !air.main_next_row_columns().is_empty(),
            0,
            false,
            rounds.quotient_chunks(),
            lookups.len(),
            CHALLENGE_DIM,
            OpeningShape::new(),
        );
        interactions += lookups.iter().map(|l| l.elements.len()).sum::<usize>();
    }
    let fri = FriParameters {
        log_blowup: settings.log_blowup,
        log_final_poly_len: settings.log_final_poly_len,
        max_log_arity: settings.max_log_arity,
        num_queries: settings.num_queries,
        batch_proof_of_work_bits: settings.batch_pow_bits,
        commit_proof_of_work_bits: settings.commit_pow_bits,
        query_proof_of_work_bits: settings.query_pow_bits,
        mmcs: (),
    };
    let regime = fri.security_regime();
    let grinding =
        GrindingSites { out_of_domain: settings.ood_pow_bits, lookup_challenge: settings.lookup_pow_bits, ..fri.grinding_sites() };
    let air = StarkAirParams {
        num_constraints,
        max_constraint_degree: rounds.max_degree(),
        num_quotient_chunks: rounds.quotient_chunks(),
        max_combo: 2,
    };
    let shape = InstanceShape {
        log_trace_length: log_heights.iter().copied().max().unwrap_or(0),
        modulus_bits: <Challenge as Field>::bits(),
        collision_resistance: settings.merkle.collision_bits(),
        num_batched_functions: batched,
    };
    let lookup_air = LogUpAir { num_interactions: interactions, max_message_width: bus::WIDTH };
    let extras: Vec<_> = logup::security_term(&lookup_air, &shape, &grinding).into_iter().collect();
    let proven = proven_security_report(&regime, &air, &shape, &extras, &grinding);
    let conjectured = conjectured_security_report(&regime, &air, &shape, &extras, &grinding);
    let (_, proven_term) = proven.binding();
    SecurityLevel {
        proven_bits: proven.security_bits(),
        proven_binding: proven_term.label.to_string(),
        conjectured_bits: conjectured.security_bits(),
        conjectured_binding: conjectured.binding().label.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use sigagg_lamport::{LamportPlus, LamportPlusMined, ParameterSet};

    use super::*;
    use crate::config::{COMPACT, FAST, MerkleHash, TEST};

    fn shapes() -> Vec<ProofShape> {
        [1, 127, 1024]
            .into_iter()
            .flat_map(|n| {
                [ProofShape::Aggregate { signatures: n }, ProofShape::Threshold { signers: n, group_size: n as u32 }]
            })
            .collect()
    }

    /// The named settings reach their floors for both sets at every size
    /// checked: fast 100 proven bits, compact 96.
    #[test]
    fn named_settings_reach_their_floors() {
        for subkeys in [LamportPlus::NUM_SUBKEYS, LamportPlusMined::NUM_SUBKEYS] {
            for shape in shapes() {
                let fast = security_level(&FAST, subkeys, shape);
                assert!(fast.proven_bits >= 100.0, "fast {shape:?}: {fast:?}");
                let compact = security_level(&COMPACT, subkeys, shape);
                assert!(compact.proven_bits >= 96.0, "compact {shape:?}: {compact:?}");
                assert!(compact.conjectured_bits >= compact.proven_bits, "{compact:?}");
            }
        }
        let test = security_level(&TEST, LamportPlus::NUM_SUBKEYS, ProofShape::Aggregate { signatures: 16 });
        assert!(test.proven_bits < 80.0, "{test:?}");
    }

    /// The compact setting's 24-byte digests cap it at 96 bits, and FRI
    /// alone (the same setting with full-width digests) would give at
    /// least as much: the truncation costs nothing below the claimed level,
    /// and shortening the digest further would.
    #[test]
    fn compact_digest_matches_its_level() {
        assert_eq!(COMPACT.merkle.collision_bits(), 96);
        let full = Settings { merkle: MerkleHash::Sha256, ..COMPACT };
        for shape in shapes() {
            let capped = security_level(&COMPACT, LamportPlus::NUM_SUBKEYS, shape);
            assert!(capped.proven_bits <= 96.0 + 1e-9, "{capped:?}");
            let fri = security_level(&full, LamportPlus::NUM_SUBKEYS, shape);
            assert!(fri.proven_bits >= 96.0, "{shape:?}: {fri:?}");
        }
    }
}
