//! Shared code of the fuzz targets (`fuzz_targets/`) and of the seed-corpus
//! generator (`src/bin/seeds.rs`): the checks every decode target makes,
//! the selector byte of the targets that cover several decoders, and real
//! objects built once per process ([`fixtures`]) with insecure test
//! settings for proofs.
//!
//! Every decode target checks two things: the decoder never panics, and
//! where the format promises one encoding per value (every format here
//! says so in its documentation, except Snappy's compressed form, which
//! is not checked), a decoded value re-encodes to exactly the input.
//! Every `verify_*` target checks that no input other than the seed
//! object itself is accepted for the seed's statement.

pub mod fixtures;

use std::fmt::Debug;

/// Decodes `data` and, if that succeeds, checks that the value re-encodes
/// to `data` (the format's canonicality promise).
pub fn canonical<T, E: Debug>(
    what: &str,
    data: &[u8],
    decode: impl FnOnce(&[u8]) -> Result<T, E>,
    encode: impl FnOnce(&T) -> Vec<u8>,
) {
    if let Ok(value) = decode(data) {
        let again = encode(&value);
        assert!(again == data, "{what}: decoded {} bytes re-encode to {} other bytes", data.len(), again.len());
    }
}

/// The selector byte and the rest: targets that cover several decoders
/// pick one with the first byte (modulo their count).
pub fn select(data: &[u8], count: u8) -> Option<(u8, &[u8])> {
    let (&first, rest) = data.split_first()?;
    Some((first % count, rest))
}

/// Panics if `data` was accepted (`accepted`) but is not `original`.
pub fn only_original(what: &str, accepted: bool, data: &[u8], original: &[u8]) {
    assert!(!accepted || data == original, "{what}: a mutant of {} bytes was accepted", data.len());
}
