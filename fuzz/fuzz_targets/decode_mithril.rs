//! Mithril STM objects (`sigagg-mithril`, mithril-stm 0.13's encodings):
//! no panic; the binary encodings re-encode canonically; JSON decodes
//! without panicking (its whitespace is not canonical).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::{canonical, select};
use sigagg_mithril::{
    AggregateSignature, AggregateVerificationKey, BatchPath, ConcatenationProof, Parameters, RegistrationEntry,
    SignedEntry, SingleSignature, VerificationKeyPop,
};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 10) else { return };
    match which {
        0 => canonical("parameters", data, Parameters::from_bytes, Parameters::to_bytes),
        1 => canonical("key with PoP", data, VerificationKeyPop::from_bytes, |k| k.to_bytes().to_vec()),
        2 => canonical("registration entry", data, RegistrationEntry::from_bytes, RegistrationEntry::to_bytes),
        3 => canonical("aggregate verification key", data, AggregateVerificationKey::from_bytes, |k| k.to_bytes()),
        4 => canonical("single signature", data, SingleSignature::from_bytes, SingleSignature::to_bytes),
        5 => canonical("signed entry", data, SignedEntry::from_bytes, SignedEntry::to_bytes),
        6 => canonical("batch path", data, BatchPath::from_bytes, BatchPath::to_bytes),
        7 => canonical("concatenation proof", data, ConcatenationProof::from_bytes, ConcatenationProof::to_bytes),
        8 => canonical("aggregate signature", data, AggregateSignature::from_bytes, AggregateSignature::to_bytes),
        _ => {
            let Ok(text) = std::str::from_utf8(data) else { return };
            let _ = AggregateSignature::from_json(text);
            let _ = SingleSignature::from_json(text);
            let _ = AggregateVerificationKey::from_json(text);
            let _ = VerificationKeyPop::from_json(text);
        }
    }
});
