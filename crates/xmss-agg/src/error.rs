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
    #[error("entry {index}: epoch {epoch} is outside the parameter set's lifetime")]
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
    /// The proof is of another parameter set than the statement's.
    #[error("the proof is of parameter set {found}, the statement of {expected}")]
    WrongSet { expected: u8, found: u8 },
    /// The proof was made with other proof-system settings.
    #[error("the proof was made with other settings")]
    SettingsMismatch,
    /// The public values carried by the proof (entry or signer count, the
    /// disclosed signers) do not fit the statement.
    #[error("public values do not fit the statement: {0}")]
    PublicMismatch(String),
    /// The proven count is below the threshold.
    #[error("the proof counts {count} signers, below the threshold {threshold}")]
    ThresholdNotReached { count: u32, threshold: u32 },
    /// The proof's table heights are not the statement's.
    #[error("table heights do not match the statement")]
    ShapeMismatch,
    /// The STARK does not verify.
    #[error("invalid proof: {0}")]
    Invalid(String),
}

sigagg_prover::impl_from_backend_refusal!(VerifyError);
