//! The statement of a merge: its children's statements.

use std::collections::HashSet;

use sigagg_xmss_agg::AggregateStatement;

use crate::MergeError;

/// Most children one merge takes (a child of 64 signatures is about 2^18
/// rows of the verifier circuit, whose tables hold at most 2^24).
pub const MAX_CHILDREN: usize = 16;

/// Children's statements of one message and epoch, every signer once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeStatement {
    children: Vec<AggregateStatement>,
}

impl MergeStatement {
    /// Checks the children: at least one, at most [`MAX_CHILDREN`], every
    /// entry of the first entry's message and epoch, no public key twice.
    ///
    /// # Errors
    /// Which of these fails.
    pub fn new(children: Vec<AggregateStatement>) -> Result<Self, MergeError> {
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
    pub fn children(&self) -> &[AggregateStatement] {
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
        self.children.iter().map(AggregateStatement::len).sum()
    }
}
