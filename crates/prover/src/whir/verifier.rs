//! The verifier's side: the heights and hash checked against the
//! statement and settings first, then `p3-multi-stark`'s verifier, with
//! its panics on malformed proofs turned into refusals.

use std::panic::{AssertUnwindSafe, catch_unwind};

use p3_challenger::CanObserve;
use p3_commit::Mmcs;

use super::{WhirBody, WhirProof, config, with_verifier_instances};
use crate::config::{Challenger, Settings, Val, WhirSettings, transcript, val_mmcs, val_mmcs31};
use crate::error::VerifyError;
use crate::table::{Table, Tables};

/// Checks a multilinear proof against `tables`: a proof committed with
/// another Merkle hash than the settings name is refused before any check,
/// and a panic of the verifier on some unforeseen malformed input is
/// caught and reported as [`VerifyError::Invalid`].
pub(crate) fn verify<A: Table>(
    settings: &WhirSettings,
    tables: &Tables<'_, A>,
    proof: &WhirProof,
) -> Result<(), VerifyError> {
    if proof.merkle() != settings.merkle {
        return Err(VerifyError::WrongMerkleHash { expected: settings.merkle, found: proof.merkle() });
    }
    match proof {
        WhirProof::Sha256(b) => verify_with(settings, tables, b, val_mmcs(0)),
        WhirProof::Sha256Trunc31(b) => verify_with(settings, tables, b, val_mmcs31(0)),
    }
}

/// [`verify`] of a body committed with the Merkle trees `mmcs`.
fn verify_with<A: Table, M>(
    settings: &WhirSettings,
    tables: &Tables<'_, A>,
    body: &WhirBody<M>,
    mmcs: M,
) -> Result<(), VerifyError>
where
    M: Mmcs<Val>,
    Challenger: CanObserve<M::Commitment>,
{
    if body.log_heights != tables.log_heights {
        return Err(VerifyError::ShapeMismatch);
    }
    let config = config(settings, tables, mmcs).map_err(VerifyError::Invalid)?;
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        with_verifier_instances(&config, tables, |instances| {
            let mut challenger = transcript(tables.transcript_seed(&Settings::Whir(*settings)));
            p3_multi_stark::verify(&config, instances, &body.proof, 0, &mut challenger).map_err(|e| format!("{e:?}"))
        })
        .and_then(|checked| checked)
    }));
    match outcome {
        Ok(Ok(())) => Ok(()),
        Ok(Err(reason)) => Err(VerifyError::Invalid(reason)),
        Err(_) => Err(VerifyError::Invalid("the verifier rejected a malformed proof".into())),
    }
}
