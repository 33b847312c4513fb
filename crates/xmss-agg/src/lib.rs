//! One STARK proof that N generalized-XMSS signatures (parameter set
//! [`Seed001`]) are valid, each under its own key, at its own epoch, over its
//! own message (or one shared message, the consensus case).
//!
//! The statement is the list of `(public key, epoch, message)`; the
//! signatures are the witness. The proof is a STARK over KoalaBear with a
//! degree-5 challenge extension and SHA-256 commitments, made by the
//! backend the settings name (`sigagg-prover`; today Plonky3's batch STARK
//! with FRI); its five tables are described in [`air`].
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

#![forbid(unsafe_code)]

pub mod air;
pub mod bus;
pub mod error;
pub mod group;
pub mod layout;
pub mod named;
pub mod security;
pub mod statement;
pub mod threshold;
pub mod trace;

/// The shared STARK machinery, at the paths this crate has always had.
pub use sigagg_prover::{codec, config, dft, merkle_hash, paired};

use p3_matrix::Matrix;
use p3_util::log2_strict_usize;
use serde::{Deserialize, Serialize};
use sigagg_prover::{StarkProof, Tables};
use sigagg_xmss::{Seed001, Signature};

use crate::air::{AggAir, digits::DigitAir, range::RangeAir, sig::SigAir};
pub use crate::config::{Backend, Settings};
pub use crate::error::{AggregateError, StatementError, ThresholdError, VerifyError};
pub use crate::named::{Named, named, settings};
pub use crate::statement::{Entry, Statement, max_signatures};

/// The least collision resistance, in bits, of a Merkle hash an XMSS proof
/// may commit with: every XMSS setting claims more than 100 proven bits, so
/// SHA-256 (128 bits) and its 31-byte truncation (124) qualify, and the
/// 24-byte truncation (96) does not.
pub const MIN_COLLISION_BITS: usize = 100;

/// Version of the aggregate proof encoding: a proof of another version
/// does not decode. What each version changed is in CHANGELOG.md.
pub const PROOF_VERSION: u8 = 13;
/// First bytes of an encoded [`AggregateProof`].
pub const PROOF_MAGIC: &[u8; 6] = b"SGXAGG";

/// An aggregate proof with its header.
#[derive(Serialize, Deserialize)]
pub struct AggregateProof {
    /// The settings it was made with (checked against the verifier's).
    pub settings: Settings,
    /// Number of statement entries.
    pub num_entries: u32,
    /// The STARK, tagged with the backend that made it.
    pub proof: StarkProof,
}

impl core::fmt::Debug for AggregateProof {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AggregateProof")
            .field("settings", &self.settings)
            .field("num_entries", &self.num_entries)
            .field("backend", &self.proof.backend())
            .field("degree_bits", &self.proof.degree_bits())
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
    with_sig_air(settings, SigAir::new(statement), statement.padded_len())
}

/// AIRs of the right shape for `padded` slots (for the security calculator).
pub(crate) fn airs_for_shape(settings: &Settings, padded: usize) -> Vec<AggAir> {
    with_sig_air(settings, SigAir::placeholder(padded), padded)
}

fn with_sig_air(settings: &Settings, sig: SigAir, padded: usize) -> Vec<AggAir> {
    let (chain, hash) = crate::air::poseidon_airs(settings, Some(padded));
    vec![
        AggAir::Sig(sig),
        AggAir::Digits(DigitAir::new()),
        AggAir::Chain(chain),
        AggAir::Hash(hash),
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
    settings.check_collision_bits(crate::MIN_COLLISION_BITS).map_err(AggregateError::UnsupportedMerkleHash)?;
    if signatures.len() != statement.len() {
        return Err(AggregateError::CountMismatch { entries: statement.len(), signatures: signatures.len() });
    }
    if statement.padded_len() > max_signatures(settings) {
        return Err(AggregateError::TooManyForSettings { count: statement.len(), max: max_signatures(settings) });
    }
    let traces = tracing::info_span!("generate traces")
        .in_scope(|| trace::generate(settings, statement, signatures))
        .map_err(|(index, reason)| AggregateError::InvalidSignature { index, reason })?;
    prove_traces(settings, statement, traces)
}

/// Proves already generated traces (no validity checks).
fn prove_traces(
    settings: &Settings,
    statement: &Statement,
    traces: trace::Traces,
) -> Result<AggregateProof, AggregateError> {
    let proof = prove_airs(settings, &statement.digest(), &airs(settings, statement), traces)
        .map_err(AggregateError::Prover)?;
    Ok(AggregateProof { settings: *settings, num_entries: statement.len() as u32, proof })
}

/// Domain separator of the transcript seed.
const TRANSCRIPT_DOMAIN: &[u8] = b"sigagg/xmss-agg/transcript/v3";

/// The Fiat-Shamir seed of a proof of the statement whose digest is
/// `statement_digest` under `settings`: the challenger absorbs it before
/// anything else (`sigagg_prover::transcript_seed`: this crate's domain
/// separator, every setting, the backend first, and the digest).
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
    sigagg_prover::transcript_seed(TRANSCRIPT_DOMAIN, settings, statement_digest)
}

/// The tables of a statement for the backends: `airs` (in batch order) at
/// heights `2^log_heights[i]`, bound by `statement_digest`
/// ([`transcript_seed`]).
pub(crate) fn tables<'a>(
    airs: &'a [AggAir],
    log_heights: Vec<usize>,
    statement_digest: &[u8; 32],
) -> Tables<'a, AggAir> {
    Tables::new(airs, log_heights, TRANSCRIPT_DOMAIN, *statement_digest)
}

/// One proof of `traces` against `airs` (in the same order), for the
/// statement whose digest is `statement_digest`, by the backend `settings`
/// name.
pub(crate) fn prove_airs(
    settings: &Settings,
    statement_digest: &[u8; 32],
    airs: &[AggAir],
    traces: trace::Traces,
) -> Result<StarkProof, String> {
    let matrices = traces.into_matrices();
    let log_heights: Vec<usize> = matrices.iter().map(|m| log2_strict_usize(m.height())).collect();
    sigagg_prover::prove(settings, &tables(airs, log_heights, statement_digest), matrices).map_err(|e| e.0)
}

/// Checks a proof against `airs`, whose table heights (log2) must be
/// `expected`: they follow from the statement, never from the proof. The
/// transcript starts from the statement's digest ([`transcript_seed`]).
pub(crate) fn verify_airs(
    settings: &Settings,
    statement_digest: &[u8; 32],
    airs: &[AggAir],
    proof: &StarkProof,
    expected: &[usize],
) -> Result<(), VerifyError> {
    Ok(sigagg_prover::verify(settings, &tables(airs, expected.to_vec(), statement_digest), proof)?)
}

pub use sigagg_prover::fold_lookups;

/// Hooks for soundness tests: build traces, tamper with them, prove anyway.
#[doc(hidden)]
pub mod testing {
    use super::*;

    /// The traces of a statement and its signatures under `settings`.
    pub fn traces(settings: &Settings, statement: &Statement, signatures: &[Signature<Seed001>]) -> trace::Traces {
        trace::generate(settings, statement, signatures).expect("valid signatures")
    }

    /// The chain and width-24 tables of a statement under `settings`, each
    /// with its AIR (for tests and examples that prove one table alone).
    pub fn poseidon_tables(
        settings: &Settings,
        statement: &Statement,
        signatures: &[Signature<Seed001>],
    ) -> [(AggAir, p3_matrix::dense::RowMajorMatrix<crate::config::Val>); 2] {
        let (chain, hash) = air::poseidon_airs(settings, Some(statement.padded_len()));
        let mut matrices = traces(settings, statement, signatures).into_matrices();
        let mut take = |width: usize| {
            let i = matrices.iter().position(|m| m.width == width).expect("a table of this width");
            matrices.swap_remove(i)
        };
        let chain_trace = take(p3_air::BaseAir::<crate::config::Val>::width(&chain));
        let hash_trace = take(p3_air::BaseAir::<crate::config::Val>::width(&hash));
        [(AggAir::Chain(chain), chain_trace), (AggAir::Hash(hash), hash_trace)]
    }

    /// The AIRs of a statement under `settings`, in the order of
    /// [`trace::Traces::into_matrices`] (for examples that prove them
    /// with other provers).
    pub fn statement_airs(settings: &Settings, statement: &Statement) -> Vec<AggAir> {
        airs(settings, statement)
    }

    /// The verifier's lookups, serialized, and those Plonky3's own
    /// `ProverData::from_airs_and_degrees` derives, for comparison.
    pub fn lookups_both_ways(settings: &Settings, statement: &Statement) -> (Vec<u8>, Vec<u8>) {
        let (airs, heights) = (airs(settings, statement), trace::log_heights(settings, statement.padded_len()));
        sigagg_prover::testing::lookups_both_ways(settings, &tables(&airs, heights, &statement.digest()))
    }

    /// log2 of every table's quotient-chunk count, from the declared
    /// degrees and from Plonky3's symbolic inference.
    pub fn quotient_chunks_both_ways(settings: &Settings, statement: &Statement) -> (Vec<usize>, Vec<usize>) {
        let (airs, heights) = (airs(settings, statement), trace::log_heights(settings, statement.padded_len()));
        sigagg_prover::testing::quotient_chunks_both_ways(settings, &tables(&airs, heights, &statement.digest()))
    }

    /// `signatures`' traces proved by the FRI prover and by Plonky3's own
    /// `prove_batch`, each proof serialized (see
    /// `sigagg_prover::testing::proofs_both_ways`).
    pub fn proofs_both_ways(
        settings: &Settings,
        statement: &Statement,
        signatures: &[Signature<Seed001>],
    ) -> (Vec<u8>, Vec<u8>) {
        let matrices = trace::generate(settings, statement, signatures).expect("valid signatures").into_matrices();
        let heights: Vec<usize> = matrices.iter().map(|m| log2_strict_usize(m.height())).collect();
        let airs = airs(settings, statement);
        sigagg_prover::testing::proofs_both_ways(settings, &tables(&airs, heights, &statement.digest()), matrices)
    }

    pub use sigagg_prover::testing::{flip_positions, settings_from_env};

    /// Judges the proving of a tampered trace. A debug build of a prover
    /// that checks every constraint and panics counts as caught (the FRI
    /// prover checks nothing in any build). Otherwise the test is about
    /// the verifier: the prover must return a proof, and `verify` must
    /// refuse it as [`VerifyError::Invalid`] (a STARK failure, not a header
    /// or shape mismatch, which would mean the tamper missed its point).
    ///
    /// The multilinear backend's prover balances every bus itself before it
    /// proves (its proof carries the root of the fractional sums, which the
    /// verifier checks is zero), so a tampering that unbalances a bus is
    /// refused there, in every build; the byte-flip tests cover a proof
    /// whose root was changed.
    pub fn assert_tampered_rejected<P, E: core::fmt::Debug>(
        settings: &Settings,
        prove: impl FnOnce() -> Result<P, E>,
        verify: impl FnOnce(&P) -> Result<(), VerifyError>,
    ) {
        let unbalanced =
            |e: &E| settings.backend.is_multilinear() && format!("{e:?}").contains(sigagg_prover::whir::UNBALANCED_BUS);
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(prove)) {
            Err(_) if cfg!(debug_assertions) => {}
            Err(_) => panic!("a release prover panicked on a tampered trace"),
            Ok(Err(e)) if cfg!(debug_assertions) || unbalanced(&e) => drop(e),
            Ok(Err(e)) => panic!("the release prover returned {e:?} instead of a proof for the verifier to refuse"),
            Ok(Ok(proof)) => match verify(&proof) {
                Err(VerifyError::Invalid(_)) => {}
                other => panic!("tampered trace: {other:?} ({settings:?}), not a STARK rejection"),
            },
        }
    }

    /// Proves (possibly tampered) traces without checking them first.
    pub fn prove_traces(
        settings: &Settings,
        statement: &Statement,
        traces: &trace::Traces,
    ) -> Result<AggregateProof, AggregateError> {
        super::prove_traces(settings, statement, traces.clone())
    }
}

/// Verifies an aggregate proof for `statement` under `settings`.
pub fn verify(settings: &Settings, statement: &Statement, proof: &AggregateProof) -> Result<(), VerifyError> {
    settings.check_collision_bits(crate::MIN_COLLISION_BITS).map_err(VerifyError::UnsupportedMerkleHash)?;
    if statement.padded_len() > max_signatures(settings) {
        return Err(VerifyError::TooManyForSettings { count: statement.len(), max: max_signatures(settings) });
    }
    if proof.settings.backend != settings.backend {
        return Err(VerifyError::WrongBackend { expected: settings.backend, found: proof.settings.backend });
    }
    if proof.settings != *settings {
        return Err(VerifyError::HeaderMismatch("the proof was made with other settings".into()));
    }
    if proof.num_entries as usize != statement.len() {
        return Err(VerifyError::HeaderMismatch(format!(
            "the proof covers {} entries, the statement has {}",
            proof.num_entries,
            statement.len()
        )));
    }
    let expected = trace::log_heights(settings, statement.padded_len());
    verify_airs(settings, &statement.digest(), &airs(settings, statement), &proof.proof, &expected)
}

#[cfg(test)]
mod tests {
    use p3_air::BaseAir;

    use crate::air::hash24::HashAir;
    use crate::config::Val;

    use super::*;

    /// The WHIR aggregates that commit every round of the width-24 table
    /// ([`air::hash_stride`]) keep the stacked commitment of the paired
    /// layout, at every padded size the multilinear settings accept.
    #[test]
    fn whir_hash_rounds_keep_the_stacked_commitment() {
        for settings in [Settings::WHIR, Settings::WHIR_COMPACT] {
            let max = statement::max_signatures(&settings);
            let mut switched = 0;
            for padded in (4..=16).map(|k| 1usize << k).filter(|&n| n <= max) {
                let airs = airs_for_shape(&settings, padded);
                let heights = trace::heights(&settings, padded);
                let shapes = |hash_width: usize| -> Vec<(usize, usize)> {
                    airs.iter()
                        .zip(heights)
                        .map(|(air, h)| {
                            let width =
                                if matches!(air, AggAir::Hash(_)) { hash_width } else { BaseAir::<Val>::width(air) };
                            (log2_strict_usize(h), width)
                        })
                        .collect()
                };
                let chosen = airs
                    .iter()
                    .find_map(|a| if let AggAir::Hash(h) = a { Some(BaseAir::<Val>::width(h)) } else { None });
                let paired = BaseAir::<Val>::width(&HashAir::new(settings.stride(), false));
                let chosen = chosen.expect("a width-24 table");
                switched += usize::from(chosen != paired);
                assert_eq!(
                    sigagg_prover::whir::stacked_log_size(&shapes(chosen)),
                    sigagg_prover::whir::stacked_log_size(&shapes(paired)),
                    "{}, {padded} slots",
                    settings.backend.name()
                );
            }
            assert!(switched > 0, "no size switches layout");
        }
    }
}
