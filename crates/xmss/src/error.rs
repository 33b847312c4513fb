//! Typed errors. Every failure on untrusted input is one of these, never a panic.

use thiserror::Error;

/// Why a message could not be encoded into a codeword under some randomness.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum EncodingError {
    /// The aborting hypercube hash produced an out-of-range element.
    #[error("message hash aborted (output outside the hypercube range)")]
    HashAborted,
    /// The codeword's digits do not sum to the target.
    #[error("codeword sum {actual} differs from the target sum {expected}")]
    TargetSumMismatch { expected: usize, actual: usize },
}

/// Why key generation refused its arguments.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum KeygenError {
    /// Zero epochs were requested.
    #[error("the activation window must contain at least one epoch")]
    EmptyActivation,
    /// The window reaches past the key's lifetime.
    #[error("activation window [{start}, {end}) exceeds the lifetime {lifetime}")]
    BeyondLifetime { start: u64, end: u64, lifetime: u64 },
}

/// Why signing refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SignError {
    /// The epoch is outside the key's activation window.
    #[error("epoch {epoch} is outside the activation window [{start}, {end})")]
    EpochNotActive { epoch: u64, start: u64, end: u64 },
    /// The epoch is active, but its bottom tree is not in the prepared window.
    #[error("epoch {epoch} is outside the prepared window [{start}, {end}); call advance_preparation")]
    EpochNotPrepared { epoch: u64, start: u64, end: u64 },
    /// The epoch was used before (epochs must strictly increase: signing two
    /// messages at one epoch would reveal enough chain values to forge).
    #[error("epoch {epoch} was already used; the next usable epoch is {next_usable}")]
    EpochAlreadyUsed { epoch: u64, next_usable: u64 },
    /// No randomness produced a valid codeword (probability negligible).
    #[error("no valid codeword after {attempts} attempts")]
    EncodingAttemptsExceeded { attempts: u64 },
}

/// Why a signature was rejected.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum VerifyError {
    /// The epoch is not below the lifetime.
    #[error("epoch {epoch} is outside the lifetime {lifetime}")]
    EpochOutOfRange { epoch: u64, lifetime: u64 },
    /// The signature's randomness does not encode the message.
    #[error("invalid encoding: {0}")]
    InvalidEncoding(#[from] EncodingError),
    /// The recomputed Merkle root differs from the public key's.
    #[error("Merkle root mismatch")]
    RootMismatch,
}

/// Why bytes could not be decoded.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DecodeError {
    /// The input has the wrong length.
    #[error("{what}: expected {expected} bytes, got {actual}")]
    InvalidLength { what: &'static str, expected: usize, actual: usize },
    /// An SSZ offset does not point where this encoding requires.
    #[error("{what}: offset {actual}, expected {expected}")]
    InvalidOffset { what: &'static str, expected: usize, actual: usize },
    /// A field element is not in canonical form (its value is not below p).
    #[error("non-canonical field element at byte {offset}")]
    NonCanonicalFieldElement { offset: usize },
    /// A file header is not what this crate writes.
    #[error("not a sigagg {what} (bad magic or version)")]
    BadHeader { what: &'static str },
    /// The bytes belong to another parameter set.
    #[error("parameter set mismatch: expected id {expected}, found {actual}")]
    WrongParameterSet { expected: u8, actual: u8 },
    /// The bytes are well-formed but describe an impossible value.
    #[error("inconsistent {0}")]
    Inconsistent(&'static str),
}
