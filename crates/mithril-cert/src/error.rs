//! Typed errors of the succinct Mithril certificate's gadgets.

use thiserror::Error;

/// Why a gadget refused its input or a check failed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum McertError {
    /// A periodic column's period does not divide the domain's size.
    #[error("a period of {period} rows does not divide the domain's {size} rows")]
    PeriodMismatch {
        /// The column's period.
        period: usize,
        /// The domain's size.
        size: usize,
    },
    /// A periodic column was given no values.
    #[error("a periodic column needs at least one value")]
    EmptyPeriod,
    /// The number of permutations is not the number of blocks of the domain.
    #[error("{given} permutations for a domain of {blocks} blocks")]
    BlockCount {
        /// Permutations given.
        given: usize,
        /// Blocks in the domain.
        blocks: usize,
    },
    /// A column has the wrong number of rows.
    #[error("a column has {len} rows, the domain {size}")]
    ColumnLength {
        /// The column's length.
        len: usize,
        /// The domain's size.
        size: usize,
    },
    /// No domain of this size exists (it must divide 214 038).
    #[error("no evaluation domain of {0} rows")]
    NoDomain(usize),
    /// A constraint does not vanish on a row of the domain.
    #[error("constraint {constraint} does not vanish on row {row}")]
    Unsatisfied {
        /// The row.
        row: usize,
        /// The constraint's number.
        constraint: usize,
    },
    /// The evaluation point lies in the domain (probability `N/q`).
    #[error("the evaluation point lies in the domain")]
    PointInDomain,
    /// The quotient identity `C(ζ) = Q(ζ)·Z_H(ζ)` fails.
    #[error("the quotient identity fails at the evaluation point")]
    QuotientIdentity,
    /// The setup has fewer powers than the domain has rows.
    #[error("the setup has {powers} powers, the domain needs {needed}")]
    SetupTooSmall {
        /// Powers in the setup.
        powers: usize,
        /// Rows of the domain.
        needed: usize,
    },
    /// The KZG pairing check of a proof fails.
    #[error("the proof's openings do not verify")]
    ProofRejected,
    /// A lottery value is not below its bound: the index was not won.
    #[error("block {block}: the lottery value is not below the signer's bound")]
    NotBelowBound {
        /// The block.
        block: usize,
    },
    /// A ladder met an exceptional case of the incomplete formulas.
    #[error("the point meets an exceptional case of the incomplete addition formulas")]
    ExceptionalPoint,
    /// A proof's parts do not have the gadget's numbers of columns.
    #[error("the proof does not have the gadget's shape")]
    MalformedProof,
    /// A gadget was given the wrong number of columns.
    #[error("{got} columns where the gadget has {expected}")]
    ColumnCount {
        /// Columns given.
        got: usize,
        /// Columns of the gadget.
        expected: usize,
    },
    /// The won indices are not strictly increasing and below `m`.
    #[error("block {block}: the index is not below the next one (or m)")]
    BadIndices {
        /// The block.
        block: usize,
    },
}
