//! Typed errors of statements, proving and verification.

use thiserror::Error;

use crate::config::Backend;

/// A statement that cannot be proven or checked.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum StatementError {
    /// No entries.
    #[error("the statement has no entries")]
    Empty,
    /// More signatures than one proof supports.
    #[error("{count} signatures exceed the maximum of {max} per proof")]
    TooMany {
        /// Signatures asked for.
        count: usize,
        /// The maximum.
        max: usize,
    },
    /// Two entries of an aggregate statement carry the same message (the
    /// aggregate scheme of seed 004, section 4, is defined for distinct
    /// messages; one message with many signers is the threshold mode).
    #[error("entries {first} and {second} carry the same message")]
    DuplicateMessage {
        /// Index of the first entry.
        first: usize,
        /// Index of the later entry.
        second: usize,
    },
    /// A threshold of zero proves nothing.
    #[error("the threshold must be at least 1")]
    ZeroThreshold,
    /// More signers required than the group has.
    #[error("threshold {threshold} exceeds the group size {size}")]
    ThresholdAboveSize {
        /// The threshold.
        threshold: u32,
        /// The group size.
        size: u32,
    },
    /// A group whose tree is deeper than the circuit's ordering check allows.
    #[error("a group of {size} members (depth {depth}) exceeds the maximum depth {max}")]
    GroupTooLarge {
        /// The group size.
        size: u32,
        /// Its tree depth.
        depth: usize,
        /// The maximum depth.
        max: usize,
    },
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
    /// Not one signature per statement entry.
    #[error("{signatures} signatures for {entries} entries")]
    CountMismatch {
        /// Statement entries.
        entries: usize,
        /// Signatures given.
        signatures: usize,
    },
    /// A signature does not verify (index in the caller's list).
    #[error("signature {index} is invalid: {reason}")]
    InvalidSignature {
        /// Index of the signature.
        index: usize,
        /// Why native verification rejected it.
        reason: sigagg_lamport::VerifyError,
    },
    /// A signer's key is not the group member its path claims (index in the
    /// caller's list).
    #[error("signer {index} is not a member of the group: {reason}")]
    NotAMember {
        /// Index of the signer.
        index: usize,
        /// Why the membership check failed.
        reason: sigagg_lamport::GroupError,
    },
    /// Two signers claim the same leaf (one member counted twice).
    #[error("leaf {leaf} is claimed by two signers")]
    DuplicateSigner {
        /// The leaf index.
        leaf: u32,
    },
    /// Fewer signers than the threshold.
    #[error("{signers} distinct signers do not reach the threshold {threshold}")]
    ThresholdNotReached {
        /// Signers given.
        signers: usize,
        /// The threshold.
        threshold: u32,
    },
    /// Mined set: threshold signers must share one mining counter, since the
    /// proof has one public codeword.
    #[error("signer {index} used counter {counter}, the first signer {first}")]
    MixedCounters {
        /// Index of the deviating signer.
        index: usize,
        /// Its counter.
        counter: u32,
        /// The first signer's counter.
        first: u32,
    },
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
    /// The proof bytes do not decode.
    #[error("malformed proof: {0}")]
    Malformed(String),
    /// An aggregate proof given for a threshold statement, or the reverse.
    #[error("the proof is a {found} proof, expected {expected}")]
    WrongKind {
        /// What the statement needs.
        expected: &'static str,
        /// What the proof is.
        found: &'static str,
    },
    /// The proof was made for another Lamport+ parameter set.
    #[error("the proof is for parameter set {found}, expected {expected}")]
    WrongParameterSet {
        /// The verifier's set id.
        expected: u8,
        /// The proof's set id.
        found: u8,
    },
    /// The proof was made by another proof system than the settings name
    /// (checked before the rest of the settings).
    #[error("the proof was made by the {} backend, the settings name {}", found.name(), expected.name())]
    WrongBackend {
        /// The settings' backend.
        expected: Backend,
        /// The proof's.
        found: Backend,
    },
    /// The proof was made with other proof-system settings.
    #[error("the proof was made with other settings")]
    SettingsMismatch,
    /// The public values carried by the proof (count, counters, bitmap) do
    /// not fit the statement.
    #[error("public values do not fit the statement: {0}")]
    PublicMismatch(String),
    /// A mining counter carried by the proof is not admissible.
    #[error("counter of entry {index} is not admissible: {reason}")]
    BadCounter {
        /// Entry index (0 for a threshold proof).
        index: usize,
        /// Why.
        reason: sigagg_lamport::VerifyError,
    },
    /// The proven count is below the threshold.
    #[error("the proof counts {count} signers, below the threshold {threshold}")]
    ThresholdNotReached {
        /// Signers the proof counts.
        count: u32,
        /// The statement's threshold.
        threshold: u32,
    },
    /// The proof's table heights are not the statement's.
    #[error("table heights do not match the statement")]
    ShapeMismatch,
    /// The STARK does not verify.
    #[error("invalid proof: {0}")]
    Invalid(String),
}

sigagg_prover::impl_from_backend_refusal!(VerifyError);
