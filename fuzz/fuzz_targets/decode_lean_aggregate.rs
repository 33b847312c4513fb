//! leanSpec's `AggregatedSignatureProof` container and its participants
//! bitlist (SSZ): no panic, canonical re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::{canonical, select};
use sigagg_xmss::{AggregatedSignatureProof, Participants};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 2) else { return };
    match which {
        0 => canonical("aggregated signature proof", data, AggregatedSignatureProof::from_bytes, |c| c.to_bytes()),
        _ => canonical("participants", data, Participants::from_bytes, |p| p.to_bytes()),
    }
});
