//! Multiplicity (uint4) aggregates: a 4-bit count per committee member
//! instead of one bit, so that a collector can merge *overlapping*
//! aggregates of the same subcommittee (up to 15 per member) and no
//! aggregator can grief honest votes out of the collection (seed 003,
//! "Aggregation with four-bit integer vectors"). The price is four times the
//! bandwidth; the aggregate key becomes `sum count_i * pk_i`, a multi-scalar
//! multiplication over 4-bit scalars.

use super::{Collection, HornError, HornParams, SubcommitteeAggregate};
use sigagg_bls::Signature;
use sigagg_bls::bitfield::{Bitfield, BitfieldError};
use sigagg_bls::curve::g2;

/// Largest count a 4-bit entry holds.
pub const MAX_MULTIPLICITY: u8 = 15;

/// One 4-bit count per committee member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Multiplicities {
    counts: Vec<u8>,
}

impl Multiplicities {
    /// All zero.
    pub fn new(len: usize) -> Multiplicities {
        Multiplicities { counts: vec![0; len] }
    }

    /// From explicit counts, each at most 15.
    pub fn from_counts(counts: Vec<u8>) -> Result<Multiplicities, HornError> {
        if let Some((position, &count)) = counts.iter().enumerate().find(|(_, c)| **c > MAX_MULTIPLICITY) {
            return Err(HornError::CountTooLarge { position, count });
        }
        Ok(Multiplicities { counts })
    }

    /// Count 1 for every set bit.
    pub fn from_bitfield(bits: &Bitfield) -> Multiplicities {
        let mut m = Multiplicities::new(bits.len());
        for i in bits.ones() {
            m.counts[i] = 1;
        }
        m
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The counts.
    pub fn counts(&self) -> &[u8] {
        &self.counts
    }

    /// Members with a nonzero count.
    pub fn signers(&self) -> usize {
        self.counts.iter().filter(|&&c| c > 0).count()
    }

    /// Whether every count is zero.
    pub fn is_zero(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// Adds `other` entry-wise; nothing changes if any sum would exceed 15.
    pub fn add(&mut self, other: &Multiplicities) -> Result<(), HornError> {
        if other.len() != self.len() {
            return Err(HornError::Bitfield(BitfieldError::Length {
                expected_bits: self.len(),
                got_bytes: other.len().div_ceil(2),
            }));
        }
        if let Some(position) = self.counts.iter().zip(&other.counts).position(|(a, b)| a + b > MAX_MULTIPLICITY) {
            return Err(HornError::CountOverflow { position });
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        Ok(())
    }

    /// Packed encoding: entry `2k` in the low nibble of byte `k`, entry
    /// `2k + 1` in the high nibble.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.counts.chunks(2).map(|c| c[0] | c.get(1).copied().unwrap_or(0) << 4).collect()
    }

    /// Decodes `ceil(len / 2)` bytes; an unused last nibble must be zero.
    pub fn from_bytes(bytes: &[u8], len: usize) -> Result<Multiplicities, HornError> {
        if bytes.len() != len.div_ceil(2) {
            return Err(HornError::Bitfield(BitfieldError::Length { expected_bits: len * 4, got_bytes: bytes.len() }));
        }
        let mut counts: Vec<u8> = bytes.iter().flat_map(|b| [b & 0x0f, b >> 4]).collect();
        if counts.len() > len {
            if counts[len] != 0 {
                return Err(HornError::Bitfield(BitfieldError::Padding));
            }
            counts.truncate(len);
        }
        Ok(Multiplicities { counts })
    }
}

/// An aggregate signature with a multiplicity per committee member: the
/// signature is `sum count_i * sig_i`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiplicityAggregate {
    /// Committee index.
    pub committee: u32,
    /// One count per committee member.
    pub counts: Multiplicities,
    /// The weighted sum of the members' signatures.
    pub signature: Signature,
}

impl MultiplicityAggregate {
    /// A collection seen as counts 0/1.
    pub fn from_collection(collection: &Collection) -> MultiplicityAggregate {
        MultiplicityAggregate {
            committee: collection.committee,
            counts: Multiplicities::from_bitfield(&collection.bits),
            signature: collection.signature,
        }
    }

    /// A subcommittee aggregate placed in its committee, counts 0/1.
    pub fn from_subcommittee_aggregate(
        params: &HornParams,
        aggregate: &SubcommitteeAggregate,
    ) -> Result<MultiplicityAggregate, HornError> {
        Ok(MultiplicityAggregate {
            committee: aggregate.committee,
            counts: Multiplicities::from_bitfield(&aggregate.committee_bits(params)?),
            signature: aggregate.signature,
        })
    }

    /// Checks the committee index and count vector size.
    pub fn check_shape(&self, params: &HornParams) -> Result<(), HornError> {
        params.check_committee(self.committee)?;
        if self.counts.len() != params.committee_size() {
            return Err(HornError::Bitfield(BitfieldError::Length {
                expected_bits: params.committee_size() * 4,
                got_bytes: self.counts.len().div_ceil(2),
            }));
        }
        Ok(())
    }

    /// Merges a subcommittee aggregate (counts +1 on its signers), without
    /// materializing a committee-sized count vector for it. Nothing changes
    /// if a count would pass 15.
    pub fn merge_subcommittee_aggregate(
        &mut self,
        params: &HornParams,
        aggregate: &SubcommitteeAggregate,
    ) -> Result<(), HornError> {
        if aggregate.committee != self.committee {
            return Err(HornError::WrongCommittee { expected: self.committee, got: aggregate.committee });
        }
        aggregate.check_shape(params)?;
        self.check_shape(params)?;
        let offset = aggregate.subcommittee as usize * params.subcommittee_size();
        if let Some(j) = aggregate.bits.ones().find(|&j| self.counts.counts[offset + j] == MAX_MULTIPLICITY) {
            return Err(HornError::CountOverflow { position: offset + j });
        }
        for j in aggregate.bits.ones() {
            self.counts.counts[offset + j] += 1;
        }
        let mut s = g2::from_affine(self.signature.point());
        g2::add_assign_affine(&mut s, aggregate.signature.point());
        self.signature = Signature::from_affine_unchecked(g2::to_affine(&s));
        Ok(())
    }

    /// Merges another aggregate of the same committee, overlapping or not:
    /// counts add (at most 15 each) and signatures add.
    pub fn merge(&mut self, other: &MultiplicityAggregate) -> Result<(), HornError> {
        if other.committee != self.committee {
            return Err(HornError::WrongCommittee { expected: self.committee, got: other.committee });
        }
        self.counts.add(&other.counts)?;
        let mut s = g2::from_affine(self.signature.point());
        // add-or-double: merging an aggregate with itself doubles.
        g2::add_assign_affine(&mut s, other.signature.point());
        self.signature = Signature::from_affine_unchecked(g2::to_affine(&s));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trip_and_rejections() {
        let m = Multiplicities::from_counts(vec![1, 15, 0, 7, 3]).unwrap();
        assert_eq!(m.to_bytes(), vec![0xf1, 0x70, 0x03]);
        assert_eq!(Multiplicities::from_bytes(&m.to_bytes(), 5).unwrap(), m);
        assert_eq!(
            Multiplicities::from_bytes(&[0xf1, 0x70, 0x13], 5),
            Err(HornError::Bitfield(BitfieldError::Padding))
        );
        assert!(matches!(
            Multiplicities::from_bytes(&[0; 2], 5),
            Err(HornError::Bitfield(BitfieldError::Length { .. }))
        ));
        assert_eq!(Multiplicities::from_counts(vec![0, 16]), Err(HornError::CountTooLarge { position: 1, count: 16 }));
    }

    #[test]
    fn adding_counts_checks_overflow_atomically() {
        let mut a = Multiplicities::from_counts(vec![14, 1]).unwrap();
        let b = Multiplicities::from_counts(vec![1, 0]).unwrap();
        a.add(&b).unwrap();
        assert_eq!(a.counts(), &[15, 1]);
        let c = Multiplicities::from_counts(vec![0, 1]).unwrap();
        let before = a.clone();
        assert_eq!(a.add(&b), Err(HornError::CountOverflow { position: 0 }));
        assert_eq!(a, before);
        a.add(&c).unwrap();
        assert_eq!(a.counts(), &[15, 2]);
        assert!(matches!(a.add(&Multiplicities::new(3)), Err(HornError::Bitfield(BitfieldError::Length { .. }))));
    }
}
