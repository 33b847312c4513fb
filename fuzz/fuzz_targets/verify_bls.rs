//! BLS and ATMS objects verified against the fixed statements of
//! `fixtures::bls`: a signature, a public key and a proof of possession
//! (`verify`, `verify_possession`), an ATMS signature and aggregate key
//! (`atms::verify`). No panic, and only the seed object is accepted.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_bytes::{atms, bls};
use sigagg_fuzz::fixtures::{self, ATMS_THRESHOLD};
use sigagg_fuzz::{only_original, select};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 5) else { return };
    let f = fixtures::bls();
    let msg = f.message.as_slice();
    let (what, ok, original) = match which {
        0 => ("BLS signature", bls::verify(&f.public_key, msg, data).is_ok(), &f.signature),
        1 => ("BLS public key", bls::verify(data, msg, &f.signature).is_ok(), &f.public_key),
        2 => ("BLS proof of possession", bls::verify_possession(&f.public_key, data).is_ok(), &f.pop),
        3 => ("ATMS signature", atms::verify(ATMS_THRESHOLD, msg, &f.atms_key, data).is_ok(), &f.atms_signature),
        _ => ("ATMS aggregate key", atms::verify(ATMS_THRESHOLD, msg, data, &f.atms_signature).is_ok(), &f.atms_key),
    };
    only_original(what, ok, data, original);
});
