//! Setup files of succinct BLS certificates (ceremony and development):
//! no panic, canonical re-encoding. The file's checksum is unkeyed, so an
//! attacker recomputes it: with selector 1 the target does too (the last
//! 32 bytes become SHA-256 of the rest), so that mutants reach the point
//! decoding behind the checksum.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sha2::{Digest, Sha256};
use sigagg_bls_cert::Setup;
use sigagg_fuzz::{canonical, select};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 2) else { return };
    let mut bytes = data.to_vec();
    if which == 1 && bytes.len() >= 32 {
        let body = bytes.len() - 32;
        let digest = Sha256::digest(&bytes[..body]);
        bytes[body..].copy_from_slice(&digest);
    }
    canonical("setup", &bytes, Setup::from_bytes, Setup::to_bytes);
});
