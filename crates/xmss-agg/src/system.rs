//! The statement's tables as the backends see them: the transcript's
//! domain and seed, and one call each to prove and to verify a list of
//! AIRs with the backend the settings name. Both proof kinds go through
//! it ([`crate::aggregate`], [`crate::threshold`]).

use p3_matrix::Matrix;
use p3_util::log2_strict_usize;
use sigagg_prover::{StarkProof, Tables};

use crate::air::AggAir;
use crate::config::Settings;
use crate::error::VerifyError;
use crate::trace;

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
/// ([`crate::AggregateStatement::digest`], the threshold statement's digest).
pub fn transcript_seed(settings: &Settings, statement_digest: &[u8; 32]) -> Vec<u8> {
    sigagg_prover::transcript_seed(TRANSCRIPT_DOMAIN, settings, statement_digest)
}

/// The tables of a statement for the backends: `airs` (in batch order) at
/// heights `2^log_heights[i]`, bound by `statement_digest`
/// ([`transcript_seed`]).
pub fn tables<'a>(airs: &'a [AggAir], log_heights: Vec<usize>, statement_digest: &[u8; 32]) -> Tables<'a, AggAir> {
    Tables::new(airs, log_heights, TRANSCRIPT_DOMAIN, *statement_digest)
}

/// One proof of `traces` against `airs` (in the same order), for the
/// statement whose digest is `statement_digest`, by the backend `settings`
/// name.
pub fn prove_airs(
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
pub fn verify_airs(
    settings: &Settings,
    statement_digest: &[u8; 32],
    airs: &[AggAir],
    proof: &StarkProof,
    expected: &[usize],
) -> Result<(), VerifyError> {
    Ok(sigagg_prover::verify(settings, &tables(airs, expected.to_vec(), statement_digest), proof)?)
}
