//! The framing shared by every proof encoding of both proof crates: a
//! 6-byte magic, a version byte, then the body, with nothing after.
//!
//! The body is bincode with fixed-width little-endian integers. Plonky3
//! already writes field elements as 4 fixed bytes in binary formats, and
//! the SHA-256 digests are 32 raw bytes. (Version 2's Keccak digests were
//! `[u64; 4]`, on which postcard's variable-length integers, used before
//! version 2, spent 38 bytes instead of 32.) Fixed-width integers give
//! every value exactly one encoding, so re-encoding a decoded proof yields
//! the same bytes.
//!
//! Decoding is bounded: the decoder refuses to allocate more than
//! [`DECODE_LIMIT`] bytes for containers, whatever length prefixes the
//! input claims, and every error is a message for the caller's "malformed"
//! error.

use bincode::config::{Configuration, Fixint, LittleEndian, Limit};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Most bytes a decoder allocates for one proof's containers (proofs are a
/// few megabytes at most; this only stops forged length prefixes).
pub const DECODE_LIMIT: usize = 1 << 28;

type Config = Configuration<LittleEndian, Fixint, Limit<DECODE_LIMIT>>;

const fn config() -> Config {
    bincode::config::standard()
        .with_little_endian()
        .with_fixed_int_encoding()
        .with_limit::<DECODE_LIMIT>()
}

/// `magic || version || body(value)`.
pub fn encode<T: Serialize>(magic: &[u8; 6], version: u8, value: &T) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.push(version);
    out.extend(bincode::serde::encode_to_vec(value, config()).expect("in-memory serialization cannot fail"));
    out
}

/// Strict inverse of [`encode`]: wrong magic, unknown version, undecodable
/// body and trailing bytes are all typed errors; `what` names the object in
/// messages.
pub fn decode<T: DeserializeOwned>(magic: &[u8; 6], version: u8, bytes: &[u8], what: &str) -> Result<T, String> {
    let body = bytes.strip_prefix(magic.as_slice()).ok_or_else(|| format!("not a sigagg {what}"))?;
    match body.split_first() {
        Some((&v, rest)) if v == version => {
            let (value, read) = bincode::serde::decode_from_slice::<T, _>(rest, config())
                .map_err(|e| format!("undecodable {what}: {e}"))?;
            match rest.len() - read {
                0 => Ok(value),
                extra => Err(format!("{extra} trailing bytes")),
            }
        }
        Some((v, _)) => Err(format!("unsupported {what} version {v}")),
        None => Err("truncated header".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Integers are fixed-width (a `u64` is 8 bytes whatever its value),
    /// and decoding rejects trailing bytes, other magics and versions, and a
    /// length prefix beyond the limit without allocating it.
    #[test]
    fn fixed_width_and_strict() {
        let value: (Vec<u64>, u32) = (vec![u64::MAX, 1], 7);
        let bytes = encode(b"SGTEST", 2, &value);
        assert_eq!(bytes.len(), 7 + 8 + 2 * 8 + 4);
        assert_eq!(decode::<(Vec<u64>, u32)>(b"SGTEST", 2, &bytes, "test").unwrap(), value);
        let mut long = bytes.clone();
        long.push(0);
        assert!(decode::<(Vec<u64>, u32)>(b"SGTEST", 2, &long, "test").is_err());
        assert!(decode::<(Vec<u64>, u32)>(b"SGTEST", 1, &bytes, "test").is_err());
        assert!(decode::<(Vec<u64>, u32)>(b"SGOTHR", 2, &bytes, "test").is_err());
        let mut huge = b"SGTEST\x02".to_vec();
        huge.extend((u64::MAX / 2).to_le_bytes());
        assert!(decode::<(Vec<u64>, u32)>(b"SGTEST", 2, &huge, "test").is_err());
    }
}
