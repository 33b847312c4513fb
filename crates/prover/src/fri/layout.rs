//! Where the bytes of a FRI batch proof go, in the packed body format of
//! [`crate::codec`]: the parts Plonky3's `BatchProof` is written in, for
//! the size breakdowns and for tests that flip bytes inside every part.
//! The codec itself knows nothing of any backend's proof.

use p3_batch_stark::BatchProof;

use crate::codec::{encoded_bits, in_bytes};
use crate::config::{AggConfig, AggConfig24};

/// The body of both breakdowns: the two configurations differ only in the
/// digest type, which Plonky3's bounds make awkward to abstract over.
macro_rules! breakdown {
    ($proof:expr) => {{
        let proof = $proof;
        let fri = &proof.opening_proof;
        let mut parts = vec![
            ("commitments".to_string(), encoded_bits(&proof.commitments)),
            ("ood values".to_string(), encoded_bits(&proof.opened_values)),
            (
                "lookup terminals, degrees, pow".to_string(),
                encoded_bits(&proof.lookup_terminals)
                    + encoded_bits(&proof.degree_bits)
                    + encoded_bits(&proof.lookup_pow_witness)
                    + encoded_bits(&proof.ood_pow_witness),
            ),
            (
                "fri commits, final poly, pow".to_string(),
                encoded_bits(&fri.commit_phase_commits)
                    + encoded_bits(&fri.commit_pow_witnesses)
                    + encoded_bits(&fri.final_poly)
                    + encoded_bits(&fri.batch_pow_witness)
                    + encoded_bits(&fri.query_pow_witness),
            ),
        ];
        // The batch prover opens its commitments in this order: the
        // randomization (zero-knowledge only), main, quotient, preprocessed
        // (sigagg's AIRs have none), then the lookup (permutation) traces.
        let names: Vec<&str> = [
            proof.commitments.random.as_ref().map(|_| "random"),
            Some("main"),
            Some("quotient"),
            proof.commitments.permutation.as_ref().map(|_| "permutation"),
        ]
        .into_iter()
        .flatten()
        .collect();
        for (i, opening) in fri.input_openings.iter().enumerate() {
            let name = names.get(i).copied().unwrap_or("input");
            parts.push((format!("{name} rows"), encoded_bits(&opening.opened_values)));
            parts.push((format!("{name} paths"), encoded_bits(&opening.opening_proof)));
        }
        let siblings: usize = fri.commit_phase_openings.iter().map(|s| encoded_bits(&s.sibling_values)).sum();
        let paths: usize = fri.commit_phase_openings.iter().map(|s| encoded_bits(&s.opening_proof)).sum();
        parts.push(("fri siblings".to_string(), siblings));
        parts.push(("fri paths".to_string(), paths));
        in_bytes(parts)
    }};
}

/// The body of [`body_layout`] and [`body_layout24`] (the two configurations
/// differ only in the digest type).
macro_rules! layout {
    ($proof:expr) => {{
        let proof = $proof;
        let fri = &proof.opening_proof;
        vec![
            ("commitments", encoded_bits(&proof.commitments)),
            ("ood values", encoded_bits(&proof.opened_values)),
            ("batch pow witness", encoded_bits(&fri.batch_pow_witness)),
            ("fri commitments", encoded_bits(&fri.commit_phase_commits)),
            ("fri commit pow witnesses", encoded_bits(&fri.commit_pow_witnesses)),
            ("input openings", encoded_bits(&fri.input_openings)),
            ("fri openings", encoded_bits(&fri.commit_phase_openings)),
            ("final polynomial", encoded_bits(&fri.final_poly)),
            ("query pow witness", encoded_bits(&fri.query_pow_witness)),
            ("lookup terminals", encoded_bits(&proof.lookup_terminals)),
            ("degree bits", encoded_bits(&proof.degree_bits)),
            ("lookup pow witness", encoded_bits(&proof.lookup_pow_witness)),
            ("ood pow witness", encoded_bits(&proof.ood_pow_witness)),
        ]
    }};
}

/// The parts of the body of a proof with full-width commitments, in
/// encoding order (a struct's fields are written in declaration order),
/// each with its encoded length in bits: they tile the body exactly, so a
/// test can flip bytes inside every part.
pub(super) fn body_layout(proof: &BatchProof<AggConfig>) -> Vec<(&'static str, usize)> {
    layout!(proof)
}

/// [`body_layout`] for a proof with 24-byte commitments.
pub(super) fn body_layout24(proof: &BatchProof<AggConfig24>) -> Vec<(&'static str, usize)> {
    layout!(proof)
}

/// Where the bytes of a batch proof with full-width commitments go, part
/// by part, in the body format:
/// `(part, bytes)` pairs that sum to the encoded length up to a few length
/// prefixes. For choosing settings and layouts.
pub(super) fn size_breakdown(proof: &BatchProof<AggConfig>) -> Vec<(String, usize)> {
    breakdown!(proof)
}

/// [`size_breakdown`] for a proof with 24-byte commitments.
pub(super) fn size_breakdown24(proof: &BatchProof<AggConfig24>) -> Vec<(String, usize)> {
    breakdown!(proof)
}
