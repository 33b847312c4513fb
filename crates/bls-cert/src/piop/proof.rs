//! The succinct proof and its encoding.
//!
//! Layout, every part fixed by the certificate's [`Shape`]: the commitments
//! `[b]` (counting), `[ax]`, `[ay]`, `[t]` (with a running sum), the quotient
//! chunks `[q0]`, `[q1]`, `[q2]` (97-byte compressed BW6-767 points); the
//! evaluations at `ζ` in [`ColumnEvaluations`] order and `lin(ζω)` (48-byte
//! field elements); the two KZG opening proofs (at `ζ` and at `ζω`).

use rayon::prelude::*;

use crate::codec::{FIELD_BYTES, POINT_BYTES, Reader, Writer, decode_g1};
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
    /// The encoding's parts in order, with their lengths: what
    /// [`Proof::write`] writes for a shape (tests flip bytes in each part).
    pub fn layout(shape: Shape) -> Vec<(&'static str, usize)> {
        let mut parts = Vec::new();
        let mut part = |present: bool, name: &'static str, len: usize| {
            if present {
                parts.push((name, len));
            }
        };
        part(shape.counting, "bits commitment", POINT_BYTES);
        part(true, "accumulator x commitment", POINT_BYTES);
        part(true, "accumulator y commitment", POINT_BYTES);
        part(shape.has_sum(), "sum commitment", POINT_BYTES);
        for _ in 0..QUOTIENT_CHUNKS {
            part(true, "quotient commitment", POINT_BYTES);
        }
        part(true, "key x at zeta", FIELD_BYTES);
        part(true, "key y at zeta", FIELD_BYTES);
        part(shape.counting, "selector at zeta", FIELD_BYTES);
        part(shape.stake, "weight at zeta", FIELD_BYTES);
        part(shape.counting, "bits at zeta", FIELD_BYTES);
        part(true, "accumulator x at zeta", FIELD_BYTES);
        part(true, "accumulator y at zeta", FIELD_BYTES);
        part(shape.has_sum(), "sum at zeta", FIELD_BYTES);
        part(true, "linearization at zeta*omega", FIELD_BYTES);
        part(true, "opening proof at zeta", POINT_BYTES);
        part(true, "opening proof at zeta*omega", POINT_BYTES);
        parts
    }

    /// Encoded size for a shape.
    pub fn encoded_len(shape: Shape) -> usize {
        Proof::layout(shape).iter().map(|(_, len)| len).sum()
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

    /// Reads a proof of the given shape. The points are decoded (and
    /// checked to lie in the prime-order subgroup, a scalar multiplication
    /// each) in parallel: they are most of a verifier's decoding time.
    pub fn read(r: &mut Reader<'_>, shape: Shape) -> Result<Proof, CertError> {
        let columns = usize::from(shape.counting) + 2 + usize::from(shape.has_sum());
        let commitment_bytes = r.take((columns + QUOTIENT_CHUNKS) * POINT_BYTES)?;
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
        let lin_at_shifted = r.field("linearization evaluation")?;
        let opening_bytes = r.take(2 * POINT_BYTES)?;
        let what = r.what();
        let chunks: Vec<&[u8]> =
            commitment_bytes.chunks(POINT_BYTES).chain(opening_bytes.chunks(POINT_BYTES)).collect();
        let points = chunks
            .par_iter()
            .map(|bytes| decode_g1(bytes))
            .collect::<Option<Vec<G1>>>()
            .ok_or(CertError::BadPoint { what, field: "proof" })?;
        let mut points = points.into_iter();
        let mut next = || points.next().expect("one point per chunk");
        let bits = shape.counting.then(&mut next);
        let (acc_x, acc_y) = (next(), next());
        let sum = shape.has_sum().then(&mut next);
        let quotient = [next(), next(), next()];
        let (opening_at_zeta, opening_at_shifted) = (next(), next());
        Ok(Proof {
            columns: ColumnCommitments { bits, acc_x, acc_y, sum },
            quotient,
            evaluations,
            lin_at_shifted,
            opening_at_zeta,
            opening_at_shifted,
        })
    }
}
