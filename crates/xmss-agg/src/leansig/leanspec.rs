//! leanSpec's aggregation API for what lean Ethereum validators sign
//! ([`LeanSigProd`]): keys and signatures in leanSig's SSZ, one message and
//! one slot shared by every signer (the slot is the signing epoch), the
//! proof as the `proof_data` of leanSpec's `AggregatedSignatureProof`
//! (at most 1 MiB, [`PROOF_DATA_LIMIT`]).
//!
//! ```text
//! aggregate(participants, public_keys, signatures, message, slot) -> AggregatedSignatureProof
//! verify(proof, public_keys, message, slot)
//! aggregate_signatures(public_keys, signatures, message, slot) -> proof_data
//! verify_aggregated_signatures(public_keys, message, proof_data, slot)
//! ```
//!
//! Every input is untrusted bytes: each failure is a typed
//! [`LeanApiError`] naming the input at fault, never a panic. The
//! participants bitlist is the caller's ([`Participants`]); the keys
//! passed are those of the participants, in its order.

use sigagg_xmss::aggregated::PROOF_DATA_LIMIT;
use sigagg_xmss::{
    AggregatedSignatureProof, ContainerError, DecodeError, LeanSigProd, Participants, PublicKey, Signature,
};

use super::aggregate;
use crate::config::Settings;
use crate::error::{ProveError, StatementError, VerifyError};
use crate::proof::Proof;
use crate::statement::{AggregateEntry, AggregateStatement};

/// Why an aggregation or its verification failed.
#[derive(Debug, thiserror::Error)]
pub enum LeanApiError {
    /// The key and signature lists differ in length.
    #[error("{keys} public keys for {signatures} signatures")]
    CountMismatch {
        /// Keys given.
        keys: usize,
        /// Signatures given.
        signatures: usize,
    },
    /// A public key does not decode.
    #[error("public key {index}: {source}")]
    PublicKey {
        /// Its position.
        index: usize,
        /// Why.
        source: DecodeError,
    },
    /// A signature does not decode.
    #[error("signature {index}: {source}")]
    Signature {
        /// Its position.
        index: usize,
        /// Why.
        source: DecodeError,
    },
    /// The statement is not acceptable (no keys, too many).
    #[error(transparent)]
    Statement(#[from] StatementError),
    /// Proving failed (an invalid signature names its index).
    #[error(transparent)]
    Prove(#[from] ProveError),
    /// The proof does not decode or does not verify.
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// The participants bitlist does not have one bit set per key.
    #[error("{participants} participants for {keys} public keys")]
    ParticipantsMismatch {
        /// Bits set.
        participants: usize,
        /// Keys given.
        keys: usize,
    },
    /// The container cannot hold the proof.
    #[error(transparent)]
    Container(#[from] ContainerError),
    /// The proof exceeds leanSpec's `ByteListMiB`.
    #[error("the proof has {0} bytes, more than leanSpec's limit of 2^20")]
    TooLarge(usize),
}

/// The statement of `public_keys` (SSZ, 52 bytes each) signing `message`
/// at `slot`.
fn statement(
    public_keys: &[&[u8]],
    message: &[u8; 32],
    slot: u32,
) -> Result<AggregateStatement<LeanSigProd>, LeanApiError> {
    let entries = public_keys
        .iter()
        .enumerate()
        .map(|(index, bytes)| {
            let public_key =
                PublicKey::from_bytes(bytes).map_err(|source| LeanApiError::PublicKey { index, source })?;
            Ok(AggregateEntry { public_key, epoch: slot, message: *message })
        })
        .collect::<Result<Vec<_>, LeanApiError>>()?;
    Ok(AggregateStatement::from_entries(entries)?)
}

/// Proves that every `signatures[i]` (leanSig SSZ) is `public_keys[i]`'s
/// signature of `message` at `slot`; returns the proof's bytes, leanSpec's
/// `proof_data`.
pub fn aggregate_signatures(
    settings: &Settings,
    public_keys: &[&[u8]],
    signatures: &[&[u8]],
    message: &[u8; 32],
    slot: u32,
) -> Result<Vec<u8>, LeanApiError> {
    if public_keys.len() != signatures.len() {
        return Err(LeanApiError::CountMismatch { keys: public_keys.len(), signatures: signatures.len() });
    }
    let statement = statement(public_keys, message, slot)?;
    let signatures = signatures
        .iter()
        .enumerate()
        .map(|(index, bytes)| Signature::from_bytes(bytes).map_err(|source| LeanApiError::Signature { index, source }))
        .collect::<Result<Vec<_>, _>>()?;
    let bytes = aggregate::prove(settings, &statement, &signatures)?.to_bytes();
    if bytes.len() > PROOF_DATA_LIMIT {
        return Err(LeanApiError::TooLarge(bytes.len()));
    }
    Ok(bytes)
}

/// Verifies `proof_data` for `public_keys` (SSZ) signing `message` at `slot`.
pub fn verify_aggregated_signatures(
    settings: &Settings,
    public_keys: &[&[u8]],
    message: &[u8; 32],
    proof_data: &[u8],
    slot: u32,
) -> Result<(), LeanApiError> {
    if proof_data.len() > PROOF_DATA_LIMIT {
        return Err(LeanApiError::TooLarge(proof_data.len()));
    }
    let statement = statement(public_keys, message, slot)?;
    let proof = Proof::from_bytes(proof_data)?;
    Ok(aggregate::verify(settings, &statement, &proof)?)
}

/// The keys must be the participants': one per bit set.
fn check_participants(participants: &Participants, keys: usize) -> Result<(), LeanApiError> {
    let set = participants.bits().iter().filter(|&&b| b).count();
    if set == keys { Ok(()) } else { Err(LeanApiError::ParticipantsMismatch { participants: set, keys }) }
}

/// [`aggregate_signatures`], wrapped in leanSpec's SSZ container with the
/// caller's participants bitlist (one bit set per key, in order).
pub fn aggregate(
    settings: &Settings,
    participants: Participants,
    public_keys: &[&[u8]],
    signatures: &[&[u8]],
    message: &[u8; 32],
    slot: u32,
) -> Result<AggregatedSignatureProof, LeanApiError> {
    check_participants(&participants, public_keys.len())?;
    let proof_data = aggregate_signatures(settings, public_keys, signatures, message, slot)?;
    Ok(AggregatedSignatureProof::new(participants, proof_data)?)
}

/// Verifies leanSpec's container against the participants' keys (one per
/// bit set, in order).
pub fn verify(
    settings: &Settings,
    proof: &AggregatedSignatureProof,
    public_keys: &[&[u8]],
    message: &[u8; 32],
    slot: u32,
) -> Result<(), LeanApiError> {
    check_participants(proof.participants(), public_keys.len())?;
    verify_aggregated_signatures(settings, public_keys, message, proof.proof_data(), slot)
}
