//! BLS (Ethereum ciphersuite) public keys, signatures, proofs of possession
//! and secret keys: no panic, canonical re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_bls::{ProofOfPossession, PublicKey, SecretKey, Signature};
use sigagg_fuzz::{canonical, select};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 4) else { return };
    match which {
        0 => canonical("BLS public key", data, PublicKey::from_bytes, |v| v.to_bytes().to_vec()),
        1 => canonical("BLS signature", data, Signature::from_bytes, |v| v.to_bytes().to_vec()),
        2 => canonical("BLS proof of possession", data, ProofOfPossession::from_bytes, |v| v.to_bytes().to_vec()),
        _ => canonical("BLS secret key", data, SecretKey::from_bytes, |v| v.to_bytes().to_vec()),
    }
});
