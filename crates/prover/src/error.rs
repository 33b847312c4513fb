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

/// Implements `From<sigagg_prover::VerifyError>` for an aggregator's
/// `VerifyError`, so that every aggregator reports the backend's refusals
/// alike. The type must have the variants `WrongBackend { expected, found }`,
/// `InvalidSettings(InvalidSettings)`, `SettingsMismatch` (a proof body
/// committed with another hash than the settings, which the aggregator's
/// header check already compared: only a forged proof gets here),
/// `ShapeMismatch` and `Invalid(String)`.
#[macro_export]
macro_rules! impl_from_backend_refusal {
    ($error:ty) => {
        impl From<$crate::VerifyError> for $error {
            fn from(e: $crate::VerifyError) -> Self {
                use $crate::VerifyError as E;
                match e {
                    E::WrongBackend { expected, found } => Self::WrongBackend { expected, found },
                    E::WrongMerkleHash { .. } => Self::SettingsMismatch,
                    E::InvalidSettings(e) => Self::InvalidSettings(e),
                    E::ShapeMismatch => Self::ShapeMismatch,
                    E::Invalid(reason) => Self::Invalid(reason),
                }
            }
        }
    };
}
