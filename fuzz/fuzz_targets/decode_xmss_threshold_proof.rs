//! XMSS threshold proofs (`sigagg_prover::codec`: one encoding per value):
//! no panic, canonical re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::canonical;

fuzz_target!(|data: &[u8]| {
    canonical(
        "XMSS threshold proof",
        data,
        sigagg_xmss_agg::Proof::from_bytes,
        sigagg_xmss_agg::Proof::to_bytes,
    );
});
