//! A Blake2b-256 Merkle tree committing to an ordered list (ATMS key lists).
//!
//! * leaf `i`: `H(0x00 || data_i)`; inner node: `H(0x01 || left || right)`;
//!   the leaf level is padded to a power of two with `H(0x02)`. The prefixes
//!   keep leaves, nodes and padding from ever being confused.
//! * The root also commits to the number of leaves, `H(0x03 || n_le64 || top)`,
//!   so an inclusion proof fixes a position `index < n`; two proofs for the
//!   same index are two proofs of the same leaf.

use blake2::{Blake2b256, Digest};
use thiserror::Error;

/// A 32-byte Blake2b-256 digest.
pub type Hash32 = [u8; 32];

const LEAF: u8 = 0x00;
const NODE: u8 = 0x01;
const PAD: u8 = 0x02;
const ROOT: u8 = 0x03;
/// Deepest tree accepted from the wire (2^32 leaves); bounds proof sizes.
pub const MAX_DEPTH: usize = 32;

/// Why a proof or tree could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MerkleError {
    /// A tree needs at least one leaf.
    #[error("a Merkle tree needs at least one leaf")]
    Empty,
    /// More leaves than [`MAX_DEPTH`] allows.
    #[error("too many leaves: {0}")]
    TooManyLeaves(u64),
    /// The proof's position is not a leaf of the tree.
    #[error("leaf index {index} out of range ({leaves} leaves)")]
    IndexOutOfRange { index: u64, leaves: u64 },
    /// The proof has the wrong number of siblings for this tree.
    #[error("proof has {got} siblings, the tree has depth {expected}")]
    WrongDepth { expected: usize, got: usize },
    /// The proof does not lead to the root.
    #[error("proof does not lead to the root")]
    Mismatch,
}

fn leaf_hash(data: &[u8]) -> Hash32 {
    Blake2b256::new().chain_update([LEAF]).chain_update(data).finalize().into()
}

fn node_hash(left: &Hash32, right: &Hash32) -> Hash32 {
    Blake2b256::new().chain_update([NODE]).chain_update(left).chain_update(right).finalize().into()
}

fn pad_hash() -> Hash32 {
    Blake2b256::new().chain_update([PAD]).finalize().into()
}

fn root_hash(leaves: u64, top: &Hash32) -> Hash32 {
    Blake2b256::new().chain_update([ROOT]).chain_update(leaves.to_le_bytes()).chain_update(top).finalize().into()
}

/// Depth of the padded tree for `leaves` leaves.
pub fn depth_for(leaves: u64) -> usize {
    match leaves.max(1).checked_next_power_of_two() {
        Some(p) => p.trailing_zeros() as usize,
        None => 64, // above 2^63 leaves: no power of two fits in u64
    }
}

/// A Merkle tree with all levels kept, for producing proofs.
#[derive(Clone, Debug)]
pub struct MerkleTree {
    leaves: u64,
    /// levels[0] = padded leaf hashes, last level = [top].
    levels: Vec<Vec<Hash32>>,
}

/// Inclusion proof of the leaf at `index`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MerkleProof {
    /// Position of the leaf.
    pub index: u64,
    /// Sibling hashes from the leaf level up.
    pub siblings: Vec<Hash32>,
}

impl MerkleTree {
    /// Builds the tree over `items` (each hashed as a leaf).
    pub fn new<T: AsRef<[u8]>>(items: &[T]) -> Result<MerkleTree, MerkleError> {
        if items.is_empty() {
            return Err(MerkleError::Empty);
        }
        let n = items.len() as u64;
        if depth_for(n) > MAX_DEPTH {
            return Err(MerkleError::TooManyLeaves(n));
        }
        let width = n.next_power_of_two() as usize;
        let mut level: Vec<Hash32> = items.iter().map(|d| leaf_hash(d.as_ref())).collect();
        level.resize(width, pad_hash());
        let mut levels = vec![level];
        while levels.last().map_or(0, Vec::len) > 1 {
            let prev = levels.last().expect("non-empty");
            let next = prev.chunks(2).map(|c| node_hash(&c[0], &c[1])).collect();
            levels.push(next);
        }
        Ok(MerkleTree { leaves: n, levels })
    }

    /// Number of (unpadded) leaves.
    pub fn leaves(&self) -> u64 {
        self.leaves
    }

    /// The root, committing to the leaves and their number.
    pub fn root(&self) -> Hash32 {
        root_hash(self.leaves, &self.levels.last().expect("non-empty")[0])
    }

    /// The inclusion proof of leaf `index`.
    pub fn prove(&self, index: u64) -> Result<MerkleProof, MerkleError> {
        if index >= self.leaves {
            return Err(MerkleError::IndexOutOfRange { index, leaves: self.leaves });
        }
        let mut pos = index as usize;
        let mut siblings = Vec::with_capacity(self.levels.len() - 1);
        for level in &self.levels[..self.levels.len() - 1] {
            siblings.push(level[pos ^ 1]);
            pos /= 2;
        }
        Ok(MerkleProof { index, siblings })
    }
}

impl MerkleProof {
    /// Checks that `data` is leaf `self.index` of the tree with `root` and
    /// `leaves` leaves.
    pub fn verify(&self, root: &Hash32, leaves: u64, data: &[u8]) -> Result<(), MerkleError> {
        if self.index >= leaves {
            return Err(MerkleError::IndexOutOfRange { index: self.index, leaves });
        }
        let depth = depth_for(leaves);
        if self.siblings.len() != depth {
            return Err(MerkleError::WrongDepth { expected: depth, got: self.siblings.len() });
        }
        let mut h = leaf_hash(data);
        let mut pos = self.index;
        for s in &self.siblings {
            h = if pos & 1 == 0 { node_hash(&h, s) } else { node_hash(s, &h) };
            pos >>= 1;
        }
        if &root_hash(leaves, &h) == root { Ok(()) } else { Err(MerkleError::Mismatch) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_verify_for_every_leaf_and_size() {
        for n in 1..=9u64 {
            let items: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; 3]).collect();
            let t = MerkleTree::new(&items).unwrap();
            for i in 0..n {
                let p = t.prove(i).unwrap();
                p.verify(&t.root(), n, &items[i as usize]).unwrap();
                // Wrong data, wrong leaf count, wrong index.
                assert_eq!(p.verify(&t.root(), n, b"nope"), Err(MerkleError::Mismatch));
                if depth_for(n + 1) == depth_for(n) {
                    assert_eq!(p.verify(&t.root(), n + 1, &items[i as usize]), Err(MerkleError::Mismatch));
                }
                if n > 1 {
                    let mut q = p.clone();
                    q.index = (i + 1) % n;
                    assert!(q.verify(&t.root(), n, &items[i as usize]).is_err());
                }
            }
            assert!(matches!(t.prove(n), Err(MerkleError::IndexOutOfRange { .. })));
        }
        assert_eq!(MerkleTree::new::<Vec<u8>>(&[]).unwrap_err(), MerkleError::Empty);
    }

    #[test]
    fn padding_positions_and_bad_depths_are_refused() {
        let items = [b"a".to_vec(), b"b".to_vec(), b"c".to_vec()];
        let t = MerkleTree::new(&items).unwrap();
        let mut p = t.prove(2).unwrap();
        p.index = 3; // the padding leaf
        assert!(matches!(p.verify(&t.root(), 3, b"c"), Err(MerkleError::IndexOutOfRange { .. })));
        // Absurd leaf counts (from a hand-built aggregate key) are errors, not panics.
        assert!(matches!(
            t.prove(0).unwrap().verify(&t.root(), u64::MAX, b"a"),
            Err(MerkleError::WrongDepth { expected: 64, .. })
        ));
        let mut short = t.prove(0).unwrap();
        short.siblings.pop();
        assert_eq!(short.verify(&t.root(), 3, b"a"), Err(MerkleError::WrongDepth { expected: 2, got: 1 }));
    }
}
