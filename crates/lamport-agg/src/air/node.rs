//! The node table: the group tree's nodes above the counted signers,
//! each computed once (a threshold whose tree levels do not fit in the
//! main table's blocks: the plain set).
//!
//! Counted signers share most of their paths: at `n = 1024` all of them
//! together need the tree's 1023 internal nodes, against `1024 * 10` path
//! rows (a table of 2^14 rows) if each signer walked its own path. Each
//! row computes one node, `Trunc_8(Perm24(x) + x)` of
//! `x = node_input(level, index, left, right)`, and
//!
//! * receives `Node(level - 1, 2 index, left)` if `left_in`, and
//!   `Node(level - 1, 2 index + 1, right)` if `right_in` (a child not
//!   received is a free sibling: a subtree with no counted signer);
//! * sends `Node(level, index, digest)` if it received a child, except on
//!   the first row, the root row, whose digest must be the group root, at
//!   level `depth` and index 0.
//!
//! A counted slot sends its key as the leaf `Node(0, idx, pk)` (the slot
//! table, [`crate::air::slot`]).
//!
//! ## Soundness
//!
//! Every message sent must be received. A leaf `Node(0, idx, pk)` is
//! received by a row that sends its own digest, which is received by
//! another row, and so on; levels grow by one a step, so the chain ends,
//! and only the root row sends nothing: every counted key reaches the root
//! row through `depth` hashes. Along the chain `index_{l-1} = 2 index_l +
//! b_l` with `b_l` a bit (which child message received it) and
//! `index_depth = 0`, so every `index_l` is the integer `idx >> l` and the
//! leaf index `idx = sum b_l 2^(l-1)`: the node inputs are exactly those of
//! `sigagg_lamport::group::node`, and the chain is `idx`'s membership path
//! to the root. Rows that receive nothing send nothing and bind nothing.

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::InteractionBuilder;
use sigagg_lamport::field::{DIGEST_LEN, Digest};
use sigagg_lamport::group::{NODE_INDEX_LANE, NODE_LEVEL_LANE};

use crate::bus;
use crate::config::Val;
use crate::poseidon::{Outputs, Perm24, Rounds, perm24};
use core::mem::offset_of;
use sigagg_prover::gadgets::bus::once;
use sigagg_prover::gadgets::merkle;
use sigagg_prover::typed_row;

typed_row! {
    /// The columns after the permutation's: whether the row received its
    /// left child, its right child, either (`real`), and whether it is the
    /// root row.
    pub struct NodeFlags<T> {
        /// 1: the left child is received.
        pub left_in: T,
        /// 1: the right child is received.
        pub right_in: T,
        /// `left_in OR right_in`: the row's digest is sent (unless it is the root).
        pub real: T,
        /// 1 on the first row only.
        pub root: T,
    }
}

/// Where the [`NodeFlags`] columns sit (trace edits in the tests use them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeCols {
    /// 1: the left child is received.
    pub left_in: usize,
    /// 1: the right child is received.
    pub right_in: usize,
    /// `left_in OR right_in`: the row's digest is sent (unless it is the root).
    pub real: usize,
    /// 1 on the first row only.
    pub root: usize,
}

/// The node table's AIR. Columns: the width-24 permutation's (the input
/// lanes `[left | right | level | index]`, the node's constant lanes
/// having none), then [`NodeFlags`].
#[derive(Clone)]
pub struct NodeAir {
    perm: Perm24,
    depth: usize,
    root: Digest,
    outputs: Outputs,
}

impl core::fmt::Debug for NodeAir {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NodeAir").field("depth", &self.depth).finish_non_exhaustive()
    }
}

impl NodeAir {
    /// The table of a tree of depth `depth` and root `root`, permutations
    /// in layout `rounds`. The digest lanes are committed only where
    /// `outputs` commits lanes that constraints read (the FRI backend's
    /// quotient bounds the degree); otherwise the root constraint and the
    /// `Node` message read their expressions (degree 9: 10 in the root
    /// constraint). The table is short (a row per node), so a degree-9
    /// message field costs `p3-multi-stark` little.
    pub fn new(rounds: Rounds, depth: usize, root: Digest, outputs: Outputs) -> Self {
        let committed = if outputs.for_constraints() { Outputs::Committed } else { Outputs::None };
        Self { perm: perm24(rounds, false, committed), depth, root, outputs: committed }
    }

    /// The same table with output lanes as `outputs` says ([`Self::new`]).
    pub fn with_outputs(&self, outputs: Outputs) -> Self {
        Self::new(self.perm.rounds(), self.depth, self.root, outputs)
    }

    /// The permutation (columns from 0).
    pub fn perm(&self) -> &Perm24 {
        &self.perm
    }

    /// The flag columns.
    pub fn cols(&self) -> NodeCols {
        let at = self.flags_at();
        NodeCols {
            left_in: at + offset_of!(NodeFlags<u8>, left_in),
            right_in: at + offset_of!(NodeFlags<u8>, right_in),
            real: at + offset_of!(NodeFlags<u8>, real),
            root: at + offset_of!(NodeFlags<u8>, root),
        }
    }

    /// The first [`NodeFlags`] column (after the permutation's).
    pub fn flags_at(&self) -> usize {
        self.perm.cols()
    }

    /// The largest constraint degree: the permutation's, one more where
    /// the root constraint reads the digest's expression.
    pub fn degree(&self) -> usize {
        self.perm.rounds().max_degree() + usize::from(!self.outputs.for_constraints())
    }
}

impl BaseAir<Val> for NodeAir {
    fn width(&self) -> usize {
        self.flags_at() + NodeFlags::<Val>::WIDTH
    }

    /// Only the root flag: every other constraint and message reads one row.
    fn main_next_row_columns(&self) -> Vec<usize> {
        vec![self.cols().root]
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for NodeAir {
    /// The permutation on every row (padding rows of any input), then the
    /// gadgets below, in this order (the order fixes the constraints' and
    /// messages' positions, hence the proof bytes).
    fn eval(&self, builder: &mut AB) {
        let output = self.perm.eval(builder, 0);
        let main = builder.main();
        let (loc, nxt) = (main.current_slice(), main.next_slice());
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row.iter().map(|&v| v.into()).collect() };
        let (cur, next) = (exprs(loc), exprs(nxt));
        let at = self.flags_at();
        let (flags, next_flags) = (NodeFlags::from_slice(&cur[at..]), NodeFlags::from_slice(&next[at..]));
        // The node's digest, Trunc_8(Perm24(x) + x).
        let digest: [AB::Expr; DIGEST_LEN] = core::array::from_fn(|j| output[j].clone() + cur[j].clone());

        eval_flags(builder, &flags, &next_flags);
        self.eval_root(builder, &cur, &flags, &digest);
        send_nodes(builder, &cur, &flags, digest);
    }
}

/// The flags are bits, `real` is `left_in OR right_in`, and the root flag
/// is 1 on the first row and 0 on every other.
fn eval_flags<AB: AirBuilder>(builder: &mut AB, flags: &NodeFlags<AB::Expr>, next: &NodeFlags<AB::Expr>) {
    let NodeFlags { left_in, right_in, real, root } = flags.clone();
    builder.assert_bools([left_in.clone(), right_in.clone(), root.clone()]);
    builder.assert_eq(real, left_in.clone() + right_in.clone() - left_in * right_in);
    builder.when_first_row().assert_one(root);
    builder.when_transition().assert_zero(next.root.clone());
}

impl NodeAir {
    /// The root row is node `(depth, 0)`, has a received child, and its
    /// digest is the group root.
    fn eval_root<AB: AirBuilder<F = Val>>(
        &self,
        builder: &mut AB,
        cur: &[AB::Expr],
        flags: &NodeFlags<AB::Expr>,
        digest: &[AB::Expr; DIGEST_LEN],
    ) {
        let (root, level, index) = (flags.root.clone(), cur[NODE_LEVEL_LANE].clone(), cur[NODE_INDEX_LANE].clone());
        builder.assert_zero(root.clone() * (AB::Expr::ONE - flags.real.clone()));
        builder.assert_zero(root.clone() * (level - AB::Expr::from_usize(self.depth)));
        builder.assert_zero(root.clone() * index);
        merkle::root(builder, &root, digest, self.root.map(AB::Expr::from));
    }
}

/// Receives the children `Node(level - 1, 2 index + side, child)` the
/// flags name, and sends the node `Node(level, index, digest)` to its
/// parent if it received one, except from the root row.
fn send_nodes<AB: InteractionBuilder<F = Val>>(
    builder: &mut AB,
    cur: &[AB::Expr],
    flags: &NodeFlags<AB::Expr>,
    digest: [AB::Expr; DIGEST_LEN],
) {
    let (level, index) = (cur[NODE_LEVEL_LANE].clone(), cur[NODE_INDEX_LANE].clone());
    let child =
        |side: usize| -> [AB::Expr; DIGEST_LEN] { core::array::from_fn(|j| cur[side * DIGEST_LEN + j].clone()) };
    let below = level.clone() - AB::Expr::ONE;
    let twice = index.clone() * AB::Expr::TWO;
    builder.push_interaction(
        bus::MAIN,
        bus::node(below.clone(), twice.clone(), child(0)),
        -once(flags.left_in.clone()),
    );
    builder.push_interaction(
        bus::MAIN,
        bus::node(below, twice + AB::Expr::ONE, child(1)),
        -once(flags.right_in.clone()),
    );
    let count = once(flags.real.clone() - flags.root.clone());
    builder.push_interaction(bus::MAIN, bus::node(level, index, digest), count);
}
