//! The two hashes of Lamport+ verification, written as the exact
//! permutation inputs a STARK prover arithmetizes.
//!
//! * **Sub-key hash** `G` (sub-key `i` to sub-public-key `i`): width-16
//!   Poseidon2 in compression mode, `Trunc_8(Perm16(x) + x)`, on
//!
//!   | lanes | 0..8 | 8..13 | 13 | 14 | 15 |
//!   |---|---|---|---|---|---|
//!   | value | sub-key `x` | randomizer | index `i` | [`TAG_SUBKEY`] | 0 |
//!
//!   The randomizer (per key) and the index (per position) make every one of
//!   the chain's sub-public-keys the image of a *different* function, which
//!   removes the multi-target speed-up of preimage search. The feed-forward
//!   makes `G` one-way although the permutation is invertible.
//!
//! * **Public-key sponge**: width-24 Poseidon2 in overwrite mode, rate 16
//!   (two sub-public-keys), capacity 8 (lanes 16..24). Block `j` (of n/2)
//!   permutes
//!
//!   | lanes | 0..8 | 8..16 | 16..24 |
//!   |---|---|---|---|
//!   | value | `y_{2j}` | `y_{2j+1}` | capacity |
//!
//!   where the capacity is, for `j = 0`, [`pubkey_initial_capacity`]
//!   `= [randomizer (5) | n | TAG_PUBKEY | 0]`, and afterwards lanes 16..24
//!   of the previous permutation's output. The public key is lanes 0..8 of
//!   the last output. Binding the randomizer in the initial capacity lets the
//!   public key stay one digest while the randomizer travels in the
//!   signature. The sponge absorbs the sub-public-keys in plain order (no
//!   zig-zag): every block has the same fixed shape.
//!
//! * **Group-tree node** ([`crate::group`]): width-24 compression with
//!   [`TAG_GROUP_NODE`] in the same tag lane (22) as the sponge's initial
//!   capacity, so the first sponge block and a tree node never share an input.
//!
//! One verification costs `ones(codeword)` width-16 permutations plus `n/2`
//! width-24 permutations (see [`crate::signature::verification_inputs`]).

use p3_field::{PackedValue, PrimeCharacteristicRing};
use p3_symmetric::Permutation;
use sigagg_koalabear::mode::compress;
use sigagg_koalabear::poseidon2;

use crate::field::{DIGEST_LEN, Digest, F, PackedF, small};
use crate::prf::{RANDOMIZER_LEN, Randomizer};

/// Tag lane value of the sub-key hash (width 16).
pub const TAG_SUBKEY: u32 = 1;
/// Tag lane value of the public-key sponge's initial capacity (width 24).
pub const TAG_PUBKEY: u32 = 2;
/// Tag lane value of group-tree nodes (width 24).
pub const TAG_GROUP_NODE: u32 = 3;

/// Lane of the sub-key index in the width-16 input.
pub const SUBKEY_INDEX_LANE: usize = DIGEST_LEN + RANDOMIZER_LEN;
/// Lane of the tag in the width-16 input.
pub const SUBKEY_TAG_LANE: usize = SUBKEY_INDEX_LANE + 1;
/// Rate of the public-key sponge (two digests).
pub const SPONGE_RATE: usize = 2 * DIGEST_LEN;
/// Capacity of the public-key sponge.
pub const SPONGE_CAPACITY: usize = 24 - SPONGE_RATE;
/// Lane of the tag in every width-24 input that carries one.
pub const WIDE_TAG_LANE: usize = 22;

/// Width-16 input of the sub-key hash of sub-key `index`.
pub fn subkey_input(randomizer: &Randomizer, index: usize, x: &Digest) -> [F; 16] {
    let mut input = [F::ZERO; 16];
    input[..DIGEST_LEN].copy_from_slice(x);
    input[DIGEST_LEN..SUBKEY_INDEX_LANE].copy_from_slice(randomizer);
    input[SUBKEY_INDEX_LANE] = small(index);
    input[SUBKEY_TAG_LANE] = F::from_u32(TAG_SUBKEY);
    input
}

/// `G`: the sub-public-key of sub-key `x` at position `index`.
pub fn subkey_hash(randomizer: &Randomizer, index: usize, x: &Digest) -> Digest {
    let out = compress(poseidon2::default16(), &subkey_input(randomizer, index, x));
    core::array::from_fn(|i| out[i])
}

/// `G` on many `(index, sub-key)` pairs, one SIMD lane per pair (16 at a
/// time with AVX-512); same results as [`subkey_hash`] one by one.
pub fn subkey_hashes(randomizer: &Randomizer, items: &[(usize, Digest)]) -> Vec<Digest> {
    let lanes = PackedF::WIDTH;
    let mut out = Vec::with_capacity(items.len());
    let mut chunks = items.chunks_exact(lanes);
    for chunk in &mut chunks {
        let inputs: Vec<[F; 16]> = chunk.iter().map(|(i, x)| subkey_input(randomizer, *i, x)).collect();
        let packed: [PackedF; 16] = core::array::from_fn(|k| PackedF::from_fn(|l| inputs[l][k]));
        let res = compress(poseidon2::default16(), &packed);
        out.extend((0..lanes).map(|l| core::array::from_fn(|k| res[k].as_slice()[l])));
    }
    out.extend(chunks.remainder().iter().map(|(i, x)| subkey_hash(randomizer, *i, x)));
    out
}

/// The sponge's capacity before the first block: `[randomizer | n | TAG_PUBKEY | 0]`.
pub fn pubkey_initial_capacity(randomizer: &Randomizer, num_subkeys: usize) -> [F; SPONGE_CAPACITY] {
    let mut cap = [F::ZERO; SPONGE_CAPACITY];
    cap[..RANDOMIZER_LEN].copy_from_slice(randomizer);
    cap[RANDOMIZER_LEN] = small(num_subkeys);
    cap[WIDE_TAG_LANE - SPONGE_RATE] = F::from_u32(TAG_PUBKEY);
    cap
}

/// Width-24 input of one sponge block: `[left | right | capacity]`.
pub fn pubkey_block_input(capacity: &[F; SPONGE_CAPACITY], left: &Digest, right: &Digest) -> [F; 24] {
    let mut input = [F::ZERO; 24];
    input[..DIGEST_LEN].copy_from_slice(left);
    input[DIGEST_LEN..SPONGE_RATE].copy_from_slice(right);
    input[SPONGE_RATE..].copy_from_slice(capacity);
    input
}

/// Runs the public-key sponge over `sub_public_keys` (an even number of
/// them), showing every permutation input to `visit`, and returns the key.
/// The one definition behind [`pubkey_sponge`] and [`pubkey_sponge_trace`].
fn absorb(randomizer: &Randomizer, sub_public_keys: &[Digest], mut visit: impl FnMut(&[F; 24])) -> Digest {
    debug_assert!(sub_public_keys.len().is_multiple_of(2));
    let mut capacity = pubkey_initial_capacity(randomizer, sub_public_keys.len());
    let mut state = [F::ZERO; 24];
    for pair in sub_public_keys.chunks_exact(2) {
        state = pubkey_block_input(&capacity, &pair[0], &pair[1]);
        visit(&state);
        poseidon2::default24().permute_mut(&mut state);
        capacity = core::array::from_fn(|i| state[SPONGE_RATE + i]);
    }
    core::array::from_fn(|i| state[i])
}

/// The public key: the sponge over all `n` sub-public-keys.
pub fn pubkey_sponge(randomizer: &Randomizer, sub_public_keys: &[Digest]) -> Digest {
    absorb(randomizer, sub_public_keys, |_| {})
}

/// Every permutation input of the public-key sponge over `sub_public_keys`,
/// in order (`n/2` of them), and the resulting public key.
pub fn pubkey_sponge_trace(randomizer: &Randomizer, sub_public_keys: &[Digest]) -> (Vec<[F; 24]>, Digest) {
    let mut inputs = Vec::with_capacity(sub_public_keys.len() / 2);
    let pk = absorb(randomizer, sub_public_keys, |x| inputs.push(*x));
    (inputs, pk)
}

/// The public keys of many keys at once, one SIMD lane per key (16 with
/// AVX-512); same results as [`pubkey_sponge`] key by key. Used by the batch
/// helpers, where the sequential sponge would otherwise dominate.
///
/// # Panics
/// If the sub-public-key lists differ in length (a caller's invariant: all
/// keys belong to one parameter set).
pub fn pubkey_sponge_many(keys: &[(Randomizer, &[Digest])]) -> Vec<Digest> {
    let lanes = PackedF::WIDTH;
    let n = keys.first().map_or(0, |(_, ys)| ys.len());
    assert!(keys.iter().all(|(_, ys)| ys.len() == n), "all keys must have the same number of sub-public-keys");
    let mut out = Vec::with_capacity(keys.len());
    for chunk in keys.chunks(lanes) {
        if chunk.len() == 1 {
            out.push(pubkey_sponge(&chunk[0].0, chunk[0].1));
            continue;
        }
        // Short chunks repeat their last key in the idle lanes.
        let key = |l: usize| &chunk[l.min(chunk.len() - 1)];
        let caps: Vec<[F; SPONGE_CAPACITY]> = (0..lanes).map(|l| pubkey_initial_capacity(&key(l).0, n)).collect();
        let mut state = [PackedF::ZERO; 24];
        for k in 0..SPONGE_CAPACITY {
            state[SPONGE_RATE + k] = PackedF::from_fn(|l| caps[l][k]);
        }
        for j in 0..n / 2 {
            for k in 0..DIGEST_LEN {
                state[k] = PackedF::from_fn(|l| key(l).1[2 * j][k]);
                state[DIGEST_LEN + k] = PackedF::from_fn(|l| key(l).1[2 * j + 1][k]);
            }
            poseidon2::default24().permute_mut(&mut state);
        }
        out.extend((0..chunk.len()).map(|l| core::array::from_fn(|k| state[k].as_slice()[l])));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(seed: u32) -> Digest {
        core::array::from_fn(|i| F::from_u32(seed * 31 + i as u32))
    }

    #[test]
    fn input_layouts() {
        let r: Randomizer = core::array::from_fn(|i| F::from_u32(100 + i as u32));
        let x = digest(1);
        let inp = subkey_input(&r, 7, &x);
        assert_eq!(&inp[..8], &x);
        assert_eq!(&inp[8..13], &r);
        assert_eq!(inp[13], F::from_u32(7));
        assert_eq!(inp[14], F::from_u32(TAG_SUBKEY));
        assert_eq!(inp[15], F::ZERO);
        let cap = pubkey_initial_capacity(&r, 256);
        assert_eq!(&cap[..5], &r);
        assert_eq!(cap[5], F::from_u32(256));
        assert_eq!(cap[6], F::from_u32(TAG_PUBKEY));
        let blk = pubkey_block_input(&cap, &digest(2), &digest(3));
        assert_eq!(blk[WIDE_TAG_LANE], F::from_u32(TAG_PUBKEY));
        assert_eq!(&blk[8..16], &digest(3));
    }

    #[test]
    fn packed_hashes_match_scalar() {
        let r: Randomizer = core::array::from_fn(|i| F::from_u32(9 + i as u32));
        let items: Vec<(usize, Digest)> = (0..PackedF::WIDTH * 2 + 5).map(|i| (3 * i, digest(i as u32))).collect();
        let fast = subkey_hashes(&r, &items);
        for ((i, x), got) in items.iter().zip(&fast) {
            assert_eq!(*got, subkey_hash(&r, *i, x));
        }
    }

    #[test]
    fn sub_key_hash_depends_on_index_and_randomizer() {
        let r: Randomizer = [F::ONE; 5];
        let x = digest(4);
        let base = subkey_hash(&r, 0, &x);
        assert_ne!(base, subkey_hash(&r, 1, &x));
        let mut r2 = r;
        r2[4] = F::TWO;
        assert_ne!(base, subkey_hash(&r2, 0, &x));
    }

    #[test]
    fn packed_sponges_match_scalar() {
        for count in [0, 1, 2, PackedF::WIDTH, PackedF::WIDTH + 3] {
            let keys: Vec<(Randomizer, Vec<Digest>)> = (0..count as u32)
                .map(|c| {
                    (
                        core::array::from_fn(|i| F::from_u32(c * 5 + i as u32)),
                        (0..6).map(|j| digest(c * 6 + j)).collect(),
                    )
                })
                .collect();
            let refs: Vec<(Randomizer, &[Digest])> = keys.iter().map(|(r, ys)| (*r, ys.as_slice())).collect();
            let fast = pubkey_sponge_many(&refs);
            assert_eq!(fast.len(), count);
            for ((r, ys), got) in keys.iter().zip(&fast) {
                assert_eq!(*got, pubkey_sponge(r, ys));
            }
        }
    }

    #[test]
    fn sponge_trace_matches_sponge() {
        let r: Randomizer = [F::TWO; 5];
        let ys: Vec<Digest> = (0..10).map(digest).collect();
        let (inputs, pk) = pubkey_sponge_trace(&r, &ys);
        assert_eq!(inputs.len(), 5);
        assert_eq!(pk, pubkey_sponge(&r, &ys));
        let mut swapped = ys.clone();
        swapped.swap(0, 1);
        assert_ne!(pk, pubkey_sponge(&r, &swapped));
    }
}
