//! The proof system's configuration: field, challenge extension, hashes,
//! FRI parameters, and the settings both aggregators name.

use p3_challenger::{DuplexChallenger, HashChallenger, SerializingChallenger32};
use p3_commit::ExtensionMmcs;
use p3_field::Field;
use p3_field::extension::QuinticTrinomialExtensionField;
use p3_fri::TwoAdicFriPcs;
use p3_koala_bear::{KoalaBear, Poseidon2KoalaBear, default_koalabear_poseidon2_16};
use p3_merkle_tree::MerkleTreeMmcs;
use p3_sha256::{Sha256, Sha256Compress};
use p3_symmetric::{PaddingFreeSponge, SerializingHasher, TruncatedPermutation};
use p3_uni_stark::StarkConfig;
use serde::{Deserialize, Serialize};

pub use crate::settings::{FriSettings, InvalidSettings, MAX_POW_BITS, Settings, WhirSettings};

use crate::merkle_hash::{
    Sha256CompressTrunc, Sha256CompressTrunc24, Sha256CompressTrunc31, Sha256Trunc, Sha256Trunc24, Sha256Trunc31,
    TRUNCATED_BYTES,
};

/// Base field: KoalaBear.
pub type Val = KoalaBear;
/// KoalaBear's SIMD packing (one lane per row in the packed witness writers).
pub type PackedVal = <Val as Field>::Packing;
/// Challenge field: the degree-5 extension of KoalaBear (about 155 bits),
/// large enough for more than 100 bits of proven security.
pub type Challenge = QuinticTrinomialExtensionField<Val>;

/// Leaf hash: SHA-256 of a row's field elements, each as the 4 little-endian
/// bytes of its Montgomery form `v * 2^32 mod p` (Plonky3's serialization of
/// KoalaBear; pinned by a test for external verifiers).
type FieldHash = SerializingHasher<Sha256>;
/// Merkle commitments over SHA-256: leaves hash whole rows, inner nodes are
/// one SHA-256 compression of the two children.
///
/// SHA-256 rather than Keccak because it is what CPUs accelerate: SHA-NI on
/// AMD Zen and recent Intel cores, the ARMv8 SHA-2 extension, and
/// `p3-sha256`'s AVX-512 backend elsewhere. Committing the LDEs is a third
/// of the prover's time, and on a Zen 3 host a SHA-256 tree is built 2-3.5
/// times faster than the vectorized Keccak-f one (BENCHMARKS.md). It is also
/// the hash that bridges and smart contracts can check cheaply.
pub type ValMmcs = MerkleTreeMmcs<Val, u8, FieldHash, Sha256Compress, 2, 32>;
/// The same trees with SHA-256 truncated to 24 bytes ([`crate::merkle_hash`]),
/// for settings whose security target is 96 bits.
pub type ValMmcs24 = MerkleTreeMmcs<Val, u8, SerializingHasher<Sha256Trunc24>, Sha256CompressTrunc24, 2, 24>;
/// The same trees with SHA-256 truncated to 31 bytes, for settings whose
/// security target is 120 bits (the multilinear backend's).
pub type ValMmcs31 = MerkleTreeMmcs<Val, u8, SerializingHasher<Sha256Trunc31>, Sha256CompressTrunc31, 2, 31>;
/// Fiat-Shamir transcript over SHA-256.
pub type Challenger = SerializingChallenger32<Val, HashChallenger<u8, Sha256, 32>>;

/// Plonky3's Poseidon2 permutation of KoalaBear, width 16
/// (`default_koalabear_poseidon2_16`: its round constants and matrices),
/// the one hash of [`MerkleHash::Poseidon2`]: a proof committed and
/// transcribed with it is verified with field operations alone, which is
/// what a verifier written as AIR tables (recursion) can afford.
#[cfg(not(feature = "count-permutations"))]
pub type Poseidon2Perm = Poseidon2KoalaBear<16>;
/// The transcript's permutation: [`Poseidon2Perm`], counted apart from the
/// trees' under the feature `count-permutations`.
#[cfg(not(feature = "count-permutations"))]
pub type TranscriptPerm = Poseidon2KoalaBear<16>;
/// [`Poseidon2Perm`] counted ([`counted`]).
#[cfg(feature = "count-permutations")]
pub type Poseidon2Perm = counted::Counted<Poseidon2KoalaBear<16>, { counted::TREES }>;
/// The transcript's permutation, counted ([`counted`]).
#[cfg(feature = "count-permutations")]
pub type TranscriptPerm = counted::Counted<Poseidon2KoalaBear<16>, { counted::TRANSCRIPT }>;
/// Merkle trees over [`Poseidon2Perm`]: a leaf is the padding-free sponge
/// (rate 8, capacity 8) of the row's values, a node the truncated
/// permutation of its two children (the first 8 elements of
/// `perm(left || right)`); digests of 8 elements.
pub type ValMmcsPoseidon2 = MerkleTreeMmcs<
    PackedVal,
    PackedVal,
    PaddingFreeSponge<Poseidon2Perm, 16, 8, 8>,
    TruncatedPermutation<Poseidon2Perm, 2, 8, 16>,
    2,
    8,
>;
/// Fiat-Shamir transcript over [`Poseidon2Perm`]: a duplex sponge of rate 8.
pub type Poseidon2Challenger = DuplexChallenger<Val, TranscriptPerm, 16, 8>;

/// Counts of the Poseidon2 permutations that Merkle trees and transcripts
/// run (feature `count-permutations`, for sizing a verifier written as AIR
/// tables; never in a release of the library): a packed call counts one
/// permutation per lane. The counters are process-wide.
#[cfg(feature = "count-permutations")]
pub mod counted {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use p3_symmetric::{CryptographicPermutation, Permutation};

    /// The counter of the Merkle trees' permutations (leaves and nodes).
    pub const TREES: usize = 0;
    /// The counter of the transcript's permutations.
    pub const TRANSCRIPT: usize = 1;
    static COUNTS: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];

    /// `P`, counting its calls in counter `SITE`.
    #[derive(Clone, Debug)]
    pub struct Counted<P, const SITE: usize>(pub P);

    impl<T: Clone, P: Permutation<[T; 16]>, const SITE: usize> Permutation<[T; 16]> for Counted<P, SITE> {
        fn permute_mut(&self, input: &mut [T; 16]) {
            let lanes = (size_of::<T>() / size_of::<super::Val>()).max(1);
            COUNTS[SITE].fetch_add(lanes, Ordering::Relaxed);
            self.0.permute_mut(input);
        }
    }

    impl<T: Clone, P: CryptographicPermutation<[T; 16]>, const SITE: usize> CryptographicPermutation<[T; 16]>
        for Counted<P, SITE>
    {
    }

    /// The counts `(trees, transcript)` since the last call, and zero again.
    pub fn take() -> (usize, usize) {
        (COUNTS[TREES].swap(0, Ordering::Relaxed), COUNTS[TRANSCRIPT].swap(0, Ordering::Relaxed))
    }
}
pub(crate) type Dft = crate::dft::HybridDft;
/// The STARK configuration with the Merkle commitment scheme `M` (for both
/// the traces and the FRI layers).
pub type ConfigWith<M> =
    StarkConfig<TwoAdicFriPcs<Val, Dft, M, ExtensionMmcs<Val, Challenge, M>>, Challenge, Challenger>;
/// The STARK configuration of full-width SHA-256 commitments
/// ([`MerkleHash::Sha256`]); every XMSS proof uses it.
pub type AggConfig = ConfigWith<ValMmcs>;
/// The STARK configuration of 24-byte commitments ([`MerkleHash::Sha256Trunc24`]).
pub type AggConfig24 = ConfigWith<ValMmcs24>;

/// The proof system that proves a statement's tables ([`crate::prove`]);
/// each states its own security ([`crate::security_level`]) and tags its
/// proofs ([`crate::StarkProof`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Backend {
    /// Univariate: Plonky3's batch STARK (`p3-batch-stark`) with FRI
    /// (`p3-fri`) over Reed-Solomon codes of rate `2^-log_blowup`
    /// ([`crate::fri`]).
    Fri,
    /// Multilinear: Plonky3's SuperSpartan-style AIR prover
    /// (`p3-multi-stark`, LogUp by fractional GKR, stacked tables) with the
    /// WHIR commitment (`p3-whir`, Johnson-bound regime) ([`crate::whir`]).
    Whir,
    /// Multilinear, our own prover ([`crate::skip_stark`]): the same WHIR
    /// commitment, a zerocheck whose first variables are a univariate
    /// skip, LogUp by `p3-multi-stark`'s fractional GKR.
    Skip,
}

impl Backend {
    /// The name used in messages and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Fri => "fri",
            Backend::Whir => "whir",
            Backend::Skip => "skip",
        }
    }

    /// Whether the backend is multilinear (a WHIR commitment, no quotient):
    /// the tables' layouts and height limits follow from that.
    pub const fn is_multilinear(self) -> bool {
        matches!(self, Backend::Whir | Backend::Skip)
    }

    /// The backend's number in [`Settings::words`] and proof headers.
    pub(crate) const fn word(self) -> usize {
        match self {
            Backend::Fri => 0,
            Backend::Whir => 1,
            Backend::Skip => 2,
        }
    }
}

/// The hash of the Merkle commitments (trace, quotient and FRI trees).
///
/// A commitment binds only as far as its hash resists collisions, so the
/// digest need be no longer than twice the security the setting claims;
/// shorter digests shorten every Merkle path of the proof.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MerkleHash {
    /// SHA-256, 32-byte digests: 128-bit collision resistance.
    #[default]
    Sha256,
    /// SHA-256 truncated to 24 bytes: 96-bit collision resistance, for
    /// settings that claim no more than 96 bits.
    Sha256Trunc24,
    /// SHA-256 truncated to 31 bytes: 124-bit collision resistance, for
    /// settings that claim no more than 120 bits (the multilinear
    /// backend only).
    Sha256Trunc31,
    /// Poseidon2 over KoalaBear for the Merkle trees *and* the Fiat-Shamir
    /// transcript ([`ValMmcsPoseidon2`], [`Poseidon2Challenger`]):
    /// 8-element digests (`8 log2 p = 247.9` bits), so at most 123 bits of
    /// collision resistance by the birthday bound, and no more than the
    /// sponge's capacity of 8 elements gives (the same bound); the
    /// recursion-friendly setting of our multilinear prover
    /// ([`Backend::Skip`] only). Conjectured: it assumes Poseidon2 behaves
    /// as a random permutation at these parameters.
    Poseidon2,
}

impl MerkleHash {
    /// Collision resistance in bits (the birthday bound: half the
    /// digest; for Poseidon2, half of `8 log2 p`, rounded down).
    pub const fn collision_bits(self) -> usize {
        match self {
            MerkleHash::Poseidon2 => 123,
            _ => self.digest_bytes() * 4,
        }
    }

    /// Bytes of one digest as proofs carry it (a Poseidon2 digest is 8
    /// field elements of 4 bytes).
    pub const fn digest_bytes(self) -> usize {
        match self {
            MerkleHash::Sha256 | MerkleHash::Poseidon2 => 32,
            MerkleHash::Sha256Trunc24 => TRUNCATED_BYTES,
            MerkleHash::Sha256Trunc31 => 31,
        }
    }

    /// The hash's number in [`Settings::words`]: the digest's bytes for
    /// SHA-256 and its truncations (as settings have always carried it),
    /// a number no digest length takes for Poseidon2.
    pub(crate) const fn word(self) -> usize {
        match self {
            MerkleHash::Poseidon2 => 0x5032,
            other => other.digest_bytes(),
        }
    }
}

/// The Merkle commitment scheme with Merkle caps of `cap_height` layers.
pub fn val_mmcs(cap_height: usize) -> ValMmcs {
    ValMmcs::new(FieldHash::new(Sha256), Sha256Compress, cap_height)
}

/// The 24-byte Merkle commitment scheme with Merkle caps of `cap_height` layers.
pub fn val_mmcs24(cap_height: usize) -> ValMmcs24 {
    ValMmcs24::new(SerializingHasher::new(Sha256Trunc::<24>), Sha256CompressTrunc::<24>, cap_height)
}

/// The 31-byte Merkle commitment scheme with Merkle caps of `cap_height` layers.
pub fn val_mmcs31(cap_height: usize) -> ValMmcs31 {
    ValMmcs31::new(SerializingHasher::new(Sha256Trunc::<31>), Sha256CompressTrunc::<31>, cap_height)
}

/// A Fiat-Shamir transcript that starts by absorbing `seed`.
pub fn transcript(seed: Vec<u8>) -> Challenger {
    Challenger::from_hasher(seed, Sha256)
}

/// The trees' [`Poseidon2Perm`].
fn poseidon2_perm() -> Poseidon2Perm {
    #[cfg(not(feature = "count-permutations"))]
    return default_koalabear_poseidon2_16();
    #[cfg(feature = "count-permutations")]
    return counted::Counted(default_koalabear_poseidon2_16());
}

/// The transcript's [`TranscriptPerm`].
fn transcript_perm() -> TranscriptPerm {
    #[cfg(not(feature = "count-permutations"))]
    return default_koalabear_poseidon2_16();
    #[cfg(feature = "count-permutations")]
    return counted::Counted(default_koalabear_poseidon2_16());
}

/// The Poseidon2 Merkle commitment scheme with Merkle caps of `cap_height` layers.
pub fn val_mmcs_poseidon2(cap_height: usize) -> ValMmcsPoseidon2 {
    let perm = poseidon2_perm();
    ValMmcsPoseidon2::new(PaddingFreeSponge::new(perm.clone()), TruncatedPermutation::new(perm), cap_height)
}

/// A Poseidon2 transcript that starts by absorbing `seed`: its length,
/// then each 3 bytes (little-endian, the last group zero-padded) as one
/// field element below `2^24 < p`, so distinct seeds absorb distinct
/// sequences.
pub fn poseidon2_transcript(seed: Vec<u8>) -> Poseidon2Challenger {
    use p3_challenger::CanObserve;
    let mut challenger = Poseidon2Challenger::new(transcript_perm());
    challenger.observe_slice(&seed_values(&seed));
    challenger
}

/// The field elements [`poseidon2_transcript`] absorbs for `seed`, in
/// order (public for the verifier circuit, `sigagg-recursion`, which
/// absorbs the same).
pub fn seed_values(seed: &[u8]) -> Vec<Val> {
    use p3_field::PrimeCharacteristicRing;
    core::iter::once(Val::from_usize(seed.len()))
        .chain(
            seed.chunks(3).map(|group| Val::from_u32(group.iter().rev().fold(0u32, |w, &b| (w << 8) | u32::from(b)))),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use p3_commit::Mmcs;
    use p3_field::{PrimeCharacteristicRing, PrimeField32};
    use p3_matrix::dense::RowMajorMatrix;
    use sha2_ref::{Digest, Sha256 as RefSha256};

    use super::*;

    /// A row as the leaf hash reads it: each value `v` in Montgomery form,
    /// `v * 2^32 mod p`, as a 4-byte little-endian word.
    fn row_bytes(row: &[Val]) -> Vec<u8> {
        let p = u64::from(Val::ORDER_U32);
        row.iter().flat_map(|v| (((u64::from(v.as_canonical_u32()) << 32) % p) as u32).to_le_bytes()).collect()
    }

    /// The commitment format an external verifier must reproduce: a leaf is
    /// SHA-256 of the row's values in Montgomery form as 4-byte little-endian words,
    /// and a node is one SHA-256 compression (standard initial value, no
    /// padding) of the 64-byte concatenation of its children.
    #[test]
    fn merkle_root_is_plain_sha256() {
        let rows: Vec<Vec<Val>> = (0..2).map(|r| (0..5).map(|c| Val::from_u32(1_000 * r + c + 7)).collect()).collect();
        let leaves: Vec<[u8; 32]> = rows.iter().map(|r| RefSha256::digest(row_bytes(r)).into()).collect();

        // One row: the root is the leaf.
        let (root, _) = val_mmcs(0).commit_matrix(RowMajorMatrix::new(rows[0].clone(), 5));
        assert_eq!(root.as_ref(), &[leaves[0]]);

        // Two rows: the root compresses the two leaves.
        let (root, _) = val_mmcs(0).commit_matrix(RowMajorMatrix::new(rows.concat(), 5));
        let mut state =
            [0x6a09e667u32, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
        let block: [u8; 64] = [leaves[0], leaves[1]].concat().try_into().unwrap();
        sha2_ref::block_api::compress256(&mut state, &[block]);
        let expected: [u8; 32] = state.iter().flat_map(|w| w.to_be_bytes()).collect::<Vec<u8>>().try_into().unwrap();
        assert_eq!(root.as_ref(), &[expected]);
        // And it is not the padded hash of the same 64 bytes (domain separation
        // between leaves and nodes rests on this).
        assert_ne!(root.as_ref(), &[<[u8; 32]>::from(RefSha256::digest(block))]);
    }

    /// The Poseidon2 commitment format a recursive verifier must
    /// reproduce: a leaf of at most 8 values is the first 8 elements of
    /// the permutation of the row, zero-filled to 16; a node is the first
    /// 8 elements of the permutation of its children side by side.
    #[test]
    fn poseidon2_merkle_root_is_the_sponge_and_the_truncated_permutation() {
        use p3_symmetric::Permutation;
        let perm = default_koalabear_poseidon2_16();
        let first8 = |state: [Val; 16]| -> [Val; 8] { core::array::from_fn(|i| perm.permute(state)[i]) };
        let rows: Vec<Vec<Val>> = (0..2).map(|r| (0..5).map(|c| Val::from_u32(1_000 * r + c + 7)).collect()).collect();
        let leaves: Vec<[Val; 8]> =
            rows.iter().map(|r| first8(core::array::from_fn(|i| r.get(i).copied().unwrap_or(Val::ZERO)))).collect();
        let (root, _) = val_mmcs_poseidon2(0).commit_matrix(RowMajorMatrix::new(rows.concat(), 5));
        let node = first8(core::array::from_fn(|i| if i < 8 { leaves[0][i] } else { leaves[1][i - 8] }));
        assert_eq!(root.as_ref(), &[node]);
    }

    /// The Poseidon2 transcript binds its seed, its length included
    /// (a seed and the same seed with a zero byte appended differ).
    #[test]
    fn poseidon2_transcript_binds_the_seed() {
        use p3_challenger::CanSample;
        let first = |seed: &[u8]| -> Val { poseidon2_transcript(seed.to_vec()).sample() };
        let seeds: [&[u8]; 5] = [b"", b"ab", b"ab\0", b"abc", b"abd"];
        for (i, a) in seeds.iter().enumerate() {
            for b in &seeds[i + 1..] {
                assert_ne!(first(a), first(b), "{a:?} {b:?}");
            }
        }
        assert_eq!(first(b"abc"), first(b"abc"));
    }
}
