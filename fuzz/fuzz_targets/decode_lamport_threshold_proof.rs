//! Lamport+ proofs, seeded with a threshold proof (`sigagg_prover::codec`:
//! one encoding per value): no panic, canonical re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::canonical;
use sigagg_lamport_agg::Proof;

fuzz_target!(|data: &[u8]| {
    canonical("Lamport+ threshold proof", data, Proof::from_bytes, Proof::to_bytes);
});
