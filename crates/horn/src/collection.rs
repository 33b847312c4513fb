//! Subcommittee aggregates, committee collections and the collectors that
//! turn the former into the latter.

use blst::blst_p2_affine;

use super::{HornError, HornParams, HornValidators};
use sigagg_bls::Signature;
use sigagg_bls::bitfield::{Bitfield, BitfieldError};
use sigagg_bls::curve::g2;

/// An aggregator's output: the aggregate signature of the subcommittee
/// members whose bits are set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubcommitteeAggregate {
    /// Committee index.
    pub committee: u32,
    /// Subcommittee index inside the committee.
    pub subcommittee: u32,
    /// One bit per subcommittee member.
    pub bits: Bitfield,
    /// Sum of the members' signatures.
    pub signature: Signature,
}

/// A collector's output: the aggregate signature of the committee members
/// whose bits are set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collection {
    /// Committee index.
    pub committee: u32,
    /// One bit per committee member.
    pub bits: Bitfield,
    /// Sum of the members' signatures.
    pub signature: Signature,
}

impl SubcommitteeAggregate {
    /// Checks indices and bitfield size against the layout.
    pub fn check_shape(&self, params: &HornParams) -> Result<(), HornError> {
        params.check_committee(self.committee)?;
        params.check_subcommittee(self.subcommittee)?;
        if self.bits.len() != params.subcommittee_size() {
            return Err(HornError::Bitfield(BitfieldError::Length {
                expected_bits: params.subcommittee_size(),
                got_bytes: Bitfield::byte_len(self.bits.len()),
            }));
        }
        Ok(())
    }

    /// This aggregate as a committee-sized bitfield.
    pub fn committee_bits(&self, params: &HornParams) -> Result<Bitfield, HornError> {
        self.check_shape(params)?;
        let mut bits = Bitfield::new(params.committee_size());
        bits.write_at(self.subcommittee as usize * params.subcommittee_size(), &self.bits)?;
        Ok(bits)
    }

    /// Verifies the aggregate (what a collector or subnet peer checks before
    /// relaying it): the key is rebuilt from the committee's keys.
    pub fn verify(&self, validators: &HornValidators, message: &[u8]) -> Result<(), HornError> {
        let as_collection = Collection {
            committee: self.committee,
            bits: self.committee_bits(validators.params())?,
            signature: self.signature,
        };
        super::verify_collection(validators, message, &as_collection)
    }
}

impl Collection {
    /// Checks the committee index and bitfield size against the layout.
    pub fn check_shape(&self, params: &HornParams) -> Result<(), HornError> {
        params.check_committee(self.committee)?;
        if self.bits.len() != params.committee_size() {
            return Err(HornError::Bitfield(BitfieldError::Length {
                expected_bits: params.committee_size(),
                got_bytes: Bitfield::byte_len(self.bits.len()),
            }));
        }
        Ok(())
    }

    /// Fraction of the committee that signed.
    pub fn participation(&self) -> f64 {
        self.bits.count_ones() as f64 / self.bits.len().max(1) as f64
    }
}

/// A collector of one committee: keeps, per subcommittee, the aggregate with
/// the most signers and merges them into a [`Collection`].
///
/// Subcommittees are disjoint, so the merged bitfield is the concatenation
/// and the merged signature the sum; overlapping aggregates of the *same*
/// subcommittee cannot be merged with a bitfield (see
/// [`super::MultiplicityAggregate`]), hence "pick the best".
///
/// `offer` trusts that the aggregate passed gossip validation; use
/// [`Collector::offer_verified`] to verify it here.
pub struct Collector {
    params: HornParams,
    committee: u32,
    best: Vec<Option<SubcommitteeAggregate>>,
}

impl Collector {
    /// A collector for `committee`.
    pub fn new(params: HornParams, committee: u32) -> Result<Collector, HornError> {
        params.check_committee(committee)?;
        Ok(Collector { params, committee, best: vec![None; params.subcommittees()] })
    }

    /// Considers an aggregate; returns whether it became the best of its
    /// subcommittee. Ties keep the earlier aggregate. Aggregates of another
    /// committee, of the wrong shape or with no signer are refused.
    ///
    /// The signature is **not** checked: only for aggregates that already
    /// passed validation (gossip checks, or made locally). An unchecked
    /// aggregate claiming more signers would displace a valid one and make
    /// the collection fail verification; untrusted aggregates go through
    /// [`Collector::offer_verified`].
    pub fn offer(&mut self, aggregate: SubcommitteeAggregate) -> Result<bool, HornError> {
        if aggregate.committee != self.committee {
            return Err(HornError::WrongCommittee { expected: self.committee, got: aggregate.committee });
        }
        aggregate.check_shape(&self.params)?;
        if aggregate.bits.none() {
            return Err(HornError::EmptyBitfield);
        }
        let slot = &mut self.best[aggregate.subcommittee as usize];
        let better = match slot {
            None => true,
            Some(current) => aggregate.bits.count_ones() > current.bits.count_ones(),
        };
        if better {
            *slot = Some(aggregate);
        }
        Ok(better)
    }

    /// Verifies the aggregate against the committee keys, then offers it.
    pub fn offer_verified(
        &mut self,
        aggregate: SubcommitteeAggregate,
        validators: &HornValidators,
        message: &[u8],
    ) -> Result<bool, HornError> {
        if aggregate.committee != self.committee {
            return Err(HornError::WrongCommittee { expected: self.committee, got: aggregate.committee });
        }
        aggregate.verify(validators, message)?;
        self.offer(aggregate)
    }

    /// Number of subcommittees with an aggregate so far.
    pub fn covered(&self) -> usize {
        self.best.iter().filter(|b| b.is_some()).count()
    }

    /// Merges the best aggregate of every covered subcommittee.
    pub fn collection(&self) -> Result<Collection, HornError> {
        let chosen: Vec<&SubcommitteeAggregate> = self.best.iter().flatten().collect();
        if chosen.is_empty() {
            return Err(HornError::NothingCollected);
        }
        let mut bits = Bitfield::new(self.params.committee_size());
        for a in &chosen {
            bits.write_at(a.subcommittee as usize * self.params.subcommittee_size(), &a.bits)?;
        }
        let sigs: Vec<&blst_p2_affine> = chosen.iter().map(|a| a.signature.point()).collect();
        let signature = Signature::from_affine_unchecked(g2::to_affine(&g2::sum_refs(&sigs)));
        Ok(Collection { committee: self.committee, bits, signature })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{SimConfig, simulate};

    fn round() -> crate::sim::SimRound {
        simulate(&SimConfig {
            params: HornParams::new(2, 256, 64).unwrap(),
            participation: 0.8,
            aggregators: 3,
            collectors: 2,
            aggregator_coverage: 0.8,
            delivery: 1.0,
            seed: 11,
        })
        .unwrap()
    }

    #[test]
    fn collector_keeps_the_best_aggregate_per_subcommittee() {
        let r = round();
        let params = *r.validators.params();
        let mut col = Collector::new(params, 0).unwrap();
        let aggs: Vec<&SubcommitteeAggregate> =
            r.aggregates.iter().filter(|a| a.committee == 0 && a.subcommittee == 2).collect();
        assert!(aggs.len() >= 2);
        let best = aggs.iter().map(|a| a.bits.count_ones()).max().unwrap();
        for a in &aggs {
            col.offer_verified((*a).clone(), &r.validators, &r.message).unwrap();
        }
        assert_eq!(col.covered(), 1);
        let c = col.collection().unwrap();
        assert_eq!(c.bits.count_ones(), best);
        assert!(c.bits.ones().all(|i| (128..192).contains(&i)));
        crate::verify_collection(&r.validators, &r.message, &c).unwrap();
        // A worse aggregate offered later is not taken; ties keep the first.
        let worst = aggs.iter().min_by_key(|a| a.bits.count_ones()).unwrap();
        assert!(!col.offer((*worst).clone()).unwrap());
    }

    #[test]
    fn collector_refuses_foreign_empty_and_invalid_aggregates() {
        let r = round();
        let params = *r.validators.params();
        let mut col = Collector::new(params, 0).unwrap();
        assert_eq!(col.collection(), Err(HornError::NothingCollected));
        let foreign = r.aggregates.iter().find(|a| a.committee == 1).unwrap().clone();
        assert_eq!(col.offer(foreign), Err(HornError::WrongCommittee { expected: 0, got: 1 }));
        let mut empty = r.aggregates[0].clone();
        empty.bits = Bitfield::new(64);
        assert_eq!(col.offer(empty), Err(HornError::EmptyBitfield));
        let mut wrong_size = r.aggregates[0].clone();
        wrong_size.bits = Bitfield::new(128);
        assert!(matches!(col.offer(wrong_size), Err(HornError::Bitfield(BitfieldError::Length { .. }))));
        let mut out_of_range = r.aggregates[0].clone();
        out_of_range.subcommittee = 4;
        assert!(matches!(col.offer(out_of_range), Err(HornError::SubcommitteeOutOfRange { .. })));
        // Wrong bitfield: claims a member who did not sign; offer_verified refuses it.
        let mut forged = r.aggregates[0].clone();
        let j = forged.bits.zeros().next().unwrap();
        forged.bits.set(j).unwrap();
        assert!(matches!(
            col.offer_verified(forged.clone(), &r.validators, &r.message),
            Err(HornError::Bls(sigagg_bls::BlsError::VerificationFailed))
        ));
        // Offered unchecked, the same forgery would displace the valid
        // aggregate and spoil the collection: why `offer` is for validated
        // aggregates only.
        let mut trusting = Collector::new(params, r.aggregates[0].committee).unwrap();
        trusting.offer(r.aggregates[0].clone()).unwrap();
        assert!(trusting.offer(forged).unwrap());
        assert!(crate::verify_collection(&r.validators, &r.message, &trusting.collection().unwrap()).is_err());
        assert!(matches!(Collector::new(params, 2), Err(HornError::CommitteeOutOfRange { .. })));
    }

    #[test]
    fn params_and_assignments_are_checked() {
        assert!(HornParams::new(1, 96, 48).is_err());
        assert!(HornParams::new(1, 100, 64).is_err());
        assert!(HornParams::new(0, 128, 64).is_err());
        let p = HornParams::ETHEREUM_1M;
        assert_eq!((p.validators(), p.subcommittees()), (1 << 20, 64));
        let sks: Vec<sigagg_bls::SecretKey> =
            (0..4u8).map(|i| sigagg_bls::SecretKey::from_key_material(&[i; 32]).unwrap()).collect();
        let keys: Vec<sigagg_bls::PublicKey> = sks.iter().map(|s| s.public_key()).collect();
        let reg = sigagg_bls::KeyRegistry::from_keys_unchecked(keys).unwrap();
        let small = HornParams::new(1, 64, 64).unwrap();
        // Not enough keys for a 64-member committee.
        assert!(matches!(HornValidators::contiguous(small, &reg), Err(HornError::Assignment(_))));
        let members = vec![vec![0usize; 64]];
        assert!(matches!(HornValidators::new(small, &reg, members), Err(HornError::Assignment(_))));
    }
}
