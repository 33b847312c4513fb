//! Tweaks: the domain-separating "addresses" fed to every hash call, as in
//! hash-sig and leanSig. Each tweak is an integer (a few packed fields and a
//! one-byte separator) written as two base-`p` field elements.

use crate::field::{F, base_p_digits};

/// Field elements per tweak in every parameter set.
pub const TWEAK_LEN: usize = 2;

const SEPARATOR_CHAIN: u128 = 0x00;
const SEPARATOR_TREE: u128 = 0x01;
const SEPARATOR_MESSAGE: u128 = 0x02;

/// Tweak of step `pos_in_chain` (the position reached, 1-based) of chain
/// `chain_index` at `epoch`: `epoch << 24 | chain << 16 | pos << 8 | 0x00`.
pub fn chain_tweak(epoch: u32, chain_index: u8, pos_in_chain: u8) -> [F; TWEAK_LEN] {
    base_p_digits(
        (u128::from(epoch) << 24) | (u128::from(chain_index) << 16) | (u128::from(pos_in_chain) << 8) | SEPARATOR_CHAIN,
    )
}

/// Tweak of the node at `pos_in_level` of tree `level` (leaves are level 0):
/// `level << 40 | pos << 8 | 0x01`.
pub fn tree_tweak(level: u8, pos_in_level: u32) -> [F; TWEAK_LEN] {
    base_p_digits((u128::from(level) << 40) | (u128::from(pos_in_level) << 8) | SEPARATOR_TREE)
}

/// Tweak of the message hash at `epoch`: `epoch << 8 | 0x02`.
pub fn message_tweak(epoch: u32) -> [F; TWEAK_LEN] {
    base_p_digits((u128::from(epoch) << 8) | SEPARATOR_MESSAGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn tweaks_are_distinct_across_kinds_and_fields() {
        let mut seen = HashSet::new();
        for epoch in [0u32, 1, 255, 256, u32::MAX] {
            assert!(seen.insert(message_tweak(epoch)));
            for chain in [0u8, 1, 77, 255] {
                for pos in [0u8, 1, 3, 255] {
                    assert!(seen.insert(chain_tweak(epoch, chain, pos)));
                }
            }
        }
        for level in [0u8, 1, 31, 32] {
            for pos in [0u32, 1, 1 << 20, u32::MAX] {
                assert!(seen.insert(tree_tweak(level, pos)));
            }
        }
    }
}
