//! The membership table of threshold proofs: one block of
//! `next_pow2(depth + 1)` rows per signature slot. Row 0 hashes the slot's
//! public key into its group leaf, rows `1..=depth` climb the group tree
//! (width-24 Poseidon2 compressions, see [`sigagg_xmss::group`]), the top row's
//! digest must be the group root (a periodic constant), and the direction
//! bits must spell the member index the statement table committed to.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::InteractionBuilder;
use sigagg_koalabear::poseidon2::{PARTIAL_24, hashsig_constants24};

use crate::bus;
use crate::config::Val;
use crate::layout::{DIGEST, PARAM};
use crate::paired::Poseidon2Block;
use sigagg_prover::gadgets::bus::once;
use sigagg_prover::gadgets::merkle;
use sigagg_prover::typed_row;
use sigagg_xmss::ParameterSet;
use sigagg_xmss::field::FeArray;
use sigagg_xmss::group::{GROUP_DIGEST, GroupKey, TAG_LEAF, TAG_NODE};

/// Permutation input lanes at the start of every row (lanes 18..24 are
/// zero in every row, a constant tail).
pub const INPUT_LANES: usize = 18;

typed_row! {
    /// The committed columns of one row; the permutation's round columns
    /// follow [`col::WIDTH`] (their number depends on the stride, see
    /// [`crate::paired`]).
    pub struct GroupCols<T> {
        /// Permutation input: `[pk root | pk parameter | TAG_LEAF | 0...]`
        /// on the leaf row, `[left | right | level | TAG_NODE]` on a node row.
        pub input: [T; INPUT_LANES],
        /// Slot counter.
        pub sig: T,
        /// The member index (constant over the block).
        pub idx: T,
        /// Index bits accumulated so far.
        pub acc: T,
        /// Direction bit of this level: 1 when the running node is the right child.
        pub bit: T,
        /// Compression output `(perm(in) + in)[0..8]`.
        pub dig: [T; GROUP_DIGEST],
        /// Copy of the periodic leaf-row flag (bus counts must be committed).
        pub is_leaf: T,
    }
}

typed_row! {
    /// The periodic columns of one block row.
    pub(crate) struct GroupPeriodic<T> {
        /// Row 0: the leaf compression.
        pub is_leaf: T,
        /// Rows `1..=depth`: node compressions.
        pub is_node: T,
        /// The level of a node row.
        pub level: T,
        /// Row `depth`: the root.
        pub is_top: T,
        /// The next row is a node.
        pub before_node: T,
        /// Weight of the next row's bit in the index: `2^(level - 1)`.
        pub next_weight: T,
        /// The block's last row.
        pub is_block_end: T,
        /// The group root (the same on every row).
        pub root: [T; GROUP_DIGEST],
    }
}

/// Committed column offsets, from [`GroupCols`] (trace corruptions in the
/// tests use them).
pub mod col {
    use super::GroupCols;
    use core::mem::offset_of;
    pub const SIG: usize = offset_of!(GroupCols<u8>, sig);
    pub const IDX: usize = offset_of!(GroupCols<u8>, idx);
    pub const ACC: usize = offset_of!(GroupCols<u8>, acc);
    pub const BIT: usize = offset_of!(GroupCols<u8>, bit);
    pub const DIG: usize = offset_of!(GroupCols<u8>, dig);
    pub const IS_LEAF: usize = offset_of!(GroupCols<u8>, is_leaf);
    pub const WIDTH: usize = GroupCols::<u8>::WIDTH;
}

// Both inputs end before the constant zero tail: the leaf's tag lane and
// the node's tag lane.
/// The longest member-key root (the leanSig sets'): with the parameter and
/// the tag it fits the input lanes.
const DIGEST_MAX: usize = 8;
const _: () = assert!(DIGEST_MAX + PARAM < col::SIG && DIGEST < DIGEST_MAX && 2 * GROUP_DIGEST + 1 < col::SIG);

/// Rows per slot block for a tree of `depth` levels.
pub fn block_rows(depth: usize) -> usize {
    (depth + 1).next_power_of_two()
}

/// The membership table's AIR.
#[derive(Clone)]
pub struct GroupAir {
    perm: Poseidon2Block<24, PARTIAL_24>,
    depth: usize,
    /// Elements of a member key's root (7 for Seed001, 8 for the leanSig
    /// sets): the leaf input is `[root | parameter | TAG_LEAF | 0...]`.
    key_digest: usize,
    columns: Vec<Vec<Val>>,
}

impl core::fmt::Debug for GroupAir {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GroupAir").field("depth", &self.depth).finish_non_exhaustive()
    }
}

impl GroupAir {
    /// The AIR for membership in `group`.
    pub fn new<S: ParameterSet>(group: &GroupKey, stride: usize) -> Self {
        let key_digest = <S::Digest as FeArray>::LEN;
        assert!(key_digest <= DIGEST_MAX, "a member key fits the leaf input");
        let depth = group.depth();
        let block = block_rows(depth);
        let columns = super::periodic_table(block, GroupPeriodic::<Val>::WIDTH, |r, row| {
            GroupPeriodic::update(row, |p| {
                let next = (r + 1) % block;
                p.is_leaf = Val::from_bool(r == 0);
                p.is_node = Val::from_bool((1..=depth).contains(&r));
                p.level = Val::from_usize(if r <= depth { r } else { 0 });
                p.is_top = Val::from_bool(r == depth);
                p.before_node = Val::from_bool((1..=depth).contains(&next));
                p.next_weight = if (1..=depth).contains(&next) { Val::from_u32(1 << (next - 1)) } else { Val::ZERO };
                p.is_block_end = Val::from_bool(r == block - 1);
                p.root = group.root;
            });
        });
        Self {
            // Every row is a compression truncated to the group digest.
            perm: Poseidon2Block::new(hashsig_constants24().clone(), stride, 0, col::WIDTH)
                .with_outputs(0..GROUP_DIGEST)
                .with_constant_tail(&[Val::ZERO; 24 - col::SIG]),
            depth,
            key_digest,
            columns,
        }
    }

    /// Rows per slot block.
    pub fn block(&self) -> usize {
        block_rows(self.depth)
    }
}

impl GroupAir {
    /// The permutation's columns.
    pub fn perm(&self) -> &Poseidon2Block<24, PARTIAL_24> {
        &self.perm
    }
}

impl BaseAir<Val> for GroupAir {
    fn width(&self) -> usize {
        col::WIDTH + self.perm.round_cols()
    }

    fn num_periodic_columns(&self) -> usize {
        GroupPeriodic::<Val>::WIDTH
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        let mut cols: Vec<usize> = (0..2 * GROUP_DIGEST).collect();
        cols.extend([col::SIG, col::IDX, col::ACC, col::BIT]);
        cols
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for GroupAir {
    /// The permutation, then the gadgets below, in this order (the order
    /// fixes the constraints' and messages' positions, hence the proof bytes).
    fn eval(&self, builder: &mut AB) {
        self.perm.eval(builder);
        let main = builder.main();
        let (cur, next) = (main.current_slice(), main.next_slice());
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row[..col::WIDTH].iter().map(|&v| v.into()).collect() };
        let (loc, nxt) = (GroupCols::from_slice(&exprs(cur)), GroupCols::from_slice(&exprs(next)));
        let out: [AB::Expr; GROUP_DIGEST] = core::array::from_fn(|j| cur[self.perm.output(j)].into());
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let p = GroupPeriodic::from_slice(&periodic);

        eval_compression(builder, &loc, &out);
        eval_flags(builder, &loc, &p);
        eval_leaf_input(builder, &loc, &p, self.key_digest);
        eval_node_input(builder, &loc, &p);
        eval_top(builder, &loc, &p);
        eval_climb(builder, &loc, &nxt, &p);
        receive_member(builder, &loc, self.key_digest);
    }
}

/// Every row is a compression: `dig = perm(input)[0..8] + input[0..8]`.
fn eval_compression<AB: AirBuilder>(builder: &mut AB, loc: &GroupCols<AB::Expr>, out: &[AB::Expr; GROUP_DIGEST]) {
    for ((dig, out), input) in loc.dig.iter().zip(out).zip(&loc.input) {
        builder.assert_eq(dig.clone(), out.clone() + input.clone());
    }
}

/// The direction bit is a bit; the committed leaf flag copies the periodic one.
fn eval_flags<AB: AirBuilder>(builder: &mut AB, loc: &GroupCols<AB::Expr>, p: &GroupPeriodic<AB::Expr>) {
    builder.assert_bool(loc.bit.clone());
    builder.assert_eq(loc.is_leaf.clone(), p.is_leaf.clone());
}

/// Leaf input: `[pk root | pk parameter | TAG_LEAF | 0...]` (lanes 18..24
/// are the permutation's constant zero tail), and no index bits yet.
fn eval_leaf_input<AB: AirBuilder>(
    builder: &mut AB,
    loc: &GroupCols<AB::Expr>,
    p: &GroupPeriodic<AB::Expr>,
    key_digest: usize,
) {
    let leaf_tag = key_digest + PARAM;
    builder.assert_zero(p.is_leaf.clone() * (loc.input[leaf_tag].clone() - AB::Expr::from_u32(TAG_LEAF)));
    for lane in &loc.input[leaf_tag + 1..] {
        builder.assert_zero(p.is_leaf.clone() * lane.clone());
    }
    builder.assert_zero(p.is_leaf.clone() * loc.acc.clone());
}

/// Node input: `[left | right | level | TAG_NODE | 0...]` (the zeros are
/// the constant tail; left and right are placed by [`eval_climb`]).
fn eval_node_input<AB: AirBuilder>(builder: &mut AB, loc: &GroupCols<AB::Expr>, p: &GroupPeriodic<AB::Expr>) {
    let at = 2 * GROUP_DIGEST;
    builder.assert_zero(p.is_node.clone() * (loc.input[at].clone() - p.level.clone()));
    builder.assert_zero(p.is_node.clone() * (loc.input[at + 1].clone() - AB::Expr::from_u32(TAG_NODE)));
}

/// The top row's digest is the group root, reached along the committed
/// index.
fn eval_top<AB: AirBuilder>(builder: &mut AB, loc: &GroupCols<AB::Expr>, p: &GroupPeriodic<AB::Expr>) {
    merkle::root(builder, &p.is_top, &loc.dig, p.root.clone());
    builder.assert_zero(p.is_top.clone() * (loc.acc.clone() - loc.idx.clone()));
}

/// From row to row: the slot counter steps at block ends, the index stays
/// constant over the block, and before a node row the index accumulates
/// the next direction bit, which places the running digest as the next
/// row's left or right child.
fn eval_climb<AB: AirBuilder>(
    builder: &mut AB,
    loc: &GroupCols<AB::Expr>,
    nxt: &GroupCols<AB::Expr>,
    p: &GroupPeriodic<AB::Expr>,
) {
    let one = AB::Expr::ONE;
    builder.when_first_row().assert_zero(loc.sig.clone());
    let mut t = builder.when_transition();
    t.assert_eq(nxt.sig.clone(), loc.sig.clone() + p.is_block_end.clone());
    t.assert_zero((one.clone() - p.is_block_end.clone()) * (nxt.idx.clone() - loc.idx.clone()));
    let before = p.before_node.clone();
    t.assert_zero(before.clone() * (nxt.acc.clone() - loc.acc.clone() - p.next_weight.clone() * nxt.bit.clone()));
    let (left, right) = nxt.input[..2 * GROUP_DIGEST].split_at(GROUP_DIGEST);
    merkle::place_node(&mut t, &before, &nxt.bit, &loc.dig, left, right);
}

/// The leaf row receives the member key and index from the statement table.
fn receive_member<AB: InteractionBuilder<F = Val>>(builder: &mut AB, loc: &GroupCols<AB::Expr>, key_digest: usize) {
    let sig = loc.sig.clone();
    let root = loc.input[..key_digest].to_vec();
    let param: [AB::Expr; PARAM] = core::array::from_fn(|j| loc.input[key_digest + j].clone());
    let is_leaf = loc.is_leaf.clone();
    builder.push_interaction(bus::MAIN, bus::member_a(sig.clone(), root), once(is_leaf.clone()));
    builder.push_interaction(bus::MAIN, bus::member_b(sig, param, loc.idx.clone()), once(is_leaf));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed rows keep the offsets the integer modules had.
    #[test]
    fn typed_rows_keep_the_former_offsets() {
        let iota: Vec<usize> = (0..GroupCols::<usize>::WIDTH).collect();
        let row = GroupCols::from_slice(&iota);
        assert_eq!((row.input[0], row.sig, row.idx, row.acc, row.bit, row.dig[0]), (0, 18, 19, 20, 21, 22));
        assert_eq!((row.is_leaf, GroupCols::<usize>::WIDTH), (22 + GROUP_DIGEST, 23 + GROUP_DIGEST));
        assert_eq!((col::SIG, col::DIG, col::IS_LEAF, col::WIDTH), (18, 22, 22 + GROUP_DIGEST, 23 + GROUP_DIGEST));
        let iota: Vec<usize> = (0..GroupPeriodic::<usize>::WIDTH).collect();
        let p = GroupPeriodic::from_slice(&iota);
        assert_eq!((p.is_leaf, p.is_node, p.level, p.is_top, p.before_node), (0, 1, 2, 3, 4));
        assert_eq!((p.next_weight, p.is_block_end, p.root[0]), (5, 6, 7));
        assert_eq!(GroupPeriodic::<usize>::WIDTH, 7 + GROUP_DIGEST);
    }
}
