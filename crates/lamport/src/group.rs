//! Group public keys: a set of Lamport+ public keys committed by a Merkle
//! root, the key of a t-of-n threshold certificate (seed 004, section 5 and
//! appendix B). A threshold proof shows, for each counted signer, a path
//! from its public key to this root.
//!
//! * Leaves are the members' public-key digests, in the given order, padded
//!   with [`ZERO_DIGEST`] up to `2^depth`, `depth = max(1, ceil(log2 size))`.
//!   Leaves are not hashed again: a public key already is a sponge output.
//! * Node `(level, index)` (leaves are level 0, the root is `(depth, 0)`)
//!   is `Trunc_8(Perm24(x) + x)` with [`node_input`]
//!   `x = [left | right | level | index | 0 0 0 0 | TAG_GROUP_NODE | 0]`.
//!   The level and index tweak every node differently, and the tag keeps
//!   nodes apart from the public-key sponge (same tag lane, other value).
//!   A depth of at least 1 makes the root a node hash, never a member key.
//! * The group key is `(root, size)`; membership at an index `≥ size` (a
//!   padding leaf) is rejected, so the size is part of what is committed.
//! * Members must be distinct (one signer must not count twice) and must
//!   not equal the padding digest.

use std::collections::HashMap;

use p3_field::PrimeCharacteristicRing;
use sigagg_koalabear::mode::compress;
use sigagg_koalabear::poseidon2;

use crate::error::GroupError;
use crate::field::{DIGEST_LEN, Digest, F, ZERO_DIGEST};
use crate::hash::{TAG_GROUP_NODE, WIDE_TAG_LANE};
use crate::keys::PublicKey;
use crate::params::ParameterSet;

/// Largest group: indices stay far below `p` at every level.
pub const MAX_GROUP_SIZE: usize = 1 << 30;

/// Lane of the node level in [`node_input`].
pub const NODE_LEVEL_LANE: usize = 2 * DIGEST_LEN;
/// Lane of the node index in [`node_input`].
pub const NODE_INDEX_LANE: usize = NODE_LEVEL_LANE + 1;

/// Width-24 input of node `(level, index)` from its children.
pub fn node_input(level: u32, index: u32, left: &Digest, right: &Digest) -> [F; 24] {
    let mut input = [F::ZERO; 24];
    input[..DIGEST_LEN].copy_from_slice(left);
    input[DIGEST_LEN..2 * DIGEST_LEN].copy_from_slice(right);
    input[NODE_LEVEL_LANE] = F::from_u32(level);
    input[NODE_INDEX_LANE] = F::from_u32(index);
    input[WIDE_TAG_LANE] = F::from_u32(TAG_GROUP_NODE);
    input
}

/// Node `(level, index)`: `Trunc_8(Perm24(x) + x)`.
pub fn node(level: u32, index: u32, left: &Digest, right: &Digest) -> Digest {
    let out = compress(poseidon2::default24(), &node_input(level, index, left, right));
    core::array::from_fn(|i| out[i])
}

/// Tree depth for a group of `size` members: `max(1, ceil(log2 size))`.
pub fn depth_for(size: usize) -> usize {
    (size.max(2).next_power_of_two().trailing_zeros()) as usize
}

/// The group public key: the Merkle root and the number of members.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupKey {
    root: Digest,
    size: u32,
}

impl GroupKey {
    /// Assembles a group key; the size must be in `1..=MAX_GROUP_SIZE`.
    pub fn new(root: Digest, size: u32) -> Result<Self, GroupError> {
        match size as usize {
            0 => Err(GroupError::EmptySet),
            s if s > MAX_GROUP_SIZE => Err(GroupError::TooLarge { max: MAX_GROUP_SIZE, actual: s }),
            _ => Ok(Self { root, size }),
        }
    }

    /// The Merkle root.
    pub fn root(&self) -> &Digest {
        &self.root
    }

    /// The number of members.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The tree depth (siblings in every membership path).
    pub fn depth(&self) -> usize {
        depth_for(self.size as usize)
    }
}

/// A membership path: the leaf index and its siblings from the leaf level up.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MembershipProof {
    index: u32,
    siblings: Vec<Digest>,
}

impl MembershipProof {
    /// Assembles a path (shape is checked against a group key on verification).
    pub fn new(index: u32, siblings: Vec<Digest>) -> Self {
        Self { index, siblings }
    }

    /// The leaf index.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The siblings, leaf level first.
    pub fn siblings(&self) -> &[Digest] {
        &self.siblings
    }

    /// Whether `pk` is the member at [`Self::index`] of `group`
    /// ([`verify_membership`] of its digest).
    pub fn verify<S: ParameterSet>(&self, group: &GroupKey, pk: &PublicKey<S>) -> Result<(), GroupError> {
        verify_membership(group, pk.digest(), self)
    }

    /// The root this path implies for `leaf`, and every node input on the
    /// way (what a STARK trace of the path contains).
    pub fn trace(&self, leaf: &Digest) -> (Vec<[F; 24]>, Digest) {
        let mut cur = *leaf;
        let mut inputs = Vec::with_capacity(self.siblings.len());
        for (level, sib) in self.siblings.iter().enumerate() {
            // Paths longer than 32 levels only come from a caller that built
            // one by hand: the index bits run out and read as 0.
            let pos = u32::try_from(level).ok().and_then(|l| self.index.checked_shr(l)).unwrap_or(0);
            let (l, r) = if pos & 1 == 0 { (&cur, sib) } else { (sib, &cur) };
            let input = node_input(level as u32 + 1, pos >> 1, l, r);
            let out = compress(poseidon2::default24(), &input);
            inputs.push(input);
            cur = core::array::from_fn(|i| out[i]);
        }
        (inputs, cur)
    }
}

/// Checks that `leaf` is the member at `proof.index()` of `group`.
pub fn verify_membership(group: &GroupKey, leaf: &Digest, proof: &MembershipProof) -> Result<(), GroupError> {
    if proof.index >= group.size {
        return Err(GroupError::IndexOutOfRange { index: u64::from(proof.index), size: u64::from(group.size) });
    }
    if proof.siblings.len() != group.depth() {
        return Err(GroupError::PathLength { expected: group.depth(), actual: proof.siblings.len() });
    }
    if proof.trace(leaf).1 == group.root {
        Ok(())
    } else {
        Err(GroupError::NotAMember { index: u64::from(proof.index) })
    }
}

/// The whole tree of a group, for the aggregator who builds paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupTree {
    /// `levels[0]` are the padded leaves; `levels[depth]` is `[root]`.
    levels: Vec<Vec<Digest>>,
    size: u32,
    positions: HashMap<Digest, u32>,
}

impl GroupTree {
    /// Builds the tree over Lamport+ public keys, in order.
    pub fn new<S: ParameterSet>(keys: &[PublicKey<S>]) -> Result<Self, GroupError> {
        Self::from_digests(keys.iter().map(|k| *k.digest()).collect())
    }

    /// Builds the tree over member digests, in order. Rejects an empty or
    /// oversized set, duplicates and the padding digest.
    pub fn from_digests(leaves: Vec<Digest>) -> Result<Self, GroupError> {
        if leaves.is_empty() {
            return Err(GroupError::EmptySet);
        }
        if leaves.len() > MAX_GROUP_SIZE {
            return Err(GroupError::TooLarge { max: MAX_GROUP_SIZE, actual: leaves.len() });
        }
        let mut positions = HashMap::with_capacity(leaves.len());
        for (i, leaf) in leaves.iter().enumerate() {
            if *leaf == ZERO_DIGEST {
                return Err(GroupError::PaddingKey { index: i });
            }
            if let Some(&first) = positions.get(leaf) {
                return Err(GroupError::DuplicateKey { first: first as usize, second: i });
            }
            positions.insert(*leaf, i as u32);
        }
        let size = leaves.len() as u32;
        let depth = depth_for(leaves.len());
        let mut level = leaves;
        level.resize(1 << depth, ZERO_DIGEST);
        let mut levels = vec![level];
        for l in 1..=depth {
            let below = &levels[l - 1];
            let next = below.chunks_exact(2).enumerate().map(|(i, c)| node(l as u32, i as u32, &c[0], &c[1])).collect();
            levels.push(next);
        }
        Ok(Self { levels, size, positions })
    }

    /// The group key `(root, size)`.
    pub fn key(&self) -> GroupKey {
        GroupKey { root: self.levels[self.levels.len() - 1][0], size: self.size }
    }

    /// The member digests, in order.
    pub fn members(&self) -> &[Digest] {
        &self.levels[0][..self.size as usize]
    }

    /// The index of a member, `None` for a non-member.
    pub fn position(&self, leaf: &Digest) -> Option<u32> {
        self.positions.get(leaf).copied()
    }

    /// The membership path of the member at `index`.
    pub fn prove(&self, index: u32) -> Result<MembershipProof, GroupError> {
        if index >= self.size {
            return Err(GroupError::IndexOutOfRange { index: u64::from(index), size: u64::from(self.size) });
        }
        let siblings = (0..self.levels.len() - 1).map(|l| self.levels[l][((index >> l) ^ 1) as usize]).collect();
        Ok(MembershipProof { index, siblings })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(i: u32) -> Digest {
        core::array::from_fn(|k| F::from_u32(1 + i * 8 + k as u32))
    }

    #[test]
    fn depths() {
        assert_eq!(depth_for(1), 1);
        assert_eq!(depth_for(2), 1);
        assert_eq!(depth_for(3), 2);
        assert_eq!(depth_for(4), 2);
        assert_eq!(depth_for(5), 3);
        assert_eq!(depth_for(1024), 10);
        assert_eq!(depth_for(1025), 11);
    }

    #[test]
    fn every_member_proves_and_paths_trace_the_levels() {
        for size in [1u32, 2, 3, 5, 8, 13] {
            let tree = GroupTree::from_digests((0..size).map(leaf).collect()).unwrap();
            let key = tree.key();
            assert_eq!(key.depth(), depth_for(size as usize));
            for i in 0..size {
                let proof = tree.prove(i).unwrap();
                assert_eq!(verify_membership(&key, &leaf(i), &proof), Ok(()));
                assert_eq!(tree.position(&leaf(i)), Some(i));
                // Another leaf at this index is not a member.
                assert_eq!(
                    verify_membership(&key, &leaf(size + 1), &proof),
                    Err(GroupError::NotAMember { index: u64::from(i) })
                );
            }
            assert_eq!(tree.position(&leaf(size)), None);
            assert!(matches!(tree.prove(size), Err(GroupError::IndexOutOfRange { .. })));
        }
    }

    #[test]
    fn overlong_paths_do_not_panic() {
        let tree = GroupTree::from_digests(vec![leaf(0), leaf(1)]).unwrap();
        let proof = MembershipProof::new(u32::MAX, vec![leaf(2); 40]);
        assert_eq!(proof.trace(&leaf(0)).0.len(), 40);
        assert_eq!(
            verify_membership(&tree.key(), &leaf(0), &proof),
            Err(GroupError::IndexOutOfRange { index: u64::from(u32::MAX), size: 2 })
        );
    }

    #[test]
    fn the_root_is_never_a_member() {
        let tree = GroupTree::from_digests(vec![leaf(0)]).unwrap();
        assert_ne!(*tree.key().root(), leaf(0));
    }
}
