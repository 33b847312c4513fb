//! Aggregate proofs on bytes: one STARK proof that every signature of a
//! list is valid, for Seed001 XMSS (`sigagg-xmss-agg`) and Lamport+
//! (`sigagg-lamport-agg`).
//!
//! Proofs are the crates' framed encodings (`SGXAGG...` for Seed001,
//! `SGLPAG...` for Lamport+); keys and signatures the schemes' encodings.

use sigagg_lamport::ParameterSet;
use sigagg_xmss::{PublicKey, Seed001, Signature};
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement as XmssStatement, Proof as XmssProof};

use crate::error::{Error, Result};
use crate::input::{decode, decode_each, per_entry, same_length};
use crate::scheme::{ProofSettings, Scheme, with_provable};
use crate::xmss::message32;

/// What an aggregate proof claims: entry `i` is `(public_keys[i],
/// messages[i], epochs[i])` and was signed.
///
/// `messages` (and, for Seed001, `epochs`) hold one value per entry or one
/// value for all entries (the consensus case: everyone signs one message
/// at one epoch). Seed001 messages are 32 bytes; Lamport+ messages any
/// length but distinct (one message with many signers is a threshold
/// statement), and Lamport+ has no epochs (leave `epochs` empty).
#[derive(Clone, Copy, Debug)]
pub struct AggregateStatement<'a> {
    /// The signers' public keys, one per entry.
    pub public_keys: &'a [&'a [u8]],
    /// The signed messages: one per entry, or one for all.
    pub messages: &'a [&'a [u8]],
    /// Seed001: the epochs, one per entry or one for all. Lamport+: empty.
    pub epochs: &'a [u32],
}

/// Proves that `signatures[i]` is a valid signature of entry `i` of
/// `statement`. Every signature is checked first: an invalid one is an
/// [`ErrorKind::Prove`](crate::ErrorKind::Prove) error naming its index.
/// Takes seconds to minutes (see BENCHMARKS.md), on all cores.
pub fn aggregate(
    scheme: Scheme,
    settings: ProofSettings,
    statement: &AggregateStatement<'_>,
    signatures: &[&[u8]],
) -> Result<Vec<u8>> {
    same_length(("public keys", statement.public_keys.len()), ("signatures", signatures.len()))?;
    with_provable!(scheme, "aggregation", seed001 => {
        let st = xmss_statement(statement)?;
        let sigs = decode_each(signatures, "signature", Signature::<Seed001>::from_bytes)?;
        Ok(sigagg_xmss_agg::aggregate::prove(&sigagg_xmss_agg::settings(settings), &st, &sigs)?.to_bytes())
    }, S => {
        let st = lamport_statement::<S>(statement)?;
        let sigs = decode_each(signatures, "signature", sigagg_lamport::Signature::<S>::from_bytes)?;
        Ok(sigagg_lamport_agg::aggregate::prove(&sigagg_lamport_agg::settings(settings), &st, &sigs)?.to_bytes())
    })
}

/// Verifies an aggregate `proof` of `statement`, made with `settings`.
pub fn verify_aggregate(
    scheme: Scheme,
    settings: ProofSettings,
    statement: &AggregateStatement<'_>,
    proof: &[u8],
) -> Result<()> {
    with_provable!(scheme, "aggregate verification", seed001 => {
        let st = xmss_statement(statement)?;
        let proof = decode(proof, XmssProof::from_bytes)?;
        Ok(sigagg_xmss_agg::aggregate::verify(&sigagg_xmss_agg::settings(settings), &st, &proof)?)
    }, S => {
        let st = lamport_statement::<S>(statement)?;
        let proof = decode(proof, sigagg_lamport_agg::Proof::from_bytes)?;
        Ok(sigagg_lamport_agg::aggregate::verify(&sigagg_lamport_agg::settings(settings), &st, &proof)?)
    })
}

/// The Seed001 statement of `statement`.
fn xmss_statement(statement: &AggregateStatement<'_>) -> Result<XmssStatement> {
    let keys = decode_each(statement.public_keys, "public key", PublicKey::<Seed001>::from_bytes)?;
    let n = keys.len();
    let messages = per_entry(statement.messages, n, "message")?;
    let epochs = per_entry(statement.epochs, n, "epoch")?;
    let entries = keys
        .into_iter()
        .zip(messages)
        .zip(epochs)
        .enumerate()
        .map(|(i, ((public_key, message), epoch))| {
            let message = message32(message).map_err(|e| e.context(format!("message {i}")))?;
            Ok(AggregateEntry { public_key, epoch, message })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(XmssStatement::new(entries)?)
}

/// The Lamport+ statement of `statement`.
fn lamport_statement<S: ParameterSet>(
    statement: &AggregateStatement<'_>,
) -> Result<sigagg_lamport_agg::AggregateStatement<S>> {
    if !statement.epochs.is_empty() {
        return Err(no_epochs());
    }
    let keys = decode_each(statement.public_keys, "public key", sigagg_lamport::PublicKey::<S>::from_bytes)?;
    let messages = per_entry(statement.messages, keys.len(), "message")?;
    let entries = keys
        .into_iter()
        .zip(messages)
        .map(|(public_key, message)| sigagg_lamport_agg::AggregateEntry { public_key, message: message.to_vec() })
        .collect();
    Ok(sigagg_lamport_agg::AggregateStatement::new(entries)?)
}

/// Lamport+ keys are one-time: a statement has no epochs.
pub(crate) fn no_epochs() -> Error {
    Error::argument("Lamport+ signatures have no epoch: give no epochs")
}
