//! Why a circuit could not be proven, or its proof was refused.

use thiserror::Error;

/// Every failure of this crate, typed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum CircuitError {
    /// The statement gives another number of inputs than the circuit has.
    #[error("the circuit takes {expected} inputs, {found} were given")]
    InputCount {
        /// The circuit's inputs.
        expected: usize,
        /// The statement's.
        found: usize,
    },
    /// A row does not hold for the witness (an equality the inputs break).
    #[error("row {row} of the circuit does not hold")]
    Unsatisfied {
        /// The row's number.
        row: usize,
    },
    /// A division by a wire whose value is zero.
    #[error("wire {wire} divides by zero")]
    DivisionByZero {
        /// The quotient's wire.
        wire: usize,
    },
    /// A permutation input holds a value outside the base field.
    #[error("wire {wire} enters a permutation but is not in the base field")]
    NotBase {
        /// The input's wire.
        wire: usize,
    },
    /// A Merkle path's direction bit is neither 0 nor 1.
    #[error("wire {wire} is a direction bit but neither 0 nor 1")]
    NotBit {
        /// The bit's wire.
        wire: usize,
    },
    /// A hint's native function failed, or gave another number of values
    /// than it promised.
    #[error("hint {hint}: {reason}")]
    Hint {
        /// The hint's number.
        hint: usize,
        /// Why.
        reason: String,
    },
    /// Something a circuit cannot lower (see the message).
    #[error("not supported: {0}")]
    Unsupported(&'static str),
    /// The circuit has more wires or rows than one table may hold.
    #[error("{count} {what} exceed the limit of 2^{} a table", crate::MAX_LOG_HEIGHT)]
    TooLarge {
        /// Wires or rows.
        what: &'static str,
        /// How many.
        count: usize,
    },
    /// Settings of a backend that cannot prove these tables: their bus
    /// messages read periodic columns, which only sigagg's own multilinear
    /// prover (`Backend::Skip`) lowers.
    #[error("circuits are proven by the whir-skip backend, not {0:?}")]
    Backend(sigagg_prover::Backend),
    /// The backend could not prove the traces.
    #[error(transparent)]
    Prove(#[from] sigagg_prover::ProveError),
    /// The backend refused the proof.
    #[error(transparent)]
    Verify(#[from] sigagg_prover::VerifyError),
    /// A deferred claim is false: the column's value at the point is not
    /// the input's.
    #[error("deferred claim {claim} is false")]
    Deferred {
        /// The claim's number.
        claim: usize,
    },
    /// The bytes are not a circuit proof.
    #[error("malformed circuit proof: {0}")]
    Decode(String),
}
