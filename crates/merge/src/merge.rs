//! Making and checking merged proofs.

use std::sync::Arc;

use p3_field::PrimeCharacteristicRing;
use serde::{Deserialize, Serialize};
use sigagg_prover::skip_stark::{SkipProof, skip_for};
use sigagg_prover::{SecurityLevel, Settings, StarkProof, codec};
use sigagg_recursion::child::{self, ChildStatement, NativeProof, ProofShape, ProofWires};
use sigagg_recursion::whir::{native_paths, no_paths};
use sigagg_recursion::{Circuit, CircuitBuilder, CircuitProof, Ext, deferred};
use sigagg_xmss_agg::Proof;

use crate::{MergeError, MergeScheme, MergeStatement};

/// The children's settings: whir-skip with Poseidon2 trees and transcript,
/// the one a verifier circuit affords.
pub const CHILD_SETTINGS: Settings = Settings::WHIR_SKIP_POSEIDON2;

/// The magic of a merged proof's encoding.
const MAGIC: &[u8; 6] = b"SGMERG";
/// Its version (2: each child's signer count, in place of the number of
/// children; 3: the deferred claims).
const VERSION: u8 = 3;

/// Children's periodic columns longer than this many rows (their keys and
/// messages) are evaluated by the verifier natively, not in the circuit
/// (`sigagg_recursion::deferred`): about two circuit rows per column row
/// saved, one claim value (and each table's point) carried in the proof.
const DEFER_ABOVE: usize = 16;

/// A proof that every child of a [`MergeStatement`] verifies.
pub struct MergedProof {
    /// Each child's number of signers, in order: what splits a flat list
    /// of participants' keys into the children's statements
    /// ([`MergeStatement::split`]). Untrusted until the proof verifies: the
    /// circuit is built from the split, so another split is refused.
    pub counts: Vec<u32>,
    /// The claims the circuit leaves to the verifier, its inputs: each
    /// deferred column's point and value
    /// (`sigagg_recursion::deferred::check`).
    pub claims: Vec<Ext>,
    /// The verifier circuit's proof.
    pub proof: CircuitProof,
}

#[derive(Serialize, Deserialize)]
struct Body<C, E, P> {
    counts: C,
    claims: E,
    stark: P,
}

impl MergedProof {
    /// The number of children it merges.
    pub fn children(&self) -> usize {
        self.counts.len()
    }

    /// The number of signers over all children (saturating: the counts
    /// are untrusted).
    pub fn participants(&self) -> u64 {
        self.counts.iter().map(|&c| u64::from(c)).sum()
    }

    /// The encoding: magic, version, each child's signer count, the proof.
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::encode(MAGIC, VERSION, &Body { counts: &self.counts, claims: &self.claims, stark: &self.proof.stark })
    }

    /// Decodes [`Self::to_bytes`]; anything else is [`MergeError::Decode`].
    ///
    /// # Errors
    /// Bytes that are not such an encoding.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, MergeError> {
        let body: Body<Vec<u32>, Vec<Ext>, StarkProof> =
            codec::decode(MAGIC, VERSION, bytes, "merged proof").map_err(MergeError::Decode)?;
        if body.counts.is_empty() || body.counts.len() > crate::MAX_CHILDREN {
            return Err(MergeError::Decode(format!("{} children, at most {}", body.counts.len(), crate::MAX_CHILDREN)));
        }
        Ok(Self { counts: body.counts, claims: body.claims, proof: CircuitProof { stark: body.stark } })
    }
}

/// Verifies every child natively and proves, under `settings` (a
/// whir-skip setting), that they verify.
///
/// # Errors
/// Another number of proofs than children, a child that does not verify
/// under [`CHILD_SETTINGS`] ([`MergeError::ChildInvalid`] with its index),
/// settings of another backend, or the circuit's refusal.
pub fn merge<S: MergeScheme>(
    settings: &Settings,
    statement: &MergeStatement<S>,
    children: &[Proof],
) -> Result<MergedProof, MergeError> {
    if !matches!(settings, Settings::Skip(_)) {
        return Err(MergeError::Settings);
    }
    if children.len() != statement.children().len() {
        return Err(MergeError::CountMismatch { statements: statement.children().len(), proofs: children.len() });
    }
    let mut natives = Vec::with_capacity(children.len());
    for (index, (s, proof)) in statement.children().iter().zip(children).enumerate() {
        let invalid = |reason: String| MergeError::ChildInvalid { index, reason };
        S::verify_child(&CHILD_SETTINGS, s, proof).map_err(|e| invalid(e.to_string()))?;
        match &proof.stark {
            StarkProof::Skip(SkipProof::Poseidon2(body)) => natives.push(body.proof()),
            _ => return Err(invalid("not a whir-skip-poseidon2 proof".into())),
        }
    }
    let circuit = verifier_circuit(statement, Some(&natives))?;
    let claims = deferred::inputs(&circuit)?;
    let proof = sigagg_recursion::prove(settings, &circuit, &claims)?;
    Ok(MergedProof { counts: statement.counts(), claims, proof })
}

/// Checks that `proof` shows every child of `statement` verifying, under
/// `settings`.
///
/// # Errors
/// Another number of children, settings of another backend, or the
/// circuit proof's refusal.
pub fn verify<S: MergeScheme>(
    settings: &Settings,
    statement: &MergeStatement<S>,
    proof: &MergedProof,
) -> Result<(), MergeError> {
    if !matches!(settings, Settings::Skip(_)) {
        return Err(MergeError::Settings);
    }
    if proof.counts != statement.counts() {
        return Err(MergeError::CountMismatch { statements: statement.children().len(), proofs: proof.children() });
    }
    let circuit = verifier_circuit(statement, None)?;
    deferred::check(&circuit, &proof.claims)?;
    Ok(sigagg_recursion::verify(settings, &circuit, &proof.claims, &proof.proof)?)
}

/// The security of a merged proof of `statement` under `settings`, from
/// the tables of its verifier circuit (built here, tens of
/// milliseconds). The merge as a whole is as sound as this proof and
/// each child's proof together (ARCHITECTURE.md, `sigagg-recursion`).
///
/// # Errors
/// Settings of another backend.
pub fn security_level<S: MergeScheme>(
    settings: &Settings,
    statement: &MergeStatement<S>,
) -> Result<SecurityLevel, MergeError> {
    if !matches!(settings, Settings::Skip(_)) {
        return Err(MergeError::Settings);
    }
    let circuit = verifier_circuit(statement, None)?;
    Ok(sigagg_recursion::security_level(settings, &circuit, &vec![Ext::ZERO; circuit.num_inputs()])?)
}

/// The verifier circuit of the children: each child's proof verified
/// whole, its values advice from `proofs` (the prover's build, one native
/// proof per child) or from nowhere (a verifier's, which never runs
/// hints). Public for measurement: its size is the merge's cost.
///
/// # Errors
/// Another number of proofs than children, or a child statement the
/// native verifier would refuse.
pub fn verifier_circuit<S: MergeScheme>(
    statement: &MergeStatement<S>,
    proofs: Option<&[&NativeProof]>,
) -> Result<Circuit, MergeError> {
    if let Some(proofs) = proofs
        && proofs.len() != statement.children().len()
    {
        return Err(MergeError::CountMismatch { statements: statement.children().len(), proofs: proofs.len() });
    }
    let Settings::Skip(child_settings) = CHILD_SETTINGS else { unreachable!("a whir-skip setting") };
    let mut b = CircuitBuilder::new();
    b.defer_periodic_above(DEFER_ABOVE);
    for (i, s) in statement.children().iter().enumerate() {
        let (airs, log_heights, seed) = S::verifier_view(&CHILD_SETTINGS, s);
        let airs: Vec<&S::Air> = airs.iter().collect();
        let view = ChildStatement {
            airs: &airs,
            log_heights: &log_heights,
            skip: skip_for(&log_heights),
            seed: &seed,
            settings: &child_settings,
        };
        let shape = ProofShape::of(&view)?;
        let (values, paths) = match proofs {
            Some(proofs) => (Some(Arc::new(child::values(proofs[i]))), native_paths(&proofs[i].opening)),
            None => (None, no_paths()),
        };
        let wires = ProofWires::advice(&mut b, &shape, values);
        child::verify(&mut b, &view, &wires, &paths)?;
    }
    Ok(b.build())
}
