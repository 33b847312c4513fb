//! Committee keys of succinct BLS certificates: no panic, canonical
//! re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_bls_cert::CommitteeKey;
use sigagg_fuzz::canonical;

fuzz_target!(|data: &[u8]| {
    canonical("committee key", data, CommitteeKey::from_bytes, CommitteeKey::to_bytes);
});
