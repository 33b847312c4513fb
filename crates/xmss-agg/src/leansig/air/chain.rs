//! The leanSig family's chain table: one block of [`Shape::chain_block`]
//! rows per signature slot; rows `0..chain_steps` are the slot's
//! Winternitz chain steps (width-16 Poseidon1 compressions), chain by
//! chain in increasing chain index, the rest padding.
//!
//! A chain `i` whose codeword digit is `x` has the steps reaching
//! positions `x + 1 ..= 7` (none when `x = 7`: its end is the signature's
//! own value, not this table's business). The step reaching `pos` hashes
//! the input of [`sigagg_xmss::hash::chain_input`] in the family's
//! `digest | parameter | tweak` layout,
//!
//! `in = [x (8) | param (5) | t0 t1 | 0]`,
//!
//! lane 15 the constant zero tail of the permutation block (no column),
//! and its output `y = perm(in)[0..8] + x` is the next step's `x`. A
//! chain's first step (flag `first`) receives its start from the digit
//! table ([`bus::chain_start`]): the position it reaches, the parameter
//! and the chain's tweak parts `k0`, `a`, `s`; its last step (flag
//! `last`, position 7) sends the chain end `y` to the leaf sponge as
//! virtual end `i + 1` ([`bus::end`]).
//!
//! # The tweak
//!
//! The tweak of the step reaching `pos` on chain `i` at `epoch` is the
//! base-p digit pair `(t0, t1)` of `epoch 2^24 + i 2^16 + pos 2^8`. The
//! table proves it from the chain's parts as [`bus`]'s module docs
//! explain: `t0 = k0 + 256 pos`, `t1 = a - beta` with `beta` a bit, and
//! the borrow `beta` is the right one because
//!
//! `w = (1 - 2 beta)(s + 256 pos) - beta`
//!
//! is below `2^24`: `w = w_lo + 2^16 w_hi` with `w_lo < 2^16` (one lookup
//! into the 16-bit range table) and `w_hi < 2^8` (a lookup of `w_hi` and
//! one of `256 w_hi`, [`lookup_below`]). The limbs bound the integer
//! `w_lo + 2^16 w_hi` below `2^24 < p`, so the field equation says that
//! the field element `w` has a canonical value below `2^24`. With `s +
//! 256 pos = c - t*` (`c = i 2^16 + pos 2^8 < 2^24`, `0 <= t* <= 2^24`),
//! the right borrow makes `w` either `c - t*` (when `c >= t*`) or `t* - 1
//! - c` (when `c < t*`), both in `[0, 2^24)`; the wrong one makes it the
//! negation minus one of a value in `[0, 2^24)`, that is `-(w_right) - 1`,
//! a field element in `[p - 2^24, p - 1]`, which no pair of limbs reaches.
//! The narrow high limb matters: with two 16-bit limbs, every canonical
//! value below `2^32 > p` would be reachable, the wrong borrow's included.
//! The parts themselves come from the statement through the digit table,
//! and `pos` is the position the step provably reaches (next section), in
//! `1..=7` when the digit table sends a digit in `0..7`.
//!
//! # Chains end at position 7
//!
//! Within a block every real row belongs to exactly one chain: the
//! block's first row starts one, and a real row starts one exactly when
//! the row before ended one; inside a chain the next row keeps the chain
//! index, tweak parts and parameter, reaches `pos + 1` and takes `y` as
//! its `x`. A step flagged `last` reaches position 7 (`last (pos - 7) =
//! 0`), and the block's last real row must end a chain. So a chain can
//! neither end early (its last step would not be at 7) nor go past 7: a
//! chain that passes position 7 without `last` reaches `8, 9, ...` row by
//! row (positions grow by one per row and stay below `7 + chain_block`,
//! far below `p`, so they never come back to 7 modulo `p`), hence can
//! never set `last` again, yet the chain containing the block's last real
//! row must end there. Every chain therefore runs from the position the
//! digit table sent to position 7, one step per position, and sends the
//! true chain end. Padding rows start and end nothing, so they send and
//! receive no chain message; they still permute (their zero input) and
//! look up their range limbs (zeros), so that every row's counts are
//! constants.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::{PrimeCharacteristicRing, PrimeField32};
use p3_lookup::{Count, InteractionBuilder};
use sigagg_koalabear::poseidon2::PARTIAL_16;
use sigagg_prover::gadgets::bus::once;
use sigagg_prover::gadgets::range::{lookup_below, recompose};
use sigagg_prover::paired::{Poseidon1Block, Poseidon1Rounds};
use sigagg_prover::{periodic_table, typed_row};
use sigagg_xmss::tweak::chain_tweak;

use crate::bus::{MAIN, RANGE};
use crate::config::Val;
use crate::leansig::bus;
use crate::leansig::layout::{BASE, DIGEST, PARAM, Shape};
use crate::leansig::slot::SlotWitness;

typed_row! {
    /// The committed columns of a row: the permutation's 15 input columns
    /// (the native input's lanes `0..15`, lane 15 is the block's constant
    /// zero tail), then the step's own. The permutation's round columns
    /// follow [`col::WIDTH`] (their number depends on the stride).
    pub struct ChainCols<T> {
        /// Input lanes 0..8: the chained digest (the value at `pos - 1`).
        pub x: [T; DIGEST],
        /// Input lanes 8..13: the hash parameter.
        pub param: [T; PARAM],
        /// Input lanes 13, 14: the chain tweak `(t0, t1)`.
        pub tweak: [T; 2],
        /// Slot counter.
        pub sig: T,
        /// Chain index.
        pub i: T,
        /// The position this step reaches.
        pub pos: T,
        /// The chain's first step.
        pub first: T,
        /// Position-free part of the first tweak digit: `t0 = k0 + 256 pos`.
        pub k0: T,
        /// The second tweak digit before the borrow: `t1 = a - beta`.
        pub a: T,
        /// The borrow test's offset: `s + 256 pos = c - t*` (module docs).
        pub s: T,
        /// The chain's last step (`pos = 7`).
        pub last: T,
        /// The borrow bit of the tweak's low digit.
        pub beta: T,
        /// Low 16 bits of `w = (1 - 2 beta)(s + 256 pos) - beta`.
        pub w_lo: T,
        /// High 8 bits of `w`.
        pub w_hi: T,
    }
}

typed_row! {
    /// The periodic columns of one block row (period [`Shape::chain_block`]).
    pub(crate) struct ChainPeriodic<T> {
        /// Rows past the chain steps.
        pub is_pad: T,
        /// The block's first row.
        pub is_block_start: T,
        /// The block's last row.
        pub is_block_end: T,
        /// The last chain step.
        pub is_last_real: T,
        /// The next row is a real chain step.
        pub next_real: T,
    }
}

/// Committed column offsets, from [`ChainCols`] (trace corruptions in the
/// tests use them).
pub mod col {
    use super::ChainCols;
    use core::mem::offset_of;
    pub const X: usize = offset_of!(ChainCols<u8>, x);
    pub const PARAM: usize = offset_of!(ChainCols<u8>, param);
    pub const TWEAK: usize = offset_of!(ChainCols<u8>, tweak);
    pub const SIG: usize = offset_of!(ChainCols<u8>, sig);
    pub const S: usize = offset_of!(ChainCols<u8>, s);
    pub const LAST: usize = offset_of!(ChainCols<u8>, last);
    pub const WIDTH: usize = ChainCols::<u8>::WIDTH;
}

/// Permutation input lanes held in columns (lane 15 is the zero tail).
const INPUT_COLS: usize = DIGEST + PARAM + 2;

/// The last chain position.
const TOP: u32 = BASE as u32 - 1;

/// The chain table's AIR for one set's [`Shape`].
#[derive(Clone, Debug)]
pub struct ChainAir {
    shape: Shape,
    perm: Poseidon1Block<16, PARTIAL_16>,
    columns: Vec<Vec<Val>>,
}

impl ChainAir {
    /// Builds the AIR of `shape`'s blocks, committing every `stride`-th
    /// full round of the permutation (1: degree 3, 2: degree 9).
    ///
    /// # Panics
    /// If the shape's steps do not fit its block, or `stride` is not one
    /// the permutation block takes.
    pub fn new(shape: Shape, stride: usize) -> Self {
        let (block, steps) = (shape.chain_block, shape.chain_steps);
        assert!(0 < steps && steps <= block, "{steps} chain steps in a block of {block}");
        let columns = periodic_table(block, ChainPeriodic::<Val>::WIDTH, |r, row| {
            ChainPeriodic {
                is_pad: Val::from_bool(r >= steps),
                is_block_start: Val::from_bool(r == 0),
                is_block_end: Val::from_bool(r == block - 1),
                is_last_real: Val::from_bool(r == steps - 1),
                next_real: Val::from_bool(r + 1 < steps),
            }
            .write_to(row);
        });
        // Only the digest lanes of the output are read (`y = out[..8] + x`).
        let perm = Poseidon1Block::new(Poseidon1Rounds::default16().clone(), stride, col::X, col::WIDTH)
            .with_outputs(0..DIGEST)
            .with_constant_tail(&[Val::ZERO]);
        Self { shape, perm, columns }
    }

    /// The permutation's columns.
    pub fn perm(&self) -> &Poseidon1Block<16, PARTIAL_16> {
        &self.perm
    }

    /// The shape the blocks follow.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Fills one slot's block (`rows`: [`Shape::chain_block`] rows of
    /// [`BaseAir::width`] cells, row-major) from the slot's witness, with
    /// slot counter `sig`. A padding slot is a repeat of a real slot's
    /// witness under its own counter.
    ///
    /// # Panics
    /// If `rows` is not one block, or the witness's codeword does not have
    /// the shape's chain steps.
    pub fn fill(&self, sig: usize, w: &SlotWitness, rows: &mut [Val]) {
        self.fill_group(sig, &[w], &mut [rows]);
    }

    /// Fills the blocks of up to `PackedVal::WIDTH` consecutive slots
    /// (`sig0`, `sig0 + 1`, ...) in lockstep, row by row, so that each
    /// row's permutations take one SIMD call ([`Poseidon1Block::write`]).
    /// Returns each slot's chain ends, as the filled rows reach them (a
    /// chain without steps ends at its signature value): the width-24
    /// table absorbs these, so the chains are walked only here.
    pub fn fill_group(&self, sig0: usize, ws: &[&SlotWitness], blocks: &mut [&mut [Val]]) -> Vec<Vec<[Val; DIGEST]>> {
        self.fill_group_with(sig0, ws, blocks, |_, _, _| {})
    }

    /// [`Self::fill`], letting `tamper` change each row's own and input
    /// columns (row index in the block) before its permutation is written;
    /// the chain goes on from the tampered row's output. The tests build
    /// consistent forgeries with it.
    #[cfg(test)]
    fn fill_with(
        &self,
        sig: usize,
        w: &SlotWitness,
        rows: &mut [Val],
        mut tamper: impl FnMut(usize, &mut ChainCols<Val>),
    ) {
        self.fill_group_with(sig, &[w], &mut [rows], |_, r, c| tamper(r, c));
    }

    fn fill_group_with(
        &self,
        sig0: usize,
        ws: &[&SlotWitness],
        blocks: &mut [&mut [Val]],
        mut tamper: impl FnMut(usize, usize, &mut ChainCols<Val>),
    ) -> Vec<Vec<[Val; DIGEST]>> {
        let steps: Vec<Vec<(usize, u8)>> = ws.iter().map(|w| steps(&w.digits)).collect();
        for steps in &steps {
            assert_eq!(steps.len(), self.shape.chain_steps, "the codeword's chain steps");
        }
        let mut ends: Vec<Vec<[Val; DIGEST]>> = ws.iter().map(|w| w.hashes.clone()).collect();
        // The chain that row `r - 1` of slot `k` ends, if it ends one.
        let ended = |k: usize, r: usize| match r.checked_sub(1).and_then(|r| steps[k].get(r)) {
            Some(&(i, pos)) if u32::from(pos) == TOP => Some(i),
            _ => None,
        };
        // Per slot: the chain's value so far and the row's input digest.
        let mut states = vec![([Val::ZERO; DIGEST], [Val::ZERO; DIGEST]); ws.len()];
        super::fill_lockstep(
            &self.perm,
            blocks,
            (self.shape.chain_block, self.width()),
            &mut states,
            |(running, x), k, r, row| {
                if let Some(i) = ended(k, r) {
                    ends[k][i] = *running;
                }
                let mut c = self.row(sig0 + k, ws[k], steps[k].get(r).copied(), *running);
                tamper(k, r, &mut c);
                c.write_to(row);
                *x = c.x;
                core::array::from_fn(|j| if j < INPUT_COLS { row[j] } else { Val::ZERO })
            },
            |(running, x), _, out| *running = core::array::from_fn(|j| out[j] + x[j]),
        );
        // A chain ended by a block's last row.
        for (k, (running, _)) in states.iter().enumerate() {
            if let Some(i) = ended(k, self.shape.chain_block) {
                ends[k][i] = *running;
            }
        }
        ends
    }

    /// The own columns of a row of slot `sig`: the step `(chain, position
    /// reached)`, or padding (`None`); `running` is the chain's value so far.
    fn row(&self, sig: usize, w: &SlotWitness, step: Option<(usize, u8)>, running: [Val; DIGEST]) -> ChainCols<Val> {
        let mut c = ChainCols::from_slice(&[Val::ZERO; col::WIDTH]);
        c.sig = Val::from_usize(sig);
        let Some((i, pos)) = step else { return c };
        let p = &w.public;
        let first = pos == w.digits[i] + 1;
        let chain = Val::from_u32((i as u32) << 16);
        let tweak = chain_tweak(w.epoch, i as u8, pos);
        let beta = p.a - tweak[1];
        let pos_v = Val::from_u8(pos);
        let wide = (Val::ONE - beta.double()) * (p.ts + chain + pos_v * Val::from_u32(256)) - beta;
        let wide = wide.as_canonical_u32();
        assert!(wide < 1 << 24, "epoch {}: the chain-tweak parts do not give the tweak", w.epoch);
        ChainCols {
            x: if first { w.hashes[i] } else { running },
            param: p.param,
            tweak,
            sig: c.sig,
            i: Val::from_usize(i),
            pos: pos_v,
            first: Val::from_bool(first),
            k0: p.cb + chain,
            a: p.a,
            s: p.ts + chain,
            last: Val::from_bool(u32::from(pos) == TOP),
            beta,
            w_lo: Val::from_u32(wide & 0xffff),
            w_hi: Val::from_u32(wide >> 16),
        }
    }
}

/// A slot's chain steps in row order: `(chain, position reached)` for
/// every chain in increasing index, positions `digit + 1 ..= 7`.
pub fn steps(digits: &[u8]) -> Vec<(usize, u8)> {
    digits.iter().enumerate().flat_map(|(i, &x)| (x + 1..BASE as u8).map(move |pos| (i, pos))).collect()
}

impl BaseAir<Val> for ChainAir {
    fn width(&self) -> usize {
        col::WIDTH + self.perm.round_cols()
    }

    fn num_periodic_columns(&self) -> usize {
        ChainPeriodic::<Val>::WIDTH
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }

    /// The next row's digest and parameter, and `sig ..= s` (the slot
    /// counter, chain index, position, start flag and tweak parts).
    fn main_next_row_columns(&self) -> Vec<usize> {
        (col::X..col::TWEAK).chain(col::SIG..col::LAST).collect()
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for ChainAir {
    /// The permutation, then the gadgets below, in this order (the order
    /// fixes the constraints' and messages' positions).
    fn eval(&self, builder: &mut AB) {
        self.perm.eval(builder);
        let main = builder.main();
        let (cur, next) = (main.current_slice(), main.next_slice());
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row[..col::WIDTH].iter().map(|&v| v.into()).collect() };
        let (loc, nxt) = (ChainCols::from_slice(&exprs(cur)), ChainCols::from_slice(&exprs(next)));
        let y: [AB::Expr; DIGEST] = core::array::from_fn(|j| cur[self.perm.output(j)].into() + loc.x[j].clone());
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let p = ChainPeriodic::from_slice(&periodic);

        eval_tweak(builder, &loc);
        eval_range(builder, &loc, &p);
        eval_boundaries(builder, &loc, &p);
        eval_steps(builder, &loc, &nxt, &y, &p);
        send_chain(builder, &loc, &y);
    }
}

/// The input's tweak from the chain's parts: `t0 = k0 + 256 pos` (the
/// low digit, whose position byte is `pos`), `t1 = a - beta` with `beta`
/// a bit (the high digit less the borrow). Which bit is
/// [`eval_range`]'s business; without booleanity any `t1` would do.
fn eval_tweak<AB: AirBuilder>(builder: &mut AB, loc: &ChainCols<AB::Expr>) {
    let [t0, t1] = loc.tweak.clone();
    builder.assert_eq(t0, loc.k0.clone() + loc.pos.clone() * AB::Expr::from_u32(256));
    builder.assert_eq(t1, loc.a.clone() - loc.beta.clone());
    builder.assert_bool(loc.beta.clone());
}

/// The borrow is the right one: on real rows `w = (1 - 2 beta)(s + 256
/// pos) - beta` equals `w_lo + 2^16 w_hi`, and the limbs are looked up
/// below `2^16` and `2^8` (module docs: only the right borrow gives a `w`
/// below `2^24`). Padding rows hold zero limbs, so every row looks up
/// with the constant count -1.
fn eval_range<AB: InteractionBuilder<F = Val>>(
    builder: &mut AB,
    loc: &ChainCols<AB::Expr>,
    p: &ChainPeriodic<AB::Expr>,
) {
    let one = AB::Expr::ONE;
    let real = one.clone() - p.is_pad.clone();
    let beta = loc.beta.clone();
    let w = (one - beta.double()) * (loc.s.clone() + loc.pos.clone() * AB::Expr::from_u32(256)) - beta;
    let limbs = recompose([loc.w_lo.clone(), loc.w_hi.clone()], 16);
    builder.assert_zero(real * (w - limbs));
    lookup_below(builder, RANGE, loc.w_lo.clone(), 16, 16, Count::from(-1));
    lookup_below(builder, RANGE, loc.w_hi.clone(), 8, 16, Count::from(-1));
}

/// Chain boundaries: the flags are bits (they count bus messages); the
/// last step reaches position 7 (so no chain ends early); padding rows
/// start and end nothing (no message from them); a block's first row
/// starts a chain and its last real step ends one (so the block's steps
/// are whole chains, module docs); the slot counter starts at 0.
fn eval_boundaries<AB: AirBuilder>(builder: &mut AB, loc: &ChainCols<AB::Expr>, p: &ChainPeriodic<AB::Expr>) {
    let one = AB::Expr::ONE;
    builder.assert_bools([loc.first.clone(), loc.last.clone()]);
    builder.assert_zero(loc.last.clone() * (loc.pos.clone() - AB::Expr::from_u32(TOP)));
    builder.assert_zero(p.is_pad.clone() * loc.first.clone());
    builder.assert_zero(p.is_pad.clone() * loc.last.clone());
    builder.assert_zero(p.is_block_start.clone() * (loc.first.clone() - one.clone()));
    builder.assert_zero(p.is_last_real.clone() * (loc.last.clone() - one));
    builder.when_first_row().assert_zero(loc.sig.clone());
}

/// From row to row: the slot counter steps by one at block ends (each
/// block is one slot's); a real row starts a chain exactly when the row
/// before ended one (no chain is left open or started mid-way); inside a
/// chain the next step keeps the chain index, tweak parts and parameter
/// (the chain is the one the digit table started, hashed under its
/// tweaks), reaches the next position (no step skipped or repeated) and
/// hashes this step's output `y`.
fn eval_steps<AB: AirBuilder>(
    builder: &mut AB,
    loc: &ChainCols<AB::Expr>,
    nxt: &ChainCols<AB::Expr>,
    y: &[AB::Expr; DIGEST],
    p: &ChainPeriodic<AB::Expr>,
) {
    let one = AB::Expr::ONE;
    let mut t = builder.when_transition();
    t.assert_eq(nxt.sig.clone(), loc.sig.clone() + p.is_block_end.clone());
    let next_real = p.next_real.clone();
    t.assert_zero(next_real.clone() * (nxt.first.clone() - loc.last.clone()));
    let cont = next_real * (one.clone() - loc.last.clone());
    // In column order: the parameter, then i, k0, a, s.
    let kept = |row: &ChainCols<AB::Expr>| -> Vec<AB::Expr> {
        row.param.iter().chain([&row.i, &row.k0, &row.a, &row.s]).cloned().collect()
    };
    for (n, l) in kept(nxt).into_iter().zip(kept(loc)) {
        t.assert_zero(cont.clone() * (n - l));
    }
    t.assert_zero(cont.clone() * (nxt.pos.clone() - loc.pos.clone() - one));
    for (n, y) in nxt.x.iter().zip(y) {
        t.assert_zero(cont.clone() * (n.clone() - y.clone()));
    }
}

/// A chain's first step receives its start from the digit table; its last
/// step sends the chain end `y` to the leaf sponge as virtual end `i + 1`.
fn send_chain<AB: InteractionBuilder<F = Val>>(builder: &mut AB, loc: &ChainCols<AB::Expr>, y: &[AB::Expr; DIGEST]) {
    let sig = loc.sig.clone();
    let start = bus::chain_start(
        sig.clone(),
        loc.i.clone(),
        loc.pos.clone(),
        loc.param.clone(),
        loc.k0.clone(),
        loc.a.clone(),
        loc.s.clone(),
    );
    builder.push_interaction(MAIN, start, once(loc.first.clone()));
    let end = bus::end(sig, loc.i.clone() + AB::Expr::ONE, y.clone());
    builder.push_interaction(MAIN, end, -once(loc.last.clone()));
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashMap};
    use std::ops::RangeInclusive;

    use p3_air::symbolic::AirLayout;
    use p3_lookup::InteractionSymbolicBuilder;
    use p3_matrix::dense::RowMajorMatrix;
    use sigagg_koalabear::field::{FeArray, P};
    use sigagg_prover::config::Challenge;
    use sigagg_prover::next_row::next_row_reads;
    use sigagg_xmss::hash::chain_input;
    use sigagg_xmss::{LeanSigProd, Test};

    use super::*;
    use crate::leansig::layout::LeanFamily;
    use crate::leansig::slot::tests::signed;
    use crate::leansig::testing::{expected, holds, messages};

    type Messages = HashMap<(String, Vec<u32>), i64>;

    /// The witness of a valid signature of `S` at `epoch`.
    fn witness<S: LeanFamily>(seed: u64, epoch: u32) -> SlotWitness {
        let (entry, sig) = signed::<S>(seed, epoch);
        SlotWitness::new(&entry, &sig).expect("a valid signature")
    }

    /// Two slots of `S` (different keys, messages and epochs).
    fn two_slots<S: LeanFamily>(epochs: [u32; 2]) -> Vec<SlotWitness> {
        vec![witness::<S>(1, epochs[0]), witness::<S>(2, epochs[1])]
    }

    /// The table of `slots`, slot `k` filled with counter `k`, its rows
    /// tampered with by `tamper(k, row, columns)`.
    fn trace(
        air: &ChainAir,
        slots: &[SlotWitness],
        mut tamper: impl FnMut(usize, usize, &mut ChainCols<Val>),
    ) -> RowMajorMatrix<Val> {
        let width = air.width();
        let block = air.shape().chain_block * width;
        let mut values = Val::zero_vec(slots.len() * block);
        for (k, (w, rows)) in slots.iter().zip(values.chunks_mut(block)).enumerate() {
            air.fill_with(k, w, rows, |r, c| tamper(k, r, c));
        }
        RowMajorMatrix::new(values, width)
    }

    /// The messages the partners expect, from the slots' values alone: per
    /// chain with steps, its start (digit + 1 and the context's parts plus
    /// `i 2^16`) received and its end (the native walk's) sent; per row,
    /// the range limbs of `w` found from the epoch with integers (`c - t*`
    /// or `t* - 1 - c`, [`bus`]), zeros on padding rows.
    fn expected_messages(shape: Shape, slots: &[SlotWitness]) -> Messages {
        let mut list: Vec<(&'static str, Vec<Val>, i64)> = Vec::new();
        for (k, w) in slots.iter().enumerate() {
            let (p, sig) = (&w.public, Val::from_usize(k));
            let (a, b) = (i64::from(w.epoch / 127), i64::from(w.epoch % 127));
            let t_star = (a - (b << 24)).clamp(0, 1 << 24);
            let mut limbs: Vec<i64> = steps(&w.digits)
                .into_iter()
                .map(|(i, pos)| {
                    let c = ((i as i64) << 16) + (i64::from(pos) << 8);
                    if c >= t_star { c - t_star } else { t_star - 1 - c }
                })
                .collect();
            limbs.resize(shape.chain_block, 0);
            for v in limbs {
                for limb in [v & 0xffff, v >> 16, (v >> 16) << 8] {
                    list.push((RANGE, vec![Val::from_u32(limb as u32)], -1));
                }
            }
            for (i, &x) in w.digits.iter().enumerate().filter(|&(_, &x)| usize::from(x) < BASE - 1) {
                let chain = Val::from_u32((i as u32) << 16);
                let start = bus::chain_start(
                    sig,
                    Val::from_usize(i),
                    Val::from_u8(x + 1),
                    p.param,
                    p.cb + chain,
                    p.a,
                    p.ts + chain,
                );
                list.push((MAIN, start, 1));
                list.push((MAIN, bus::end(sig, Val::from_usize(i + 1), w.ends[i]), -1));
            }
        }
        expected(list)
    }

    /// Honest slots: the constraints hold, the messages are exactly the
    /// expected ones, and every real row's input columns are the native
    /// chain input's lanes `0..15` (lane 15 is zero).
    fn honest<S: LeanFamily>(epochs: [u32; 2], stride: usize) -> Vec<SlotWitness> {
        let shape = Shape::of::<S>();
        let air = ChainAir::new(shape, stride);
        let slots = two_slots::<S>(epochs);
        let m = trace(&air, &slots, |_, _, _| {});
        assert!(holds(&air, &m), "{} stride {stride}", S::NAME);
        assert_eq!(messages(&air, &m), expected_messages(shape, &slots), "{} stride {stride}", S::NAME);
        let width = air.width();
        for (k, w) in slots.iter().enumerate() {
            let param = S::Parameter::generate(|j| w.public.param[j]);
            for (r, (i, pos)) in steps(&w.digits).into_iter().enumerate() {
                let row = &m.values[(k * shape.chain_block + r) * width..][..width];
                let x = S::Digest::generate(|j| row[col::X + j]);
                let native = chain_input::<S>(&param, w.epoch, i as u8, pos, &x);
                assert_eq!(row[..INPUT_COLS], native[..INPUT_COLS], "{} slot {k} row {r}", S::NAME);
                assert_eq!(native[INPUT_COLS], Val::ZERO);
            }
        }
        // Filled from witnesses whose chains are not walked, the rows give
        // every chain's natively walked end, those without steps included.
        let unwalked: Vec<SlotWitness> =
            slots.iter().map(|w| SlotWitness { ends: w.hashes.clone(), ..w.clone() }).collect();
        let mut values = Val::zero_vec(m.values.len());
        let mut blocks: Vec<&mut [Val]> = values.chunks_mut(shape.chain_block * width).collect();
        let ends = air.fill_group(0, &unwalked.iter().collect::<Vec<_>>(), &mut blocks);
        assert_eq!(ends, slots.iter().map(|w| w.ends.clone()).collect::<Vec<_>>(), "{}", S::NAME);
        assert_eq!(values, m.values, "{}", S::NAME);
        slots
    }

    #[test]
    fn test_set_slots_hold_and_send_the_expected_messages() {
        honest::<Test>([3, 200], 2);
        honest::<Test>([3, 200], 1);
    }

    #[test]
    fn lean_sig_prod_slots_hold_and_send_the_expected_messages() {
        let slots = honest::<LeanSigProd>([5, u32::MAX - 1], 2);
        // A chain without steps is skipped.
        assert!(slots.iter().any(|w| w.digits.contains(&(TOP as u8))));
    }

    /// Padding slots repeat a real slot's witness under their own counters.
    #[test]
    fn padding_slots_repeat_a_real_one() {
        let shape = Shape::of::<Test>();
        let air = ChainAir::new(shape, 2);
        let mut slots = two_slots::<Test>([3, 200]);
        slots.extend([slots[1].clone(), slots[1].clone()]);
        let m = trace(&air, &slots, |_, _, _| {});
        assert!(holds(&air, &m));
        assert_eq!(messages(&air, &m), expected_messages(shape, &slots));
    }

    /// The declared next-row columns are exactly those the constraints and
    /// messages read at the next row.
    #[test]
    fn next_row_columns_are_the_reads() {
        let air = ChainAir::new(Shape::of::<Test>(), 2);
        let declared: BTreeSet<usize> = air.main_next_row_columns().into_iter().collect();
        assert_eq!(next_row_reads(&air), declared);
    }

    /// The table's own constraints have degree 3, so the permutation's
    /// stride alone sets the AIR's degree.
    #[test]
    fn the_stride_sets_the_degree() {
        for stride in [1, 2] {
            let air = ChainAir::new(Shape::of::<Test>(), stride);
            let layout = AirLayout {
                main_width: air.width(),
                num_periodic_columns: air.num_periodic_columns(),
                ..Default::default()
            };
            let builder = InteractionSymbolicBuilder::<Val, Challenge>::from_air(&air, layout);
            let degree = builder.base_constraints().iter().map(|c| c.degree_multiple()).max();
            assert_eq!(degree, Some(air.perm().degree()), "stride {stride}");
        }
    }

    /// How a corrupted trace is caught.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Caught {
        /// A constraint fails.
        Constraint,
        /// The constraints hold, but a range lookup leaves `0..2^16` (the
        /// range table cannot balance it).
        Range,
        /// The constraints hold and the lookups stay in range, but the bus
        /// messages differ from those the partners send and expect.
        Messages,
    }

    /// How `m` is caught, if it is.
    fn verdict(air: &ChainAir, m: &RowMajorMatrix<Val>, want: &Messages) -> Option<Caught> {
        if !holds(air, m) {
            return Some(Caught::Constraint);
        }
        let got = messages(air, m);
        if got.keys().any(|(b, fields)| b == RANGE && fields[0] >= 1 << 16) {
            return Some(Caught::Range);
        }
        (got != *want).then_some(Caught::Messages)
    }

    /// The tweak digits and `w`'s limbs recomputed from the row's parts,
    /// position and borrow (the limbs as two 16-bit halves of `w`'s
    /// canonical value, which is what a forger would commit).
    fn retweak(c: &mut ChainCols<Val>) {
        let shifted = c.s + c.pos * Val::from_u32(256);
        c.tweak = [c.k0 + c.pos * Val::from_u32(256), c.a - c.beta];
        let w = ((Val::ONE - c.beta.double()) * shifted - c.beta).as_canonical_u32();
        (c.w_lo, c.w_hi) = (Val::from_u32(w & 0xffff), Val::from_u32(w >> 16));
    }

    /// A change of the own columns on some rows of a block.
    type Change = Box<dyn Fn(usize, &mut ChainCols<Val>)>;

    /// `f` on the rows `rows`.
    fn on(rows: RangeInclusive<usize>, f: fn(&mut ChainCols<Val>)) -> Change {
        Box::new(move |r, c| {
            if rows.contains(&r) {
                f(c)
            }
        })
    }

    /// Every corruption of slot 1's block, each consistent except for
    /// what it targets (later steps of the chain hash the tampered
    /// output), is caught as the list says; the honest trace is not.
    fn corruptions<S: LeanFamily>(epochs: [u32; 2], stride: usize) {
        let shape = Shape::of::<S>();
        let air = ChainAir::new(shape, stride);
        let slots = two_slots::<S>(epochs);
        let want = expected_messages(shape, &slots);
        assert_eq!(verdict(&air, &trace(&air, &slots, |_, _, _| {}), &want), None);

        // Rows of slot 1's block: `mid` is the second step of a chain of
        // at least three, `end` that chain's last; `start` is the first
        // step of the block's second chain with steps.
        let st = steps(&slots[1].digits);
        let long = (0..shape.chains).find(|&i| slots[1].digits[i] + 3 < BASE as u8).unwrap();
        let mid = st.iter().position(|&(i, _)| i == long).unwrap() + 1;
        let end = st.iter().rposition(|&(i, _)| i == long).unwrap();
        let start = st.iter().position(|&(i, _)| i != st[0].0).unwrap();
        let (real, pad, last_row) = (shape.chain_steps - 1, shape.chain_steps, shape.chain_block - 1);

        let cases: Vec<(&str, Caught, Change)> = vec![
            (
                "beta flipped, t1 and w's limbs to match",
                Caught::Range,
                on(mid..=mid, |c| {
                    c.beta = Val::ONE - c.beta;
                    retweak(c);
                }),
            ),
            (
                "w_hi >= 2^8: w + p in two 16-bit limbs",
                Caught::Range,
                on(mid..=mid, |c| {
                    let w = c.w_lo.as_canonical_u32() + (c.w_hi.as_canonical_u32() << 16) + P;
                    (c.w_lo, c.w_hi) = (Val::from_u32(w & 0xffff), Val::from_u32(w >> 16));
                }),
            ),
            (
                "beta not a bit, t1 and w's limbs to match",
                Caught::Constraint,
                on(mid..=mid, |c| {
                    c.beta = Val::TWO;
                    retweak(c);
                }),
            ),
            ("w_lo off by one", Caught::Constraint, on(mid..=mid, |c| c.w_lo += Val::ONE)),
            ("t0 off the tweak parts", Caught::Constraint, on(mid..=mid, |c| c.tweak[0] += Val::ONE)),
            ("t1 off the tweak parts", Caught::Constraint, on(mid..=mid, |c| c.tweak[1] += Val::ONE)),
            ("a digest lane of x changed mid-chain", Caught::Constraint, on(mid..=mid, |c| c.x[3] += Val::ONE)),
            (
                "pos skipping a step",
                Caught::Constraint,
                on(mid..=end, |c| {
                    c.pos += Val::ONE;
                    retweak(c);
                }),
            ),
            ("last set early", Caught::Constraint, on(mid..=mid, |c| c.last = Val::ONE)),
            (
                "k0 changed mid-chain, t0 to match",
                Caught::Constraint,
                on(mid..=end, |c| {
                    c.k0 += Val::ONE;
                    retweak(c);
                }),
            ),
            (
                "s changed mid-chain, w's limbs to match",
                Caught::Constraint,
                on(mid..=end, |c| {
                    c.s += Val::ONE;
                    retweak(c);
                }),
            ),
            (
                "a changed mid-chain, t1 to match",
                Caught::Constraint,
                on(mid..=end, |c| {
                    c.a += Val::ONE;
                    retweak(c);
                }),
            ),
            ("param changed mid-chain", Caught::Constraint, on(mid..=end, |c| c.param[2] += Val::ONE)),
            (
                "i changed mid-chain, tweak parts to match",
                Caught::Constraint,
                on(mid..=end, |c| {
                    c.i += Val::ONE;
                    c.k0 += Val::from_u32(1 << 16);
                    c.s += Val::from_u32(1 << 16);
                    retweak(c);
                }),
            ),
            ("the slot counter on one row", Caught::Constraint, on(mid..=mid, |c| c.sig += Val::ONE)),
            ("the slot counter of a whole block", Caught::Constraint, on(0..=last_row, |c| c.sig += Val::ONE)),
            ("a chain start without its flag", Caught::Constraint, on(start..=start, |c| c.first = Val::ZERO)),
            ("the block's first row not starting", Caught::Constraint, on(0..=0, |c| c.first = Val::ZERO)),
            ("the last real step not ending", Caught::Constraint, on(real..=real, |c| c.last = Val::ZERO)),
            ("a padding row starting a chain", Caught::Constraint, on(pad..=pad, |c| c.first = Val::ONE)),
            (
                "a padding row ending a chain at 7",
                Caught::Constraint,
                on(pad..=pad, |c| {
                    (c.last, c.pos) = (Val::ONE, Val::from_u32(TOP));
                    retweak(c);
                }),
            ),
            ("a padding row's range limb", Caught::Range, on(pad..=pad, |c| c.w_hi = Val::from_u32(1 << 8))),
            ("a chain's first x changed", Caught::Messages, on(start..=start, |c| c.x[0] += Val::ONE)),
        ];
        for (what, caught, change) in cases {
            let m = trace(&air, &slots, |k, r, c| {
                if k == 1 {
                    change(r, c)
                }
            });
            assert_eq!(verdict(&air, &m, &want), Some(caught), "{}, stride {stride}: {what}", S::NAME);
        }

        // Cells outside the own columns: a round column of the permutation,
        // and the slot counter from the table's first row on.
        let mut m = trace(&air, &slots, |_, _, _| {});
        m.values[(shape.chain_block + mid) * air.width() + col::WIDTH + 3] += Val::ONE;
        assert_eq!(verdict(&air, &m, &want), Some(Caught::Constraint), "a round column");
        let m = trace(&air, &slots, |_, _, c| c.sig += Val::ONE);
        assert_eq!(verdict(&air, &m, &want), Some(Caught::Constraint), "slot counters from 1");
    }

    #[test]
    fn test_set_corruptions_are_caught() {
        corruptions::<Test>([3, 200], 2);
        corruptions::<Test>([3, 200], 1);
    }

    #[test]
    fn lean_sig_prod_corruptions_are_caught() {
        corruptions::<LeanSigProd>([5, u32::MAX - 1], 2);
    }
}
