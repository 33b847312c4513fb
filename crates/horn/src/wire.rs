//! Wire encoding of Horn messages, Snappy compression and size accounting.
//!
//! Layouts (integers little-endian, bitfields as [`Bitfield::to_bytes`],
//! signatures 96-byte compressed G2):
//!
//! | message | layout | bytes at 2^15 / 512 |
//! |---|---|---|
//! | [`SubcommitteeAggregate`] | `committee u32, subcommittee u32, bits, signature` | 4 + 4 + 64 + 96 = 168 |
//! | [`Collection`] | `committee u32, bits, signature` | 4 + 4096 + 96 = 4196 |
//! | [`MultiplicityAggregate`] | `committee u32, counts (4 bits each), signature` | 4 + 16384 + 96 = 16484 |
//!
//! Messages are compressed one by one with Snappy's block format (as
//! gossipsub does). Decompression reads the announced length first and
//! refuses anything larger than the biggest valid message before allocating.

use thiserror::Error;

use super::{Collection, HornError, HornParams, Multiplicities, MultiplicityAggregate, SubcommitteeAggregate};
use sigagg_bls::bitfield::Bitfield;
use sigagg_bls::{SIGNATURE_BYTES, Signature};

/// Why bytes are not a valid message.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WireError {
    /// The message has the wrong length for its type and layout.
    #[error("{what}: expected {expected} bytes, got {got}")]
    Length { what: &'static str, expected: usize, got: usize },
    /// A compressed message announcing more bytes than any valid message.
    #[error("compressed message announces {announced} bytes, more than the {max} allowed")]
    Oversize { announced: usize, max: usize },
    /// Snappy refused the compressed bytes.
    #[error("snappy: {0}")]
    Snappy(String),
}

/// Bytes of the AttestationData that accompanies an aggregate in a block
/// (seed 003: 128 bytes), used for block size accounting.
pub const ATTESTATION_DATA_BYTES: usize = 128;

fn read_u32(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes"))
}

fn expect_len(what: &'static str, bytes: &[u8], expected: usize) -> Result<(), HornError> {
    if bytes.len() != expected {
        return Err(WireError::Length { what, expected, got: bytes.len() }.into());
    }
    Ok(())
}

/// Encoded size of a subcommittee aggregate.
pub fn subcommittee_aggregate_len(params: &HornParams) -> usize {
    8 + Bitfield::byte_len(params.subcommittee_size()) + SIGNATURE_BYTES
}

/// Encoded size of a collection.
pub fn collection_len(params: &HornParams) -> usize {
    4 + Bitfield::byte_len(params.committee_size()) + SIGNATURE_BYTES
}

/// Encoded size of a multiplicity aggregate.
pub fn multiplicity_aggregate_len(params: &HornParams) -> usize {
    4 + params.committee_size().div_ceil(2) + SIGNATURE_BYTES
}

impl SubcommitteeAggregate {
    /// The wire encoding.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + self.bits.len() / 8 + SIGNATURE_BYTES);
        out.extend_from_slice(&self.committee.to_le_bytes());
        out.extend_from_slice(&self.subcommittee.to_le_bytes());
        out.extend_from_slice(&self.bits.to_bytes());
        out.extend_from_slice(&self.signature.to_bytes());
        out
    }

    /// Decodes and checks indices, bitfield and signature (curve and subgroup).
    pub fn from_bytes(params: &HornParams, bytes: &[u8]) -> Result<SubcommitteeAggregate, HornError> {
        expect_len("subcommittee aggregate", bytes, subcommittee_aggregate_len(params))?;
        let committee = read_u32(&bytes[0..4]);
        let subcommittee = read_u32(&bytes[4..8]);
        params.check_committee(committee)?;
        params.check_subcommittee(subcommittee)?;
        let nb = Bitfield::byte_len(params.subcommittee_size());
        let bits = Bitfield::from_bytes(&bytes[8..8 + nb], params.subcommittee_size())?;
        let signature = Signature::from_bytes(&bytes[8 + nb..])?;
        Ok(SubcommitteeAggregate { committee, subcommittee, bits, signature })
    }
}

impl Collection {
    /// The wire encoding.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + self.bits.len() / 8 + SIGNATURE_BYTES);
        out.extend_from_slice(&self.committee.to_le_bytes());
        out.extend_from_slice(&self.bits.to_bytes());
        out.extend_from_slice(&self.signature.to_bytes());
        out
    }

    /// Decodes and checks the committee index, bitfield and signature.
    pub fn from_bytes(params: &HornParams, bytes: &[u8]) -> Result<Collection, HornError> {
        expect_len("collection", bytes, collection_len(params))?;
        let committee = read_u32(&bytes[0..4]);
        params.check_committee(committee)?;
        let nb = Bitfield::byte_len(params.committee_size());
        let bits = Bitfield::from_bytes(&bytes[4..4 + nb], params.committee_size())?;
        let signature = Signature::from_bytes(&bytes[4 + nb..])?;
        Ok(Collection { committee, bits, signature })
    }
}

impl MultiplicityAggregate {
    /// The wire encoding.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + self.counts.len() / 2 + SIGNATURE_BYTES);
        out.extend_from_slice(&self.committee.to_le_bytes());
        out.extend_from_slice(&self.counts.to_bytes());
        out.extend_from_slice(&self.signature.to_bytes());
        out
    }

    /// Decodes and checks the committee index, counts and signature.
    pub fn from_bytes(params: &HornParams, bytes: &[u8]) -> Result<MultiplicityAggregate, HornError> {
        expect_len("multiplicity aggregate", bytes, multiplicity_aggregate_len(params))?;
        let committee = read_u32(&bytes[0..4]);
        params.check_committee(committee)?;
        let nb = params.committee_size().div_ceil(2);
        let counts = Multiplicities::from_bytes(&bytes[4..4 + nb], params.committee_size())?;
        let signature = Signature::from_bytes(&bytes[4 + nb..])?;
        Ok(MultiplicityAggregate { committee, counts, signature })
    }
}

/// Snappy block compression of one message.
pub fn compress(raw: &[u8]) -> Vec<u8> {
    snap::raw::Encoder::new().compress_vec(raw).expect("snappy compresses any input below 4 GiB")
}

/// Snappy block decompression, refusing to produce more than `max_len` bytes.
pub fn decompress(compressed: &[u8], max_len: usize) -> Result<Vec<u8>, HornError> {
    let announced = snap::raw::decompress_len(compressed).map_err(|e| WireError::Snappy(e.to_string()))?;
    if announced > max_len {
        return Err(WireError::Oversize { announced, max: max_len }.into());
    }
    snap::raw::Decoder::new().decompress_vec(compressed).map_err(|e| WireError::Snappy(e.to_string()).into())
}

/// Decodes a Snappy-compressed collection.
pub fn collection_from_compressed(params: &HornParams, compressed: &[u8]) -> Result<Collection, HornError> {
    let raw = decompress(compressed, collection_len(params))?;
    Collection::from_bytes(params, &raw)
}

/// Byte counts of a set of messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WireSizes {
    /// Number of messages.
    pub messages: usize,
    /// Total uncompressed bytes.
    pub raw_bytes: usize,
    /// Total bytes after compressing each message with Snappy.
    pub compressed_bytes: usize,
}

impl WireSizes {
    /// Measures encoded messages (compressing each one).
    pub fn measure<T: AsRef<[u8]>>(messages: &[T]) -> WireSizes {
        messages.iter().fold(WireSizes::default(), |acc, m| WireSizes {
            messages: acc.messages + 1,
            raw_bytes: acc.raw_bytes + m.as_ref().len(),
            compressed_bytes: acc.compressed_bytes + compress(m.as_ref()).len(),
        })
    }

    /// Compressed size over raw size.
    pub fn ratio(&self) -> f64 {
        self.compressed_bytes as f64 / self.raw_bytes.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sigagg_bls::SecretKey;

    fn params() -> HornParams {
        HornParams::new(2, 128, 64).unwrap()
    }

    fn collection() -> Collection {
        let mut bits = Bitfield::new(128);
        bits.set(3).unwrap();
        bits.set(100).unwrap();
        let sk = SecretKey::from_key_material(&[1u8; 32]).unwrap();
        Collection { committee: 1, bits, signature: sk.sign(b"m") }
    }

    #[test]
    fn malformed_collections_are_typed_errors() {
        let p = params();
        let raw = collection().to_bytes();
        assert_eq!(raw.len(), collection_len(&p));
        assert_eq!(Collection::from_bytes(&p, &raw).unwrap(), collection());
        // Truncated and overlong.
        assert!(matches!(
            Collection::from_bytes(&p, &raw[..raw.len() - 1]),
            Err(HornError::Wire(WireError::Length { .. }))
        ));
        let mut long = raw.clone();
        long.push(0);
        assert!(matches!(Collection::from_bytes(&p, &long), Err(HornError::Wire(WireError::Length { .. }))));
        // Committee out of range.
        let mut bad = raw.clone();
        bad[0] = 2;
        assert!(matches!(Collection::from_bytes(&p, &bad), Err(HornError::CommitteeOutOfRange { committee: 2, .. })));
        // Signature: flag bit cleared, not in the subgroup / not on the curve.
        let sig_at = 4 + 16;
        let mut bad = raw.clone();
        bad[sig_at] &= 0x7f;
        assert!(matches!(
            Collection::from_bytes(&p, &bad),
            Err(HornError::Bls(sigagg_bls::BlsError::BadEncoding { .. }))
        ));
        let mut bad = raw.clone();
        bad[sig_at + 95] ^= 1;
        assert!(matches!(
            Collection::from_bytes(&p, &bad),
            Err(HornError::Bls(sigagg_bls::BlsError::NotOnCurve { .. } | sigagg_bls::BlsError::NotInSubgroup { .. }))
        ));
    }

    #[test]
    fn malformed_aggregates_and_multiplicities_are_typed_errors() {
        let p = params();
        let c = collection();
        let agg = SubcommitteeAggregate {
            committee: 1,
            subcommittee: 1,
            bits: Bitfield::from_bytes(&c.bits.to_bytes()[..8], 64).unwrap(),
            signature: c.signature,
        };
        let raw = agg.to_bytes();
        assert_eq!(SubcommitteeAggregate::from_bytes(&p, &raw).unwrap(), agg);
        let mut bad = raw.clone();
        bad[4] = 2; // subcommittee 2 of 2
        assert!(matches!(
            SubcommitteeAggregate::from_bytes(&p, &bad),
            Err(HornError::SubcommitteeOutOfRange { subcommittee: 2, .. })
        ));
        assert!(SubcommitteeAggregate::from_bytes(&p, &raw[..10]).is_err());
        let m = MultiplicityAggregate::from_collection(&c);
        let raw = m.to_bytes();
        assert_eq!(MultiplicityAggregate::from_bytes(&p, &raw).unwrap(), m);
        assert!(matches!(
            MultiplicityAggregate::from_bytes(&p, &raw[..30]),
            Err(HornError::Wire(WireError::Length { .. }))
        ));
    }

    #[test]
    fn snappy_bombs_and_garbage_are_refused() {
        let p = params();
        let raw = collection().to_bytes();
        let z = compress(&raw);
        assert_eq!(collection_from_compressed(&p, &z).unwrap(), collection());
        // A valid stream that decompresses to more than one collection.
        let big = compress(&vec![0u8; 10 * collection_len(&p)]);
        assert!(matches!(collection_from_compressed(&p, &big), Err(HornError::Wire(WireError::Oversize { .. }))));
        // A header announcing 4 GiB.
        assert!(matches!(
            decompress(&[0xff, 0xff, 0xff, 0xff, 0x0f], 1 << 20),
            Err(HornError::Wire(WireError::Oversize { .. }) | HornError::Wire(WireError::Snappy(_)))
        ));
        // Garbage after a plausible header.
        assert!(matches!(decompress(&[10, 0xff, 0xff, 0xff], 100), Err(HornError::Wire(WireError::Snappy(_)))));
        // Decompresses fine but is one byte short of a collection.
        let short = compress(&raw[..raw.len() - 1]);
        assert!(matches!(collection_from_compressed(&p, &short), Err(HornError::Wire(WireError::Length { .. }))));
    }
}
