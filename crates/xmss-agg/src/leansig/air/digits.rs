//! The leanSig family's digit table: one block of [`Shape::digit_block`]
//! rows per signature slot (LeanSigProd: 8, Test: 2).
//!
//! Row `k < outputs` splits message-hash output `a_k` as
//! `a_k = 127 d_k + r_k` ([`crate::scheme::hypercube_split`]), with `d_k`'s
//! [`Z`] base-8 digits held as three committed bits each. Digit `j` of row
//! `k` is the start position of chain `i = 8k + j` when `i < chains`; each
//! such chain whose digit is below 7 is started on the bus
//! ([`bus::chain_start`], at position `digit + 1`). Digits of the last
//! output past the chains (LeanSigProd: 2, Test: 4) start nothing and do
//! not count in the sum, but they are bits all the same: they bound `d_k`.
//! Row [`Shape::io_row`] receives the slot's message hash and context;
//! the rows after it are padding and carry no message.
//!
//! # Why the split is the native one
//!
//! Every digit is three booleans, so `0 <= d_k <= 8^8 - 1 = 2^24 - 1`
//! as an integer. `r_k` is looked up in the 16-bit range table twice, as
//! `r_k` and as `r_k + 2^16 - 127`: the first lookup makes `r_k` an
//! integer in `[0, 2^16)`, so the second value is the integer
//! `r_k + 65409 < 2^17 < p`, which lies in `[0, 2^16)` only if `r_k < 127`.
//! Then `127 d_k + r_k <= 127 (2^24 - 1) + 126 = 127 2^24 - 1 = p - 2`: the
//! field equation `a_k = 127 d_k + r_k` is an integer equation with
//! `0 <= r_k < 127`, so `(d_k, r_k)` is the Euclidean division of the
//! canonical `a_k` by 127 (unique), hence `d_k`'s digits are the native
//! codeword's ([`sigagg_xmss::hash::codeword`]), and `a_k <= p - 2` means
//! the hash did not abort (it aborts on `a_k = p - 1 = 127 2^24`). The
//! non-Euclidean split `a_k = 127 (d_k - 1) + (r_k + 127)` is exactly what
//! the second lookup rejects.
//!
//! # The sum and the counts
//!
//! The running sum adds at most `8 * 7 * 6 = 336` per block, far below
//! `p`, so `sum = target_sum` on the I/O row is the integer target-sum
//! check. A chain start's count is `-real_j (1 - full_j)`, with `real_j`
//! the committed mirror of the periodic "chain `8k + j` exists" mask and
//! `full_j = b0 b1 b2 = [digit_j = 7]`: 0 or 1 on every row, so each
//! message is sent at most once per row ([`once`]). A chain whose digit is
//! 7 starts nothing: its end is the signature's own value, which the
//! width-24 table reads where no chain table row sends it.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};

use super::super::bus;
use super::super::layout::{BASE, MAX_OUTPUTS, PARAM, Q, Shape, Z};
use super::super::slot::SlotWitness;
use crate::bus::{MAIN, RANGE};
use crate::config::Val;
use crate::scheme::hypercube_split;
use sigagg_prover::gadgets::bus::once;
use sigagg_prover::gadgets::range::{bits, lookup_below, recompose};
use sigagg_prover::{periodic_table, typed_row};

/// Bits per digit (`BASE = 2^3`).
const DIGIT_BITS: usize = 3;
/// `2^16 - Q`: `r + OFFSET < 2^16` iff `r < Q` (for `r < 2^16`).
const OFFSET: u32 = (1 << 16) - Q;

typed_row! {
    /// The committed columns of one row. The first seven fields (up to
    /// `ts`) are read on the next row too ([`DigitAir::main_next_row_columns`]).
    pub struct DigitCols<T> {
        /// Slot counter: 0 in the first block, then one more per block.
        pub sig: T,
        /// Sum of the real chains' digits on the block's earlier rows.
        pub sum: T,
        /// The slot's message-hash outputs (the first `outputs` are used),
        /// constant over the block.
        pub outputs: [T; MAX_OUTPUTS],
        /// The slot's hash parameter, constant over the block.
        pub param: [T; PARAM],
        /// Chain-tweak part `cb = b 2^24 - a` ([`bus`]), constant over the block.
        pub cb: T,
        /// Chain-tweak part `a`, constant over the block.
        pub a: T,
        /// Chain-tweak part `ts = -t*`, constant over the block.
        pub ts: T,
        /// Row index within the block (mirror of a periodic column).
        pub m: T,
        /// 1 on the I/O row (mirror of a periodic column).
        pub is_io: T,
        /// `real[j]`: digit `j` of this row is a chain's (mirror of a periodic column).
        pub real: [T; Z],
        /// Digit `j` is `bits[j][0] + 2 bits[j][1] + 4 bits[j][2]`.
        pub bits: [[T; DIGIT_BITS]; Z],
        /// `full[j] = [digit j = 7]`: chain `8m + j` starts nothing.
        pub full: [T; Z],
        /// The remainder `r` of the row's output: `a_m = 127 d + r`.
        pub r: T,
    }
}

typed_row! {
    /// The periodic columns of one block row (period [`Shape::digit_block`]).
    pub(crate) struct DigitPeriodic<T> {
        /// Row index within the block.
        pub m: T,
        /// The row receiving the message hash and context ([`Shape::io_row`]).
        pub is_io: T,
        /// The block's first row.
        pub is_first: T,
        /// The block's last row.
        pub is_block_end: T,
        /// One-hot: `sel[k]` is 1 on row `k < outputs`, which splits output `k`.
        pub sel: [T; MAX_OUTPUTS],
        /// `real[j]`: chain `8m + j` exists (`m < outputs`, `8m + j < chains`).
        pub real: [T; Z],
    }
}

/// Committed column offsets, from [`DigitCols`] (trace corruptions in the
/// tests and the next-row declaration use them).
pub mod col {
    use super::DigitCols;
    use core::mem::offset_of;
    pub const SIG: usize = offset_of!(DigitCols<u8>, sig);
    pub const SUM: usize = offset_of!(DigitCols<u8>, sum);
    pub const OUTPUTS: usize = offset_of!(DigitCols<u8>, outputs);
    pub const PARAM: usize = offset_of!(DigitCols<u8>, param);
    pub const CB: usize = offset_of!(DigitCols<u8>, cb);
    pub const A: usize = offset_of!(DigitCols<u8>, a);
    pub const TS: usize = offset_of!(DigitCols<u8>, ts);
    pub const M: usize = offset_of!(DigitCols<u8>, m);
    pub const IS_IO: usize = offset_of!(DigitCols<u8>, is_io);
    pub const REAL: usize = offset_of!(DigitCols<u8>, real);
    pub const BITS: usize = offset_of!(DigitCols<u8>, bits);
    pub const FULL: usize = offset_of!(DigitCols<u8>, full);
    pub const R: usize = offset_of!(DigitCols<u8>, r);
    pub const WIDTH: usize = DigitCols::<u8>::WIDTH;
}

/// The leanSig digit table's AIR for one set's [`Shape`].
#[derive(Clone, Debug)]
pub struct DigitAir {
    shape: Shape,
    columns: Vec<Vec<Val>>,
}

impl DigitAir {
    /// The table of `shape`, with its periodic columns.
    ///
    /// # Panics
    /// If the shape's outputs do not hold its chains in [`Z`]-digit rows
    /// before the I/O row (a layout bug).
    pub fn new(shape: Shape) -> Self {
        assert!(shape.outputs <= MAX_OUTPUTS && Z * shape.outputs >= shape.chains);
        assert!(shape.io_row() < shape.digit_block && BASE == 1 << DIGIT_BITS);
        let columns = periodic_table(shape.digit_block, DigitPeriodic::<Val>::WIDTH, |r, row| {
            DigitPeriodic::update(row, |p| {
                p.m = Val::from_usize(r);
                p.is_io = Val::from_bool(r == shape.io_row());
                p.is_first = Val::from_bool(r == 0);
                p.is_block_end = Val::from_bool(r + 1 == shape.digit_block);
                if r < shape.outputs {
                    p.sel[r] = Val::ONE;
                }
                p.real = core::array::from_fn(|j| Val::from_bool(is_real(&shape, r, j)));
            });
        });
        Self { shape, columns }
    }

    /// The shape the table was built for.
    pub const fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Fills slot `sig`'s block (`rows`: [`Shape::digit_block`] rows of
    /// [`col::WIDTH`], row-major) from its witness.
    ///
    /// The witness is taken as it is: a digit sum off the target gives a
    /// block that fails only the target-sum constraint.
    ///
    /// # Panics
    /// If `rows` has the wrong size, or the witness's outputs abort or
    /// disagree with its digits (a [`SlotWitness`] never does).
    pub fn fill(&self, sig: usize, w: &SlotWitness, rows: &mut [Val]) {
        let shape = &self.shape;
        assert_eq!(rows.len(), shape.digit_block * col::WIDTH);
        let p = &w.public;
        let outputs: [Val; MAX_OUTPUTS] = core::array::from_fn(|k| w.outputs.get(k).copied().unwrap_or(Val::ZERO));
        let mut sum = 0usize;
        for (r, row) in rows.chunks_mut(col::WIDTH).enumerate() {
            let (digits, rem) = if r < shape.outputs {
                let a = p3_field::PrimeField32::as_canonical_u32(&w.outputs[r]);
                let split = hypercube_split(a).expect("the witness's hash does not abort");
                (split.digits, split.r)
            } else {
                ([0; Z], 0)
            };
            let real: [bool; Z] = core::array::from_fn(|j| is_real(shape, r, j));
            for j in (0..Z).filter(|&j| real[j]) {
                assert_eq!(digits[j], w.digits[Z * r + j], "the witness's digits are its outputs'");
            }
            DigitCols {
                sig: Val::from_usize(sig),
                sum: Val::from_usize(sum),
                outputs,
                param: p.param,
                cb: p.cb,
                a: p.a,
                ts: p.ts,
                m: Val::from_usize(r),
                is_io: Val::from_bool(r == shape.io_row()),
                real: real.map(Val::from_bool),
                bits: digits.map(|x| core::array::from_fn(|b| Val::from_u8((x >> b) & 1))),
                full: digits.map(|x| Val::from_bool(usize::from(x) == BASE - 1)),
                r: Val::from_u32(rem),
            }
            .write_to(row);
            sum += (0..Z).filter(|&j| real[j]).map(|j| usize::from(digits[j])).sum::<usize>();
        }
    }

    /// The values a filled block looks up in the 16-bit range table, row
    /// by row: `r` and `r + 2^16 - 127` (for the range table's counts).
    pub fn range_values(rows: &[Val]) -> Vec<Val> {
        rows.chunks(col::WIDTH).flat_map(|row| [row[col::R], row[col::R] + Val::from_u32(OFFSET)]).collect()
    }
}

/// Whether digit `j` of block row `r` is a chain's start position.
const fn is_real(shape: &Shape, r: usize, j: usize) -> bool {
    r < shape.outputs && Z * r + j < shape.chains
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
        (col::SIG..=col::TS).collect()
    }
}

/// Digit `j` of a row: `bits[j][0] + 2 bits[j][1] + 4 bits[j][2]`.
fn digit<E: PrimeCharacteristicRing + Clone>(row: &DigitCols<E>, j: usize) -> E {
    recompose(row.bits[j].clone(), 1)
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
        eval_split(builder, &loc, &p);
        eval_block(builder, &self.shape, &loc, &nxt, &p);
        start_chains(builder, &loc);
        receive_slot(builder, &self.shape, &loc);
        send_range_checks(builder, &loc);
    }
}

/// The committed copies of the row index, the I/O flag and the real-chain
/// mask equal their periodic columns: bus messages and counts must use
/// committed cells (the lookup trace generator does not see periodic
/// columns), and without these ties a prover could start chains on the
/// padding rows, receive the slot's messages twice or name other chains.
fn eval_mirrors<AB: AirBuilder>(builder: &mut AB, loc: &DigitCols<AB::Expr>, p: &DigitPeriodic<AB::Expr>) {
    builder.assert_eq(loc.m.clone(), p.m.clone());
    builder.assert_eq(loc.is_io.clone(), p.is_io.clone());
    for (mirror, mask) in loc.real.iter().zip(&p.real) {
        builder.assert_eq(mirror.clone(), mask.clone());
    }
}

/// The split of the row's output (module docs): every digit bit is a bit
/// (otherwise `d` is any field element and the split proves nothing),
/// `full_j = b0 b1 b2` (so a chain whose digit is below 7 cannot skip its
/// start, nor a digit-7 chain start one), and on row `k < outputs` the
/// output is `127 d + r` (so the digits are those of the slot's hash; `r`'s
/// range is [`send_range_checks`]'s).
fn eval_split<AB: AirBuilder>(builder: &mut AB, loc: &DigitCols<AB::Expr>, p: &DigitPeriodic<AB::Expr>) {
    let mut digits = Vec::with_capacity(Z);
    for (b, full) in loc.bits.iter().zip(&loc.full) {
        digits.push(bits(builder, b.iter().cloned()));
        builder.assert_eq(full.clone(), b[0].clone() * b[1].clone() * b[2].clone());
    }
    let d = recompose(digits, DIGIT_BITS as u32);
    let split = d * AB::Expr::from_u32(Q) + loc.r.clone();
    let output: AB::Expr = p.sel.iter().zip(&loc.outputs).map(|(s, a)| s.clone() * a.clone()).sum();
    let on_output_row: AB::Expr = p.sel.iter().cloned().sum();
    builder.assert_zero(output - on_output_row * split);
}

/// What ties a block together: the slot counter (0 first, one more per
/// block, so each block speaks for its own slot only), the slot's values
/// constant over the block (so the output split on row `k` and the chains
/// started are the ones the I/O row receives), and the running digit sum
/// (0 on the first row, plus the real digits of each row), which must be
/// the target sum on the I/O row (the codeword is valid).
fn eval_block<AB: AirBuilder>(
    builder: &mut AB,
    shape: &Shape,
    loc: &DigitCols<AB::Expr>,
    nxt: &DigitCols<AB::Expr>,
    p: &DigitPeriodic<AB::Expr>,
) {
    let one = AB::Expr::ONE;
    let inside = one - p.is_block_end.clone();
    builder.when_first_row().assert_zero(loc.sig.clone());
    builder.assert_zero(p.is_first.clone() * loc.sum.clone());
    builder.assert_zero(p.is_io.clone() * (loc.sum.clone() - AB::Expr::from_usize(shape.target_sum)));
    let row_sum: AB::Expr = (0..Z).map(|j| p.real[j].clone() * digit(loc, j)).sum();
    let mut t = builder.when_transition();
    t.assert_eq(nxt.sig.clone(), loc.sig.clone() + p.is_block_end.clone());
    t.assert_zero(inside.clone() * (nxt.sum.clone() - loc.sum.clone() - row_sum));
    // In column order: outputs, param, cb, a, ts.
    let slot_values = |row: &DigitCols<AB::Expr>| -> Vec<AB::Expr> {
        row.outputs.iter().chain(&row.param).chain([&row.cb, &row.a, &row.ts]).cloned().collect()
    };
    for (n, l) in slot_values(nxt).into_iter().zip(slot_values(loc)) {
        t.assert_zero(inside.clone() * (n - l));
    }
}

/// Starts the row's real chains whose digit is below 7: chain
/// `i = 8m + j` at position `digit + 1`, with the parameter and its tweak
/// parts `k0 = cb + i 2^16`, `a`, `s = ts + i 2^16` ([`bus`]).
fn start_chains<AB: InteractionBuilder<F = Val>>(builder: &mut AB, loc: &DigitCols<AB::Expr>) {
    let one = AB::Expr::ONE;
    for j in 0..Z {
        let i = loc.m.clone() * AB::Expr::from_usize(Z) + AB::Expr::from_usize(j);
        let shift = i.clone() * AB::Expr::from_u32(1 << 16);
        let (k0, s) = (loc.cb.clone() + shift.clone(), loc.ts.clone() + shift);
        let starts = loc.real[j].clone() * (one.clone() - loc.full[j].clone());
        let message =
            bus::chain_start(loc.sig.clone(), i, digit(loc, j) + one.clone(), loc.param.clone(), k0, loc.a.clone(), s);
        builder.push_interaction(MAIN, message, -once(starts));
    }
}

/// The I/O row receives the slot's message-hash outputs (from the
/// width-24 table) and its context (from the statement table).
fn receive_slot<AB: InteractionBuilder<F = Val>>(builder: &mut AB, shape: &Shape, loc: &DigitCols<AB::Expr>) {
    let sig = loc.sig.clone();
    let outputs = loc.outputs[..shape.outputs].iter().cloned();
    builder.push_interaction(MAIN, bus::message_hash(sig.clone(), outputs), once(loc.is_io.clone()));
    let context = bus::context(sig, loc.param.clone(), loc.cb.clone(), loc.a.clone(), loc.ts.clone());
    builder.push_interaction(MAIN, context, once(loc.is_io.clone()));
}

/// `r < 127` on every row (module docs): `r` and `r + 2^16 - 127` are both
/// in the 16-bit table. Without it `a = 127 (d - 1) + (r + 127)` would be
/// another split with other digits.
fn send_range_checks<AB: InteractionBuilder<F = Val>>(builder: &mut AB, loc: &DigitCols<AB::Expr>) {
    let shifted = loc.r.clone() + AB::Expr::from_u32(OFFSET);
    lookup_below(builder, RANGE, loc.r.clone(), 16, 16, Count::from(-1));
    lookup_below(builder, RANGE, shifted, 16, 16, Count::from(-1));
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use p3_field::PrimeField32;
    use p3_matrix::dense::RowMajorMatrix;
    use sigagg_xmss::{LeanSigProd, Test};

    use super::*;
    use crate::leansig::layout::LeanFamily;
    use crate::leansig::slot::tests::signed;
    use crate::leansig::testing::{expected, holds, messages};

    type Messages = HashMap<(String, Vec<u32>), i64>;

    fn v(x: usize) -> Val {
        Val::from_usize(x)
    }

    /// The witnesses of two signatures of `S` at `epochs`.
    fn witnesses<S: LeanFamily>(epochs: [u32; 2]) -> Vec<SlotWitness> {
        (0..2)
            .map(|n| {
                let (entry, sig) = signed::<S>(n as u64 + 11, epochs[n]);
                SlotWitness::new(&entry, &sig).unwrap()
            })
            .collect()
    }

    /// One block per witness, slot `s` in block `s`.
    fn trace(air: &DigitAir, ws: &[SlotWitness]) -> RowMajorMatrix<Val> {
        let block = air.shape().digit_block * col::WIDTH;
        let mut values = Val::zero_vec(ws.len() * block);
        for (s, (rows, w)) in values.chunks_mut(block).zip(ws).enumerate() {
            air.fill(s, w, rows);
        }
        RowMajorMatrix::new(values, col::WIDTH)
    }

    /// The messages the partners expect, from the native values: each
    /// slot's message hash and context received once, a start of every
    /// chain whose native digit is below 7 sent once, and per block row the
    /// two lookups of `a mod 127` (0 past the outputs).
    fn expected_messages(shape: &Shape, ws: &[SlotWitness]) -> Messages {
        let mut list = Vec::new();
        for (s, w) in ws.iter().enumerate() {
            let p = &w.public;
            list.push((MAIN, bus::message_hash(v(s), w.outputs.clone()), 1));
            list.push((MAIN, bus::context(v(s), p.param, p.cb, p.a, p.ts), 1));
            for (i, &x) in w.digits.iter().enumerate().filter(|&(_, &x)| usize::from(x) < BASE - 1) {
                let shift = v(i << 16);
                let start =
                    bus::chain_start(v(s), v(i), v(usize::from(x) + 1), p.param, p.cb + shift, p.a, p.ts + shift);
                list.push((MAIN, start, -1));
            }
            for r in 0..shape.digit_block {
                let rem = if r < shape.outputs { w.outputs[r].as_canonical_u32() % Q } else { 0 };
                list.push((RANGE, vec![Val::from_u32(rem)], -1));
                list.push((RANGE, vec![Val::from_u32(rem + OFFSET)], -1));
            }
        }
        expected(list)
    }

    /// A table, its two-slot trace and the messages it must send.
    struct Case {
        air: DigitAir,
        ws: Vec<SlotWitness>,
        trace: RowMajorMatrix<Val>,
        want: Messages,
    }

    impl Case {
        fn new<S: LeanFamily>(epochs: [u32; 2]) -> Self {
            let air = DigitAir::new(Shape::of::<S>());
            let ws = witnesses::<S>(epochs);
            let trace = trace(&air, &ws);
            let want = expected_messages(air.shape(), &ws);
            Self { air, ws, trace, want }
        }

        fn block(&self) -> usize {
            self.air.shape().digit_block
        }

        /// The index of cell `c` of row `r` in slot `s`'s block.
        fn at(&self, s: usize, r: usize, c: usize) -> usize {
            (s * self.block() + r) * col::WIDTH + c
        }

        /// A copy of the trace with `f` applied.
        fn corrupt(&self, f: impl FnOnce(&Self, &mut Vec<Val>)) -> RowMajorMatrix<Val> {
            let mut values = self.trace.values.clone();
            f(self, &mut values);
            RowMajorMatrix::new(values, col::WIDTH)
        }

        /// Rewrites the derived cells of slot `s` (full flags, running
        /// sum) from its bits, as an honest prover of those bits would.
        fn rederive(&self, s: usize, values: &mut [Val]) {
            let shape = self.air.shape();
            let mut sum = Val::ZERO;
            for r in 0..self.block() {
                let start = self.at(s, r, 0);
                DigitCols::update(&mut values[start..start + col::WIDTH], |row| {
                    row.sum = sum;
                    for j in 0..Z {
                        let b = &row.bits[j];
                        row.full[j] = b[0] * b[1] * b[2];
                        if is_real(shape, r, j) {
                            sum += b[0] + b[1].double() + b[2] * Val::from_u8(4);
                        }
                    }
                });
            }
        }

        fn check_holds(&self, trace: &RowMajorMatrix<Val>) -> bool {
            holds(&self.air, trace)
        }

        fn same_messages(&self, trace: &RowMajorMatrix<Val>) -> bool {
            messages(&self.air, trace) == self.want
        }

        /// The digit of row `r`, position `j` of slot `s`.
        fn digit(&self, s: usize, r: usize, j: usize) -> u8 {
            let a = self.ws[s].outputs[r].as_canonical_u32();
            hypercube_split(a).unwrap().digits[j]
        }
    }

    /// The honest trace holds and sends exactly the expected messages.
    fn honest(case: &Case) {
        assert!(case.check_holds(&case.trace));
        assert_eq!(messages(&case.air, &case.trace), case.want);
    }

    /// A digit whose bits `(.., 0, 1, ..)` become `(.., 2, 0, ..)`: the
    /// digit, `d`, the flags and every message stay; only booleanity fails.
    fn non_boolean_bit(case: &Case) {
        let shape = *case.air.shape();
        let found = (0..2)
            .flat_map(|s| (0..shape.outputs).flat_map(move |r| (0..Z).map(move |j| (s, r, j))))
            .find_map(|(s, r, j)| {
                let x = case.digit(s, r, j);
                (0..2).find(|&t| (x >> t) & 3 == 2).map(|t| (s, r, j, t))
            })
            .expect("some digit has a bit pair (0, 1)");
        let (s, r, j, t) = found;
        let bad = case.corrupt(|c, values| {
            values[c.at(s, r, col::BITS + DIGIT_BITS * j + t)] = Val::TWO;
            values[c.at(s, r, col::BITS + DIGIT_BITS * j + t + 1)] = Val::ZERO;
            c.rederive(s, values);
        });
        assert!(!case.check_holds(&bad), "a bit of value 2");
        assert!(case.same_messages(&bad), "the bus alone does not see it");
    }

    /// Digit 0 of slot 0's first output changed (flags and sums redone):
    /// `a_0 = 127 d + r` breaks, and the chain starts elsewhere.
    fn digit_changed(case: &Case) {
        let bad = case.corrupt(|c, values| {
            let i = c.at(0, 0, col::BITS);
            values[i] = Val::ONE - values[i];
            c.rederive(0, values);
        });
        assert!(!case.check_holds(&bad));
        assert!(!case.same_messages(&bad));
    }

    /// The non-Euclidean split `a = 127 (d - 1) + (r + 127)` on a row
    /// whose lowest digit is not 0, in both slots (each sum drops by 1):
    /// every constraint holds under a target one lower, and only the
    /// range lookup of `r + 127 + 2^16 - 127 = r + 2^16` fails.
    fn non_euclidean_split(case: &Case) {
        let shape = *case.air.shape();
        let row = |s: usize| (0..shape.outputs).find(|&r| case.digit(s, r, 0) > 0).expect("a nonzero lowest digit");
        let bad = case.corrupt(|c, values| {
            for s in 0..2 {
                let r = row(s);
                let a = c.ws[s].outputs[r].as_canonical_u32();
                let (d, rem) = (a / Q - 1, a % Q + Q);
                for b in 0..Z * DIGIT_BITS {
                    values[c.at(s, r, col::BITS + b)] = Val::from_u32((d >> b) & 1);
                }
                values[c.at(s, r, col::R)] = Val::from_u32(rem);
                c.rederive(s, values);
            }
        });
        let lower = DigitAir::new(Shape { target_sum: shape.target_sum - 1, ..shape });
        assert!(holds(&lower, &bad), "the split itself is a field identity");
        assert!(!case.check_holds(&bad), "the target sum");
        let out_of_table = messages(&case.air, &bad)
            .iter()
            .any(|((bus, fields), &count)| bus == RANGE && count < 0 && fields[0] >= 1 << 16);
        assert!(out_of_table, "a lookup the 16-bit table cannot answer");
    }

    /// `full` flipped on a real digit below 7: the flag constraint fails,
    /// and that chain's start disappears from the bus.
    fn wrong_full_flag(case: &Case) {
        let j = (0..Z.min(case.air.shape().chains)).find(|&j| case.digit(0, 0, j) < 7).expect("a digit below 7");
        let bad = case.corrupt(|c, values| values[c.at(0, 0, col::FULL + j)] = Val::ONE);
        assert!(!case.check_holds(&bad));
        assert!(!case.same_messages(&bad));
    }

    /// The chain index moved (the row-index mirror of slot 0's first row
    /// made 1): the mirror fails, and the starts name other chains.
    fn chain_moved(case: &Case) {
        let bad = case.corrupt(|c, values| values[c.at(0, 0, col::M)] = Val::ONE);
        assert!(!case.check_holds(&bad));
        assert!(!case.same_messages(&bad));
    }

    /// The real-chain mirror set on the I/O row: the mirror fails, and a
    /// chain past the codeword starts.
    fn extra_chain(case: &Case) {
        let io = case.air.shape().io_row();
        let bad = case.corrupt(|c, values| values[c.at(0, io, col::REAL)] = Val::ONE);
        assert!(!case.check_holds(&bad));
        assert!(!case.same_messages(&bad));
    }

    /// The I/O flag set on row 0: the mirror fails, and the slot's
    /// messages are received twice.
    fn extra_io(case: &Case) {
        let bad = case.corrupt(|c, values| values[c.at(0, 0, col::IS_IO)] = Val::ONE);
        assert!(!case.check_holds(&bad));
        assert!(!case.same_messages(&bad));
    }

    /// Output `k` changed on the I/O row only (the constancy fails, the
    /// received hash differs) or on the whole block (the split fails).
    fn output_changed(case: &Case) {
        let (io, k) = (case.air.shape().io_row(), case.air.shape().outputs - 1);
        let bad = case.corrupt(|c, values| values[c.at(1, io, col::OUTPUTS + k)] += Val::ONE);
        assert!(!case.check_holds(&bad));
        assert!(!case.same_messages(&bad));
        let bad = case.corrupt(|c, values| {
            for r in 0..c.block() {
                values[c.at(1, r, col::OUTPUTS + k)] += Val::ONE;
            }
        });
        assert!(!case.check_holds(&bad));
    }

    /// `r` one more on slot 0's first row: the split fails, the lookups differ.
    fn remainder_changed(case: &Case) {
        let bad = case.corrupt(|c, values| values[c.at(0, 0, col::R)] += Val::ONE);
        assert!(!case.check_holds(&bad));
        assert!(!case.same_messages(&bad));
    }

    /// The parameter and tweak parts: changed on the I/O row only, the
    /// constancy fails; changed on a whole block, every constraint holds
    /// but the context and chain starts leave the bus unbalanced.
    fn slot_values_changed(case: &Case) {
        let io = case.air.shape().io_row();
        for c0 in [col::PARAM, col::PARAM + PARAM - 1, col::CB, col::A, col::TS] {
            let bad = case.corrupt(|c, values| values[c.at(0, io, c0)] += Val::ONE);
            assert!(!case.check_holds(&bad), "column {c0} on the I/O row");
            let bad = case.corrupt(|c, values| {
                for r in 0..c.block() {
                    values[c.at(0, r, c0)] += Val::ONE;
                }
            });
            assert!(case.check_holds(&bad) && !case.same_messages(&bad), "column {c0} on the block");
        }
    }

    /// The slot counter: slot 1's block claiming slot 0 fails the step,
    /// both blocks shifted by one fail the start at 0; one cell of it
    /// fails the step too.
    fn counter_changed(case: &Case) {
        let bad = case.corrupt(|c, values| {
            for r in 0..c.block() {
                values[c.at(1, r, col::SIG)] = Val::ZERO;
            }
        });
        assert!(!case.check_holds(&bad));
        let bad = case.corrupt(|c, values| {
            for s in 0..2 {
                for r in 0..c.block() {
                    values[c.at(s, r, col::SIG)] += Val::ONE;
                }
            }
        });
        assert!(!case.check_holds(&bad));
        let bad = case.corrupt(|c, values| values[c.at(1, c.block() - 1, col::SIG)] = Val::TWO);
        assert!(!case.check_holds(&bad));
    }

    /// The running sum: off on the first row or on the I/O row.
    fn sum_changed(case: &Case) {
        for r in [0, case.air.shape().io_row()] {
            let bad = case.corrupt(|c, values| values[c.at(1, r, col::SUM)] += Val::ONE);
            assert!(!case.check_holds(&bad), "row {r}");
        }
    }

    /// A codeword-shaped slot off the target: slot 0's first output moved
    /// by `127 8^j` (one real digit below 7 raised by one), filled
    /// honestly. Every constraint holds under a target one higher, and the
    /// real target fails.
    fn target_missed(case: &Case) {
        let shape = *case.air.shape();
        let j = (0..Z.min(shape.chains)).find(|&j| case.digit(0, 0, j) < 7).expect("a digit below 7");
        let mut ws = case.ws.clone();
        ws[0].outputs[0] += Val::from_u32(Q << (3 * j));
        ws[0].digits[j] += 1;
        let bad = trace(&case.air, &ws);
        assert!(!case.check_holds(&bad));
        let higher = DigitAir::new(Shape { target_sum: shape.target_sum + 1, ..shape });
        let bad_first = {
            // Slot 1 keeps the real target: raise one of its digits too.
            let j1 = (0..Z.min(shape.chains)).find(|&j| case.digit(1, 0, j) < 7).expect("a digit below 7");
            ws[1].outputs[0] += Val::from_u32(Q << (3 * j1));
            ws[1].digits[j1] += 1;
            trace(&case.air, &ws)
        };
        assert!(holds(&higher, &bad_first), "only the target differs");
        assert!(!case.check_holds(&bad_first));
    }

    fn all(case: &Case) {
        honest(case);
        non_boolean_bit(case);
        digit_changed(case);
        non_euclidean_split(case);
        wrong_full_flag(case);
        chain_moved(case);
        extra_chain(case);
        extra_io(case);
        output_changed(case);
        remainder_changed(case);
        slot_values_changed(case);
        counter_changed(case);
        sum_changed(case);
        target_missed(case);
    }

    #[test]
    fn test_set_digits() {
        all(&Case::new::<Test>([3, 200]));
    }

    #[test]
    fn lean_sig_prod_digits() {
        all(&Case::new::<LeanSigProd>([5, u32::MAX - 1]));
    }

    /// The range values of a block are its lookups, two per row.
    #[test]
    fn range_values_are_the_lookups() {
        let case = Case::new::<Test>([3, 200]);
        let looked = DigitAir::range_values(&case.trace.values);
        assert_eq!(looked.len(), 2 * 2 * case.block());
        let mut want: Messages = HashMap::new();
        for x in looked {
            *want.entry((RANGE.into(), vec![x.as_canonical_u32()])).or_default() -= 1;
        }
        want.retain(|_, c| *c != 0);
        let got: Messages = messages(&case.air, &case.trace).into_iter().filter(|((bus, _), _)| bus == RANGE).collect();
        assert_eq!(got, want);
    }
}
