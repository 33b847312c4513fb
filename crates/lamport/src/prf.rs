//! The key-derivation PRF: SHAKE128 keyed by the 32-byte seed, read as field
//! elements. Everything secret about a key (its n sub-keys) and its public
//! randomizer come from the seed, so a secret key is 32 bytes plus its
//! one-time state.
//!
//! Input: `DOMAIN || purpose || set id || seed || index (u32 big-endian)`.
//! Each field element is drawn from 16 output bytes read as a big-endian
//! `u128` and reduced mod `p` (statistical distance from uniform below 2^-96).

use p3_field::PrimeCharacteristicRing;
use sha3::Shake128;
use sha3::digest::{ExtendableOutput, Update, XofReader};

use crate::field::{DIGEST_LEN, Digest, F};

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

fn shake(purpose: u8, set_id: u8, seed: &Seed, index: u32) -> impl XofReader {
    let mut shake = Shake128::default();
    shake.update(DOMAIN);
    shake.update(&[purpose, set_id]);
    shake.update(seed);
    shake.update(&index.to_be_bytes());
    shake.finalize_xof()
}

fn read_fes<const N: usize>(mut reader: impl XofReader) -> [F; N] {
    core::array::from_fn(|_| {
        let mut buf = [0u8; BYTES_PER_FE];
        reader.read(&mut buf);
        F::from_u128(u128::from_be_bytes(buf))
    })
}

/// The secret sub-key `pr_index` of the key with this seed in set `set_id`.
pub fn subkey(set_id: u8, seed: &Seed, index: u32) -> Digest {
    read_fes::<DIGEST_LEN>(shake(PURPOSE_SUBKEY, set_id, seed, index))
}

/// The public randomizer of the key with this seed in set `set_id`.
pub fn randomizer(set_id: u8, seed: &Seed) -> Randomizer {
    read_fes::<RANDOMIZER_LEN>(shake(PURPOSE_RANDOMIZER, set_id, seed, 0))
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
}
