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
use p3_lookup::{Count, InteractionBuilder};
use sigagg_koalabear::poseidon2::{PARTIAL_16, hashsig_constants16};

use crate::bus;
use crate::config::Val;
use crate::layout::{CHAIN_STEPS, DIGEST, P16_BLOCK, PARAM};
use crate::paired::Poseidon2Block;

/// Committed columns after the permutation's 14 input columns; the permutation's
/// round columns follow [`col::WIDTH`] (their number depends on the stride,
/// see [`crate::paired`]).
pub mod col {
    /// After the 14 input columns: lanes 14 and 15 are the constant zero
    /// tail of every chain input (`Poseidon2Block::with_constant_tail`).
    pub const SIG: usize = 14;
    pub const I: usize = SIG + 1;
    pub const POS: usize = I + 1;
    pub const FIRST: usize = POS + 1;
    pub const LAST: usize = FIRST + 1;
    pub const K0: usize = LAST + 1;
    pub const T1: usize = K0 + 1;
    pub const WIDTH: usize = T1 + 3;
}

/// Input positions of the width-16 state.
pub const TWEAK0: usize = PARAM;
/// Second tweak digit.
pub const TWEAK1: usize = PARAM + 1;
/// The chained digest.
pub const X: usize = PARAM + 2;

mod pc {
    pub const IS_PAD: usize = 0;
    pub const IS_BLOCK_START: usize = 1;
    pub const IS_BLOCK_END: usize = 2;
    pub const IS_LAST_REAL: usize = 3;
    /// The next row is a real chain step.
    pub const NEXT_REAL: usize = 4;
    pub const WIDTH: usize = 5;
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
        let columns = super::periodic_table(P16_BLOCK, pc::WIDTH, |r, row| {
            row[pc::IS_PAD] = Val::from_bool(r >= CHAIN_STEPS);
            row[pc::IS_BLOCK_START] = Val::from_bool(r == 0);
            row[pc::IS_BLOCK_END] = Val::from_bool(r == P16_BLOCK - 1);
            row[pc::IS_LAST_REAL] = Val::from_bool(r == CHAIN_STEPS - 1);
            row[pc::NEXT_REAL] = Val::from_bool(r + 1 < CHAIN_STEPS);
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

    /// The constraints and bus messages of lane `lane`.
    fn eval_lane<AB: InteractionBuilder<F = Val>>(&self, builder: &mut AB, lane: usize) {
        let perm = &self.perms[lane];
        perm.eval(builder);
        let at = lane * self.lane_width();
        let main = builder.main();
        let (loc, nxt) = (main.current_slice(), main.next_slice());
        let l = |c: usize| -> AB::Expr { loc[at + c].into() };
        let n = |c: usize| -> AB::Expr { nxt[at + c].into() };
        let output = |j: usize| -> AB::Expr { loc[perm.output(j)].into() };
        let p: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let one = AB::Expr::ONE;
        let real = one.clone() - p[pc::IS_PAD].clone();

        // Input layout (the zero tail is the block's constants): tweak
        // from (k0, pos) and the per-position t1.
        builder.assert_eq(l(TWEAK0), l(col::K0) + l(col::POS) * AB::Expr::from_u32(256));
        let basis = lagrange123(l(col::POS));
        let t1: AB::Expr = (0..3).map(|k| l(col::T1 + k) * basis[k].clone()).sum();
        builder.assert_eq(l(TWEAK1), t1);

        // Chain boundaries: the last step is the one reaching position 3.
        builder.assert_bools([l(col::FIRST), l(col::LAST)]);
        builder.assert_zero(real.clone() * (l(col::LAST) - basis[2].clone()));
        builder.assert_zero(p[pc::IS_PAD].clone() * l(col::FIRST));
        builder.assert_zero(p[pc::IS_PAD].clone() * l(col::LAST));
        builder.assert_zero(p[pc::IS_BLOCK_START].clone() * (l(col::FIRST) - one.clone()));
        builder.assert_zero(p[pc::IS_LAST_REAL].clone() * (l(col::LAST) - one.clone()));
        // Lane `l` of block `b` is slot `L b + l`.
        builder.when_first_row().assert_eq(l(col::SIG), AB::Expr::from_usize(lane));

        let mut t = builder.when_transition();
        t.assert_eq(n(col::SIG), l(col::SIG) + p[pc::IS_BLOCK_END].clone() * AB::Expr::from_usize(self.lanes()));
        let next_real = p[pc::NEXT_REAL].clone();
        t.assert_zero(next_real.clone() * (n(col::FIRST) - l(col::LAST)));
        // Inside a chain: same chain data and parameter, next position, chained digest.
        let cont = next_real * (one.clone() - l(col::LAST));
        for c in [col::I, col::K0, col::T1, col::T1 + 1, col::T1 + 2].into_iter().chain(0..PARAM) {
            t.assert_zero(cont.clone() * (n(c) - l(c)));
        }
        t.assert_zero(cont.clone() * (n(col::POS) - l(col::POS) - one.clone()));
        for j in 0..DIGEST {
            t.assert_zero(cont.clone() * (n(X + j) - output(j) - l(j)));
        }

        // Bus: a chain's first step receives its start, its last step sends the end.
        let sig = l(col::SIG);
        let param: [AB::Expr; PARAM] = core::array::from_fn(&l);
        let t1s: [AB::Expr; 3] = core::array::from_fn(|k| l(col::T1 + k));
        builder.push_interaction(
            bus::MAIN,
            bus::chain_start(sig.clone(), l(col::I), l(col::POS), param, l(col::K0), t1s),
            Count::bounded(l(col::FIRST), 1),
        );
        let y: [AB::Expr; DIGEST] = core::array::from_fn(|j| output(j) + l(j));
        builder.push_interaction(bus::MAIN, bus::end(sig, l(col::I) + one, y), -Count::bounded(l(col::LAST), 1));
    }
}

impl BaseAir<Val> for ChainAir {
    fn width(&self) -> usize {
        self.lanes() * self.lane_width()
    }

    fn num_periodic_columns(&self) -> usize {
        pc::WIDTH
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
