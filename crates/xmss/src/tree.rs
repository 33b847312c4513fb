//! Sparse Merkle subtrees over the tweakable tree hash.
//!
//! The full tree of a key has `2^LOG_LIFETIME` leaves. It is split, as in
//! hash-sig and leanSig, into one *top tree* (levels `L/2 ..= L`, whose
//! lowest nodes are the roots of the activated bottom trees) and *bottom
//! trees* (levels `0 ..= L/2`, one per `2^(L/2)` epochs). Only a contiguous
//! run of nodes exists in each level; a level that would start on a right
//! child or end on a left child is padded with one random node, exactly as
//! the reference implementations do, so parents always have two children.

use rayon::prelude::*;

use crate::hash::tree_node;
use crate::params::ParameterSet;

/// Layers smaller than this are hashed on the calling thread.
const PARALLEL_LAYER: usize = 1 << 10;

/// One level of a subtree: the nodes at positions `start .. start + nodes.len()`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Layer<D> {
    start: u64,
    nodes: Vec<D>,
}

/// A subtree with levels `lowest_level ..= top_level`; the top level holds
/// one node, the subtree's root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SubTree<D> {
    lowest_level: u32,
    /// Position and count of the given (unpadded) lowest nodes.
    given: (u64, usize),
    layers: Vec<Layer<D>>,
    /// The random padding nodes, in the order they were drawn.
    pads: Vec<D>,
}

impl<D: Copy + Send + Sync> SubTree<D> {
    /// Builds the subtree above `nodes`, which sit at `lowest_level`
    /// starting at position `start`. `pad` supplies padding nodes.
    pub(crate) fn build<S>(
        parameter: &S::Parameter,
        lowest_level: u32,
        top_level: u32,
        start: u64,
        nodes: Vec<D>,
        pad: &mut impl FnMut() -> D,
    ) -> Self
    where
        S: ParameterSet<Digest = D>,
    {
        let mut pads = Vec::new();
        let mut draw = || {
            let p = pad();
            pads.push(p);
            p
        };
        let given = (start, nodes.len());
        let mut layer = Layer { start, nodes };
        let mut layers = Vec::with_capacity((top_level - lowest_level + 1) as usize);
        for level in lowest_level..top_level {
            pad_layer(&mut layer, &mut draw);
            let parent = parents::<S>(parameter, level + 1, &layer);
            layers.push(layer);
            layer = parent;
        }
        layers.push(layer);
        Self { lowest_level, given, layers, pads }
    }

    /// Rebuilds a subtree from its lowest nodes and recorded padding; `None`
    /// when the padding does not fit the shape (a corrupted encoding).
    pub(crate) fn rebuild<S>(
        parameter: &S::Parameter,
        lowest_level: u32,
        top_level: u32,
        start: u64,
        nodes: Vec<D>,
        pads: &[D],
    ) -> Option<Self>
    where
        S: ParameterSet<Digest = D>,
    {
        let width = 1u64.checked_shl(top_level.checked_sub(lowest_level)?)?;
        let end = start.checked_add(nodes.len() as u64)?;
        // All nodes must lie under one root, at positions that fit in u32.
        if nodes.is_empty() || end > 1 << 32 || start / width != (end - 1) / width {
            return None;
        }
        let filler = nodes[0];
        let mut it = pads.iter();
        let mut short = false;
        let mut pad = || {
            it.next().copied().unwrap_or_else(|| {
                short = true;
                filler
            })
        };
        let tree = Self::build::<S>(parameter, lowest_level, top_level, start, nodes, &mut pad);
        (!short && tree.pads.len() == pads.len()).then_some(tree)
    }

    /// The root (the single node of the top level).
    pub(crate) fn root(&self) -> D {
        self.layers.last().expect("a subtree has a top level").nodes[0]
    }

    /// The given (unpadded) nodes of the lowest level and their first position.
    pub(crate) fn lowest(&self) -> (u64, &[D]) {
        let (start, len) = self.given;
        let skip = (start - self.layers[0].start) as usize;
        (start, &self.layers[0].nodes[skip..skip + len])
    }

    /// The lowest level.
    pub(crate) fn lowest_level(&self) -> u32 {
        self.lowest_level
    }

    /// The recorded padding nodes.
    pub(crate) fn pads(&self) -> &[D] {
        &self.pads
    }

    /// The co-path (siblings from the lowest level up to below the root) of
    /// the node at `position` in the lowest level; `None` if it is not stored.
    pub(crate) fn co_path(&self, mut position: u64) -> Option<Vec<D>> {
        let mut path = Vec::with_capacity(self.layers.len() - 1);
        for layer in &self.layers[..self.layers.len() - 1] {
            let sibling = (position ^ 1).checked_sub(layer.start)?;
            path.push(*layer.nodes.get(sibling as usize)?);
            position >>= 1;
        }
        Some(path)
    }
}

/// Pads a layer so it starts at an even and ends at an odd position.
fn pad_layer<D: Copy>(layer: &mut Layer<D>, draw: &mut impl FnMut() -> D) {
    if layer.start % 2 == 1 {
        layer.nodes.insert(0, draw());
        layer.start -= 1;
    }
    if layer.nodes.len() % 2 == 1 {
        layer.nodes.push(draw());
    }
}

/// Hashes a padded layer's pairs into the parents at `level`.
fn parents<S: ParameterSet>(parameter: &S::Parameter, level: u32, layer: &Layer<S::Digest>) -> Layer<S::Digest> {
    let start = layer.start / 2;
    let hash = |(i, pair): (usize, &[S::Digest])| {
        tree_node::<S>(parameter, level as u8, (start + i as u64) as u32, &pair[0], &pair[1])
    };
    let nodes = if layer.nodes.len() >= PARALLEL_LAYER {
        layer.nodes.par_chunks_exact(2).enumerate().map(hash).collect()
    } else {
        layer.nodes.chunks_exact(2).enumerate().map(hash).collect()
    };
    Layer { start, nodes }
}

/// Recomputes the root from a leaf digest at `position` and its co-path.
pub(crate) fn root_from_path<S: ParameterSet>(
    parameter: &S::Parameter,
    mut position: u64,
    leaf: S::Digest,
    co_path: &[S::Digest],
) -> S::Digest {
    let mut node = leaf;
    for (l, sibling) in co_path.iter().enumerate() {
        let (left, right) = if position.is_multiple_of(2) { (&node, sibling) } else { (sibling, &node) };
        position >>= 1;
        node = tree_node::<S>(parameter, (l + 1) as u8, position as u32, left, right);
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::{F, FeArray};
    use crate::params::Test;
    use p3_field::PrimeCharacteristicRing;

    type D = <Test as ParameterSet>::Digest;

    fn digest(i: u32) -> D {
        D::generate(|k| F::from_u32(i * 31 + k as u32))
    }

    #[test]
    fn every_path_leads_to_the_root() {
        let param = <Test as ParameterSet>::Parameter::generate(|i| F::from_u32(i as u32 + 9));
        for (start, len) in [(0u64, 8usize), (3, 5), (6, 1), (1, 2)] {
            let nodes: Vec<D> = (0..len as u32).map(digest).collect();
            let mut counter = 1000;
            let mut pad = || {
                counter += 1;
                digest(counter)
            };
            let tree = SubTree::build::<Test>(&param, 0, 4, start, nodes.clone(), &mut pad);
            for (i, node) in nodes.iter().enumerate() {
                let pos = start + i as u64;
                let path = tree.co_path(pos).unwrap();
                assert_eq!(path.len(), 4);
                assert_eq!(root_from_path::<Test>(&param, pos, *node, &path), tree.root());
            }
            let again = SubTree::rebuild::<Test>(&param, 0, 4, start, nodes.clone(), tree.pads()).unwrap();
            assert_eq!(again, tree);
            if !tree.pads().is_empty() {
                let short = &tree.pads()[1..];
                assert!(SubTree::rebuild::<Test>(&param, 0, 4, start, nodes.clone(), short).is_none());
            }
            let mut long = tree.pads().to_vec();
            long.push(digest(1));
            assert!(SubTree::rebuild::<Test>(&param, 0, 4, start, nodes, &long).is_none());
        }
    }
}
