//! Multiplicative evaluation domains of `F` (BLS12-381's base field) and
//! their mixed-radix FFT.
//!
//! Why not arkworks' radix-2 domains (on which `w3f-plonk-common`'s columns
//! are built): `F*` has order
//! `q - 1 = 2 · 3² · 11 · 23 · 47 · 10177 · 859267 · p₃₃₀`, of two-adicity
//! one, so no subgroup of order 4 or more is a power of two. The domains
//! here are the subgroups `H = <ω>` whose order `N` divides
//! `2 · 3² · 11 · 23 · 47 = 213 966` ([`MAX_DOMAIN_SIZE`]); every such
//! `N` is a product of small primes, and a Cooley–Tukey FFT with those
//! radices (a naive DFT of at most 47 points per stage) costs about
//! `N · Σ radices` multiplications. The PLONK identities only need `H` to be
//! a multiplicative subgroup: `Z_H(X) = X^N - 1`, the shift `X ↦ ωX` and the
//! Lagrange basis work for any order.
//!
//! [`Domain`] is what a verifier needs (`N`, `ω`, evaluations at one point,
//! constant work); [`Fft`] adds the table of powers the prover transforms with.

use ark_ff::{AdditiveGroup, FftField, Field, PrimeField, Zero, batch_inversion};
use rayon::prelude::*;

use crate::field::F;

/// The largest domain: the product of the small prime factors of `q - 1`.
/// A committee of `n` keys needs a domain of more than `n` rows.
pub const MAX_DOMAIN_SIZE: usize = 2 * 3 * 3 * 11 * 23 * 47;

/// The prime factors of [`MAX_DOMAIN_SIZE`] with multiplicity, smallest first.
const PRIME_FACTORS: [usize; 6] = [2, 3, 3, 11, 23, 47];

/// Below this many points a transform (or one of its stages) runs on one
/// thread: spawning costs more than the work.
const PARALLEL_MIN: usize = 1 << 10;

/// A multiplicative subgroup `H` of `F*` of smooth order `N`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Domain {
    size: usize,
    omega: F,
    omega_inv: F,
    size_inv: F,
}

impl Domain {
    /// The subgroup of order `size`, if `size` divides [`MAX_DOMAIN_SIZE`]
    /// and is at least 2.
    pub fn new(size: usize) -> Option<Domain> {
        if size < 2 || !MAX_DOMAIN_SIZE.is_multiple_of(size) {
            return None;
        }
        let omega = F::GENERATOR.pow(exponent_for_order(size));
        // ω has order exactly N: ω^N = 1 and ω^(N/p) ≠ 1 for each prime p | N.
        let exact = omega.pow([size as u64]) == F::ONE
            && prime_factors(size).iter().all(|&p| omega.pow([(size / p) as u64]) != F::ONE);
        if !exact {
            return None;
        }
        Some(Domain {
            size,
            omega,
            omega_inv: omega.inverse().expect("ω ≠ 0"),
            size_inv: F::from(size as u64).inverse().expect("N < q"),
        })
    }

    /// The smallest domain with at least `rows` elements.
    pub fn with_at_least(rows: usize) -> Option<Domain> {
        sizes().into_iter().find(|&n| n >= rows).and_then(Domain::new)
    }

    /// `N`.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The generator `ω`.
    pub fn omega(&self) -> F {
        self.omega
    }

    /// `ω^i`.
    pub fn element(&self, i: usize) -> F {
        self.omega.pow([(i % self.size) as u64])
    }

    /// The last element `ω^(N-1) = ω^{-1}`.
    pub fn last_element(&self) -> F {
        self.omega_inv
    }

    /// `1 / N`.
    pub fn size_inv(&self) -> F {
        self.size_inv
    }

    /// `z^N`.
    pub fn pow_size(&self, z: F) -> F {
        z.pow([self.size as u64])
    }

    /// The prover's transform tables for this domain.
    pub fn fft(&self) -> Fft {
        Fft::new(self)
    }

    /// Evaluations at a point `z` outside `H` of the polynomials a verifier
    /// needs; `None` if `z ∈ H` (where the vanishing polynomial is zero).
    pub fn evaluate_at(&self, z: F) -> Option<PointEvaluations> {
        let z_n = self.pow_size(z);
        let vanishing = z_n - F::ONE;
        if vanishing.is_zero() {
            return None;
        }
        // L_i(z) = ω^i (z^N - 1) / (N (z - ω^i)) for i = 0 and i = N - 1.
        let mut denominators = [z - F::ONE, z - self.omega_inv, vanishing];
        batch_inversion(&mut denominators);
        let scale = vanishing * self.size_inv;
        Some(PointEvaluations {
            z,
            z_n,
            vanishing_inv: denominators[2],
            first_lagrange: scale * denominators[0],
            last_lagrange: scale * self.omega_inv * denominators[1],
            not_last: z - self.omega_inv,
        })
    }

    /// `Σ_{i ∈ rows} L_i(z)` for distinct rows below `N`, with one inversion:
    /// the evaluation at `z` of the column that is one on `rows` and zero
    /// elsewhere (an accountable certificate's public bitfield).
    pub fn indicator_at(&self, rows: impl IntoIterator<Item = usize>, z: F) -> F {
        let mut power = F::ONE;
        let mut last = 0;
        let mut numerators = Vec::new();
        let mut denominators = Vec::new();
        for i in rows {
            power *= self.omega.pow([(i - last) as u64]);
            last = i;
            numerators.push(power);
            denominators.push(z - power);
        }
        batch_inversion(&mut denominators);
        let sum: F = numerators.iter().zip(&denominators).map(|(n, d)| *n * d).sum();
        sum * (self.pow_size(z) - F::ONE) * self.size_inv
    }
}

/// What a verifier needs of the domain at the evaluation point `z`.
#[derive(Clone, Copy, Debug)]
pub struct PointEvaluations {
    /// The point.
    pub z: F,
    /// `z^N`.
    pub z_n: F,
    /// `1 / (z^N - 1)`.
    pub vanishing_inv: F,
    /// `L_0(z)`.
    pub first_lagrange: F,
    /// `L_{N-1}(z)`.
    pub last_lagrange: F,
    /// `z - ω^(N-1)`: zero on the last row, so constraints between a row and
    /// the next are switched off where the next row would wrap around.
    pub not_last: F,
}

/// A domain with its table of powers of `ω`: forward and inverse
/// transforms, also over cosets `c·H`.
#[derive(Clone, Debug)]
pub struct Fft {
    domain: Domain,
    radices: Vec<usize>,
    /// `ω^i` for `i < N`.
    powers: Vec<F>,
}

impl Fft {
    fn new(domain: &Domain) -> Fft {
        let mut powers = Vec::with_capacity(domain.size);
        let mut power = F::ONE;
        for _ in 0..domain.size {
            powers.push(power);
            power *= domain.omega;
        }
        Fft { domain: domain.clone(), radices: prime_factors(domain.size), powers }
    }

    /// The domain.
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// The values `(ω^i)_{i<N}`.
    pub fn elements(&self) -> &[F] {
        &self.powers
    }

    /// Evaluations on `H` of the polynomial with these coefficients (at most
    /// `N` of them).
    pub fn evaluate(&self, coeffs: &[F]) -> Vec<F> {
        self.transform(&self.padded(coeffs), false)
    }

    /// Coefficients of the polynomial of degree below `N` with these values
    /// on `H` (exactly `N` of them).
    pub fn interpolate(&self, evals: &[F]) -> Vec<F> {
        assert_eq!(evals.len(), self.domain.size, "one value per row");
        let mut coeffs = self.transform(evals, true);
        scale_in_place(&mut coeffs, self.domain.size_inv);
        coeffs
    }

    /// Evaluations on the coset `shift·H`, in the order `shift·ω^i`.
    pub fn evaluate_on_coset(&self, coeffs: &[F], shift: F) -> Vec<F> {
        let mut scaled = self.padded(coeffs);
        multiply_by_powers(&mut scaled, shift);
        self.transform(&scaled, false)
    }

    /// Coefficients of the polynomial of degree below `N` with these values
    /// on `shift·H`.
    pub fn interpolate_on_coset(&self, evals: &[F], shift: F) -> Vec<F> {
        let mut coeffs = self.interpolate(evals);
        multiply_by_powers(&mut coeffs, shift.inverse().expect("coset shifts are nonzero"));
        coeffs
    }

    fn padded(&self, coeffs: &[F]) -> Vec<F> {
        assert!(coeffs.len() <= self.domain.size, "degree below N");
        let mut padded = coeffs.to_vec();
        padded.resize(self.domain.size, F::ZERO);
        padded
    }

    /// The DFT `X_k = Σ_j x_j ω^{±jk}` (without the `1/N` of the inverse).
    fn transform(&self, input: &[F], inverse: bool) -> Vec<F> {
        let n = self.domain.size;
        let mut out = vec![F::ZERO; n];
        let mut scratch = vec![F::ZERO; n];
        self.stage(input, 0, 1, &mut out, &mut scratch, 0, inverse);
        out
    }

    /// One decimation-in-time stage over `out.len()` points: the input
    /// points `input[offset + j·stride]` are split by `j mod p` into `p`
    /// interleaved sub-sequences, each transformed recursively into
    /// `scratch`, then combined into `out`:
    /// `X[o] = Σ_{r<p} Y_r[o mod m] · w^{r·o}` with `w` the `n`-th root of unity.
    #[allow(clippy::too_many_arguments)]
    fn stage(
        &self,
        input: &[F],
        offset: usize,
        stride: usize,
        out: &mut [F],
        scratch: &mut [F],
        level: usize,
        inverse: bool,
    ) {
        let n = out.len();
        if n == 1 {
            out[0] = input[offset];
            return;
        }
        let p = self.radices[level];
        let m = n / p;
        let sub = |r: usize, y: &mut [F], s: &mut [F]| {
            self.stage(input, offset + r * stride, stride * p, y, s, level + 1, inverse)
        };
        if n >= PARALLEL_MIN {
            scratch.par_chunks_mut(m).zip(out.par_chunks_mut(m)).enumerate().for_each(|(r, (y, s))| sub(r, y, s));
        } else {
            for (r, (y, s)) in scratch.chunks_mut(m).zip(out.chunks_mut(m)).enumerate() {
                sub(r, y, s);
            }
        }
        // w = ω^(N/n); w^e is powers[e·N/n mod N], or its inverse.
        let big_n = self.domain.size;
        let step = big_n / n;
        let power = |e: usize| {
            let i = e % big_n;
            if inverse && i != 0 { self.powers[big_n - i] } else { self.powers[i] }
        };
        let combine = |o: usize, x: &mut F| {
            let k = o % m;
            let base = step * o % big_n;
            let mut e = 0;
            let mut acc = scratch[k];
            for r in 1..p {
                e = (e + base) % big_n;
                acc += scratch[r * m + k] * power(e);
            }
            *x = acc;
        };
        if n >= PARALLEL_MIN {
            out.par_iter_mut().enumerate().for_each(|(o, x)| combine(o, x));
        } else {
            out.iter_mut().enumerate().for_each(|(o, x)| combine(o, x));
        }
    }
}

/// `values[i] *= c^i`.
fn multiply_by_powers(values: &mut [F], c: F) {
    let mut power = F::ONE;
    for v in values.iter_mut() {
        *v *= power;
        power *= c;
    }
}

fn scale_in_place(values: &mut [F], c: F) {
    values.par_iter_mut().for_each(|v| *v *= c);
}

/// All domain sizes (the divisors of [`MAX_DOMAIN_SIZE`] from 2 up), increasing.
pub fn sizes() -> Vec<usize> {
    let mut sizes: Vec<usize> = (2..=MAX_DOMAIN_SIZE).filter(|d| MAX_DOMAIN_SIZE.is_multiple_of(*d)).collect();
    sizes.sort_unstable();
    sizes
}

/// The prime factors of a domain size with multiplicity, smallest first.
fn prime_factors(mut size: usize) -> Vec<usize> {
    let mut factors = Vec::new();
    for p in PRIME_FACTORS {
        if size.is_multiple_of(p) {
            factors.push(p);
            size /= p;
        }
    }
    debug_assert_eq!(size, 1, "domain sizes divide MAX_DOMAIN_SIZE");
    factors
}

/// `(q - 1) / size` as little-endian limbs, for `size | q - 1`.
fn exponent_for_order(size: usize) -> [u64; 6] {
    let mut limbs = F::MODULUS.0;
    limbs[0] -= 1; // q is odd: no borrow
    let divisor = size as u128;
    let mut remainder: u128 = 0;
    for limb in limbs.iter_mut().rev() {
        let current = (remainder << 64) | *limb as u128;
        *limb = (current / divisor) as u64;
        remainder = current % divisor;
    }
    debug_assert_eq!(remainder, 0, "the domain size divides q - 1");
    limbs
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::UniformRand;
    use ark_poly::{DenseUVPolynomial, Polynomial, univariate::DensePolynomial};
    use ark_std::test_rng;

    fn naive_eval(coeffs: &[F], x: F) -> F {
        DensePolynomial::from_coefficients_slice(coeffs).evaluate(&x)
    }

    #[test]
    fn sizes_are_the_divisors_and_each_has_an_exact_generator() {
        let sizes = sizes();
        assert_eq!(sizes.len(), 2 * 3 * 2 * 2 * 2 - 1, "the divisors of 2·3²·11·23·47 but 1");
        for &n in &sizes {
            let d = Domain::new(n).expect("every divisor is a domain");
            assert_eq!(d.pow_size(d.omega()), F::ONE);
        }
        assert!(Domain::new(4).is_none() && Domain::new(1).is_none() && Domain::new(10177).is_none());
        assert_eq!(Domain::with_at_least(2002).unwrap().size(), 2162);
        assert!(Domain::with_at_least(MAX_DOMAIN_SIZE + 1).is_none());
    }

    #[test]
    fn the_field_has_no_radix_two_domain() {
        // The reason this module exists: arkworks' domains for this field
        // are 2^a·3^b with a ≤ 1 and b ≤ 2, so none exceeds 18 points.
        use ark_poly::{EvaluationDomain, GeneralEvaluationDomain};
        assert_eq!(GeneralEvaluationDomain::<F>::new(4).map(|d| d.size()), Some(6));
        assert!(GeneralEvaluationDomain::<F>::new(19).is_none());
    }

    #[test]
    fn transforms_match_naive_evaluation_and_invert() {
        let rng = &mut test_rng();
        for n in [2, 3, 6, 9, 11, 18, 22, 47, 94, 198, 1081, 2162] {
            let fft = Domain::new(n).unwrap().fft();
            let coeffs: Vec<F> = (0..n).map(|_| F::rand(rng)).collect();
            let evals = fft.evaluate(&coeffs);
            for i in [0, 1, n / 2, n - 1] {
                assert_eq!(evals[i], naive_eval(&coeffs, fft.elements()[i]), "n = {n}, i = {i}");
            }
            assert_eq!(fft.interpolate(&evals), coeffs, "n = {n}");
            let shift = F::from(7u64);
            let coset = fft.evaluate_on_coset(&coeffs, shift);
            for i in [0, n - 1] {
                assert_eq!(coset[i], naive_eval(&coeffs, shift * fft.elements()[i]));
            }
            assert_eq!(fft.interpolate_on_coset(&coset, shift), coeffs);
        }
    }

    #[test]
    fn point_evaluations_match_the_lagrange_polynomials() {
        let rng = &mut test_rng();
        let domain = Domain::new(66).unwrap();
        let fft = domain.fft();
        let z = F::rand(rng);
        let at = domain.evaluate_at(z).unwrap();
        let lagrange = |i: usize| {
            let mut e = vec![F::ZERO; 66];
            e[i] = F::ONE;
            naive_eval(&fft.interpolate(&e), z)
        };
        assert_eq!(at.first_lagrange, lagrange(0));
        assert_eq!(at.last_lagrange, lagrange(65));
        assert_eq!(at.vanishing_inv, (z.pow([66]) - F::ONE).inverse().unwrap());
        let rows = [0, 3, 4, 40, 65];
        let expected: F = rows.iter().map(|&i| lagrange(i)).sum();
        assert_eq!(domain.indicator_at(rows, z), expected);
        assert!(domain.evaluate_at(fft.elements()[5]).is_none(), "points of H are refused");
    }
}
