//! One STARK proof that N generalized-XMSS signatures (parameter set
//! [`Seed001`]) are valid, each under its own key, at its own epoch, over its
//! own message (or one shared message, the consensus case).
//!
//! The statement is the list of `(public key, epoch, message)`; the
//! signatures are the witness. The proof is a Plonky3 batch STARK over
//! KoalaBear with a degree-5 challenge extension and SHA-256 commitments; its
//! five tables are described in [`air`].
//!
//! ```no_run
//! use sigagg_xmss_agg::{Entry, Settings, Statement, aggregate, verify};
//! use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
//!
//! let message = [7u8; 32];
//! let (entries, signatures): (Vec<_>, Vec<_>) = (0..4)
//!     .map(|_| {
//!         let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), 9, &message).unwrap();
//!         (Entry { public_key: pk, epoch: 9, message }, sig)
//!     })
//!     .unzip();
//! let statement = Statement::new(entries).unwrap();
//! let proof = aggregate(&Settings::FAST, &statement, &signatures).unwrap();
//! let bytes = proof.to_bytes();
//! let proof = sigagg_xmss_agg::AggregateProof::from_bytes(&bytes).unwrap();
//! verify(&Settings::FAST, &statement, &proof).unwrap();
//! ```

pub mod air;
pub mod bus;
pub mod error;
pub mod group;
pub mod layout;
pub mod poseidon;
pub mod security;
pub mod statement;
pub mod threshold;
pub mod trace;

/// The shared STARK machinery, at the paths this crate has always had.
pub use sigagg_prover::{codec, config, dft, merkle_hash, paired};

use std::sync::OnceLock;

use p3_batch_stark::{
    BatchProof, CommonData, ProverData, ProverOnlyData, StarkInstance, prove_batch, verify_batch,
};
use p3_lookup::Lookups;
use p3_util::log2_strict_usize;
use serde::{Deserialize, Serialize};
use sigagg_xmss::{Seed001, Signature};

use crate::air::{
    AggAir, chain::ChainAir, digits::DigitAir, hash24::HashAir, range::RangeAir, sig::SigAir,
};
use crate::config::AggConfig;
pub use crate::config::Settings;
pub use crate::error::{AggregateError, StatementError, ThresholdError, VerifyError};
pub use crate::statement::{Entry, Statement, max_signatures};

/// Version of the proof encoding (7: the transcript is seeded with the
/// statement's digest and the settings, [`transcript_seed`], so version-6
/// proofs, whose transcript bound neither, are refused; 6: narrower tables, unread output lanes
/// and constant input lanes have no columns, and a final FRI polynomial
/// of up to 2^7 coefficients, so version-5 proofs have other shapes; 5:
/// the settings name their Merkle hash, [`config::MerkleHash`]; 4: varint
/// lengths; 3: SHA-256 commitments and transcript; 2: Keccak; 1: postcard,
/// see [`codec`]).
pub const PROOF_VERSION: u8 = 7;
/// First bytes of an encoded [`AggregateProof`].
pub const PROOF_MAGIC: &[u8; 6] = b"SGXAGG";

/// An aggregate proof with its header.
#[derive(Serialize, Deserialize)]
pub struct AggregateProof {
    /// The settings it was made with (checked against the verifier's).
    pub settings: Settings,
    /// Number of statement entries.
    pub num_entries: u32,
    /// The batch STARK proof.
    pub proof: BatchProof<AggConfig>,
}

impl core::fmt::Debug for AggregateProof {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AggregateProof")
            .field("settings", &self.settings)
            .field("num_entries", &self.num_entries)
            .field("degree_bits", &self.proof.degree_bits)
            .finish_non_exhaustive()
    }
}

impl AggregateProof {
    /// Serializes: `"SGXAGG" || version || body(settings, entries, proof)`
    /// (see [`codec`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::encode(PROOF_MAGIC, PROOF_VERSION, self)
    }

    /// Parses bytes written by [`AggregateProof::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, VerifyError> {
        codec::decode(PROOF_MAGIC, PROOF_VERSION, bytes, "aggregate proof").map_err(VerifyError::Malformed)
    }
}

/// The five AIRs of a statement under `settings`, in batch order.
fn airs(settings: &Settings, statement: &Statement) -> Vec<AggAir> {
    with_sig_air(settings, SigAir::new(statement))
}

/// AIRs of the right shape for `padded` slots (for the security calculator).
pub(crate) fn airs_for_shape(settings: &Settings, padded: usize) -> Vec<AggAir> {
    with_sig_air(settings, SigAir::placeholder(padded))
}

fn with_sig_air(settings: &Settings, sig: SigAir) -> Vec<AggAir> {
    vec![
        AggAir::Sig(sig),
        AggAir::Digits(DigitAir::new()),
        AggAir::Chain(ChainAir::new(settings.stride())),
        AggAir::Hash(HashAir::new(settings.stride())),
        AggAir::Range(RangeAir),
    ]
}

/// Proves that `signatures[i]` is a valid signature for `statement.entries()[i]`.
///
/// Witness generation runs every step of verification, so an invalid
/// signature is reported with its index instead of producing a proof.
pub fn aggregate(
    settings: &Settings,
    statement: &Statement,
    signatures: &[Signature<Seed001>],
) -> Result<AggregateProof, AggregateError> {
    settings.check_full_width().map_err(AggregateError::UnsupportedMerkleHash)?;
    if signatures.len() != statement.len() {
        return Err(AggregateError::CountMismatch {
            entries: statement.len(),
            signatures: signatures.len(),
        });
    }
    if statement.padded_len() > max_signatures(settings) {
        return Err(AggregateError::TooManyForSettings {
            count: statement.len(),
            max: max_signatures(settings),
        });
    }
    let traces = tracing::info_span!("generate traces")
        .in_scope(|| trace::generate(settings, statement, signatures))
        .map_err(|(index, reason)| AggregateError::InvalidSignature { index, reason })?;
    prove_traces(settings, statement, &traces)
}

/// Proves already generated traces (no validity checks).
fn prove_traces(
    settings: &Settings,
    statement: &Statement,
    traces: &trace::Traces,
) -> Result<AggregateProof, AggregateError> {
    let proof = prove_airs(settings, &statement.digest(), &airs(settings, statement), traces)
        .map_err(AggregateError::Prover)?;
    Ok(AggregateProof {
        settings: *settings,
        num_entries: statement.len() as u32,
        proof,
    })
}

/// Domain separator of the transcript seed.
const TRANSCRIPT_DOMAIN: &[u8] = b"sigagg/xmss-agg/transcript/v2";

/// The Fiat-Shamir seed of a proof of the statement whose digest is
/// `statement_digest` under `settings`: the challenger absorbs it before
/// anything else.
///
/// # Why
///
/// The statement reaches the constraints only through periodic columns and
/// AIR constants (keys, epochs, messages, the group root), and Plonky3 0.9
/// absorbs neither into its transcript. Without the seed, every challenge
/// would be the same whatever the statement, and the out-of-domain check
/// is linear in the periodic values: a prover could take a valid proof of
/// one statement and solve a few linear equations for another (say, a
/// victim's key in one slot, adjusted key elements in a second) that the
/// same proof satisfies. Seeding with a collision-resistant digest of the
/// statement makes every challenge depend on it, as in `sigagg-lamport-agg`.
/// The statement digests are domain-separated by proof kind
/// ([`Statement::digest`], the threshold statement's digest).
pub fn transcript_seed(settings: &Settings, statement_digest: &[u8; 32]) -> Vec<u8> {
    let mut seed = TRANSCRIPT_DOMAIN.to_vec();
    settings.words().iter().for_each(|w| seed.extend(w.to_le_bytes()));
    seed.extend_from_slice(statement_digest);
    seed
}

/// One batch proof of `traces` against `airs` (in the same order), for the
/// statement whose digest is `statement_digest` ([`transcript_seed`]).
pub(crate) fn prove_airs(
    settings: &Settings,
    statement_digest: &[u8; 32],
    airs: &[AggAir],
    traces: &trace::Traces,
) -> Result<BatchProof<AggConfig>, String> {
    let log_heights: Vec<usize> = traces.matrices().iter().map(|m| log2_strict_usize(p3_matrix::Matrix::height(*m))).collect();
    let config = settings.fitted_to(&log_heights).stark_config_seeded(transcript_seed(settings, statement_digest));
    let instances: Vec<StarkInstance<'_, AggConfig, AggAir>> = airs
        .iter()
        .zip(traces.matrices())
        .map(|(air, trace)| StarkInstance {
            air,
            trace,
            public_values: vec![],
        })
        .collect();
    // The verifier's lookups (no symbolic degree inference; equal to
    // Plonky3's own derivation, see `lookups_both_ways`).
    let prover_data = ProverData {
        common: common_data(airs),
        prover_only: ProverOnlyData::empty(),
    };
    prove_batch(&config, &instances, &prover_data).map_err(|e| format!("{e:?}"))
}

/// Checks a batch proof against `airs`, whose table heights (log2) must be
/// `expected`: they follow from the statement, never from the proof. The
/// transcript starts from the statement's digest ([`transcript_seed`]).
pub(crate) fn verify_airs(
    settings: &Settings,
    statement_digest: &[u8; 32],
    airs: &[AggAir],
    proof: &BatchProof<AggConfig>,
    expected: &[usize],
) -> Result<(), VerifyError> {
    if proof.degree_bits != expected {
        return Err(VerifyError::Invalid(
            "table heights do not match the statement".into(),
        ));
    }
    let config = settings.fitted_to(expected).stark_config_seeded(transcript_seed(settings, statement_digest));
    let public_values = vec![Vec::new(); airs.len()];
    // Plonky3's verifier checks a decoded proof's shape before using it;
    // should a malformed proof still reach a panic, it is a rejection.
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        verify_batch(&config, airs, proof, &public_values, &common_data(airs))
            .map_err(|e| VerifyError::Invalid(format!("{e:?}")))
    }));
    outcome.unwrap_or_else(|_| Err(VerifyError::Invalid("the verifier rejected a malformed proof".into())))
}

/// The lookups of every table, folded into shared columns exactly as
/// `ProverData::from_airs_and_degrees` folds them (each table's budget is
/// its constraint degree, [`AggAir::degree`]), but without its symbolic
/// degree inference, which dominates verification time. The lookups do not
/// depend on the statement's values, only on which tables the proof has
/// (aggregation: five, threshold: six) and the permutation stride, so they
/// are computed once per process, kind and stride.
fn common_data(airs: &[AggAir]) -> CommonData<AggConfig> {
    type Cache = OnceLock<Vec<Lookups<config::Val>>>;
    static CACHES: [[Cache; 2]; 2] = [[OnceLock::new(), OnceLock::new()], [OnceLock::new(), OnceLock::new()]];
    let threshold = airs.iter().any(|a| matches!(a, AggAir::Group(_)));
    let paired = airs.iter().any(|a| a.degree() > 3);
    let cache = &CACHES[usize::from(threshold)][usize::from(paired)];
    let lookups = cache.get_or_init(|| fold_lookups(airs, AggAir::degree));
    CommonData::new(None, lookups.clone())
}

pub use sigagg_prover::fold_lookups;

/// The verifier's lookups, serialized, and those Plonky3's own
/// `ProverData::from_airs_and_degrees` derives, for comparison in tests.
pub(crate) fn lookups_both_ways(settings: &Settings, airs: &[AggAir], log_heights: &[usize]) -> (Vec<u8>, Vec<u8>) {
    let ours = common_data(airs).lookups;
    let theirs = ProverData::from_airs_and_degrees(
        &settings.stark_config_seeded(Vec::new()),
        airs,
        log_heights,
    )
    .expect("no preprocessed columns")
    .common
    .lookups;
    (
        postcard::to_allocvec(&ours).expect("serializable"),
        postcard::to_allocvec(&theirs).expect("serializable"),
    )
}

/// Hooks for soundness tests: build traces, tamper with them, prove anyway.
#[doc(hidden)]
pub mod testing {
    use super::*;

    /// The traces of a statement and its signatures under `settings`.
    pub fn traces(settings: &Settings, statement: &Statement, signatures: &[Signature<Seed001>]) -> trace::Traces {
        trace::generate(settings, statement, signatures).expect("valid signatures")
    }

    /// The verifier's lookups, serialized, and those Plonky3's own
    /// `ProverData::from_airs_and_degrees` derives, for comparison.
    pub fn lookups_both_ways(settings: &Settings, statement: &Statement) -> (Vec<u8>, Vec<u8>) {
        let heights: Vec<usize> = trace::heights(statement.padded_len())
            .iter()
            .map(|&h| log2_strict_usize(h))
            .collect();
        super::lookups_both_ways(settings, &airs(settings, statement), &heights)
    }

    pub use sigagg_prover::testing::{flip_positions, settings_from_env};

    /// Judges the proving of a tampered trace. In debug builds Plonky3's
    /// prover checks every constraint and panics, which counts as caught.
    /// In release builds the prover checks nothing, and the test is about
    /// the verifier: the prover must return a proof, and `verify` must
    /// refuse it as [`VerifyError::Invalid`] (a STARK failure, not a header
    /// or shape mismatch, which would mean the tamper missed its point).
    pub fn assert_tampered_rejected<P, E: core::fmt::Debug>(
        log_blowup: usize,
        prove: impl FnOnce() -> Result<P, E>,
        verify: impl FnOnce(&P) -> Result<(), VerifyError>,
    ) {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(prove)) {
            Err(_) if cfg!(debug_assertions) => {}
            Err(_) => panic!("a release prover panicked on a tampered trace"),
            Ok(Err(e)) if cfg!(debug_assertions) => drop(e),
            Ok(Err(e)) => panic!("the release prover returned {e:?} instead of a proof for the verifier to refuse"),
            Ok(Ok(proof)) => match verify(&proof) {
                Err(VerifyError::Invalid(_)) => {}
                other => panic!("tampered trace: {other:?} (log blowup {log_blowup}), not a STARK rejection"),
            },
        }
    }

    /// Proves (possibly tampered) traces without checking them first.
    pub fn prove_traces(
        settings: &Settings,
        statement: &Statement,
        traces: &trace::Traces,
    ) -> Result<AggregateProof, AggregateError> {
        super::prove_traces(settings, statement, traces)
    }
}

/// Verifies an aggregate proof for `statement` under `settings`.
pub fn verify(
    settings: &Settings,
    statement: &Statement,
    proof: &AggregateProof,
) -> Result<(), VerifyError> {
    settings.check_full_width().map_err(VerifyError::UnsupportedMerkleHash)?;
    if statement.padded_len() > max_signatures(settings) {
        return Err(VerifyError::TooManyForSettings {
            count: statement.len(),
            max: max_signatures(settings),
        });
    }
    if proof.settings != *settings {
        return Err(VerifyError::HeaderMismatch(
            "the proof was made with other settings".into(),
        ));
    }
    if proof.num_entries as usize != statement.len() {
        return Err(VerifyError::HeaderMismatch(format!(
            "the proof covers {} entries, the statement has {}",
            proof.num_entries,
            statement.len()
        )));
    }
    let expected: Vec<usize> = trace::heights(statement.padded_len())
        .iter()
        .map(|&h| log2_strict_usize(h))
        .collect();
    verify_airs(settings, &statement.digest(), &airs(settings, statement), &proof.proof, &expected)
}
