//! Succinct BLS certificates (accountable and counting): no panic,
//! canonical re-encoding (every field is checked canonical, exact length).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_bls_cert::Certificate;
use sigagg_fuzz::canonical;

fuzz_target!(|data: &[u8]| {
    canonical("certificate", data, Certificate::from_bytes, Certificate::to_bytes);
});
