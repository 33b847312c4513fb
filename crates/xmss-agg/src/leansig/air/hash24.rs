//! The leanSig family's width-24 table: one block of [`Shape::hash_block`]
//! rows per signature slot (LeanSigProd: 64, Test: 16), every row one
//! Poseidon1 permutation of width 24.
//!
//! | rows | role | permutation input |
//! |---|---|---|
//! | [`MSG_ROW`] | message hash (compression) | `[msg (9) | param (5) | message tweak (2) | rho (7) | 0]` |
//! | `SPONGE_ROW + k` | leaf-sponge chunk `k < chunks` | `[capacity (9) | chunk k (15)]` |
//! | `tree_row() + l - 1` | tree level `l` in `1..=depth` (compression) | `[param | tweak | left (8) | right (8) | 0]` |
//! | the rest | padding | unconstrained (a permutation of any input) |
//!
//! A compression's digest is `(perm(in) + in)[..]`, read from the
//! permutation's output columns and the input columns (no digest columns).
//!
//! # The leaf sponge (`SpongeMode::ReplaceCapacityFirst`)
//!
//! The capacity sits in lanes `0..9`: the set's leaf capacity constants
//! for chunk 0, the previous row's output lanes `0..9` after that; each
//! 15-element chunk *replaces* lanes `9..24`, so the rate needs no link to
//! the previous row. The leaf is the last chunk's output lanes `9..17`.
//!
//! Chunk `k` absorbs elements `15k + 1 .. 15k + 16` of the *virtual*
//! stream `end_0 | end_1 | ...`, `end_0 = [0 | param | leaf tweak]` and
//! `end_{i+1}` chain `i`'s end ([`Shape::window`]). They lie in the
//! row's window: three virtual ends `v0, v0 + 1, v0 + 2` in 24 columns,
//! from offset `e0 <= 7`, and a periodic one-hot over `e0` selects
//! `chunk_t = window[e0 + t]`. Every window slot is bound one way:
//!
//! * *received* (+1) as `end(sig, v0 + s, slot)` when [`Shape::receives`]
//!   says so, unless its `free` flag is set (below);
//! * *copied* from the previous row's window (slot `s + advance`), when
//!   the slot is real and was already in the previous window;
//! * *zero* when it lies past the stream ([`Shape::is_real_slot`]): the
//!   sponge's zero padding.
//!
//! [`Shape::receives`] receives every virtual end exactly once per slot
//! (the layout's tests), so together the windows hold exactly the stream.
//!
//! # Free slots: a chain whose digit is 7
//!
//! A chain whose codeword digit is `BASE - 1 = 7` takes no step: its end
//! is the signature's own chain value, a witness of the prover's choosing
//! exactly as in native verification. Its slot sets `free` and receives
//! nothing. This is sound by bus balance alone: the digit table starts
//! chain `i` iff its digit is not 7, and a started chain always sends its
//! end (the chain table's last step). So a `free` flag on a chain with
//! another digit leaves that end sent and never received, and a cleared
//! flag on a digit-7 chain receives an end nobody sends: either way the
//! bus does not balance. End 0 is sent by the statement table like any
//! end, so its `free` flag is constrained to 0. Slots that do not receive
//! by the geometry (copied or padding) have `free` forced to 1, so the
//! count `1 - free` is the whole receive rule in one committed cell.
//!
//! # The tree
//!
//! Tree row `l` receives `level(sig, l, t0, t1, bit, param)` with its
//! input's tweak and parameter, so the statement fixes both, and the
//! direction bit. The running node (level 1: the leaf, the last sponge
//! row's output lanes `9..17`; level `l > 1`: the previous tree row's
//! digest) is placed in the left half when `bit = 0`, the right half when
//! 1 ([`merkle::place_node`]); the other half is the free sibling. The top
//! level's digest is received as `root(sig, digest)`: a path ending
//! elsewhere leaves the statement's root unreceived.
//!
//! # The message hash
//!
//! The message row receives `statement_a(sig, param, mtweak)` and
//! `statement_b(sig, msg)` with its input's fields, has lane 23 zero, and
//! sends `message_hash(sig, (perm(in) + in)[..outputs])` to the digit
//! table. `rho` is the signature's randomness: a free witness, as natively.
//!
//! # Slots, padding and degrees
//!
//! The slot counter `sig` starts at 0 and steps at every block end, so
//! every message names its block's slot. Padding rows (and the message,
//! sponge, tree roles) come from periodic columns; the bus reads only
//! committed cells, so the role flags and the position the messages carry
//! (`v0`, `l`) have committed mirrors tied to the periodic values. Padding
//! rows carry no message (every mirror is 0 there) and constrain nothing
//! but their permutation. Nothing here is a range check and no value is
//! compared as an integer, so no overflow argument is needed. Every
//! constraint outside the permutation has degree at most 3; the
//! permutation's is `3^stride`.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};
use sigagg_koalabear::poseidon2::PARTIAL_24;
use sigagg_prover::gadgets::bus::{Branch, once, push_branches};
use sigagg_prover::gadgets::{merkle, sponge};
use sigagg_prover::paired::{Poseidon1Block, Poseidon1Rounds};
use sigagg_prover::{periodic_table, typed_row};

use crate::bus::MAIN;
use crate::config::Val;
use crate::leansig::bus;
use crate::leansig::layout::{
    BASE, CAPACITY, DIGEST, LeanFamily, MAX_OUTPUTS, MSG, MSG_ROW, PARAM, RATE, RHO, SLOTS, SPONGE_ROW, Shape,
};
use crate::leansig::slot::SlotWitness;

/// Output lanes the table reads: the capacity `0..9` (sponge), the leaf
/// `9..17` (last sponge row), digests `0..8` and message-hash outputs.
const KEPT_OUTPUTS: usize = CAPACITY + DIGEST;

typed_row! {
    /// The committed columns of one row: the permutation's 24 input
    /// columns, then the row's own. The permutation's round columns follow
    /// [`col::WIDTH`] (their number depends on the stride).
    pub struct HashCols<T> {
        /// Permutation input ([`MsgInput`], [`SpongeInput`] or
        /// [`TreeInput`] by the row's role).
        pub input: [T; 24],
        /// Slot counter.
        pub sig: T,
        /// Sponge window: three virtual ends (module docs).
        pub w: [T; SLOTS * DIGEST],
        /// Per window slot: 1 when it is not received from the bus (a
        /// digit-7 chain, or a copied or padding slot).
        pub free: [T; SLOTS],
        /// Tree direction bit (1: the running node is the right child).
        pub bit: T,
        /// Committed copy of [`HashPeriodic::is_msg`].
        pub is_msg: T,
        /// Committed copy of [`HashPeriodic::is_sponge`].
        pub is_sponge: T,
        /// Committed copy of [`HashPeriodic::is_tree`].
        pub is_tree: T,
        /// Committed copy of [`HashPeriodic::is_top`].
        pub is_top: T,
        /// Committed copy of [`HashPeriodic::pos`].
        pub pos: T,
    }
}

typed_row! {
    /// The permutation input of the message-hash row (leanSig's layout).
    pub struct MsgInput<T> {
        /// The encoded message.
        pub msg: [T; MSG],
        /// Hash parameter.
        pub param: [T; PARAM],
        /// Message-hash tweak.
        pub tweak: [T; 2],
        /// Encoding randomness.
        pub rho: [T; RHO],
        /// Zero.
        pub tail: [T; 24 - MSG - PARAM - 2 - RHO],
    }
}

typed_row! {
    /// The permutation input of a leaf-sponge row.
    pub struct SpongeInput<T> {
        /// The capacity: the leaf capacity constants, or the previous output's.
        pub capacity: [T; CAPACITY],
        /// The rate: the chunk.
        pub rate: [T; RATE],
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
    /// The periodic columns of one block row (period [`Shape::hash_block`]).
    pub(crate) struct HashPeriodic<T> {
        /// The message-hash row.
        pub is_msg: T,
        /// A leaf-sponge row.
        pub is_sponge: T,
        /// A tree row.
        pub is_tree: T,
        /// The top tree row.
        pub is_top: T,
        /// The messages' index: the window's first virtual end `v0` on a
        /// sponge row, the level on a tree row.
        pub pos: T,
        /// The first sponge chunk.
        pub first_chunk: T,
        /// One-hot: the chunk starts at offset `e` of the window.
        pub sel: [T; DIGEST],
        /// The next row is the next chunk, its window one end further.
        pub adv1: T,
        /// The next row is the next chunk, its window two ends further.
        pub adv2: T,
        /// Sponge rows: window slot `s` does not receive by the geometry.
        pub held: [T; SLOTS],
        /// Sponge rows: window slot `s` lies past the stream.
        pub pad: [T; SLOTS],
        /// The last sponge row (the next row is tree level 1).
        pub leaf_next: T,
        /// A tree row below the top.
        pub climb: T,
        /// The block's last row.
        pub block_end: T,
    }
}

/// Committed column offsets, from [`HashCols`] (the tests' corruptions).
pub mod col {
    use super::HashCols;
    use core::mem::offset_of;
    pub const SIG: usize = offset_of!(HashCols<u8>, sig);
    pub const W: usize = offset_of!(HashCols<u8>, w);
    pub const FREE: usize = offset_of!(HashCols<u8>, free);
    pub const BIT: usize = offset_of!(HashCols<u8>, bit);
    pub const WIDTH: usize = HashCols::<u8>::WIDTH;
}

/// What a row of a block does.
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

/// The role of row `r` (taken modulo the block size) under `shape`.
pub fn role(shape: &Shape, r: usize) -> Role {
    let r = r % shape.hash_block;
    let tree = shape.tree_row();
    if r == MSG_ROW {
        Role::Message
    } else if (SPONGE_ROW..tree).contains(&r) {
        Role::Sponge(r - SPONGE_ROW)
    } else if (tree..tree + shape.depth).contains(&r) {
        Role::Tree(r - tree + 1)
    } else {
        Role::Pad
    }
}

/// The width-24 table's AIR for one set of the family.
#[derive(Clone)]
pub struct HashAir {
    shape: Shape,
    perm: Poseidon1Block<24, PARTIAL_24>,
    capacity: [Val; CAPACITY],
    columns: Vec<Vec<Val>>,
    /// Whether the bus groups go out as exclusive interactions.
    exclusive: bool,
}

impl core::fmt::Debug for HashAir {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("leansig::HashAir")
    }
}

impl HashAir {
    /// The AIR of set `S`, committing every `stride`-th full round of the
    /// permutation, its bus groups exclusive interactions when
    /// `exclusive` (the FRI backend's; see [`push_branches`]).
    pub fn new<S: LeanFamily>(stride: usize, exclusive: bool) -> Self {
        let shape = Shape::of::<S>();
        let capacity = core::array::from_fn(|j| S::leaf_capacity()[j]);
        let columns = periodic_table(shape.hash_block, HashPeriodic::<Val>::WIDTH, |r, row| {
            HashPeriodic::update(row, |p| periodic_row(&shape, r, p));
        });
        let perm = Poseidon1Block::new(Poseidon1Rounds::default24().clone(), stride, 0, col::WIDTH)
            .with_outputs(0..KEPT_OUTPUTS);
        Self { shape, perm, capacity, columns, exclusive }
    }

    /// The set's geometry.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The permutation's columns.
    pub fn perm(&self) -> &Poseidon1Block<24, PARTIAL_24> {
        &self.perm
    }

    /// The top tree row's digest in a filled block: the root the slot's
    /// signature leads to (the trace generator compares it with the key's).
    pub fn top_digest(&self, block: &[Val]) -> [Val; DIGEST] {
        let width = BaseAir::<Val>::width(self);
        let r = self.shape.tree_row() + self.shape.depth - 1;
        let row = &block[r * width..(r + 1) * width];
        let c = HashCols::from_slice(&row[..col::WIDTH]);
        core::array::from_fn(|j| row[self.perm.output(j)] + c.input[j])
    }

    /// Whether the bus groups go out as exclusive interactions.
    pub fn exclusive(&self) -> bool {
        self.exclusive
    }

    /// The periodic columns at row `r`.
    pub(crate) fn periodic_row(&self, r: usize) -> HashPeriodic<Val> {
        let cells: Vec<Val> = self.columns.iter().map(|c| c[r % self.shape.hash_block]).collect();
        HashPeriodic::from_slice(&cells)
    }

    /// Fills slot `sig`'s block `rows` (row-major, [`BaseAir::width`]
    /// wide, [`Shape::hash_block`] rows) from its witness.
    pub fn fill(&self, sig: usize, w: &SlotWitness, rows: &mut [Val]) {
        self.fill_group(sig, &[w], &mut [rows]);
    }

    /// Fills the blocks of up to `PackedVal::WIDTH` consecutive slots
    /// (`sig0`, `sig0 + 1`, ...) in lockstep, row by row, so that each
    /// row's permutations take one SIMD call ([`Poseidon1Block::write`]).
    pub fn fill_group(&self, sig0: usize, ws: &[&SlotWitness], blocks: &mut [&mut [Val]]) {
        self.fill_group_with(sig0, ws, blocks, |_, _, _| {});
    }

    /// [`Self::fill`], letting `edit` change each row's own columns (its
    /// input included) before the permutation is written; later rows
    /// chain from the edited rows' outputs, as a prover deviating at that
    /// row would (the tests' corruptions).
    #[cfg(test)]
    fn fill_with(
        &self,
        sig: usize,
        w: &SlotWitness,
        rows: &mut [Val],
        mut edit: impl FnMut(usize, &mut HashCols<Val>),
    ) {
        self.fill_group_with(sig, &[w], &mut [rows], |_, r, c| edit(r, c));
    }

    fn fill_group_with(
        &self,
        sig0: usize,
        ws: &[&SlotWitness],
        blocks: &mut [&mut [Val]],
        mut edit: impl FnMut(usize, usize, &mut HashCols<Val>),
    ) {
        // Per slot: the previous row's permutation input and output.
        let mut states = vec![([Val::ZERO; 24], [Val::ZERO; 24]); ws.len()];
        super::fill_lockstep(
            &self.perm,
            blocks,
            (self.shape.hash_block, BaseAir::<Val>::width(self)),
            &mut states,
            |prev, k, r, row| {
                let mut c = self.row(sig0 + k, ws[k], r, *prev);
                edit(k, r, &mut c);
                c.write_to(row);
                c.input
            },
            |prev, input, out| *prev = (input, out),
        );
    }

    /// The own columns of row `r` of slot `sig`'s block; `(prev_in,
    /// prev_out)` are the previous row's permutation input and output.
    fn row(&self, sig: usize, w: &SlotWitness, r: usize, (prev_in, prev_out): ([Val; 24], [Val; 24])) -> HashCols<Val> {
        let shape = &self.shape;
        let public = &w.public;
        let p = self.periodic_row(r);
        let mut c = HashCols {
            input: [Val::ZERO; 24],
            sig: Val::from_usize(sig),
            w: [Val::ZERO; SLOTS * DIGEST],
            free: [Val::ZERO; SLOTS],
            bit: Val::ZERO,
            is_msg: p.is_msg,
            is_sponge: p.is_sponge,
            is_tree: p.is_tree,
            is_top: p.is_top,
            pos: p.pos,
        };
        match role(shape, r) {
            Role::Message => {
                let input = MsgInput {
                    msg: public.msg,
                    param: public.param,
                    tweak: public.mtweak,
                    rho: w.rho,
                    tail: [Val::ZERO],
                };
                input.write_to(&mut c.input);
            }
            Role::Sponge(k) => {
                let (v0, e0) = Shape::window(k);
                for s in 0..SLOTS {
                    let v = v0 + s;
                    let value = match v {
                        0 => public.end0(),
                        v if v < shape.stream_ends => w.ends[v - 1],
                        _ => [Val::ZERO; DIGEST],
                    };
                    c.w[DIGEST * s..DIGEST * (s + 1)].copy_from_slice(&value);
                    let top = v > 0 && v < shape.stream_ends && usize::from(w.digits[v - 1]) == BASE - 1;
                    c.free[s] = Val::from_bool(!shape.receives(k, s) || top);
                }
                let capacity = if k == 0 { self.capacity } else { core::array::from_fn(|j| prev_out[j]) };
                let rate = core::array::from_fn(|t| c.w[e0 + t]);
                SpongeInput { capacity, rate }.write_to(&mut c.input);
            }
            Role::Tree(l) => {
                let node: [Val; DIGEST] = if l == 1 {
                    core::array::from_fn(|j| prev_out[CAPACITY + j])
                } else {
                    core::array::from_fn(|j| prev_out[j] + prev_in[j])
                };
                let [t0, t1, bit] = public.levels[l - 1];
                let sibling = w.co_path[l - 1];
                let (left, right) = if bit == Val::ZERO { (node, sibling) } else { (sibling, node) };
                TreeInput { param: public.param, tweak: [t0, t1], left, right, tail: [Val::ZERO] }
                    .write_to(&mut c.input);
                c.bit = bit;
            }
            Role::Pad => {}
        }
        c
    }
}

/// The periodic values of row `r` of a block under `shape`.
fn periodic_row(shape: &Shape, r: usize, p: &mut HashPeriodic<Val>) {
    let next = role(shape, r + 1);
    match role(shape, r) {
        Role::Message => p.is_msg = Val::ONE,
        Role::Sponge(k) => {
            let (v0, e0) = Shape::window(k);
            p.is_sponge = Val::ONE;
            p.pos = Val::from_usize(v0);
            p.first_chunk = Val::from_bool(k == 0);
            p.sel[e0] = Val::ONE;
            for s in 0..SLOTS {
                p.held[s] = Val::from_bool(!shape.receives(k, s));
                p.pad[s] = Val::from_bool(!shape.is_real_slot(k, s));
            }
            if next == Role::Sponge(k + 1) {
                p.adv1 = Val::from_bool(Shape::advance(k) == 1);
                p.adv2 = Val::from_bool(Shape::advance(k) == 2);
            }
            p.leaf_next = Val::from_bool(next == Role::Tree(1));
        }
        Role::Tree(l) => {
            p.is_tree = Val::ONE;
            p.pos = Val::from_usize(l);
            p.is_top = Val::from_bool(l == shape.depth);
            p.climb = Val::from_bool(l < shape.depth);
        }
        Role::Pad => {}
    }
    p.block_end = Val::from_bool(r + 1 == shape.hash_block);
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

    /// The transitions read the next row's input (capacity, tree
    /// children), slot counter, window and direction bit.
    fn main_next_row_columns(&self) -> Vec<usize> {
        let mut cols: Vec<usize> = (0..24 - 1).collect();
        cols.push(col::SIG);
        cols.extend(col::W..col::W + SLOTS * DIGEST);
        cols.push(col::BIT);
        cols
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for HashAir {
    /// The permutation, then the gadgets below, in this order.
    fn eval(&self, builder: &mut AB) {
        self.perm.eval(builder);
        let main = builder.main();
        let (cur, next) = (main.current_slice(), main.next_slice());
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row[..col::WIDTH].iter().map(|&v| v.into()).collect() };
        let (loc, nxt) = (HashCols::from_slice(&exprs(cur)), HashCols::from_slice(&exprs(next)));
        let out: [AB::Expr; KEPT_OUTPUTS] = core::array::from_fn(|j| cur[self.perm.output(j)].into());
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let p = HashPeriodic::from_slice(&periodic);
        // The compression digest `(perm(in) + in)[..8]`.
        let digest: [AB::Expr; DIGEST] = core::array::from_fn(|j| out[j].clone() + loc.input[j].clone());

        eval_bits(builder, &loc);
        eval_zero_lane(builder, &loc, &p);
        eval_window(builder, &loc, &p);
        eval_chunk(builder, &loc, &p);
        eval_first_capacity(builder, &loc, &p, &self.capacity);
        eval_transitions(builder, &loc, &nxt, &out, &digest, &p);
        eval_mirrors(builder, &loc, &p);
        send_messages(builder, self.exclusive, self.shape.outputs, &loc, &out, &digest);
    }
}

/// Sponge chunk element `t` of window `w`: the element at the window
/// offset that the one-hot `sel` picks, plus `t`.
fn chunk<E: PrimeCharacteristicRing>(w: &[E; SLOTS * DIGEST], sel: &[E; DIGEST], t: usize) -> E {
    (0..DIGEST).map(|e| sel[e].clone() * w[e + t].clone()).sum()
}

/// Window slot `s` (a virtual end) of `w`.
fn window_slot<E: Clone>(w: &[E; SLOTS * DIGEST], s: usize) -> [E; DIGEST] {
    core::array::from_fn(|j| w[DIGEST * s + j].clone())
}

/// The `free` flags and the direction bit are bits, and the slot counter
/// starts at 0. A non-boolean `free` would receive an end `1 - free`
/// times (a hidden send); a non-boolean bit would let [`merkle::place_node`]
/// hold with the node in neither half; a counter not starting at 0 would
/// shift every message to another slot's.
fn eval_bits<AB: AirBuilder>(builder: &mut AB, loc: &HashCols<AB::Expr>) {
    let [f0, f1, f2] = loc.free.clone();
    builder.assert_bools([f0, f1, f2, loc.bit.clone()]);
    builder.when_first_row().assert_zero(loc.sig.clone());
}

/// Compressions (message hash, tree) have input lane 23 zero, as the
/// native inputs do: otherwise a free lane would make the hash's output
/// the prover's choice among `p` values.
fn eval_zero_lane<AB: AirBuilder>(builder: &mut AB, loc: &HashCols<AB::Expr>, p: &HashPeriodic<AB::Expr>) {
    builder.assert_zero((p.is_msg.clone() + p.is_tree.clone()) * loc.input[23].clone());
}

/// The window slots' rules that do not involve the bus: a slot that does
/// not receive by the geometry has `free = 1` (else it would receive a
/// second copy of an end, or an end past the stream); end 0 (the first
/// chunk's slot 0, sent by the statement) is never free (else `[0 |
/// param | leaf tweak]` would be the prover's); a slot past the stream is
/// zero (the sponge's zero padding, else the last chunk's tail is free).
fn eval_window<AB: AirBuilder>(builder: &mut AB, loc: &HashCols<AB::Expr>, p: &HashPeriodic<AB::Expr>) {
    for s in 0..SLOTS {
        builder.assert_zero(p.held[s].clone() * (AB::Expr::ONE - loc.free[s].clone()));
    }
    builder.assert_zero(p.first_chunk.clone() * loc.free[0].clone());
    for s in 0..SLOTS {
        for element in window_slot(&loc.w, s) {
            builder.assert_zero(p.pad[s].clone() * element);
        }
    }
}

/// A sponge row's rate input is its chunk, `window[e0 + t]`: without it
/// the absorbed data would not be the received ends.
fn eval_chunk<AB: AirBuilder>(builder: &mut AB, loc: &HashCols<AB::Expr>, p: &HashPeriodic<AB::Expr>) {
    let rate = SpongeInput::from_slice(&loc.input).rate;
    for (t, lane) in rate.into_iter().enumerate() {
        builder.assert_eq(p.is_sponge.clone() * lane, chunk(&loc.w, &p.sel, t));
    }
}

/// The first chunk's capacity is the set's leaf capacity constants (the
/// domain separator encoding the input lengths, [`sponge::start`]).
fn eval_first_capacity<AB: AirBuilder<F = Val>>(
    builder: &mut AB,
    loc: &HashCols<AB::Expr>,
    p: &HashPeriodic<AB::Expr>,
    capacity: &[Val; CAPACITY],
) {
    let input = SpongeInput::from_slice(&loc.input).capacity;
    sponge::start(builder, &p.first_chunk, &input, capacity.iter().map(|&c| AB::Expr::from(c)));
}

/// From row to row: the slot counter steps at block ends (so every block
/// is one slot); the next chunk keeps the capacity ([`sponge::carry_capacity`])
/// and copies the window slots the two windows share (so an end received
/// once serves every chunk that reads it); the running node (the leaf
/// after the last chunk, then each level's digest) is placed in the next
/// tree row by its bit ([`merkle::place_node`]).
fn eval_transitions<AB: AirBuilder>(
    builder: &mut AB,
    loc: &HashCols<AB::Expr>,
    nxt: &HashCols<AB::Expr>,
    out: &[AB::Expr; KEPT_OUTPUTS],
    digest: &[AB::Expr; DIGEST],
    p: &HashPeriodic<AB::Expr>,
) {
    let mut t = builder.when_transition();
    t.assert_eq(nxt.sig.clone(), loc.sig.clone() + p.block_end.clone());
    let advances = p.adv1.clone() + p.adv2.clone();
    sponge::carry_capacity(&mut t, &advances, &nxt.input[..CAPACITY], &out[..CAPACITY]);
    let copies = [(&p.adv1, 0, 1), (&p.adv1, 1, 2), (&p.adv2, 0, 2)];
    for (flag, to, from) in copies {
        for (next, kept) in window_slot(&nxt.w, to).into_iter().zip(window_slot(&loc.w, from)) {
            t.assert_zero(flag.clone() * (next - kept));
        }
    }
    let next = TreeInput::from_slice(&nxt.input);
    let leaf = &out[CAPACITY..CAPACITY + DIGEST];
    merkle::place_node(&mut t, &p.leaf_next, &nxt.bit, leaf, &next.left, &next.right);
    merkle::place_node(&mut t, &p.climb, &nxt.bit, digest, &next.left, &next.right);
}

/// The committed copies equal the periodic values the bus reads (bus
/// messages and counts must use committed cells): without them a row
/// could take another role's messages.
fn eval_mirrors<AB: AirBuilder>(builder: &mut AB, loc: &HashCols<AB::Expr>, p: &HashPeriodic<AB::Expr>) {
    builder.assert_eq(loc.is_msg.clone(), p.is_msg.clone());
    builder.assert_eq(loc.is_sponge.clone(), p.is_sponge.clone());
    builder.assert_eq(loc.is_tree.clone(), p.is_tree.clone());
    builder.assert_eq(loc.is_top.clone(), p.is_top.clone());
    builder.assert_eq(loc.pos.clone(), p.pos.clone());
}

/// The row's bus messages in three groups (one auxiliary column each with
/// exclusive interactions); the roles' mirrors exclude each other, so at
/// most one branch of a group is live. The message row receives its
/// inputs and sends the hash; a sponge row receives the window slots it
/// does not hold free; a tree row receives its level, the top row also
/// the key's root.
fn send_messages<AB: InteractionBuilder<F = Val>>(
    builder: &mut AB,
    exclusive: bool,
    outputs: usize,
    loc: &HashCols<AB::Expr>,
    out: &[AB::Expr; KEPT_OUTPUTS],
    digest: &[AB::Expr; DIGEST],
) {
    debug_assert!(outputs <= MAX_OUTPUTS);
    let sig = loc.sig.clone();
    let (msg, tree) = (MsgInput::from_slice(&loc.input), TreeInput::from_slice(&loc.input));
    let [t0, t1] = tree.tweak;
    let level = bus::level(sig.clone(), loc.pos.clone(), t0, t1, loc.bit.clone(), tree.param);
    let hash = (0..outputs).map(|j| out[j].clone() + loc.input[j].clone());
    let receive_end = |s: usize| -> Branch<AB::Expr> {
        let v = loc.pos.clone() + AB::Expr::from_usize(s);
        let count = once(AB::Expr::ONE - loc.free[s].clone());
        (loc.is_sponge.clone(), count, bus::end(sig.clone(), v, window_slot(&loc.w, s)))
    };
    let groups: [Vec<Branch<AB::Expr>>; 3] = [
        vec![
            (loc.is_msg.clone(), Count::from(1), bus::statement_a(sig.clone(), msg.param, msg.tweak)),
            receive_end(0),
            (loc.is_tree.clone(), Count::from(1), level),
        ],
        vec![
            (loc.is_msg.clone(), Count::from(1), bus::statement_b(sig.clone(), msg.msg)),
            receive_end(1),
            (loc.is_top.clone(), Count::from(1), bus::root(sig.clone(), digest.clone())),
        ],
        vec![(loc.is_msg.clone(), Count::from(-1), bus::message_hash(sig.clone(), hash)), receive_end(2)],
    ];
    for branches in groups {
        push_branches(builder, exclusive, MAIN, branches);
    }
}

#[cfg(test)]
mod tests;
