//! The membership table of threshold proofs: one block of
//! `next_pow2(depth + 1)` rows per signature slot. Row 0 hashes the slot's
//! public key into its group leaf, rows `1..=depth` climb the group tree
//! (width-24 Poseidon2 compressions, see [`sigagg_xmss::group`]), the top row's
//! digest must be the group root (a periodic constant), and the direction
//! bits must spell the member index the statement table committed to.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};
use sigagg_koalabear::poseidon2::{PARTIAL_24, hashsig_constants24};

use crate::bus;
use crate::config::Val;
use crate::layout::{DIGEST, PARAM};
use crate::paired::Poseidon2Block;
use sigagg_xmss::group::{GROUP_DIGEST, GroupKey, TAG_LEAF, TAG_NODE};

/// Committed columns after the permutation's 18 input columns (lanes 18..24
/// are zero in every row, a constant tail); the permutation's
/// round columns follow [`col::WIDTH`] (their number depends on the stride,
/// see [`crate::paired`]).
pub mod col {
    use super::*;
    pub const SIG: usize = 18;
    /// The member index (constant over the block).
    pub const IDX: usize = SIG + 1;
    /// Index bits accumulated so far.
    pub const ACC: usize = IDX + 1;
    /// Direction bit of this level: 1 when the running node is the right child.
    pub const BIT: usize = ACC + 1;
    /// Compression output `(perm(in) + in)[0..8]`.
    pub const DIG: usize = BIT + 1;
    /// Copy of the periodic leaf-row flag (bus counts must be committed).
    pub const IS_LEAF: usize = DIG + GROUP_DIGEST;
    pub const WIDTH: usize = IS_LEAF + 1;
}

mod pc {
    use super::*;
    pub const IS_LEAF: usize = 0;
    pub const IS_NODE: usize = 1;
    pub const LEVEL: usize = 2;
    pub const IS_TOP: usize = 3;
    /// The next row is a node.
    pub const BEFORE_NODE: usize = 4;
    /// Weight of the next row's bit in the index: `2^(level - 1)`.
    pub const NEXT_WEIGHT: usize = 5;
    pub const IS_BLOCK_END: usize = 6;
    /// The group root (the same on every row).
    pub const ROOT: usize = 7;
    pub const WIDTH: usize = ROOT + GROUP_DIGEST;
}

// Both inputs end before the constant zero tail: the leaf's tag lane and
// the node's tag lane.
const _: () = assert!(DIGEST + PARAM < col::SIG && 2 * GROUP_DIGEST + 1 < col::SIG);

/// Rows per slot block for a tree of `depth` levels.
pub fn block_rows(depth: usize) -> usize {
    (depth + 1).next_power_of_two()
}

/// The membership table's AIR.
#[derive(Clone)]
pub struct GroupAir {
    perm: Poseidon2Block<24, PARTIAL_24>,
    depth: usize,
    columns: Vec<Vec<Val>>,
}

impl core::fmt::Debug for GroupAir {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GroupAir").field("depth", &self.depth).finish_non_exhaustive()
    }
}

impl GroupAir {
    /// The AIR for membership in `group`.
    pub fn new(group: &GroupKey, stride: usize) -> Self {
        let depth = group.depth();
        let block = block_rows(depth);
        let columns = super::periodic_table(block, pc::WIDTH, |r, row| {
            let next = (r + 1) % block;
            row[pc::IS_LEAF] = Val::from_bool(r == 0);
            row[pc::IS_NODE] = Val::from_bool((1..=depth).contains(&r));
            row[pc::LEVEL] = Val::from_usize(if r <= depth { r } else { 0 });
            row[pc::IS_TOP] = Val::from_bool(r == depth);
            row[pc::BEFORE_NODE] = Val::from_bool((1..=depth).contains(&next));
            row[pc::NEXT_WEIGHT] = if (1..=depth).contains(&next) { Val::from_u32(1 << (next - 1)) } else { Val::ZERO };
            row[pc::IS_BLOCK_END] = Val::from_bool(r == block - 1);
            row[pc::ROOT..pc::ROOT + GROUP_DIGEST].copy_from_slice(&group.root);
        });
        Self {
            // Every row is a compression truncated to the group digest.
            perm: Poseidon2Block::new(hashsig_constants24().clone(), stride, 0, col::WIDTH)
                .with_outputs(0..GROUP_DIGEST)
                .with_constant_tail(&[Val::ZERO; 24 - col::SIG]),
            depth,
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
        pc::WIDTH
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
    fn eval(&self, builder: &mut AB) {
        self.perm.eval(builder);
        let main = builder.main();
        let (loc, nxt) = (main.current_slice(), main.next_slice());
        let l = |c: usize| -> AB::Expr { loc[c].into() };
        let n = |c: usize| -> AB::Expr { nxt[c].into() };
        let out = |j: usize| -> AB::Expr { loc[self.perm.output(j)].into() };
        let p: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let one = AB::Expr::ONE;

        // Every row is a compression.
        for j in 0..GROUP_DIGEST {
            builder.assert_eq(l(col::DIG + j), out(j) + l(j));
        }
        builder.assert_bool(l(col::BIT));
        builder.assert_eq(l(col::IS_LEAF), p[pc::IS_LEAF].clone());
        // Leaf input: [pk root | pk parameter | TAG_LEAF | 0...].
        let leaf_tag = DIGEST + PARAM;
        builder.assert_zero(p[pc::IS_LEAF].clone() * (l(leaf_tag) - AB::Expr::from_u32(TAG_LEAF)));
        // Lanes 18..24 are the permutation's constant zero tail.
        for j in leaf_tag + 1..col::SIG {
            builder.assert_zero(p[pc::IS_LEAF].clone() * l(j));
        }
        builder.assert_zero(p[pc::IS_LEAF].clone() * l(col::ACC));
        // Node input: [left | right | level | TAG_NODE | 0...] (the zeros are
        // the constant tail).
        let at = 2 * GROUP_DIGEST;
        builder.assert_zero(p[pc::IS_NODE].clone() * (l(at) - p[pc::LEVEL].clone()));
        builder.assert_zero(p[pc::IS_NODE].clone() * (l(at + 1) - AB::Expr::from_u32(TAG_NODE)));
        // The top: the group root, reached along the committed index.
        for j in 0..GROUP_DIGEST {
            builder.assert_zero(p[pc::IS_TOP].clone() * (l(col::DIG + j) - p[pc::ROOT + j].clone()));
        }
        builder.assert_zero(p[pc::IS_TOP].clone() * (l(col::ACC) - l(col::IDX)));
        builder.when_first_row().assert_zero(l(col::SIG));

        let mut t = builder.when_transition();
        t.assert_eq(n(col::SIG), l(col::SIG) + p[pc::IS_BLOCK_END].clone());
        t.assert_zero((one.clone() - p[pc::IS_BLOCK_END].clone()) * (n(col::IDX) - l(col::IDX)));
        let before = p[pc::BEFORE_NODE].clone();
        t.assert_zero(before.clone() * (n(col::ACC) - l(col::ACC) - p[pc::NEXT_WEIGHT].clone() * n(col::BIT)));
        for j in 0..GROUP_DIGEST {
            let node = l(col::DIG + j);
            t.assert_zero(before.clone() * (one.clone() - n(col::BIT)) * (n(j) - node.clone()));
            t.assert_zero(before.clone() * n(col::BIT) * (n(GROUP_DIGEST + j) - node));
        }

        // Bus: the leaf row receives the member key and index from the statement table.
        let sig = l(col::SIG);
        let root: [AB::Expr; DIGEST] = core::array::from_fn(&l);
        let param: [AB::Expr; PARAM] = core::array::from_fn(|j| l(DIGEST + j));
        builder.push_interaction(bus::MAIN, bus::member_a(sig.clone(), root), Count::bounded(l(col::IS_LEAF), 1));
        builder.push_interaction(bus::MAIN, bus::member_b(sig, param, l(col::IDX)), Count::bounded(l(col::IS_LEAF), 1));
    }
}
