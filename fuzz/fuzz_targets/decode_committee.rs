//! Committee files of succinct BLS certificates, decoded whole (member
//! keys and proofs of possession checked; canonical re-encoding) or only up
//! to their committee key, as a verifier does (no panic; the key found
//! re-encodes to the bytes it was read from).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_bls_cert::{Committee, CommitteeKey};
use sigagg_fuzz::{canonical, select};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 2) else { return };
    match which {
        0 => canonical("committee", data, Committee::from_bytes, Committee::to_bytes),
        _ => {
            if let Ok(key) = Committee::key_from_bytes(data) {
                let bytes = key.to_bytes();
                assert!(data.windows(bytes.len()).any(|w| w == bytes.as_slice()), "committee key not in its file");
                assert!(CommitteeKey::from_bytes(&bytes).is_ok());
            }
        }
    }
});
