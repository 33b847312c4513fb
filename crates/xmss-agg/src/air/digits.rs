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
use p3_lookup::InteractionBuilder;

use crate::bus;
use crate::config::Val;
use crate::layout::{DIGIT_BLOCK, DIGITS_PER_LIMB, IO_ROW, LIMBS, MSG_HASH, PARAM, TARGET_SUM};
use sigagg_prover::gadgets::bus::once;
use sigagg_prover::gadgets::range::recompose;
use sigagg_prover::typed_row;

typed_row! {
    /// The committed columns of one row.
    pub struct DigitCols<T> {
        /// Slot counter.
        pub sig: T,
        /// Row index within the block (copy of a periodic column).
        pub m: T,
        /// 1 on the row receiving the message hash and context (copy of a periodic column).
        pub is_io: T,
        /// Digit bits: digit `t` of the row is `bits[2t] + 2 bits[2t + 1]`.
        pub bits: [T; 2 * DIGITS_PER_LIMB],
        /// Carry `C_m` of this row's limb.
        pub carry: T,
        /// Carry `C_{m-1}` of the previous limb.
        pub prev_carry: T,
        /// Running digit sum.
        pub sum: T,
        /// Message-hash limbs `f_{k,a}` at `3k + a`.
        pub f: [T; 3 * MSG_HASH],
        /// The slot's public parameter.
        pub param: [T; PARAM],
        /// Chain-tweak part `a` (see `statement::chain_tweak_parts`).
        pub a: T,
        /// Chain-tweak part `b`.
        pub b: T,
        /// Chain-tweak borrow bits.
        pub beta: [T; 3],
        /// Second tweak digit per position for chain `6m` (only chain 0 borrows).
        pub t1: [T; 3],
        /// Canonical-check flag: 1 when `f_{k,2} = 127` (on row `k`).
        pub flag: T,
        /// Canonical-check witness: the inverse of `f_{k,2} - 127`, or 0.
        pub inv: T,
        /// Values sent to the three range lookups of the row.
        pub rc: [T; 3],
    }
}

typed_row! {
    /// The periodic columns of one block row (period [`DIGIT_BLOCK`]).
    pub(crate) struct DigitPeriodic<T> {
        /// Row index within the block.
        pub m: T,
        /// The row receiving the message hash and context ([`IO_ROW`]).
        pub is_io: T,
        /// The row holds a limb (`m < LIMBS`).
        pub is_limb: T,
        /// The block's first row.
        pub is_first: T,
        /// The last limb's row.
        pub is_last_limb: T,
        /// Coefficient of `f_{k,a}` (at `3k + a`) in this row's limb.
        pub coef: [T; 3 * MSG_HASH],
        /// Range-check coefficients: slot `s` checks `sum rc_f[s][j] f_j + rc_c[s] carry`.
        pub rc_f: [[T; 3 * MSG_HASH]; 3],
        /// See `rc_f`.
        pub rc_c: [T; 3],
        /// `canon[k]`: this row checks that `fe_k` is canonical.
        pub canon: [T; MSG_HASH],
        /// The block's last row.
        pub is_block_end: T,
        /// The next row holds a limb.
        pub n_is_limb: T,
        /// The next row starts a block.
        pub n_is_first: T,
    }
}

/// Committed column offsets, from [`DigitCols`] (trace corruptions in the
/// tests and the next-row declaration use them).
pub mod col {
    use super::DigitCols;
    use core::mem::offset_of;
    pub const SIG: usize = offset_of!(DigitCols<u8>, sig);
    pub const M: usize = offset_of!(DigitCols<u8>, m);
    pub const IS_IO: usize = offset_of!(DigitCols<u8>, is_io);
    pub const BITS: usize = offset_of!(DigitCols<u8>, bits);
    pub const C: usize = offset_of!(DigitCols<u8>, carry);
    pub const PC: usize = offset_of!(DigitCols<u8>, prev_carry);
    pub const S: usize = offset_of!(DigitCols<u8>, sum);
    pub const F: usize = offset_of!(DigitCols<u8>, f);
    pub const PARAM_: usize = offset_of!(DigitCols<u8>, param);
    pub const A: usize = offset_of!(DigitCols<u8>, a);
    pub const B: usize = offset_of!(DigitCols<u8>, b);
    pub const BETA: usize = offset_of!(DigitCols<u8>, beta);
    pub const T1: usize = offset_of!(DigitCols<u8>, t1);
    pub const FLAG: usize = offset_of!(DigitCols<u8>, flag);
    pub const INV: usize = offset_of!(DigitCols<u8>, inv);
    pub const RC: usize = offset_of!(DigitCols<u8>, rc);
    pub const WIDTH: usize = DigitCols::<u8>::WIDTH;
}

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
        let columns = super::periodic_table(DIGIT_BLOCK, DigitPeriodic::<Val>::WIDTH, |r, row| {
            DigitPeriodic::update(row, |p| {
                let next = (r + 1) % DIGIT_BLOCK;
                p.m = Val::from_usize(r);
                p.is_io = Val::from_bool(r == IO_ROW);
                p.is_limb = Val::from_bool(r < LIMBS);
                p.is_first = Val::from_bool(r == 0);
                p.is_last_limb = Val::from_bool(r == LIMBS - 1);
                if r < LIMBS {
                    for k in 0..MSG_HASH {
                        for a in 0..3 {
                            p.coef[3 * k + a] = Val::from_u32(limb_coefficient(r, k, a));
                        }
                    }
                }
                for s in 0..3 {
                    match range_check_at(r, s) {
                        Some(None) => p.rc_c[s] = Val::ONE,
                        Some(Some((k, a, scale))) => p.rc_f[s][3 * k + a] = Val::from_u32(scale),
                        None => {}
                    }
                }
                if r < MSG_HASH {
                    p.canon[r] = Val::ONE;
                }
                p.is_block_end = Val::from_bool(r == DIGIT_BLOCK - 1);
                p.n_is_limb = Val::from_bool(next < LIMBS);
                p.n_is_first = Val::from_bool(next == 0);
            });
        });
        Self { columns }
    }

    /// The periodic columns at row `r`.
    pub(crate) fn periodic_row(&self, r: usize) -> DigitPeriodic<Val> {
        let cells: Vec<Val> = self.columns.iter().map(|c| c[r % DIGIT_BLOCK]).collect();
        DigitPeriodic::from_slice(&cells)
    }
}

impl BaseAir<Val> for DigitAir {
    fn width(&self) -> usize {
        col::WIDTH
    }

    fn num_periodic_columns(&self) -> usize {
        DigitPeriodic::<Val>::WIDTH
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

/// Digit `t` of a row: `bits[2t] + 2 bits[2t + 1]`.
fn digit<E: PrimeCharacteristicRing>(row: &DigitCols<E>, t: usize) -> E {
    recompose([row.bits[2 * t].clone(), row.bits[2 * t + 1].clone()], 1)
}

/// The sum of a row's digits.
fn digit_sum<E: PrimeCharacteristicRing>(row: &DigitCols<E>) -> E {
    (0..DIGITS_PER_LIMB).map(|t| digit(row, t)).sum()
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for DigitAir {
    /// The gadgets below, in this order (the order fixes the constraints'
    /// and messages' positions, hence the proof bytes).
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row.iter().map(|&v| v.into()).collect() };
        let loc = DigitCols::from_slice(&exprs(main.current_slice()));
        let nxt = DigitCols::from_slice(&exprs(main.next_slice()));
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let p = DigitPeriodic::from_slice(&periodic);

        eval_mirrors(builder, &loc, &p);
        eval_digits(builder, &loc, &p);
        eval_limbs(builder, &loc, &p);
        eval_block(builder, &loc, &nxt, &p);
        eval_tweak(builder, &loc, &p);
        eval_canonical(builder, &loc, &p);
        eval_range_values(builder, &loc, &p);
        start_chains(builder, &loc);
        receive_slot(builder, &loc);
        send_range_checks(builder, &loc);
    }
}

/// The committed copies of the row index and the I/O flag equal their
/// periodic columns (bus messages and counts must use committed cells).
fn eval_mirrors<AB: AirBuilder>(builder: &mut AB, loc: &DigitCols<AB::Expr>, p: &DigitPeriodic<AB::Expr>) {
    builder.assert_eq(loc.m.clone(), p.m.clone());
    builder.assert_eq(loc.is_io.clone(), p.is_io.clone());
}

/// Every digit bit is a bit, and rows past the limbs hold digit 3 (both
/// bits 1), so they start no chain.
fn eval_digits<AB: AirBuilder>(builder: &mut AB, loc: &DigitCols<AB::Expr>, p: &DigitPeriodic<AB::Expr>) {
    let one = AB::Expr::ONE;
    for bit in &loc.bits {
        builder.assert_bool(bit.clone());
        builder.assert_zero((one.clone() - p.is_limb.clone()) * (bit.clone() - one.clone()));
    }
}

/// The big-integer check of a limb row: `L_m + 2^12 C_m = R_m + C_{m-1}`
/// (the module docs), with no carry into the first limb and none out of
/// the last.
fn eval_limbs<AB: AirBuilder>(builder: &mut AB, loc: &DigitCols<AB::Expr>, p: &DigitPeriodic<AB::Expr>) {
    let limb = recompose((0..DIGITS_PER_LIMB).map(|t| digit(loc, t)), 2);
    let product: AB::Expr = p.coef.iter().zip(&loc.f).map(|(c, f)| c.clone() * f.clone()).sum();
    builder.assert_zero(
        p.is_limb.clone() * (limb + loc.carry.clone() * AB::Expr::from_u32(1 << 12) - product - loc.prev_carry.clone()),
    );
    builder.assert_zero(p.is_first.clone() * loc.prev_carry.clone());
    builder.assert_zero(p.is_last_limb.clone() * loc.carry.clone());
}

/// What ties the rows of a block together: the running digit sum (which
/// must reach [`TARGET_SUM`] on the last limb), each limb's carry passed to
/// the next, the slot counter stepping at block ends, and the slot's values
/// (hash limbs, parameter, tweak parts) constant over the block.
fn eval_block<AB: AirBuilder>(
    builder: &mut AB,
    loc: &DigitCols<AB::Expr>,
    nxt: &DigitCols<AB::Expr>,
    p: &DigitPeriodic<AB::Expr>,
) {
    let one = AB::Expr::ONE;
    builder.when_first_row().assert_eq(loc.sum.clone(), digit_sum(loc));
    builder.when_first_row().assert_zero(loc.sig.clone());
    let mut t = builder.when_transition();
    t.assert_zero(
        p.n_is_limb.clone() * (one.clone() - p.n_is_first.clone()) * (nxt.prev_carry.clone() - loc.carry.clone()),
    );
    t.assert_eq(
        nxt.sum.clone(),
        (one.clone() - p.n_is_first.clone()) * loc.sum.clone() + p.n_is_limb.clone() * digit_sum(nxt),
    );
    t.assert_eq(nxt.sig.clone(), loc.sig.clone() + p.is_block_end.clone());
    // In column order: f, param, a, b, beta.
    let slot_values = |row: &DigitCols<AB::Expr>| -> Vec<AB::Expr> {
        row.f.iter().chain(&row.param).chain([&row.a, &row.b]).chain(&row.beta).cloned().collect()
    };
    for (n, l) in slot_values(nxt).into_iter().zip(slot_values(loc)) {
        t.assert_zero((one.clone() - p.is_block_end.clone()) * (n - l));
    }
    builder.assert_zero(p.is_last_limb.clone() * (loc.sum.clone() - AB::Expr::from_usize(TARGET_SUM)));
}

/// The second tweak digit per position: `a`, except that chain 0 (first
/// row) may borrow `beta` (see statement.rs).
fn eval_tweak<AB: AirBuilder>(builder: &mut AB, loc: &DigitCols<AB::Expr>, p: &DigitPeriodic<AB::Expr>) {
    for k in 0..3 {
        builder.assert_eq(loc.t1[k].clone(), loc.a.clone() - p.is_first.clone() * loc.beta[k].clone());
    }
}

/// Canonical message-hash elements (`fe_k < p`): on row `k`, a top limb
/// `f_{k,2} = 127` forces the two low limbs to zero (`flag` is 1 exactly
/// then, `inv` inverts `f_{k,2} - 127` otherwise).
fn eval_canonical<AB: AirBuilder>(builder: &mut AB, loc: &DigitCols<AB::Expr>, p: &DigitPeriodic<AB::Expr>) {
    let one = AB::Expr::ONE;
    builder.assert_bool(loc.flag.clone());
    for k in 0..MSG_HASH {
        let sel = p.canon[k].clone();
        let top = loc.f[3 * k + 2].clone() - AB::Expr::from_u32(127);
        let low = recompose([loc.f[3 * k].clone(), loc.f[3 * k + 1].clone()], 12);
        builder.assert_zero(sel.clone() * top.clone() * loc.flag.clone());
        builder.assert_zero(sel.clone() * (top * loc.inv.clone() - one.clone() + loc.flag.clone()));
        builder.assert_zero(sel * loc.flag.clone() * low);
    }
}

/// The three range-checked values of the row ([`range_check_at`]): a
/// carry, or a (scaled) hash limb, or 0.
fn eval_range_values<AB: AirBuilder>(builder: &mut AB, loc: &DigitCols<AB::Expr>, p: &DigitPeriodic<AB::Expr>) {
    for s in 0..3 {
        let value: AB::Expr = p.rc_f[s].iter().zip(&loc.f).map(|(c, f)| c.clone() * f.clone()).sum::<AB::Expr>()
            + p.rc_c[s].clone() * loc.carry.clone();
        builder.assert_eq(loc.rc[s].clone(), value);
    }
}

/// Starts the row's six chains (chain `6m + t` at position `digit + 1`,
/// with its tweak), each only if its digit is below 3.
fn start_chains<AB: InteractionBuilder<F = Val>>(builder: &mut AB, loc: &DigitCols<AB::Expr>) {
    let one = AB::Expr::ONE;
    for t in 0..DIGITS_PER_LIMB {
        let i = loc.m.clone() * AB::Expr::from_usize(DIGITS_PER_LIMB) + AB::Expr::from_usize(t);
        let k0 = loc.b.clone() * AB::Expr::from_u32(1 << 24) - loc.a.clone() + i.clone() * AB::Expr::from_u32(1 << 16);
        let t1: [AB::Expr; 3] = core::array::from_fn(|k| if t == 0 { loc.t1[k].clone() } else { loc.a.clone() });
        let starts = one.clone() - loc.bits[2 * t].clone() * loc.bits[2 * t + 1].clone();
        builder.push_interaction(
            bus::MAIN,
            bus::chain_start(loc.sig.clone(), i, digit(loc, t) + one.clone(), loc.param.clone(), k0, t1),
            -once(starts),
        );
    }
}

/// The I/O row receives the slot's message hash (reassembled from its
/// limbs) from the hash table and its context from the statement table.
fn receive_slot<AB: InteractionBuilder<F = Val>>(builder: &mut AB, loc: &DigitCols<AB::Expr>) {
    let fe: [AB::Expr; MSG_HASH] = core::array::from_fn(|k| recompose(loc.f[3 * k..3 * k + 3].iter().cloned(), 12));
    let (sig, param, beta) = (loc.sig.clone(), loc.param.clone(), loc.beta.clone());
    builder.push_interaction(bus::MAIN, bus::message_hash(sig.clone(), fe), once(loc.is_io.clone()));
    builder.push_interaction(
        bus::MAIN,
        bus::context(sig, param, loc.a.clone(), loc.b.clone(), beta),
        once(loc.is_io.clone()),
    );
}

/// Sends the row's three range-checked values to the range table.
fn send_range_checks<AB: InteractionBuilder<F = Val>>(builder: &mut AB, loc: &DigitCols<AB::Expr>) {
    for rc in &loc.rc {
        builder.push_interaction(bus::RANGE, [rc.clone()], -1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed rows keep the offsets the integer modules had.
    #[test]
    fn typed_rows_keep_the_former_offsets() {
        let (bits, c) = (3, 3 + 2 * DIGITS_PER_LIMB);
        let (f, param) = (c + 3, c + 3 + 3 * MSG_HASH);
        let (a, t1) = (param + PARAM, param + PARAM + 5);
        let iota: Vec<usize> = (0..DigitCols::<usize>::WIDTH).collect();
        let row = DigitCols::from_slice(&iota);
        assert_eq!(DigitCols::<usize>::WIDTH, t1 + 3 + 2 + 3);
        assert_eq!((row.sig, row.m, row.is_io, row.bits[0]), (0, 1, 2, bits));
        assert_eq!((row.carry, row.prev_carry, row.sum, row.f[0]), (c, c + 1, c + 2, f));
        assert_eq!((row.param[0], row.a, row.b, row.beta[0], row.t1[0]), (param, a, a + 1, a + 2, t1));
        assert_eq!((row.flag, row.inv, row.rc[0], row.rc[2]), (t1 + 3, t1 + 4, t1 + 5, t1 + 7));
        assert_eq!((col::C, col::F, col::BITS, col::T1, col::WIDTH), (c, f, bits, t1, t1 + 8));

        let (coef, rc_f) = (5, 5 + 3 * MSG_HASH);
        let (rc_c, canon) = (rc_f + 9 * MSG_HASH, rc_f + 9 * MSG_HASH + 3);
        let iota: Vec<usize> = (0..DigitPeriodic::<usize>::WIDTH).collect();
        let p = DigitPeriodic::from_slice(&iota);
        assert_eq!(DigitPeriodic::<usize>::WIDTH, canon + MSG_HASH + 3);
        assert_eq!((p.m, p.is_io, p.is_limb, p.is_first, p.is_last_limb), (0, 1, 2, 3, 4));
        assert_eq!(
            (p.coef[0], p.rc_f[0][0], p.rc_f[1][0], p.rc_f[2][0]),
            (coef, rc_f, rc_f + 3 * MSG_HASH, rc_f + 6 * MSG_HASH)
        );
        assert_eq!((p.rc_c[0], p.canon[0], p.is_block_end), (rc_c, canon, canon + MSG_HASH));
        assert_eq!((p.n_is_limb, p.n_is_first), (canon + MSG_HASH + 1, canon + MSG_HASH + 2));
    }

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
