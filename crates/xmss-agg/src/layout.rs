//! Fixed geometry of the tables: every signature owns one block of rows of
//! fixed size in each table, so the role of a row (message hash, sponge
//! chunk k, tree level l, ...) is a function of its position and is given to
//! the constraints as small periodic columns instead of committed flags.
//!
//! Seed001 verification per signature: 1 message hash, 117 chain steps
//! (always exactly 117: the codeword sums to 117, so `sum (3 - x_i) = 117`),
//! a 37-permutation leaf sponge and 20 tree compressions.

use sigagg_xmss::{ParameterSet, Seed001};

/// Chains per signature.
pub const NUM_CHAINS: usize = Seed001::NUM_CHAINS;
/// Chain positions are `0..BASE`.
pub const BASE: usize = Seed001::BASE;
/// Sum of every codeword's digits.
pub const TARGET_SUM: usize = Seed001::TARGET_SUM;
/// Chain steps per signature: `sum_i (BASE - 1 - x_i)`.
pub const CHAIN_STEPS: usize = NUM_CHAINS * (BASE - 1) - TARGET_SUM;
/// Field elements per digest.
pub const DIGEST: usize = 7;
/// Field elements of the hash parameter.
pub const PARAM: usize = 5;
/// Field elements of the encoding randomness.
pub const RHO: usize = 6;
/// Field elements of the encoded message.
pub const MSG: usize = 9;
/// Output elements of the message hash.
pub const MSG_HASH: usize = 5;
/// Tree depth.
pub const DEPTH: usize = Seed001::LOG_LIFETIME as usize;

/// Rows per signature in the chain-step (width-16) table.
pub const P16_BLOCK: usize = 128;

/// Rows per signature in the width-24 table.
pub const P24_BLOCK: usize = 64;
/// Row of the message hash in a width-24 block.
pub const MSG_ROW: usize = 0;
/// First leaf-sponge row (chunk 0).
pub const SPONGE_ROW: usize = 1;
/// Leaf-sponge rate and capacity (hash-sig: capacity in the last lanes).
pub const RATE: usize = 15;
/// Capacity of the leaf sponge.
pub const CAPACITY: usize = 9;
/// Virtual ends in the sponge stream: `[parameter | tweak]` then 78 chain ends.
pub const STREAM_ENDS: usize = NUM_CHAINS + 1;
/// Sponge chunks per leaf: `ceil(79 * 7 / 15)`.
pub const CHUNKS: usize = (STREAM_ENDS * DIGEST).div_ceil(RATE);
/// First tree row (level 1).
pub const TREE_ROW: usize = SPONGE_ROW + CHUNKS;

/// Rows per signature in the digit table: one per 12-bit limb (six digits,
/// six chains), then rows for the message-hash and context receives.
pub const DIGIT_BLOCK: usize = 16;
/// 12-bit limbs of the message-hash integer (6 base-4 digits each).
pub const LIMBS: usize = 13;
/// Digits per limb (and chains per digit-table row).
pub const DIGITS_PER_LIMB: usize = 6;
/// Row receiving the message-hash output and the signature context.
pub const IO_ROW: usize = LIMBS;

/// Height of the range table: values `0 .. 2^16`.
pub const RANGE_BITS: usize = 16;

/// Start of the window (first virtual end) of sponge chunk `k`, and the
/// offset `e0 = 15k mod 7` of the chunk's first element inside that end.
pub const fn window(k: usize) -> (usize, usize) {
    (RATE * k / DIGEST, (RATE * k) % DIGEST)
}

/// Whether chunk `k`'s first window slot is chunk `k - 1`'s third (the
/// window advanced by two ends): then it is copied, not received, so that
/// every virtual end is received exactly once.
pub const fn shares_first_slot(k: usize) -> bool {
    k > 0 && window(k).0 == window(k - 1).0 + 2
}

/// The window slots of chunk `k` that receive their end from the bus.
pub fn receiving_slots(k: usize) -> [bool; 3] {
    [!shares_first_slot(k), true, has_third_slot(k)]
}

/// Whether the third window slot of chunk `k` refers to a real end (it does
/// not for the last chunk, whose tail is zero padding).
pub const fn has_third_slot(k: usize) -> bool {
    window(k).0 + 2 < STREAM_ENDS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        assert_eq!(CHAIN_STEPS, 117);
        assert_eq!(CHUNKS, 37);
        assert_eq!(TREE_ROW + DEPTH, 58);
        const { assert!(TREE_ROW + DEPTH <= P24_BLOCK) };
        const { assert!(CHAIN_STEPS <= P16_BLOCK) };
        assert_eq!(window(36), (77, 1));
        assert!(!has_third_slot(36) && has_third_slot(35));
        // Every stream element lies in exactly one chunk; each window covers its chunk.
        for k in 0..CHUNKS {
            let (v0, e0) = window(k);
            assert_eq!(7 * v0 + e0, 15 * k);
            assert!(e0 + 14 < 21);
        }
        // Every virtual end is received exactly once over the leaf's windows.
        let mut received = [0usize; STREAM_ENDS + 1];
        for k in 0..CHUNKS {
            for (s, on) in receiving_slots(k).into_iter().enumerate() {
                received[window(k).0 + s] += usize::from(on);
            }
        }
        assert!(received[..STREAM_ENDS].iter().all(|&c| c == 1));
        assert_eq!(received[STREAM_ENDS], 0);
        // A shared slot really holds the same end.
        for k in 1..CHUNKS {
            assert_eq!(shares_first_slot(k), window(k).0 == window(k - 1).0 + 2);
            assert!(window(k).0 - window(k - 1).0 >= 2);
        }
        assert_eq!(LIMBS * DIGITS_PER_LIMB, NUM_CHAINS);
        const { assert!(IO_ROW < DIGIT_BLOCK) };
    }
}
