//! The digit table: one 16-row block per signature slot. Row `m < 13` holds
//! the six codeword digits `x_{6m} .. x_{6m+5}` (two bits each), which form
//! the 12-bit limb `L_m` of the message-hash integer, and starts every one
//! of those six chains whose digit is below 3. Row 13 receives the message
//! hash and the slot's context; rows 13..16 carry digit 3 everywhere so they
//! start nothing.
//!
//! # The big-integer check
//!
//! The message hash outputs five field elements `fe_0..fe_4`; the codeword
//! is the base-4 expansion of `acc = sum_k fe_k p^(4-k)` (156 bits). Each
//! `fe_k` is split into 12-bit limbs `f_{k,0}, f_{k,1}` and a 7-bit limb
//! `f_{k,2}` (range-checked, and canonical: `fe_k < p`). Because the limbs of
//! `p^(4-k)` are constants, limb `m` of `acc` is the *linear* form
//! `R_m = sum_{k,a} f_{k,a} c_{k,m-a}` (below 2^28) plus carries:
//!
//! ```text
//!     L_m + 2^12 C_m = R_m + C_{m-1},   C_{-1} = C_12 = 0,  0 <= C_m < 2^16
//! ```
//!
//! No term reaches p, so these field equations are integer equations and
//! `sum_m L_m 2^(12m) = acc`: the digits are exactly acc's base-4 digits.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};

use crate::bus;
use crate::config::Val;
use crate::layout::{DIGIT_BLOCK, DIGITS_PER_LIMB, IO_ROW, LIMBS, MSG_HASH, PARAM, TARGET_SUM};

/// Committed columns.
pub mod col {
    use super::*;
    pub const SIG: usize = 0;
    /// Row index within the block (copy of a periodic column).
    pub const M: usize = 1;
    /// 1 on the row receiving the message hash and context (copy of a periodic column).
    pub const IS_IO: usize = 2;
    /// Digit bits: digit `t` of the row is `BITS[2t] + 2 BITS[2t + 1]`.
    pub const BITS: usize = 3;
    /// Carry of this row's limb.
    pub const C: usize = BITS + 2 * DIGITS_PER_LIMB;
    /// Carry of the previous limb.
    pub const PC: usize = C + 1;
    /// Running digit sum.
    pub const S: usize = PC + 1;
    /// Message-hash limbs `f_{k,a}` at `F + 3k + a`.
    pub const F: usize = S + 1;
    pub const PARAM_: usize = F + 3 * MSG_HASH;
    pub const A: usize = PARAM_ + PARAM;
    pub const B: usize = A + 1;
    pub const BETA: usize = B + 1;
    /// Second tweak digit per position for chain `6m` (only chain 0 borrows).
    pub const T1: usize = BETA + 3;
    /// Canonical-check helpers.
    pub const FLAG: usize = T1 + 3;
    pub const INV: usize = FLAG + 1;
    /// Values sent to the three range lookups of the row.
    pub const RC: usize = INV + 1;
    pub const WIDTH: usize = RC + 3;
}

/// Periodic column indices (period 16).
pub(crate) mod pc {
    use super::*;
    pub const M: usize = 0;
    pub const IS_IO: usize = 1;
    pub const IS_LIMB: usize = 2;
    pub const IS_FIRST: usize = 3;
    pub const IS_LAST_LIMB: usize = 4;
    pub const COEF: usize = 5;
    /// Range-check coefficients: slot `s` checks `sum RC_F[s][j] f_j + RC_C[s] C`.
    pub const RC_F: usize = COEF + 3 * MSG_HASH;
    pub const RC_C: usize = RC_F + 3 * 3 * MSG_HASH;
    pub const CANON: usize = RC_C + 3;
    pub const IS_BLOCK_END: usize = CANON + MSG_HASH;
    pub const N_IS_LIMB: usize = IS_BLOCK_END + 1;
    pub const N_IS_FIRST: usize = N_IS_LIMB + 1;
    pub const WIDTH: usize = N_IS_FIRST + 1;
}

/// Pairs (committed column, periodic column) that must agree on every row.
pub const MIRRORS: [(usize, usize); 2] = [(col::M, pc::M), (col::IS_IO, pc::IS_IO)];

/// Limbs of `p^e` in base 2^12, least significant first.
pub fn power_limbs(e: u32) -> Vec<u32> {
    let p = u128::from(sigagg_koalabear::field::P);
    // p^4 < 2^124 fits in u128.
    let mut v = p.pow(e);
    let mut limbs = Vec::new();
    while v > 0 || limbs.is_empty() {
        limbs.push((v & 0xfff) as u32);
        v >>= 12;
    }
    limbs
}

/// The coefficient of `f_{k,a}` in limb `m` of `sum_k fe_k p^(4-k)`.
pub fn limb_coefficient(m: usize, k: usize, a: usize) -> u32 {
    let limbs = power_limbs((MSG_HASH - 1 - k) as u32);
    m.checked_sub(a).and_then(|n| limbs.get(n).copied()).unwrap_or(0)
}

/// What range-lookup slot `s` of block row `r` checks: the limb's carry
/// (`Some(None)`), a multiple `scale * f_{k,a}` (`Some(Some((k, a, scale)))`),
/// or nothing (`None`: the slot checks the constant 0).
///
/// Every 12-bit limb is checked twice, as `v` and `16 v` (both below 2^16
/// means `v < 2^12`), the 7-bit limbs as `v` and `512 v`.
pub fn range_check_at(r: usize, s: usize) -> Option<Option<(usize, usize, u32)>> {
    if s == 0 {
        return (r < LIMBS).then_some(None);
    }
    let j = 2 * r + (s - 1);
    if j >= 2 * 3 * MSG_HASH {
        return None;
    }
    let (limb, second) = (j / 2, j % 2 == 1);
    let (k, a) = (limb / 3, limb % 3);
    let scale = match (second, a) {
        (false, _) => 1,
        (true, 2) => 1 << 9,
        (true, _) => 1 << 4,
    };
    Some(Some((k, a, scale)))
}

/// The digit table's AIR.
#[derive(Clone, Debug)]
pub struct DigitAir {
    columns: Vec<Vec<Val>>,
}

impl Default for DigitAir {
    fn default() -> Self {
        Self::new()
    }
}

impl DigitAir {
    /// Builds the constant periodic columns.
    pub fn new() -> Self {
        assert_eq!(LIMBS * DIGITS_PER_LIMB, crate::layout::NUM_CHAINS);
        let columns = super::periodic_table(DIGIT_BLOCK, pc::WIDTH, |r, row| {
            let next = (r + 1) % DIGIT_BLOCK;
            row[pc::M] = Val::from_usize(r);
            row[pc::IS_IO] = Val::from_bool(r == IO_ROW);
            row[pc::IS_LIMB] = Val::from_bool(r < LIMBS);
            row[pc::IS_FIRST] = Val::from_bool(r == 0);
            row[pc::IS_LAST_LIMB] = Val::from_bool(r == LIMBS - 1);
            if r < LIMBS {
                for k in 0..MSG_HASH {
                    for a in 0..3 {
                        row[pc::COEF + 3 * k + a] = Val::from_u32(limb_coefficient(r, k, a));
                    }
                }
            }
            for s in 0..3 {
                match range_check_at(r, s) {
                    Some(None) => row[pc::RC_C + s] = Val::ONE,
                    Some(Some((k, a, scale))) => {
                        row[pc::RC_F + 3 * MSG_HASH * s + 3 * k + a] = Val::from_u32(scale);
                    }
                    None => {}
                }
            }
            if r < MSG_HASH {
                row[pc::CANON + r] = Val::ONE;
            }
            row[pc::IS_BLOCK_END] = Val::from_bool(r == DIGIT_BLOCK - 1);
            row[pc::N_IS_LIMB] = Val::from_bool(next < LIMBS);
            row[pc::N_IS_FIRST] = Val::from_bool(next == 0);
        });
        Self { columns }
    }

    /// Value of periodic column `c` at row `r`.
    pub(crate) fn periodic(&self, c: usize, r: usize) -> Val {
        self.columns[c][r % DIGIT_BLOCK]
    }
}

impl BaseAir<Val> for DigitAir {
    fn width(&self) -> usize {
        col::WIDTH
    }

    fn num_periodic_columns(&self) -> usize {
        pc::WIDTH
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        let mut cols: Vec<usize> = (col::BITS..col::T1).collect();
        cols.push(col::SIG);
        cols
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for DigitAir {
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let (loc, nxt) = (main.current_slice(), main.next_slice());
        let l = |c: usize| -> AB::Expr { loc[c].into() };
        let n = |c: usize| -> AB::Expr { nxt[c].into() };
        let p: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let one = AB::Expr::ONE;
        let digit =
            |get: &dyn Fn(usize) -> AB::Expr, t: usize| get(col::BITS + 2 * t) + get(col::BITS + 2 * t + 1).double();
        let digit_sum =
            |get: &dyn Fn(usize) -> AB::Expr| -> AB::Expr { (0..DIGITS_PER_LIMB).map(|t| digit(get, t)).sum() };

        for (c, pcol) in MIRRORS {
            builder.assert_eq(l(c), p[pcol].clone());
        }

        // Digits: two bits each; rows past the limbs hold digit 3 (no chain).
        for b in 0..2 * DIGITS_PER_LIMB {
            builder.assert_bool(l(col::BITS + b));
            builder.assert_zero((one.clone() - p[pc::IS_LIMB].clone()) * (l(col::BITS + b) - one.clone()));
        }

        // Limb equation L_m + 2^12 C_m = R_m + C_{m-1}.
        let limb: AB::Expr = (0..DIGITS_PER_LIMB).map(|t| digit(&l, t) * AB::Expr::from_u32(1 << (2 * t))).sum();
        let product: AB::Expr = (0..3 * MSG_HASH).map(|j| p[pc::COEF + j].clone() * l(col::F + j)).sum();
        builder.assert_zero(
            p[pc::IS_LIMB].clone() * (limb + l(col::C) * AB::Expr::from_u32(1 << 12) - product - l(col::PC)),
        );
        builder.assert_zero(p[pc::IS_FIRST].clone() * l(col::PC));
        builder.assert_zero(p[pc::IS_LAST_LIMB].clone() * l(col::C));

        // Digit sum over the limbs of the block.
        builder.when_first_row().assert_eq(l(col::S), digit_sum(&l));
        builder.when_first_row().assert_zero(l(col::SIG));
        let mut t = builder.when_transition();
        t.assert_zero(p[pc::N_IS_LIMB].clone() * (one.clone() - p[pc::N_IS_FIRST].clone()) * (n(col::PC) - l(col::C)));
        t.assert_eq(
            n(col::S),
            (one.clone() - p[pc::N_IS_FIRST].clone()) * l(col::S) + p[pc::N_IS_LIMB].clone() * digit_sum(&n),
        );
        t.assert_eq(n(col::SIG), l(col::SIG) + p[pc::IS_BLOCK_END].clone());
        // Per-slot values are constant over the block.
        for c in (col::F..col::F + 3 * MSG_HASH).chain(col::PARAM_..col::T1) {
            t.assert_zero((one.clone() - p[pc::IS_BLOCK_END].clone()) * (n(c) - l(c)));
        }
        builder.assert_zero(p[pc::IS_LAST_LIMB].clone() * (l(col::S) - AB::Expr::from_usize(TARGET_SUM)));

        // Second tweak digit per position: chain 0 may borrow (see statement.rs).
        for k in 0..3 {
            builder.assert_eq(l(col::T1 + k), l(col::A) - p[pc::IS_FIRST].clone() * l(col::BETA + k));
        }

        // Canonical message-hash elements: f_{k,2} = 127 forces the low limbs to zero.
        builder.assert_bool(l(col::FLAG));
        for k in 0..MSG_HASH {
            let sel = p[pc::CANON + k].clone();
            let top = l(col::F + 3 * k + 2) - AB::Expr::from_u32(127);
            let low = l(col::F + 3 * k) + l(col::F + 3 * k + 1) * AB::Expr::from_u32(1 << 12);
            builder.assert_zero(sel.clone() * top.clone() * l(col::FLAG));
            builder.assert_zero(sel.clone() * (top * l(col::INV) - one.clone() + l(col::FLAG)));
            builder.assert_zero(sel * l(col::FLAG) * low);
        }

        // The range-checked values.
        for s in 0..3 {
            let value: AB::Expr =
                (0..3 * MSG_HASH).map(|j| p[pc::RC_F + 3 * MSG_HASH * s + j].clone() * l(col::F + j)).sum::<AB::Expr>()
                    + p[pc::RC_C + s].clone() * l(col::C);
            builder.assert_eq(l(col::RC + s), value);
        }

        // Bus: start the row's chains; receive the message hash and context.
        let sig = l(col::SIG);
        let param: [AB::Expr; PARAM] = core::array::from_fn(|i| l(col::PARAM_ + i));
        for t in 0..DIGITS_PER_LIMB {
            let i = l(col::M) * AB::Expr::from_usize(DIGITS_PER_LIMB) + AB::Expr::from_usize(t);
            let k0 = l(col::B) * AB::Expr::from_u32(1 << 24) - l(col::A) + i.clone() * AB::Expr::from_u32(1 << 16);
            let t1: [AB::Expr; 3] = core::array::from_fn(|k| if t == 0 { l(col::T1 + k) } else { l(col::A) });
            let starts = one.clone() - l(col::BITS + 2 * t) * l(col::BITS + 2 * t + 1);
            builder.push_interaction(
                bus::MAIN,
                bus::chain_start(sig.clone(), i, digit(&l, t) + one.clone(), param.clone(), k0, t1),
                -Count::bounded(starts, 1),
            );
        }
        let fe: [AB::Expr; MSG_HASH] = core::array::from_fn(|k| {
            l(col::F + 3 * k)
                + l(col::F + 3 * k + 1) * AB::Expr::from_u32(1 << 12)
                + l(col::F + 3 * k + 2) * AB::Expr::from_u32(1 << 24)
        });
        let beta: [AB::Expr; 3] = core::array::from_fn(|k| l(col::BETA + k));
        builder.push_interaction(bus::MAIN, bus::message_hash(sig.clone(), fe), Count::bounded(l(col::IS_IO), 1));
        builder.push_interaction(
            bus::MAIN,
            bus::context(sig, param, l(col::A), l(col::B), beta),
            Count::bounded(l(col::IS_IO), 1),
        );
        for s in 0..3 {
            builder.push_interaction(bus::RANGE, [l(col::RC + s)], -1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limb_coefficients_reassemble_the_powers() {
        for k in 0..MSG_HASH {
            let e = (MSG_HASH - 1 - k) as u32;
            let want = u128::from(sigagg_koalabear::field::P).pow(e);
            // p^4 < 2^124: limbs 0..=10; the others must be zero.
            let got: u128 = (0..11).map(|m| u128::from(limb_coefficient(m, k, 0)) << (12 * m)).sum();
            assert_eq!(got, want);
            assert!((11..LIMBS).all(|m| limb_coefficient(m, k, 0) == 0));
        }
    }

    #[test]
    fn range_checks_cover_every_limb_twice_and_every_carry() {
        let mut fe = [[0usize; 3]; MSG_HASH];
        let mut carries = 0;
        for r in 0..DIGIT_BLOCK {
            for s in 0..3 {
                match range_check_at(r, s) {
                    Some(None) => carries += 1,
                    Some(Some((k, a, _))) => fe[k][a] += 1,
                    None => {}
                }
            }
        }
        assert_eq!(carries, LIMBS);
        assert!(fe.iter().flatten().all(|&c| c == 2));
    }
}
