//! Merged aggregates on bytes (`sigagg-merge`): one proof that several
//! Seed001 aggregate proofs of one 32-byte message at one epoch verify,
//! without their signatures (issue 42's type 1), or of several messages
//! and epochs (type 2: one message and epoch per key), and merged proofs
//! of merged proofs, to any depth up to [`sigagg_merge::MAX_DEPTH`].
//!
//! The children are Seed001 [`aggregate`](crate::aggregate()) proofs, or
//! leanSig production ones (leanSpec's bare `proof_data`,
//! [`crate::lean::aggregate_signatures`]), made with
//! [`ProofSettings::WhirSkipPoseidon2`] ([`CHILD_SETTINGS`]), or merged
//! proofs made with it (the default), each of its own signers, no signer
//! in two. A statement is the participants' keys, the children's one after
//! another (a merged child's in its own order), with the messages and
//! epochs: each child proof (and, once merged, the merged proof) carries
//! its [`Shape`] (how many signers each aggregate has, how they nest),
//! which splits the keys. The shape is untrusted until the proof verifies;
//! another split builds another verifier circuit and is refused.
//!
//! ```no_run
//! use sigagg_bytes::{ProofSettings, merge};
//! # let (keys, a, b): (Vec<&[u8]>, Vec<u8>, Vec<u8>) = (vec![], vec![], vec![]);
//! let statement = merge::MergeStatement { scheme: sigagg_bytes::Scheme::Seed001, public_keys: &keys, messages: &[&[7; 32]], epochs: &[9], committees: &[] };
//! let merged = merge::merge(merge::CHILD_SETTINGS, &statement, &[&a, &b]).unwrap();
//! merge::verify_merged(merge::CHILD_SETTINGS, &statement, &merged).unwrap();
//! ```

pub use sigagg_merge::Shape;
use sigagg_merge::{ChildProof, MergeError, MergeScheme, MergeStatement as Statement, MergedProof, Messages};
use sigagg_xmss::PublicKey;
use sigagg_xmss::group::GroupKey;
use sigagg_xmss_agg::threshold::ThresholdStatement;
use sigagg_xmss_agg::{AggregateEntry, ProofKind};

use crate::error::{Error, ErrorKind, Result};
use crate::input::{decode, decode_each, per_entry};
use crate::proof::Security;
use crate::scheme::{ProofSettings, Scheme, with_mergeable};
use crate::xmss::message32;

/// The settings children are proven with, and the default of merged
/// proofs: whir-skip over Poseidon2, what the verifier circuit verifies. A
/// final merged proof may take [`ProofSettings::WhirSkipCompact`] instead:
/// about 0.7x the bytes, and no child of a further merge.
pub const CHILD_SETTINGS: ProofSettings = ProofSettings::WhirSkipPoseidon2;

/// What a merged proof claims: `public_keys` (`scheme`'s encodings, the
/// children's keys one child after another) signed their messages (32
/// bytes) at their epochs, and so did at least each threshold of
/// `committees`' members.
///
/// `messages` and `epochs` each hold one value for every key and
/// committee (type 1, [`Messages::One`](sigagg_merge::Messages): the
/// consensus case) or one per key followed by one per committee, in order
/// (type 2, [`Messages::Several`](sigagg_merge::Messages): each signer
/// once per message and epoch).
#[derive(Clone, Copy, Debug)]
pub struct MergeStatement<'a> {
    /// The children's parameter set: [`Scheme::Seed001`] or
    /// [`Scheme::LeanSigProd`] (whose aggregates are leanSpec's bare
    /// `proof_data`).
    pub scheme: Scheme,
    /// The participants' keys, child by child.
    pub public_keys: &'a [&'a [u8]],
    /// The signed messages, 32 bytes each: one for all, or one per key
    /// then one per committee.
    pub messages: &'a [&'a [u8]],
    /// The signing epochs (leanSpec's slots): one for all, or one per key
    /// then one per committee.
    pub epochs: &'a [u32],
    /// The threshold children's committees, in the tree's order (depth
    /// first); empty where no child is a threshold certificate.
    pub committees: &'a [Committee<'a>],
}

/// A threshold child's statement: at least `threshold` members of the
/// group `group_key` ([`crate::threshold::group`]) signed its message at
/// its epoch (the statement's); its proof is a
/// [`prove_threshold`](crate::threshold::prove_threshold) certificate made
/// with [`CHILD_SETTINGS`].
#[derive(Clone, Copy, Debug)]
pub struct Committee<'a> {
    /// The group key.
    pub group_key: &'a [u8],
    /// The least number of distinct signers.
    pub threshold: u32,
}

/// What a merged proof says about itself, before any verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeInfo {
    /// Each child's shape, in order: an aggregate's number of signers, or
    /// a merged child's own children.
    pub shape: Vec<Shape>,
}

impl MergeInfo {
    /// The signers it claims, over the whole tree (a threshold child's
    /// not counted: its proof gives them).
    pub fn participants(&self) -> u64 {
        self.shape.iter().map(Shape::participants).fold(0, u64::saturating_add)
    }

    /// The threshold certificates among its children, over the whole tree.
    pub fn committees(&self) -> usize {
        self.shape.iter().map(Shape::committees).sum()
    }

    /// Levels of merging: 1 for a merge of aggregates.
    pub fn depth(&self) -> usize {
        1 + self.shape.iter().map(Shape::depth).max().unwrap_or(0)
    }
}

/// Verifies each child natively (under [`CHILD_SETTINGS`]) and proves
/// with `settings` (a whir-skip setting) that they all verify. A child is
/// an aggregate proof or a merged proof (told apart by its first bytes).
/// Takes about a second per child of 64 signatures on two cores.
///
/// A child that does not decode is an [`ErrorKind::Decode`] error naming
/// it; keys that its shape does not split, statements of a signer twice,
/// more than 16 children or [`sigagg_merge::MAX_DEPTH`] levels, or
/// settings of another backend an [`ErrorKind::Argument`] error; a child
/// that does not verify an [`ErrorKind::Prove`] error naming it.
pub fn merge(settings: ProofSettings, statement: &MergeStatement<'_>, children: &[&[u8]]) -> Result<Vec<u8>> {
    let proofs = child_proofs(statement.scheme, children)?;
    let shape = shape_of(&proofs);
    with_mergeable!(statement.scheme, S => {
        let statement = split_statement::<S>(statement, &shape)?;
        let merged = sigagg_merge::merge(&sigagg_xmss_agg::settings(settings), &statement, &proofs).map_err(proving)?;
        Ok(merged.to_bytes())
    })
}

/// [`merge`] with raw `signatures` beside the children: the statement's
/// last `signatures.len()` keys are their signers' (in order), the keys
/// before them the children's. The signatures are aggregated first into
/// one more child, the last (`sigagg_merge::merge_signed`); the merged
/// proof verifies with [`verify_merged`] against all the keys.
///
/// Errors as [`merge`]; a signature that does not decode is an
/// [`ErrorKind::Decode`] error, one that does not verify an
/// [`ErrorKind::Prove`] error; more signatures than keys an
/// [`ErrorKind::Argument`] error.
pub fn merge_signed(
    settings: ProofSettings,
    statement: &MergeStatement<'_>,
    children: &[&[u8]],
    signatures: &[&[u8]],
) -> Result<Vec<u8>> {
    if signatures.is_empty() {
        return merge(settings, statement, children);
    }
    let Some(split_at) = statement.public_keys.len().checked_sub(signatures.len()) else {
        return Err(Error::new(ErrorKind::Argument, "more signatures than public keys"));
    };
    let proofs = child_proofs(statement.scheme, children)?;
    let shape = shape_of(&proofs);
    with_mergeable!(statement.scheme, S => {
        let parts = Parts::<S>::decode(statement)?;
        let (children_entries, raw) = parts.entries.split_at(split_at);
        let children = if proofs.is_empty() {
            Vec::new()
        } else {
            Statement::split_entries(children_entries, &parts.committees, &shape, parts.messages)?.into_children()
        };
        let sigs = decode_each(signatures, "signature", sigagg_xmss::Signature::<S>::from_bytes)?;
        let signed = sigagg_xmss_agg::AggregateStatement::from_entries(raw.to_vec()).map_err(|e| Error::from(MergeError::from(e)))?;
        let settings = sigagg_xmss_agg::settings(settings);
        let (_, merged) = sigagg_merge::merge_signed(&settings, parts.messages, children, proofs, signed, &sigs).map_err(proving)?;
        Ok(merged.to_bytes())
    })
}

/// Verifies a merged `proof` (from [`merge`] with the same `settings`) of
/// `statement`.
///
/// Bytes that are no merged proof are an [`ErrorKind::Decode`] error; a
/// proof whose shape does not split the keys, or that does not prove this
/// statement, an [`ErrorKind::Verify`] error.
pub fn verify_merged(settings: ProofSettings, statement: &MergeStatement<'_>, proof: &[u8]) -> Result<()> {
    verify_merged_security(settings, statement, proof).map(drop)
}

/// [`verify_merged`], and the proof's [`security`] from the circuit it
/// verified on (built once, not once for each).
///
/// # Errors
/// As [`verify_merged`].
pub fn verify_merged_security(
    settings: ProofSettings,
    statement: &MergeStatement<'_>,
    proof: &[u8],
) -> Result<Security> {
    let merged = decode_merged(proof)?;
    with_mergeable!(statement.scheme, S => {
        let st = claimed_statement::<S>(statement, &merged)?;
        let level = sigagg_merge::verify_level(&sigagg_xmss_agg::settings(settings), &st, &merged)
            .map_err(|e| Error::from(e).with_kind(ErrorKind::Verify))?;
        Ok(Security::from(&level))
    })
}

/// A verifying key of merged proofs of one shape (`sigagg_merge::MergeKey`):
/// made once from one merged proof (its children's shapes; the proof is
/// not verified), it verifies every merged proof of that shape, of any
/// statement, without rebuilding the verifier circuit ([`MergeKey::verify`]:
/// two children of 64 Seed001 signers in about 25 ms against 65 ms on two
/// cores, BENCHMARKS.md). A long-running verifier keeps one per shape it
/// meets. A shape with a threshold child has none.
pub struct MergeKey {
    scheme: Scheme,
    /// A `sigagg_merge::MergeKey<S>` for the scheme's `S`.
    key: Box<dyn std::any::Any + Send + Sync>,
}

impl core::fmt::Debug for MergeKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MergeKey").field("scheme", &self.scheme).finish_non_exhaustive()
    }
}

impl MergeKey {
    /// The key of `scheme`'s merged proofs of the shape of `proof`.
    ///
    /// # Errors
    /// Bytes that are no merged proof ([`ErrorKind::Decode`]); another
    /// scheme than Seed001 and leanSig production, a threshold child or a
    /// withheld one out of bounds ([`ErrorKind::Argument`]).
    pub fn new(scheme: Scheme, proof: &[u8]) -> Result<Self> {
        let merged = decode_merged(proof)?;
        with_mergeable!(scheme, S => {
            let key = sigagg_merge::MergeKey::<S>::new(&merged.children)?;
            Ok(Self { scheme, key: Box::new(key) })
        })
    }

    /// The scheme of the children it verifies.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// [`verify_merged_security`] with the key: the same decision, without
    /// the verifier circuit rebuilt.
    ///
    /// # Errors
    /// As [`verify_merged`]; a statement of another scheme than the key's
    /// or a proof of another shape ([`ErrorKind::Argument`]).
    pub fn verify(&self, settings: ProofSettings, statement: &MergeStatement<'_>, proof: &[u8]) -> Result<Security> {
        if statement.scheme != self.scheme {
            return Err(Error::argument("a statement of another scheme than the verifying key's"));
        }
        let merged = decode_merged(proof)?;
        with_mergeable!(self.scheme, S => {
            let key = self
                .key
                .downcast_ref::<sigagg_merge::MergeKey<S>>()
                .ok_or_else(|| Error::new(ErrorKind::Internal, "a verifying key of another scheme"))?;
            let st = claimed_statement::<S>(statement, &merged)?;
            let level = sigagg_merge::verify_with_key(key, &sigagg_xmss_agg::settings(settings), &st, &merged)
                .map_err(|e| {
                    let kind = if matches!(e, MergeError::Key(_)) { ErrorKind::Argument } else { ErrorKind::Verify };
                    Error::from(e).with_kind(kind)
                })?;
            Ok(Security::from(&level))
        })
    }
}

/// Splits a merged `proof` of `statement` (every child's keys, messages
/// and committees, as [`verify_merged`] takes them): the same proof, for a
/// verifier who knows only the children numbered in `keep` (`sigagg_merge::
/// split`). Every other child is withheld: its keys, messages and epochs
/// are no longer needed, and [`verify_merged`] checks the split proof
/// against the kept children's keys alone (their messages and epochs, in
/// order); the proof's shape names the withheld children
/// ([`Shape::Withheld`]). A threshold certificate is not withheld. The
/// proof is not verified here.
///
/// Bytes that are no merged proof are an [`ErrorKind::Decode`] error; keys
/// the proof's shape does not split, no child kept, an index past the
/// children or a threshold child to withhold an [`ErrorKind::Argument`]
/// error.
pub fn split(statement: &MergeStatement<'_>, proof: &[u8], keep: &[usize]) -> Result<Vec<u8>> {
    let merged = decode_merged(proof)?;
    with_mergeable!(statement.scheme, S => {
        let st = self::split_statement::<S>(statement, &merged.shape())?;
        let (_, proof) = sigagg_merge::split(&st, merged, keep)?;
        Ok(proof.to_bytes())
    })
}

/// Decodes a merged proof far enough to say what it claims; bytes that
/// are no merged proof are an [`ErrorKind::Decode`] error.
pub fn inspect(proof: &[u8]) -> Result<MergeInfo> {
    Ok(MergeInfo { shape: decode_merged(proof)?.shape() })
}

/// The security of the merged `proof` of `statement` made with
/// `settings`, from its verifier circuit's tables (built here: tens of
/// milliseconds per child). The merge as a whole also rests on each
/// child's proof.
pub fn security(settings: ProofSettings, statement: &MergeStatement<'_>, proof: &[u8]) -> Result<Security> {
    let merged = decode_merged(proof)?;
    with_mergeable!(statement.scheme, S => {
        let statement = split_statement::<S>(statement, &merged.shape())?;
        let level = sigagg_merge::security_level(&sigagg_xmss_agg::settings(settings), &statement, &merged.children)?;
        Ok(Security::from(&level))
    })
}

/// The typed statement `merged` claims to prove: the keys and committees
/// decoded and split by its shape. Keys its shape does not split are a
/// [`ErrorKind::Verify`] error: it is not a proof of these keys.
fn claimed_statement<S: MergeScheme>(statement: &MergeStatement<'_>, merged: &MergedProof) -> Result<Statement<S>> {
    let parts = Parts::<S>::decode(statement)?;
    Statement::split_entries(&parts.entries, &parts.committees, &merged.shape(), parts.messages)
        .map_err(|e| Error::from(e).with_kind(ErrorKind::Verify))
}

/// The typed statement: the keys and committees decoded and split by
/// `shape`.
fn split_statement<S: MergeScheme>(statement: &MergeStatement<'_>, shape: &[Shape]) -> Result<Statement<S>> {
    let parts = Parts::<S>::decode(statement)?;
    Ok(Statement::split_entries(&parts.entries, &parts.committees, shape, parts.messages)?)
}

/// A statement's signers (each key with its message and epoch) and
/// committees, decoded, and whether it is of one message ([`Messages`]).
struct Parts<S: MergeScheme> {
    entries: Vec<AggregateEntry<S>>,
    committees: Vec<ThresholdStatement<S>>,
    messages: Messages,
}

impl<S: MergeScheme> Parts<S> {
    fn decode(statement: &MergeStatement<'_>) -> Result<Self> {
        let keys = decode_each(statement.public_keys, "public key", PublicKey::<S>::from_bytes)?;
        let n = keys.len() + statement.committees.len();
        let messages = per_entry(statement.messages, n, "message")?;
        let messages = messages.into_iter().map(message32).collect::<Result<Vec<_>>>()?;
        let epochs = per_entry(statement.epochs, n, "epoch")?;
        let signed = messages.into_iter().zip(epochs);
        let entries = keys
            .into_iter()
            .zip(signed.clone())
            .map(|(public_key, (message, epoch))| AggregateEntry { public_key, epoch, message })
            .collect();
        let committees = statement
            .committees
            .iter()
            .zip(signed.skip(statement.public_keys.len()))
            .enumerate()
            .map(|(i, (c, (message, epoch)))| {
                let group =
                    decode(c.group_key, GroupKey::from_bytes).map_err(|e| e.context(format!("committee {i}")))?;
                ThresholdStatement::for_set(group, epoch, message, c.threshold)
                    .map_err(|e| Error::from(MergeError::from(e)).context(format!("committee {i}")))
            })
            .collect::<Result<Vec<_>>>()?;
        let several = statement.messages.len() > 1 || statement.epochs.len() > 1;
        Ok(Self { entries, committees, messages: if several { Messages::Several } else { Messages::One } })
    }
}

/// A child's proof: a merged proof (its magic says so), or an aggregate or
/// threshold proof's bytes (its kind says which), or for leanSig
/// production children also leanSpec's
/// container `AggregatedSignatureProof` (what `sigagg aggregate --scheme
/// leansig-prod` writes), whose `proof_data` is taken (its participants
/// bitlist is not: the keys given are the statement). Bytes that are none
/// of these are an [`ErrorKind::Decode`] error.
fn child_proof(scheme: Scheme, bytes: &[u8]) -> Result<ChildProof> {
    if bytes.starts_with(MERGED_MAGIC) {
        return decode_merged(bytes).map(ChildProof::Merged);
    }
    let proof = match decode(bytes, sigagg_xmss_agg::Proof::from_bytes) {
        Err(_) if scheme == Scheme::LeanSigProd => {
            let container = decode(bytes, sigagg_xmss::AggregatedSignatureProof::from_bytes)?;
            decode(container.proof_data(), sigagg_xmss_agg::Proof::from_bytes)
        }
        other => other,
    };
    proof.map(|p| match p.kind {
        ProofKind::Aggregate => ChildProof::Aggregate(p),
        ProofKind::Threshold => ChildProof::Threshold(p),
    })
}

/// Every child's proof ([`child_proof`]), a failure naming its child.
fn child_proofs(scheme: Scheme, children: &[&[u8]]) -> Result<Vec<ChildProof>> {
    children
        .iter()
        .enumerate()
        .map(|(i, bytes)| child_proof(scheme, bytes).map_err(|e| e.context(format!("child {i}"))))
        .collect()
}

/// The shape the children's proofs claim.
fn shape_of(proofs: &[ChildProof]) -> Vec<Shape> {
    proofs
        .iter()
        .map(|p| match p {
            ChildProof::Aggregate(p) => Shape::Aggregate(p.count),
            ChildProof::Merged(m) => Shape::Merged(m.shape()),
            ChildProof::Threshold(_) => Shape::Threshold,
        })
        .collect()
}

/// The first bytes of a merged proof.
const MERGED_MAGIC: &[u8] = b"SGMERG";

fn decode_merged(proof: &[u8]) -> Result<MergedProof> {
    decode(proof, MergedProof::from_bytes).map_err(|e| e.context("merged proof"))
}

/// A failed merge: a child that does not verify is the prover's refusal.
fn proving(e: MergeError) -> Error {
    let kind = match e {
        MergeError::ChildInvalid { .. } | MergeError::Circuit(_) | MergeError::Signatures(_) => ErrorKind::Prove,
        _ => merge_kind(&e),
    };
    Error::new(kind, e)
}

/// The kind of a merge error where the call site knows no better.
pub(crate) fn merge_kind(e: &MergeError) -> ErrorKind {
    match e {
        MergeError::Decode(_) => ErrorKind::Decode,
        MergeError::ChildInvalid { .. } | MergeError::Circuit(_) => ErrorKind::Verify,
        MergeError::Signatures(_) => ErrorKind::Prove,
        MergeError::Empty
        | MergeError::TooManyChildren(_)
        | MergeError::TooDeep(_)
        | MergeError::MessageMismatch { .. }
        | MergeError::DuplicateSigner { .. }
        | MergeError::Split { .. }
        | MergeError::Statement(_)
        | MergeError::CountMismatch { .. }
        | MergeError::Withheld(_)
        | MergeError::Key(_)
        | MergeError::Settings => ErrorKind::Argument,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name the bindings use for the children's settings gives what
    /// the merge crate verifies children under.
    #[test]
    fn the_child_settings_name_is_the_merge_crates_setting() {
        assert_eq!(sigagg_xmss_agg::settings(CHILD_SETTINGS), sigagg_merge::CHILD_SETTINGS);
    }

    /// Bytes that are no merged proof, and a scheme that does not merge,
    /// are refused with their kinds before any proof work.
    #[test]
    fn malformed_inputs_have_their_kinds() {
        let statement = MergeStatement {
            scheme: Scheme::Seed001,
            public_keys: &[],
            messages: &[&[0; 32]],
            epochs: &[1],
            committees: &[],
        };
        for bytes in [&b""[..], b"SGMERG", b"SGXAGG\x01\x00\x00"] {
            assert_eq!(inspect(bytes).unwrap_err().kind(), ErrorKind::Decode);
            assert_eq!(verify_merged(CHILD_SETTINGS, &statement, bytes).unwrap_err().kind(), ErrorKind::Decode);
        }
        let e = merge(CHILD_SETTINGS, &statement, &[b"no proof"]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Decode);
        assert!(e.message().contains("child 0"), "{e}");
        let short = MergeStatement {
            scheme: Scheme::Seed001,
            public_keys: &[],
            messages: &[&[0; 31]],
            epochs: &[1],
            committees: &[],
        };
        assert_eq!(security(CHILD_SETTINGS, &short, b"SGMERG").unwrap_err().kind(), ErrorKind::Decode);
        let e = merge(CHILD_SETTINGS, &statement, &[b"SGMERG\x04"]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Decode);
        let lamport = MergeStatement { scheme: Scheme::LamportPlus, ..statement };
        assert_eq!(merge(CHILD_SETTINGS, &lamport, &[]).unwrap_err().kind(), ErrorKind::Argument);
    }
}
