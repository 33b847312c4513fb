//! The width-24 table (the main table): one block of [`HashSpec::block`]
//! rows per slot.
//!
//! | rows of a block | role | width-24 input |
//! |---|---|---|
//! | `j < n/2` | sponge block `j` | `[y_2j | y_2j+1 | capacity]` |
//! | `tree_start + l - 1`, `l = 1..=depth` | tree level `l` | `node_input(l, idx >> l, left, right)` |
//! | the rest | padding | unconstrained (any permutation) |
//!
//! In the main table every row also carries one width-16 permutation, a
//! sub-key hash that any sponge row of the batch may consume through the
//! bus (see [`crate::bus::sub_key`]). In a threshold the sponge rows' hashes
//! are their own slot's: the sponge reads the randomizer off them
//! ([`SpongeCols::r_in_p16`]).
//!
//! With `r` the sponge's randomizer columns, wherever they sit, the
//! constraints on them are the same: equal to the first capacity's lanes on
//! a block's first row, equal to the next row's while the sponge continues.
//! A `SubKey(r, i, y)` claim is true whoever sends it (it names its
//! randomizer), so letting those columns be a width-16 input only narrows
//! which hashes the prover may place there; it admits no other witness.
//!
//! Column groups that a table does not need (tree columns in the plain
//! set's main table, whose tree is the node table) are left out, which
//! keeps the rows, and so every FRI query opening, narrow.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};
use sigagg_lamport::field::{DIGEST_LEN, Digest};
use sigagg_lamport::group::{NODE_INDEX_LANE, NODE_LEVEL_LANE};
use sigagg_lamport::hash::{SPONGE_RATE, SUBKEY_INDEX_LANE, TAG_PUBKEY, WIDE_TAG_LANE};
use sigagg_lamport::prf::RANDOMIZER_LEN;

use crate::bus;
use crate::config::Val;
use crate::layout::HashSpec;
use crate::poseidon::{NODE_TAIL, NODE_TAIL_START, Outputs, Perm16, Perm24, perm16, perm24};
use sigagg_prover::gadgets::bus::{once, push_branches};
use sigagg_prover::gadgets::{merkle, range, sponge};
use sigagg_prover::typed_row;

// The first capacity `[r | n | TAG_PUBKEY | 0]` fills the lanes after the rate.
const _: () = assert!(WIDE_TAG_LANE == SPONGE_RATE + RANDOMIZER_LEN + 1 && WIDE_TAG_LANE + 2 == 24);

/// Columns of the sponge role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpongeCols {
    /// The slot's randomizer (5 columns), constant over the sponge rows.
    /// With a shared codeword these are the randomizer lanes of the row's
    /// own width-16 input ([`SpongeCols::r_in_p16`]).
    pub r: usize,
    /// Whether [`SpongeCols::r`] names the row's width-16 randomizer lanes
    /// rather than columns of its own. Then the width-16 permutation of
    /// every sponge row hashes a sub-key of the row's own slot (the
    /// constraints that hold `r` constant over the block and equal to the
    /// first capacity now bind those lanes), which [`crate::trace`]
    /// arranges: with one codeword for every slot, each slot has the same
    /// number of sub-keys to hash, so the block's own rows serve it as well
    /// as any assignment could, and five columns go.
    pub r_in_p16: bool,
    /// `2j`: the index of the row's first sub-public-key (copy of a periodic column).
    pub j2: usize,
    /// Codeword bit `2j` (copy of a periodic column).
    pub bit0: usize,
    /// Codeword bit `2j + 1` (copy of a periodic column).
    pub bit1: usize,
    /// 1 on the last sponge row (copy of a periodic column).
    pub is_last: usize,
    /// Per-slot codewords only: the chunk accumulator and the committed copy
    /// of the chunk-end flag (see [`Codewords::PerSlot`]).
    pub chunk: Option<ChunkCols>,
}

/// Columns binding per-slot codeword bits to the slot table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkCols {
    /// `acc = 4 acc_prev + bit0 + 2 bit1` over the chunk's rows (Horner).
    pub acc: usize,
    /// 1 on the chunk's last row (copy of a periodic column): send `acc`.
    pub end: usize,
}

/// Columns of the tree role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeCols {
    /// Direction bit: 1 when the running node is the right child.
    pub bit: usize,
    /// The running node (8 columns): the child this level hashes upward.
    pub cur: usize,
    /// 1 on the leaf level's row (copy of a periodic column).
    pub is_bottom: usize,
}

/// Where each column group sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashCols {
    /// First column of the width-16 permutation, if the rows carry one.
    pub p16: Option<usize>,
    /// Whether the row's width-16 permutation is a sub-key hash to send.
    pub active: Option<usize>,
    /// Slot counter.
    pub slot: usize,
    /// Sponge columns.
    pub sponge: SpongeCols,
    /// Tree columns.
    pub tree: Option<TreeCols>,
    /// Total width.
    pub width: usize,
}

impl HashCols {
    /// The layout for `spec` with permutations of `cols24` and `cols16`
    /// columns; `chunked` adds the chunk columns of per-slot codewords.
    /// The width-24 permutation always starts at column 0.
    pub fn new(spec: &HashSpec, chunked: bool, cols24: usize, cols16: usize) -> Self {
        let mut next = cols24;
        let mut take = |n: usize| {
            let at = next;
            next += n;
            at
        };
        let p16 = spec.p16.then(|| take(cols16));
        let active = spec.p16.then(|| take(1));
        let slot = take(1);
        // A shared codeword reads the randomizer off the width-16 input.
        let r_in_p16 = p16.filter(|_| !chunked).map(|base| base + DIGEST_LEN);
        let sponge = SpongeCols {
            r: r_in_p16.unwrap_or_else(|| take(RANDOMIZER_LEN)),
            r_in_p16: r_in_p16.is_some(),
            j2: take(1),
            bit0: take(1),
            bit1: take(1),
            is_last: take(1),
            chunk: chunked.then(|| ChunkCols { acc: take(1), end: take(1) }),
        };
        let tree = (spec.depth > 0).then(|| TreeCols { bit: take(1), cur: take(DIGEST_LEN), is_bottom: take(1) });
        Self { p16, active, slot, sponge, tree, width: next }
    }
}

typed_row! {
    /// The periodic columns every main table has; the codeword's follow
    /// ([`SharedBits`] or [`ChunkFlags`], by [`Codewords`]).
    pub struct HashPeriodic<T> {
        /// First sponge row of the block.
        pub is_first: T,
        /// The next row continues this row's sponge.
        pub next_cont: T,
        /// Last sponge row.
        pub is_last: T,
        /// `2j` on sponge row `j`.
        pub j2: T,
        /// A tree row.
        pub is_tree: T,
        /// The row's tree level (1-based).
        pub level: T,
        /// The top level (its digest is the root).
        pub is_top: T,
        /// The next row is the next tree level.
        pub next_up: T,
        /// The leaf level.
        pub is_bottom: T,
        /// The block's last row.
        pub is_block_end: T,
    }
}

typed_row! {
    /// Shared codeword: the periodic bits sponge row `j` absorbs.
    pub struct SharedBits<T> {
        /// Bit `2j`.
        pub bit0: T,
        /// Bit `2j + 1`.
        pub bit1: T,
    }
}

typed_row! {
    /// Per-slot codewords: where the chunks of sponge rows start and end.
    pub struct ChunkFlags<T> {
        /// The first row of a chunk.
        pub start: T,
        /// The next row is in the same chunk.
        pub cont: T,
        /// The last row of a chunk.
        pub end: T,
    }
}

/// Periodic column indices, from [`HashPeriodic`], [`SharedBits`] and
/// [`ChunkFlags`] (the trace generator reads the values the committed
/// copies hold by them).
pub mod pc {
    use super::{ChunkFlags, HashPeriodic, SharedBits};
    use core::mem::offset_of;
    pub const IS_FIRST: usize = offset_of!(HashPeriodic<u8>, is_first);
    pub const NEXT_CONT: usize = offset_of!(HashPeriodic<u8>, next_cont);
    pub const IS_LAST: usize = offset_of!(HashPeriodic<u8>, is_last);
    pub const J2: usize = offset_of!(HashPeriodic<u8>, j2);
    pub const IS_TREE: usize = offset_of!(HashPeriodic<u8>, is_tree);
    pub const LEVEL: usize = offset_of!(HashPeriodic<u8>, level);
    pub const IS_TOP: usize = offset_of!(HashPeriodic<u8>, is_top);
    pub const NEXT_UP: usize = offset_of!(HashPeriodic<u8>, next_up);
    pub const IS_BOTTOM: usize = offset_of!(HashPeriodic<u8>, is_bottom);
    pub const IS_BLOCK_END: usize = offset_of!(HashPeriodic<u8>, is_block_end);
    /// Columns every table has.
    pub const STRUCTURE: usize = HashPeriodic::<u8>::WIDTH;
    pub const BIT0: usize = STRUCTURE + offset_of!(SharedBits<u8>, bit0);
    pub const BIT1: usize = STRUCTURE + offset_of!(SharedBits<u8>, bit1);
    pub const CHUNK_START: usize = STRUCTURE + offset_of!(ChunkFlags<u8>, start);
    pub const CHUNK_CONT: usize = STRUCTURE + offset_of!(ChunkFlags<u8>, cont);
    pub const CHUNK_END: usize = STRUCTURE + offset_of!(ChunkFlags<u8>, end);
}

/// Sponge rows per codeword chunk: 2 bits per row, so a chunk's value is
/// below `4^15 = 2^30 < p` and determines its bits.
pub const CHUNK_ROWS: usize = 15;

/// Number of codeword chunks of a sponge of `sponge_rows` rows.
pub const fn num_chunks(sponge_rows: usize) -> usize {
    sponge_rows.div_ceil(CHUNK_ROWS)
}

/// `2j` of chunk `c`'s last sponge row: names the chunk on the bus.
pub fn chunk_end_j2(c: usize, sponge_rows: usize) -> usize {
    2 * (CHUNK_ROWS * (c + 1)).min(sponge_rows).saturating_sub(1)
}

/// The chunk values of `codeword` (missing bits are 0): chunk `c` is
/// `sum_q (b_2j + 2 b_2j+1) 4^(len - 1 - q)` over its rows `j = 15c + q`,
/// exactly what the main table's accumulator reaches on the chunk's last row.
pub fn codeword_chunks(codeword: &[bool], sponge_rows: usize) -> Vec<Val> {
    let bit = |i: usize| u32::from(codeword.get(i).copied().unwrap_or(false));
    (0..num_chunks(sponge_rows))
        .map(|c| {
            let rows = CHUNK_ROWS * c..(CHUNK_ROWS * (c + 1)).min(sponge_rows);
            Val::from_u32(rows.fold(0u32, |acc, j| 4 * acc + bit(2 * j) + 2 * bit(2 * j + 1)))
        })
        .collect()
}

/// The codeword bits a table's sponge rows absorb.
#[derive(Clone, Debug)]
pub enum Codewords<'a> {
    /// Threshold: one message, one codeword for every slot.
    Shared(&'a [bool]),
    /// Aggregate: one codeword per slot, whose chunk values
    /// ([`codeword_chunks`]) the slot table holds. The bits are not periodic columns (that would make every periodic
    /// column as long as the table, and Plonky3 extends all of them to the
    /// quotient domain); each sponge row holds its two bits, a Horner
    /// accumulator packs 15 rows into one chunk value, and the chunk's last
    /// row sends `Code(slot, 2j, value)` to the slot table, which receives
    /// the statement's chunk values.
    PerSlot,
}

/// The width-24 table's AIR.
#[derive(Clone)]
pub struct HashAir {
    spec: HashSpec,
    cols: HashCols,
    p24: Perm24,
    p16: Option<Perm16>,
    columns: Vec<Vec<Val>>,
    root: Digest,
    num_subkeys: usize,
    /// Whether the bus groups of rows that are sponge or tree rows go out
    /// as exclusive interactions (`Settings::exclusive_buses`; true until
    /// [`HashAir::with_exclusive_buses`] says otherwise).
    exclusive: bool,
    /// Which output lanes the permutations commit ([`HashAir::with_outputs`]).
    outputs: Outputs,
}

impl core::fmt::Debug for HashAir {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HashAir").field("spec", &self.spec).field("width", &self.cols.width).finish_non_exhaustive()
    }
}

/// The role of row `r` of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Sponge block `j`.
    Sponge(usize),
    /// Tree level `l` (1-based).
    Tree(usize),
    /// Padding.
    Pad,
}

impl HashSpec {
    /// The role of row `r` (modulo the block).
    pub fn role(&self, r: usize) -> Role {
        let r = r % self.block;
        if r < self.sponge_rows {
            Role::Sponge(r)
        } else if self.depth > 0 && (self.tree_start..self.tree_start + self.depth).contains(&r) {
            Role::Tree(r - self.tree_start + 1)
        } else {
            Role::Pad
        }
    }
}

impl HashAir {
    /// The AIR of a table of blocks shaped by `spec`. `codewords` feed the
    /// sponge rows (ignored without sponge rows); `root` is the group root
    /// the top tree level must reach (ignored without tree rows).
    pub fn new(spec: HashSpec, num_subkeys: usize, codewords: Codewords<'_>, root: Digest) -> Self {
        let block = spec.block;
        let chunked = matches!(codewords, Codewords::PerSlot);
        let codeword_width = if chunked { ChunkFlags::<Val>::WIDTH } else { SharedBits::<Val>::WIDTH };
        let columns = super::periodic_table(block, pc::STRUCTURE + codeword_width, |r, row| {
            let (fixed, codeword) = row.split_at_mut(pc::STRUCTURE);
            HashPeriodic::update(fixed, |p| {
                match spec.role(r) {
                    Role::Sponge(j) => {
                        p.is_first = Val::from_bool(j == 0);
                        p.next_cont = Val::from_bool(j + 1 < spec.sponge_rows);
                        p.is_last = Val::from_bool(j + 1 == spec.sponge_rows);
                        p.j2 = Val::from_usize(2 * j);
                    }
                    Role::Tree(l) => {
                        p.is_tree = Val::ONE;
                        p.level = Val::from_usize(l);
                        p.is_top = Val::from_bool(l == spec.depth);
                        p.next_up = Val::from_bool(l < spec.depth);
                        p.is_bottom = Val::from_bool(l == 1);
                    }
                    Role::Pad => {}
                }
                p.is_block_end = Val::from_bool(r + 1 == block);
            });
            if let Role::Sponge(j) = spec.role(r) {
                match codewords {
                    // Sponge row j absorbs codeword bits 2j and 2j + 1.
                    Codewords::Shared(cw) => {
                        let bit = |i: usize| Val::from_bool(cw.get(i).copied().unwrap_or(false));
                        SharedBits { bit0: bit(2 * j), bit1: bit(2 * j + 1) }.write_to(codeword);
                    }
                    Codewords::PerSlot => {
                        let (q, last) = (j % CHUNK_ROWS, j + 1 == spec.sponge_rows);
                        ChunkFlags {
                            start: Val::from_bool(q == 0),
                            cont: Val::from_bool(q + 1 < CHUNK_ROWS && !last),
                            end: Val::from_bool(q + 1 == CHUNK_ROWS || last),
                        }
                        .write_to(codeword);
                    }
                }
            }
        });
        let p24 = perm24(spec.rounds, true, Outputs::Committed);
        let p16 = spec.p16.then(|| perm16(spec.rounds, Outputs::Committed));
        Self {
            spec,
            cols: HashCols::new(&spec, chunked, p24.cols(), p16.as_ref().map_or(0, Perm16::cols)),
            p24,
            p16,
            columns,
            root,
            num_subkeys,
            exclusive: true,
            outputs: Outputs::Committed,
        }
    }

    /// The same table with its exclusive bus groups sent as one exclusive
    /// interaction each (`true`, the FRI backend) or as plain interactions
    /// (`false`, the multilinear backend: `sigagg_prover::gadgets::bus::push_branches`).
    pub fn with_exclusive_buses(self, exclusive: bool) -> Self {
        Self { exclusive, ..self }
    }

    /// The same table with the permutations' output lanes committed as
    /// `outputs` says ([`Outputs::Committed`] by default).
    ///
    /// Every output lane the table reads is only *asserted equal* to its
    /// column: the sponge's capacity to the next row's input capacity
    /// (which that row commits anyway), the digest lanes to a message's
    /// fields or the next tree level's running node, the width-16 digest
    /// to the sub-key message. Without the columns, the same equations
    /// read the lanes' expressions in the last committed state
    /// (`Poseidon2Block::eval_output`, degree 9): the constraints gain one
    /// degree where a flag gates them (10), the messages degree-9 fields.
    /// The main table loses 8 columns ([`Outputs::ForMessages`]: the
    /// capacity), 16 ([`Outputs::ForKeys`]) or 24 ([`Outputs::None`]); the
    /// node table its 8 (`crate::air::node::NodeAir::new`). The multilinear backends have no quotient and take
    /// the degree at the price of one zerocheck evaluation; FRI's quotient
    /// at rate 1/8 does not, so only the multilinear settings leave outputs
    /// out.
    pub fn with_outputs(self, outputs: Outputs) -> Self {
        if outputs == self.outputs {
            return self;
        }
        let p24 = perm24(self.spec.rounds, true, outputs);
        let p16 = self.spec.p16.then(|| perm16(self.spec.rounds, outputs));
        let cols = HashCols::new(&self.spec, self.chunked(), p24.cols(), p16.as_ref().map_or(0, Perm16::cols));
        Self { p24, p16, cols, outputs, ..self }
    }

    /// The largest constraint degree: the permutations', one more where
    /// a flag gates an output expression ([`HashAir::with_outputs`]).
    pub fn degree(&self) -> usize {
        self.spec.rounds.max_degree() + usize::from(!self.outputs.for_constraints())
    }

    /// The column layout.
    pub fn cols(&self) -> &HashCols {
        &self.cols
    }

    /// The table's shape.
    pub fn spec(&self) -> &HashSpec {
        &self.spec
    }

    /// The width-24 permutation (columns from 0).
    pub fn p24(&self) -> &Perm24 {
        &self.p24
    }

    /// The width-16 permutation (columns from `cols().p16`), if the rows carry one.
    pub fn p16(&self) -> Option<&Perm16> {
        self.p16.as_ref()
    }

    /// Value of periodic column `c` at row `r` (what the committed copies hold).
    pub fn periodic(&self, c: usize, r: usize) -> Val {
        let col = &self.columns[c];
        col[r % col.len()]
    }

    /// Whether the codeword bits are committed and sent to the slot table
    /// in chunks ([`Codewords::PerSlot`]) rather than periodic columns.
    pub fn chunked(&self) -> bool {
        self.cols.sponge.chunk.is_some()
    }
}

impl BaseAir<Val> for HashAir {
    fn width(&self) -> usize {
        self.cols.width
    }

    fn num_periodic_columns(&self) -> usize {
        self.columns.len()
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        let (s, mut cols) = (self.cols.sponge, vec![self.cols.slot]);
        cols.extend(SPONGE_RATE..24);
        cols.extend(s.r..s.r + RANDOMIZER_LEN);
        if let Some(c) = s.chunk {
            cols.extend([s.bit0, s.bit1, c.acc]);
        }
        if let Some(t) = self.cols.tree {
            cols.push(NODE_INDEX_LANE);
            cols.push(t.bit);
            cols.extend(t.cur..t.cur + DIGEST_LEN);
        }
        cols.sort_unstable();
        cols.dedup();
        cols
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for HashAir {
    /// The permutations, then the gadgets below, in this order (the order
    /// fixes the constraints' and messages' positions, hence the proof bytes).
    fn eval(&self, builder: &mut AB) {
        // The permutations hold on every row (padding rows carry any valid
        // permutation): degree-3 constraints that must not be multiplied by
        // a selector.
        let output = self.p24.eval(builder, 0);
        let output16 = self.cols.p16.zip(self.p16.as_ref()).map(|(base, perm)| perm.eval(builder, base));

        let main = builder.main();
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row.iter().map(|&v| v.into()).collect() };
        let (loc, nxt) = (exprs(main.current_slice()), exprs(main.next_slice()));
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let (p, codeword) = (HashPeriodic::from_slice(&periodic), &periodic[pc::STRUCTURE..]);
        let rows = Rows { loc: &loc, nxt: &nxt, p, codeword, out: &output };

        self.eval_slot_counter(builder, &rows);
        self.eval_sponge(builder, &rows);
        self.eval_copies(builder, &rows);
        if let Some(t) = self.cols.tree {
            self.eval_tree_input(builder, &rows, t);
            self.eval_tree_climb(builder, &rows, t);
        }
        if let Some(active) = self.cols.active {
            eval_sub_key_hash(builder, active);
        }
        self.send_messages(builder, &rows);
        if let (Some(base), Some(active), Some(output)) = (self.cols.p16, self.cols.active, output16) {
            send_sub_key(builder, base, &output, active);
        }
    }
}

/// What the gadgets read: this row and the next as expressions, the
/// periodic values and the width-24 permutation's output.
struct Rows<'a, E> {
    loc: &'a [E],
    nxt: &'a [E],
    p: HashPeriodic<E>,
    /// The codeword's periodic columns ([`SharedBits`] or [`ChunkFlags`]).
    codeword: &'a [E],
    out: &'a [E; 24],
}

impl<E: Clone> Rows<'_, E> {
    /// Column `c` of this row.
    fn l(&self, c: usize) -> E {
        self.loc[c].clone()
    }

    /// Column `c` of the next row.
    fn n(&self, c: usize) -> E {
        self.nxt[c].clone()
    }

    /// `DIGEST_LEN` columns from `start` of this row.
    fn digest(&self, start: usize) -> [E; DIGEST_LEN] {
        core::array::from_fn(|j| self.l(start + j))
    }
}

impl HashAir {
    /// The sponge's randomizer columns of this row.
    fn randomizer<E: Clone>(&self, rows: &Rows<'_, E>) -> [E; RANDOMIZER_LEN] {
        core::array::from_fn(|i| rows.l(self.cols.sponge.r + i))
    }

    /// Slot counter: 0 on the first row, +1 after each block's last row.
    /// It names the slot in every message, so blocks cannot swap data.
    fn eval_slot_counter<AB: AirBuilder>(&self, builder: &mut AB, rows: &Rows<'_, AB::Expr>) {
        let slot = rows.l(self.cols.slot);
        builder.when_first_row().assert_zero(slot.clone());
        builder.when_transition().assert_eq(rows.n(self.cols.slot), slot + rows.p.is_block_end.clone());
    }

    /// The sponge's capacity. On the first block it is
    /// `[r | n | TAG_PUBKEY | 0]` (`pubkey_initial_capacity`), binding the
    /// randomizer and the parameter set into the key. Overwrite mode: the
    /// next block's capacity is this block's output capacity (its rate is
    /// the next pair of y's, free here and tied to the codeword through
    /// the bus). The randomizer stays the same over the key's sponge rows.
    fn eval_sponge<AB: AirBuilder>(&self, builder: &mut AB, rows: &Rows<'_, AB::Expr>) {
        let (r, s) = (self.randomizer(rows), self.cols.sponge);
        let (n, tag) = (AB::Expr::from_usize(self.num_subkeys), AB::Expr::from_u32(TAG_PUBKEY));
        let capacity = r.iter().cloned().chain([n, tag, AB::Expr::ZERO]);
        sponge::start(builder, &rows.p.is_first, &rows.loc[SPONGE_RATE..24], capacity);
        let cont = rows.p.next_cont.clone();
        sponge::carry_capacity(builder, &cont, &rows.nxt[SPONGE_RATE..24], &rows.out[SPONGE_RATE..]);
        for (i, ri) in r.iter().enumerate().take(RANDOMIZER_LEN) {
            builder.assert_zero(cont.clone() * (rows.n(s.r + i) - ri.clone()));
        }
    }

    /// Committed copies of the periodic values the bus reads (the lookup
    /// trace generator cannot read periodic columns); per-slot codeword
    /// bits are witness instead ([`eval_chunks`]).
    fn eval_copies<AB: InteractionBuilder<F = Val>>(&self, builder: &mut AB, rows: &Rows<'_, AB::Expr>) {
        let s = self.cols.sponge;
        builder.assert_eq(rows.l(s.j2), rows.p.j2.clone());
        builder.assert_eq(rows.l(s.is_last), rows.p.is_last.clone());
        match s.chunk {
            None => {
                let bits = SharedBits::from_slice(rows.codeword);
                builder.assert_eq(rows.l(s.bit0), bits.bit0);
                builder.assert_eq(rows.l(s.bit1), bits.bit1);
            }
            Some(c) => eval_chunks(builder, &s, c, &rows.p, &ChunkFlags::from_slice(rows.codeword)),
        }
    }

    /// A tree row's input is `node_input(level, index, left, right)`: the
    /// level is the row's (public); lanes 18..24 hold the node's constants
    /// (zeros and TAG_GROUP_NODE; the permutation's constant tail in the
    /// node table, columns asserted here beside a sponge). The running
    /// node is the left child when the bit is 0, the right child when it
    /// is 1 (the other child, the sibling, is free).
    fn eval_tree_input<AB: AirBuilder<F = Val>>(&self, builder: &mut AB, rows: &Rows<'_, AB::Expr>, t: TreeCols) {
        let (is_tree, bit) = (rows.p.is_tree.clone(), rows.l(t.bit));
        builder.assert_zero(is_tree.clone() * rows.l(NODE_LEVEL_LANE) - rows.p.level.clone());
        for j in NODE_TAIL_START..self.p24.input_cols() {
            builder.assert_zero(is_tree.clone() * (rows.l(j) - AB::Expr::from(NODE_TAIL[j - NODE_TAIL_START])));
        }
        builder.assert_bool(bit.clone());
        let (left, right) = rows.loc[..2 * DIGEST_LEN].split_at(DIGEST_LEN);
        merkle::select_node(builder, &is_tree, &bit, &rows.loc[t.cur..t.cur + DIGEST_LEN], left, right);
    }

    /// Up the tree: the next level's running node is this level's digest
    /// `Trunc_8(Perm24(x) + x)`. Level `l`'s index lane holds `idx >> l`:
    /// twice level `l + 1`'s plus its bit, and 0 at the top, so the bits
    /// are idx's binary digits and `idx < 2^depth`. The top digest is the
    /// group root.
    fn eval_tree_climb<AB: AirBuilder<F = Val>>(&self, builder: &mut AB, rows: &Rows<'_, AB::Expr>, t: TreeCols) {
        let up = rows.p.next_up.clone();
        for j in 0..DIGEST_LEN {
            builder.assert_zero(up.clone() * (rows.n(t.cur + j) - rows.out[j].clone() - rows.l(j)));
        }
        let index = rows.l(NODE_INDEX_LANE);
        builder.assert_zero(up * (index.clone() - rows.n(NODE_INDEX_LANE) * AB::Expr::TWO - rows.n(t.bit)));
        let top = rows.p.is_top.clone();
        builder.assert_zero(top.clone() * index);
        let digest: [AB::Expr; DIGEST_LEN] = core::array::from_fn(|j| rows.out[j].clone() + rows.l(j));
        merkle::root(builder, &top, &digest, self.root.map(AB::Expr::from));
        builder.assert_eq(rows.l(t.is_bottom), rows.p.is_bottom.clone());
    }

    /// The rows' messages: a sponge row receives the sub-keys its
    /// codeword bits ask for; with tree rows, the leaf row receives the
    /// key and sends the leaf index (sponge and tree rows never coincide,
    /// so they share the columns); the last sponge row sends the key, a
    /// chunk's last row its codeword chunk.
    fn send_messages<AB: InteractionBuilder<F = Val>>(&self, builder: &mut AB, rows: &Rows<'_, AB::Expr>) {
        let (s, slot) = (self.cols.sponge, rows.l(self.cols.slot));
        let y0 = bus::sub_key(self.randomizer(rows), rows.l(s.j2), rows.digest(0));
        let y1 = bus::sub_key(self.randomizer(rows), rows.l(s.j2) + AB::Expr::ONE, rows.digest(DIGEST_LEN));
        match self.cols.tree {
            Some(t) => {
                let leaf = bus::key(slot.clone(), rows.digest(t.cur));
                let idx = bus::index(slot.clone(), rows.l(NODE_INDEX_LANE) * AB::Expr::TWO + rows.l(t.bit));
                let (bit0, bit1, bottom) = (rows.l(s.bit0), rows.l(s.bit1), rows.l(t.is_bottom));
                let push = |builder: &mut AB, branches| {
                    push_branches(builder, self.exclusive, bus::MAIN, branches);
                };
                push(builder, [(bit0, Count::from(-1), y0), (bottom.clone(), Count::from(-1), leaf)]);
                push(builder, [(bit1, Count::from(-1), y1), (bottom, Count::from(1), idx)]);
            }
            None => {
                builder.push_interaction(bus::MAIN, y0, -once(rows.l(s.bit0)));
                builder.push_interaction(bus::MAIN, y1, -once(rows.l(s.bit1)));
            }
        }
        let key: [AB::Expr; DIGEST_LEN] = core::array::from_fn(|j| rows.out[j].clone());
        builder.push_interaction(bus::MAIN, bus::key(slot.clone(), key), once(rows.l(s.is_last)));
        if let Some(c) = s.chunk {
            let code = bus::code(slot, rows.l(s.j2), rows.l(c.acc));
            builder.push_interaction(bus::MAIN, code, once(rows.l(c.end)));
        }
    }
}

/// Per-slot codeword bits (the sponge's bit columns are witness here):
///
/// * the bits are bits, and 0 outside the sponge rows (so padding rows
///   receive no sub-key and each value below is a base-4 digit);
/// * `acc = b0 + 2 b1` on a chunk's first row and `acc' = 4 acc + b0' + 2 b1'`
///   while the next row stays in the chunk, so on the chunk's last row `acc`
///   is the chunk's rows' digits in base 4, at most 15 of them: below
///   `2^30 < p`, hence equal values mean equal bits;
/// * `end` copies the periodic chunk-end flag, the count of the
///   `Code(slot, 2j, acc)` message the slot table receives with the
///   statement's value (degree 2 throughout).
fn eval_chunks<AB: InteractionBuilder<F = Val>>(
    builder: &mut AB,
    s: &SpongeCols,
    c: ChunkCols,
    p: &HashPeriodic<AB::Expr>,
    chunk: &ChunkFlags<AB::Expr>,
) {
    let main = builder.main();
    let (loc, nxt) = (main.current_slice(), main.next_slice());
    let l = |c: usize| -> AB::Expr { loc[c].into() };
    let n = |c: usize| -> AB::Expr { nxt[c].into() };
    let sponge = p.next_cont.clone() + p.is_last.clone();
    let off = AB::Expr::ONE - sponge;
    let digit = range::bits(builder, [l(s.bit0), l(s.bit1)]);
    builder.assert_zero(off.clone() * l(s.bit0));
    builder.assert_zero(off * l(s.bit1));
    builder.assert_zero(chunk.start.clone() * (l(c.acc) - digit));
    let next_digit = range::recompose([n(s.bit0), n(s.bit1)], 1);
    builder
        .when_transition()
        .assert_zero(chunk.cont.clone() * (n(c.acc) - l(c.acc) * AB::Expr::from_u32(4) - next_digit));
    builder.assert_eq(l(c.end), chunk.end.clone());
}

/// Constraints of a free sub-key hash row: `active` is a bit. The input's
/// fixed lanes (tag 1, last lane 0) are the permutation's constant tail
/// ([`perm16`]); the sub-key, randomizer and index lanes are free: the
/// message names them.
pub(crate) fn eval_sub_key_hash<AB: InteractionBuilder<F = Val>>(builder: &mut AB, active: usize) {
    let main = builder.main();
    let loc = main.current_slice();
    builder.assert_bool(loc[active].into());
}

/// Sends `SubKey(r, i, y)` from an active width-16 row, with
/// `y = Trunc_8(Perm16(x) + x)` (compression mode, as `subkey_hash`); the
/// permutation's columns start at `base`, and `output` is its output
/// (`Perm::eval`: columns or expressions).
pub(crate) fn send_sub_key<AB: InteractionBuilder<F = Val>>(
    builder: &mut AB,
    base: usize,
    output: &[AB::Expr; 16],
    active: usize,
) {
    let main = builder.main();
    let loc = main.current_slice();
    let l = |c: usize| -> AB::Expr { loc[c].into() };
    let r: [AB::Expr; RANDOMIZER_LEN] = core::array::from_fn(|i| l(base + DIGEST_LEN + i));
    let y: [AB::Expr; DIGEST_LEN] = core::array::from_fn(|j| output[j].clone() + l(base + j));
    builder.push_interaction(bus::MAIN, bus::sub_key(r, l(base + SUBKEY_INDEX_LANE), y), once(l(active)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_codeword_reads_the_randomizer_off_the_width16_input() {
        let spec = HashSpec {
            block: 128,
            sponge_rows: 128,
            tree_start: 128,
            depth: 0,
            p16: true,
            rounds: crate::poseidon::Rounds::Every,
        };
        let (shared, per_slot) = (HashCols::new(&spec, false, 200, 100), HashCols::new(&spec, true, 200, 100));
        let (s, p) = (shared.sponge, per_slot.sponge);
        // The randomizer lanes of `subkey_input`: after the sub-key, before the index.
        assert!(s.r_in_p16 && !p.r_in_p16);
        assert_eq!(s.r, shared.p16.unwrap() + DIGEST_LEN);
        assert_eq!(s.r + RANDOMIZER_LEN, shared.p16.unwrap() + SUBKEY_INDEX_LANE);
        // Five columns fewer; the aggregate's two chunk columns are its own.
        assert_eq!(per_slot.width - shared.width, RANDOMIZER_LEN + 2);
        // Without width-16 rows there is nothing to read.
        let bare = HashCols::new(&HashSpec { p16: false, ..spec }, false, 200, 100);
        assert!(!bare.sponge.r_in_p16);
    }

    /// The typed periodic rows keep the offsets the integer module had.
    #[test]
    fn typed_periodic_rows_keep_the_former_offsets() {
        let iota: Vec<usize> = (0..HashPeriodic::<usize>::WIDTH).collect();
        let p = HashPeriodic::from_slice(&iota);
        assert_eq!((p.is_first, p.next_cont, p.is_last, p.j2, p.is_tree), (0, 1, 2, 3, 4));
        assert_eq!((p.level, p.is_top, p.next_up, p.is_bottom, p.is_block_end), (5, 6, 7, 8, 9));
        assert_eq!((pc::STRUCTURE, pc::BIT0, pc::BIT1, pc::CHUNK_START, pc::CHUNK_END), (10, 10, 11, 10, 12));
        assert_eq!((pc::IS_FIRST, pc::NEXT_CONT, pc::IS_LAST, pc::J2, pc::IS_TREE), (0, 1, 2, 3, 4));
        assert_eq!((pc::LEVEL, pc::IS_TOP, pc::NEXT_UP, pc::IS_BOTTOM, pc::IS_BLOCK_END), (5, 6, 7, 8, 9));
        assert_eq!((pc::CHUNK_CONT, ChunkFlags::<usize>::WIDTH, SharedBits::<usize>::WIDTH), (11, 3, 2));
    }

    #[test]
    fn chunks_are_base4_digits_of_the_rows() {
        // Rows 0, 1, 2 absorb bit pairs (1,0), (0,1), (1,1): digits 1, 2, 3.
        let cw = [true, false, false, true, true, true];
        assert_eq!(codeword_chunks(&cw, 3), vec![Val::from_u32((4 + 2) * 4 + 3)]);
        assert_eq!(chunk_end_j2(0, 3), 4);
        // 128 rows: eight chunks of 15 rows, then one of 8; all ones -> 4^15 - 1.
        let ones = vec![true; 256];
        let chunks = codeword_chunks(&ones, 128);
        assert_eq!(chunks.len(), 9);
        assert_eq!(chunks[0], Val::from_u32((1 << 30) - 1));
        assert_eq!(chunks[8], Val::from_u32((1 << 16) - 1));
        assert_eq!((chunk_end_j2(0, 128), chunk_end_j2(7, 128), chunk_end_j2(8, 128)), (28, 238, 254));
    }
}
