//! The quotient identity of a PIOP with constraints of degree at most 4,
//! in the clear (no commitments yet).
//!
//! A random combination `C(X) = Σ_k α_k C_k(X, X·ω)` of constraints of
//! degree at most 4 in columns of degree below `N` has degree at most
//! `4(N − 1)`; it vanishes on `H` iff `Z_H = X^N − 1` divides it, with a
//! quotient `Q` of degree below `3N`. As in `sigagg-bls-cert`'s prover, `Q`
//! is found on three cosets `c_j·H` (where `Z_H = c_j^N − 1` is a constant)
//! as three chunks of degree below `N`, `Q = Q0 + X^N Q1 + X^{2N} Q2`.
//! The verifier checks `C(ζ) = Q(ζ)·Z_H(ζ)` at a random `ζ ∉ H`: if some
//! `C_k` does not vanish on `H`, then `C` (for all but at most
//! `#constraints` values of the `α`) is not divisible by `Z_H`, the
//! interpolated `Q` is not its quotient, and the two sides are distinct
//! polynomials of degree below `4N`, equal at no more than `4N` points;
//! `ζ` is uniform in a field of more than `2^380` elements.
//!
//! What this module does not do yet: commit to the columns and the chunks
//! and open them with KZG (`sigagg-bls-cert`'s [`sigagg_bls_cert::setup`]
//! and [`sigagg_bls_cert::msm`] would), nor derive `α, ζ` from a transcript.
//! The tests take them at random.

use ark_ff::{AdditiveGroup, FftField, Field};
use sigagg_bls_cert::domain::{Domain, Fft};
use sigagg_bls_cert::piop::prover::horner;

use crate::{F, McertError};

/// Number of quotient chunks (constraints of degree at most 4).
pub const CHUNKS: usize = 3;

/// The columns in coefficient form, and the quotient's chunks.
#[derive(Clone, Debug)]
pub struct Quotient {
    /// Per column, its coefficients (degree below `N`).
    pub columns: Vec<Vec<F>>,
    /// `Q0, Q1, Q2`.
    pub chunks: [Vec<F>; CHUNKS],
}

/// Computes the columns' polynomials and the quotient of the combined
/// constraint `combined(row at x, row at ωx)` by `Z_H`. `combined` must
/// have degree at most 4 in the columns, else the chunks are not the
/// quotient and the identity fails.
pub fn quotient(
    domain: &Domain,
    values: &[Vec<F>],
    combined: impl Fn(&[F], &[F]) -> F + Sync,
) -> Result<Quotient, McertError> {
    let n = domain.size();
    if let Some(bad) = values.iter().find(|c| c.len() != n) {
        return Err(McertError::ColumnLength { len: bad.len(), size: n });
    }
    let fft = domain.fft();
    let columns: Vec<Vec<F>> = values.iter().map(|v| fft.interpolate(v)).collect();
    let shifts = [1u64, 2, 3].map(|e| F::GENERATOR.pow([e]));
    let powers = shifts.map(|c| domain.pow_size(c));
    let mut remainders = Vec::with_capacity(CHUNKS);
    for j in 0..CHUNKS {
        remainders.push(on_coset(&fft, &columns, shifts[j], powers[j], &combined)?);
    }
    Ok(Quotient { columns, chunks: solve_chunks(&powers, &remainders)? })
}

/// `Q mod (X^N − a)` for the coset `shift·H` with `a = shift^N`.
fn on_coset(
    fft: &Fft,
    columns: &[Vec<F>],
    shift: F,
    power: F,
    combined: &(impl Fn(&[F], &[F]) -> F + Sync),
) -> Result<Vec<F>, McertError> {
    let n = fft.domain().size();
    let evals: Vec<Vec<F>> = columns.iter().map(|c| fft.evaluate_on_coset(c, shift)).collect();
    let scale = (power - F::ONE).inverse().ok_or(McertError::PointInDomain)?;
    let mut cur = vec![F::ZERO; columns.len()];
    let mut next = vec![F::ZERO; columns.len()];
    let mut values = Vec::with_capacity(n);
    for i in 0..n {
        for (k, e) in evals.iter().enumerate() {
            cur[k] = e[i];
            // On the coset, p(ω·x) at x = shift·ω^i is p's value at index i + 1.
            next[k] = e[(i + 1) % n];
        }
        values.push(combined(&cur, &next) * scale);
    }
    Ok(fft.interpolate_on_coset(&values, shift))
}

/// Solves `r_j = Q0 + a_j Q1 + a_j² Q2` coefficient by coefficient
/// (Lagrange interpolation in `Y` at the three distinct `a_j`).
fn solve_chunks(a: &[F; CHUNKS], r: &[Vec<F>]) -> Result<[Vec<F>; CHUNKS], McertError> {
    let mut weights = [[F::ZERO; CHUNKS]; CHUNKS];
    for j in 0..CHUNKS {
        let (k, l) = ((j + 1) % 3, (j + 2) % 3);
        let d = ((a[j] - a[k]) * (a[j] - a[l])).inverse().ok_or(McertError::PointInDomain)?;
        weights[0][j] = a[k] * a[l] * d;
        weights[1][j] = -(a[k] + a[l]) * d;
        weights[2][j] = d;
    }
    let len = r[0].len();
    Ok(weights.map(|w| (0..len).map(|i| w[0] * r[0][i] + w[1] * r[1][i] + w[2] * r[2][i]).collect()))
}

impl Quotient {
    /// The columns' values at `z` and at `ω·z` (what a prover would open).
    pub fn columns_at(&self, domain: &Domain, z: F) -> (Vec<F>, Vec<F>) {
        let shifted = z * domain.omega();
        let at = self.columns.iter().map(|c| horner(c, z)).collect();
        let at_shifted = self.columns.iter().map(|c| horner(c, shifted)).collect();
        (at, at_shifted)
    }

    /// `Q(z) = Q0(z) + z^N Q1(z) + z^{2N} Q2(z)`.
    pub fn at(&self, domain: &Domain, z: F) -> F {
        let z_n = domain.pow_size(z);
        horner(&self.chunks[0], z) + z_n * (horner(&self.chunks[1], z) + z_n * horner(&self.chunks[2], z))
    }
}

/// The verifier's check `C(ζ) = Q(ζ)·(ζ^N − 1)` from the combined
/// constraint's value at `ζ` and the quotient's.
pub fn check_identity(domain: &Domain, zeta: F, combined_at_zeta: F, quotient_at_zeta: F) -> Result<(), McertError> {
    let vanishing = domain.pow_size(zeta) - F::ONE;
    if vanishing == F::ZERO {
        return Err(McertError::PointInDomain);
    }
    if combined_at_zeta == quotient_at_zeta * vanishing { Ok(()) } else { Err(McertError::QuotientIdentity) }
}

/// Checks every constraint on every row of the domain, in the clear (the
/// gadgets' witness checks): `values` must be `width` columns of one
/// length, and `constraints(cur, next)` gives each constraint's value on a
/// row and the next one (cyclically). The first violated constraint is
/// reported with its row.
pub fn check_rows<R: AsRef<[F]>>(
    values: &[Vec<F>],
    width: usize,
    constraints: impl Fn(&[F], &[F]) -> R,
) -> Result<(), McertError> {
    if values.len() != width {
        return Err(McertError::ColumnCount { got: values.len(), expected: width });
    }
    let n = values[0].len();
    if let Some(bad) = values.iter().find(|c| c.len() != n) {
        return Err(McertError::ColumnLength { len: bad.len(), size: n });
    }
    for i in 0..n {
        let cur: Vec<F> = values.iter().map(|c| c[i]).collect();
        let next: Vec<F> = values.iter().map(|c| c[(i + 1) % n]).collect();
        if let Some(k) = constraints(&cur, &next).as_ref().iter().position(|c| *c != F::ZERO) {
            return Err(McertError::Unsatisfied { row: i, constraint: k });
        }
    }
    Ok(())
}
