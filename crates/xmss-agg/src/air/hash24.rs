//! The width-24 table: one 64-row block per signature slot.
//!
//! | rows | role | permutation input |
//! |---|---|---|
//! | 0 | message hash (compression) | `[rho | param | tweak | message | 0 0]` |
//! | 1..38 | leaf sponge chunk k = row - 1 | `prev_out + chunk` on the rate, `prev_out` (or the domain separator) on the capacity |
//! | 38..58 | tree level l = row - 37 (compression) | `[param | tweak | left | right | 0 0 0]` |
//! | 58..64 | padding | unconstrained |
//!
//! Sponge chunk k absorbs stream elements `15k .. 15k+15` of
//! `[param | leaf tweak] ++ end_0 ++ ... ++ end_77` (seven elements per
//! virtual end). Those lie in the three consecutive virtual ends of the
//! row's *window* `W = (A, B, C)`, starting at offset `e0 = k mod 7`, so
//! `chunk_t = W[e0 + t]` selected by a periodic one-hot. Each window slot is
//! received from the bus unless its flag says the chain end was already at
//! the top of its chain (digit 3): then it is the signature's own value.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};
use sigagg_koalabear::poseidon2::{PARTIAL_24, hashsig_constants24};
use sigagg_xmss::{ParameterSet, Seed001};

use crate::bus;
use crate::config::Val;
use crate::layout::{
    CAPACITY, CHUNKS, DEPTH, DIGEST, MSG, MSG_HASH, MSG_ROW, P24_BLOCK, PARAM, RATE, RHO, SPONGE_ROW, TREE_ROW,
    receiving_slots, shares_first_slot, window,
};
use crate::paired::Poseidon2Block;
use sigagg_prover::gadgets::bus::{Branch, once, push_branches};
use sigagg_prover::gadgets::{merkle, sponge};
use sigagg_prover::typed_row;

typed_row! {
    /// The committed columns of one row: the permutation's 24 input
    /// columns, then the row's own. The permutation's round columns follow
    /// [`col::WIDTH`] (their number depends on the stride, see
    /// [`crate::paired`]).
    pub struct HashCols<T> {
        /// Permutation input ([`MsgInput`], [`SpongeInput`] or [`TreeInput`]
        /// by the row's role).
        pub input: [T; 24],
        /// Slot counter.
        pub sig: T,
        /// Window of three virtual ends (see the module docs).
        pub w: [T; 3 * DIGEST],
        /// "Not received" flags of the three window slots.
        pub flags: [T; 3],
        /// Digest: permutation output, plus the input for compressions.
        pub dig: [T; DIGEST],
        /// Tree direction bit.
        pub bit: T,
        /// Committed copy of [`HashPeriodic::is_msg`] (bus counts must be committed).
        pub is_msg: T,
        /// Committed copy of [`HashPeriodic::is_sponge`].
        pub is_sponge: T,
        /// Committed copy of [`HashPeriodic::is_tree`].
        pub is_tree: T,
        /// Committed copy of [`HashPeriodic::is_top`].
        pub is_top: T,
        /// Committed copy of [`HashPeriodic::v0`].
        pub v0: T,
        /// Committed copy of [`HashPeriodic::level`].
        pub level: T,
        /// Committed copy of [`HashPeriodic::recv_a`].
        pub recv_a: T,
        /// Committed copy of [`HashPeriodic::has_c`].
        pub has_c: T,
    }
}

typed_row! {
    /// The permutation input of the message-hash row.
    pub struct MsgInput<T> {
        /// Encoding randomness.
        pub rho: [T; RHO],
        /// Hash parameter.
        pub param: [T; PARAM],
        /// Message-hash tweak.
        pub tweak: [T; 2],
        /// The message.
        pub msg: [T; MSG],
        /// Zero.
        pub tail: [T; 24 - RHO - PARAM - 2 - MSG],
    }
}

typed_row! {
    /// The permutation input of a leaf-sponge row.
    pub struct SpongeInput<T> {
        /// The rate: the previous output plus the chunk.
        pub rate: [T; RATE],
        /// The capacity: the previous output's, or the domain separator.
        pub capacity: [T; CAPACITY],
    }
}

typed_row! {
    /// The permutation input of a tree row.
    pub struct TreeInput<T> {
        /// Hash parameter.
        pub param: [T; PARAM],
        /// Tree tweak.
        pub tweak: [T; 2],
        /// Left child.
        pub left: [T; DIGEST],
        /// Right child.
        pub right: [T; DIGEST],
        /// Zero.
        pub tail: [T; 24 - PARAM - 2 - 2 * DIGEST],
    }
}

typed_row! {
    /// The periodic columns of one block row (period [`P24_BLOCK`]).
    pub(crate) struct HashPeriodic<T> {
        /// The message-hash row.
        pub is_msg: T,
        /// A leaf-sponge row.
        pub is_sponge: T,
        /// The first sponge chunk.
        pub is_sponge_first: T,
        /// The last sponge chunk.
        pub is_last_chunk: T,
        /// One-hot: the chunk starts at offset `e` of the window.
        pub sel: [T; DIGEST],
        /// The window's first virtual end.
        pub v0: T,
        /// The window's third slot is a real end.
        pub has_c: T,
        /// The next row continues the sponge.
        pub next_cont: T,
        /// The next row's `sel`.
        pub nsel: [T; DIGEST],
        /// A tree row.
        pub is_tree: T,
        /// The tree level of a tree row.
        pub level: T,
        /// The top tree level.
        pub is_top: T,
        /// The next row is a tree row.
        pub before_tree: T,
        /// A compression row (message hash or tree).
        pub is_compress: T,
        /// The block's last row.
        pub is_block_end: T,
        /// The window's first slot is received.
        pub recv_a: T,
        /// The next chunk's first slot is this chunk's third.
        pub share_next: T,
    }
}

/// Committed column offsets, from [`HashCols`] (trace corruptions in the
/// tests use them).
pub mod col {
    use super::HashCols;
    use core::mem::offset_of;
    pub const SIG: usize = offset_of!(HashCols<u8>, sig);
    pub const W: usize = offset_of!(HashCols<u8>, w);
    pub const FLAGS: usize = offset_of!(HashCols<u8>, flags);
    pub const DIG: usize = offset_of!(HashCols<u8>, dig);
    pub const BIT: usize = offset_of!(HashCols<u8>, bit);
    pub const WIDTH: usize = HashCols::<u8>::WIDTH;
}

/// Input offsets of the message-hash row, from [`MsgInput`].
pub mod msg_in {
    use super::MsgInput;
    use core::mem::offset_of;
    pub const RHO_: usize = offset_of!(MsgInput<u8>, rho);
    pub const PARAM_: usize = offset_of!(MsgInput<u8>, param);
    pub const TWEAK: usize = offset_of!(MsgInput<u8>, tweak);
    pub const MSG_: usize = offset_of!(MsgInput<u8>, msg);
    pub const END: usize = offset_of!(MsgInput<u8>, tail);
}

/// Input offsets of a tree row, from [`TreeInput`].
pub mod tree_in {
    use super::TreeInput;
    use core::mem::offset_of;
    pub const TWEAK: usize = offset_of!(TreeInput<u8>, tweak);
    pub const LEFT: usize = offset_of!(TreeInput<u8>, left);
    pub const RIGHT: usize = offset_of!(TreeInput<u8>, right);
    pub const END: usize = offset_of!(TreeInput<u8>, tail);
}

/// What row `r` of a block does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The message hash.
    Message,
    /// Leaf-sponge chunk `k`.
    Sponge(usize),
    /// Tree level `l` (1-based).
    Tree(usize),
    /// Padding.
    Pad,
}

/// The role of row `r` (taken modulo the block size).
pub fn role(r: usize) -> Role {
    match r % P24_BLOCK {
        MSG_ROW => Role::Message,
        r if (SPONGE_ROW..SPONGE_ROW + CHUNKS).contains(&r) => Role::Sponge(r - SPONGE_ROW),
        r if (TREE_ROW..TREE_ROW + DEPTH).contains(&r) => Role::Tree(r - TREE_ROW + 1),
        _ => Role::Pad,
    }
}

/// The width-24 table's AIR.
#[derive(Clone)]
pub struct HashAir {
    perm: Poseidon2Block<24, PARTIAL_24>,
    columns: Vec<Vec<Val>>,
    /// Whether the bus groups go out as exclusive interactions
    /// (`Settings::exclusive_buses`).
    exclusive: bool,
}

impl core::fmt::Debug for HashAir {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("HashAir")
    }
}

impl HashAir {
    /// Builds the AIR (round constants and block-structure columns),
    /// committing every `stride`-th full round of the permutation, its
    /// bus groups exclusive where the backend takes them.
    pub fn new(stride: usize, exclusive: bool) -> Self {
        let columns = super::periodic_table(P24_BLOCK, HashPeriodic::<Val>::WIDTH, |r, row| {
            HashPeriodic::update(row, |p| {
                let here = role(r);
                let next = role(r + 1);
                p.is_msg = Val::from_bool(here == Role::Message);
                if let Role::Sponge(k) = here {
                    p.is_sponge = Val::ONE;
                    p.is_sponge_first = Val::from_bool(k == 0);
                    p.is_last_chunk = Val::from_bool(k == CHUNKS - 1);
                    let (v0, e0) = window(k);
                    p.sel[e0] = Val::ONE;
                    p.v0 = Val::from_usize(v0);
                    let [recv_a, _, has_c] = receiving_slots(k);
                    p.recv_a = Val::from_bool(recv_a);
                    p.has_c = Val::from_bool(has_c);
                }
                if let Role::Sponge(k) = next
                    && k > 0
                {
                    p.next_cont = Val::ONE;
                    p.nsel[window(k).1] = Val::ONE;
                    p.share_next = Val::from_bool(shares_first_slot(k));
                }
                if let Role::Tree(l) = here {
                    p.is_tree = Val::ONE;
                    p.level = Val::from_usize(l);
                    p.is_top = Val::from_bool(l == DEPTH);
                }
                p.before_tree = Val::from_bool(matches!(next, Role::Tree(_)));
                p.is_compress = Val::from_bool(matches!(here, Role::Message | Role::Tree(_)));
                p.is_block_end = Val::from_bool(r == P24_BLOCK - 1);
            });
        });
        Self { perm: Poseidon2Block::new(hashsig_constants24().clone(), stride, 0, col::WIDTH), columns, exclusive }
    }
}

impl HashAir {
    /// The periodic columns at row `r`.
    pub(crate) fn periodic_row(&self, r: usize) -> HashPeriodic<Val> {
        let cells: Vec<Val> = self.columns.iter().map(|c| c[r % P24_BLOCK]).collect();
        HashPeriodic::from_slice(&cells)
    }
}

impl HashAir {
    /// The permutation's columns.
    pub fn perm(&self) -> &Poseidon2Block<24, PARTIAL_24> {
        &self.perm
    }
}

impl HashAir {
    /// Whether the bus groups go out as exclusive interactions.
    pub fn exclusive(&self) -> bool {
        self.exclusive
    }
}

impl BaseAir<Val> for HashAir {
    fn width(&self) -> usize {
        col::WIDTH + self.perm.round_cols()
    }

    fn num_periodic_columns(&self) -> usize {
        HashPeriodic::<Val>::WIDTH
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        let mut cols: Vec<usize> = (0..24).collect();
        cols.push(col::SIG);
        cols.extend(col::W..col::W + 3 * DIGEST);
        cols.push(col::BIT);
        cols
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for HashAir {
    /// The permutation, then the gadgets below, in this order (the order
    /// fixes the constraints' and messages' positions, hence the proof bytes).
    fn eval(&self, builder: &mut AB) {
        self.perm.eval(builder);
        let main = builder.main();
        let (cur, next) = (main.current_slice(), main.next_slice());
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row[..col::WIDTH].iter().map(|&v| v.into()).collect() };
        let (loc, nxt) = (HashCols::from_slice(&exprs(cur)), HashCols::from_slice(&exprs(next)));
        let out: [AB::Expr; 24] = core::array::from_fn(|j| cur[self.perm.output(j)].into());
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let p = HashPeriodic::from_slice(&periodic);

        eval_digest(builder, &loc, &out, &p);
        eval_bits(builder, &loc);
        eval_message_input(builder, &loc, &p);
        eval_first_chunk(builder, &loc, &p);
        eval_tree_input(builder, &loc, &p);
        eval_chaining(builder, &loc, &nxt, &out, &p);
        eval_climb(builder, &loc, &nxt, &p);
        eval_mirrors(builder, &loc, &p);
        send_messages(builder, self.exclusive, &loc);
    }
}

/// Sponge chunk `t` of a window `w`: the element at the window offset
/// that the one-hot `sel` picks, plus `t`.
fn chunk<E: PrimeCharacteristicRing>(w: &[E; 3 * DIGEST], sel: &[E; DIGEST], t: usize) -> E {
    (0..DIGEST).map(|e| sel[e].clone() * w[e + t].clone()).sum()
}

/// Window slot `s` (a virtual end) of `w`.
fn window_slot<E: Clone>(w: &[E; 3 * DIGEST], s: usize) -> [E; DIGEST] {
    core::array::from_fn(|j| w[DIGEST * s + j].clone())
}

/// The digest: the raw output for the sponge, with the input fed forward
/// for compressions.
fn eval_digest<AB: AirBuilder>(
    builder: &mut AB,
    loc: &HashCols<AB::Expr>,
    out: &[AB::Expr; 24],
    p: &HashPeriodic<AB::Expr>,
) {
    for ((dig, out), input) in loc.dig.iter().zip(out).zip(&loc.input) {
        builder.assert_eq(dig.clone(), out.clone() + p.is_compress.clone() * input.clone());
    }
}

/// The window flags and the direction bit are bits; the slot counter
/// starts at 0.
fn eval_bits<AB: AirBuilder>(builder: &mut AB, loc: &HashCols<AB::Expr>) {
    let [f0, f1, f2] = loc.flags.clone();
    builder.assert_bools([f0, f1, f2, loc.bit.clone()]);
    builder.when_first_row().assert_zero(loc.sig.clone());
}

/// The message hash's input ends in zeros.
fn eval_message_input<AB: AirBuilder>(builder: &mut AB, loc: &HashCols<AB::Expr>, p: &HashPeriodic<AB::Expr>) {
    for lane in MsgInput::from_slice(&loc.input).tail {
        builder.assert_zero(p.is_msg.clone() * lane);
    }
}

/// The leaf sponge's first chunk: the rate is the chunk from the window,
/// the capacity the domain separator; the last chunk's third window slot
/// is zero padding.
fn eval_first_chunk<AB: AirBuilder<F = Val>>(builder: &mut AB, loc: &HashCols<AB::Expr>, p: &HashPeriodic<AB::Expr>) {
    let first_chunk = (0..RATE).map(|t| chunk(&loc.w, &p.sel, t));
    let separator = Seed001::leaf_capacity().iter().map(|&c| AB::Expr::from(c));
    sponge::start(builder, &p.is_sponge_first, &loc.input, first_chunk.chain(separator));
    for element in window_slot(&loc.w, 2) {
        builder.assert_zero(p.is_last_chunk.clone() * element);
    }
}

/// A tree row's input ends in zeros.
fn eval_tree_input<AB: AirBuilder>(builder: &mut AB, loc: &HashCols<AB::Expr>, p: &HashPeriodic<AB::Expr>) {
    for lane in TreeInput::from_slice(&loc.input).tail {
        builder.assert_zero(p.is_tree.clone() * lane);
    }
}

/// From row to row: the slot counter steps at block ends; the sponge
/// absorbs the next chunk on the rate and keeps the capacity; a shared
/// window slot carries over, so every end is received once.
fn eval_chaining<AB: AirBuilder>(
    builder: &mut AB,
    loc: &HashCols<AB::Expr>,
    nxt: &HashCols<AB::Expr>,
    out: &[AB::Expr; 24],
    p: &HashPeriodic<AB::Expr>,
) {
    let mut t = builder.when_transition();
    t.assert_eq(nxt.sig.clone(), loc.sig.clone() + p.is_block_end.clone());
    let next_chunk = (0..RATE).map(|j| chunk(&nxt.w, &p.nsel, j));
    sponge::absorb_add(&mut t, &p.next_cont, &nxt.input[..RATE], &out[..RATE], next_chunk);
    sponge::carry_capacity(&mut t, &p.next_cont, &nxt.input[RATE..], &out[RATE..]);
    for (next, carried) in window_slot(&nxt.w, 0).into_iter().zip(window_slot(&loc.w, 2)) {
        t.assert_zero(p.share_next.clone() * (next - carried));
    }
}

/// Tree: the running node (leaf, then each level's digest) is the next
/// level's left child when its bit is 0, the right child when it is 1.
fn eval_climb<AB: AirBuilder>(
    builder: &mut AB,
    loc: &HashCols<AB::Expr>,
    nxt: &HashCols<AB::Expr>,
    p: &HashPeriodic<AB::Expr>,
) {
    let next = TreeInput::from_slice(&nxt.input);
    let mut t = builder.when_transition();
    merkle::place_node(&mut t, &p.before_tree, &nxt.bit, &loc.dig, &next.left, &next.right);
}

/// The committed copies equal the periodic values the bus reads (bus
/// messages and counts must use committed cells).
fn eval_mirrors<AB: AirBuilder>(builder: &mut AB, loc: &HashCols<AB::Expr>, p: &HashPeriodic<AB::Expr>) {
    builder.assert_eq(loc.is_msg.clone(), p.is_msg.clone());
    builder.assert_eq(loc.is_sponge.clone(), p.is_sponge.clone());
    builder.assert_eq(loc.is_tree.clone(), p.is_tree.clone());
    builder.assert_eq(loc.is_top.clone(), p.is_top.clone());
    builder.assert_eq(loc.v0.clone(), p.v0.clone());
    builder.assert_eq(loc.level.clone(), p.level.clone());
    builder.assert_eq(loc.recv_a.clone(), p.recv_a.clone());
    builder.assert_eq(loc.has_c.clone(), p.has_c.clone());
}

/// The row's bus messages, in three auxiliary columns; on every row at
/// most one branch of each is live. The message-hash row receives its
/// inputs and sends the hash; a sponge row receives the window's chain
/// ends it does not hold itself; a tree row receives its level and the
/// top row the key's root.
fn send_messages<AB: InteractionBuilder<F = Val>>(builder: &mut AB, exclusive: bool, loc: &HashCols<AB::Expr>) {
    let (one, sig, v0) = (AB::Expr::ONE, loc.sig.clone(), loc.v0.clone());
    let not_flag = |s: usize| one.clone() - loc.flags[s].clone();
    let (msg, tree) = (MsgInput::from_slice(&loc.input), TreeInput::from_slice(&loc.input));
    let [t0, t1] = tree.tweak;
    let level = bus::level(sig.clone(), loc.level.clone(), t0, t1, loc.bit.clone(), tree.param);
    let hash: [AB::Expr; MSG_HASH] = core::array::from_fn(|j| loc.dig[j].clone());
    let push = |builder: &mut AB, branches: Vec<Branch<AB::Expr>>| {
        push_branches(builder, exclusive, bus::MAIN, branches);
    };
    push(
        builder,
        vec![
            (loc.is_msg.clone(), Count::from(1), bus::statement_a(sig.clone(), msg.param, msg.tweak)),
            receive_end(loc, 0, v0.clone(), loc.recv_a.clone() * not_flag(0)),
            (loc.is_tree.clone(), Count::from(1), level),
        ],
    );
    push(
        builder,
        vec![
            (loc.is_msg.clone(), Count::from(1), bus::statement_b(sig.clone(), msg.msg)),
            receive_end(loc, 1, v0.clone() + one.clone(), not_flag(1)),
            (loc.is_top.clone(), Count::from(1), bus::root(sig.clone(), loc.dig.clone())),
        ],
    );
    push(
        builder,
        vec![
            (loc.is_msg.clone(), Count::from(-1), bus::message_hash(sig, hash)),
            receive_end(loc, 2, v0 + AB::Expr::TWO, loc.has_c.clone() * not_flag(2)),
        ],
    );
}

/// The sponge row's branch receiving window slot `s` as virtual end `v`,
/// `count` (0 or 1) times.
fn receive_end<E: PrimeCharacteristicRing>(loc: &HashCols<E>, s: usize, v: E, count: E) -> Branch<E> {
    (loc.is_sponge.clone(), once(count), bus::end(loc.sig.clone(), v, window_slot(&loc.w, s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed rows keep the offsets the integer modules had.
    #[test]
    fn typed_rows_keep_the_former_offsets() {
        assert_eq!(
            (col::SIG, col::W, col::FLAGS, col::DIG, col::BIT),
            (24, 25, 25 + 3 * DIGEST, 28 + 3 * DIGEST, 28 + 4 * DIGEST)
        );
        let iota: Vec<usize> = (0..HashCols::<usize>::WIDTH).collect();
        let row = HashCols::from_slice(&iota);
        let bit = col::BIT;
        assert_eq!((row.is_msg, row.is_sponge, row.is_tree, row.is_top), (bit + 1, bit + 2, bit + 3, bit + 4));
        assert_eq!(
            (row.v0, row.level, row.recv_a, row.has_c, col::WIDTH),
            (bit + 5, bit + 6, bit + 7, bit + 8, bit + 9)
        );
        assert_eq!(
            (msg_in::RHO_, msg_in::PARAM_, msg_in::TWEAK, msg_in::MSG_, msg_in::END),
            (0, RHO, RHO + PARAM, RHO + PARAM + 2, RHO + PARAM + 2 + MSG)
        );
        assert_eq!(
            (tree_in::TWEAK, tree_in::LEFT, tree_in::RIGHT, tree_in::END),
            (PARAM, PARAM + 2, PARAM + 2 + DIGEST, PARAM + 2 + 2 * DIGEST)
        );
        assert_eq!((SpongeInput::<u8>::WIDTH, MsgInput::<u8>::WIDTH, TreeInput::<u8>::WIDTH), (24, 24, 24));
        let iota: Vec<usize> = (0..HashPeriodic::<usize>::WIDTH).collect();
        let p = HashPeriodic::from_slice(&iota);
        assert_eq!((p.is_msg, p.is_sponge, p.is_sponge_first, p.is_last_chunk, p.sel[0]), (0, 1, 2, 3, 4));
        assert_eq!((p.v0, p.has_c, p.next_cont, p.nsel[0], p.is_tree, p.level), (11, 12, 13, 14, 21, 22));
        assert_eq!(
            (p.is_top, p.before_tree, p.is_compress, p.is_block_end, p.recv_a, p.share_next),
            (23, 24, 25, 26, 27, 28)
        );
        assert_eq!(HashPeriodic::<usize>::WIDTH, 29);
    }
}
