//! Merged proofs (`sigagg-merge`): the tree of children's headers in
//! preorder and the circuit's proof; no panic, canonical re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::canonical;
use sigagg_merge::MergedProof;

fuzz_target!(|data: &[u8]| {
    canonical("merged proof", data, MergedProof::from_bytes, MergedProof::to_bytes);
});
