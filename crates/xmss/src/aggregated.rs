//! leanSpec's aggregate container: which validators an aggregate covers and
//! the proof bytes, in SSZ.
//!
//! leanSpec (`subspecs/xmss/aggregation.py`) carries an aggregate as
//!
//! ```text
//! class AggregatedSignatureProof(Container):
//!     participants: AggregationBits   # Bitlist[VALIDATOR_REGISTRY_LIMIT]
//!     proof_data: ByteListMiB          # ByteList[2^20]
//! ```
//!
//! Both fields have variable size, so the SSZ encoding is two little-endian
//! `u32` offsets (the first is always 8) followed by the two payloads:
//! `8u32 || offset_proof || participants || proof_data`. A bitlist is its
//! bits, least significant first in each byte, followed by one delimiter
//! bit set to 1 (so its last byte is never 0).
//!
//! Decoding is strict, as for keys and signatures: exactly one encoding of
//! each value is accepted (the first offset 8, the second inside the input,
//! a delimiter bit in the last byte of the bitlist and no bit after it, each
//! field within its limit), so `encode(decode(b)) == b` whenever decoding
//! succeeds, and no input makes it allocate more than its own length.

use crate::error::DecodeError;

/// leanSpec's `VALIDATOR_REGISTRY_LIMIT`: the most bits `participants` holds.
pub const PARTICIPANTS_LIMIT: usize = 1 << 12;

/// leanSpec's `ByteListMiB` limit: the most bytes `proof_data` holds.
pub const PROOF_DATA_LIMIT: usize = 1 << 20;

/// Bytes of the container's fixed part: the two offsets.
const FIXED_LEN: usize = 8;

/// Why a participants bitlist or an aggregate container was refused.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum ContainerError {
    /// The bitlist is longer than [`PARTICIPANTS_LIMIT`].
    #[error("participants: {len} bits, the limit is {limit}")]
    TooManyParticipants { len: usize, limit: usize },
    /// The proof is longer than [`PROOF_DATA_LIMIT`].
    #[error("proof_data: {len} bytes, the limit is {limit}")]
    ProofTooLong { len: usize, limit: usize },
    /// The bytes do not decode.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

/// leanSpec's `AggregationBits`: bit `i` says whether validator `i` is
/// covered.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Participants {
    bits: Vec<bool>,
}

impl Participants {
    /// The bitlist `bits`, if within [`PARTICIPANTS_LIMIT`].
    pub fn new(bits: Vec<bool>) -> Result<Self, ContainerError> {
        if bits.len() > PARTICIPANTS_LIMIT {
            return Err(ContainerError::TooManyParticipants { len: bits.len(), limit: PARTICIPANTS_LIMIT });
        }
        Ok(Self { bits })
    }

    /// The bitlist of length `max + 1` with exactly `indices` set, as
    /// leanSpec's `AggregationBits.from_validator_indices` builds it.
    pub fn from_indices(indices: &[u64]) -> Result<Self, ContainerError> {
        let too_many = |len| ContainerError::TooManyParticipants { len, limit: PARTICIPANTS_LIMIT };
        let Some(&max) = indices.iter().max() else { return Ok(Self::default()) };
        let len = usize::try_from(max).ok().and_then(|m| m.checked_add(1)).ok_or(too_many(usize::MAX))?;
        if len > PARTICIPANTS_LIMIT {
            return Err(too_many(len));
        }
        let mut bits = vec![false; len];
        for &i in indices {
            bits[i as usize] = true;
        }
        Ok(Self { bits })
    }

    /// The bits.
    pub fn bits(&self) -> &[bool] {
        &self.bits
    }

    /// The number of bits (not of participants).
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// Whether the bitlist has no bits.
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// The indices of the set bits, ascending: the participants, in the
    /// order their keys are given to `verify`.
    pub fn indices(&self) -> Vec<u64> {
        self.bits.iter().enumerate().filter(|&(_, &b)| b).map(|(i, _)| i as u64).collect()
    }

    /// SSZ: the bits, then the delimiter bit.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.bits.len() / 8 + 1];
        for (i, _) in self.bits.iter().enumerate().filter(|&(_, &b)| b) {
            out[i / 8] |= 1 << (i % 8);
        }
        let n = self.bits.len();
        out[n / 8] |= 1 << (n % 8);
        out
    }

    /// Decodes the SSZ bitlist; only its canonical encoding is accepted.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ContainerError> {
        let what = "participants";
        let Some(&last) = bytes.last() else {
            return Err(DecodeError::InvalidLength { what, expected: 1, actual: 0 }.into());
        };
        if last == 0 {
            return Err(DecodeError::Inconsistent("participants bitlist without its delimiter bit").into());
        }
        let len = 8 * (bytes.len() - 1) + (7 - last.leading_zeros() as usize);
        if len > PARTICIPANTS_LIMIT {
            return Err(ContainerError::TooManyParticipants { len, limit: PARTICIPANTS_LIMIT });
        }
        let bits = (0..len).map(|i| (bytes[i / 8] >> (i % 8)) & 1 == 1).collect();
        Ok(Self { bits })
    }
}

/// leanSpec's `AggregatedSignatureProof`: the participants and the proof.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AggregatedSignatureProof {
    participants: Participants,
    proof_data: Vec<u8>,
}

impl AggregatedSignatureProof {
    /// The container, if `proof_data` is within [`PROOF_DATA_LIMIT`].
    pub fn new(participants: Participants, proof_data: Vec<u8>) -> Result<Self, ContainerError> {
        if proof_data.len() > PROOF_DATA_LIMIT {
            return Err(ContainerError::ProofTooLong { len: proof_data.len(), limit: PROOF_DATA_LIMIT });
        }
        Ok(Self { participants, proof_data })
    }

    /// The validators the proof covers.
    pub fn participants(&self) -> &Participants {
        &self.participants
    }

    /// The proof bytes.
    pub fn proof_data(&self) -> &[u8] {
        &self.proof_data
    }

    /// The container's SSZ encoding (see the [module docs](self)).
    pub fn to_bytes(&self) -> Vec<u8> {
        let bits = self.participants.to_bytes();
        let mut out = Vec::with_capacity(FIXED_LEN + bits.len() + self.proof_data.len());
        out.extend_from_slice(&(FIXED_LEN as u32).to_le_bytes());
        out.extend_from_slice(&((FIXED_LEN + bits.len()) as u32).to_le_bytes());
        out.extend_from_slice(&bits);
        out.extend_from_slice(&self.proof_data);
        out
    }

    /// Decodes the container; only its canonical encoding is accepted.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ContainerError> {
        let what = "aggregated signature proof";
        if bytes.len() < FIXED_LEN {
            return Err(DecodeError::InvalidLength { what, expected: FIXED_LEN, actual: bytes.len() }.into());
        }
        let offset = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize;
        let (first, second) = (offset(0), offset(4));
        if first != FIXED_LEN {
            return Err(DecodeError::InvalidOffset { what, expected: FIXED_LEN, actual: first }.into());
        }
        // The bitlist has at least its delimiter byte, so the second offset
        // lies strictly after the first and at most at the end.
        if second <= first || second > bytes.len() {
            return Err(DecodeError::InvalidOffset { what, expected: first + 1, actual: second }.into());
        }
        let participants = Participants::from_bytes(&bytes[first..second])?;
        let proof = &bytes[second..];
        if proof.len() > PROOF_DATA_LIMIT {
            return Err(ContainerError::ProofTooLong { len: proof.len(), limit: PROOF_DATA_LIMIT });
        }
        Ok(Self { participants, proof_data: proof.to_vec() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> AggregatedSignatureProof {
        let participants = Participants::from_indices(&[0, 3, 9]).unwrap();
        AggregatedSignatureProof::new(participants, vec![0xaa, 0xbb, 0xcc]).unwrap()
    }

    #[test]
    fn bitlists_encode_as_ssz_with_a_delimiter_bit() {
        // Bits 0, 3 and 9 of a 10-bit list, then the delimiter at bit 10.
        let p = Participants::from_indices(&[0, 3, 9]).unwrap();
        assert_eq!(p.to_bytes(), vec![0b0000_1001, 0b0000_0110]);
        assert_eq!(p.indices(), vec![0, 3, 9]);
        // The empty bitlist is the delimiter alone; eight bits need a second byte.
        assert_eq!(Participants::default().to_bytes(), vec![1]);
        assert_eq!(Participants::new(vec![true; 8]).unwrap().to_bytes(), vec![0xff, 1]);
        for bytes in [vec![1u8], vec![0xff, 1], vec![0b1001, 0b110], vec![0x80], vec![0, 0, 0x40]] {
            assert_eq!(Participants::from_bytes(&bytes).unwrap().to_bytes(), bytes);
        }
    }

    #[test]
    fn containers_encode_as_ssz_and_round_trip() {
        let c = sample();
        let bytes = c.to_bytes();
        assert_eq!(bytes, [&[8, 0, 0, 0, 10, 0, 0, 0][..], &[0b1001, 0b110], &[0xaa, 0xbb, 0xcc]].concat());
        assert_eq!(AggregatedSignatureProof::from_bytes(&bytes).unwrap(), c);
        // An empty proof is a valid container.
        let empty = AggregatedSignatureProof::new(Participants::default(), vec![]).unwrap();
        assert_eq!(AggregatedSignatureProof::from_bytes(&empty.to_bytes()).unwrap(), empty);
    }

    #[test]
    fn non_canonical_or_oversize_containers_are_refused() {
        let bytes = sample().to_bytes();
        let refused = |b: &[u8]| AggregatedSignatureProof::from_bytes(b).unwrap_err();
        assert!(matches!(refused(&bytes[..7]), ContainerError::Decode(DecodeError::InvalidLength { .. })));
        let mut first = bytes.clone();
        first[0] = 9;
        assert!(matches!(refused(&first), ContainerError::Decode(DecodeError::InvalidOffset { .. })));
        for second in [8u8, 200] {
            let mut b = bytes.clone();
            b[4] = second;
            assert!(matches!(refused(&b), ContainerError::Decode(DecodeError::InvalidOffset { .. })));
        }
        // No delimiter: the bitlist's last byte is zero.
        let mut b = bytes.clone();
        b[9] = 0;
        assert!(matches!(refused(&b), ContainerError::Decode(DecodeError::Inconsistent(_))));
        // Bitlists past the registry limit, and proofs past 1 MiB.
        let over = Participants { bits: vec![false; PARTICIPANTS_LIMIT + 1] }.to_bytes();
        assert!(matches!(Participants::from_bytes(&over), Err(ContainerError::TooManyParticipants { .. })));
        let at_limit = Participants::new(vec![true; PARTICIPANTS_LIMIT]).unwrap();
        assert_eq!(Participants::from_bytes(&at_limit.to_bytes()).unwrap(), at_limit);
        assert!(Participants::from_indices(&[PARTICIPANTS_LIMIT as u64]).is_err());
        assert!(Participants::from_indices(&[u64::MAX]).is_err());
        let long = [&bytes[..10], &vec![0u8; PROOF_DATA_LIMIT + 1][..]].concat();
        assert!(matches!(refused(&long), ContainerError::ProofTooLong { .. }));
        assert!(AggregatedSignatureProof::new(Participants::default(), vec![0; PROOF_DATA_LIMIT + 1]).is_err());
    }

    #[test]
    fn every_decoded_container_re_encodes_to_its_bytes() {
        let bytes = sample().to_bytes();
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut b = bytes.clone();
                b[i] ^= 1 << bit;
                if let Ok(c) = AggregatedSignatureProof::from_bytes(&b) {
                    assert_eq!(c.to_bytes(), b, "byte {i} bit {bit}");
                }
            }
        }
        for n in 0..bytes.len() {
            if let Ok(c) = AggregatedSignatureProof::from_bytes(&bytes[..n]) {
                assert_eq!(c.to_bytes(), &bytes[..n]);
            }
        }
    }
}
