//! The slot table: one row per slot.
//!
//! * **Aggregate**: the row holds the slot's public key and its codeword's
//!   chunk values (committed copies of periodic columns the verifier
//!   computes from the statement), receives `Key(slot, pk)` from the slot's
//!   last sponge row (the signature in that slot verifies under the
//!   statement's key) and `Code(slot, 2j, value)` from each chunk's last
//!   sponge row (the sponge absorbed the statement's codeword).
//! * **Threshold**: the row holds the slot's leaf index `idx` and `depth`
//!   bits `d_k`. Where the tree levels sit in the main table's blocks
//!   (mined set), it receives `Index(slot, idx)` from the slot's leaf row;
//!   with a node table ([`crate::air::node`]) it receives the slot's key
//!   `Key(slot, pk)` itself and, if counted, sends it as the leaf
//!   `Node(0, idx, pk)`. For
//!   every counted slot `s < c` (public count `c`):
//!   `next - idx - 1 = sum_k d_k 2^k` where `next` is the next slot's index,
//!   or the group size after the last counted slot. So counted indices
//!   increase strictly (counted signers are distinct members) and stay below
//!   the size (no padding leaf counts). Slots `s >= c` repeat the last
//!   counted slot and are not counted. With a revealed bitmap the indices
//!   are also pinned to the public signer list.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::InteractionBuilder;
use sigagg_lamport::field::{DIGEST_LEN, Digest};

use crate::air::hash::{chunk_end_j2, num_chunks};
use crate::bus;
use crate::config::Val;
use sigagg_prover::gadgets::bus::once;
use sigagg_prover::gadgets::range;

/// Column of the slot counter.
pub const SLOT: usize = 0;
/// Aggregate: first of the 8 key columns.
pub const PK: usize = 1;
/// Aggregate: first of the codeword chunk columns (after the key).
pub const CODE: usize = PK + DIGEST_LEN;
/// Threshold: the leaf index.
pub const IDX: usize = 1;
/// Threshold: first bit of the gap to the next index.
pub const GAP: usize = 2;

/// Threshold with a node table: the key columns (8) after the gap bits,
/// then the committed copy of the counted flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafCols {
    /// First of the 8 key columns.
    pub key: usize,
    /// 1 on counted slots: the `Node` message's count.
    pub counted: usize,
}

/// How a threshold's slots reach the group tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaves {
    /// The tree levels follow the sponge in the main table's blocks; the
    /// slot's leaf row sends `Index(slot, idx)`.
    InBlock,
    /// The node table computes the tree; the slot sends its leaf.
    Nodes,
}

/// Threshold periodic columns.
mod pc {
    /// Counted, and the next slot is counted too.
    pub const HAS_NEXT: usize = 0;
    /// The last counted slot.
    pub const IS_LAST_REAL: usize = 1;
    /// The public leaf index (revealed bitmap only).
    pub const PIDX: usize = 2;
}

/// What the slot table checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// Public keys and codewords from the statement.
    Aggregate {
        /// Codeword chunks per slot.
        chunks: usize,
        /// Sponge rows per slot (where the chunks end).
        sponge_rows: usize,
    },
    /// Leaf indices of a group of `size` members, tree depth `depth`.
    Threshold {
        /// Tree depth (bits per gap).
        depth: usize,
        /// Group size.
        size: u32,
        /// Whether the indices are public (revealed bitmap).
        revealed: bool,
        /// How the slots reach the tree.
        leaves: Leaves,
    },
}

/// The slot table's AIR.
#[derive(Clone, Debug)]
pub struct SlotAir {
    kind: SlotKind,
    columns: Vec<Vec<Val>>,
}

impl SlotAir {
    /// Aggregate: one public key and the chunk values of one codeword
    /// ([`crate::air::hash::codeword_chunks`]) per slot (padding slots
    /// repeat the last); the slots' sponges have `sponge_rows` rows.
    pub fn aggregate(keys: &[Digest], chunks: &[Vec<Val>], sponge_rows: usize) -> Self {
        assert_eq!(keys.len(), chunks.len(), "one codeword per key");
        let num = num_chunks(sponge_rows);
        assert!(chunks.iter().all(|c| c.len() == num), "{num} chunks per codeword");
        let columns = super::periodic_table(keys.len(), DIGEST_LEN + num, |r, row| {
            row[..DIGEST_LEN].copy_from_slice(&keys[r]);
            row[DIGEST_LEN..].copy_from_slice(&chunks[r]);
        });
        Self { kind: SlotKind::Aggregate { chunks: num, sponge_rows }, columns }
    }

    /// Threshold: `slots` slots of which the first `count` are counted.
    /// `revealed` lists the counted leaf indices when the bitmap is public.
    ///
    /// # Panics
    /// If `depth` exceeds [`crate::layout::MAX_DEPTH`]: beyond it the
    /// ordering check's field equation could wrap around `p` and accept
    /// a decreasing pair of indices (`ThresholdStatement::new` refuses such
    /// groups, so no statement reaches this).
    pub fn threshold(
        slots: usize,
        count: usize,
        depth: usize,
        size: u32,
        revealed: Option<&[u32]>,
        leaves: Leaves,
    ) -> Self {
        assert!(depth <= crate::layout::MAX_DEPTH, "group depth {depth} beyond the ordering argument's bound");
        let width = if revealed.is_some() { 3 } else { 2 };
        let columns = super::periodic_table(slots, width, |r, row| {
            row[pc::HAS_NEXT] = Val::from_bool(r + 1 < count);
            row[pc::IS_LAST_REAL] = Val::from_bool(r + 1 == count);
            if let Some(idx) = revealed {
                row[pc::PIDX] = Val::from_u32(idx[r.min(count - 1)]);
            }
        });
        Self { kind: SlotKind::Threshold { depth, size, revealed: revealed.is_some(), leaves }, columns }
    }

    /// The key and counted columns of a threshold with a node table.
    pub fn leaf_cols(&self) -> Option<LeafCols> {
        match self.kind {
            SlotKind::Threshold { depth, leaves: Leaves::Nodes, .. } => {
                Some(LeafCols { key: GAP + depth, counted: GAP + depth + DIGEST_LEN })
            }
            _ => None,
        }
    }

    /// What the table checks.
    pub fn kind(&self) -> SlotKind {
        self.kind
    }

    /// Value of periodic column `c` at row `r`.
    pub fn periodic(&self, c: usize, r: usize) -> Val {
        self.columns[c][r]
    }
}

impl BaseAir<Val> for SlotAir {
    fn width(&self) -> usize {
        match self.kind {
            SlotKind::Aggregate { chunks, .. } => CODE + chunks,
            SlotKind::Threshold { depth, .. } => match self.leaf_cols() {
                Some(c) => c.counted + 1,
                None => GAP + depth,
            },
        }
    }

    fn num_periodic_columns(&self) -> usize {
        self.columns.len()
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        match self.kind {
            SlotKind::Aggregate { .. } => vec![SLOT],
            SlotKind::Threshold { .. } => vec![SLOT, IDX],
        }
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for SlotAir {
    /// The slot counter, then the kind's gadgets below (their order fixes
    /// the constraints' and messages' positions, hence the proof bytes).
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row.iter().map(|&v| v.into()).collect() };
        let (loc, nxt) = (exprs(main.current_slice()), exprs(main.next_slice()));
        let p: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();

        // Slot counter 0, 1, 2, ...: the slot named in every message.
        builder.when_first_row().assert_zero(loc[SLOT].clone());
        builder.when_transition().assert_eq(nxt[SLOT].clone(), loc[SLOT].clone() + AB::Expr::ONE);

        match self.kind {
            SlotKind::Aggregate { chunks, sponge_rows } => eval_statement_slot(builder, &loc, &p, chunks, sponge_rows),
            SlotKind::Threshold { depth, size, revealed, .. } => {
                let idx = loc[IDX].clone();
                eval_index_order(builder, &loc, &nxt, &p, depth, size);
                if revealed {
                    builder.assert_eq(idx.clone(), p[pc::PIDX].clone());
                }
                match self.leaf_cols() {
                    None => builder.push_interaction(bus::MAIN, bus::index(loc[SLOT].clone(), idx), -1),
                    Some(c) => send_leaf(builder, &loc, &p, c),
                }
            }
        }
    }
}

/// Aggregate: the committed key and chunks are the statement's (bus
/// values must be committed); the row receives the key from the slot's
/// last sponge row and each chunk from the chunk's last sponge row.
fn eval_statement_slot<AB: InteractionBuilder<F = Val>>(
    builder: &mut AB,
    loc: &[AB::Expr],
    p: &[AB::Expr],
    chunks: usize,
    sponge_rows: usize,
) {
    for (j, pj) in p.iter().enumerate() {
        builder.assert_eq(loc[PK + j].clone(), pj.clone());
    }
    let key: [AB::Expr; DIGEST_LEN] = core::array::from_fn(|j| loc[PK + j].clone());
    builder.push_interaction(bus::MAIN, bus::key(loc[SLOT].clone(), key), -1);
    for c in 0..chunks {
        let j2 = AB::Expr::from_usize(chunk_end_j2(c, sponge_rows));
        builder.push_interaction(bus::MAIN, bus::code(loc[SLOT].clone(), j2, loc[CODE + c].clone()), -1);
    }
}

/// Threshold: `next - idx - 1 = gap` with `0 <= gap < 2^depth` (bits),
/// where `next` is the next counted index or the group size. Not a
/// transition constraint: on the table's last row `HAS_NEXT` is 0, so the
/// wrapped-around next row is never read.
fn eval_index_order<AB: AirBuilder>(
    builder: &mut AB,
    loc: &[AB::Expr],
    nxt: &[AB::Expr],
    p: &[AB::Expr],
    depth: usize,
    size: u32,
) {
    let gap = range::bits(builder, loc[GAP..GAP + depth].iter().cloned());
    let (idx, one) = (loc[IDX].clone(), AB::Expr::ONE);
    builder.assert_zero(
        p[pc::HAS_NEXT].clone() * (nxt[IDX].clone() - idx.clone() - one.clone() - gap.clone())
            + p[pc::IS_LAST_REAL].clone() * (AB::Expr::from_u32(size) - idx - one - gap),
    );
}

/// Threshold with a node table: every slot's key arrives here; a counted
/// slot's goes on to the node table as its leaf `Node(0, idx, pk)`.
fn send_leaf<AB: InteractionBuilder<F = Val>>(builder: &mut AB, loc: &[AB::Expr], p: &[AB::Expr], c: LeafCols) {
    let key: [AB::Expr; DIGEST_LEN] = core::array::from_fn(|j| loc[c.key + j].clone());
    let counted = p[pc::HAS_NEXT].clone() + p[pc::IS_LAST_REAL].clone();
    builder.assert_eq(loc[c.counted].clone(), counted);
    builder.push_interaction(bus::MAIN, bus::key(loc[SLOT].clone(), key.clone()), -1);
    let leaf = bus::node(AB::Expr::ZERO, loc[IDX].clone(), key);
    builder.push_interaction(bus::MAIN, leaf, once(loc[c.counted].clone()));
}
