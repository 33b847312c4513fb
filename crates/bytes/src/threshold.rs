//! Committed groups and t-of-n threshold proofs on bytes, for Seed001 XMSS
//! (`sigagg-xmss-agg`) and Lamport+ (`sigagg-lamport-agg`).
//!
//! A group key commits to a list of member keys (Merkle root and size;
//! 36 bytes for both schemes, their own hashes). Each member proves its
//! place with a membership path. A threshold proof shows that at least `t`
//! distinct members signed one message, revealing the count and optionally
//! who signed.

use sigagg_lamport::ParameterSet;
use sigagg_xmss::group::{GroupKey, GroupTree, MembershipProof};
use sigagg_xmss::{LeanSigProd, PublicKey, Seed001, Signature};
use sigagg_xmss_agg::AggScheme;
use sigagg_xmss_agg::Proof as XmssProof;
use sigagg_xmss_agg::threshold as xmss_threshold;

use crate::aggregate::no_epochs;
use crate::error::{Error, Result};
use crate::input::{decode, decode_each};
use crate::scheme::{ProofSettings, Scheme, with_provable};
use crate::xmss::message32;

/// A group: its key and every member's membership path, in member order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The group key (root and size).
    pub key: Vec<u8>,
    /// `paths[i]` proves that member `i` belongs to the group.
    pub paths: Vec<Vec<u8>>,
}

/// What a threshold proof claims: at least `threshold` members of the group
/// `group_key` signed `message` (Seed001: at `epoch`; Lamport+: no epoch).
#[derive(Clone, Copy, Debug)]
pub struct ThresholdStatement<'a> {
    /// The group key.
    pub group_key: &'a [u8],
    /// The least number of distinct signers.
    pub threshold: u32,
    /// The signed message (Seed001: 32 bytes).
    pub message: &'a [u8],
    /// Seed001: the epoch every member signed at. Lamport+: `None`.
    pub epoch: Option<u32>,
}

/// One signer's witness: its key, its signature on the statement's message
/// and its membership path (which holds its member index).
#[derive(Clone, Copy, Debug)]
pub struct Signer<'a> {
    /// The member's public key.
    pub public_key: &'a [u8],
    /// Its signature.
    pub signature: &'a [u8],
    /// Its membership path.
    pub path: &'a [u8],
}

/// What a verified threshold proof certifies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The number of distinct members that signed (at least the threshold).
    pub count: u32,
    /// Their member indices, ascending, if the proof discloses them.
    pub signers: Option<Vec<u32>>,
}

/// The group of `public_keys` (in member order): its key and every
/// member's path. Refuses an empty list and a key listed twice.
pub fn group(scheme: Scheme, public_keys: &[&[u8]]) -> Result<Group> {
    if scheme == Scheme::LeanSigProd {
        return xmss_group::<LeanSigProd>(public_keys);
    }
    with_provable!(scheme, "groups", seed001 => xmss_group::<Seed001>(public_keys), S => {
        let keys = decode_each(public_keys, "public key", sigagg_lamport::PublicKey::<S>::from_bytes)?;
        let tree = sigagg_lamport::GroupTree::new(&keys)?;
        let paths = (0..tree.key().size()).map(|i| Ok(tree.prove(i)?.to_bytes())).collect::<Result<_>>()?;
        Ok(Group { key: tree.key().to_bytes(), paths })
    })
}

/// The group of XMSS keys of the set `S` (Seed001 or LeanSigProd: the
/// same group tree, over each set's keys).
fn xmss_group<S: sigagg_xmss::ParameterSet>(public_keys: &[&[u8]]) -> Result<Group> {
    let keys = decode_each(public_keys, "public key", PublicKey::<S>::from_bytes)?;
    let tree = GroupTree::new(keys)?;
    let paths = (0..tree.key().size()).map(|i| Ok(tree.prove(i)?.to_bytes())).collect::<Result<_>>()?;
    Ok(Group { key: tree.key().to_bytes(), paths })
}

/// What a group key commits to, in a form to show people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupInfo {
    /// The Merkle root of the member keys.
    pub root: [u8; 32],
    /// The number of members.
    pub size: u32,
    /// The depth of the tree (the length of every membership path).
    pub depth: usize,
}

/// Decodes `group_key` (of `scheme`) into what it commits to. Why: a tool
/// that makes a group reports its root, size and depth without decoding
/// the scheme's group key itself.
pub fn group_info(scheme: Scheme, group_key: &[u8]) -> Result<GroupInfo> {
    match scheme {
        // The XMSS sets' group keys have one form.
        Scheme::Seed001 | Scheme::LeanSigProd => {
            let key = decode(group_key, GroupKey::from_bytes)?;
            let mut root = [0u8; 32];
            root.copy_from_slice(&key.to_bytes()[..32]);
            Ok(GroupInfo { root, size: key.size, depth: key.depth() })
        }
        // Lamport+ group keys are the same for both sets.
        Scheme::LamportPlus | Scheme::LamportPlusMined => {
            let key = decode(group_key, sigagg_lamport::GroupKey::from_bytes)?;
            let root = sigagg_lamport::field::digest_to_bytes(key.root());
            Ok(GroupInfo { root, size: key.size(), depth: key.depth() })
        }
        other => Err(other.unsupported("groups", "seed001, leansig-prod, lamport-plus or lamport-plus-mined")),
    }
}

/// Proves that `signers` (at least the threshold, distinct members, any
/// order) signed the statement's message; with `disclose`, the proof also
/// reveals who signed. Every signer is checked first: a bad witness is an
/// [`ErrorKind::Prove`](crate::ErrorKind::Prove) error naming it.
pub fn prove_threshold(
    scheme: Scheme,
    settings: ProofSettings,
    statement: &ThresholdStatement<'_>,
    signers: &[Signer<'_>],
    disclose: bool,
) -> Result<Vec<u8>> {
    let xmss_disclosure =
        if disclose { xmss_threshold::Disclosure::Signers } else { xmss_threshold::Disclosure::CountOnly };
    if scheme == Scheme::LeanSigProd {
        let (st, witness) = (xmss_statement::<LeanSigProd>(statement)?, xmss_signers::<LeanSigProd>(signers)?);
        let settings = sigagg_xmss_agg::settings(settings);
        return Ok(sigagg_xmss_agg::leansig::threshold::prove(&settings, &st, &witness, xmss_disclosure)?.to_bytes());
    }
    with_provable!(scheme, "threshold proofs", seed001 => {
        let (st, witness) = (xmss_statement::<Seed001>(statement)?, xmss_signers::<Seed001>(signers)?);
        Ok(xmss_threshold::prove(&sigagg_xmss_agg::settings(settings), &st, &witness, xmss_disclosure)?.to_bytes())
    }, S => {
        let st = lamport_statement::<S>(statement)?;
        let witness = lamport_signers::<S>(signers)?;
        let disclosure =
            if disclose { sigagg_lamport_agg::Disclosure::Bitmap } else { sigagg_lamport_agg::Disclosure::CountOnly };
        Ok(sigagg_lamport_agg::threshold::prove(&sigagg_lamport_agg::settings(settings), &st, &witness, disclosure)?.to_bytes())
    })
}

/// Verifies a threshold `proof` of `statement`, made with `settings`, and
/// returns what it certifies.
pub fn verify_threshold(
    scheme: Scheme,
    settings: ProofSettings,
    statement: &ThresholdStatement<'_>,
    proof: &[u8],
) -> Result<Certificate> {
    if scheme == Scheme::LeanSigProd {
        let st = xmss_statement::<LeanSigProd>(statement)?;
        let proof = decode(proof, XmssProof::from_bytes)?;
        let settings = sigagg_xmss_agg::settings(settings);
        let certificate = sigagg_xmss_agg::leansig::threshold::verify(&settings, &st, &proof)?;
        return Ok(Certificate { count: certificate.count, signers: certificate.signers });
    }
    with_provable!(scheme, "threshold verification", seed001 => {
        let st = xmss_statement::<Seed001>(statement)?;
        let proof = decode(proof, XmssProof::from_bytes)?;
        let certificate = xmss_threshold::verify(&sigagg_xmss_agg::settings(settings), &st, &proof)?;
        Ok(Certificate { count: certificate.count, signers: certificate.signers })
    }, S => {
        let st = lamport_statement::<S>(statement)?;
        let proof = decode(proof, sigagg_lamport_agg::Proof::from_bytes)?;
        sigagg_lamport_agg::threshold::verify(&sigagg_lamport_agg::settings(settings), &st, &proof)?;
        let size = st.group().size();
        let signers = proof.bitmap.as_deref().and_then(|b| sigagg_lamport_agg::members_of(size, b));
        Ok(Certificate { count: proof.count, signers })
    })
}

/// The XMSS threshold statement of `statement`, for the set `S`.
fn xmss_statement<S: AggScheme>(statement: &ThresholdStatement<'_>) -> Result<xmss_threshold::ThresholdStatement<S>> {
    let epoch = statement.epoch.ok_or_else(|| Error::argument("an XMSS threshold statement needs an epoch"))?;
    let group = decode(statement.group_key, GroupKey::from_bytes).map_err(|e| e.context("group key"))?;
    let message = message32(statement.message)?;
    Ok(xmss_threshold::ThresholdStatement::for_set(group, epoch, message, statement.threshold)?)
}

/// The Lamport+ threshold statement of `statement`.
fn lamport_statement<S: ParameterSet>(
    statement: &ThresholdStatement<'_>,
) -> Result<sigagg_lamport_agg::ThresholdStatement<S>> {
    if statement.epoch.is_some() {
        return Err(no_epochs());
    }
    let group =
        decode(statement.group_key, sigagg_lamport::GroupKey::from_bytes).map_err(|e| e.context("group key"))?;
    Ok(sigagg_lamport_agg::ThresholdStatement::new(group, statement.message.to_vec(), statement.threshold)?)
}

/// The XMSS witnesses of `signers`, of the set `S`; a malformed item names
/// its signer.
fn xmss_signers<S: AggScheme>(signers: &[Signer<'_>]) -> Result<Vec<xmss_threshold::Signer<S>>> {
    let parts = split(signers);
    let keys = decode_each(&parts.keys, "signer public key", PublicKey::<S>::from_bytes)?;
    let sigs = decode_each(&parts.signatures, "signer signature", Signature::<S>::from_bytes)?;
    let paths = decode_each(&parts.paths, "signer path", MembershipProof::from_bytes)?;
    let witness = keys.into_iter().zip(sigs).zip(paths);
    Ok(witness.map(|((public_key, signature), path)| xmss_threshold::Signer { public_key, path, signature }).collect())
}

/// The Lamport+ witnesses of `signers`.
fn lamport_signers<S: ParameterSet>(signers: &[Signer<'_>]) -> Result<Vec<sigagg_lamport_agg::Signer<S>>> {
    let parts = split(signers);
    let keys = decode_each(&parts.keys, "signer public key", sigagg_lamport::PublicKey::<S>::from_bytes)?;
    let sigs = decode_each(&parts.signatures, "signer signature", sigagg_lamport::Signature::<S>::from_bytes)?;
    let paths = decode_each(&parts.paths, "signer path", sigagg_lamport::MembershipProof::from_bytes)?;
    let witness = keys.into_iter().zip(sigs).zip(paths);
    Ok(witness
        .map(|((public_key, signature), path)| sigagg_lamport_agg::Signer { public_key, signature, path })
        .collect())
}

/// The signers' keys, signatures and paths as three lists.
struct Parts<'a> {
    keys: Vec<&'a [u8]>,
    signatures: Vec<&'a [u8]>,
    paths: Vec<&'a [u8]>,
}

fn split<'a>(signers: &[Signer<'a>]) -> Parts<'a> {
    Parts {
        keys: signers.iter().map(|s| s.public_key).collect(),
        signatures: signers.iter().map(|s| s.signature).collect(),
        paths: signers.iter().map(|s| s.path).collect(),
    }
}
