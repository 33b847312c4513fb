//! The statement of a merge: its children's statements, each an
//! aggregate's or, recursively, a merge's.

use std::collections::HashSet;

use sigagg_xmss::{PublicKey, Seed001};
use sigagg_xmss_agg::threshold::ThresholdStatement;
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement};

use crate::{MergeError, MergeScheme};

/// Most children one merge takes (a child of 64 signatures is about 2^18
/// rows of the verifier circuit, whose tables hold at most 2^24).
pub const MAX_CHILDREN: usize = 16;

/// Most levels of merging above the aggregates (a merge of aggregates is
/// depth 1). Each level's verifier rebuilds the circuits below it, so the
/// bound keeps a decoder's recursion and a verifier's work bounded; it is
/// no limit of the construction.
pub const MAX_DEPTH: usize = 8;

/// One child of a merge: an aggregate's statement, or a merge's (a merged
/// proof is itself a child).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Child<S: MergeScheme = Seed001> {
    /// An aggregate proof's statement.
    Aggregate(AggregateStatement<S>),
    /// A merged proof's statement.
    Merged(MergeStatement<S>),
    /// A threshold proof's statement: at least its threshold of its
    /// group's members signed. Its signers are not listed (a proof may
    /// disclose them): the merge proves the certificate, not that its
    /// signers differ from the other children's.
    Threshold(ThresholdStatement<S>),
    /// A child whose statement is withheld ([`crate::split`]): the merge
    /// proves nothing about it to this statement's verifier.
    Withheld(Withheld),
}

/// What a verifier who does not know a child's statement reads of it: its
/// tables' shape and its statement's digest (which its transcript's seed
/// ends with, after the domain and [`crate::CHILD_SETTINGS`]). The
/// verifier circuit defers every periodic column of a child, so its part
/// for the child depends on nothing else; the child's deferred claims go
/// unchecked. Untrusted: a withheld child proves nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Withheld {
    /// An aggregate of this many signers.
    Aggregate {
        /// Its signers (at most [`sigagg_xmss_agg::statement::MAX_SIGNATURES`]).
        signers: u32,
        /// Its statement's digest.
        digest: [u8; 32],
    },
    /// A merged proof.
    Merged {
        /// Its circuit's five tables' heights, log2 (each at most
        /// [`sigagg_recursion::MAX_LOG_HEIGHT`]).
        log_heights: Vec<usize>,
        /// Its statement's digest (its circuit's and claims').
        digest: [u8; 32],
    },
}

impl Withheld {
    /// Checks the bounds that keep building its tables cheap.
    ///
    /// # Errors
    /// An aggregate of no signer or more than the aggregator takes, other
    /// than five heights or one too tall ([`MergeError::Withheld`]).
    pub fn check(&self) -> Result<(), MergeError> {
        let refused = |reason: &'static str| Err(MergeError::Withheld(reason));
        match self {
            Withheld::Aggregate { signers, .. }
                if *signers == 0 || *signers as usize > sigagg_xmss_agg::statement::MAX_SIGNATURES =>
            {
                refused("an aggregate of no signer, or of more than an aggregate takes")
            }
            Withheld::Merged { log_heights, .. }
                if log_heights.len() != 5 || log_heights.iter().any(|&h| h > sigagg_recursion::MAX_LOG_HEIGHT) =>
            {
                refused("a merged proof's tables are five, each at most 2^24 rows")
            }
            _ => Ok(()),
        }
    }
}

/// How a merge's signers are grouped: per child, its number of signers
/// (an aggregate) or its own children's shapes (a merge). With the
/// participants' keys in order it rebuilds the statement
/// ([`MergeStatement::split`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// An aggregate of this many signers.
    Aggregate(u32),
    /// A merge of these children.
    Merged(Vec<Shape>),
    /// A threshold certificate (no listed keys: its statement is given
    /// apart, to [`MergeStatement::split_with`]).
    Threshold,
    /// A withheld child (no keys: what a verifier reads of it is here).
    Withheld(Withheld),
}

impl Shape {
    /// The signers under it (saturating: shapes read from bytes are
    /// untrusted).
    pub fn participants(&self) -> u64 {
        match self {
            Shape::Aggregate(n) => u64::from(*n),
            Shape::Merged(children) => children.iter().map(Shape::participants).fold(0, u64::saturating_add),
            Shape::Threshold | Shape::Withheld(_) => 0,
        }
    }

    /// The threshold certificates under it.
    pub fn committees(&self) -> usize {
        match self {
            Shape::Merged(children) => children.iter().map(Shape::committees).fold(0, usize::saturating_add),
            Shape::Threshold => 1,
            Shape::Aggregate(_) | Shape::Withheld(_) => 0,
        }
    }

    /// Levels of merging in it: 0 for an aggregate or a threshold
    /// certificate, one more than its deepest child for a merge (1 for a
    /// withheld one, whose children are not known).
    pub fn depth(&self) -> usize {
        match self {
            Shape::Merged(children) => 1 + children.iter().map(Shape::depth).max().unwrap_or(0),
            Shape::Withheld(Withheld::Merged { .. }) => 1,
            Shape::Aggregate(_) | Shape::Threshold | Shape::Withheld(Withheld::Aggregate { .. }) => 0,
        }
    }
}

/// Which messages a merge's signers may sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Messages {
    /// Type 1 (leanMultisig's): every signer and every threshold
    /// certificate of the tree signed one message at one epoch, each
    /// signer once.
    One,
    /// Type 2: each signer and certificate its own message and epoch (a
    /// block's attestations of several votes in one proof), each signer
    /// once per message and epoch. The circuit is the same: each child's
    /// proof is verified against its own statement.
    Several,
}

/// Children's statements, every signer once per message and epoch over the
/// whole tree, all of one parameter set (Seed001 unless said): of one
/// message and epoch ([`Messages::One`], [`Self::of`]) or of several
/// ([`Messages::Several`], [`Self::of_messages`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeStatement<S: MergeScheme = Seed001> {
    children: Vec<Child<S>>,
}

impl<S: MergeScheme> MergeStatement<S> {
    /// A merge of aggregates ([`Self::of`] with each an
    /// [`Child::Aggregate`]).
    ///
    /// # Errors
    /// As [`Self::of`].
    pub fn new(children: Vec<AggregateStatement<S>>) -> Result<Self, MergeError> {
        Self::of(children.into_iter().map(Child::Aggregate).collect())
    }

    /// Checks the children of a type-1 merge ([`Messages::One`]): at least
    /// one, at most [`MAX_CHILDREN`], at most [`MAX_DEPTH`] levels, every
    /// entry and certificate of the first one's message and epoch, no
    /// public key twice in the whole tree.
    ///
    /// # Errors
    /// Which of these fails (`child` names the child of this merge).
    pub fn of(children: Vec<Child<S>>) -> Result<Self, MergeError> {
        Self::with(children, Messages::One)
    }

    /// Checks the children of a type-2 merge ([`Messages::Several`]): as
    /// [`Self::of`], but each entry and certificate of any message and
    /// epoch, and no public key twice for one message and epoch.
    ///
    /// # Errors
    /// Which of these fails (`child` names the child of this merge).
    pub fn of_messages(children: Vec<Child<S>>) -> Result<Self, MergeError> {
        Self::with(children, Messages::Several)
    }

    /// [`Self::of`] or [`Self::of_messages`], as `messages` says.
    ///
    /// # Errors
    /// As theirs.
    pub fn with(children: Vec<Child<S>>, messages: Messages) -> Result<Self, MergeError> {
        if children.is_empty() {
            return Err(MergeError::Empty);
        }
        if children.len() > MAX_CHILDREN {
            return Err(MergeError::TooManyChildren(children.len()));
        }
        let statement = Self { children };
        if statement.depth() > MAX_DEPTH {
            return Err(MergeError::TooDeep(statement.depth()));
        }
        let first = statement.children.iter().find_map(Child::signed);
        let mut seen = HashSet::new();
        for (child, c) in statement.children.iter().enumerate() {
            if let Child::Withheld(w) = c {
                w.check()?;
            }
            let one = |signed| messages == Messages::Several || Some(signed) == first;
            if !c.threshold_messages().into_iter().all(one) {
                return Err(MergeError::MessageMismatch { child });
            }
            for entry in c.entries() {
                if !one((entry.message, entry.epoch)) {
                    return Err(MergeError::MessageMismatch { child });
                }
                if !seen.insert((entry.public_key, entry.message, entry.epoch)) {
                    return Err(MergeError::DuplicateSigner { child });
                }
            }
        }
        Ok(statement)
    }

    /// The children's statements, in order.
    pub fn children(&self) -> &[Child<S>] {
        &self.children
    }

    /// The children's statements, taken.
    pub fn into_children(self) -> Vec<Child<S>> {
        self.children
    }

    /// Levels of merging above the aggregates: 1 for a merge of aggregates.
    pub fn depth(&self) -> usize {
        1 + self.children.iter().map(|c| c.shape().depth()).max().unwrap_or(0)
    }

    /// The signed messages and their epochs, each once, in the tree's
    /// order (depth first; one for a type-1 merge).
    pub fn messages(&self) -> Vec<([u8; 32], u32)> {
        let mut all = Vec::new();
        for child in &self.children {
            let signed = child.entries().into_iter().map(|e| (e.message, e.epoch)).chain(child.threshold_messages());
            for s in signed {
                if !all.contains(&s) {
                    all.push(s);
                }
            }
        }
        all
    }

    /// The signers' entries, over the whole tree in order.
    pub fn entries(&self) -> Vec<&AggregateEntry<S>> {
        self.children.iter().flat_map(Child::entries).collect()
    }

    /// The signers, over the whole tree.
    pub fn participants(&self) -> usize {
        self.children.iter().map(Child::participants).sum()
    }

    /// Each child's shape, in order.
    pub fn shape(&self) -> Vec<Shape> {
        self.children.iter().map(Child::shape).collect()
    }

    /// The statement of children of `shape`, whose keys are `public_keys`
    /// in order (the whole tree's keys one after the other, depth first),
    /// all signing `message` at `epoch`: how a verifier who knows the
    /// participants rebuilds a type-1 merge's statement from a merged
    /// proof's [`shape`](crate::MergedProof::shape). A shape with a
    /// threshold child needs [`Self::split_with`].
    ///
    /// # Errors
    /// A shape that does not add up to the keys ([`MergeError::Split`]), an
    /// aggregate of no signer, or what [`Self::of`] refuses.
    pub fn split(
        public_keys: &[PublicKey<S>],
        shape: &[Shape],
        message: [u8; 32],
        epoch: u32,
    ) -> Result<Self, MergeError> {
        Self::split_with(public_keys, &[], shape, message, epoch)
    }

    /// [`Self::split`], each [`Shape::Threshold`] child taking the next of
    /// `committees` (their statements in the tree's order, depth first).
    ///
    /// # Errors
    /// As [`Self::split`]; also another number of committees than the
    /// shape's threshold children ([`MergeError::Split`]).
    pub fn split_with(
        public_keys: &[PublicKey<S>],
        committees: &[ThresholdStatement<S>],
        shape: &[Shape],
        message: [u8; 32],
        epoch: u32,
    ) -> Result<Self, MergeError> {
        let entries: Vec<_> =
            public_keys.iter().map(|&public_key| AggregateEntry::<S> { public_key, epoch, message }).collect();
        Self::split_entries(&entries, committees, shape, Messages::One)
    }

    /// The statement of children of `shape` whose signers are `entries` in
    /// order (each its key, message and epoch; the whole tree's one after
    /// the other, depth first) and whose threshold children are
    /// `committees` in order, checked as `messages` says: how a verifier
    /// rebuilds a type-2 merge's statement ([`Messages::Several`]).
    ///
    /// # Errors
    /// As [`Self::split_with`], or what [`Self::with`] refuses.
    pub fn split_entries(
        entries: &[AggregateEntry<S>],
        committees: &[ThresholdStatement<S>],
        shape: &[Shape],
        messages: Messages,
    ) -> Result<Self, MergeError> {
        let total = shape.iter().map(Shape::participants).fold(0, u64::saturating_add);
        let thresholds = shape.iter().map(Shape::committees).fold(0, usize::saturating_add);
        let refused = || MergeError::Split { keys: entries.len(), committees: committees.len(), shape: shape.to_vec() };
        if total != entries.len() as u64 || thresholds != committees.len() {
            return Err(refused());
        }
        let mut parts = Parts { entries: entries.iter(), committees: committees.iter(), messages };
        Self::split_from(&mut parts, shape, 1).map_err(|e| match e {
            MergeError::Split { .. } => refused(),
            other => other,
        })
    }

    /// [`Self::split_entries`] of what `parts` still holds, `depth` levels
    /// down.
    fn split_from(parts: &mut Parts<'_, S>, shape: &[Shape], depth: usize) -> Result<Self, MergeError> {
        if depth > MAX_DEPTH {
            return Err(MergeError::TooDeep(depth));
        }
        let refused = || MergeError::Split { keys: 0, committees: 0, shape: Vec::new() };
        let children = shape
            .iter()
            .map(|s| match s {
                Shape::Aggregate(0) => Err(refused()),
                Shape::Aggregate(count) => {
                    let entries = parts.entries.by_ref().take(*count as usize).copied().collect();
                    Ok(Child::Aggregate(AggregateStatement::from_entries(entries)?))
                }
                Shape::Merged(inner) => Ok(Child::Merged(Self::split_from(parts, inner, depth + 1)?)),
                Shape::Threshold => parts.committees.next().copied().map(Child::Threshold).ok_or_else(refused),
                Shape::Withheld(w) => Ok(Child::Withheld(w.clone())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::with(children, parts.messages)
    }
}

/// What [`MergeStatement::split_entries`] hands out, in order, and how it
/// checks each merge.
struct Parts<'a, S: MergeScheme> {
    entries: std::slice::Iter<'a, AggregateEntry<S>>,
    committees: std::slice::Iter<'a, ThresholdStatement<S>>,
    messages: Messages,
}

impl<S: MergeScheme> Child<S> {
    /// Its listed signers' entries, in order (none for a threshold child).
    pub fn entries(&self) -> Vec<&AggregateEntry<S>> {
        match self {
            Child::Aggregate(a) => a.entries().iter().collect(),
            Child::Merged(m) => m.entries(),
            Child::Threshold(_) | Child::Withheld(_) => Vec::new(),
        }
    }

    /// Its number of listed signers (none for a threshold child, whose
    /// count its proof gives).
    pub fn participants(&self) -> usize {
        match self {
            Child::Aggregate(a) => a.len(),
            Child::Merged(m) => m.participants(),
            Child::Threshold(_) | Child::Withheld(_) => 0,
        }
    }

    /// Its shape.
    pub fn shape(&self) -> Shape {
        match self {
            Child::Aggregate(a) => Shape::Aggregate(a.len() as u32),
            Child::Merged(m) => Shape::Merged(m.shape()),
            Child::Threshold(_) => Shape::Threshold,
            Child::Withheld(w) => Shape::Withheld(w.clone()),
        }
    }

    /// The message and epoch of its first entry or certificate (none if
    /// every child under it is withheld).
    fn signed(&self) -> Option<([u8; 32], u32)> {
        match self {
            Child::Aggregate(a) => Some((a.entries()[0].message, a.entries()[0].epoch)),
            Child::Merged(m) => m.children.iter().find_map(Child::signed),
            Child::Threshold(t) => Some((*t.message(), t.epoch())),
            Child::Withheld(_) => None,
        }
    }

    /// The message and epoch of each threshold certificate in it, in order.
    fn threshold_messages(&self) -> Vec<([u8; 32], u32)> {
        match self {
            Child::Aggregate(_) | Child::Withheld(_) => Vec::new(),
            Child::Merged(m) => m.children.iter().flat_map(Child::threshold_messages).collect(),
            Child::Threshold(t) => vec![(*t.message(), t.epoch())],
        }
    }
}
