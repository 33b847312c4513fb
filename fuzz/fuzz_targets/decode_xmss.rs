//! XMSS public keys and signatures (SSZ, three parameter sets) and
//! stateful secret keys (`SGXMSSK1`, the insecure `test` set, whose
//! decoding recomputes two small bottom trees): no panic, canonical
//! re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::{canonical, select};
use sigagg_xmss::{LeanSigProd, PublicKey, SecretKey, Seed001, Signature, Test};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 7) else { return };
    match which {
        0 => canonical("test public key", data, PublicKey::<Test>::from_bytes, PublicKey::to_bytes),
        1 => canonical("test signature", data, Signature::<Test>::from_bytes, Signature::to_bytes),
        2 => canonical("test secret key", data, SecretKey::<Test>::from_bytes, |k| k.to_bytes().to_vec()),
        3 => canonical("seed001 public key", data, PublicKey::<Seed001>::from_bytes, PublicKey::to_bytes),
        4 => canonical("seed001 signature", data, Signature::<Seed001>::from_bytes, Signature::to_bytes),
        5 => canonical("leansig-prod public key", data, PublicKey::<LeanSigProd>::from_bytes, PublicKey::to_bytes),
        _ => canonical("leansig-prod signature", data, Signature::<LeanSigProd>::from_bytes, Signature::to_bytes),
    }
});
