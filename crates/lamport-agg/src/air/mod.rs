//! The AIR tables and the enum that lets one batch proof hold all of them.
//!
//! | AIR | tables | proves |
//! |---|---|---|
//! | [`hash::HashAir`] | main | public-key sponges (width 24) beside free sub-key hashes (width 16); with the mined set, group-tree paths (width 24) after the sponge |
//! | [`node::NodeAir`] | node | the group tree's nodes above the counted signers, each once (plain-set threshold) |
//! | [`hash16::Hash16Air`] | overflow | sub-key hashes that did not fit in the main table |
//! | [`slot::SlotAir`] | slot | per-slot public keys (aggregate); leaf indices strictly increasing and below the group size (threshold) |
//!
//! The tables talk over the single bus of [`crate::bus`]. Every constraint
//! has degree at most 3 (two quotient chunks), except in the permutation
//! tables at rate 1/8 or lower, which use the paired Poseidon2 layout of
//! degree 9 (eight chunks, the extension domain itself); the LogUp columns
//! of each table fold fractions up to its own degree. On the multilinear
//! backends, which have no quotient, output lanes a table reads may be
//! expressions rather than columns (`crate::poseidon::Outputs`): the
//! width-24 tables' constraints then reach degree 10, messages carry
//! degree-9 fields.
//!
//! ## Soundness, in one paragraph
//!
//! A sponge row `j` of slot `s` absorbs `[y_2j | y_2j+1 | capacity]`; its
//! capacity is the previous row's output, or `[r | n | TAG_PUBKEY | 0]` on
//! the first row, where `r` is the slot's randomizer (five committed columns
//! held constant over the sponge rows; in a threshold, whose slots share one
//! codeword, they are the randomizer lanes of the row's own width-16 input,
//! so the block's width-16 rows hash the slot's own sub-keys). Where the public codeword has a 1, the
//! row *receives* `SubKey(r, i, y_i)`, which only a width-16 row computing
//! `y_i = Trunc_8(Perm16([x | r | i | 1 | 0]) + ...)` for some `x` sends; where it
//! has a 0, `y_i` is free (the revealed sub-public-key). The last sponge
//! row sends `Key(s, pk)` with the squeezed key; the slot table (aggregate)
//! receives it with the statement's key; in a threshold, the tree's leaf
//! row in the block (mined set) receives it as the leaf of a Merkle path
//! whose index goes to the slot table, or the slot table receives it and
//! sends it to the node table as leaf `Node(0, idx, pk)` (plain set),
//! whose rows hash it up to the root. The slot table's indices must
//! increase strictly and stay below the group size. This is exactly `sigagg_lamport::verify` (and
//! `verify_membership`) per slot.

pub mod hash;
pub mod hash16;
pub mod node;
pub mod slot;

pub(crate) use sigagg_prover::periodic_table;

sigagg_prover::air_enum! {
    /// One AIR of the batch. The variants differ in size (the main table's
    /// AIR holds its periodic columns inline); a proof has at most four
    /// AIRs, built once and only borrowed afterwards, so boxing would buy
    /// nothing.
    #[derive(Clone, Debug)]
    #[allow(clippy::large_enum_variant)]
    pub enum AggAir {
        /// The slot table.
        Slot(slot::SlotAir),
        /// The main table.
        Hash(hash::HashAir),
        /// The node table.
        Node(node::NodeAir),
        /// The overflow table.
        Hash16(hash16::Hash16Air),
    }
}

impl AggAir {
    /// The largest constraint degree: 3, or 9 for the permutation tables in
    /// the paired layout ([`crate::poseidon::Rounds`]).
    pub fn degree(&self) -> usize {
        match self {
            AggAir::Slot(_) => 3,
            AggAir::Hash(a) => a.degree(),
            AggAir::Node(a) => a.degree(),
            AggAir::Hash16(a) => a.perm().rounds().max_degree(),
        }
    }
}
