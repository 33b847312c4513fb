//! The verifier: the same transcript as the prover, the constraints at `ζ`
//! from the proof's evaluations (with `w3f-plonk-common`'s gadget
//! formulas), and one pairing check for both KZG openings.
//!
//! Cost, independent of the committee in counting mode: one evaluation of
//! the domain at `ζ`, one multi-scalar multiplication of about 17 points,
//! one product of two pairings. Accountable mode adds the public bitfield's
//! evaluation at `ζ`, linear in the number of signers.

use ark_ec::{AffineRepr, CurveGroup, pairing::Pairing};
use ark_ff::Zero;

use crate::domain::Domain;
use crate::field::{Bw6, F, G1, G1Projective};
use crate::msm::small_msm;
use crate::piop::proof::Proof;
use crate::piop::{Boundary, Shape, combined_main, linearization_coefficients, split_constraints};
use crate::setup::SetupKey;
use crate::transcript::Transcript;

/// The setup's `g2` and `τ·g2` prepared for pairings (line coefficients
/// precomputed once per key: a verifier checks many certificates).
pub type PreparedSetup = (<Bw6 as Pairing>::G2Prepared, <Bw6 as Pairing>::G2Prepared);

/// Prepares a setup key's G2 points.
pub fn prepare(setup: &SetupKey) -> PreparedSetup {
    (setup.g2.into(), setup.tau_g2.into())
}

/// Commitments to the committee's fixed columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedCommitments {
    /// `[px]`.
    pub key_x: G1,
    /// `[py]`.
    pub key_y: G1,
    /// `[s]`.
    pub selector: G1,
    /// `[c]` (stake).
    pub weight: Option<G1>,
}

/// Where the verifier gets `b(ζ)`.
#[derive(Clone, Copy, Debug)]
pub enum Bits<'a> {
    /// Counting mode: the proof opens the committed bit column.
    Committed,
    /// Accountable mode: the signers' rows, increasing.
    Public(&'a [usize]),
}

/// Verifies a proof for `shape` against the committee's fixed columns and
/// the boundary; the transcript must hold the committee and the statement,
/// as the prover's did.
#[allow(clippy::too_many_arguments)]
pub fn verify(
    setup: &SetupKey,
    prepared: &PreparedSetup,
    domain: &Domain,
    fixed: &FixedCommitments,
    shape: Shape,
    bits: Bits<'_>,
    proof: &Proof,
    boundary: &Boundary,
    transcript: &mut Transcript,
) -> bool {
    if shape.counting != matches!(bits, Bits::Committed) || shape.stake != fixed.weight.is_some() {
        return false;
    }
    for c in proof.columns.to_vec() {
        transcript.absorb_value(b"column", &c);
    }
    let alphas = transcript.challenges(b"alpha", shape.constraints());
    for q in &proof.quotient {
        transcript.absorb_value(b"quotient", q);
    }
    let zeta = transcript.challenge(b"zeta");
    let Some(at_zeta) = domain.evaluate_at(zeta) else { return false };

    let e = &proof.evaluations;
    let bits_at_zeta = match bits {
        Bits::Committed => e.bits,
        Bits::Public(rows) => Some(domain.indicator_at(rows.iter().copied(), zeta)),
    };
    let Some(bits_at_zeta) = bits_at_zeta else { return false };
    let row = e.row_at(bits_at_zeta, &at_zeta);
    let split = split_constraints(shape, &row, boundary);
    let [cx, cy, ct] = linearization_coefficients(&split, &alphas);
    // C(ζ) = main + lin(ζω) must equal q(ζ)·Z_H(ζ).
    let quotient_at_zeta = (combined_main(&split, &alphas) + proof.lin_at_shifted) * at_zeta.vanishing_inv;

    let values = e.to_vec();
    for v in &values {
        transcript.absorb_value(b"evaluation", v);
    }
    transcript.absorb_value(b"linearization", &proof.lin_at_shifted);
    let nus = transcript.challenges(b"nu", values.len() + 1);
    transcript.absorb_value(b"opening", &proof.opening_at_zeta);
    transcript.absorb_value(b"opening", &proof.opening_at_shifted);
    let r = transcript.challenge(b"batch");

    // The commitments opened at ζ, in the order of the values.
    let mut opened = vec![fixed.key_x, fixed.key_y];
    if shape.counting {
        opened.push(fixed.selector);
    }
    opened.extend(fixed.weight);
    opened.extend(proof.columns.to_vec());
    let z_n = at_zeta.z_n;
    let nu_q = nus[values.len()];
    let opened_value: F = values.iter().zip(&nus).map(|(v, nu)| *v * nu).sum::<F>() + nu_q * quotient_at_zeta;
    let shifted = zeta * domain.omega();

    // e(A, g2) = e(B, τ·g2) with
    // A = Σ ν_i C_i + ν_q [q(ζ-composed)] + r [lin] - (v + r·lin(ζω))·g1 + ζ·W1 + r·ζω·W2,
    // B = W1 + r·W2: both KZG checks C - y·g1 + x·W = τ·W, batched by r.
    // [ax], [ay], [t] are opened at ζ and make up [lin]: one scalar each.
    let mut bases: Vec<G1> = opened;
    let mut scalars: Vec<F> = nus[..values.len()].to_vec();
    let witness_start = bases.len() - proof.columns.to_vec().len();
    let acc_x = witness_start + usize::from(shape.counting);
    scalars[acc_x] += r * cx;
    scalars[acc_x + 1] += r * cy;
    if shape.has_sum() {
        scalars[acc_x + 2] += r * ct;
    }
    bases.extend(proof.quotient);
    scalars.extend([nu_q, nu_q * z_n, nu_q * z_n * z_n]);
    bases.extend([setup.g1, proof.opening_at_zeta, proof.opening_at_shifted]);
    scalars.extend([-(opened_value + r * proof.lin_at_shifted), zeta, r * shifted]);
    let a = small_msm(&bases, &scalars);
    let b = proof.opening_at_zeta.into_group() + proof.opening_at_shifted * r;
    let pairs = G1Projective::normalize_batch(&[a, -b]);
    let (g2, tau_g2) = prepared;
    Bw6::multi_pairing([pairs[0], pairs[1]], [g2.clone(), tau_g2.clone()]).is_zero()
}
