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

/// Version of the encoding (13: the packed body format, every field
/// element in 31 bits, see `sigagg_prover::codec`; 12: a plain-set threshold proves its group
/// tree in a node table, a row per node above the counted signers, so
/// version-11 threshold proofs have other tables; 11: on the multilinear backends the
/// permutations' output lanes that constraints read (and, on our own
/// prover, all of them) have no columns (`poseidon::Outputs`), so their
/// version-10 proofs have other shapes; 10: `whir-skip` proofs, new in 9, stack their
/// commitment suffix-first, so version-9 `whir-skip` proofs would not
/// verify; 9: a threshold's sponge rows read their slot's
/// randomizer off their own width-16 input, so its main table is five
/// columns narrower and version-8 threshold proofs have other shapes; a
/// WHIR proof is tagged with its Merkle hash, and `whir-compact` commits
/// with SHA-256 truncated to 31 bytes;
/// 8: the settings' words, which seed the
/// transcript, add WHIR's rate step, so version-7 proofs would not verify;
/// 7: the settings name their backend
/// ([`Settings::backend`]) and the STARK is tagged with the backend before
/// its Merkle hash ([`StarkProof`]), so version-6 proofs do not decode;
/// 6: narrower tables, unread output lanes and
/// constant input lanes have no columns, and a final FRI polynomial of up
/// to 2^7 coefficients, so version-5 proofs have other shapes; 5: the
/// settings name their Merkle hash and the STARK is tagged with it, see
/// [`StarkProof`]; 4: varint lengths, see `sigagg_prover::codec`;
/// 3: SHA-256 commitments and transcript; 2: Keccak with fixed-width
/// integers; 1: postcard's variable-length integers).
pub const PROOF_VERSION: u8 = 13;
/// Leading bytes of every encoded proof.
pub const MAGIC: &[u8; 6] = b"SGLPAG";

/// Which statement a proof answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProofKind {
    /// N signatures on N distinct messages.
    Aggregate,
    /// t-of-n signatures of one message by members of a group.
    Threshold,
}

impl ProofKind {
    /// Name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Aggregate => "aggregate",
            Self::Threshold => "threshold",
        }
    }
}

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
        if self.settings.backend != settings.backend {
            return Err(VerifyError::WrongBackend { expected: settings.backend, found: self.settings.backend });
        }
        if self.settings != *settings {
            return Err(VerifyError::SettingsMismatch);
        }
        Ok(())
    }
}
