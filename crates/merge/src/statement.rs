//! The statement of a merge: its children's statements.

use std::collections::HashSet;

use sigagg_xmss::{PublicKey, Seed001};
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement};

use crate::{MergeError, MergeScheme};

/// Most children one merge takes (a child of 64 signatures is about 2^18
/// rows of the verifier circuit, whose tables hold at most 2^24).
pub const MAX_CHILDREN: usize = 16;

/// Children's statements of one message and epoch, every signer once, all
/// of one parameter set (Seed001 unless said).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeStatement<S: MergeScheme = Seed001> {
    children: Vec<AggregateStatement<S>>,
}

impl<S: MergeScheme> MergeStatement<S> {
    /// Checks the children: at least one, at most [`MAX_CHILDREN`], every
    /// entry of the first entry's message and epoch, no public key twice.
    ///
    /// # Errors
    /// Which of these fails.
    pub fn new(children: Vec<AggregateStatement<S>>) -> Result<Self, MergeError> {
        let first = children.first().and_then(|c| c.entries().first()).ok_or(MergeError::Empty)?;
        if children.len() > MAX_CHILDREN {
            return Err(MergeError::TooManyChildren(children.len()));
        }
        let (message, epoch) = (first.message, first.epoch);
        let mut seen = HashSet::new();
        for (child, statement) in children.iter().enumerate() {
            for entry in statement.entries() {
                if entry.message != message || entry.epoch != epoch {
                    return Err(MergeError::MessageMismatch { child });
                }
                if !seen.insert(entry.public_key) {
                    return Err(MergeError::DuplicateSigner { child });
                }
            }
        }
        Ok(Self { children })
    }

    /// The children's statements, in order.
    pub fn children(&self) -> &[AggregateStatement<S>] {
        &self.children
    }

    /// The signed message.
    pub fn message(&self) -> [u8; 32] {
        self.children[0].entries()[0].message
    }

    /// The epoch.
    pub fn epoch(&self) -> u32 {
        self.children[0].entries()[0].epoch
    }

    /// The signers, over all children.
    pub fn participants(&self) -> usize {
        self.children.iter().map(AggregateStatement::<S>::len).sum()
    }

    /// Each child's number of signers, in order.
    pub fn counts(&self) -> Vec<u32> {
        self.children.iter().map(|c| c.len() as u32).collect()
    }

    /// The statement of children of `counts` signers each, whose keys are
    /// `public_keys` in order (the children's keys one after the other),
    /// all signing `message` at `epoch`: how a verifier who knows the
    /// participants rebuilds a merge's statement from a merged proof's
    /// [`counts`](crate::MergedProof::counts).
    ///
    /// # Errors
    /// Counts that do not add up to the keys ([`MergeError::Split`]), a
    /// child of no signer, or what [`Self::new`] refuses.
    pub fn split(
        public_keys: &[PublicKey<S>],
        counts: &[u32],
        message: [u8; 32],
        epoch: u32,
    ) -> Result<Self, MergeError> {
        let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        if total != public_keys.len() as u64 || counts.contains(&0) {
            return Err(MergeError::Split { keys: public_keys.len(), counts: counts.to_vec() });
        }
        let mut keys = public_keys.iter();
        let children = counts
            .iter()
            .map(|&count| {
                let entries = keys
                    .by_ref()
                    .take(count as usize)
                    .map(|&public_key| AggregateEntry::<S> { public_key, epoch, message })
                    .collect();
                AggregateStatement::from_entries(entries).map_err(MergeError::from)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::new(children)
    }
}
