//! XMSS aggregate proofs verified against the fixed statement of the seed proof
//! (`fixtures::xmss_aggregate`, insecure `test` settings): no panic, and every
//! input other than the seed proof itself is rejected.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::{fixtures, only_original};

fuzz_target!(|data: &[u8]| {
    let fixture = fixtures::xmss_aggregate();
    only_original("XMSS aggregate proof", fixture.verify(data).is_ok(), data, &fixture.proof);
});
