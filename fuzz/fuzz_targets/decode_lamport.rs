//! Lamport+ public keys, signatures and one-time secret keys (both
//! parameter sets): no panic, canonical re-encoding (promised by
//! `sigagg_lamport::encoding`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::{canonical, select};
use sigagg_lamport::{LamportPlus, LamportPlusMined, PublicKey, SecretKey, Signature};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 6) else { return };
    match which {
        0 => canonical("Lamport+ public key", data, PublicKey::<LamportPlus>::from_bytes, PublicKey::to_bytes),
        1 => canonical("Lamport+ signature", data, Signature::<LamportPlus>::from_bytes, Signature::to_bytes),
        2 => canonical("Lamport+ secret key", data, SecretKey::<LamportPlus>::from_bytes, |k| k.to_bytes().to_vec()),
        3 => canonical("mined public key", data, PublicKey::<LamportPlusMined>::from_bytes, PublicKey::to_bytes),
        4 => canonical("mined signature", data, Signature::<LamportPlusMined>::from_bytes, Signature::to_bytes),
        _ => canonical("mined secret key", data, SecretKey::<LamportPlusMined>::from_bytes, |k| k.to_bytes().to_vec()),
    }
});
