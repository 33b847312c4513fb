//! The polynomial IOP of the certificate: what is fixed, what the prover
//! commits, and the constraints both sides evaluate.
//!
//! ## Table
//! `N` rows (a smooth subgroup `H = <ω>`, [`crate::domain`]); the committee's
//! `n < N` keys sit in rows `0..n`.
//!
//! | column | kind | rows `i < n` | rows `n ≤ i < N` |
//! |---|---|---|---|
//! | `px`, `py` | fixed (committee key) | key `i`'s coordinates | G1's generator (never added) |
//! | `s` | fixed | 1 | 0 |
//! | `c` | fixed, stake only | `w_i·2^32 + 1` | 0 |
//! | `b` | committed in counting mode, public in accountable mode | signed bit | 0 |
//! | `ax`, `ay` | committed | accumulator before row `i` | |
//! | `t` | committed when counted or weighted | running sum before row `i` | |
//!
//! ## Constraints (each must vanish on all of `H`)
//! 1-2. **Conditional addition** (`w3f-plonk-common`'s `sw_cond_add`):
//!   `acc_{i+1} = acc_i + b_i·pk_i` for `i < N-1` (off on the last row),
//!   with the affine formula. The accumulator starts at the seed `h`
//!   ([`crate::field::seed_point`]), a point outside G1, so an accumulator
//!   `h + P` never shares an x-coordinate with a key and the incomplete
//!   formula is exact: with `x_i ≠ x(pk_i)` the two constraints determine
//!   the next row uniquely as the true sum when `b_i = 1`, and force a copy
//!   when `b_i = 0`.
//! 3. **Running sum** (`inner_prod`): `t_{i+1} = t_i + b_i·w_i` for
//!    `i < N-1`, where the weight column is `c` with stake and `s`
//!    without. Present in counting mode and whenever stake is proved.
//! 4. **Selected booleanity** (counting mode): `b·(s - b) = 0`, so `b` is 0 or
//!    1 on key rows and 0 on every other row (a padding row can never add
//!    its point or count). In accountable mode `b` is built by the verifier
//!    from the public bitfield, which already has these properties.
//! 5-6. **Boundary cells** of the accumulator (`fixed_cells`): `acc_0 = h` and
//!    `acc_{N-1} = h + apk`, the public aggregate key.
//! 7. **Boundary cells** of the running sum: `t_0 = 0` and
//!    `t_{N-1} = stake·2^32 + count`.
//!
//! Why the packed sum proves both figures: `b` is boolean, so the integer
//! `Σ b_i (w_i·2^32 + s_i) = stake·2^32 + count` with `count ≤ n < 2^32` and
//! `stake ≤ Σ w_i < 2^64` (the committee refuses larger totals); it is below
//! `2^96 < q`, so equality in `F` is equality of integers, and the base-2^32
//! digits are unique.
//!
//! Together: `apk = Σ b_i pk_i` over committed keys, `count = Σ b_i`,
//! `stake = Σ b_i w_i` for one boolean `b` that is zero past the committee.

pub mod proof;
pub mod prover;
pub mod verifier;

use std::marker::PhantomData;

use ark_ec::AffineRepr;
use ark_ff::{AdditiveGroup, Field};

use w3f_plonk_common::gadgets::VerifierGadget;
use w3f_plonk_common::gadgets::ec::CondAddValues;
use w3f_plonk_common::gadgets::fixed_cells::FixedCellsValues;
use w3f_plonk_common::gadgets::inner_prod::InnerProdValues;

use crate::domain::PointEvaluations;
use crate::field::{F, KeyPoint};

/// Bits by which the stake is shifted above the count in the running sum.
pub const COUNT_BITS: u32 = 32;

/// Which optional columns and constraints a certificate has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Counting mode: the bitfield is committed (hidden) instead of public.
    pub counting: bool,
    /// The committee has stake weights.
    pub stake: bool,
}

impl Shape {
    /// Whether the running sum `t` exists (counting mode needs it for the
    /// count, accountable mode only for the stake).
    pub fn has_sum(&self) -> bool {
        self.counting || self.stake
    }

    /// Number of constraints.
    pub fn constraints(&self) -> usize {
        4 + usize::from(self.counting) + 2 * usize::from(self.has_sum())
    }
}

/// The values of the columns at the evaluation point `ζ` that the proof
/// carries, in their encoding order. Absent columns are `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnEvaluations {
    /// `px(ζ)`.
    pub key_x: F,
    /// `py(ζ)`.
    pub key_y: F,
    /// `s(ζ)` (counting mode).
    pub selector: Option<F>,
    /// `c(ζ)` (stake).
    pub weight: Option<F>,
    /// `b(ζ)` (counting mode; the verifier computes it otherwise).
    pub bits: Option<F>,
    /// `ax(ζ)`.
    pub acc_x: F,
    /// `ay(ζ)`.
    pub acc_y: F,
    /// `t(ζ)` (when the running sum exists).
    pub sum: Option<F>,
}

impl ColumnEvaluations {
    /// The row the constraints read at `ζ`: these values, `bits = b(ζ)`
    /// (the committed column's or the public bitfield's) and the domain's
    /// selectors at `ζ`; shifted values are zero (they enter through the
    /// linearization). Absent columns read as zero: no constraint of the
    /// shape reads them.
    pub fn row_at(&self, bits: F, at: &PointEvaluations) -> RowValues {
        RowValues {
            key_x: self.key_x,
            key_y: self.key_y,
            selector: self.selector.unwrap_or(F::ZERO),
            weight: self.weight.unwrap_or(F::ZERO),
            bits,
            acc_x: self.acc_x,
            acc_y: self.acc_y,
            sum: self.sum.unwrap_or(F::ZERO),
            not_last: at.not_last,
            first: at.first_lagrange,
            last: at.last_lagrange,
            ..RowValues::default()
        }
    }

    /// The present values, in encoding order.
    pub fn to_vec(&self) -> Vec<F> {
        [
            Some(self.key_x),
            Some(self.key_y),
            self.selector,
            self.weight,
            self.bits,
            Some(self.acc_x),
            Some(self.acc_y),
            self.sum,
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// The public values the constraints refer to.
#[derive(Clone, Copy, Debug)]
pub struct Boundary {
    /// The accumulator's start, the seed `h`.
    pub seed: (F, F),
    /// The accumulator's end, `h + apk`.
    pub result: (F, F),
    /// `stake·2^32 + count`.
    pub total: F,
}

impl Boundary {
    /// The boundary of a certificate for `apk` (in G1, so `h + apk` is never
    /// the identity and has affine coordinates).
    pub fn new(apk: &KeyPoint, count: u64, stake: u64) -> Boundary {
        let seed = crate::field::seed_point();
        let result: KeyPoint = (seed + apk).into();
        let xy = |p: &KeyPoint| p.xy().expect("h + P is never the identity for P in G1");
        Boundary { seed: xy(&seed), result: xy(&result), total: packed_total(count, stake) }
    }
}

/// `stake·2^32 + count` as a field element.
pub fn packed_total(count: u64, stake: u64) -> F {
    F::from(stake) * F::from(1u64 << COUNT_BITS) + F::from(count)
}

/// Values of the columns at one point `x`, the shifted columns at `ω·x`, and
/// the domain's selectors at `x`: everything one row of the constraints reads.
#[derive(Clone, Copy, Debug, Default)]
pub struct RowValues {
    pub key_x: F,
    pub key_y: F,
    pub selector: F,
    pub weight: F,
    pub bits: F,
    pub acc_x: F,
    pub acc_y: F,
    pub sum: F,
    pub next_acc_x: F,
    pub next_acc_y: F,
    pub next_sum: F,
    /// `x - ω^(N-1)`.
    pub not_last: F,
    /// `L_0(x)`.
    pub first: F,
    /// `L_{N-1}(x)`.
    pub last: F,
}

/// The constraints split as a verifier evaluates them at `ζ`: the part that
/// does not involve the shifted columns, and the coefficients of the shifted
/// columns `ax(ωX)`, `ay(ωX)`, `t(ωX)` in each constraint (the
/// "linearization", which the verifier opens as one commitment at `ζω`).
/// The formulas are `w3f-plonk-common`'s verifier gadgets.
#[derive(Clone, Debug)]
pub struct SplitConstraints {
    /// Each constraint with its shifted values set to zero.
    pub main: Vec<F>,
    /// Per constraint, the coefficients of `(ax', ay', t')`.
    pub shifted: Vec<[F; 3]>,
}

/// Evaluates the constraints at one row, split into their main part and
/// the coefficients of the shifted values (see [`SplitConstraints`]).
pub fn split_constraints(shape: Shape, v: &RowValues, boundary: &Boundary) -> SplitConstraints {
    let mut main = Vec::with_capacity(shape.constraints());
    let mut shifted = Vec::with_capacity(shape.constraints());
    let cond_add = CondAddValues::<F, KeyPoint> {
        bitmask: v.bits,
        points: (v.key_x, v.key_y),
        not_last: v.not_last,
        acc: (v.acc_x, v.acc_y),
        _phantom: PhantomData,
    };
    main.extend(cond_add.evaluate_constraints_main());
    let (x1, y1) = cond_add.acc_coeffs_1();
    let (x2, y2) = cond_add.acc_coeffs_2();
    shifted.push([x1, y1, F::ZERO]);
    shifted.push([x2, y2, F::ZERO]);
    let weight = if shape.stake { v.weight } else { v.selector };
    if shape.has_sum() {
        let sum = InnerProdValues { a: weight, b: v.bits, not_last: v.not_last, acc: v.sum };
        main.extend(sum.evaluate_constraints_main());
        shifted.push([F::ZERO, F::ZERO, v.not_last]);
    }
    if shape.counting {
        main.push(v.bits * (v.selector - v.bits));
        shifted.push([F::ZERO; 3]);
    }
    let cells = |col: F, first: F, last: F| {
        FixedCellsValues { col, l_i: vec![v.first, v.last], col_i: vec![first, last] }.evaluate_constraints_main()
    };
    main.extend(cells(v.acc_x, boundary.seed.0, boundary.result.0));
    main.extend(cells(v.acc_y, boundary.seed.1, boundary.result.1));
    shifted.extend([[F::ZERO; 3]; 2]);
    if shape.has_sum() {
        main.extend(cells(v.sum, F::ZERO, boundary.total));
        shifted.push([F::ZERO; 3]);
    }
    debug_assert_eq!(main.len(), shape.constraints());
    SplitConstraints { main, shifted }
}

/// `Σ_k α_k C_k` at one row with its shifted values: what the prover
/// divides by the vanishing polynomial, at `3N` points per proof. Written
/// out (no allocation); a test checks it equals the split form the
/// verifier evaluates with `w3f-plonk-common`'s gadgets.
pub fn combined_constraint(shape: Shape, v: &RowValues, boundary: &Boundary, alphas: &[F]) -> F {
    let (b, x1, y1, x2, y2, x3, y3) = (v.bits, v.acc_x, v.acc_y, v.key_x, v.key_y, v.next_acc_x, v.next_acc_y);
    let not_b = F::ONE - b;
    let dx = x1 - x2;
    let dy = y2 - y1;
    let mut alpha = alphas.iter();
    let mut next = || *alpha.next().expect("one challenge per constraint");
    let mut acc = next() * (b * (dx.square() * (x1 + x2 + x3) - dy.square()) + not_b * (y3 - y1)) * v.not_last;
    acc += next() * (b * (dx * (y3 + y1) - dy * (x3 - x1)) + not_b * (x3 - x1)) * v.not_last;
    if shape.has_sum() {
        let weight = if shape.stake { v.weight } else { v.selector };
        acc += next() * (v.next_sum - v.sum - b * weight) * v.not_last;
    }
    if shape.counting {
        acc += next() * b * (v.selector - b);
    }
    acc += next() * (v.first * (x1 - boundary.seed.0) + v.last * (x1 - boundary.result.0));
    acc += next() * (v.first * (y1 - boundary.seed.1) + v.last * (y1 - boundary.result.1));
    if shape.has_sum() {
        acc += next() * (v.first * v.sum + v.last * (v.sum - boundary.total));
    }
    acc
}

/// The coefficients of `ax(X)`, `ay(X)`, `t(X)` in the linearization
/// polynomial `Σ_k α_k (coefficients of constraint k)`.
pub fn linearization_coefficients(split: &SplitConstraints, alphas: &[F]) -> [F; 3] {
    let mut out = [F::ZERO; 3];
    for (coeffs, alpha) in split.shifted.iter().zip(alphas) {
        for (o, c) in out.iter_mut().zip(coeffs) {
            *o += *alpha * c;
        }
    }
    out
}

/// `Σ_k α_k main_k`.
pub fn combined_main(split: &SplitConstraints, alphas: &[F]) -> F {
    split.main.iter().zip(alphas).map(|(m, a)| *m * a).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::UniformRand;
    use ark_std::test_rng;

    fn random_row(rng: &mut impl ark_std::rand::Rng) -> RowValues {
        let mut r = || F::rand(rng);
        RowValues {
            key_x: r(),
            key_y: r(),
            selector: r(),
            weight: r(),
            bits: r(),
            acc_x: r(),
            acc_y: r(),
            sum: r(),
            next_acc_x: r(),
            next_acc_y: r(),
            next_sum: r(),
            not_last: r(),
            first: r(),
            last: r(),
        }
    }

    /// The split form must be exactly the constraints written out by hand,
    /// for every shape: this ties the verifier's gadget formulas to the
    /// relation documented above.
    #[test]
    fn split_constraints_equal_the_documented_relation() {
        let rng = &mut test_rng();
        for (counting, stake) in [(false, false), (false, true), (true, false), (true, true)] {
            let shape = Shape { counting, stake };
            let v = random_row(rng);
            let boundary = Boundary {
                seed: (F::rand(rng), F::rand(rng)),
                result: (F::rand(rng), F::rand(rng)),
                total: F::rand(rng),
            };
            let alphas: Vec<F> = (0..shape.constraints()).map(|_| F::rand(rng)).collect();
            let (b, x1, y1, x2, y2, x3, y3) = (v.bits, v.acc_x, v.acc_y, v.key_x, v.key_y, v.next_acc_x, v.next_acc_y);
            let one = F::ONE;
            let mut expected = vec![
                (b * ((x1 - x2).square() * (x1 + x2 + x3) - (y2 - y1).square()) + (one - b) * (y3 - y1)) * v.not_last,
                (b * ((x1 - x2) * (y3 + y1) - (y2 - y1) * (x3 - x1)) + (one - b) * (x3 - x1)) * v.not_last,
            ];
            let w = if stake { v.weight } else { v.selector };
            if shape.has_sum() {
                expected.push((v.next_sum - v.sum - b * w) * v.not_last);
            }
            if counting {
                expected.push(b * (v.selector - b));
            }
            expected.push(v.first * (x1 - boundary.seed.0) + v.last * (x1 - boundary.result.0));
            expected.push(v.first * (y1 - boundary.seed.1) + v.last * (y1 - boundary.result.1));
            if shape.has_sum() {
                expected.push(v.first * v.sum + v.last * (v.sum - boundary.total));
            }
            let expected: F = expected.iter().zip(&alphas).map(|(c, a)| *c * a).sum();
            assert_eq!(combined_constraint(shape, &v, &boundary, &alphas), expected, "{shape:?}");
            let split = split_constraints(shape, &v, &boundary);
            let [cx, cy, ct] = linearization_coefficients(&split, &alphas);
            let from_split = combined_main(&split, &alphas) + cx * v.next_acc_x + cy * v.next_acc_y + ct * v.next_sum;
            assert_eq!(from_split, expected, "the verifier's split form, {shape:?}");
        }
    }

    #[test]
    fn packed_total_puts_the_stake_above_the_count() {
        assert_eq!(packed_total(5, 0), F::from(5u64));
        assert_eq!(packed_total(3, 2), F::from((2u64 << 32) + 3));
    }
}
