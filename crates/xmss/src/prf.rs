//! The key-derivation PRF: SHAKE128 mapped to field elements, exactly as the
//! reference implementations (hash-sig's and leanSig's `ShakePRFtoF`) do, so
//! that keys generated from the same secret agree with theirs.
//!
//! Each field element is drawn from 16 output bytes read as a big-endian
//! `u128` and reduced mod `p` (statistical distance below 2^-96 from uniform).

use p3_field::PrimeCharacteristicRing;
use sha3::Shake128;
use sha3::digest::{ExtendableOutput, Update, XofReader};

use crate::field::{F, FeArray};

/// Length of a PRF key in bytes.
pub const PRF_KEY_LEN: usize = 32;

/// A PRF key: the whole secret from which a key pair's chains are derived.
pub type PrfKey = [u8; PRF_KEY_LEN];

const DOMAIN_SEP: [u8; 16] =
    [0xae, 0xae, 0x22, 0xff, 0x00, 0x01, 0xfa, 0xff, 0x21, 0xaf, 0x12, 0x00, 0x01, 0x11, 0xff, 0x00];
const SEP_CHAIN_START: u8 = 0x00;
const SEP_RANDOMNESS: u8 = 0x01;
const BYTES_PER_FE: usize = 16;

fn read_fes<T: FeArray>(shake: Shake128) -> T {
    let mut reader = shake.finalize_xof();
    T::generate(|_| {
        let mut buf = [0u8; BYTES_PER_FE];
        reader.read(&mut buf);
        F::from_u128(u128::from_be_bytes(buf))
    })
}

/// The secret start of chain `chain_index` at `epoch`.
pub fn chain_start<T: FeArray>(key: &PrfKey, epoch: u32, chain_index: u64) -> T {
    let mut shake = Shake128::default();
    shake.update(&DOMAIN_SEP);
    shake.update(&[SEP_CHAIN_START]);
    shake.update(key);
    shake.update(&epoch.to_be_bytes());
    shake.update(&chain_index.to_be_bytes());
    read_fes(shake)
}

/// The encoding randomness `rho` tried at attempt `counter` when signing
/// `message` at `epoch`. Deriving it from the key makes signing deterministic.
pub fn randomness<T: FeArray>(key: &PrfKey, epoch: u32, message: &[u8; 32], counter: u64) -> T {
    let mut shake = Shake128::default();
    shake.update(&DOMAIN_SEP);
    shake.update(&[SEP_RANDOMNESS]);
    shake.update(key);
    shake.update(&epoch.to_be_bytes());
    shake.update(message);
    shake.update(&counter.to_be_bytes());
    read_fes(shake)
}
