//! MSP.B (Mithril's multi-signatures, keys in G2) verification keys,
//! signatures, proofs of possession and signing keys: no panic, canonical
//! re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_bls::msp::{MspProofOfPossession, MspSignature, MspSigningKey, MspVerificationKey};
use sigagg_fuzz::{canonical, select};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 4) else { return };
    match which {
        0 => canonical("MSP verification key", data, MspVerificationKey::from_bytes, |v| v.to_bytes().to_vec()),
        1 => canonical("MSP signature", data, MspSignature::from_bytes, |v| v.to_bytes().to_vec()),
        2 => canonical("MSP proof of possession", data, MspProofOfPossession::from_bytes, |v| v.to_bytes().to_vec()),
        _ => canonical("MSP signing key", data, MspSigningKey::from_bytes, |v| v.to_bytes().to_vec()),
    }
});
