//! The security a backend states for a statement: part of the vocabulary
//! the backends share ([`crate::backend::security_level`] asks the one the
//! settings name).

use serde::Serialize;

/// Security of one configuration for one statement shape.
#[derive(Clone, Debug, Serialize)]
pub struct SecurityLevel {
    /// Proven bits (the better of the unique- and list-decoding regimes).
    pub proven_bits: f64,
    /// The term that binds the proven level.
    pub proven_binding: String,
    /// Conjectured bits (random-words regime).
    pub conjectured_bits: f64,
    /// The term that binds the conjectured level.
    pub conjectured_binding: String,
}

impl SecurityLevel {
    /// No security: the settings give no configuration for the statement
    /// (`reason` says why), so every bit count is 0.
    pub fn none(reason: impl Into<String>) -> Self {
        SecurityLevel {
            proven_bits: 0.0,
            proven_binding: reason.into(),
            conjectured_bits: 0.0,
            conjectured_binding: "no configuration".into(),
        }
    }

    /// A level computed only as a proven bound (the multilinear backends):
    /// the conjectured level is at least the proven one, and is reported as
    /// such.
    pub fn proven_only(bits: f64, binding: impl Into<String>) -> Self {
        SecurityLevel {
            proven_bits: bits,
            proven_binding: binding.into(),
            conjectured_bits: bits,
            conjectured_binding: "at least the proven level (not computed separately)".into(),
        }
    }
}
