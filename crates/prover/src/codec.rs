//! The framing shared by every proof encoding of both proof crates: a
//! 6-byte magic, a version byte, then the body, with nothing after.
//!
//! The body is the packed format of [`bits`] (body format 5): serde's
//! data model written as a bit string in which every field element takes
//! 31 bits. Nearly every bit of a proof is a field element or a digest:
//! Plonky3 writes a field element as 4 raw bytes in binary formats, which
//! the packed format recognizes and writes in 31 bits (a proof 1.8-2.3%
//! shorter than in a byte-aligned format, BENCHMARKS.md; a digest is its
//! raw bytes). Decoding with the canonical check below costs about 16 ms
//! a megabyte of proof on the development machines, against about 7 ms
//! for bincode. The integers are the length prefixes of the nested opening
//! vectors (one per opened matrix per query, so thousands per proof) and a
//! few header fields, written as bincode's variable-length integers: one
//! byte each below 251. (Body format 4 was bincode with variable-length integers,
//! 32 bits a field element; 3 used fixed-width integers; 2's Keccak
//! digests were `[u64; 4]`, which varints would have lengthened.)
//!
//! Every value has exactly one encoding: the decoder re-encodes what it
//! decoded and rejects the input unless the bytes are identical, so an
//! overlong varint, a set padding bit or any other alternative spelling is
//! malformed.
//!
//! Decoding is bounded by the input, not by what its length prefixes
//! claim: every primitive but the unit consumes input, the decoder counts
//! every sequence and map element against [`DECODE_LIMIT`], and serde
//! preallocates at most 1 MiB for a container whatever its prefix says, so
//! every element must actually be read from the input. Every error is a
//! message for the caller's "malformed" error.

pub mod bits;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Most sequence and map elements (and bytes of byte strings) one
/// decoding reads (proofs are a few megabytes at most, so a few million).
pub const DECODE_LIMIT: usize = 1 << 28;

/// The body encoding of `value`.
fn encode_body<T: Serialize>(value: &T) -> Vec<u8> {
    bits::to_bytes(value).expect("proofs hold only encodable values: every four-byte array is a field element")
}

/// `magic || version || body(value)`.
pub fn encode<T: Serialize>(magic: &[u8; 6], version: u8, value: &T) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.push(version);
    out.extend(encode_body(value));
    out
}

/// Strict inverse of [`encode`]: wrong magic, unknown version, undecodable
/// body, trailing bytes and a non-canonical body are all typed errors;
/// `what` names the object in messages.
pub fn decode<T: Serialize + DeserializeOwned>(
    magic: &[u8; 6],
    version: u8,
    bytes: &[u8],
    what: &str,
) -> Result<T, String> {
    let body = bytes.strip_prefix(magic.as_slice()).ok_or_else(|| format!("not a sigagg {what}"))?;
    match body.split_first() {
        Some((&v, rest)) if v == version => {
            let (value, read) =
                bits::from_bytes::<T>(rest, DECODE_LIMIT).map_err(|e| format!("undecodable {what}: {e}"))?;
            let read = read.div_ceil(8);
            if read != rest.len() {
                return Err(format!("{} trailing bytes", rest.len() - read));
            }
            if encode_body(&value) != rest {
                return Err(format!("non-canonical {what} encoding"));
            }
            Ok(value)
        }
        Some((v, _)) => Err(format!("unsupported {what} version {v}")),
        None => Err("truncated header".into()),
    }
}

/// Encoded size of one value in bits, in the body format (no framing,
/// no padding): what body layouts tile.
pub fn encoded_bits<T: Serialize>(value: &T) -> usize {
    bits::bit_len(value).expect("proofs hold only encodable values: every four-byte array is a field element")
}

/// The bit at which `last`, the last field of `whole`, starts in
/// [`encode`]`(_, _, whole)` (magic and version included): where a proof's
/// STARK body starts, for [`crate::testing::flip_positions`].
pub fn last_field_start<T: Serialize, U: Serialize>(whole: &T, last: &U) -> usize {
    8 * 7 + encoded_bits(whole) - encoded_bits(last)
}

/// A size breakdown counted in bits, reported in bytes: each part's bits
/// rounded down, so the parts never add up to more than the whole.
pub fn in_bytes(parts: Vec<(String, usize)>) -> Vec<(String, usize)> {
    parts.into_iter().map(|(part, bits)| (part, bits / 8)).collect()
}

/// Encoded size of one value in bytes, in the body format (no framing):
/// its bits rounded up, so the sizes of a value's parts add up to its own
/// to within a byte a part.
pub fn encoded_len<T: Serialize>(value: &T) -> usize {
    encoded_bits(value).div_ceil(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    use p3_field::PrimeCharacteristicRing;

    use crate::config::Val;

    type Sample = (Vec<u64>, u32, Val);

    fn sample() -> Sample {
        (vec![u64::MAX, 1], 7, Val::from_u32(5))
    }

    /// Lengths and integers are varints (one byte below 251), a field
    /// element takes 31 bits, and the value round-trips.
    #[test]
    fn varint_lengths_packed_field_elements() {
        let bytes = encode(b"SGTEST", 4, &sample());
        // length 2, u64::MAX (marker + 8), 1, 7: 12 bytes; the field
        // element's 31 bits; a padding bit.
        assert_eq!(encoded_bits(&sample()), 12 * 8 + 31);
        assert_eq!(bytes.len(), 7 + 16);
        assert_eq!(decode::<Sample>(b"SGTEST", 4, &bytes, "test").unwrap(), sample());
        assert_eq!(encoded_len(&sample()), bytes.len() - 7);
        assert_eq!(last_field_start(&sample(), &sample().2), 7 * 8 + 12 * 8);
    }

    /// Decoding rejects trailing bytes, other magics and versions, a length
    /// prefix beyond the limit (without allocating it), and an overlong
    /// varint spelling of a valid value.
    #[test]
    fn strict() {
        let bytes = encode(b"SGTEST", 4, &sample());
        let mut long = bytes.clone();
        long.push(0);
        assert!(decode::<Sample>(b"SGTEST", 4, &long, "test").is_err());
        assert!(decode::<Sample>(b"SGTEST", 3, &bytes, "test").is_err());
        assert!(decode::<Sample>(b"SGOTHR", 4, &bytes, "test").is_err());
        let mut huge = b"SGTEST\x04\xfd".to_vec();
        huge.extend((u64::MAX / 2).to_le_bytes());
        assert!(decode::<Sample>(b"SGTEST", 4, &huge, "test").is_err());
        // The u32 7 spelled with the two-byte marker (251, then 7u16).
        let at = 7 + 1 + 9 + 1;
        assert_eq!(bytes[at], 7);
        let overlong = [&bytes[..at], &[251, 7, 0], &bytes[at + 1..]].concat();
        let err = decode::<Sample>(b"SGTEST", 4, &overlong, "test").unwrap_err();
        assert!(err.contains("non-canonical"), "{err}");
        // The padding bit set.
        let mut padded = bytes.clone();
        *padded.last_mut().unwrap() |= 0x80;
        let err = decode::<Sample>(b"SGTEST", 4, &padded, "test").unwrap_err();
        assert!(err.contains("non-canonical"), "{err}");
        // A field element spelled as the prime itself (out of range).
        let mut high = bytes.clone();
        let p = <Val as p3_field::PrimeField32>::ORDER_U32;
        high[19..23].copy_from_slice(&p.to_le_bytes());
        assert!(decode::<Sample>(b"SGTEST", 4, &high, "test").is_err());
    }
}
