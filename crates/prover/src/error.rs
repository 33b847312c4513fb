//! Why proving or verifying failed, as every backend reports it. Part of
//! the vocabulary the backends share ([`crate::backend`] dispatches).

use thiserror::Error;

use crate::config::{Backend, InvalidSettings, MerkleHash};

/// The proof system failed (never expected with valid inputs).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("proving failed: {0}")]
pub struct ProveError(pub String);

/// Why a backend refused a proof.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum VerifyError {
    /// The proof was made by another backend than the settings name.
    #[error("the proof was made by the {} backend, the settings name {}", found.name(), expected.name())]
    WrongBackend {
        /// The settings' backend.
        expected: Backend,
        /// The proof's.
        found: Backend,
    },
    /// The proof commits with another Merkle hash than the settings name.
    #[error("the proof commits with {found:?}, the settings name {expected:?}")]
    WrongMerkleHash {
        /// The settings' hash.
        expected: MerkleHash,
        /// The proof's.
        found: MerkleHash,
    },
    /// The verifier's settings are out of range ([`crate::Settings::validate`]).
    #[error("invalid settings: {0}")]
    InvalidSettings(InvalidSettings),
    /// The proof's table heights are not the statement's.
    #[error("table heights do not match the statement")]
    ShapeMismatch,
    /// The proof does not verify.
    #[error("invalid proof: {0}")]
    Invalid(String),
}
