//! SHA-256 truncated to 24 bytes (192 bits) for Merkle commitments whose
//! security target is 96 bits.
//!
//! A Merkle commitment is binding as long as its hash is collision
//! resistant, so a 192-bit digest (96-bit collision resistance, the
//! birthday bound) suffices for a proof configuration that claims 96 bits,
//! and every digest of every Merkle path then takes 24 bytes instead of 32.
//! The same choice is made by seed 004's own prover (BLAKE3 truncated to 24
//! bytes at its 96-bit level). Truncating SHA-256 is an approved way of
//! shortening it (NIST SP 800-107, section 5.1).
//!
//! Leaves and inner nodes stay domain-separated as in the full-width trees
//! ([`crate::config`]): a leaf is the standard (padded) SHA-256 of the row's
//! bytes, truncated; an inner node is one raw SHA-256 compression from the
//! standard initial value, without padding, of the 64-byte block
//! `left || right || 0^16`, truncated. Both use `p3-sha256`'s batched
//! backends (SHA-NI, ARMv8 SHA-2, AVX-512) through its four-lane entry points.

use p3_sha256::{Sha256, Sha256Compress};
use p3_symmetric::{CryptographicHasher, PseudoCompressionFunction};

/// Bytes of a truncated digest.
pub const TRUNCATED_BYTES: usize = 24;
/// A truncated digest.
pub type Digest24 = [u8; TRUNCATED_BYTES];

fn truncate(full: [u8; 32]) -> Digest24 {
    let mut out = [0u8; TRUNCATED_BYTES];
    out.copy_from_slice(&full[..TRUNCATED_BYTES]);
    out
}

/// SHA-256 of a byte string, truncated to its first 24 bytes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sha256Trunc24;

impl CryptographicHasher<u8, Digest24> for Sha256Trunc24 {
    const LANES: usize = <Sha256 as CryptographicHasher<u8, [u8; 32]>>::LANES;

    fn hash_iter<I>(&self, input: I) -> Digest24
    where
        I: IntoIterator<Item = u8>,
    {
        truncate(Sha256.hash_iter(input))
    }

    fn hash_iter_slices<'a, I>(&self, input: I) -> Digest24
    where
        I: IntoIterator<Item = &'a [u8]>,
    {
        truncate(Sha256.hash_iter_slices(input))
    }

    fn hash_many(&self, input: &[u8], out: &mut [Digest24]) {
        let mut full = vec![[0u8; 32]; out.len()];
        Sha256.hash_many(input, &mut full);
        for (o, f) in out.iter_mut().zip(full) {
            *o = truncate(f);
        }
    }
}

/// One SHA-256 compression (no padding) of `left || right || 0^16`,
/// truncated to 24 bytes: the inner-node function of the truncated trees.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sha256CompressTrunc24;

/// The 64-byte block of a node, as the two 32-byte halves the full-width
/// compression takes.
fn node_block([left, right]: [Digest24; 2]) -> [[u8; 32]; 2] {
    let mut block = [[0u8; 32]; 2];
    block[0][..24].copy_from_slice(&left);
    block[0][24..].copy_from_slice(&right[..8]);
    block[1][..16].copy_from_slice(&right[8..]);
    block
}

impl PseudoCompressionFunction<Digest24, 2> for Sha256CompressTrunc24 {
    const LANES: usize = <Sha256Compress as PseudoCompressionFunction<[u8; 32], 2>>::LANES;

    fn compress(&self, input: [Digest24; 2]) -> Digest24 {
        truncate(Sha256Compress.compress(node_block(input)))
    }

    fn compress_many(&self, inputs: &[[Digest24; 2]], out: &mut [Digest24]) {
        let blocks: Vec<[[u8; 32]; 2]> = inputs.iter().map(|&pair| node_block(pair)).collect();
        let mut full = vec![[0u8; 32]; out.len()];
        Sha256Compress.compress_many(&blocks, &mut full);
        for (o, f) in out.iter_mut().zip(full) {
            *o = truncate(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use sha2_ref::{Digest, Sha256 as RefSha256};

    use super::*;

    /// A leaf digest is the first 24 bytes of the standard SHA-256, on the
    /// scalar and the batched path alike.
    #[test]
    fn leaf_is_truncated_sha256() {
        let rows: Vec<u8> = (0..8 * 40).map(|i| (i * 7 + 3) as u8).collect();
        let mut batched = [[0u8; 24]; 8];
        Sha256Trunc24.hash_many(&rows, &mut batched);
        for (row, got) in rows.chunks(40).zip(batched) {
            let want: [u8; 32] = RefSha256::digest(row).into();
            assert_eq!(got, want[..24]);
            assert_eq!(Sha256Trunc24.hash_iter(row.iter().copied()), got);
        }
    }

    /// A node is one raw compression of `left || right || 0^16` from the
    /// standard initial value, truncated, on both paths; it differs from
    /// the padded hash of the same 48 bytes (leaf/node separation).
    #[test]
    fn node_is_truncated_raw_compression() {
        let pairs: Vec<[Digest24; 2]> =
            (0..9u8).map(|k| [[k; 24], core::array::from_fn(|i| k.wrapping_mul(31).wrapping_add(i as u8))]).collect();
        let mut batched = vec![[0u8; 24]; pairs.len()];
        Sha256CompressTrunc24.compress_many(&pairs, &mut batched);
        for (pair, got) in pairs.iter().zip(batched) {
            let mut block = [0u8; 64];
            block[..24].copy_from_slice(&pair[0]);
            block[24..48].copy_from_slice(&pair[1]);
            let mut state = p3_sha256::H256_256;
            sha2_ref::block_api::compress256(&mut state, &[block]);
            let want: Vec<u8> = state.iter().flat_map(|w| w.to_be_bytes()).collect();
            assert_eq!(got, want[..24]);
            assert_eq!(Sha256CompressTrunc24.compress(*pair), got);
            let padded: [u8; 32] = RefSha256::digest(&block[..48]).into();
            assert_ne!(got, padded[..24]);
        }
    }
}
