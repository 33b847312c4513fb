//! Why a merge could not be made, or a merged proof was refused.

use sigagg_recursion::CircuitError;

/// Every failure of this crate, typed.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No child.
    #[error("a merge needs at least one child")]
    Empty,
    /// More children than one merge takes.
    #[error("{0} children, at most {max}", max = crate::MAX_CHILDREN)]
    TooManyChildren(usize),
    /// A child of another message or epoch than the first child's.
    #[error("child {child}: another message or epoch than the first child's")]
    MessageMismatch {
        /// The child.
        child: usize,
    },
    /// A signer in two entries.
    #[error("child {child}: a signer that an earlier entry already has")]
    DuplicateSigner {
        /// The child of the second entry.
        child: usize,
    },
    /// More levels of merging than [`crate::MAX_DEPTH`].
    #[error("{0} levels of merging, at most {max}", max = crate::MAX_DEPTH)]
    TooDeep(usize),
    /// A shape that does not split the keys and committees given.
    #[error("{keys} keys and {committees} committees cannot be split into children of the shape {shape:?}")]
    Split {
        /// The keys given.
        keys: usize,
        /// The threshold children's statements given.
        committees: usize,
        /// The children's shapes.
        shape: Vec<crate::Shape>,
    },
    /// A child's statement that the aggregator refuses.
    #[error("a child's statement: {0}")]
    Statement(#[from] sigagg_xmss_agg::StatementError),
    /// Another number of proofs (or another shape of children) than the
    /// statement has.
    #[error("{statements} children, {proofs} proofs")]
    CountMismatch {
        /// The statement's children.
        statements: usize,
        /// The proofs given.
        proofs: usize,
    },
    /// A child's proof does not verify natively, is not under the
    /// recursion setting, or is of another kind (aggregate or merged) than
    /// its statement; for a merged child, also a false deferred claim of
    /// its own.
    #[error("child {index}: {reason}")]
    ChildInvalid {
        /// The child.
        index: usize,
        /// Why.
        reason: String,
    },
    /// Raw signatures given beside the children that do not aggregate (one
    /// does not verify).
    #[error("the raw signatures: {0}")]
    Signatures(String),
    /// The merged proof's settings are not whir-skip's.
    #[error("merged proofs are whir-skip proofs")]
    Settings,
    /// The verifier circuit or its proof refused.
    #[error(transparent)]
    Circuit(#[from] CircuitError),
    /// A withheld child out of bounds, or a child that cannot be withheld.
    #[error("a withheld child: {0}")]
    Withheld(&'static str),
    /// A verifying key that does not fit the proof, or a child that has
    /// none ([`crate::MergeKey`]).
    #[error("verifying key: {0}")]
    Key(&'static str),
    /// The bytes are not a merged proof.
    #[error("malformed merged proof: {0}")]
    Decode(String),
}
