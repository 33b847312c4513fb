//! Lamport+ (mined) threshold proofs verified against the fixed statement of the seed proof
//! (`fixtures::lamport_threshold`, insecure `test` settings): no panic, and every
//! input other than the seed proof itself is rejected.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::{fixtures, only_original};

fuzz_target!(|data: &[u8]| {
    let fixture = fixtures::lamport_threshold();
    only_original("Lamport+ (mined) threshold proof", fixture.verify(data).is_ok(), data, &fixture.proof);
});
