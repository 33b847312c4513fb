//! The proof container and its versioned, deterministic encoding.
//!
//! Bytes: `"SGLPAG" || version (1 byte) || body(Proof)`, the framing and
//! canonical body of `sigagg_prover::codec`: one byte string per value, so
//! a proof re-encodes to the same bytes; decoding rejects trailing bytes
//! and bounds its allocations.

use serde::{Deserialize, Serialize};
use sigagg_lamport::ParameterSet;
use sigagg_prover::codec;

/// The STARK of a proof, tagged with the backend and Merkle hash that made it.
pub use sigagg_prover::StarkProof;

use crate::config::Settings;
use crate::error::VerifyError;

/// Version of the proof encoding: a proof of another version does not
/// decode. What each version changed is in CHANGELOG.md.
pub const PROOF_VERSION: u8 = 13;
/// Leading bytes of every encoded proof.
pub const MAGIC: &[u8; 6] = b"SGLPAG";

/// Which statement a proof answers (shared by every aggregator).
pub use sigagg_prover::ProofKind;

/// A Lamport+ aggregate or threshold proof.
///
/// Every public field is checked by the verifier against the statement;
/// only `count` and `bitmap` carry information the statement does not have
/// (how many, and optionally which, members signed a threshold proof), and
/// they are meaningful only once the proof verified.
#[derive(Serialize, Deserialize)]
pub struct Proof {
    /// What the proof answers.
    pub kind: ProofKind,
    /// The Lamport+ parameter set (`ParameterSet::ID`).
    pub set_id: u8,
    /// The settings it was made with (must equal the verifier's).
    pub settings: Settings,
    /// Aggregate: the number of entries. Threshold: the number of distinct
    /// signers proven (at least the threshold).
    pub count: u32,
    /// Mined set: the mining counters (one per aggregate entry; one shared
    /// by all threshold signers), checked natively by the verifier. Empty
    /// for the plain set.
    pub counters: Vec<u32>,
    /// Threshold: the signer bitmap, if the prover disclosed it (bit `i` of
    /// byte `i / 8` for member `i`).
    pub bitmap: Option<Vec<u8>>,
    /// The STARK, tagged with the backend and Merkle hash that made it.
    pub stark: StarkProof,
}

impl core::fmt::Debug for Proof {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Proof")
            .field("kind", &self.kind)
            .field("set_id", &self.set_id)
            .field("count", &self.count)
            .field("counters", &self.counters.len())
            .field("bitmap", &self.bitmap.as_ref().map(Vec::len))
            .field("backend", &self.stark.backend())
            .field("merkle", &self.stark.merkle())
            .field("degree_bits", &self.stark.degree_bits())
            .finish_non_exhaustive()
    }
}

impl Proof {
    /// Serializes the proof (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::encode(MAGIC, PROOF_VERSION, self)
    }

    /// Parses bytes written by [`Proof::to_bytes`]. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, VerifyError> {
        codec::decode(MAGIC, PROOF_VERSION, bytes, "Lamport+ proof").map_err(VerifyError::Malformed)
    }

    /// The kind and parameter set an encoded proof claims (for dispatching
    /// a proof file to the right verifier).
    pub fn peek(bytes: &[u8]) -> Result<(ProofKind, u8), VerifyError> {
        let p = Self::from_bytes(bytes)?;
        Ok((p.kind, p.set_id))
    }

    /// Checks the header against what the verifier expects.
    pub(crate) fn check_header<S: ParameterSet>(
        &self,
        kind: ProofKind,
        settings: &Settings,
    ) -> Result<(), VerifyError> {
        if self.kind != kind {
            return Err(VerifyError::WrongKind { expected: kind.name(), found: self.kind.name() });
        }
        if self.set_id != S::ID {
            return Err(VerifyError::WrongParameterSet { expected: S::ID, found: self.set_id });
        }
        if self.settings.backend() != settings.backend() {
            return Err(VerifyError::WrongBackend { expected: settings.backend(), found: self.settings.backend() });
        }
        if self.settings != *settings {
            return Err(VerifyError::SettingsMismatch);
        }
        Ok(())
    }
}
