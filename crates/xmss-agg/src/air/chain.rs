//! The chain table: one 128-row block per signature slot; rows 0..117 are the
//! slot's Winternitz chain steps (width-16 Poseidon2 compressions), chain by
//! chain, rows 117..128 are padding.
//!
//! A step reaching position `pos` of chain `i` hashes
//! `[param | t0 t1 | x | 0 0]` where `(t0, t1)` is the chain tweak: `t0 =
//! k0 + 256 pos` and `t1` one of three per-chain values selected by `pos`.
//! Its output `y = (perm(in) + in)[0..7]` is the next step's `x`. A chain
//! starts (flag `first`) where the digit table asked for it, and its last
//! step (`pos = 3`) sends the chain end to the leaf sponge.
//!
//! # Lanes
//!
//! A row may hold the steps of several slots side by side ([`super::lanes`]):
//! with `L` lanes,
//! block `b` carries slots `L b .. L b + L`, lane `l` holding slot `L b + l`
//! in columns `l * lane_width ..` laid out as one lane of the table with
//! `L = 1`. Every constraint and bus message of a lane reads that lane's
//! columns only, and the lanes share the periodic columns (their blocks have
//! the same geometry), so an `L`-lane table is `L` one-lane tables placed
//! side by side. It has `L` times fewer rows for the same cells: the FRI
//! prover's per-row work (quotient chunks, opening denominators, the
//! transposes of a tall matrix) shrinks with the rows.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::InteractionBuilder;
use sigagg_koalabear::poseidon2::{PARTIAL_16, hashsig_constants16};

use crate::bus;
use crate::config::Val;
use crate::layout::{CHAIN_STEPS, DIGEST, P16_BLOCK, PARAM};
use crate::paired::Poseidon2Block;
use core::mem::offset_of;
use sigagg_prover::gadgets::bus::once;
use sigagg_prover::typed_row;

typed_row! {
    /// The committed columns of one lane's row: the permutation's 14 input
    /// columns, then the step's own. The permutation's round columns follow
    /// [`col::WIDTH`] (their number depends on the stride, see
    /// [`crate::paired`]); input lanes 14 and 15 are the constant zero tail
    /// of every chain input (`Poseidon2Block::with_constant_tail`).
    pub struct ChainCols<T> {
        /// Input: the hash parameter.
        pub param: [T; PARAM],
        /// Input: the chain tweak `(t0, t1)`.
        pub tweak: [T; 2],
        /// Input: the chained digest.
        pub x: [T; DIGEST],
        /// Slot counter.
        pub sig: T,
        /// Chain index.
        pub i: T,
        /// The position this step reaches.
        pub pos: T,
        /// The chain's first step.
        pub first: T,
        /// The chain's last step (`pos = 3`).
        pub last: T,
        /// Position-free part of the first tweak digit: `t0 = k0 + 256 pos`.
        pub k0: T,
        /// The second tweak digit at positions 1, 2, 3.
        pub t1: [T; 3],
    }
}

typed_row! {
    /// The periodic columns of one block row (period [`P16_BLOCK`]).
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

/// Committed column offsets of a lane, from [`ChainCols`] (trace
/// corruptions in the tests use them).
pub mod col {
    use super::ChainCols;
    use core::mem::offset_of;
    pub const SIG: usize = offset_of!(ChainCols<u8>, sig);
    pub const I: usize = offset_of!(ChainCols<u8>, i);
    pub const POS: usize = offset_of!(ChainCols<u8>, pos);
    pub const FIRST: usize = offset_of!(ChainCols<u8>, first);
    pub const LAST: usize = offset_of!(ChainCols<u8>, last);
    pub const K0: usize = offset_of!(ChainCols<u8>, k0);
    pub const T1: usize = offset_of!(ChainCols<u8>, t1);
    pub const WIDTH: usize = ChainCols::<u8>::WIDTH;
}

/// Input positions of the width-16 state.
pub const TWEAK0: usize = offset_of!(ChainCols<u8>, tweak);
/// Second tweak digit.
pub const TWEAK1: usize = TWEAK0 + 1;
/// The chained digest.
pub const X: usize = offset_of!(ChainCols<u8>, x);

/// Permutation input lanes held in columns (the rest is the constant tail).
const INPUT_LANES: usize = PARAM + 2 + DIGEST;

impl<T: Clone> ChainCols<T> {
    /// The permutation input held in columns: `[param | t0 t1 | x]`.
    fn input(&self) -> [T; INPUT_LANES] {
        let lanes: Vec<T> = self.param.iter().chain(&self.tweak).chain(&self.x).cloned().collect();
        core::array::from_fn(|j| lanes[j].clone())
    }
}

/// The chain table's AIR.
#[derive(Clone)]
pub struct ChainAir {
    /// One permutation block per lane, at the lane's columns.
    perms: Vec<Poseidon2Block<16, PARTIAL_16>>,
    columns: Vec<Vec<Val>>,
}

impl core::fmt::Debug for ChainAir {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ChainAir")
    }
}

impl ChainAir {
    /// Builds the AIR (round constants and block-structure columns) with
    /// `lanes` slots to a row (see the module docs), committing every
    /// `stride`-th full round of the permutation.
    ///
    /// # Panics
    /// If `lanes` is zero.
    pub fn new(stride: usize, lanes: usize) -> Self {
        assert!(lanes > 0, "a chain table has at least one lane");
        let columns = super::periodic_table(P16_BLOCK, ChainPeriodic::<Val>::WIDTH, |r, row| {
            ChainPeriodic {
                is_pad: Val::from_bool(r >= CHAIN_STEPS),
                is_block_start: Val::from_bool(r == 0),
                is_block_end: Val::from_bool(r == P16_BLOCK - 1),
                is_last_real: Val::from_bool(r == CHAIN_STEPS - 1),
                next_real: Val::from_bool(r + 1 < CHAIN_STEPS),
            }
            .write_to(row);
        });
        let block = |at: usize| {
            // Only the digest lanes of the output are read (`y = out[..7] + x`).
            Poseidon2Block::new(hashsig_constants16().clone(), stride, at, at + col::WIDTH)
                .with_outputs(0..DIGEST)
                .with_constant_tail(&[Val::ZERO; 2])
        };
        let lane_width = col::WIDTH + block(0).round_cols();
        Self { perms: (0..lanes).map(|lane| block(lane * lane_width)).collect(), columns }
    }
}

/// Lagrange basis on positions {1, 2, 3}, evaluated at `pos`.
pub fn lagrange123<E: PrimeCharacteristicRing + Clone>(pos: E) -> [E; 3] {
    // 1/2 mod p.
    let half = E::from_u32(sigagg_koalabear::field::P.div_ceil(2));
    let (p1, p2, p3) = (pos.clone() - E::ONE, pos.clone() - E::TWO, pos - E::from_u32(3));
    [p2.clone() * p3.clone() * half.clone(), -(p1.clone() * p3), p1 * p2 * half]
}

impl ChainAir {
    /// The first lane's permutation columns (every lane's are the same,
    /// [`Self::lane_width`] further on per lane).
    pub fn perm(&self) -> &Poseidon2Block<16, PARTIAL_16> {
        &self.perms[0]
    }

    /// Slots to a row.
    pub fn lanes(&self) -> usize {
        self.perms.len()
    }

    /// The same table with `lanes` slots to a row.
    pub fn with_lanes(&self, lanes: usize) -> Self {
        Self::new(self.perm().stride(), lanes)
    }

    /// Columns of one lane.
    pub fn lane_width(&self) -> usize {
        col::WIDTH + self.perm().round_cols()
    }

    /// The constraints and bus messages of lane `lane`: its permutation,
    /// then the gadgets below, in this order (the order fixes the
    /// constraints' and messages' positions, hence the proof bytes).
    fn eval_lane<AB: InteractionBuilder<F = Val>>(&self, builder: &mut AB, lane: usize) {
        let perm = &self.perms[lane];
        perm.eval(builder);
        let at = lane * self.lane_width();
        let main = builder.main();
        let (cur, next) = (main.current_slice(), main.next_slice());
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row[at..at + col::WIDTH].iter().map(|&v| v.into()).collect() };
        let (loc, nxt) = (ChainCols::from_slice(&exprs(cur)), ChainCols::from_slice(&exprs(next)));
        let out: [AB::Expr; DIGEST] = core::array::from_fn(|j| cur[perm.output(j)].into());
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let p = ChainPeriodic::from_slice(&periodic);
        let basis = lagrange123(loc.pos.clone());

        eval_tweak(builder, &loc, &basis);
        eval_boundaries(builder, &loc, &p, &basis, lane);
        eval_steps(builder, &loc, &nxt, &out, &p, self.lanes());
        send_chain(builder, &loc, &out);
    }
}

/// The input's tweak: `t0 = k0 + 256 pos`, and `t1` the committed digit of
/// the position (`basis`: the Lagrange basis at `pos`). The zero tail is
/// the permutation block's constants.
fn eval_tweak<AB: AirBuilder>(builder: &mut AB, loc: &ChainCols<AB::Expr>, basis: &[AB::Expr; 3]) {
    let [t0, t1] = loc.tweak.clone();
    builder.assert_eq(t0, loc.k0.clone() + loc.pos.clone() * AB::Expr::from_u32(256));
    let selected: AB::Expr = (0..3).map(|k| loc.t1[k].clone() * basis[k].clone()).sum();
    builder.assert_eq(t1, selected);
}

/// Chain boundaries: the flags are bits, the last step is the one
/// reaching position 3, padding rows start and end nothing, a block's
/// first row starts a chain and its last real step ends one; lane `l` of
/// block `b` is slot `L b + l`.
fn eval_boundaries<AB: AirBuilder>(
    builder: &mut AB,
    loc: &ChainCols<AB::Expr>,
    p: &ChainPeriodic<AB::Expr>,
    basis: &[AB::Expr; 3],
    lane: usize,
) {
    let one = AB::Expr::ONE;
    let real = one.clone() - p.is_pad.clone();
    builder.assert_bools([loc.first.clone(), loc.last.clone()]);
    builder.assert_zero(real * (loc.last.clone() - basis[2].clone()));
    builder.assert_zero(p.is_pad.clone() * loc.first.clone());
    builder.assert_zero(p.is_pad.clone() * loc.last.clone());
    builder.assert_zero(p.is_block_start.clone() * (loc.first.clone() - one.clone()));
    builder.assert_zero(p.is_last_real.clone() * (loc.last.clone() - one));
    builder.when_first_row().assert_eq(loc.sig.clone(), AB::Expr::from_usize(lane));
}

/// From row to row: the slot counter steps by the lanes at block ends, a
/// chain starts right after one ends, and inside a chain the next step
/// keeps the chain data and parameter, reaches the next position and
/// takes this step's output `y = out + input` as its `x`.
fn eval_steps<AB: AirBuilder>(
    builder: &mut AB,
    loc: &ChainCols<AB::Expr>,
    nxt: &ChainCols<AB::Expr>,
    out: &[AB::Expr; DIGEST],
    p: &ChainPeriodic<AB::Expr>,
    lanes: usize,
) {
    let one = AB::Expr::ONE;
    let mut t = builder.when_transition();
    t.assert_eq(nxt.sig.clone(), loc.sig.clone() + p.is_block_end.clone() * AB::Expr::from_usize(lanes));
    let next_real = p.next_real.clone();
    t.assert_zero(next_real.clone() * (nxt.first.clone() - loc.last.clone()));
    let cont = next_real * (one.clone() - loc.last.clone());
    // In column order: i, k0, t1, then the parameter.
    let kept = |row: &ChainCols<AB::Expr>| -> Vec<AB::Expr> {
        [&row.i, &row.k0].into_iter().chain(&row.t1).chain(&row.param).cloned().collect()
    };
    for (n, l) in kept(nxt).into_iter().zip(kept(loc)) {
        t.assert_zero(cont.clone() * (n - l));
    }
    t.assert_zero(cont.clone() * (nxt.pos.clone() - loc.pos.clone() - one));
    let input = loc.input();
    for j in 0..DIGEST {
        t.assert_zero(cont.clone() * (nxt.x[j].clone() - out[j].clone() - input[j].clone()));
    }
}

/// A chain's first step receives its start from the digit table; its last
/// step sends the chain end `y` to the leaf sponge.
fn send_chain<AB: InteractionBuilder<F = Val>>(builder: &mut AB, loc: &ChainCols<AB::Expr>, out: &[AB::Expr; DIGEST]) {
    let sig = loc.sig.clone();
    builder.push_interaction(
        bus::MAIN,
        bus::chain_start(
            sig.clone(),
            loc.i.clone(),
            loc.pos.clone(),
            loc.param.clone(),
            loc.k0.clone(),
            loc.t1.clone(),
        ),
        once(loc.first.clone()),
    );
    let input = loc.input();
    let y: [AB::Expr; DIGEST] = core::array::from_fn(|j| out[j].clone() + input[j].clone());
    builder.push_interaction(bus::MAIN, bus::end(sig, loc.i.clone() + AB::Expr::ONE, y), -once(loc.last.clone()));
}

impl BaseAir<Val> for ChainAir {
    fn width(&self) -> usize {
        self.lanes() * self.lane_width()
    }

    fn num_periodic_columns(&self) -> usize {
        ChainPeriodic::<Val>::WIDTH
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        let lane: Vec<usize> = (0..X + DIGEST).chain(col::SIG..col::WIDTH).collect();
        (0..self.lanes()).flat_map(|l| lane.iter().map(move |c| l * self.lane_width() + c)).collect()
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for ChainAir {
    fn eval(&self, builder: &mut AB) {
        for lane in 0..self.lanes() {
            self.eval_lane(builder, lane);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed rows keep the offsets the integer modules had.
    #[test]
    fn typed_rows_keep_the_former_offsets() {
        assert_eq!((TWEAK0, TWEAK1, X, col::SIG, col::I, col::POS), (PARAM, PARAM + 1, PARAM + 2, 14, 15, 16));
        assert_eq!((col::FIRST, col::LAST, col::K0, col::T1, col::WIDTH), (17, 18, 19, 20, 23));
        let iota: Vec<usize> = (0..ChainPeriodic::<usize>::WIDTH).collect();
        let p = ChainPeriodic::from_slice(&iota);
        assert_eq!((p.is_pad, p.is_block_start, p.is_block_end, p.is_last_real, p.next_real), (0, 1, 2, 3, 4));
        assert_eq!(ChainPeriodic::<usize>::WIDTH, 5);
    }
}
