//! The prover: columns, quotient, evaluations and KZG openings.
//!
//! The quotient `q = C / Z_H` (with `C = Σ α_k C_k` of degree below `4N`) is
//! computed on three cosets `c_j·H` without ever forming `C`: on a coset,
//! `Z_H(x) = c_j^N - 1` is a constant, so `q`'s values there are `C`'s
//! divided by it; interpolating them gives `r_j = q mod (X^N - c_j^N)`, and
//! writing `q = q0 + X^N q1 + X^{2N} q2` (each of degree below `N`) gives
//! `r_j = q0 + a_j q1 + a_j² q2` with `a_j = c_j^N`, a 3×3 Vandermonde system
//! solved coefficient by coefficient. A degree-4 constraint system over a
//! domain with no radix-2 structure thus costs `3` forward transforms per
//! column and `3` inverse ones for the quotient, all of size `N`.

use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{AdditiveGroup, FftField, Field, batch_inversion};
use ark_poly::DenseUVPolynomial;
use ark_poly::univariate::DensePolynomial;
use rayon::prelude::*;
use w3f_pcs::pcs::PCS;
use w3f_pcs::pcs::kzg::KZG;
use w3f_pcs::pcs::kzg::params::KzgCommitterKey;

use crate::domain::{Domain, Fft};
use crate::field::{Bw6, F, G1, KeyPoint, seed_point};
use crate::msm::FixedBaseMsm;
use crate::piop::proof::{ColumnCommitments, Proof, QUOTIENT_CHUNKS};
use crate::piop::{Boundary, ColumnEvaluations, RowValues, Shape, linearization_coefficients, split_constraints};
use crate::transcript::Transcript;

/// A column in coefficient form and its values on the three quotient cosets.
#[derive(Clone, Debug)]
pub struct Column {
    /// Coefficients (degree below `N`).
    pub coeffs: Vec<F>,
    /// Values on `c_j·H`, `j = 0, 1, 2`.
    pub cosets: [Vec<F>; QUOTIENT_CHUNKS],
}

impl Column {
    /// The column with these values on `H`.
    pub fn from_values(cosets: &Cosets, values: &[F]) -> Column {
        let coeffs = cosets.fft.interpolate(values);
        Column::from_coeffs(cosets, coeffs)
    }

    fn from_coeffs(cosets: &Cosets, coeffs: Vec<F>) -> Column {
        let evals = |j: usize| cosets.fft.evaluate_on_coset(&coeffs, cosets.shifts[j]);
        let cosets = [evals(0), evals(1), evals(2)];
        Column { coeffs, cosets }
    }

    /// The polynomial's value at `z`.
    pub fn evaluate(&self, z: F) -> F {
        horner(&self.coeffs, z)
    }
}

/// The three cosets `c_j·H` the quotient is computed on, and the domain
/// selectors there.
#[derive(Clone, Debug)]
pub struct Cosets {
    fft: Fft,
    /// The shifts `c_j = g^(j+1)` for the field's generator `g`.
    shifts: [F; QUOTIENT_CHUNKS],
    /// `a_j = c_j^N`, the value of `X^N` on coset `j`.
    powers: [F; QUOTIENT_CHUNKS],
    /// Per coset: `x - ω^(N-1)`, `L_0(x)`, `L_{N-1}(x)` at each point.
    selectors: [Selectors; QUOTIENT_CHUNKS],
}

#[derive(Clone, Debug)]
struct Selectors {
    not_last: Vec<F>,
    first: Vec<F>,
    last: Vec<F>,
}

impl Cosets {
    /// The cosets of a domain.
    pub fn new(domain: &Domain) -> Cosets {
        let fft = domain.fft();
        let shifts = [1u64, 2, 3].map(|e| F::GENERATOR.pow([e]));
        let powers = shifts.map(|c| domain.pow_size(c));
        // The cosets are disjoint from H and from each other: g generates F*,
        // whose order is far above 3N.
        assert!(
            powers.iter().all(|a| *a != F::ONE)
                && powers[0] != powers[1]
                && powers[1] != powers[2]
                && powers[0] != powers[2]
        );
        let selectors = [0, 1, 2].map(|j| Selectors::on_coset(&fft, shifts[j], powers[j]));
        Cosets { fft, shifts, powers, selectors }
    }

    /// The domain.
    pub fn domain(&self) -> &Domain {
        self.fft.domain()
    }
}

impl Selectors {
    fn on_coset(fft: &Fft, shift: F, power: F) -> Selectors {
        let domain = fft.domain();
        let last_element = domain.last_element();
        let points: Vec<F> = fft.elements().iter().map(|w| shift * w).collect();
        let not_last: Vec<F> = points.iter().map(|x| *x - last_element).collect();
        let mut from_first: Vec<F> = points.iter().map(|x| *x - F::ONE).collect();
        let mut from_last = not_last.clone();
        batch_inversion(&mut from_first);
        batch_inversion(&mut from_last);
        // L_i(x) = ω^i (x^N - 1) / (N (x - ω^i)), and x^N = a on the coset.
        let scale = (power - F::ONE) * domain.size_inv();
        let first = from_first.iter().map(|d| scale * d).collect();
        let last = from_last.iter().map(|d| scale * last_element * d).collect();
        Selectors { not_last, first, last }
    }
}

/// The committee's fixed columns, as the prover uses them.
#[derive(Clone, Debug)]
pub struct FixedColumns {
    /// `px`.
    pub key_x: Column,
    /// `py`.
    pub key_y: Column,
    /// `s`.
    pub selector: Column,
    /// `c` (stake).
    pub weight: Option<Column>,
}

/// The prover's columns over `H`: `N` values each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// `b`.
    pub bits: Vec<F>,
    /// `ax`.
    pub acc_x: Vec<F>,
    /// `ay`.
    pub acc_y: Vec<F>,
    /// `t` (all zero when the shape has no running sum).
    pub sum: Vec<F>,
}

impl Witness {
    /// The honest witness: the bits of `signed` (one per key), the
    /// accumulator from the seed, and the running sum of `weights` (the
    /// weight column's values on the key rows).
    pub fn honest(keys: &[KeyPoint], weights: &[F], signed: &[bool], size: usize) -> Witness {
        debug_assert!(keys.len() == signed.len() && keys.len() == weights.len() && keys.len() < size);
        let mut bits = vec![F::ZERO; size];
        for (b, s) in bits.iter_mut().zip(signed) {
            *b = F::from(*s);
        }
        let mut acc = seed_point().into_group();
        let mut points = Vec::with_capacity(size);
        points.push(acc);
        let mut sum = vec![F::ZERO; size];
        let mut running = F::ZERO;
        for i in 0..size - 1 {
            if let Some(true) = signed.get(i) {
                acc += keys[i];
                running += weights[i];
            }
            points.push(acc);
            sum[i + 1] = running;
        }
        let affine = ark_bls12_381::G1Projective::normalize_batch(&points);
        let (acc_x, acc_y) = affine.iter().map(|p| p.xy().expect("h + P is never the identity")).unzip();
        Witness { bits, acc_x, acc_y, sum }
    }
}

/// What the prover needs besides the witness: the domain's cosets, the
/// committer key and the fixed columns.
pub struct ProverKey {
    /// Cosets and transforms.
    pub cosets: Cosets,
    /// The `N` KZG powers with their window tables.
    pub committer: FixedBaseMsm,
    /// The committee's columns.
    pub fixed: FixedColumns,
}

/// Proves that the witness satisfies the constraints of `shape` with this
/// boundary. Does not check the witness: an unsatisfying one yields a proof
/// that fails verification (the soundness tests rely on this). The
/// transcript must already hold the committee and the statement.
pub fn prove(
    key: &ProverKey,
    shape: Shape,
    witness: &Witness,
    boundary: &Boundary,
    transcript: &mut Transcript,
) -> Proof {
    let cosets = &key.cosets;
    let column = |values: &Vec<F>| Column::from_values(cosets, values);
    let ((bits, acc_x), (acc_y, sum)) = rayon::join(
        || rayon::join(|| column(&witness.bits), || column(&witness.acc_x)),
        || rayon::join(|| column(&witness.acc_y), || shape.has_sum().then(|| column(&witness.sum))),
    );
    let commit = |c: &Column| commit_coeffs(&key.committer, &c.coeffs);
    let columns = ColumnCommitments {
        bits: shape.counting.then(|| commit(&bits)),
        acc_x: commit(&acc_x),
        acc_y: commit(&acc_y),
        sum: sum.as_ref().map(commit),
    };
    for c in columns.to_vec() {
        transcript.absorb_value(b"column", &c);
    }
    let alphas = transcript.challenges(b"alpha", shape.constraints());

    let witness_columns = WitnessColumns { bits: &bits, acc_x: &acc_x, acc_y: &acc_y, sum: sum.as_ref() };
    let chunks = quotient(key, shape, &witness_columns, boundary, &alphas);
    let quotient = [0, 1, 2].map(|k| commit_coeffs(&key.committer, &chunks[k]));
    for q in &quotient {
        transcript.absorb_value(b"quotient", q);
    }
    let zeta = transcript.challenge(b"zeta");
    let domain = cosets.domain();
    let at_zeta = domain.evaluate_at(zeta).expect("ζ falls in H with probability N/q < 2^-360");

    let fixed = &key.fixed;
    let evaluations = ColumnEvaluations {
        key_x: fixed.key_x.evaluate(zeta),
        key_y: fixed.key_y.evaluate(zeta),
        selector: shape.counting.then(|| fixed.selector.evaluate(zeta)),
        weight: fixed.weight.as_ref().filter(|_| shape.stake).map(|c| c.evaluate(zeta)),
        bits: shape.counting.then(|| bits.evaluate(zeta)),
        acc_x: acc_x.evaluate(zeta),
        acc_y: acc_y.evaluate(zeta),
        sum: sum.as_ref().map(|c| c.evaluate(zeta)),
    };
    let row = evaluations.row_at(bits.evaluate(zeta), &at_zeta);
    let split = split_constraints(shape, &row, boundary);
    let [cx, cy, ct] = linearization_coefficients(&split, &alphas);
    let mut lin = combine(&[(cx, &acc_x.coeffs), (cy, &acc_y.coeffs)]);
    if let Some(sum) = &sum {
        lin = add_scaled(lin, ct, &sum.coeffs);
    }
    let shifted = zeta * domain.omega();
    let lin_at_shifted = horner(&lin, shifted);
    for v in evaluations.to_vec() {
        transcript.absorb_value(b"evaluation", &v);
    }
    transcript.absorb_value(b"linearization", &lin_at_shifted);

    let mut opened: Vec<&Vec<F>> = vec![&fixed.key_x.coeffs, &fixed.key_y.coeffs];
    if shape.counting {
        opened.push(&fixed.selector.coeffs);
    }
    if shape.stake {
        opened.push(&fixed.weight.as_ref().expect("a staked committee has a weight column").coeffs);
    }
    if shape.counting {
        opened.push(&bits.coeffs);
    }
    opened.extend([&acc_x.coeffs, &acc_y.coeffs]);
    if let Some(sum) = &sum {
        opened.push(&sum.coeffs);
    }
    let z_n = at_zeta.z_n;
    let composed = combine(&[(F::ONE, &chunks[0]), (z_n, &chunks[1]), (z_n * z_n, &chunks[2])]);
    opened.push(&composed);
    let nus = transcript.challenges(b"nu", opened.len());
    let aggregate = combine(&nus.iter().copied().zip(opened).collect::<Vec<_>>());
    let opening_at_zeta = open(&key.committer, aggregate, zeta);
    let opening_at_shifted = open(&key.committer, lin, shifted);
    transcript.absorb_value(b"opening", &opening_at_zeta);
    transcript.absorb_value(b"opening", &opening_at_shifted);
    Proof { columns, quotient, evaluations, lin_at_shifted, opening_at_zeta, opening_at_shifted }
}

/// Borrowed witness columns for the quotient.
struct WitnessColumns<'a> {
    bits: &'a Column,
    acc_x: &'a Column,
    acc_y: &'a Column,
    sum: Option<&'a Column>,
}

/// The quotient's three chunks `q0, q1, q2` in coefficient form.
fn quotient(key: &ProverKey, shape: Shape, w: &WitnessColumns<'_>, boundary: &Boundary, alphas: &[F]) -> [Vec<F>; 3] {
    let cosets = &key.cosets;
    let n = cosets.domain().size();
    let fixed = &key.fixed;
    let remainders: Vec<Vec<F>> = (0..QUOTIENT_CHUNKS)
        .map(|j| {
            let at = |c: &Column, i: usize| c.cosets[j][i % n];
            let sel = &cosets.selectors[j];
            let scale = (cosets.powers[j] - F::ONE).inverse().expect("the coset is off H");
            let values: Vec<F> = (0..n)
                .into_par_iter()
                .map(|i| {
                    let row = RowValues {
                        key_x: at(&fixed.key_x, i),
                        key_y: at(&fixed.key_y, i),
                        selector: at(&fixed.selector, i),
                        weight: fixed.weight.as_ref().map_or(F::ZERO, |c| at(c, i)),
                        bits: at(w.bits, i),
                        acc_x: at(w.acc_x, i),
                        acc_y: at(w.acc_y, i),
                        sum: w.sum.map_or(F::ZERO, |c| at(c, i)),
                        next_acc_x: at(w.acc_x, i + 1),
                        next_acc_y: at(w.acc_y, i + 1),
                        next_sum: w.sum.map_or(F::ZERO, |c| at(c, i + 1)),
                        not_last: sel.not_last[i],
                        first: sel.first[i],
                        last: sel.last[i],
                    };
                    super::combined_constraint(shape, &row, boundary, alphas) * scale
                })
                .collect();
            cosets.fft.interpolate_on_coset(&values, cosets.shifts[j])
        })
        .collect();
    solve_chunks(&cosets.powers, &remainders)
}

/// Solves `r_j = q0 + a_j q1 + a_j² q2` (j = 0, 1, 2) for `q0, q1, q2`,
/// coefficient by coefficient: `Q(Y) = q0 + q1 Y + q2 Y²` takes the value
/// `r_j` at `a_j`, so by Lagrange interpolation
/// `Q(Y) = Σ_j r_j (Y - a_k)(Y - a_l) / ((a_j - a_k)(a_j - a_l))`.
fn solve_chunks(a: &[F; 3], r: &[Vec<F>]) -> [Vec<F>; 3] {
    let mut weights = [[F::ZERO; 3]; 3]; // weights[chunk][j]
    for j in 0..3 {
        let (k, l) = ((j + 1) % 3, (j + 2) % 3);
        let d = ((a[j] - a[k]) * (a[j] - a[l])).inverse().expect("distinct cosets");
        weights[0][j] = a[k] * a[l] * d;
        weights[1][j] = -(a[k] + a[l]) * d;
        weights[2][j] = d;
    }
    let len = r[0].len();
    weights.map(|w| (0..len).into_par_iter().map(|i| w[0] * r[0][i] + w[1] * r[1][i] + w[2] * r[2][i]).collect())
}

/// `Σ c_i p_i` of coefficient vectors.
fn combine(terms: &[(F, &Vec<F>)]) -> Vec<F> {
    terms.iter().fold(Vec::new(), |acc, (c, p)| add_scaled(acc, *c, p))
}

fn add_scaled(mut acc: Vec<F>, c: F, p: &[F]) -> Vec<F> {
    if acc.len() < p.len() {
        acc.resize(p.len(), F::ZERO);
    }
    acc.par_iter_mut().zip(p.par_iter()).for_each(|(a, x)| *a += c * x);
    acc
}

/// `Σ c_i z^i`.
pub fn horner(coeffs: &[F], z: F) -> F {
    coeffs.iter().rev().fold(F::ZERO, |acc, c| acc * z + c)
}

/// The KZG commitment to a polynomial of degree below the key's size (the
/// committee's columns, committed once with arkworks' MSM).
pub fn commit(key: &KzgCommitterKey<G1>, coeffs: &[F]) -> G1 {
    let poly = DensePolynomial::from_coefficients_slice(coeffs);
    KZG::<Bw6>::commit(key, &poly).expect("columns have degree below the key's size").0
}

/// The prover's commitment: the same value through the window tables.
fn commit_coeffs(key: &FixedBaseMsm, coeffs: &[F]) -> G1 {
    key.msm(coeffs).into_affine()
}

/// The KZG proof that `p(x)` is its value: the commitment to
/// `(p - p(x)) / (X - x)`, by synthetic division.
fn open(key: &FixedBaseMsm, p: Vec<F>, x: F) -> G1 {
    commit_coeffs(key, &divide_by_linear(&p, x))
}

/// The quotient of `p(X) - p(x)` by `X - x` (synthetic division), `p` and
/// the quotient as coefficients, lowest first.
pub fn divide_by_linear(p: &[F], x: F) -> Vec<F> {
    let mut quotient = vec![F::ZERO; p.len().saturating_sub(1)];
    let mut carry = F::ZERO;
    for i in (1..p.len()).rev() {
        carry = p[i] + carry * x;
        quotient[i - 1] = carry;
    }
    quotient
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::UniformRand;
    use ark_std::test_rng;

    #[test]
    fn synthetic_division_inverts_multiplication_by_x_minus_a() {
        let rng = &mut test_rng();
        let q: Vec<F> = (0..9).map(|_| F::rand(rng)).collect();
        let (a, r) = (F::rand(rng), F::rand(rng));
        // p = q·(X - a) + r
        let mut p = vec![F::ZERO; 10];
        for (i, c) in q.iter().enumerate() {
            p[i + 1] += c;
            p[i] -= *c * a;
        }
        p[0] += r;
        assert_eq!(divide_by_linear(&p, a), q);
        assert_eq!(horner(&p, a), r);
    }
}
