//! Typed errors of aggregation and verification.

use thiserror::Error;

use crate::config::Backend;

/// A statement that cannot be proven or checked.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum StatementError {
    /// No entries.
    #[error("the statement has no entries")]
    Empty,
    /// More entries than one proof supports.
    #[error("{count} entries exceed the maximum of {max}")]
    TooMany { count: usize, max: usize },
    /// An epoch outside the Seed001 lifetime.
    #[error("entry {index}: epoch {epoch} is outside the lifetime 2^20")]
    EpochOutOfRange { index: usize, epoch: u32 },
    /// A threshold of zero or above the group size.
    #[error("threshold {threshold} is not between 1 and the group size {size}")]
    ThresholdOutOfRange { threshold: u32, size: u32 },
    /// A group deeper than the circuit's ordering argument allows.
    #[error("a group of {size} members is deeper than {max_depth} levels")]
    GroupTooLarge { size: u32, max_depth: usize },
}

/// Why a proof could not be made.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ProveError {
    /// The statement is invalid.
    #[error(transparent)]
    Statement(#[from] StatementError),
    /// The settings are out of range for their backend
    /// ([`sigagg_prover::Settings::validate`]).
    #[error(transparent)]
    InvalidSettings(#[from] sigagg_prover::InvalidSettings),
    /// More signatures than the settings' domain can hold.
    #[error("{count} signatures exceed the maximum of {max} for these settings")]
    TooManyForSettings { count: usize, max: usize },
    /// The settings name a Merkle hash the XMSS proofs do not support (one
    /// resisting collisions to fewer than [`crate::MIN_COLLISION_BITS`] bits).
    #[error("the XMSS proofs commit with SHA-256 or its 31-byte truncation, not {0:?}")]
    UnsupportedMerkleHash(crate::config::MerkleHash),
    /// Not one signature per statement entry.
    #[error("{signatures} signatures for {entries} entries")]
    CountMismatch { entries: usize, signatures: usize },
    /// A signature does not verify (index in the caller's list: of
    /// signatures for an aggregate, of signers for a threshold).
    #[error("signature {index} is invalid: {reason}")]
    InvalidSignature { index: usize, reason: sigagg_xmss::VerifyError },
    /// A signer's key and path do not lead to the group root (index in the
    /// caller's list of signers).
    #[error("signer {index} is not a member of the group: {reason}")]
    NotAMember { index: usize, reason: sigagg_xmss::group::GroupError },
    /// Two signers claim the same member (leaf of the group tree).
    #[error("leaf {leaf} is claimed by two signers")]
    DuplicateSigner { leaf: u32 },
    /// Fewer signers than the threshold.
    #[error("{signers} distinct signers do not reach the threshold {threshold}")]
    ThresholdNotReached { signers: usize, threshold: u32 },
    /// The proof system failed (never expected with valid inputs).
    #[error("proving failed: {0}")]
    Prover(String),
}

/// Why a proof was rejected.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum VerifyError {
    /// The statement is invalid.
    #[error(transparent)]
    Statement(#[from] StatementError),
    /// The settings are out of range for their backend
    /// ([`sigagg_prover::Settings::validate`]).
    #[error(transparent)]
    InvalidSettings(#[from] sigagg_prover::InvalidSettings),
    /// The proof bytes are malformed.
    #[error("malformed proof: {0}")]
    Malformed(String),
    /// More signatures than the settings' domain can hold.
    #[error("{count} entries exceed the maximum of {max} for these settings")]
    TooManyForSettings { count: usize, max: usize },
    /// The settings name a Merkle hash the XMSS proofs do not support (one
    /// resisting collisions to fewer than [`crate::MIN_COLLISION_BITS`] bits).
    #[error("the XMSS proofs commit with SHA-256 or its 31-byte truncation, not {0:?}")]
    UnsupportedMerkleHash(crate::config::MerkleHash),
    /// The proof was made by another proof system than the settings name
    /// (checked before the rest of the settings).
    #[error("the proof was made by the {} backend, the settings name {}", found.name(), expected.name())]
    WrongBackend { expected: Backend, found: Backend },
    /// An aggregate proof given for a threshold statement, or the reverse.
    #[error("the proof is a {found} proof, expected {expected}")]
    WrongKind { expected: &'static str, found: &'static str },
    /// The proof was made for another statement size or other settings.
    #[error("proof header mismatch: {0}")]
    HeaderMismatch(String),
    /// The proof does not verify.
    #[error("invalid proof: {0}")]
    Invalid(String),
    /// A threshold proof with fewer signers than the statement requires.
    #[error("the proof certifies {count} signers, the threshold is {threshold}")]
    BelowThreshold { count: u32, threshold: u32 },
}

impl From<sigagg_prover::VerifyError> for VerifyError {
    /// The backend's refusals, as this crate has always reported them: a
    /// proof of other table heights is an invalid proof, and one that
    /// commits with another hash than the settings' full-width SHA-256 uses
    /// a hash the XMSS proofs do not support.
    fn from(e: sigagg_prover::VerifyError) -> Self {
        use sigagg_prover::VerifyError as E;
        match e {
            E::WrongBackend { expected, found } => VerifyError::WrongBackend { expected, found },
            E::WrongMerkleHash { found, .. } => VerifyError::UnsupportedMerkleHash(found),
            E::InvalidSettings(e) => VerifyError::InvalidSettings(e),
            E::ShapeMismatch => VerifyError::Invalid(E::ShapeMismatch.to_string()),
            E::Invalid(reason) => VerifyError::Invalid(reason),
        }
    }
}
