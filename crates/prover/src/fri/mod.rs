//! The univariate backend ([`Backend::Fri`](crate::config::Backend::Fri)):
//! Plonky3's batch STARK (`p3-batch-stark`) with FRI (`p3-fri`), over the
//! Merkle hash the settings name. Every table is one instance of the
//! batch; their lookups are folded by [`Table::lookups`]. Proofs are made
//! by [`prover::prove_batch_owned`], which owns the traces, and checked by
//! Plonky3's `verify_batch`.

pub mod lookup_columns;
pub mod prover;
pub mod security;

use std::panic::{AssertUnwindSafe, catch_unwind};

use p3_batch_stark::{BatchProof, CommonData, ProverData, ProverOnlyData, StarkInstance, prove_batch, verify_batch};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_util::log2_strict_usize;
use serde::{Deserialize, Serialize};

use self::prover::prove_batch_owned;
use crate::backend::{ProveError, Table, Tables, VerifyError};
use crate::codec;
use crate::config::{AggConfig, AggConfig24, MerkleHash, Settings, Val};

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

    /// Where the proof's bytes go ([`codec::size_breakdown`]).
    pub fn size_breakdown(&self) -> Vec<(String, usize)> {
        match self {
            Self::Sha256(p) => codec::size_breakdown(p),
            Self::Sha256Trunc24(p) => codec::size_breakdown24(p),
        }
    }

    /// The parts of the encoding in bits, the hash tag first
    /// ([`codec::body_layout`]).
    pub fn body_layout(&self) -> Vec<(&'static str, usize)> {
        let mut parts = vec![("merkle hash tag", 8)];
        parts.extend(match self {
            Self::Sha256(p) => codec::body_layout(p),
            Self::Sha256Trunc24(p) => codec::body_layout24(p),
        });
        parts
    }
}

/// One batch proof of `traces` against `tables`, with the transcript
/// seeded by [`Tables::transcript_seed`] and the final FRI polynomial
/// fitted to the shortest table ([`Settings::fitted_to`]).
pub(crate) fn prove<A: Table>(
    settings: &Settings,
    tables: &Tables<'_, A>,
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<FriProof, ProveError> {
    let heights: Vec<usize> = traces.iter().map(|t| log2_strict_usize(t.height())).collect();
    assert_eq!(heights, tables.log_heights, "one trace per table, at the statement's heights");
    let fitted = settings.fitted_to(&tables.log_heights);
    let seed = tables.transcript_seed(settings);
    let lookups = A::lookups(tables.airs);
    let (airs, public_values) = (tables.airs, &tables.public_values);
    Ok(match settings.merkle {
        MerkleHash::Sha256 => FriProof::Sha256(prove_batch_owned(
            &fitted.stark_config_seeded(seed),
            airs,
            traces,
            public_values,
            &lookups,
        )?),
        MerkleHash::Sha256Trunc24 => FriProof::Sha256Trunc24(prove_batch_owned(
            &fitted.stark_config24_seeded(seed),
            airs,
            traces,
            public_values,
            &lookups,
        )?),
        other => return Err(ProveError(format!("the FRI backend commits with SHA-256 or its 24-byte truncation, not {other:?}"))),
    })
}

/// `traces` proved against `tables` by [`prove`] and by Plonky3's own
/// `prove_batch`, each proof serialized, for tests: the two must be equal
/// byte for byte, since [`prover`] claims to run Plonky3's protocol.
#[doc(hidden)]
pub fn proofs_both_ways<A: Table>(settings: &Settings, tables: &Tables<'_, A>, traces: Vec<RowMajorMatrix<Val>>) -> (Vec<u8>, Vec<u8>) {
    assert_eq!(settings.merkle, MerkleHash::Sha256, "compared under full-width SHA-256");
    let config = settings.fitted_to(&tables.log_heights).stark_config_seeded(tables.transcript_seed(settings));
    let instances: Vec<StarkInstance<'_, _, A>> = tables
        .airs
        .iter()
        .zip(&traces)
        .zip(&tables.public_values)
        .map(|((air, trace), public_values)| StarkInstance { air, trace, public_values: public_values.clone() })
        .collect();
    let data = ProverData { common: CommonData::new(None, A::lookups(tables.airs)), prover_only: ProverOnlyData::empty() };
    let theirs = prove_batch(&config, &instances, &data).expect("Plonky3's proof");
    let ours = match prove(settings, tables, traces.clone()).expect("our proof") {
        FriProof::Sha256(p) => p,
        FriProof::Sha256Trunc24(_) => unreachable!("proved under SHA-256"),
    };
    (postcard::to_allocvec(&ours).expect("serializable"), postcard::to_allocvec(&theirs).expect("serializable"))
}

/// Checks a batch proof against `tables`. Plonky3's verifier reports
/// malformed proofs as errors; a panic on some unforeseen malformed input
/// is still caught and reported as [`VerifyError::Invalid`], so untrusted
/// bytes never abort the caller.
pub(crate) fn verify<A: Table>(settings: &Settings, tables: &Tables<'_, A>, proof: &FriProof) -> Result<(), VerifyError> {
    if proof.merkle() != settings.merkle {
        return Err(VerifyError::WrongMerkleHash { expected: settings.merkle, found: proof.merkle() });
    }
    if proof.degree_bits() != tables.log_heights {
        return Err(VerifyError::ShapeMismatch);
    }
    let fitted = settings.fitted_to(&tables.log_heights);
    let seed = tables.transcript_seed(settings);
    let (airs, public_values) = (tables.airs, &tables.public_values);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let lookups = A::lookups(airs);
        match proof {
            FriProof::Sha256(p) => {
                let config = fitted.stark_config_seeded(seed);
                verify_batch(&config, airs, p, public_values, &CommonData::new(None, lookups)).map_err(|e| format!("{e:?}"))
            }
            FriProof::Sha256Trunc24(p) => {
                let config = fitted.stark_config24_seeded(seed);
                verify_batch(&config, airs, p, public_values, &CommonData::new(None, lookups)).map_err(|e| format!("{e:?}"))
            }
        }
        .map_err(VerifyError::Invalid)
    }));
    outcome.unwrap_or_else(|_| Err(VerifyError::Invalid("the verifier rejected a malformed proof".into())))
}

/// The lookups of `tables` as the backend folds them ([`Table::lookups`])
/// and as Plonky3's own `ProverData::from_airs_and_degrees` derives them,
/// serialized, for tests (the folding skips Plonky3's symbolic degree
/// inference, so the two must be shown equal).
#[doc(hidden)]
pub fn lookups_both_ways<A: Table>(settings: &Settings, tables: &Tables<'_, A>) -> (Vec<u8>, Vec<u8>) {
    let ours = A::lookups(tables.airs);
    let theirs = ProverData::from_airs_and_degrees(&settings.stark_config_seeded(Vec::new()), tables.airs, &tables.log_heights)
        .expect("no preprocessed columns")
        .common
        .lookups;
    (postcard::to_allocvec(&ours).expect("serializable"), postcard::to_allocvec(&theirs).expect("serializable"))
}
