//! mithril-stm's Blake2b-256 Merkle tree over the registration, and its
//! batch paths.
//!
//! * leaf `i` = `H(mvk_i ‖ stake_i as u64 big-endian)`, with no tag;
//!   inner node = `H(left ‖ right)`, with no tag; a missing node (beyond
//!   the `n` leaves, padding to the next power of two) is `z = H(0x00)`;
//! * nodes are stored as a heap: node `i` has children `2i+1`, `2i+2`; leaf
//!   `i` sits at position `p − 1 + i`, `p = n.next_power_of_two()`;
//! * a batch path for strictly increasing leaf indices lists, level by
//!   level from the leaves up and left to right, each sibling that is
//!   neither in the batch nor padding.

use blake2::Blake2b;
use blake2::digest::{Digest, consts::U32};
use serde::{Deserialize, Serialize};

use crate::codec::{self, Fixed, Null};
use crate::error::{Item, MithrilError};

/// A 32-byte Blake2b-256 digest.
pub type Hash = [u8; 32];

fn hash(parts: &[&[u8]]) -> Hash {
    let mut h = Blake2b::<U32>::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// The leaf hash of a registration entry: `H(mvk ‖ stake BE)`.
pub fn leaf_hash(vk: &[u8; 96], stake: u64) -> Hash {
    hash(&[vk, &stake.to_be_bytes()])
}

fn padding() -> Hash {
    hash(&[&[0u8]])
}

fn node(left: &Hash, right: &Hash) -> Hash {
    hash(&[left, right])
}

fn parent(i: usize) -> usize {
    (i - 1) / 2
}

fn sibling(i: usize) -> usize {
    if i % 2 == 1 { i + 1 } else { i - 1 }
}

/// The whole tree, kept by the party that builds certificates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MerkleTree {
    nodes: Vec<Hash>,
    leaves: usize,
}

impl MerkleTree {
    /// Builds the tree over `leaves` (at least one).
    pub(crate) fn new(leaves: &[Hash]) -> MerkleTree {
        let n = leaves.len();
        let p = n.next_power_of_two();
        let mut nodes = vec![[0u8; 32]; n + p - 1];
        nodes[p - 1..].copy_from_slice(leaves);
        let z = padding();
        for i in (0..p - 1).rev() {
            let child = |c: usize| if c < nodes.len() { nodes[c] } else { z };
            nodes[i] = node(&child(2 * i + 1), &child(2 * i + 2));
        }
        MerkleTree { nodes, leaves: n }
    }

    /// The root.
    pub fn root(&self) -> Hash {
        self.nodes[0]
    }

    /// Number of leaves.
    pub fn leaves(&self) -> usize {
        self.leaves
    }

    /// The batch path of `indices`, which the caller keeps strictly
    /// increasing and below [`MerkleTree::leaves`].
    pub(crate) fn batch_path(&self, indices: &[usize]) -> BatchPath {
        let p = self.leaves.next_power_of_two();
        let mut level: Vec<usize> = indices.iter().map(|i| p - 1 + i).collect();
        let mut values = Vec::new();
        while level.first().is_some_and(|&first| first > 0) {
            let mut next = Vec::with_capacity(level.len());
            let mut i = 0;
            while i < level.len() {
                next.push(parent(level[i]));
                let s = sibling(level[i]);
                if level.get(i + 1) == Some(&s) {
                    i += 1;
                } else if s < self.nodes.len() {
                    values.push(self.nodes[s]);
                }
                i += 1;
            }
            level = next;
        }
        BatchPath { values, indices: indices.iter().map(|&i| i as u64).collect() }
    }
}

/// A batch Merkle path (mithril-stm's `MerkleBatchPath`): the sibling
/// hashes and the leaf indices they open, in increasing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchPath {
    /// Sibling hashes, from the leaves up, left to right within a level.
    pub values: Vec<Hash>,
    /// The leaf indices, strictly increasing.
    pub indices: Vec<u64>,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct BatchPathWire {
    values: Vec<Fixed<32>>,
    indices: Vec<u64>,
    hasher: Null,
}

impl BatchPath {
    pub(crate) fn wire(&self) -> BatchPathWire {
        BatchPathWire {
            values: self.values.iter().map(|v| Fixed(*v)).collect(),
            indices: self.indices.clone(),
            hasher: Null,
        }
    }

    pub(crate) fn from_wire(w: BatchPathWire) -> BatchPath {
        BatchPath { values: w.values.into_iter().map(|v| v.0).collect(), indices: w.indices }
    }

    /// `0x01 ‖ CBOR {"values", "indices", "hasher": null}`.
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::to_cbor(&self.wire())
    }

    /// Reads [`BatchPath::to_bytes`]'s encoding (and only that).
    pub fn from_bytes(bytes: &[u8]) -> Result<BatchPath, MithrilError> {
        let path = BatchPath::from_wire(codec::from_cbor(bytes, Item::BatchPath)?);
        codec::require_canonical(bytes, &path.to_bytes(), Item::BatchPath)?;
        Ok(path)
    }

    /// Checks that `leaves` (leaf hashes, in the order of `indices`) are
    /// the leaves at `indices` of the tree with `nr_leaves` leaves and root
    /// `root`.
    ///
    /// The same walk as mithril-stm's, and stricter in three ways that
    /// only refuse paths an honest prover never makes: indices must be
    /// strictly increasing (mithril-stm lets repeats through to a root
    /// mismatch) and below `nr_leaves`, and every value must be used.
    pub fn verify(&self, leaves: &[Hash], root: &Hash, nr_leaves: u64) -> Result<(), MithrilError> {
        let bad = || MithrilError::BatchPathInvalid;
        if leaves.len() != self.indices.len() || leaves.is_empty() {
            return Err(bad());
        }
        if self.indices.windows(2).any(|w| w[0] >= w[1]) || self.indices.last().is_some_and(|&l| l >= nr_leaves) {
            return Err(bad());
        }
        let n = usize::try_from(nr_leaves).map_err(|_| bad())?;
        let p = n.checked_next_power_of_two().ok_or_else(bad)?;
        let nr_nodes = p.checked_add(n - 1).ok_or_else(bad)?;
        // Every index is below n, so p - 1 + index < nr_nodes fits.
        let mut level: Vec<usize> = self.indices.iter().map(|&i| p - 1 + i as usize).collect();
        let mut hashes = leaves.to_vec();
        let mut values = self.values.iter();
        let z = padding();
        while level[0] > 0 {
            let (mut next_level, mut next_hashes) = (Vec::new(), Vec::new());
            let mut i = 0;
            while i < level.len() {
                let v = level[i];
                next_level.push(parent(v));
                if v.is_multiple_of(2) {
                    next_hashes.push(node(values.next().ok_or_else(bad)?, &hashes[i]));
                } else if level.get(i + 1) == Some(&(v + 1)) {
                    next_hashes.push(node(&hashes[i], &hashes[i + 1]));
                    i += 1;
                } else if v + 1 < nr_nodes {
                    next_hashes.push(node(&hashes[i], values.next().ok_or_else(bad)?));
                } else {
                    next_hashes.push(node(&hashes[i], &z));
                }
                i += 1;
            }
            level = next_level;
            hashes = next_hashes;
        }
        if values.next().is_some() || hashes.len() != 1 || hashes[0] != *root {
            return Err(bad());
        }
        Ok(())
    }
}
