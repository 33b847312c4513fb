//! Certificates verified against the fixed committee key, message and
//! thresholds of the seed certificates (`fixtures::cert`): no panic, and
//! only the two seed certificates themselves are accepted.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::fixtures;

fuzz_target!(|data: &[u8]| {
    let c = fixtures::cert();
    if c.verify(data).is_ok() {
        assert!(
            data == c.accountable || data == c.counting,
            "a mutated certificate of {} bytes was accepted",
            data.len()
        );
    }
});
