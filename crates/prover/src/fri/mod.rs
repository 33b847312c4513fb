//! The univariate backend ([`Backend::Fri`](crate::config::Backend::Fri)):
//! Plonky3's batch STARK (`p3-batch-stark`) with FRI (`p3-fri`), over the
//! Merkle hash the settings name. Every table is one instance of the
//! batch; their lookups are folded by [`Table::lookups`], and their
//! quotients split by their declared degrees ([`Table::degree`],
//! [`verifier::log_quotient_chunks`]). Proofs are made by
//! [`prover::prove_batch_owned`], which owns the traces, and checked by
//! [`verifier::verify_batch_with_chunks`]: Plonky3's batch-STARK protocol
//! on both sides, without its symbolic degree inference.

#[cfg(any(test, feature = "testing"))]
pub mod compare;
mod layout;
pub mod lookup_columns;
pub mod prover;
mod quotient;
pub mod security;
mod transpose;
pub mod verifier;

use std::panic::{AssertUnwindSafe, catch_unwind};

use p3_air::BaseAir;
use p3_air::symbolic::AirLayout;
use p3_batch_stark::{BatchProof, BatchShape, CommonData, StarkGenericConfig};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_util::log2_strict_usize;
use serde::{Deserialize, Serialize};

use self::prover::prove_batch_owned;
use self::verifier::{log_quotient_chunks, verify_batch_with_chunks};
use crate::config::{AggConfig, AggConfig24, FriSettings, MerkleHash, Settings, Val};
use crate::error::{ProveError, VerifyError};
use crate::table::{Table, Tables};

/// A batch STARK in the configuration its settings' Merkle hash selects
/// ([`Settings::merkle`]): the two differ only in the digests of their
/// commitments and Merkle paths.
#[derive(Serialize, Deserialize)]
pub enum FriProof {
    /// Full-width SHA-256 commitments.
    Sha256(BatchProof<AggConfig>),
    /// SHA-256 commitments truncated to 24 bytes.
    Sha256Trunc24(BatchProof<AggConfig24>),
}

impl FriProof {
    /// The Merkle hash of the commitments.
    pub fn merkle(&self) -> MerkleHash {
        match self {
            Self::Sha256(_) => MerkleHash::Sha256,
            Self::Sha256Trunc24(_) => MerkleHash::Sha256Trunc24,
        }
    }

    /// log2 of every table height, as the proof claims them.
    pub fn degree_bits(&self) -> &[usize] {
        match self {
            Self::Sha256(p) => &p.degree_bits,
            Self::Sha256Trunc24(p) => &p.degree_bits,
        }
    }

    /// Where the proof's bytes go (`layout::size_breakdown`).
    pub fn size_breakdown(&self) -> Vec<(String, usize)> {
        match self {
            Self::Sha256(p) => layout::size_breakdown(p),
            Self::Sha256Trunc24(p) => layout::size_breakdown24(p),
        }
    }

    /// The parts of the encoding in bits, the hash tag first
    /// (`layout::body_layout`).
    pub fn body_layout(&self) -> Vec<(&'static str, usize)> {
        let mut parts = vec![("merkle hash tag", 8)];
        parts.extend(match self {
            Self::Sha256(p) => layout::body_layout(p),
            Self::Sha256Trunc24(p) => layout::body_layout24(p),
        });
        parts
    }
}

/// One batch proof of `traces` against `tables`, with the transcript
/// seeded by [`Tables::transcript_seed`] and the final FRI polynomial
/// fitted to the shortest table ([`FriSettings::fitted_to`]).
pub(crate) fn prove<A: Table>(
    settings: &FriSettings,
    tables: &Tables<'_, A>,
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<FriProof, ProveError> {
    let heights: Vec<usize> = traces.iter().map(|t| log2_strict_usize(t.height())).collect();
    assert_eq!(heights, tables.log_heights, "one trace per table, at the statement's heights");
    let fitted = settings.fitted_to(&tables.log_heights);
    let seed = tables.transcript_seed(&Settings::Fri(*settings));
    let lookups = A::lookups(tables.airs);
    let (airs, public_values, chunks) = (tables.airs, &tables.public_values, &declared_log_chunks(tables.airs));
    // The two arms differ only in the configuration's Merkle hash.
    macro_rules! prove_with {
        ($variant:ident, $config:expr) => {
            FriProof::$variant(prove_batch_owned(&$config, airs, traces, public_values, &lookups, chunks)?)
        };
    }
    Ok(match settings.merkle {
        MerkleHash::Sha256 => prove_with!(Sha256, fitted.stark_config_seeded(seed)),
        MerkleHash::Sha256Trunc24 => prove_with!(Sha256Trunc24, fitted.stark_config24_seeded(seed)),
        other => {
            return Err(ProveError(format!(
                "the FRI backend commits with SHA-256 or its 24-byte truncation, not {other:?}"
            )));
        }
    })
}

/// The symbolic layout of `air`'s constraints as the sigagg tables have
/// them: main columns, public values and periodic columns, no
/// preprocessed ones.
fn air_layout<F, A: BaseAir<F>>(air: &A) -> AirLayout {
    AirLayout {
        main_width: air.width(),
        num_public_values: air.num_public_values(),
        num_periodic_columns: air.num_periodic_columns(),
        ..Default::default()
    }
}

/// The shape of a batch proof that prover and verifier bind into the
/// transcript: the sigagg tables have no preprocessed columns and no
/// zero-knowledge randomization, so only the widths, public-value counts
/// and number of tables with lookups vary.
fn batch_shape<SC: StarkGenericConfig, A: BaseAir<p3_batch_stark::Val<SC>>>(
    config: &SC,
    airs: &[A],
    public_value_counts: Vec<usize>,
    num_lookup_instances: usize,
) -> BatchShape {
    BatchShape {
        trace_widths: airs.iter().map(A::width).collect(),
        public_value_counts,
        preprocessed_widths: vec![0; airs.len()],
        has_preprocessed_commitment: false,
        num_lookup_instances,
        lookup_pow_bits: config.lookup_proof_of_work_bits(),
        has_randomization_commitment: false,
        ood_pow_bits: config.ood_proof_of_work_bits(),
    }
}

/// log2 of every table's quotient-chunk count, from its declared degree.
fn declared_log_chunks<A: Table>(airs: &[A]) -> Vec<usize> {
    airs.iter().map(|air| log_quotient_chunks(air.degree())).collect()
}

/// Checks a batch proof against `tables`. Plonky3's verifier reports
/// malformed proofs as errors; a panic on some unforeseen malformed input
/// is still caught and reported as [`VerifyError::Invalid`], so untrusted
/// bytes never abort the caller.
pub(crate) fn verify<A: Table>(
    settings: &FriSettings,
    tables: &Tables<'_, A>,
    proof: &FriProof,
) -> Result<(), VerifyError> {
    if proof.merkle() != settings.merkle {
        return Err(VerifyError::WrongMerkleHash { expected: settings.merkle, found: proof.merkle() });
    }
    if proof.degree_bits() != tables.log_heights {
        return Err(VerifyError::ShapeMismatch);
    }
    let fitted = settings.fitted_to(&tables.log_heights);
    let seed = tables.transcript_seed(&Settings::Fri(*settings));
    let (airs, public_values) = (tables.airs, &tables.public_values);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let (lookups, chunks) = (A::lookups(airs), declared_log_chunks(airs));
        match proof {
            FriProof::Sha256(p) => {
                let (config, common) = (fitted.stark_config_seeded(seed), CommonData::new(None, lookups));
                verify_batch_with_chunks(&config, airs, p, public_values, &common, &chunks)
                    .map_err(|e| format!("{e:?}"))
            }
            FriProof::Sha256Trunc24(p) => {
                let (config, common) = (fitted.stark_config24_seeded(seed), CommonData::new(None, lookups));
                verify_batch_with_chunks(&config, airs, p, public_values, &common, &chunks)
                    .map_err(|e| format!("{e:?}"))
            }
        }
        .map_err(VerifyError::Invalid)
    }));
    outcome.unwrap_or_else(|_| Err(VerifyError::Invalid("the verifier rejected a malformed proof".into())))
}
