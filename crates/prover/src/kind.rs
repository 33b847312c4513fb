//! Which statement a proof answers: the two kinds every aggregator proves.

use serde::{Deserialize, Serialize};

/// Which statement a proof answers. Lamport+ proofs encode it (its
/// variant index, in this order); XMSS proofs tell it by their magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProofKind {
    /// N signatures, each under its own key over its own message.
    Aggregate,
    /// At least t distinct members of a group signed one message.
    Threshold,
}

impl ProofKind {
    /// `"aggregate"` or `"threshold"`, as errors and reports name it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Aggregate => "aggregate",
            Self::Threshold => "threshold",
        }
    }
}
