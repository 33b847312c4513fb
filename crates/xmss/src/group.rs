//! Committed validator sets: a Merkle tree over the public keys of a group
//! (of one parameter set), whose root and size form the *group key* of
//! threshold proofs.
//!
//! Hashes are compressions of hash-sig's width-24 Poseidon2 (the permutation
//! the circuit already arithmetizes), with 8-element (248-bit) digests:
//!
//! * leaf: `(Perm(x) + x)[0..8]` of `[pk root | pk parameter | 1 | 0...]`
//!   (7 + 5 elements for Seed001, 8 + 5 for the leanSig sets);
//! * node at level `l >= 1`: the same of `[left (8) | right (8) | l | 2 | 0...]`.
//!
//! Leaves past the group size are the zero digest, which no key hashes to.
//! The tags keep leaves, nodes and levels apart.

use std::collections::HashSet;

use p3_field::PrimeCharacteristicRing;
use p3_symmetric::Permutation;
use sigagg_koalabear::field::{FE_BYTES, fes_from_le_bytes, put_fes};
use sigagg_koalabear::poseidon2;
use thiserror::Error;

use crate::field::{F, FeArray};
use crate::{ParameterSet, PublicKey, Seed001};

/// Field elements of a group-tree digest.
pub const GROUP_DIGEST: usize = 8;
/// A group-tree digest.
pub type GroupDigest = [F; GROUP_DIGEST];
/// Largest supported group: 2^29 members. Threshold proofs compare member
/// indices through 29-bit gaps, which stay unambiguous only while indices
/// are below 2^29 (then `p - 2^29 > 2^29`).
pub const MAX_GROUP_DEPTH: usize = 29;
/// Leaf tag.
pub const TAG_LEAF: u32 = 1;
/// Node tag.
pub const TAG_NODE: u32 = 2;

/// Why a group could not be formed or a path does not check.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GroupError {
    /// No members.
    #[error("a group needs at least one member")]
    Empty,
    /// More members than supported.
    #[error("{size} members exceed the maximum group size 2^{max_depth}")]
    TooLarge { size: usize, max_depth: usize },
    /// The same key twice: one signer could be counted twice.
    #[error("members {first} and {second} have the same public key")]
    DuplicateKey { first: usize, second: usize },
    /// A member index past the group.
    #[error("index {index} is outside a group of {size}")]
    IndexOutOfRange { index: u64, size: u64 },
    /// A membership path of another depth than the group's.
    #[error("membership path has {actual} siblings, the group needs {expected}")]
    PathLength { expected: usize, actual: usize },
    /// The path does not lead from the key to the group root.
    #[error("the key is not the group member at index {index}")]
    NotAMember { index: u64 },
    /// Malformed encoding.
    #[error("malformed group key: {0}")]
    Malformed(&'static str),
}

/// The public commitment to a group: Merkle root and number of members.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupKey {
    /// Merkle root over the members' leaf hashes.
    pub root: GroupDigest,
    /// Number of members.
    pub size: u32,
}

impl GroupKey {
    /// The Merkle root over the members' leaf hashes.
    pub fn root(&self) -> &GroupDigest {
        &self.root
    }

    /// The number of members.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Depth of the tree: `ceil(log2 size)`, at least 1.
    pub fn depth(&self) -> usize {
        depth_for(self.size as usize)
    }

    /// Encoding: root (8 canonical `u32` LE) then the size (`u32` LE): 36 bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(36);
        put_fes(&mut out, &self.root);
        out.extend_from_slice(&self.size.to_le_bytes());
        out
    }

    /// Strict decoding of [`GroupKey::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, GroupError> {
        if bytes.len() != GROUP_DIGEST * FE_BYTES + 4 {
            return Err(GroupError::Malformed("length"));
        }
        let root = decode_digest(&bytes[..GROUP_DIGEST * FE_BYTES])?;
        let size = u32::from_le_bytes(bytes[GROUP_DIGEST * FE_BYTES..].try_into().expect("4 bytes"));
        if size == 0 {
            return Err(GroupError::Empty);
        }
        if depth_for(size as usize) > MAX_GROUP_DEPTH {
            return Err(GroupError::TooLarge { size: size as usize, max_depth: MAX_GROUP_DEPTH });
        }
        Ok(Self { root, size })
    }
}

/// A digest from 32 bytes of canonical `u32` LE field elements.
fn decode_digest(bytes: &[u8]) -> Result<GroupDigest, GroupError> {
    fes_from_le_bytes(bytes).map_err(|_| GroupError::Malformed("field element"))
}

/// `ceil(log2 size)`, at least 1.
pub fn depth_for(size: usize) -> usize {
    (size.next_power_of_two().trailing_zeros() as usize).max(1)
}

/// Compression input of a member's leaf.
pub fn leaf_input<S: ParameterSet>(pk: &PublicKey<S>) -> [F; 24] {
    let (root, param) = (pk.root.as_slice(), pk.parameter.as_slice());
    let mut input = [F::ZERO; 24];
    input[..root.len()].copy_from_slice(root);
    input[root.len()..root.len() + param.len()].copy_from_slice(param);
    input[leaf_tag_lane::<S>()] = F::from_u32(TAG_LEAF);
    input
}

/// The lane of a leaf input holding [`TAG_LEAF`]: right after the key.
pub fn leaf_tag_lane<S: ParameterSet>() -> usize {
    <S::Digest as FeArray>::LEN + <S::Parameter as FeArray>::LEN
}

/// Compression input of the node at `level` from its children.
pub fn node_input(level: usize, left: &GroupDigest, right: &GroupDigest) -> [F; 24] {
    let mut input = [F::ZERO; 24];
    input[..GROUP_DIGEST].copy_from_slice(left);
    input[GROUP_DIGEST..2 * GROUP_DIGEST].copy_from_slice(right);
    input[2 * GROUP_DIGEST] = F::from_usize(level);
    input[2 * GROUP_DIGEST + 1] = F::from_u32(TAG_NODE);
    input
}

fn compress(input: [F; 24]) -> GroupDigest {
    let out = poseidon2::hashsig24().permute(input);
    core::array::from_fn(|i| out[i] + input[i])
}

/// The leaf hash of a member key.
pub fn leaf_hash<S: ParameterSet>(pk: &PublicKey<S>) -> GroupDigest {
    compress(leaf_input(pk))
}

/// The parent at `level` of two nodes.
pub fn node_hash(level: usize, left: &GroupDigest, right: &GroupDigest) -> GroupDigest {
    compress(node_input(level, left, right))
}

/// A member's authentication path: one sibling per level, from the leaves
/// up (the same shape as `sigagg_lamport::MembershipProof`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MembershipProof {
    index: u32,
    siblings: Vec<GroupDigest>,
}

impl MembershipProof {
    /// Assembles a path (its shape is checked against a group key on
    /// verification).
    pub fn new(index: u32, siblings: Vec<GroupDigest>) -> Self {
        Self { index, siblings }
    }

    /// The member's index.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The siblings, level 0 first.
    pub fn siblings(&self) -> &[GroupDigest] {
        &self.siblings
    }

    /// The root this path leads to from `pk`.
    pub fn root_from<S: ParameterSet>(&self, pk: &PublicKey<S>) -> GroupDigest {
        let mut node = leaf_hash(pk);
        for (l, sibling) in self.siblings.iter().enumerate() {
            node = if (self.index >> l) & 1 == 0 {
                node_hash(l + 1, &node, sibling)
            } else {
                node_hash(l + 1, sibling, &node)
            };
        }
        node
    }

    /// Encoding: index (`u32` LE), number of siblings (one byte), then
    /// each sibling as 8 canonical `u32` LE: `5 + 32 * depth` bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(5 + self.siblings.len() * GROUP_DIGEST * FE_BYTES);
        out.extend_from_slice(&self.index.to_le_bytes());
        out.push(u8::try_from(self.siblings.len()).expect("depth is at most 29"));
        for sibling in &self.siblings {
            put_fes(&mut out, sibling);
        }
        out
    }

    /// Strict decoding of [`MembershipProof::to_bytes`]: exact length,
    /// canonical field elements, depth between 1 and [`MAX_GROUP_DEPTH`],
    /// and an index that fits the depth.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, GroupError> {
        let (head, rest) = bytes.split_at_checked(5).ok_or(GroupError::Malformed("path length"))?;
        let index = u32::from_le_bytes(head[..4].try_into().expect("4 bytes"));
        let depth = usize::from(head[4]);
        if depth == 0 || depth > MAX_GROUP_DEPTH {
            return Err(GroupError::Malformed("path depth"));
        }
        if rest.len() != depth * GROUP_DIGEST * FE_BYTES {
            return Err(GroupError::Malformed("path length"));
        }
        if u64::from(index) >> depth != 0 {
            return Err(GroupError::IndexOutOfRange { index: u64::from(index), size: 1 << depth });
        }
        let siblings = rest.chunks_exact(GROUP_DIGEST * FE_BYTES).map(decode_digest).collect::<Result<_, _>>()?;
        Ok(Self { index, siblings })
    }

    /// Whether `pk` is member `self.index()` of `group`.
    pub fn verify<S: ParameterSet>(&self, group: &GroupKey, pk: &PublicKey<S>) -> Result<(), GroupError> {
        if self.index >= group.size {
            return Err(GroupError::IndexOutOfRange { index: u64::from(self.index), size: u64::from(group.size) });
        }
        if self.siblings.len() != group.depth() {
            return Err(GroupError::PathLength { expected: group.depth(), actual: self.siblings.len() });
        }
        if self.root_from(pk) != group.root {
            return Err(GroupError::NotAMember { index: u64::from(self.index) });
        }
        Ok(())
    }
}

/// The full tree of a group (held by whoever proves).
#[derive(Clone, Debug)]
pub struct GroupTree<S: ParameterSet = Seed001> {
    keys: Vec<PublicKey<S>>,
    /// `layers[0]` are the leaves (padded to a power of two), the last is the root.
    layers: Vec<Vec<GroupDigest>>,
}

impl<S: ParameterSet> GroupTree<S> {
    /// Commits to `keys`, in order. Refuses an empty set and repeated keys.
    pub fn new(keys: Vec<PublicKey<S>>) -> Result<Self, GroupError> {
        if keys.is_empty() {
            return Err(GroupError::Empty);
        }
        let depth = depth_for(keys.len());
        if depth > MAX_GROUP_DEPTH {
            return Err(GroupError::TooLarge { size: keys.len(), max_depth: MAX_GROUP_DEPTH });
        }
        let mut seen = std::collections::HashMap::with_capacity(keys.len());
        for (i, k) in keys.iter().enumerate() {
            if let Some(first) = seen.insert(k.to_bytes(), i) {
                return Err(GroupError::DuplicateKey { first, second: i });
            }
        }
        use rayon::prelude::*;
        let mut leaves: Vec<GroupDigest> = keys.par_iter().map(leaf_hash).collect();
        leaves.resize(1 << depth, [F::ZERO; GROUP_DIGEST]);
        let mut layers = vec![leaves];
        for level in 1..=depth {
            let below = layers.last().expect("a layer");
            let next = below.par_chunks_exact(2).map(|p| node_hash(level, &p[0], &p[1])).collect();
            layers.push(next);
        }
        Ok(Self { keys, layers })
    }

    /// The group key.
    pub fn key(&self) -> GroupKey {
        GroupKey { root: self.layers.last().expect("root layer")[0], size: self.keys.len() as u32 }
    }

    /// Member `index`'s key.
    pub fn member(&self, index: u32) -> Option<&PublicKey<S>> {
        self.keys.get(index as usize)
    }

    /// The index of `pk`, `None` for a non-member.
    pub fn position(&self, pk: &PublicKey<S>) -> Option<u32> {
        self.keys.iter().position(|k| k == pk).map(|i| i as u32)
    }

    /// The membership path of the member at `index`.
    pub fn prove(&self, index: u32) -> Result<MembershipProof, GroupError> {
        if index as usize >= self.keys.len() {
            return Err(GroupError::IndexOutOfRange { index: u64::from(index), size: self.keys.len() as u64 });
        }
        let siblings = self.layers[..self.layers.len() - 1]
            .iter()
            .enumerate()
            .map(|(l, layer)| layer[((index >> l) ^ 1) as usize])
            .collect();
        Ok(MembershipProof { index, siblings })
    }
}

/// Distinct member indices, checked (helper for callers assembling signers).
pub fn all_distinct(indices: &[u32]) -> bool {
    let mut seen = HashSet::with_capacity(indices.len());
    indices.iter().all(|i| seen.insert(*i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_epoch_key_and_signature;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn keys(n: usize) -> Vec<PublicKey<Seed001>> {
        let mut rng = StdRng::seed_from_u64(n as u64);
        (0..n).map(|_| single_epoch_key_and_signature::<Seed001, _>(&mut rng, 0, &[0; 32]).unwrap().0).collect()
    }

    #[test]
    fn paths_verify_and_outsiders_do_not() {
        for n in [1usize, 2, 3, 7, 8, 9] {
            let ks = keys(n);
            let tree = GroupTree::new(ks.clone()).unwrap();
            let group = tree.key();
            assert_eq!(group.depth(), depth_for(n));
            for i in 0..n as u32 {
                let path = tree.prove(i).unwrap();
                path.verify(&group, &ks[i as usize]).unwrap();
                if n > 1 {
                    let other = &ks[(i as usize + 1) % n];
                    assert!(path.verify(&group, other).is_err());
                }
            }
            assert!(tree.prove(n as u32).is_err());
            let outsider = keys(100)[0];
            assert!(tree.prove(0).unwrap().verify(&group, &outsider).is_err());
            assert_eq!(GroupKey::from_bytes(&group.to_bytes()).unwrap(), group);
        }
    }

    /// leanSig-family keys (8-element roots) form groups the same way; the
    /// leaf puts the tag right after the longer root.
    #[test]
    fn lean_sig_keys_form_groups() {
        let mut rng = StdRng::seed_from_u64(3);
        let ks: Vec<PublicKey<crate::Test>> = (0..3)
            .map(|_| single_epoch_key_and_signature::<crate::Test, _>(&mut rng, 0, &[0; 32]).unwrap().0)
            .collect();
        let input = leaf_input(&ks[0]);
        assert_eq!((leaf_tag_lane::<crate::Test>(), leaf_tag_lane::<Seed001>()), (13, 12));
        assert_eq!((&input[..8], &input[8..13], input[13]), (&ks[0].root[..], &ks[0].parameter[..], F::ONE));
        assert!(input[14..].iter().all(|&x| x == F::ZERO));
        let tree = GroupTree::new(ks.clone()).unwrap();
        for i in 0..3u32 {
            tree.prove(i).unwrap().verify(&tree.key(), &ks[i as usize]).unwrap();
        }
        assert!(tree.prove(0).unwrap().verify(&tree.key(), &ks[1]).is_err());
        assert_eq!(tree.position(&ks[2]), Some(2));
    }

    #[test]
    fn bad_groups_are_refused() {
        assert_eq!(GroupTree::<Seed001>::new(vec![]).unwrap_err(), GroupError::Empty);
        let ks = keys(3);
        let dup = vec![ks[0], ks[1], ks[0]];
        assert_eq!(GroupTree::new(dup).unwrap_err(), GroupError::DuplicateKey { first: 0, second: 2 });
        assert!(GroupKey::from_bytes(&[0; 35]).is_err());
        let mut zero_size = GroupTree::new(ks).unwrap().key().to_bytes();
        zero_size[32..].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(GroupKey::from_bytes(&zero_size), Err(GroupError::Empty));
    }

    #[test]
    fn paths_round_trip_and_bad_encodings_are_refused() {
        let tree = GroupTree::new(keys(5)).unwrap();
        let group = tree.key();
        for i in 0..5 {
            let path = tree.prove(i).unwrap();
            let bytes = path.to_bytes();
            assert_eq!(bytes.len(), 5 + 32 * group.depth());
            let back = MembershipProof::from_bytes(&bytes).unwrap();
            assert_eq!(back, path);
            back.verify(&group, tree.member(i).unwrap()).unwrap();
        }
        let bytes = tree.prove(3).unwrap().to_bytes();
        for len in 0..bytes.len() {
            assert!(MembershipProof::from_bytes(&bytes[..len]).is_err(), "truncated to {len}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(MembershipProof::from_bytes(&long).is_err());
        let mut depth0 = bytes.clone();
        depth0[4] = 0;
        assert!(MembershipProof::from_bytes(&depth0).is_err());
        let mut deep = bytes.clone();
        deep[4] = 30;
        assert!(MembershipProof::from_bytes(&deep).is_err());
        let mut big_index = bytes.clone();
        big_index[..4].copy_from_slice(&8u32.to_le_bytes());
        assert!(matches!(
            MembershipProof::from_bytes(&big_index),
            Err(GroupError::IndexOutOfRange { index: 8, size: 8 })
        ));
        let mut non_canonical = bytes;
        non_canonical[5..9].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(MembershipProof::from_bytes(&non_canonical), Err(GroupError::Malformed("field element")));
        // Random bytes never panic.
        let mut rng = StdRng::seed_from_u64(7);
        for len in [0usize, 5, 37, 101, 200] {
            let mut junk = vec![0u8; len];
            rand::Rng::fill_bytes(&mut rng, &mut junk);
            let _ = MembershipProof::from_bytes(&junk);
        }
    }
}
