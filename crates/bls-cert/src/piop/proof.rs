//! The succinct proof and its encoding.
//!
//! Layout, every part fixed by the certificate's [`Shape`]: the commitments
//! `[b]` (counting), `[ax]`, `[ay]`, `[t]` (with a running sum), the quotient
//! chunks `[q0]`, `[q1]`, `[q2]` (97-byte compressed BW6-767 points); the
//! evaluations at `ζ` in [`ColumnEvaluations`] order and `lin(ζω)` (48-byte
//! field elements); the two KZG opening proofs (at `ζ` and at `ζω`).

use crate::codec::{FIELD_BYTES, POINT_BYTES, Reader, Writer};
use crate::error::CertError;
use crate::field::{F, G1};
use crate::piop::{ColumnEvaluations, Shape};
use ark_serialize::Compress;

/// Number of quotient chunks: the constraints have degree at most 4 in
/// polynomials of degree below `N`, so the quotient has degree below `3N`,
/// committed as three polynomials of degree below `N` (so a setup of `N`
/// powers suffices).
pub const QUOTIENT_CHUNKS: usize = 3;

/// The commitments of the prover's columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnCommitments {
    /// `[b]` (counting mode).
    pub bits: Option<G1>,
    /// `[ax]`.
    pub acc_x: G1,
    /// `[ay]`.
    pub acc_y: G1,
    /// `[t]` (when the running sum exists).
    pub sum: Option<G1>,
}

impl ColumnCommitments {
    /// The present commitments, in encoding order.
    pub fn to_vec(&self) -> Vec<G1> {
        [self.bits, Some(self.acc_x), Some(self.acc_y), self.sum].into_iter().flatten().collect()
    }
}

/// A proof that the certificate's aggregate key, count and stake come
/// from the committed keys and some boolean bitfield.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// Commitments to the prover's columns.
    pub columns: ColumnCommitments,
    /// Commitments to the quotient's chunks.
    pub quotient: [G1; QUOTIENT_CHUNKS],
    /// Column values at `ζ`.
    pub evaluations: ColumnEvaluations,
    /// The linearization polynomial's value at `ζω`.
    pub lin_at_shifted: F,
    /// KZG proof of the batched opening at `ζ`.
    pub opening_at_zeta: G1,
    /// KZG proof of the opening of the linearization at `ζω`.
    pub opening_at_shifted: G1,
}

impl Proof {
    /// Encoded size for a shape.
    pub fn encoded_len(shape: Shape) -> usize {
        let optional = |present: bool| usize::from(present);
        let commitments = optional(shape.counting) + 2 + optional(shape.has_sum()) + QUOTIENT_CHUNKS + 2;
        let evaluations =
            2 + optional(shape.counting) + optional(shape.stake) + optional(shape.counting) + 2 + optional(shape.has_sum()) + 1;
        commitments * POINT_BYTES + evaluations * FIELD_BYTES
    }

    /// Appends the encoding.
    pub fn write(&self, w: &mut Writer) {
        for c in self.columns.to_vec().iter().chain(&self.quotient) {
            w.value(c, Compress::Yes);
        }
        for v in self.evaluations.to_vec() {
            w.field(&v);
        }
        w.field(&self.lin_at_shifted);
        w.value(&self.opening_at_zeta, Compress::Yes);
        w.value(&self.opening_at_shifted, Compress::Yes);
    }

    /// Reads a proof of the given shape.
    pub fn read(r: &mut Reader<'_>, shape: Shape) -> Result<Proof, CertError> {
        let bits = shape.counting.then(|| r.point("bits commitment")).transpose()?;
        let acc_x = r.point("accumulator commitment")?;
        let acc_y = r.point("accumulator commitment")?;
        let sum = shape.has_sum().then(|| r.point("sum commitment")).transpose()?;
        let quotient = [r.point("quotient commitment")?, r.point("quotient commitment")?, r.point("quotient commitment")?];
        let evaluations = ColumnEvaluations {
            key_x: r.field("evaluation")?,
            key_y: r.field("evaluation")?,
            selector: shape.counting.then(|| r.field("evaluation")).transpose()?,
            weight: shape.stake.then(|| r.field("evaluation")).transpose()?,
            bits: shape.counting.then(|| r.field("evaluation")).transpose()?,
            acc_x: r.field("evaluation")?,
            acc_y: r.field("evaluation")?,
            sum: shape.has_sum().then(|| r.field("evaluation")).transpose()?,
        };
        Ok(Proof {
            columns: ColumnCommitments { bits, acc_x, acc_y, sum },
            quotient,
            evaluations,
            lin_at_shifted: r.field("linearization evaluation")?,
            opening_at_zeta: r.point("opening proof")?,
            opening_at_shifted: r.point("opening proof")?,
        })
    }
}
