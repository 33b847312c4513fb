//! XMSS threshold proofs verified against the fixed statement of the seed proof
//! (`fixtures::xmss_threshold`, insecure `test` settings): no panic, and every
//! input other than the seed proof itself is rejected.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::{fixtures, only_original};

fuzz_target!(|data: &[u8]| {
    let fixture = fixtures::xmss_threshold();
    only_original("XMSS threshold proof", fixture.verify(data).is_ok(), data, &fixture.proof);
});
