//! Geometry of the tables, a pure function of the public statement.
//!
//! Every slot (one signature) owns one block of [`BLOCK`] rows of the main
//! width-24 table, so the role of a row (sponge block `j`, tree level `l`,
//! padding) is a function of its position and reaches the constraints as
//! small periodic columns instead of committed flags. Prover and verifier
//! both derive a [`Shape`] from the statement; the verifier rejects a proof
//! whose table heights differ from it.
//!
//! | table | rows | content |
//! |---|---|---|
//! | slot | `K` (slots, a power of two) | per-slot public data: key (aggregate) or leaf index and ordering (threshold) |
//! | main | `K * 128` | row `j < n/2` of a block: sponge block `j` (width 24) beside one width-16 sub-key hash (free in an aggregate; in a threshold, one of the slot's own, whose randomizer lanes the sponge reads); with the mined set, tree levels follow the sponge in the block |
//! | node | a power of two, or absent | threshold with the plain set only (the 128 sponge rows fill the block): the group tree's nodes above the counted signers, each once ([`Shape::node_rows_for`]) |
//! | overflow | power of two, or absent | width-16 sub-key hashes that did not fit in the main table's rows |

use sigagg_lamport::group::depth_for;

use crate::config::Settings;
use crate::poseidon::Rounds;

/// Rows per slot in the main table: `n/2 ≤ 128` sponge rows for both sets.
pub const BLOCK: usize = 128;
/// Smallest number of slots. Some tables have one row per slot, and FRI
/// needs every table taller than the final polynomial
/// (`Settings::fitted` shortens it to fit).
pub const MIN_SLOTS: usize = 16;
/// Largest number of signatures in one proof (the main table then has 2^21
/// rows, about 3.6 GB of trace).
pub const MAX_SIGNATURES: usize = 1 << 14;
/// The most signatures one proof can hold with `settings`: the main table
/// (128 rows per slot) must fit the tallest table the settings allow
/// (`Settings::max_log_height`: the height times the blowup must fit in
/// KoalaBear's two-adic subgroup, order 2^24), and no more than
/// [`MAX_SIGNATURES`].
pub const fn max_signatures(settings: &Settings) -> usize {
    let n = 1usize << settings.max_log_height().saturating_sub(7);
    if n < MAX_SIGNATURES { n } else { MAX_SIGNATURES }
}

/// Largest tree depth of a threshold group. The ordering check proves
/// `idx' - idx - 1 = d` with `d < 2^depth` in the field; both sides stay
/// below `p/2` in absolute value only for `depth ≤ 29`, which makes the
/// field equation an integer equation.
pub const MAX_DEPTH: usize = 29;
/// Smallest overflow table.
pub const MIN_OVERFLOW: usize = 16;
/// Smallest node table.
pub const MIN_NODES: usize = 16;

/// What one width-24 table holds: which rows of a block are sponge rows,
/// which are tree levels, and whether each row also carries a free
/// width-16 permutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashSpec {
    /// Rows per slot (a power of two).
    pub block: usize,
    /// Sponge rows at the start of each block.
    pub sponge_rows: usize,
    /// First tree row of each block.
    pub tree_start: usize,
    /// Tree levels per block (0: no tree).
    pub depth: usize,
    /// Whether every row carries a width-16 sub-key hash.
    pub p16: bool,
    /// Which permutation states the table commits.
    pub rounds: Rounds,
}

/// The geometry of one proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Sub-keys per Lamport+ key (`n`).
    pub num_subkeys: usize,
    /// Slots `K`: the number of signatures rounded up to a power of two (at
    /// least [`MIN_SLOTS`]); extra slots repeat the last signature.
    pub slots: usize,
    /// Tree depth (0 for aggregate proofs).
    pub depth: usize,
    /// Width-16 hashes the proof needs: the set codeword bits over all slots.
    pub jobs: usize,
    /// Which permutation states the tables commit (a function of the settings).
    pub rounds: Rounds,
    /// Rows of the node table (0: none; see [`Shape::node_rows_for`]).
    pub nodes: usize,
}

impl Shape {
    /// Rows of the node table of a threshold with `count` counted signers
    /// in a group of `size` members and depth `depth`: at level `l` their
    /// paths pass through at most `count` nodes, and at most the
    /// `ceil(size / 2^l)` nodes above members, so the table holds every
    /// node any such set of signers needs. A function of the public
    /// statement (the count and the group), never of which members signed.
    pub fn node_rows_for(count: usize, size: u32, depth: usize) -> usize {
        let nodes: usize = (1..=depth).map(|l| count.min((size as usize).div_ceil(1 << l))).sum();
        nodes.next_power_of_two().max(MIN_NODES)
    }

    /// Slots for `count` signatures.
    pub fn slots_for(count: usize) -> usize {
        count.next_power_of_two().max(MIN_SLOTS)
    }

    /// Tree depth of a group of `size` members.
    pub fn depth_for(size: u32) -> usize {
        depth_for(size as usize)
    }

    /// Sponge blocks per key (`n/2`).
    pub fn sponge_rows(&self) -> usize {
        self.num_subkeys / 2
    }

    /// Whether the tree levels fit in the main table's blocks (mined set,
    /// depth ≤ 16), or need their own table.
    pub fn tree_in_block(&self) -> bool {
        self.depth > 0 && self.sponge_rows() + self.depth <= BLOCK
    }

    /// The main table.
    pub fn main_spec(&self) -> HashSpec {
        let in_block = self.tree_in_block();
        HashSpec {
            block: BLOCK,
            sponge_rows: self.sponge_rows(),
            tree_start: self.sponge_rows(),
            depth: if in_block { self.depth } else { 0 },
            p16: true,
            rounds: self.rounds,
        }
    }

    /// Whether a threshold's tree has a node table (its levels do not fit
    /// in the main table's blocks).
    pub fn has_node_table(&self) -> bool {
        self.depth > 0 && !self.tree_in_block()
    }

    /// Width-16 rows in the main table.
    pub fn main_p16_rows(&self) -> usize {
        self.slots * BLOCK
    }

    /// Height of the overflow table (0: no overflow table).
    pub fn overflow_rows(&self) -> usize {
        let free = self.main_p16_rows();
        if self.jobs <= free { 0 } else { (self.jobs - free).next_power_of_two().max(MIN_OVERFLOW) }
    }

    /// Heights of the tables in batch order: slot, main, node (if any),
    /// overflow (if any).
    pub fn heights(&self) -> Vec<usize> {
        let mut h = vec![self.slots, self.slots * BLOCK];
        if self.has_node_table() {
            h.push(self.nodes);
        }
        if self.overflow_rows() > 0 {
            h.push(self.overflow_rows());
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_of_both_sets() {
        // Plain set: 128 sponge rows fill the block; the tree has its own
        // table, a row per node: 1023 for 1024 signers.
        let nodes = Shape::node_rows_for(1024, 1024, 10);
        assert_eq!(nodes, 1024);
        let plain = Shape { num_subkeys: 256, slots: 1024, depth: 10, jobs: 1024 * 130, rounds: Rounds::Every, nodes };
        assert!(!plain.tree_in_block() && plain.has_node_table());
        assert_eq!(plain.overflow_rows(), 2048);
        assert_eq!(plain.heights(), vec![1024, 1 << 17, 1 << 10, 2048]);
        // Mined set: 112 sponge rows leave 16 rows for up to 16 levels.
        let mined = Shape { num_subkeys: 224, slots: 8, depth: 16, jobs: 8 * 112, rounds: Rounds::Paired, nodes: 0 };
        assert!(mined.tree_in_block() && !mined.has_node_table());
        assert_eq!(mined.main_spec().tree_start + mined.main_spec().depth, BLOCK);
        assert_eq!(mined.heights(), vec![8, 1024]);
        let deep = Shape { depth: 17, ..mined };
        assert!(!deep.tree_in_block() && deep.has_node_table());
        // Aggregate: no tree.
        let agg = Shape { num_subkeys: 256, slots: 2, depth: 0, jobs: 100, rounds: Rounds::Every, nodes: 0 };
        assert!(!agg.has_node_table());
        assert_eq!(agg.main_spec().depth, 0);
        assert_eq!(agg.heights(), vec![2, 256]);
        assert_eq!(Shape::slots_for(1), MIN_SLOTS);
        assert_eq!(Shape::slots_for(17), 32);
        assert_eq!(Shape::slots_for(127), 128);
    }

    /// The node table holds the nodes of any set of counted members: the
    /// union of their paths, counted by brute force over small groups,
    /// never exceeds the bound, which some set reaches.
    #[test]
    fn the_node_table_holds_any_signers_paths() {
        for size in 1u32..=12 {
            let depth = Shape::depth_for(size);
            let mut widest = vec![0; size as usize + 1];
            for set in 1u32..1 << size {
                let members: Vec<u32> = (0..size).filter(|i| set >> i & 1 == 1).collect();
                let mut nodes: Vec<(usize, u32)> =
                    members.iter().flat_map(|&i| (1..=depth).map(move |l| (l, i >> l))).collect();
                nodes.sort_unstable();
                nodes.dedup();
                let count = members.len();
                widest[count] = widest[count].max(nodes.len());
            }
            for (count, &widest) in widest.iter().enumerate().skip(1) {
                let bound: usize = (1..=depth).map(|l| count.min((size as usize).div_ceil(1 << l))).sum();
                assert_eq!(widest, bound, "size {size}, {count} signers");
                assert!(Shape::node_rows_for(count, size, depth) >= bound.max(MIN_NODES));
            }
        }
    }
}
