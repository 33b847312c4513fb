//! Group keys and membership paths of the threshold proofs (XMSS and
//! Lamport+): no panic, canonical re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::{canonical, select};
use sigagg_xmss::group::{GroupKey, MembershipProof};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 4) else { return };
    match which {
        0 => canonical("XMSS group key", data, GroupKey::from_bytes, GroupKey::to_bytes),
        1 => canonical("XMSS membership path", data, MembershipProof::from_bytes, MembershipProof::to_bytes),
        2 => canonical("Lamport+ group key", data, sigagg_lamport::GroupKey::from_bytes, |k| k.to_bytes().to_vec()),
        _ => canonical("Lamport+ membership path", data, sigagg_lamport::MembershipProof::from_bytes, |p| {
            p.to_bytes().to_vec()
        }),
    }
});
