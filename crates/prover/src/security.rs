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
