//! The Poseidon permutation (Grassi, Khovratovich, Rechberger, Roy,
//! Schofnegger, eprint 2019/458), with its parameters generated as the
//! authors' reference script `generate_params_poseidon.sage` /
//! `generate_parameters_grain.sage` generates them, over any prime field.
//!
//! The SNARK-friendly lottery ([`crate::snark_lottery`]) uses one instance,
//! [`bls12_381_fq`]: BLS12-381's base field `Fq`, which is BW6-767's scalar
//! field, so a G1 coordinate is one native field element in the succinct
//! certificate's circuit.
//!
//! ## The pinned instance over `Fq`
//! * **Width `t = 3`** (rate 2, capacity 1): the lottery hashes three field
//!   elements (a message prefix, `x(σ)`, and the index with a domain tag in
//!   the capacity cell), so one permutation per index suffices; a wider state
//!   would only cost more S-boxes per full round.
//! * **S-box `x^5`.** `x^α` is a permutation of `Fq` iff `gcd(α, q − 1) = 1`.
//!   `q − 1` is divisible by 3 (BLS12 fields have `q ≡ 1 mod 3`, which is what
//!   gives G1 its cube-root endomorphism) and by 2, so 3 and 4 are out and
//!   **α = 5** is the smallest choice ([`smallest_alpha`] recomputes it).
//! * **`R_F = 8`, `R_P = 56`**, from the paper's inequalities for `M = 128`
//!   bits, in the form of the current reference script (see
//!   [`satisfies_bounds`]), with `n = ⌈log2 q⌉ = 381`, `t = 3`, `α = 5`:
//!   - statistical: `R_F ≥ 6` since `M = 128 ≤ (⌊log2 q − (α−1)/2⌋)(t+1) = 378·4`;
//!   - interpolation: `R_F + R_P ≥ 1 + ⌈log_5(2)·min(M, n)⌉ + ⌈log_5 t⌉ = 1 + ⌈55.13⌉ + 1 = 58`;
//!   - Gröbner 1: `R_F + R_P ≥ log_5(2)·min(M, log2 q) = 55.13`;
//!   - Gröbner 2: `R_F + R_P ≥ t − 1 + log_5(2)·min(M/(t+1), log2(q)/2) = 2 + 13.78`;
//!   - Gröbner 3: `R_F ≥ (t − 2 + M/(2·log2 5) − R_P)/(t − 1)`;
//!   - eprint 2023/537: `⌈2·log2 C(over, under)⌉ ≥ M` with
//!     `over = (R_F−1)t + 2R_P + r + r·R_F/2 + α`, `under = r·R_F/2 + R_P + α`,
//!     `r = ⌊t/3⌋`.
//!
//!   The cheapest pair (by `t·R_F + R_P` S-boxes, the reference cost
//!   function) is `R_F = 6, R_P = 52`, bound by interpolation
//!   (`6 + 52 = 58`). The security margin adds two full rounds and 7.5 %
//!   partial rounds: `R_F = 8`, `R_P = ⌈52 · 1.075⌉ = ⌈55.9⌉ = 56`.
//!   [`round_numbers`] redoes this search, and a test checks it gives (8, 56).
//! * **Round constants and MDS matrix** from the Grain LFSR ([`Grain`]),
//!   seeded with (field type 1 = prime field, S-box type 0 = `x^α`,
//!   `n = 381`, `t = 3`, `R_F = 8`, `R_P = 56`), generated at first use: no
//!   constant is copied from anywhere. The generator is checked against
//!   published instances on other fields (BN254 and BLS12-381's scalar
//!   field with the reference script's `x5_254_3`/`x5_255_3` test vectors,
//!   Pallas with halo2's `P128Pow5T3` constants and test vector), against
//!   the published round constants of this very instance (lambdaworks'
//!   `bls12381/t3`), and against an independent Python implementation
//!   (`scripts/poseidon_ref.py`); see `tests/poseidon.rs`. No MDS matrix or
//!   permutation output of this exact instance is published that we found.
//!
//! ## The permutation
//! `R_F/2` full rounds, `R_P` partial rounds, `R_F/2` full rounds; each round
//! adds `t` round constants, applies `x^α` to every cell (full) or to cell 0
//! (partial), and multiplies the state by the MDS matrix (`s ← M·s`). This
//! is the reference `poseidonperm_x5_*` permutation, unoptimised.

use std::sync::OnceLock;

use ark_ff::{BigInteger, PrimeField};
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use crate::error::MithrilError;

/// Security level of the pinned instance, in bits (`M`).
pub const SECURITY_BITS: u32 = 128;
/// Width of the `Fq` instance.
pub const FQ_WIDTH: usize = 3;
/// S-box exponent of the `Fq` instance.
pub const FQ_ALPHA: u64 = 5;
/// Full rounds of the `Fq` instance (with the security margin).
pub const FQ_FULL_ROUNDS: usize = 8;
/// Partial rounds of the `Fq` instance (with the security margin).
pub const FQ_PARTIAL_ROUNDS: usize = 56;

/// The smallest `α ≥ 3` with `gcd(α, p − 1) = 1`, the S-box exponent the
/// reference script picks (`x^α` permutes `F_p` iff α is prime to `p − 1`).
pub fn smallest_alpha(p: &BigUint) -> u64 {
    let p_minus_one = p - 1u32;
    let mut alpha = 3u64;
    loop {
        let (mut a, mut b) = (BigUint::from(alpha), p_minus_one.clone());
        while !b.is_zero() {
            let r = &a % &b;
            a = b;
            b = r;
        }
        if a.is_one() {
            return alpha;
        }
        alpha += 1;
    }
}

/// `log2 p` for a big `p`, from its bit length and its top 53 bits (an
/// f64 as close as Python's `math.log(p, 2)`, which the script uses).
fn log2(p: &BigUint) -> f64 {
    let bits = p.bits();
    if bits <= 53 {
        return p.to_f64().unwrap_or(0.0).log2();
    }
    let top = (p >> (bits - 53) as usize).to_f64().unwrap_or(0.0);
    top.log2() + (bits - 53) as f64
}

/// Whether `(R_F, R_P)` meets the paper's bounds for `M`-bit security,
/// before the security margin: the inequalities of the reference script
/// `generate_params_poseidon.sage` (`sat_inequiv_alpha`), which are those
/// of the paper (statistical, interpolation, three Gröbner-basis bounds)
/// plus the binomial bound added after eprint 2023/537.
pub fn satisfies_bounds(p: &BigUint, t: usize, full: usize, partial: usize, alpha: u64, m: u32) -> bool {
    let (tf, rf, rp, mf, af) = (t as f64, full as f64, partial as f64, m as f64, alpha as f64);
    let n = p.bits() as f64;
    let lp = log2(p);
    let log_alpha_2 = 2f64.ln() / af.ln();
    let statistical = if mf <= (lp - (af - 1.0) / 2.0).floor() * (tf + 1.0) { 6.0 } else { 10.0 };
    let interpolation = 1.0 + (log_alpha_2 * mf.min(n)).ceil() + (tf.ln() / af.ln()).ceil() - rp;
    let groebner_1 = log_alpha_2 * mf.min(lp) - rp;
    let groebner_2 = tf - 1.0 + log_alpha_2 * (mf / (tf + 1.0)).min(lp / 2.0) - rp;
    let groebner_3 = (tf - 2.0 + mf / (2.0 * af.log2()) - rp) / (tf - 1.0);
    let rf_min = [statistical, interpolation, groebner_1, groebner_2, groebner_3]
        .into_iter()
        .map(f64::ceil)
        .fold(f64::MIN, f64::max);
    if rf < rf_min {
        return false;
    }
    // eprint 2023/537: ceil(2·log2 C(over, under)) >= M  <=>  C² > 2^(M−1), exactly.
    let r = t / 3;
    let over = (full - 1) * t + partial + r + r * full / 2 + partial + alpha as usize;
    let under = r * full / 2 + partial + alpha as usize;
    let c = binomial(over, under);
    &c * &c > BigUint::one() << (m as usize - 1)
}

fn binomial(n: usize, k: usize) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let k = k.min(n - k);
    let mut c = BigUint::one();
    for i in 0..k {
        c = c * (n - i) / (i + 1);
    }
    c
}

/// The reference script's round numbers: the `(R_F, R_P)` (with `R_F` even,
/// `4 ≤ R_F < 100`, `1 ≤ R_P < 500`) that satisfies [`satisfies_bounds`]
/// at the fewest S-boxes `t·R_F + R_P` after the security margin
/// (`R_F + 2`, `⌈1.075·R_P⌉`), ties going to fewer full rounds.
pub fn round_numbers(p: &BigUint, t: usize, alpha: u64, m: u32) -> (usize, usize) {
    let mut best = (0, 0);
    let mut best_cost = usize::MAX;
    for partial in 1..500 {
        for full in (4..100).step_by(2) {
            if satisfies_bounds(p, t, full, partial, alpha, m) {
                let (f, r) = (full + 2, (partial * 1075).div_ceil(1000));
                let cost = t * f + r;
                if cost < best_cost || (cost == best_cost && f < best.0) {
                    best = (f, r);
                    best_cost = cost;
                }
            }
        }
    }
    best
}

/// The Grain LFSR of the reference script, as a self-shrinking bit source.
///
/// The 80-bit state starts as the field type (2 bits: 1 for a prime field),
/// the S-box type (4 bits: 0 for `x^α`), `n` (12 bits), `t` (12), `R_F` (10),
/// `R_P` (10), each most significant bit first, then thirty 1s. It is
/// clocked `b = s62 ⊕ s51 ⊕ s38 ⊕ s23 ⊕ s13 ⊕ s0` (shifting `b` in at the
/// end), 160 times discarded; then output bits come from pairs `(b1, b2)`:
/// `b2` is output iff `b1 = 1`.
#[derive(Clone, Debug)]
pub struct Grain {
    bits: [u8; 80],
    head: usize,
}

impl Grain {
    /// The generator for a prime field of `n` bits, `x^α`, width `t`, `R_F`, `R_P`.
    pub fn new(n: usize, t: usize, full: usize, partial: usize) -> Result<Grain, MithrilError> {
        let fields = [(1usize, 2u32), (0, 4), (n, 12), (t, 12), (full, 10), (partial, 10)];
        if fields.iter().any(|&(v, w)| v >> w != 0) {
            return Err(MithrilError::PoseidonParameters("a parameter does not fit the Grain seed"));
        }
        let mut bits = [1u8; 80];
        let mut at = 0;
        for (value, width) in fields {
            for i in (0..width).rev() {
                bits[at] = ((value >> i) & 1) as u8;
                at += 1;
            }
        }
        let mut g = Grain { bits, head: 0 };
        for _ in 0..160 {
            g.clock();
        }
        Ok(g)
    }

    fn clock(&mut self) -> u8 {
        let s = |i: usize| self.bits[(self.head + i) % 80];
        let b = s(62) ^ s(51) ^ s(38) ^ s(23) ^ s(13) ^ s(0);
        self.bits[self.head] = b;
        self.head = (self.head + 1) % 80;
        b
    }

    /// The next output bit.
    pub fn bit(&mut self) -> u8 {
        loop {
            let first = self.clock();
            let second = self.clock();
            if first == 1 {
                return second;
            }
        }
    }

    /// The next `n` output bits as an integer, first bit most significant.
    pub fn integer(&mut self, n: usize) -> BigUint {
        let mut v = BigUint::zero();
        for _ in 0..n {
            v = (v << 1u8) + u32::from(self.bit());
        }
        v
    }
}

/// A Poseidon instance: width, S-box and round numbers, with the Grain
/// round constants and MDS matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon<F: PrimeField> {
    width: usize,
    alpha: u64,
    full_rounds: usize,
    partial_rounds: usize,
    round_constants: Vec<F>,
    mds: Vec<Vec<F>>,
}

impl<F: PrimeField> Poseidon<F> {
    /// Generates the instance as the reference script does for
    /// `(field 1, S-box 0, n = bit length of p, t, R_F, R_P)`: the round
    /// constants are the first `(R_F + R_P)·t` Grain integers below `p`
    /// (`n`-bit draws, redrawn while `≥ p`); then the MDS matrix is the
    /// Cauchy matrix `1/(x_i + y_j)` of `2t` further draws reduced mod `p`
    /// (redrawn when two coincide or some `x_i + y_j = 0`), redrawn while
    /// [`mds_is_secure`] refuses it.
    pub fn generate(width: usize, alpha: u64, full_rounds: usize, partial_rounds: usize) -> Result<Self, MithrilError> {
        if width < 2 || !full_rounds.is_multiple_of(2) || alpha < 3 {
            return Err(MithrilError::PoseidonParameters("need t >= 2, an even R_F and alpha >= 3"));
        }
        let p: BigUint = F::MODULUS.into();
        let n = F::MODULUS_BIT_SIZE as usize;
        let mut grain = Grain::new(n, width, full_rounds, partial_rounds)?;
        let count = (full_rounds + partial_rounds) * width;
        let mut round_constants = Vec::with_capacity(count);
        for _ in 0..count {
            let mut v = grain.integer(n);
            while v >= p {
                v = grain.integer(n);
            }
            round_constants.push(F::from(v));
        }
        let mds = loop {
            let draws: Vec<F> = (0..2 * width).map(|_| F::from(grain.integer(n))).collect();
            let distinct = (0..draws.len()).all(|i| (0..i).all(|j| draws[i] != draws[j]));
            if !distinct {
                continue;
            }
            let (xs, ys) = draws.split_at(width);
            if xs.iter().any(|x| ys.iter().any(|y| (*x + y).is_zero())) {
                continue;
            }
            let m: Vec<Vec<F>> =
                xs.iter().map(|x| ys.iter().map(|y| (*x + y).inverse().unwrap_or_else(F::zero)).collect()).collect();
            if mds_is_secure(&m) {
                break m;
            }
        };
        Ok(Poseidon { width, alpha, full_rounds, partial_rounds, round_constants, mds })
    }

    /// The width `t`.
    pub fn width(&self) -> usize {
        self.width
    }
    /// The S-box exponent α.
    pub fn alpha(&self) -> u64 {
        self.alpha
    }
    /// `R_F`, the number of full rounds (half before, half after the partial ones).
    pub fn full_rounds(&self) -> usize {
        self.full_rounds
    }
    /// `R_P`, the number of partial rounds.
    pub fn partial_rounds(&self) -> usize {
        self.partial_rounds
    }
    /// The `(R_F + R_P)·t` round constants, round by round.
    pub fn round_constants(&self) -> &[F] {
        &self.round_constants
    }
    /// The MDS matrix, row by row (`s ← M·s`).
    pub fn mds(&self) -> &[Vec<F>] {
        &self.mds
    }

    /// Applies the permutation to `state` in place; the state must have `t` cells.
    pub fn permute(&self, state: &mut [F]) -> Result<(), MithrilError> {
        if state.len() != self.width {
            return Err(MithrilError::PoseidonParameters("the state length is not the width"));
        }
        let half = self.full_rounds / 2;
        let mut mixed = vec![F::zero(); self.width];
        for (round, constants) in self.round_constants.chunks_exact(self.width).enumerate() {
            for (cell, c) in state.iter_mut().zip(constants) {
                *cell += c;
            }
            if round < half || round >= half + self.partial_rounds {
                for cell in state.iter_mut() {
                    *cell = self.sbox(*cell);
                }
            } else {
                state[0] = self.sbox(state[0]);
            }
            for (out, row) in mixed.iter_mut().zip(&self.mds) {
                *out = row.iter().zip(state.iter()).map(|(m, s)| *m * s).sum();
            }
            state.copy_from_slice(&mixed);
        }
        Ok(())
    }

    fn sbox(&self, x: F) -> F {
        if self.alpha == 5 {
            let x2 = x.square();
            x2.square() * x
        } else {
            x.pow([self.alpha])
        }
    }
}

/// The pinned instance over BLS12-381's base field (t = 3, x^5, R_F = 8,
/// R_P = 56), generated once, at first use.
pub fn bls12_381_fq() -> &'static Poseidon<ark_bls12_381::Fq> {
    static INSTANCE: OnceLock<Poseidon<ark_bls12_381::Fq>> = OnceLock::new();
    INSTANCE.get_or_init(|| {
        // Constant, valid parameters: generation cannot fail (tests/poseidon.rs checks the result).
        Poseidon::generate(FQ_WIDTH, FQ_ALPHA, FQ_FULL_ROUNDS, FQ_PARTIAL_ROUNDS)
            .unwrap_or_else(|e| unreachable!("the pinned Poseidon parameters are valid: {e}"))
    })
}

// ------------------------------------------------------------------------------------------------
// The reference script's MDS security checks (algorithms 1-3, for s = 1), by plain linear algebra.

/// Whether the script's algorithms 1, 2 and 3 all accept the MDS matrix `m`
/// (no invariant subspace trail of the kinds the script looks for):
///
/// * algorithm 1: for `i = 1 … t−1`, `Mⁱ` is not a scalar matrix; no
///   eigenvector of `Mⁱ` with an eigenvalue in `F` lies in the subspace
///   `Sᵢ` of states whose first cell stays inactive for `i` rounds
///   (`S₁ = {s₀ = 0}`, `Sᵢ = {s₀ = 0, (M s)₀ = … = (M^{i−1} s)₀ = 0}`);
///   and `Mʲ·Sᵢ ≠ Sᵢ` for `j = 1 … i`;
/// * algorithm 2: `e₀, M e₀, M² e₀, …` span the whole space;
/// * algorithm 3: algorithm 2 for `Mʳ`, `r = 2 … 4t`.
///
/// The script finds the eigenvectors from `Mⁱ`'s eigenspaces over `F`; here
/// an eigenvector in `Sᵢ` exists iff the largest `Mⁱ`-invariant subspace
/// `W ⊆ Sᵢ` is nonzero and `Mⁱ` restricted to `W` has an eigenvalue in `F`
/// (its characteristic polynomial `f` has a root: `gcd(x^p − x, f) ≠ 1`),
/// which decides the same question without factoring.
pub fn mds_is_secure<F: PrimeField>(m: &[Vec<F>]) -> bool {
    algorithm_1(m) && algorithm_2(m) && algorithm_3(m)
}

fn identity<F: PrimeField>(t: usize) -> Vec<Vec<F>> {
    (0..t).map(|i| (0..t).map(|j| if i == j { F::one() } else { F::zero() }).collect()).collect()
}

fn matmul<F: PrimeField>(a: &[Vec<F>], b: &[Vec<F>]) -> Vec<Vec<F>> {
    a.iter()
        .map(|row| (0..b[0].len()).map(|j| row.iter().zip(b).map(|(x, brow)| *x * brow[j]).sum()).collect())
        .collect()
}

fn matvec<F: PrimeField>(a: &[Vec<F>], v: &[F]) -> Vec<F> {
    a.iter().map(|row| row.iter().zip(v).map(|(x, y)| *x * y).sum()).collect()
}

fn matpow<F: PrimeField>(a: &[Vec<F>], e: usize) -> Vec<Vec<F>> {
    (0..e).fold(identity(a.len()), |acc, _| matmul(&acc, a))
}

/// Reduced row echelon form of the span of `rows`, with each row's pivot column.
fn rref<F: PrimeField>(rows: &[Vec<F>]) -> (Vec<Vec<F>>, Vec<usize>) {
    let mut m: Vec<Vec<F>> = rows.to_vec();
    let cols = m.first().map_or(0, Vec::len);
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..cols {
        let Some(p) = (r..m.len()).find(|&i| !m[i][c].is_zero()) else { continue };
        m.swap(r, p);
        let inv = m[r][c].inverse().unwrap_or_else(F::zero);
        for x in m[r].iter_mut() {
            *x *= inv;
        }
        for i in 0..m.len() {
            if i != r && !m[i][c].is_zero() {
                let f = m[i][c];
                let pivot_row = m[r].clone();
                for (x, y) in m[i].iter_mut().zip(&pivot_row) {
                    *x -= f * y;
                }
            }
        }
        pivots.push(c);
        r += 1;
    }
    m.truncate(r);
    (m, pivots)
}

fn rank<F: PrimeField>(rows: &[Vec<F>]) -> usize {
    rref(rows).0.len()
}

/// A basis of `{x : A x = 0}` for `A` given by its rows, `cols` columns.
fn kernel<F: PrimeField>(rows: &[Vec<F>], cols: usize) -> Vec<Vec<F>> {
    let (red, pivots) = rref(rows);
    (0..cols)
        .filter(|c| !pivots.contains(c))
        .map(|free| {
            let mut x = vec![F::zero(); cols];
            x[free] = F::one();
            for (row, &pc) in red.iter().zip(&pivots) {
                x[pc] = -row[free];
            }
            x
        })
        .collect()
}

fn same_space<F: PrimeField>(a: &[Vec<F>], b: &[Vec<F>]) -> bool {
    let (ra, rb) = (rank(a), rank(b));
    let both: Vec<Vec<F>> = a.iter().chain(b).cloned().collect();
    ra == rb && rank(&both) == ra
}

/// Whether some nonzero `v ∈ span(space)` has `A v = λ v` with `λ ∈ F`.
fn eigenvector_in<F: PrimeField>(space: &[Vec<F>], a: &[Vec<F>]) -> bool {
    let t = a.len();
    let mut w = rref(space).0;
    // Shrink to the largest A-invariant subspace: W ← {v ∈ W : A v ∈ W}.
    while !w.is_empty() {
        let annihilator = kernel(&w, t);
        let images: Vec<Vec<F>> = w.iter().map(|b| matvec(a, b)).collect();
        let conditions: Vec<Vec<F>> = annihilator
            .iter()
            .map(|f| images.iter().map(|img| f.iter().zip(img).map(|(x, y)| *x * y).sum()).collect())
            .collect();
        let coefficients = kernel(&conditions, w.len());
        let next: Vec<Vec<F>> = coefficients
            .iter()
            .map(|c| (0..t).map(|i| c.iter().zip(&w).map(|(cj, wj)| *cj * wj[i]).sum()).collect())
            .collect();
        let next = rref(&next).0;
        if next.len() == w.len() {
            break;
        }
        w = next;
    }
    if w.is_empty() {
        return false;
    }
    // A on W in the basis w (w is in RREF: a vector's coordinate on w_i is its pivot entry).
    let (w, pivots) = rref(&w);
    let k = w.len();
    let mut restricted = vec![vec![F::zero(); k]; k];
    for (j, b) in w.iter().enumerate() {
        let img = matvec(a, b);
        for (i, &pc) in pivots.iter().enumerate() {
            restricted[i][j] = img[pc];
        }
    }
    has_root(&charpoly(&restricted))
}

/// The monic characteristic polynomial, lowest degree first (Faddeev–LeVerrier).
fn charpoly<F: PrimeField>(a: &[Vec<F>]) -> Vec<F> {
    let k = a.len();
    let mut c = vec![F::zero(); k + 1];
    c[k] = F::one();
    let mut mk = vec![vec![F::zero(); k]; k];
    for i in 1..=k {
        mk = matmul(a, &mk);
        for (d, row) in mk.iter_mut().enumerate() {
            row[d] += c[k - i + 1];
        }
        let am = matmul(a, &mk);
        let trace: F = (0..k).map(|d| am[d][d]).sum();
        c[k - i] = -trace * F::from(i as u64).inverse().unwrap_or_else(F::zero);
    }
    c
}

/// `a·b mod f` for a monic `f` of degree `d ≥ 1`; polynomials lowest degree first, `d` coefficients.
fn poly_mulmod<F: PrimeField>(a: &[F], b: &[F], f: &[F]) -> Vec<F> {
    let d = f.len() - 1;
    let mut prod = vec![F::zero(); 2 * d];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            prod[i + j] += *x * y;
        }
    }
    for k in (d..prod.len()).rev() {
        let c = prod[k];
        if !c.is_zero() {
            for i in 0..=d {
                prod[k - d + i] -= c * f[i];
            }
        }
    }
    prod.truncate(d);
    prod
}

fn poly_trim<F: PrimeField>(mut a: Vec<F>) -> Vec<F> {
    while a.last().is_some_and(|x| x.is_zero()) {
        a.pop();
    }
    a
}

fn poly_gcd<F: PrimeField>(a: Vec<F>, b: Vec<F>) -> Vec<F> {
    let (mut a, mut b) = (poly_trim(a), poly_trim(b));
    while !b.is_empty() {
        let lead_inv = b[b.len() - 1].inverse().unwrap_or_else(F::zero);
        while a.len() >= b.len() && !a.is_empty() {
            let c = a[a.len() - 1] * lead_inv;
            let shift = a.len() - b.len();
            for (i, y) in b.iter().enumerate() {
                a[shift + i] -= c * y;
            }
            a = poly_trim(a);
        }
        std::mem::swap(&mut a, &mut b);
    }
    a
}

/// Whether the monic `f` (degree ≥ 1) has a root in `F`: `gcd(x^p − x mod f, f) ≠ 1`.
fn has_root<F: PrimeField>(f: &[F]) -> bool {
    let d = f.len() - 1;
    if d == 1 {
        return true;
    }
    let mut acc = vec![F::zero(); d];
    acc[0] = F::one();
    let mut x = vec![F::zero(); d];
    x[1] = F::one();
    for bit in F::MODULUS.to_bits_be() {
        acc = poly_mulmod(&acc, &acc, f);
        if bit {
            acc = poly_mulmod(&acc, &x, f);
        }
    }
    acc[1] -= F::one();
    poly_gcd(f.to_vec(), acc).len() > 1
}

fn algorithm_1<F: PrimeField>(m: &[Vec<F>]) -> bool {
    let t = m.len();
    for i in 1..t {
        let mi = matpow(m, i);
        let e = mi[0][0];
        let scalar = (0..t).all(|r| (0..t).all(|c| mi[r][c] == if r == c { e } else { F::zero() }));
        if scalar {
            return false;
        }
        let s: Vec<Vec<F>> = if i == 1 {
            (1..t).map(|k| (0..t).map(|j| if j == k { F::one() } else { F::zero() }).collect()).collect()
        } else {
            let rows: Vec<Vec<F>> = (1..i).map(|k| matpow(m, k)[0][1..].to_vec()).collect();
            kernel(&rows, t - 1).into_iter().map(|v| std::iter::once(F::zero()).chain(v).collect()).collect()
        };
        if eigenvector_in(&s, &mi) {
            return false;
        }
        for j in 1..=i {
            let mj = matpow(m, j);
            let moved: Vec<Vec<F>> = s.iter().map(|v| matvec(&mj, v)).collect();
            if same_space(&s, &moved) {
                return false;
            }
        }
    }
    true
}

fn algorithm_2<F: PrimeField>(m: &[Vec<F>]) -> bool {
    let t = m.len();
    let mut v: Vec<F> = (0..t).map(|j| if j == 0 { F::one() } else { F::zero() }).collect();
    let mut space = vec![v.clone()];
    loop {
        let before = rank(&space);
        v = matvec(m, &v);
        space.push(v.clone());
        let after = rank(&space);
        if after == t {
            return true;
        }
        if after <= before {
            return false;
        }
    }
}

fn algorithm_3<F: PrimeField>(m: &[Vec<F>]) -> bool {
    (2..=4 * m.len()).all(|r| algorithm_2(&matpow(m, r)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bls12_381::Fq;
    use ark_ff::Field;

    #[test]
    fn scalar_and_reducible_matrices_are_refused() {
        let one = Fq::one();
        let two = Fq::from(2u64);
        let z = Fq::zero();
        // A scalar matrix (algorithm 1's first test).
        assert!(!mds_is_secure(&[vec![two, z, z], vec![z, two, z], vec![z, z, two]]));
        // e0 is an eigenvector: algorithm 2 fails (its Krylov space is one-dimensional).
        assert!(!algorithm_2(&[vec![two, one, one], vec![z, one, two], vec![z, two, one]]));
        // e1 (in S1) is an eigenvector of M: algorithm 1 flags it.
        assert!(!algorithm_1(&[vec![one, z, two], vec![two, Fq::from(3u64), one], vec![one, z, one]]));
    }

    #[test]
    fn root_finding_agrees_with_known_polynomials() {
        // (x − 2)(x − 3) has roots; x² − r for a non-residue r has none.
        let f = [Fq::from(6u64), -Fq::from(5u64), Fq::one()];
        assert!(has_root(&f));
        let mut r = Fq::from(2u64);
        while r.legendre().is_qr() {
            r += Fq::one();
        }
        assert!(!has_root(&[-r, Fq::zero(), Fq::one()]));
        assert!(has_root(&[-(r * r), Fq::zero(), Fq::one()]));
    }

    #[test]
    fn charpoly_of_a_two_by_two() {
        let a = [vec![Fq::from(1u64), Fq::from(2u64)], vec![Fq::from(3u64), Fq::from(4u64)]];
        // x² − 5x − 2
        assert_eq!(charpoly(&a), vec![-Fq::from(2u64), -Fq::from(5u64), Fq::one()]);
    }
}
