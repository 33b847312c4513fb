//! SHA-256 truncated to `N` bytes for Merkle commitments whose security
//! target is below 128 bits: 24 bytes (192 bits) for 96-bit settings, 31
//! bytes (248 bits) for 120-bit ones.
//!
//! A Merkle commitment is binding as long as its hash is collision
//! resistant, so a `8N`-bit digest (`4N`-bit collision resistance, the
//! birthday bound) suffices for a proof configuration that claims no more
//! than `4N` bits, and every digest of every Merkle path then takes `N`
//! bytes instead of 32. Seed 004's own prover makes the same choice (BLAKE3
//! truncated to 24 bytes at its 96-bit level). Truncating SHA-256 is an
//! approved way of shortening it (NIST SP 800-107, section 5.1).
//!
//! Leaves and inner nodes stay domain-separated as in the full-width trees
//! ([`crate::config`]): a leaf is the standard (padded) SHA-256 of the row's
//! bytes, truncated; an inner node is one raw SHA-256 compression from the
//! standard initial value, without padding, of the 64-byte block
//! `left || right || 0^(64 - 2N)`, truncated. Both use `p3-sha256`'s
//! batched backends (SHA-NI, ARMv8 SHA-2, AVX-512) through its four-lane
//! entry points.

use p3_sha256::{Sha256, Sha256Compress};
use p3_symmetric::{CryptographicHasher, PseudoCompressionFunction};

/// Bytes of the digests of 96-bit settings.
pub const TRUNCATED_BYTES: usize = 24;
/// A 24-byte digest.
pub type Digest24 = [u8; TRUNCATED_BYTES];

fn truncate<const N: usize>(full: [u8; 32]) -> [u8; N] {
    core::array::from_fn(|i| full[i])
}

/// SHA-256 of a byte string, truncated to its first `N` bytes (`N ≤ 32`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sha256Trunc<const N: usize>;

/// [`Sha256Trunc`] to 24 bytes.
pub type Sha256Trunc24 = Sha256Trunc<24>;
/// [`Sha256Trunc`] to 31 bytes.
pub type Sha256Trunc31 = Sha256Trunc<31>;

impl<const N: usize> CryptographicHasher<u8, [u8; N]> for Sha256Trunc<N> {
    const LANES: usize = <Sha256 as CryptographicHasher<u8, [u8; 32]>>::LANES;

    fn hash_iter<I>(&self, input: I) -> [u8; N]
    where
        I: IntoIterator<Item = u8>,
    {
        truncate(Sha256.hash_iter(input))
    }

    fn hash_iter_slices<'a, I>(&self, input: I) -> [u8; N]
    where
        I: IntoIterator<Item = &'a [u8]>,
    {
        truncate(Sha256.hash_iter_slices(input))
    }

    fn hash_many(&self, input: &[u8], out: &mut [[u8; N]]) {
        let mut full = vec![[0u8; 32]; out.len()];
        Sha256.hash_many(input, &mut full);
        for (o, f) in out.iter_mut().zip(full) {
            *o = truncate(f);
        }
    }
}

/// One SHA-256 compression (no padding) of `left || right || 0^(64 - 2N)`,
/// truncated to `N` bytes (`16 ≤ N ≤ 32`): the inner-node function of the
/// truncated trees.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sha256CompressTrunc<const N: usize>;

/// [`Sha256CompressTrunc`] to 24 bytes.
pub type Sha256CompressTrunc24 = Sha256CompressTrunc<24>;
/// [`Sha256CompressTrunc`] to 31 bytes.
pub type Sha256CompressTrunc31 = Sha256CompressTrunc<31>;

/// The 64-byte block of a node, as the two 32-byte halves the full-width
/// compression takes.
fn node_block<const N: usize>([left, right]: [[u8; N]; 2]) -> [[u8; 32]; 2] {
    let mut block = [0u8; 64];
    block[..N].copy_from_slice(&left);
    block[N..2 * N].copy_from_slice(&right);
    [core::array::from_fn(|i| block[i]), core::array::from_fn(|i| block[32 + i])]
}

impl<const N: usize> PseudoCompressionFunction<[u8; N], 2> for Sha256CompressTrunc<N> {
    const LANES: usize = <Sha256Compress as PseudoCompressionFunction<[u8; 32], 2>>::LANES;

    fn compress(&self, input: [[u8; N]; 2]) -> [u8; N] {
        truncate(Sha256Compress.compress(node_block(input)))
    }

    fn compress_many(&self, inputs: &[[[u8; N]; 2]], out: &mut [[u8; N]]) {
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

    /// A leaf digest is the first `N` bytes of the standard SHA-256, on
    /// the scalar and the batched path alike.
    fn leaf_is_truncated_sha256<const N: usize>() {
        let rows: Vec<u8> = (0..8 * 40).map(|i| (i * 7 + 3) as u8).collect();
        let mut batched = [[0u8; N]; 8];
        Sha256Trunc::<N>.hash_many(&rows, &mut batched);
        for (row, got) in rows.chunks(40).zip(batched) {
            let want: [u8; 32] = RefSha256::digest(row).into();
            assert_eq!(got, want[..N]);
            assert_eq!(Sha256Trunc::<N>.hash_iter(row.iter().copied()), got);
        }
    }

    /// A node is one raw compression of `left || right || 0^(64 - 2N)`
    /// from the standard initial value, truncated, on both paths; it
    /// differs from the padded hash of the same `2N` bytes (leaf/node
    /// separation).
    fn node_is_truncated_raw_compression<const N: usize>() {
        let pairs: Vec<[[u8; N]; 2]> =
            (0..9u8).map(|k| [[k; N], core::array::from_fn(|i| k.wrapping_mul(31).wrapping_add(i as u8))]).collect();
        let mut batched = vec![[0u8; N]; pairs.len()];
        Sha256CompressTrunc::<N>.compress_many(&pairs, &mut batched);
        for (pair, got) in pairs.iter().zip(batched) {
            let mut block = [0u8; 64];
            block[..N].copy_from_slice(&pair[0]);
            block[N..2 * N].copy_from_slice(&pair[1]);
            let mut state = p3_sha256::H256_256;
            sha2_ref::block_api::compress256(&mut state, &[block]);
            let want: Vec<u8> = state.iter().flat_map(|w| w.to_be_bytes()).collect();
            assert_eq!(got, want[..N]);
            assert_eq!(Sha256CompressTrunc::<N>.compress(*pair), got);
            let padded: [u8; 32] = RefSha256::digest(&block[..2 * N]).into();
            assert_ne!(got, padded[..N]);
        }
    }

    #[test]
    fn truncated_digests_of_both_lengths() {
        leaf_is_truncated_sha256::<24>();
        leaf_is_truncated_sha256::<31>();
        node_is_truncated_raw_compression::<24>();
        node_is_truncated_raw_compression::<31>();
    }
}
