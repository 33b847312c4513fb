//! The proof container and its versioned, deterministic encodings.
//!
//! One type, [`Proof`], answers both statements; its [`ProofKind`] says
//! which. Each kind keeps the encoding it has always had, so proofs written
//! before the two types were merged still decode:
//!
//! * aggregate: `"SGXAGG" || version || body(settings, count, stark)`;
//! * threshold: `"SGXTHR" || version || body(settings, count, signers, stark)`;
//! * aggregate of another parameter set than Seed001:
//!   `"SGXAGS" || version || body(set, settings, count, stark)`, `set` the
//!   set's [`sigagg_xmss::ParameterSet::ID`] (Seed001's proofs keep the
//!   untagged encoding, byte for byte);
//! * threshold of another parameter set than Seed001:
//!   `"SGXTHS" || version || body(set, settings, count, signers, stark)`;
//!
//! with the framing and canonical body of `sigagg_prover::codec`: a proof
//! re-encodes to the same bytes; decoding rejects trailing bytes and
//! bounds its allocations.

use serde::{Deserialize, Serialize};
use sigagg_prover::codec;

/// The STARK of a proof, tagged with the backend and Merkle hash that made it.
pub use sigagg_prover::StarkProof;

use crate::config::Settings;
use crate::error::VerifyError;

/// Version of the aggregate proof encoding: a proof of another version
/// does not decode. What each version changed is in CHANGELOG.md.
pub const PROOF_VERSION: u8 = 13;
/// First bytes of an encoded aggregate proof.
pub const PROOF_MAGIC: &[u8; 6] = b"SGXAGG";
/// Version of the threshold proof encoding (CHANGELOG.md).
pub const THRESHOLD_PROOF_VERSION: u8 = 13;
/// First bytes of an encoded threshold proof.
pub const THRESHOLD_PROOF_MAGIC: &[u8; 6] = b"SGXTHR";
/// Version of the set-tagged aggregate encoding (CHANGELOG.md).
pub const TAGGED_PROOF_VERSION: u8 = 1;
/// First bytes of an encoded aggregate proof of a set other than Seed001.
pub const TAGGED_PROOF_MAGIC: &[u8; 6] = b"SGXAGS";
/// First bytes of an encoded threshold proof of a set other than Seed001
/// (version [`TAGGED_PROOF_VERSION`]).
pub const TAGGED_THRESHOLD_MAGIC: &[u8; 6] = b"SGXTHS";
/// The set of the untagged encodings.
const SEED001: u8 = <sigagg_xmss::Seed001 as sigagg_xmss::ParameterSet>::ID;

/// Which statement a proof answers (shared by every aggregator).
pub use sigagg_prover::ProofKind;

/// An XMSS aggregate or threshold proof.
///
/// Every public field is checked by the verifier against the statement;
/// only `count` and `signers` of a threshold proof carry information the
/// statement does not have (how many, and optionally which, members
/// signed), and they are meaningful only once the proof verified.
pub struct Proof {
    /// What the proof answers.
    pub kind: ProofKind,
    /// The parameter set of the signatures ([`sigagg_xmss::ParameterSet::ID`]).
    pub set: u8,
    /// The settings it was made with (must equal the verifier's).
    pub settings: Settings,
    /// Aggregate: the number of entries. Threshold: the number of distinct
    /// signers proven (at least the threshold).
    pub count: u32,
    /// Threshold: the signers' member indices, ascending, if the prover
    /// disclosed them. Always `None` for an aggregate.
    pub signers: Option<Vec<u32>>,
    /// The STARK, tagged with the backend and Merkle hash that made it.
    pub stark: StarkProof,
}

impl core::fmt::Debug for Proof {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Proof")
            .field("kind", &self.kind)
            .field("set", &self.set)
            .field("settings", &self.settings)
            .field("count", &self.count)
            .field("signers", &self.signers)
            .field("backend", &self.stark.backend())
            .field("degree_bits", &self.stark.degree_bits())
            .finish_non_exhaustive()
    }
}

/// The aggregate encoding's body, field for field: of references to
/// encode a proof, of owned values when one is decoded (serde writes both
/// alike).
#[derive(Serialize, Deserialize)]
struct AggregateBody<S, P> {
    settings: S,
    count: u32,
    stark: P,
}

/// The set-tagged aggregate encoding's body, field for field.
#[derive(Serialize, Deserialize)]
struct TaggedBody<S, P> {
    set: u8,
    settings: S,
    count: u32,
    stark: P,
}

/// The set-tagged threshold encoding's body, field for field.
#[derive(Serialize, Deserialize)]
struct TaggedThresholdBody<S, L, P> {
    set: u8,
    settings: S,
    count: u32,
    signers: L,
    stark: P,
}

/// The threshold encoding's body, field for field (as [`AggregateBody`]).
#[derive(Serialize, Deserialize)]
struct ThresholdBody<S, L, P> {
    settings: S,
    count: u32,
    signers: L,
    stark: P,
}

impl Proof {
    /// Serializes the proof in its kind's encoding (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let (settings, count, stark) = (&self.settings, self.count, &self.stark);
        match self.kind {
            ProofKind::Aggregate if self.set != SEED001 => codec::encode(
                TAGGED_PROOF_MAGIC,
                TAGGED_PROOF_VERSION,
                &TaggedBody { set: self.set, settings, count, stark },
            ),
            ProofKind::Aggregate => {
                codec::encode(PROOF_MAGIC, PROOF_VERSION, &AggregateBody { settings, count, stark })
            }
            ProofKind::Threshold if self.set != SEED001 => codec::encode(
                TAGGED_THRESHOLD_MAGIC,
                TAGGED_PROOF_VERSION,
                &TaggedThresholdBody { set: self.set, settings, count, signers: &self.signers, stark },
            ),
            ProofKind::Threshold => codec::encode(
                THRESHOLD_PROOF_MAGIC,
                THRESHOLD_PROOF_VERSION,
                &ThresholdBody { settings, count, signers: &self.signers, stark },
            ),
        }
    }

    /// Parses bytes written by [`Proof::to_bytes`], of either kind (the
    /// magic says which). Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, VerifyError> {
        if bytes.starts_with(THRESHOLD_PROOF_MAGIC) {
            let p: ThresholdBody<Settings, Option<Vec<u32>>, StarkProof> =
                codec::decode(THRESHOLD_PROOF_MAGIC, THRESHOLD_PROOF_VERSION, bytes, "threshold proof")
                    .map_err(VerifyError::Malformed)?;
            let proof = Proof {
                kind: ProofKind::Threshold,
                set: SEED001,
                settings: p.settings,
                count: p.count,
                signers: p.signers,
                stark: p.stark,
            };
            return Ok(proof);
        }
        if bytes.starts_with(TAGGED_THRESHOLD_MAGIC) {
            let p: TaggedThresholdBody<Settings, Option<Vec<u32>>, StarkProof> =
                codec::decode(TAGGED_THRESHOLD_MAGIC, TAGGED_PROOF_VERSION, bytes, "threshold proof")
                    .map_err(VerifyError::Malformed)?;
            if p.set == SEED001 {
                return Err(VerifyError::Malformed("a Seed001 proof in the set-tagged encoding".into()));
            }
            let (settings, count, signers, stark) = (p.settings, p.count, p.signers, p.stark);
            return Ok(Proof { kind: ProofKind::Threshold, set: p.set, settings, count, signers, stark });
        }
        if bytes.starts_with(TAGGED_PROOF_MAGIC) {
            let p: TaggedBody<Settings, StarkProof> =
                codec::decode(TAGGED_PROOF_MAGIC, TAGGED_PROOF_VERSION, bytes, "aggregate proof")
                    .map_err(VerifyError::Malformed)?;
            if p.set == SEED001 {
                return Err(VerifyError::Malformed("a Seed001 proof in the set-tagged encoding".into()));
            }
            let (settings, count, stark) = (p.settings, p.count, p.stark);
            return Ok(Proof { kind: ProofKind::Aggregate, set: p.set, settings, count, signers: None, stark });
        }
        let p: AggregateBody<Settings, StarkProof> =
            codec::decode(PROOF_MAGIC, PROOF_VERSION, bytes, "aggregate proof").map_err(VerifyError::Malformed)?;
        let (settings, count, stark) = (p.settings, p.count, p.stark);
        Ok(Proof { kind: ProofKind::Aggregate, set: SEED001, settings, count, signers: None, stark })
    }

    /// The bit of [`Proof::to_bytes`] at which the STARK starts (framing
    /// included): where byte-flip tests aim.
    #[cfg(any(test, feature = "testing"))]
    #[doc(hidden)]
    pub fn stark_start_bit(&self) -> usize {
        let (settings, count, stark) = (&self.settings, self.count, &self.stark);
        match self.kind {
            ProofKind::Aggregate if self.set != SEED001 => {
                codec::last_field_start(&TaggedBody { set: self.set, settings, count, stark }, stark)
            }
            ProofKind::Aggregate => codec::last_field_start(&AggregateBody { settings, count, stark }, stark),
            ProofKind::Threshold if self.set != SEED001 => codec::last_field_start(
                &TaggedThresholdBody { set: self.set, settings, count, signers: &self.signers, stark },
                stark,
            ),
            ProofKind::Threshold => {
                codec::last_field_start(&ThresholdBody { settings, count, signers: &self.signers, stark }, stark)
            }
        }
    }

    /// Checks the kind, set and settings against what the verifier
    /// expects: the backend first (its error names both), then the rest.
    pub(crate) fn check_header(&self, kind: ProofKind, set: u8, settings: &Settings) -> Result<(), VerifyError> {
        if self.kind != kind {
            return Err(VerifyError::WrongKind { expected: kind.name(), found: self.kind.name() });
        }
        if self.set != set {
            return Err(VerifyError::WrongSet { expected: set, found: self.set });
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
