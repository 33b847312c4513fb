//! The key-derivation PRF: SHAKE128 keyed by the 32-byte seed, read as field
//! elements. Everything secret about a key (its n sub-keys) and its public
//! randomizer come from the seed, so a secret key is 32 bytes plus its
//! one-time state.
//!
//! Input: `DOMAIN || purpose || set id || seed || index (u32 big-endian)`.
//! Each field element is drawn from 16 output bytes read as a big-endian
//! `u128` and reduced mod `p` (statistical distance from uniform below 2^-96).

use p3_field::PrimeCharacteristicRing;

use crate::field::{DIGEST_LEN, Digest, F};
use crate::shake::{LANES, Prefix, SHAKE128_RATE};

/// Length of a key seed in bytes.
pub const SEED_LEN: usize = 32;

/// The secret seed from which a whole key is derived.
pub type Seed = [u8; SEED_LEN];

/// Field elements of the per-key public randomizer (5 × 31 bits ≈ 155 bits:
/// randomizers of 2^60 keys collide with probability below 2^-35).
pub const RANDOMIZER_LEN: usize = 5;

/// The per-key public randomizer mixed into every sub-key hash and into the
/// public-key sponge (see [`crate::hash`]).
pub type Randomizer = [F; RANDOMIZER_LEN];

const DOMAIN: &[u8; 20] = b"sigagg/lamport+/prf1";
const PURPOSE_SUBKEY: u8 = 0x00;
const PURPOSE_RANDOMIZER: u8 = 0x01;
const BYTES_PER_FE: usize = 16;
const SUBKEY_BYTES: usize = DIGEST_LEN * BYTES_PER_FE;

fn prefix(purpose: u8, set_id: u8, seed: &Seed) -> Prefix<SHAKE128_RATE> {
    Prefix::new(&[DOMAIN, &[purpose, set_id], seed])
}

fn to_fes<const N: usize>(bytes: &[u8]) -> [F; N] {
    core::array::from_fn(|i| {
        let chunk = &bytes[i * BYTES_PER_FE..(i + 1) * BYTES_PER_FE];
        F::from_u128(u128::from_be_bytes(chunk.try_into().expect("16-byte chunk")))
    })
}

/// The secret sub-key `pr_index` of the key with this seed in set `set_id`.
pub fn subkey(set_id: u8, seed: &Seed, index: u32) -> Digest {
    to_fes(&prefix(PURPOSE_SUBKEY, set_id, seed).finish::<SUBKEY_BYTES>(&index.to_be_bytes()))
}

/// Sub-keys `0..count` (the same values as [`subkey`]), several Keccak-f
/// states per SIMD vector.
pub fn subkeys(set_id: u8, seed: &Seed, count: usize) -> Vec<Digest> {
    let base = prefix(PURPOSE_SUBKEY, set_id, seed);
    let mut out = Vec::with_capacity(count);
    let whole = count / LANES * LANES;
    for first in (0..whole).step_by(LANES) {
        let suffixes: [[u8; 4]; LANES] = core::array::from_fn(|l| ((first + l) as u32).to_be_bytes());
        out.extend(base.finish_many::<SUBKEY_BYTES>(&suffixes).iter().map(|b| to_fes::<DIGEST_LEN>(b)));
    }
    out.extend((whole..count).map(|i| to_fes(&base.finish::<SUBKEY_BYTES>(&(i as u32).to_be_bytes()))));
    out
}

/// The public randomizer of the key with this seed in set `set_id`.
pub fn randomizer(set_id: u8, seed: &Seed) -> Randomizer {
    to_fes(&prefix(PURPOSE_RANDOMIZER, set_id, seed).finish::<{ RANDOMIZER_LEN * BYTES_PER_FE }>(&0u32.to_be_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_depend_on_every_input() {
        let seed = [7u8; 32];
        let base = subkey(1, &seed, 3);
        assert_eq!(base, subkey(1, &seed, 3));
        assert_ne!(base, subkey(2, &seed, 3));
        assert_ne!(base, subkey(1, &seed, 4));
        let mut other = seed;
        other[31] ^= 1;
        assert_ne!(base, subkey(1, &other, 3));
        assert_ne!(randomizer(1, &seed), randomizer(2, &seed));
        assert_ne!(randomizer(1, &seed)[..], base[..RANDOMIZER_LEN]);
    }

    #[test]
    fn batched_subkeys_match_single() {
        let seed = [9u8; 32];
        for count in [0, 1, LANES, 3 * LANES + 5] {
            let all = subkeys(2, &seed, count);
            assert_eq!(all.len(), count);
            for (i, k) in all.iter().enumerate() {
                assert_eq!(*k, subkey(2, &seed, i as u32));
            }
        }
    }
}
