//! The framing shared by every proof encoding of both proof crates: a
//! 6-byte magic, a version byte, then the body, with nothing after.
//!
//! The body is bincode with little-endian, variable-length integers
//! (version 4). Nearly every byte of a proof is a field element or a digest,
//! and neither is an integer to bincode: Plonky3 writes a field element as
//! 4 raw bytes in binary formats, and a SHA-256 digest is 32 raw bytes. The
//! integers are the length prefixes of the nested opening vectors (one per
//! opened matrix per query, so thousands per proof) and a few header
//! fields; as varints they take one byte each instead of eight, which
//! shortens a compact proof by 3-4%. (Version 3 used fixed-width integers;
//! version 2's Keccak digests were `[u64; 4]`, which varints would have
//! lengthened.)
//!
//! Every value has exactly one encoding: the decoder re-encodes what it
//! decoded and rejects the input unless the bytes are identical, so an
//! overlong varint or any other alternative spelling is malformed.
//!
//! Decoding is bounded by the input, not by what its length prefixes
//! claim: bincode counts every decoded primitive (length prefixes
//! included) against [`DECODE_LIMIT`], and serde preallocates at most
//! 1 MiB for a container whatever its prefix says, so every element must
//! actually be read from the input. Every error is a message for the
//! caller's "malformed" error.

use bincode::config::{Configuration, Limit, LittleEndian, Varint};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Most bytes of primitives (field elements, digest bytes, lengths) one
/// decoding reads (proofs are a few megabytes at most).
pub const DECODE_LIMIT: usize = 1 << 28;

type Config = Configuration<LittleEndian, Varint, Limit<DECODE_LIMIT>>;

const fn config() -> Config {
    bincode::config::standard()
        .with_little_endian()
        .with_variable_int_encoding()
        .with_limit::<DECODE_LIMIT>()
}

/// The body encoding of `value`.
fn encode_body<T: Serialize>(value: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(value, config()).expect("in-memory serialization cannot fail")
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
pub fn decode<T: Serialize + DeserializeOwned>(magic: &[u8; 6], version: u8, bytes: &[u8], what: &str) -> Result<T, String> {
    let body = bytes.strip_prefix(magic.as_slice()).ok_or_else(|| format!("not a sigagg {what}"))?;
    match body.split_first() {
        Some((&v, rest)) if v == version => {
            let (value, read) = bincode::serde::decode_from_slice::<T, _>(rest, config())
                .map_err(|e| format!("undecodable {what}: {e}"))?;
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

/// Encoded size of one value in the body format (no framing).
pub fn encoded_len<T: Serialize>(value: &T) -> usize {
    encode_body(value).len()
}

/// The body of both breakdowns: the two configurations differ only in the
/// digest type, which Plonky3's bounds make awkward to abstract over.
macro_rules! breakdown {
    ($proof:expr) => {{
        let proof = $proof;
        let fri = &proof.opening_proof;
        let mut parts = vec![
            ("commitments".to_string(), encoded_len(&proof.commitments)),
            ("ood values".to_string(), encoded_len(&proof.opened_values)),
            ("lookup terminals, degrees, pow".to_string(),
                encoded_len(&proof.lookup_terminals) + encoded_len(&proof.degree_bits) + encoded_len(&proof.lookup_pow_witness)
                    + encoded_len(&proof.ood_pow_witness)),
            ("fri commits, final poly, pow".to_string(),
                encoded_len(&fri.commit_phase_commits) + encoded_len(&fri.commit_pow_witnesses) + encoded_len(&fri.final_poly)
                    + encoded_len(&fri.batch_pow_witness) + encoded_len(&fri.query_pow_witness)),
        ];
        // The batch prover opens its commitments in this order: the
        // randomization (zero-knowledge only), main, quotient, preprocessed
        // (sigagg's AIRs have none), then the lookup (permutation) traces.
        let names: Vec<&str> = [
            proof.commitments.random.as_ref().map(|_| "random"),
            Some("main"),
            Some("quotient"),
            proof.commitments.permutation.as_ref().map(|_| "permutation"),
        ]
        .into_iter()
        .flatten()
        .collect();
        for (i, opening) in fri.input_openings.iter().enumerate() {
            let name = names.get(i).copied().unwrap_or("input");
            parts.push((format!("{name} rows"), encoded_len(&opening.opened_values)));
            parts.push((format!("{name} paths"), encoded_len(&opening.opening_proof)));
        }
        let siblings: usize = fri.commit_phase_openings.iter().map(|s| encoded_len(&s.sibling_values)).sum();
        let paths: usize = fri.commit_phase_openings.iter().map(|s| encoded_len(&s.opening_proof)).sum();
        parts.push(("fri siblings".to_string(), siblings));
        parts.push(("fri paths".to_string(), paths));
        parts
    }};
}

/// The body of [`body_layout`] and [`body_layout24`] (the two configurations
/// differ only in the digest type).
macro_rules! layout {
    ($proof:expr) => {{
        let proof = $proof;
        let fri = &proof.opening_proof;
        vec![
            ("commitments", encoded_len(&proof.commitments)),
            ("ood values", encoded_len(&proof.opened_values)),
            ("batch pow witness", encoded_len(&fri.batch_pow_witness)),
            ("fri commitments", encoded_len(&fri.commit_phase_commits)),
            ("fri commit pow witnesses", encoded_len(&fri.commit_pow_witnesses)),
            ("input openings", encoded_len(&fri.input_openings)),
            ("fri openings", encoded_len(&fri.commit_phase_openings)),
            ("final polynomial", encoded_len(&fri.final_poly)),
            ("query pow witness", encoded_len(&fri.query_pow_witness)),
            ("lookup terminals", encoded_len(&proof.lookup_terminals)),
            ("degree bits", encoded_len(&proof.degree_bits)),
            ("lookup pow witness", encoded_len(&proof.lookup_pow_witness)),
            ("ood pow witness", encoded_len(&proof.ood_pow_witness)),
        ]
    }};
}

/// The parts of the body of a proof with full-width commitments, in
/// encoding order (bincode writes a struct's fields in declaration order),
/// each with its encoded length: they tile the body exactly, so a test can
/// flip bytes inside every part.
pub fn body_layout(proof: &p3_batch_stark::BatchProof<crate::config::AggConfig>) -> Vec<(&'static str, usize)> {
    layout!(proof)
}

/// [`body_layout`] for a proof with 24-byte commitments.
pub fn body_layout24(proof: &p3_batch_stark::BatchProof<crate::config::AggConfig24>) -> Vec<(&'static str, usize)> {
    layout!(proof)
}

/// Where the bytes of a batch proof with full-width commitments go, part
/// by part, in the body format:
/// `(part, bytes)` pairs that sum to the encoded length up to a few length
/// prefixes. For choosing settings and layouts.
pub fn size_breakdown(proof: &p3_batch_stark::BatchProof<crate::config::AggConfig>) -> Vec<(String, usize)> {
    breakdown!(proof)
}

/// [`size_breakdown`] for a proof with 24-byte commitments.
pub fn size_breakdown24(proof: &p3_batch_stark::BatchProof<crate::config::AggConfig24>) -> Vec<(String, usize)> {
    breakdown!(proof)
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

    /// Lengths and integers are varints (one byte below 251), field
    /// elements stay 4 raw bytes, and the value round-trips.
    #[test]
    fn varint_lengths_fixed_field_elements() {
        let bytes = encode(b"SGTEST", 4, &sample());
        // header, length 2, u64::MAX (marker + 8), 1, 7, field element.
        assert_eq!(bytes.len(), 7 + 1 + 9 + 1 + 1 + 4);
        assert_eq!(decode::<Sample>(b"SGTEST", 4, &bytes, "test").unwrap(), sample());
        assert_eq!(encoded_len(&sample()), bytes.len() - 7);
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
    }
}
