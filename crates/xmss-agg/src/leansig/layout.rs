//! Geometry of the leanSig family's tables: the element widths every set
//! of the family shares (constants) and the block sizes that follow from
//! a set's chains, target sum and lifetime ([`Shape`]).
//!
//! Every slot owns one block of rows in each table, so a row's role is a
//! function of its position and enters the constraints as periodic
//! columns, as in the Seed001 tables ([`crate::layout`]).

use sigagg_xmss::{LeanSigProd, Test};

use crate::scheme::{AggScheme, DigitTable};

/// Field elements per digest (chain values, tree nodes, leaves).
pub const DIGEST: usize = 8;
/// Field elements of the public hash parameter.
pub const PARAM: usize = 5;
/// Field elements of the encoding randomness.
pub const RHO: usize = 7;
/// Field elements of the encoded 32-byte message.
pub const MSG: usize = 9;
/// Chain positions are `0..BASE`.
pub const BASE: usize = 8;
/// Base-8 digits per message-hash output.
pub const Z: usize = 8;
/// The hypercube divisor: an output `a` is `Q d + r`.
pub const Q: u32 = 127;
/// Leaf-sponge rate (capacity first, in lanes `0..CAPACITY`).
pub const RATE: usize = 15;
/// Leaf-sponge capacity.
pub const CAPACITY: usize = 9;
/// Window slots of a sponge row (see [`Shape::window`]).
pub const SLOTS: usize = 3;
/// Row of the message hash in a width-24 block.
pub const MSG_ROW: usize = 0;
/// First leaf-sponge row (chunk 0) in a width-24 block.
pub const SPONGE_ROW: usize = 1;
/// Most message-hash outputs a set of the family reads (LeanSigProd: 6).
pub const MAX_OUTPUTS: usize = 6;

/// A parameter set of the leanSig family: Poseidon1, 8-element digests,
/// chains of length 8 in the `digest | parameter | tweak` layout, the
/// capacity-first replacement sponge and the aborting hypercube message
/// hash with `z = 8`, `q = 127`. [`Shape::of`] checks it.
pub trait LeanFamily: AggScheme {}

impl LeanFamily for LeanSigProd {}
impl LeanFamily for Test {}

/// The block sizes of one set of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Chains per signature.
    pub chains: usize,
    /// Sum of every codeword's digits.
    pub target_sum: usize,
    /// Chain steps per signature: `chains (BASE - 1) - target_sum`.
    pub chain_steps: usize,
    /// Merkle tree levels (the lifetime's log).
    pub depth: usize,
    /// Message-hash outputs read: `ceil(chains / Z)`.
    pub outputs: usize,
    /// Virtual ends of the sponge stream: `[0 | parameter | leaf tweak]`,
    /// then one per chain.
    pub stream_ends: usize,
    /// Leaf-sponge chunks: `ceil((PARAM + 2 + DIGEST chains) / RATE)`.
    pub chunks: usize,
    /// Rows per slot in the chain table.
    pub chain_block: usize,
    /// Rows per slot in the width-24 table.
    pub hash_block: usize,
    /// Rows per slot in the digit table: one per output, then the row
    /// receiving the message hash and the context.
    pub digit_block: usize,
}

impl Shape {
    /// The shape of `S`.
    ///
    /// # Panics
    /// If `S` does not have the family's constants (a bug in a
    /// [`LeanFamily`] impl, caught by the tests of every set).
    pub fn of<S: LeanFamily>() -> Self {
        assert_eq!((S::DIGEST, S::PARAM, S::RHO, S::BASE, S::CAPACITY), (DIGEST, PARAM, RHO, BASE, CAPACITY));
        assert!(S::capacity_first() && S::chain_offsets() == (DIGEST, DIGEST + PARAM, 0), "{}", S::NAME);
        let DigitTable::Hypercube { z: Z, q: Q, outputs } = S::DIGITS else {
            panic!("{}: not a hypercube set", S::NAME)
        };
        let chains = S::NUM_CHAINS;
        let chunks = (PARAM + 2 + DIGEST * chains).div_ceil(RATE);
        let depth = S::TREE_DEPTH;
        Self {
            chains,
            target_sum: S::TARGET_SUM,
            chain_steps: S::CHAIN_STEPS,
            depth,
            outputs,
            stream_ends: chains + 1,
            chunks,
            chain_block: S::CHAIN_STEPS.next_power_of_two(),
            hash_block: (SPONGE_ROW + chunks + depth).next_power_of_two(),
            digit_block: (outputs + 1).next_power_of_two(),
        }
    }

    /// First tree row (level 1) of a width-24 block.
    pub const fn tree_row(&self) -> usize {
        SPONGE_ROW + self.chunks
    }

    /// Row of the digit block that receives the message hash and context.
    pub const fn io_row(&self) -> usize {
        self.outputs
    }

    /// The window of sponge chunk `k`: its first virtual end `v0` and the
    /// offset `e0` of the chunk's first element in it.
    ///
    /// The stream is read as *virtual* ends of [`DIGEST`] elements: end 0
    /// is `[0 | parameter | leaf tweak]` (the leading zero aligns the
    /// stream), end `i + 1` is chain `i`'s end. Chunk `k` absorbs virtual
    /// elements `15k + 1 .. 15k + 16`, which lie in the three ends
    /// `v0, v0 + 1, v0 + 2` from offset `e0 = (15k + 1) mod 8 <= 7`
    /// (`e0 + 15 <= 22 < 24`): `chunk_t = window[e0 + t]`. Window slots
    /// past the last end are zero, which is the sponge's zero padding.
    pub const fn window(k: usize) -> (usize, usize) {
        ((RATE * k + 1) / DIGEST, (RATE * k + 1) % DIGEST)
    }

    /// How far the window moves from chunk `k` to `k + 1`: 1 or 2 ends
    /// (15 elements are one or two 8-element ends). Slot `s` of the next
    /// window is slot `s + advance` of this one when `s + advance < 3`.
    pub const fn advance(k: usize) -> usize {
        Self::window(k + 1).0 - Self::window(k).0
    }

    /// Whether slot `s` of chunk `k` holds a real end (not padding).
    pub const fn is_real_slot(&self, k: usize, s: usize) -> bool {
        Self::window(k).0 + s < self.stream_ends
    }

    /// Whether slot `s` of chunk `k` *receives* its end from the bus: it is
    /// real and not in the previous window (where it was received or
    /// copied). So every virtual end is received exactly once per slot.
    pub const fn receives(&self, k: usize, s: usize) -> bool {
        self.is_real_slot(k, s) && (k == 0 || s + Self::advance(k - 1) >= SLOTS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(shape: Shape) {
        // Every virtual end is received exactly once; every stream element
        // lies in its chunk's window.
        let mut received = vec![0usize; shape.stream_ends + SLOTS];
        for k in 0..shape.chunks {
            let (v0, e0) = Shape::window(k);
            assert_eq!(DIGEST * v0 + e0, RATE * k + 1);
            assert!(e0 + RATE <= SLOTS * DIGEST);
            for s in 0..SLOTS {
                received[v0 + s] += usize::from(shape.receives(k, s));
            }
            if k + 1 < shape.chunks {
                assert!((1..=2).contains(&Shape::advance(k)));
            }
        }
        assert!(received[..shape.stream_ends].iter().all(|&c| c == 1), "{received:?}");
        assert!(received[shape.stream_ends..].iter().all(|&c| c == 0));
        // The last chunk reaches the stream's last element.
        let last = RATE * shape.chunks;
        assert!(last >= DIGEST * shape.stream_ends - 1 && last < DIGEST * shape.stream_ends - 1 + RATE);
        assert!(shape.tree_row() + shape.depth <= shape.hash_block);
        assert!(shape.chain_steps <= shape.chain_block);
        assert!(shape.outputs <= MAX_OUTPUTS && Z * shape.outputs >= shape.chains);
    }

    #[test]
    fn lean_sig_prod_shape() {
        let s = Shape::of::<LeanSigProd>();
        assert_eq!((s.chains, s.chain_steps, s.depth, s.outputs, s.chunks), (46, 122, 32, 6, 25));
        assert_eq!((s.chain_block, s.hash_block, s.digit_block), (128, 64, 8));
        check(s);
    }

    #[test]
    fn test_set_shape() {
        let s = Shape::of::<Test>();
        assert_eq!((s.chains, s.chain_steps, s.depth, s.outputs, s.chunks), (4, 22, 8, 1, 3));
        assert_eq!((s.chain_block, s.hash_block, s.digit_block), (32, 16, 2));
        check(s);
    }
}
