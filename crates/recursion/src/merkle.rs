//! Merkle openings of the recursion setting's commitments, as circuits:
//! the trees of `sigagg_prover::config::ValMmcsPoseidon2` (a leaf is the
//! padding-free overwrite sponge of rate 8 over the row, a node the first
//! 8 lanes of the permutation of its two children), checked against
//! Plonky3's own trees in the tests.
//!
//! Two ways to climb a path: [`CircuitBuilder::merkle_root`] by
//! arithmetic selections (per level a boolean check, 16 selections of
//! three rows each and a permutation row), and
//! [`CircuitBuilder::merkle_path`] by the path table (one row per level:
//! the node placed by its bit inside the row). 100 openings at depth 20
//! prove about 5x faster through the path table (BENCHMARKS-HISTORY.md).

use p3_field::PrimeCharacteristicRing;
use p3_symmetric::Permutation;
use sigagg_koalabear::poseidon2::default16;
use sigagg_prover::config::Val;

pub use crate::circuit::DIGEST;
use crate::circuit::{CircuitBuilder, PERM_WIDTH, Wire};

/// A digest's wires.
pub type Digest = [Wire; DIGEST];

impl CircuitBuilder {
    /// The leaf hash of a row: from a zero state, each chunk of 8 values
    /// overwrites the first lanes (a last chunk of `k < 8` only the first
    /// `k`, the others keep the previous output) and the state is
    /// permuted; the digest is the first 8 lanes. An empty row is the
    /// zero digest, as in Plonky3's `PaddingFreeSponge`.
    pub fn leaf_hash(&mut self, row: &[Wire]) -> Digest {
        let zero = self.zero();
        let mut state = [zero; PERM_WIDTH];
        for chunk in row.chunks(DIGEST) {
            state[..chunk.len()].copy_from_slice(chunk);
            state = self.poseidon2(state);
        }
        core::array::from_fn(|i| state[i])
    }

    /// A node: the first 8 lanes of the permutation of `left ‖ right`.
    pub fn compress(&mut self, left: Digest, right: Digest) -> Digest {
        let mut state = [left[0]; PERM_WIDTH];
        state[..DIGEST].copy_from_slice(&left);
        state[DIGEST..].copy_from_slice(&right);
        let out = self.poseidon2(state);
        core::array::from_fn(|i| out[i])
    }

    /// The root reached from `leaf` along `siblings` (bottom up), the node
    /// at each level the right child where its bit of `bits` (least
    /// significant first, one per level, each constrained boolean here) is
    /// 1.
    ///
    /// # Panics
    /// If `bits` and `siblings` differ in length.
    pub fn merkle_root(&mut self, leaf: Digest, bits: &[Wire], siblings: &[Digest]) -> Digest {
        assert_eq!(bits.len(), siblings.len(), "one direction bit per level");
        let mut node = leaf;
        for (&bit, sibling) in bits.iter().zip(siblings) {
            self.assert_bool(bit);
            let left: Digest = core::array::from_fn(|i| self.select(bit, node[i], sibling[i]));
            let right: Digest = core::array::from_fn(|i| self.select(bit, sibling[i], node[i]));
            node = self.compress(left, right);
        }
        node
    }
}

/// A node of the trees, natively: the first 8 lanes of the permutation of
/// `left ‖ right` (what [`CircuitBuilder::compress`] and each row of the
/// path table compute).
pub fn compress_values(left: &[Val; DIGEST], right: &[Val; DIGEST]) -> [Val; DIGEST] {
    let mut state = [Val::ZERO; PERM_WIDTH];
    state[..DIGEST].copy_from_slice(left);
    state[DIGEST..].copy_from_slice(right);
    let out = default16().permute(state);
    core::array::from_fn(|i| out[i])
}

/// The root reached natively from `leaf` along `siblings`, the node the
/// right child where its bit of `bits` (lowest level first) is set.
pub fn climb_values(leaf: [Val; DIGEST], bits: &[bool], siblings: &[[Val; DIGEST]]) -> [Val; DIGEST] {
    bits.iter().zip(siblings).fold(leaf, |node, (&bit, sibling)| {
        if bit { compress_values(sibling, &node) } else { compress_values(&node, sibling) }
    })
}
