//! Making and checking merged proofs.

use std::ops::Range;
use std::sync::Arc;

use p3_air::BaseAir;
use p3_field::PrimeCharacteristicRing;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sigagg_prover::skip_stark::{SkipProof, skip_for};
use sigagg_prover::zerocheck::SkipAir;
use sigagg_prover::{SecurityLevel, Settings, StarkProof, codec};
use sigagg_recursion::child::{self, ChildStatement, NativeProof, ProofShape, ProofWires};
use sigagg_recursion::whir::{native_paths, no_paths};
use sigagg_recursion::{Circuit, CircuitBuilder, CircuitError, CircuitProof, Ext, StatementView, deferred};
use sigagg_xmss::Signature;
use sigagg_xmss_agg::{AggregateStatement, Proof, VerifyError};

use crate::statement::{Child, Messages, Shape, Withheld};
use crate::{MergeError, MergeScheme, MergeStatement};

/// The children's settings: whir-skip with Poseidon2 trees and transcript,
/// the one a verifier circuit affords.
pub const CHILD_SETTINGS: Settings = Settings::WHIR_SKIP_POSEIDON2;

/// The magic of a merged proof's encoding.
const MAGIC: &[u8; 6] = b"SGMERG";
/// Its version (2: each child's signer count, in place of the number of
/// children; 3: the deferred claims; 4: merged children, the tree in
/// preorder; 5: withheld children, every periodic column deferred; 6:
/// the children's seeds public inputs of the circuit, not constants: the
/// same bytes, another circuit).
const VERSION: u8 = 6;

/// Children's periodic columns longer than this many rows are evaluated by
/// the verifier natively, not in the circuit (`sigagg_recursion::deferred`):
/// all of them, so that the circuit depends on a child only through its
/// tables' shape and its transcript's seed, and a child's statement can be
/// withheld ([`split`]). Against deferring only those above 16 rows (the
/// keys and messages of children of more than 16 signers): 1-4 KB more
/// per child in the proof (BENCHMARKS-HISTORY), about 4% fewer circuit
/// rows.
pub(crate) const DEFER_ABOVE: usize = 0;

/// A child's proof, given to [`merge`].
pub enum ChildProof {
    /// An aggregate proof (of a [`Child::Aggregate`]).
    Aggregate(Proof),
    /// A merged proof (of a [`Child::Merged`]), made under
    /// [`CHILD_SETTINGS`].
    Merged(MergedProof),
    /// A threshold proof (of a [`Child::Threshold`]).
    Threshold(Proof),
}

impl From<Proof> for ChildProof {
    fn from(proof: Proof) -> Self {
        ChildProof::Aggregate(proof)
    }
}

impl From<MergedProof> for ChildProof {
    fn from(proof: MergedProof) -> Self {
        ChildProof::Merged(proof)
    }
}

/// What a merged proof carries of each child besides the circuit's proof:
/// an aggregate's signer count, or a merged child's own children and
/// claims (its proof's inputs but the public ones). A merged child's claims are carried up
/// because no circuit checks them: the verifier at the top checks every
/// level's natively ([`verify`]), and the circuit that verifies the
/// child's proof takes them as the child's inputs (its constants: another
/// claim is another circuit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChildHeader {
    /// An aggregate of this many signers.
    Aggregate {
        /// Its signers.
        signers: u32,
    },
    /// A merged proof's children and deferred claims.
    Merged {
        /// Its children.
        children: Vec<ChildHeader>,
        /// Its deferred claims.
        claims: Vec<Ext>,
    },
    /// A threshold proof's claims: its count and, disclosed, its signers
    /// (bound into its transcript's seed, so another claim is another
    /// circuit).
    Threshold {
        /// Its number of signers.
        count: u32,
        /// Their indices in the group, if disclosed.
        signers: Option<Vec<u32>>,
    },
    /// A withheld child's shape and statement digest ([`split`]).
    Withheld(Withheld),
}

impl ChildHeader {
    /// The shape it claims.
    pub fn shape(&self) -> Shape {
        match self {
            ChildHeader::Aggregate { signers } => Shape::Aggregate(*signers),
            ChildHeader::Merged { children, .. } => Shape::Merged(children.iter().map(ChildHeader::shape).collect()),
            ChildHeader::Threshold { .. } => Shape::Threshold,
            ChildHeader::Withheld(w) => Shape::Withheld(w.clone()),
        }
    }
}

/// A proof that every child of a [`MergeStatement`] verifies.
pub struct MergedProof {
    /// Each child's header, in order: its shape splits a flat list of
    /// participants' keys into the children's statements
    /// ([`MergeStatement::split`]), and a merged child's claims are its
    /// proof's inputs. Untrusted until the proof verifies: the circuit is
    /// built from them, so another split or claim is refused.
    pub children: Vec<ChildHeader>,
    /// The claims the circuit leaves to the verifier, its inputs but the
    /// public ones (the children's transcript seeds, which the verifier
    /// computes from their statements): each deferred column's point and
    /// value (`sigagg_recursion::deferred::check`).
    pub claims: Vec<Ext>,
    /// The verifier circuit's proof.
    pub proof: CircuitProof,
}

/// One node of the tree in preorder: an aggregate (`count` signers), a
/// merge (`count` children, its claims), a threshold proof (`count`
/// signers, `list` its signers if disclosed), a withheld aggregate
/// (`count` signers, its `digest`) or a withheld merge (`list` its tables'
/// log heights, its `digest`). Flat, so that decoding recurses no deeper
/// than [`crate::MAX_DEPTH`].
#[derive(Serialize, Deserialize)]
struct Node<E, I, B> {
    kind: u8,
    count: u32,
    claims: E,
    list: Option<I>,
    digest: Option<B>,
}

/// A decoded node.
type OwnedNode = Node<Vec<Ext>, Vec<u32>, Vec<u8>>;

/// A node to encode.
type NodeRef<'a> = Node<&'a [Ext], Vec<u32>, &'a [u8]>;

/// [`Node::kind`] of each.
const AGGREGATE: u8 = 0;
const MERGE: u8 = 1;
const THRESHOLD: u8 = 2;
const WITHHELD_AGGREGATE: u8 = 3;
const WITHHELD_MERGE: u8 = 4;

#[derive(Serialize, Deserialize)]
struct Body<N, P> {
    nodes: N,
    stark: P,
}

impl MergedProof {
    /// The number of children it merges.
    pub fn num_children(&self) -> usize {
        self.children.len()
    }

    /// Each child's shape, in order.
    pub fn shape(&self) -> Vec<Shape> {
        self.children.iter().map(ChildHeader::shape).collect()
    }

    /// The number of signers over the whole tree (saturating: the shape is
    /// untrusted).
    pub fn participants(&self) -> u64 {
        self.shape().iter().map(Shape::participants).fold(0, u64::saturating_add)
    }

    /// The encoding: magic, version, the tree's nodes in preorder (the
    /// root's claims first), the proof.
    pub fn to_bytes(&self) -> Vec<u8> {
        fn leaf<'a>(kind: u8, count: u32, list: Option<Vec<u32>>, digest: Option<&'a [u8]>) -> NodeRef<'a> {
            Node { kind, count, claims: &[], list, digest }
        }
        fn push<'a>(nodes: &mut Vec<NodeRef<'a>>, children: &'a [ChildHeader], claims: &'a [Ext]) {
            nodes.push(Node { kind: MERGE, count: children.len() as u32, claims, list: None, digest: None });
            for child in children {
                nodes.push(match child {
                    ChildHeader::Aggregate { signers } => leaf(AGGREGATE, *signers, None, None),
                    ChildHeader::Merged { children, claims } => {
                        push(nodes, children, claims);
                        continue;
                    }
                    ChildHeader::Threshold { count, signers } => leaf(THRESHOLD, *count, signers.clone(), None),
                    ChildHeader::Withheld(Withheld::Aggregate { signers, digest }) => {
                        leaf(WITHHELD_AGGREGATE, *signers, None, Some(digest))
                    }
                    ChildHeader::Withheld(Withheld::Merged { log_heights, digest }) => {
                        let heights = log_heights.iter().map(|&h| h as u32).collect();
                        leaf(WITHHELD_MERGE, 0, Some(heights), Some(digest))
                    }
                });
            }
        }
        let mut nodes = Vec::new();
        push(&mut nodes, &self.children, &self.claims);
        codec::encode(MAGIC, VERSION, &Body { nodes, stark: &self.proof.stark })
    }

    /// Decodes [`Self::to_bytes`]; anything else is [`MergeError::Decode`].
    ///
    /// # Errors
    /// Bytes that are not such an encoding, a merge of no child or more
    /// than [`crate::MAX_CHILDREN`], an aggregate of no signer or with
    /// claims, a tree deeper than [`crate::MAX_DEPTH`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, MergeError> {
        let body: Body<Vec<OwnedNode>, StarkProof> =
            codec::decode(MAGIC, VERSION, bytes, "merged proof").map_err(MergeError::Decode)?;
        let mut at = 0;
        let (children, claims) = read_merge(&body.nodes, &mut at, 1).map_err(MergeError::Decode)?;
        if at != body.nodes.len() {
            return Err(MergeError::Decode(format!("{} nodes after the tree", body.nodes.len() - at)));
        }
        Ok(Self { children, claims, proof: CircuitProof { stark: body.stark } })
    }
}

/// The merge at `nodes[*at]`, `depth` levels down, and its subtree.
fn read_merge(nodes: &[OwnedNode], at: &mut usize, depth: usize) -> Result<(Vec<ChildHeader>, Vec<Ext>), String> {
    if depth > crate::MAX_DEPTH {
        return Err(format!("more than {} levels of merging", crate::MAX_DEPTH));
    }
    let node = nodes.get(*at).ok_or("the tree ends early")?;
    *at += 1;
    let extra = node.list.is_some() || node.digest.is_some();
    if node.kind != MERGE || extra || node.count == 0 || node.count as usize > crate::MAX_CHILDREN {
        return Err(format!("a merge of {} children, at least 1 and at most {}", node.count, crate::MAX_CHILDREN));
    }
    let mut children = Vec::with_capacity(node.count as usize);
    for _ in 0..node.count {
        let child = nodes.get(*at).ok_or("the tree ends early")?;
        if child.kind == MERGE {
            let (children_below, claims) = read_merge(nodes, at, depth + 1)?;
            children.push(ChildHeader::Merged { children: children_below, claims });
            continue;
        }
        if (child.count == 0) != (child.kind == WITHHELD_MERGE) || !child.claims.is_empty() {
            return Err("an aggregate or threshold proof of no signer, or a leaf with claims".into());
        }
        *at += 1;
        let header = match (child.kind, &child.list, &child.digest) {
            (AGGREGATE, None, None) => ChildHeader::Aggregate { signers: child.count },
            (THRESHOLD, signers, None) => ChildHeader::Threshold { count: child.count, signers: signers.clone() },
            (WITHHELD_AGGREGATE, None, Some(digest)) => {
                ChildHeader::Withheld(Withheld::Aggregate { signers: child.count, digest: digest32(digest)? })
            }
            (WITHHELD_MERGE, Some(heights), Some(digest)) => {
                let log_heights = heights.iter().map(|&h| h as usize).collect();
                ChildHeader::Withheld(Withheld::Merged { log_heights, digest: digest32(digest)? })
            }
            _ => return Err(format!("a node of kind {}", child.kind)),
        };
        if let ChildHeader::Withheld(w) = &header {
            w.check().map_err(|e| e.to_string())?;
        }
        children.push(header);
    }
    Ok((children, node.claims.clone()))
}

/// A withheld child's digest: 32 bytes.
fn digest32(bytes: &[u8]) -> Result<[u8; 32], String> {
    bytes.try_into().map_err(|_| format!("a digest of {} bytes, not 32", bytes.len()))
}

/// Verifies every child natively and proves, under `settings` (a
/// whir-skip setting), that they verify.
///
/// # Errors
/// Another number of proofs than children, a child that does not verify
/// under [`CHILD_SETTINGS`] or whose proof is of the other kind
/// ([`MergeError::ChildInvalid`] with its index), settings of another
/// backend, or the circuit's refusal.
pub fn merge<S: MergeScheme>(
    settings: &Settings,
    statement: &MergeStatement<S>,
    children: &[ChildProof],
) -> Result<MergedProof, MergeError> {
    skip_only(settings)?;
    if children.len() != statement.children().len() {
        return Err(MergeError::CountMismatch { statements: statement.children().len(), proofs: children.len() });
    }
    let mut natives = Vec::with_capacity(children.len());
    let mut headers = Vec::with_capacity(children.len());
    for (index, (c, proof)) in statement.children().iter().zip(children).enumerate() {
        let invalid = |reason: String| MergeError::ChildInvalid { index, reason };
        let stark = match (c, proof) {
            (Child::Aggregate(s), ChildProof::Aggregate(p)) => {
                headers.push(ChildHeader::Aggregate { signers: s.len() as u32 });
                &p.stark
            }
            (Child::Threshold(_), ChildProof::Threshold(p)) => {
                headers.push(ChildHeader::Threshold { count: p.count, signers: p.signers.clone() });
                &p.stark
            }
            (Child::Withheld(_), _) => {
                return Err(invalid("a withheld child: merge its statement, then split the merged proof".into()));
            }
            (Child::Merged(_), ChildProof::Merged(p)) => {
                // Verified natively where its circuit is built (`build`),
                // once: the circuit below it is the costly part.
                headers.push(ChildHeader::Merged { children: p.children.clone(), claims: p.claims.clone() });
                &p.proof.stark
            }
            _ => {
                return Err(invalid(
                    "a proof of another kind (aggregate, merged, threshold) than its statement".into(),
                ));
            }
        };
        match stark {
            StarkProof::Skip(SkipProof::Poseidon2(body)) => natives.push(body.proof()),
            _ => return Err(invalid("not a whir-skip-poseidon2 proof".into())),
        }
    }
    // Each aggregate and certificate verified natively, side by side (the
    // first refusal by index is reported); merged children are verified
    // where their circuits are built.
    let checks: Vec<Result<(), MergeError>> = statement
        .children()
        .par_iter()
        .zip(children)
        .enumerate()
        .map(|(index, pair)| {
            let invalid = |e: VerifyError| MergeError::ChildInvalid { index, reason: e.to_string() };
            match pair {
                (Child::Aggregate(s), ChildProof::Aggregate(p)) => {
                    S::verify_child(&CHILD_SETTINGS, s, p).map_err(invalid)
                }
                (Child::Threshold(t), ChildProof::Threshold(p)) => {
                    S::verify_threshold(&CHILD_SETTINGS, t, p).map(drop).map_err(invalid)
                }
                _ => Ok(()),
            }
        })
        .collect();
    checks.into_iter().collect::<Result<(), _>>()?;
    let merged: Vec<Option<&CircuitProof>> = children
        .iter()
        .map(|c| match c {
            ChildProof::Merged(p) => Some(&p.proof),
            ChildProof::Aggregate(_) | ChildProof::Threshold(_) => None,
        })
        .collect();
    let (circuit, _) = build(statement, &headers, Some(&natives), &merged)?;
    let (inputs, proof) = sigagg_recursion::prove_deferred(settings, &circuit)?;
    Ok(MergedProof { children: headers, claims: circuit.claims_of(&inputs), proof })
}

/// Merges `children` (statements and their proofs) and raw `signatures`
/// of the signers of `signed`, of one message and epoch or of several as
/// `messages` says: the signatures are aggregated first, under
/// [`CHILD_SETTINGS`], into one more child, the last, and the whole is
/// merged. Returns the statement the merged proof proves (the children,
/// then `signed`) and the proof; its verifier sees the raw signers as that
/// last aggregate.
///
/// One proof results, as with a single proof of the aggregator's and the
/// circuit's tables; the price of proving the raw signatures apart is one
/// more child's verification in the circuit (about 0.4 s on two cores).
///
/// # Errors
/// A signature that does not verify ([`MergeError::Signatures`]), or what
/// [`MergeStatement::with`] and [`merge`] refuse.
pub fn merge_signed<S: MergeScheme>(
    settings: &Settings,
    messages: Messages,
    children: Vec<Child<S>>,
    proofs: Vec<ChildProof>,
    signed: AggregateStatement<S>,
    signatures: &[Signature<S>],
) -> Result<(MergeStatement<S>, MergedProof), MergeError> {
    let raw =
        S::prove_child(&CHILD_SETTINGS, &signed, signatures).map_err(|e| MergeError::Signatures(e.to_string()))?;
    let (mut children, mut proofs) = (children, proofs);
    children.push(Child::Aggregate(signed));
    proofs.push(ChildProof::Aggregate(raw));
    let statement = MergeStatement::with(children, messages)?;
    let proof = merge(settings, &statement, &proofs)?;
    Ok((statement, proof))
}

/// Checks that `proof` shows every child of `statement` verifying, under
/// `settings`: the claims of every merged proof in the tree natively, then
/// the circuit's proof. Rebuilds every level's circuit: tens of
/// milliseconds per child. A withheld child's claims are not checked: the
/// proof shows nothing about it.
///
/// # Errors
/// Another shape of children, settings of another backend, a false claim,
/// or the circuit proof's refusal.
pub fn verify<S: MergeScheme>(
    settings: &Settings,
    statement: &MergeStatement<S>,
    proof: &MergedProof,
) -> Result<(), MergeError> {
    verify_level(settings, statement, proof).map(drop)
}

/// [`verify`], and the merged proof's security ([`security_level`]) from
/// the circuit it verified on: a caller that reports it builds the
/// circuit once instead of twice.
///
/// # Errors
/// As [`verify`].
pub fn verify_level<S: MergeScheme>(
    settings: &Settings,
    statement: &MergeStatement<S>,
    proof: &MergedProof,
) -> Result<SecurityLevel, MergeError> {
    skip_only(settings)?;
    let (circuit, withheld) = build(statement, &proof.children, None, &[])?;
    let inputs = circuit.inputs_with(&proof.claims)?;
    deferred::check_except(&circuit, &inputs, &withheld)?;
    Ok(sigagg_recursion::verify_level(settings, &circuit, &inputs, &proof.proof)?)
}

/// Splits a merged proof: the same proof, for a verifier who knows only
/// the children numbered in `keep`. Every other child of `statement`
/// becomes withheld: its header is replaced by what the circuit reads of
/// it (an aggregate's signer count or a merge's table heights, and its
/// statement's digest, [`Withheld`]), and
/// its signers' keys, messages and epochs are no longer needed. The use:
/// a merge over several messages split into one message's part. No proof
/// is made (the circuit is the same), so the split proof is as long as
/// the merged one, and as costly to verify.
///
/// Returns the kept statement (the withheld children in their places) and
/// the split proof, which [`verify`] checks against it. Sound for the kept
/// children: their part of the circuit and their claims are what the
/// verifier builds and checks from their statements; a withheld child's
/// part reads only its header, and its claims go unchecked.
///
/// # Errors
/// Headers of another shape than the children's, no child kept or one
/// past the last, a threshold certificate to withhold (its tables depend
/// on its group; [`MergeError::Withheld`]).
pub fn split<S: MergeScheme>(
    statement: &MergeStatement<S>,
    proof: MergedProof,
    keep: &[usize],
) -> Result<(MergeStatement<S>, MergedProof), MergeError> {
    check_headers(statement, &proof.children)?;
    let count = statement.children().len();
    if keep.is_empty() || keep.iter().any(|&k| k >= count) {
        return Err(MergeError::Withheld("keep at least one child, each one of the merge's"));
    }
    let (mut children, mut headers) = (Vec::with_capacity(count), Vec::with_capacity(count));
    for (index, (child, header)) in statement.children().iter().zip(&proof.children).enumerate() {
        if keep.contains(&index) || matches!(child, Child::Withheld(_)) {
            children.push(child.clone());
            headers.push(header.clone());
            continue;
        }
        let withheld = withhold(child, header)?;
        children.push(Child::Withheld(withheld.clone()));
        headers.push(ChildHeader::Withheld(withheld));
    }
    let kept = MergeStatement::with(children, Messages::Several)?;
    Ok((kept, MergedProof { children: headers, ..proof }))
}

/// What a verifier who does not know `child` (whose header is `header`,
/// of its shape: [`check_headers`]) reads of it.
fn withhold<S: MergeScheme>(child: &Child<S>, header: &ChildHeader) -> Result<Withheld, MergeError> {
    match (child, header) {
        (Child::Aggregate(s), ChildHeader::Aggregate { .. }) => {
            Ok(Withheld::Aggregate { signers: s.len() as u32, digest: s.digest() })
        }
        (Child::Merged(m), ChildHeader::Merged { children, claims }) => {
            let (inner, _) = build(m, children, None, &[])?;
            let view = sigagg_recursion::statement_view(&CHILD_SETTINGS, &inner, &inner.inputs_with(claims)?)?;
            Ok(Withheld::Merged { log_heights: view.log_heights, digest: view.digest })
        }
        (Child::Threshold(_), _) => Err(MergeError::Withheld("a threshold certificate is not withheld")),
        // Not met after `check_headers` (withheld children are kept as
        // they are); refused rather than assumed.
        _ => Err(MergeError::Withheld("a header of another kind than its child")),
    }
}

/// Refuses settings of another backend than whir-skip, the only one
/// merged proofs are made under ([`MergeError::Settings`]).
pub(crate) fn skip_only(settings: &Settings) -> Result<(), MergeError> {
    match settings {
        Settings::Skip(_) => Ok(()),
        _ => Err(MergeError::Settings),
    }
}

/// Refuses `children` (a merged proof's headers) unless they claim the
/// shape of `statement`'s children.
pub(crate) fn check_headers<S: MergeScheme>(
    statement: &MergeStatement<S>,
    children: &[ChildHeader],
) -> Result<(), MergeError> {
    if children.iter().map(ChildHeader::shape).ne(statement.shape()) {
        return Err(MergeError::CountMismatch { statements: statement.children().len(), proofs: children.len() });
    }
    Ok(())
}

/// The security of a merged proof of `statement` under `settings`, from
/// the tables of its verifier circuit (built here, tens of milliseconds
/// per child), whose merged children are as `children` says (the proof's
/// [`MergedProof::children`]). The merge as a whole is as sound as this
/// proof and each proof below it together (ARCHITECTURE.md,
/// `sigagg-recursion`).
///
/// # Errors
/// Settings of another backend, or children of another shape.
pub fn security_level<S: MergeScheme>(
    settings: &Settings,
    statement: &MergeStatement<S>,
    children: &[ChildHeader],
) -> Result<SecurityLevel, MergeError> {
    skip_only(settings)?;
    let circuit = verifier_circuit(statement, children, None)?;
    Ok(sigagg_recursion::security_level(settings, &circuit, &vec![Ext::ZERO; circuit.num_inputs()])?)
}

/// The verifier circuit of the children: each child's proof verified
/// whole, its values advice from `proofs` (the prover's build, one native
/// proof per child) or from nowhere (a verifier's, which never runs
/// hints). A merged child's circuit is rebuilt from its statement and
/// header, and its claims are checked natively here. Public for
/// measurement: its size is the merge's cost.
///
/// # Errors
/// Another number of proofs than children, headers of another shape than
/// the statement's, a merged child's false claim
/// ([`MergeError::ChildInvalid`]), or a child statement the native
/// verifier would refuse.
pub fn verifier_circuit<S: MergeScheme>(
    statement: &MergeStatement<S>,
    children: &[ChildHeader],
    proofs: Option<&[&NativeProof]>,
) -> Result<Circuit, MergeError> {
    Ok(build(statement, children, proofs, &[])?.0)
}

/// [`verifier_circuit`], and each merged child whose proof `merged` gives
/// (by index) verified natively on the circuit built for it (the
/// prover's check of its children, without building that circuit twice).
/// Also returns the numbers of the withheld children's deferred claims,
/// which no verifier checks.
fn build<S: MergeScheme>(
    statement: &MergeStatement<S>,
    children: &[ChildHeader],
    proofs: Option<&[&NativeProof]>,
    merged: &[Option<&CircuitProof>],
) -> Result<(Circuit, Vec<Range<usize>>), MergeError> {
    let mismatch = |proofs| MergeError::CountMismatch { statements: statement.children().len(), proofs };
    if let Some(proofs) = proofs
        && proofs.len() != statement.children().len()
    {
        return Err(mismatch(proofs.len()));
    }
    check_headers(statement, children)?;
    // Each child's view is built apart from the others, side by side: a
    // merged child's is its whole circuit, its claims checked (and its
    // proof verified for the prover); the circuit then records them in order.
    let views: Vec<Result<View<S::Air>, MergeError>> = statement
        .children()
        .par_iter()
        .zip(children)
        .enumerate()
        .map(|(index, (child, header))| {
            view(index, child, header, merged.get(index).copied().flatten())?.ok_or_else(|| mismatch(children.len()))
        })
        .collect();
    let mut b = CircuitBuilder::new();
    b.defer_periodic_above(DEFER_ABOVE);
    let mut withheld = Vec::new();
    for (index, (view, child)) in views.into_iter().zip(statement.children()).enumerate() {
        let native = proofs.map(|p| p[index]);
        let first = b.num_deferred();
        view?.record(&mut b, native)?;
        if matches!(child, Child::Withheld(_)) {
            withheld.push(first..b.num_deferred());
        }
    }
    Ok((b.build(), withheld))
}

/// What the circuit reads of one child: its tables, their heights and its
/// transcript's seed, as its scheme's tables or as a merged proof's
/// circuit tables.
pub(crate) enum View<A> {
    Scheme(Vec<A>, Vec<usize>, Vec<u8>),
    Circuit(StatementView),
}

impl<A: SkipAir> View<A> {
    /// Records in `b` the verification of the child's proof
    /// ([`verify_child`]), its values advice from `native` or from nowhere.
    pub(crate) fn record(&self, b: &mut CircuitBuilder, native: Option<&NativeProof>) -> Result<(), MergeError> {
        match self {
            View::Scheme(airs, log_heights, seed) => {
                verify_child(b, &airs.iter().collect::<Vec<_>>(), log_heights, seed, native)
            }
            View::Circuit(v) => verify_child(b, &v.airs.iter().collect::<Vec<_>>(), &v.log_heights, &v.seed, native),
        }
    }

    /// The number of the child's periodic columns: each is a deferred
    /// claim of the circuit that verifies it.
    pub(crate) fn num_periodic_columns(&self) -> usize {
        match self {
            View::Scheme(airs, ..) => airs.iter().map(|a| a.num_periodic_columns()).sum(),
            View::Circuit(v) => v.airs.iter().map(|a| a.num_periodic_columns()).sum(),
        }
    }
}

/// The view of child `index` (`child`, whose header is `header`, of its
/// shape: [`check_headers`]). A merged child's circuit is built from its
/// statement and header, its claims checked, and its proof verified on it
/// when `merged` gives it; a withheld child's view is built from its
/// header. None for a header of another kind than its child.
fn view<S: MergeScheme>(
    index: usize,
    child: &Child<S>,
    header: &ChildHeader,
    merged: Option<&CircuitProof>,
) -> Result<Option<View<S::Air>>, MergeError> {
    let invalid = |reason: String| MergeError::ChildInvalid { index, reason };
    Ok(Some(match (child, header) {
        (Child::Aggregate(s), _) => {
            let (airs, log_heights, seed) = S::verifier_view(&CHILD_SETTINGS, s);
            View::Scheme(airs, log_heights, seed)
        }
        (Child::Merged(m), ChildHeader::Merged { children, claims }) => {
            let (inner, unchecked) = build(m, children, None, &[])?;
            let invalid = |e: CircuitError| invalid(e.to_string());
            let inputs = inner.inputs_with(claims).map_err(invalid)?;
            deferred::check_except(&inner, &inputs, &unchecked).map_err(invalid)?;
            let view = sigagg_recursion::statement_view(&CHILD_SETTINGS, &inner, &inputs)?;
            if let Some(proof) = merged {
                sigagg_recursion::verify_view(&CHILD_SETTINGS, &view, proof).map_err(invalid)?;
            }
            View::Circuit(view)
        }
        (Child::Threshold(t), ChildHeader::Threshold { count, signers }) => {
            let (airs, log_heights, seed) = S::threshold_view(&CHILD_SETTINGS, t, *count, signers.as_deref())
                .map_err(|e| invalid(e.to_string()))?;
            View::Scheme(airs, log_heights, seed)
        }
        (Child::Withheld(Withheld::Aggregate { signers, digest }), ChildHeader::Withheld(_)) => {
            let (airs, log_heights, seed) = S::placeholder_view(&CHILD_SETTINGS, *signers as usize, digest);
            View::Scheme(airs, log_heights, seed)
        }
        (Child::Withheld(Withheld::Merged { log_heights, digest }), ChildHeader::Withheld(_)) => {
            View::Circuit(sigagg_recursion::placeholder_view(&CHILD_SETTINGS, log_heights, *digest)?)
        }
        _ => return Ok(None),
    }))
}

/// Records in `b` the verification of one child's proof: its tables, their
/// heights and its transcript's seed, under [`CHILD_SETTINGS`]; its values
/// advice from `native` (the prover's build) or from nowhere.
fn verify_child<A: SkipAir>(
    b: &mut CircuitBuilder,
    airs: &[&A],
    log_heights: &[usize],
    seed: &[u8],
    native: Option<&NativeProof>,
) -> Result<(), MergeError> {
    let Settings::Skip(child_settings) = CHILD_SETTINGS else { unreachable!("a whir-skip setting") };
    let view = ChildStatement { airs, log_heights, skip: skip_for(log_heights), seed, settings: &child_settings };
    let shape = ProofShape::of(&view)?;
    let (values, paths) = match native {
        Some(proof) => (Some(Arc::new(child::values(proof))), native_paths(&proof.opening)),
        None => (None, no_paths()),
    };
    let wires = ProofWires::advice(b, &shape, values);
    child::verify(b, &view, &wires, &paths)?;
    Ok(())
}
