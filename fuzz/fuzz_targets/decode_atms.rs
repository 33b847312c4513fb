//! ATMS aggregate keys and signatures: no panic, canonical re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_bls::atms::{AggregateKey, AtmsSignature};
use sigagg_fuzz::{canonical, select};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 2) else { return };
    match which {
        0 => canonical("ATMS aggregate key", data, AggregateKey::from_bytes, |v| v.to_bytes().to_vec()),
        _ => canonical("ATMS signature", data, AtmsSignature::from_bytes, AtmsSignature::to_bytes),
    }
});
