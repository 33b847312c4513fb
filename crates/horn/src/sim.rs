//! A full simulated Horn round: validators, votes, aggregators, collectors.
//!
//! Used by `sigagg bench horn` and by the tests. Two shortcuts keep the
//! setup of 2^20 validators cheap, and neither changes what a verifier sees
//! or does:
//!
//! * **Keys by linearity.** Secret keys are `sk_i = a + i * b (mod r)` for
//!   random `a, b`, so `pk_i = pk_{i-1} + b*G`: one point addition per key
//!   instead of one scalar multiplication. The keys are valid, distinct and
//!   unrelated to the verifier's work; their proofs of possession are not
//!   checked (the registry is built with
//!   [`KeyRegistry::from_keys_unchecked`]).
//! * **Aggregate signatures by linearity.** The aggregate of a set `S` is
//!   `sum_{i in S} sk_i * H(m) = |S| * (a*H(m)) + (sum_{i in S} i) * (b*H(m))`:
//!   two short scalar multiplications instead of `|S|` signatures and
//!   additions. The results are exactly the signatures honest validators
//!   would have produced (a test checks this against real signing).
//!
//! The network model: each validator votes with probability
//! `participation`; each of the `aggregators` aggregators of a subcommittee
//! hears each vote with probability `aggregator_coverage`; each of the
//! `collectors` collectors of a committee receives each aggregate with
//! probability `delivery` (and at least one per subcommittee), then keeps
//! the best per subcommittee with a real [`Collector`]. Everything is
//! deterministic in `seed`, whatever the number of threads.

use blst::{blst_p1, blst_p1_affine, blst_p2_affine};
use rand::{Rng, RngExt, SeedableRng, rngs::StdRng};
use rayon::prelude::*;

use super::{
    Collection, Collector, HornError, HornParams, HornValidators, Multiplicities, MultiplicityAggregate,
    SubcommitteeAggregate,
};
use sigagg_bls::BlsError;
use sigagg_bls::KeyRegistry;
use sigagg_bls::bitfield::Bitfield;
use sigagg_bls::curve::{self, Fr, g1, g2};
use sigagg_bls::{DST_SIG, Signature};
use sigagg_bls::{PublicKey, SecretKey};

/// Parameters of a simulated round.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Committee layout.
    pub params: HornParams,
    /// Probability that a validator votes.
    pub participation: f64,
    /// Aggregators per subcommittee.
    pub aggregators: usize,
    /// Collectors per committee.
    pub collectors: usize,
    /// Probability that an aggregator hears a given vote.
    pub aggregator_coverage: f64,
    /// Probability that a collector receives a given aggregate.
    pub delivery: f64,
    /// Seed of every random choice (keys, votes, network).
    pub seed: u64,
}

impl SimConfig {
    /// The seed's setting: 2^20 validators, 16 aggregators and 16 collectors.
    pub fn ethereum(participation: f64, seed: u64) -> SimConfig {
        SimConfig {
            params: HornParams::ETHEREUM_1M,
            participation,
            aggregators: 16,
            collectors: 16,
            aggregator_coverage: 0.99,
            delivery: 0.75,
            seed,
        }
    }

    fn check(&self) -> Result<(), HornError> {
        let unit = |p: f64| (0.0..=1.0).contains(&p);
        if !unit(self.participation) || !unit(self.aggregator_coverage) || !unit(self.delivery) {
            return Err(HornError::InvalidParams("probabilities must lie in [0, 1]"));
        }
        if self.aggregators == 0 || self.collectors == 0 {
            return Err(HornError::InvalidParams("need at least one aggregator and one collector"));
        }
        if self.aggregators > 1024 || self.collectors > 1024 {
            return Err(HornError::InvalidParams("at most 1024 aggregators / collectors"));
        }
        Ok(())
    }
}

/// Secret keys `a + i * b`.
struct LinearKeys {
    a: Fr,
    b: Fr,
}

impl LinearKeys {
    fn secret(&self, i: usize) -> Fr {
        self.a.add(&self.b.mul(&Fr::from_u64(i as u64)))
    }

    /// `pk_i` for `i < n`, by chunks of consecutive additions of `b*G`.
    fn public_keys(&self, n: usize) -> Result<Vec<PublicKey>, HornError> {
        const CHUNK: usize = 4096;
        let g = g1::affine_generator();
        let step = g1::to_affine(&g1::mul(&g, &self.b.to_le_bytes(), 255));
        let chunks: Vec<Vec<blst_p1_affine>> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let start = c * CHUNK;
                let end = (start + CHUNK).min(n);
                let mut p: blst_p1 = g1::mul(&g, &self.secret(start).to_le_bytes(), 255);
                let mut proj = Vec::with_capacity(end - start);
                for _ in start..end {
                    proj.push(p);
                    g1::add_assign_affine(&mut p, &step);
                }
                g1::batch_to_affine(&proj)
            })
            .collect();
        chunks.into_iter().flatten().map(|p| PublicKey::from_affine_unchecked(p).map_err(HornError::from)).collect()
    }
}

/// Everything a simulated round produced.
pub struct SimRound {
    /// The verifier's view of the validator set.
    pub validators: HornValidators,
    /// The signed message (the slot's attestation data root).
    pub message: Vec<u8>,
    /// Every subcommittee aggregate the aggregators produced.
    pub aggregates: Vec<SubcommitteeAggregate>,
    /// The collections on the global topic, committee-major
    /// (`collections[c * collectors + k]`).
    pub collections: Vec<Collection>,
    /// Validators that voted.
    pub votes: usize,
    keys: LinearKeys,
}

/// `x * P` for a small nonnegative integer `x`.
fn small_mul(p: &blst_p2_affine, x: u64) -> blst_p2_affine {
    let nbits = (64 - x.leading_zeros() as usize).max(1);
    g2::to_affine(&g2::mul(p, &x.to_le_bytes(), nbits))
}

fn sub_rng(seed: u64, tag: u64, a: u64, b: u64) -> StdRng {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&seed.to_le_bytes());
    s[8..16].copy_from_slice(&tag.to_le_bytes());
    s[16..24].copy_from_slice(&a.to_le_bytes());
    s[24..].copy_from_slice(&b.to_le_bytes());
    StdRng::from_seed(s)
}

/// Runs the round: keys, votes, aggregates, collections.
pub fn simulate(config: &SimConfig) -> Result<SimRound, HornError> {
    config.check()?;
    let params = config.params;
    let mut rng = sub_rng(config.seed, 0, 0, 0);
    let mut wide = [0u8; 64];
    rng.fill_bytes(&mut wide);
    let keys = LinearKeys { a: Fr::from_le_bytes_reduced(&wide[..32]), b: Fr::from_le_bytes_reduced(&wide[32..]) };
    let n = params.validators();
    // A zero key (probability ~n/r) would be refused as the identity, and
    // b = 0 (all keys equal) as duplicates, by the registry below.
    let registry = KeyRegistry::from_keys_unchecked(keys.public_keys(n)?)?;
    let validators = HornValidators::contiguous(params, &registry)?;
    drop(registry);

    let mut message = b"horn attestation data root, slot ".to_vec();
    message.extend_from_slice(&config.seed.to_le_bytes());
    let h = curve::hash_to_g2(&message, DST_SIG);
    let a_h = g2::to_affine(&g2::mul(&h, &keys.a.to_le_bytes(), 255));
    let b_h = g2::to_affine(&g2::mul(&h, &keys.b.to_le_bytes(), 255));

    // Votes, one bit per validator.
    let mut vote_rng = sub_rng(config.seed, 1, 0, 0);
    let voted: Vec<bool> = (0..n).map(|_| vote_rng.random_bool(config.participation)).collect();
    let votes = voted.iter().filter(|&&v| v).count();

    // Aggregates, per (committee, subcommittee).
    let subs = params.subcommittees();
    let sub_size = params.subcommittee_size();
    let per_sub: Vec<Vec<SubcommitteeAggregate>> = (0..params.committees() * subs)
        .into_par_iter()
        .map(|cs| {
            let (c, s) = (cs / subs, cs % subs);
            let base = c * params.committee_size() + s * sub_size;
            let mut rng = sub_rng(config.seed, 2, c as u64, s as u64);
            let mut out = Vec::with_capacity(config.aggregators);
            for _ in 0..config.aggregators {
                let mut bits = Bitfield::new(sub_size);
                let (mut count, mut index_sum) = (0u64, 0u64);
                for j in 0..sub_size {
                    if voted[base + j] && rng.random_bool(config.aggregator_coverage) {
                        bits.set(j).expect("j < subcommittee size");
                        count += 1;
                        index_sum += (base + j) as u64;
                    }
                }
                if count == 0 {
                    continue; // an aggregator that heard nothing publishes nothing
                }
                let mut sig = g2::from_affine(&small_mul(&a_h, count));
                g2::add_assign_affine(&mut sig, &small_mul(&b_h, index_sum));
                out.push(SubcommitteeAggregate {
                    committee: c as u32,
                    subcommittee: s as u32,
                    bits,
                    signature: Signature::from_affine_unchecked(g2::to_affine(&sig)),
                });
            }
            out
        })
        .collect();

    // Collectors, per (committee, collector).
    let collections: Vec<Collection> = (0..params.committees() * config.collectors)
        .into_par_iter()
        .map(|ck| {
            let (c, k) = (ck / config.collectors, ck % config.collectors);
            let mut rng = sub_rng(config.seed, 3, c as u64, k as u64);
            let mut collector = Collector::new(params, c as u32)?;
            for s in 0..subs {
                let available = &per_sub[c * subs + s];
                let mut received = 0;
                for agg in available {
                    if rng.random_bool(config.delivery) {
                        collector.offer(agg.clone())?;
                        received += 1;
                    }
                }
                if received == 0 && !available.is_empty() {
                    collector.offer(available[k % available.len()].clone())?;
                }
            }
            collector.collection()
        })
        .collect::<Result<_, _>>()?;

    Ok(SimRound { validators, message, aggregates: per_sub.into_iter().flatten().collect(), collections, votes, keys })
}

impl SimRound {
    /// The secret key of validator `i` (for tests that sign for real).
    pub fn secret_key(&self, i: usize) -> Result<SecretKey, BlsError> {
        let mut be = self.keys.secret(i).to_le_bytes();
        be.reverse();
        SecretKey::from_bytes(&be)
    }

    /// `(message, collection)` pairs, as the verification functions take them.
    pub fn items(&self) -> Vec<(&[u8], &Collection)> {
        self.collections.iter().map(|c| (self.message.as_slice(), c)).collect()
    }

    /// Per committee, the collection with the most signers (what a block
    /// proposer includes).
    pub fn best_collections(&self) -> Vec<&Collection> {
        let committees = self.validators.params().committees();
        (0..committees as u32)
            .filter_map(|c| self.collections.iter().filter(|x| x.committee == c).max_by_key(|x| x.bits.count_ones()))
            .collect()
    }

    /// Per committee, a multiplicity aggregate merging every aggregate of the
    /// round (overlaps included), skipping an aggregate only when a count
    /// would pass 15. This is the griefing-resistant alternative of the seed.
    pub fn multiplicity_aggregates(&self) -> Result<Vec<MultiplicityAggregate>, HornError> {
        let params = *self.validators.params();
        (0..params.committees() as u32)
            .into_par_iter()
            .map(|c| {
                let mut merged = MultiplicityAggregate {
                    committee: c,
                    counts: Multiplicities::new(params.committee_size()),
                    signature: Signature::from_affine_unchecked(blst_p2_affine::default()),
                };
                for agg in self.aggregates.iter().filter(|a| a.committee == c) {
                    match merged.merge_subcommittee_aggregate(&params, agg) {
                        Ok(()) | Err(HornError::CountOverflow { .. }) => {}
                        Err(e) => return Err(e),
                    }
                }
                Ok(merged)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        Strategy, aggregate_key, aggregate_key_naive, aggregate_key_with, multiplicity_key, multiplicity_key_naive,
        verify_collection, verify_collection_naive, verify_collections, verify_collections_naive,
        verify_multiplicity_aggregate, wire,
    };
    use sigagg_bls::aggregate;

    fn small(participation: f64, seed: u64) -> SimConfig {
        SimConfig {
            params: HornParams::new(4, 512, 128).unwrap(),
            participation,
            aggregators: 4,
            collectors: 3,
            aggregator_coverage: 0.9,
            delivery: 0.7,
            seed,
        }
    }

    #[test]
    fn linear_setup_matches_real_signing() {
        let round = simulate(&small(0.8, 1)).unwrap();
        // Keys: pk_i from the derived secret key.
        for i in [0usize, 1, 777, 2047] {
            let sk = round.secret_key(i).unwrap();
            let committee = round.validators.committee((i / 512) as u32).unwrap();
            assert!(g1::eq(&committee.keys()[i % 512], sk.public_key().point()));
        }
        // Aggregate signature: equal to the sum of the members' real signatures.
        let agg = &round.aggregates[5];
        let base = agg.committee as usize * 512 + agg.subcommittee as usize * 128;
        let sigs: Vec<Signature> =
            agg.bits.ones().map(|j| round.secret_key(base + j).unwrap().sign(&round.message)).collect();
        assert_eq!(aggregate(&sigs).unwrap(), agg.signature);
        assert_eq!(round.collections.len(), 12);
    }

    #[test]
    fn every_collection_verifies_naive_fast_and_batched() {
        let round = simulate(&small(0.9, 2)).unwrap();
        let items = round.items();
        assert!(verify_collections_naive(&round.validators, &items).iter().all(Result::is_ok));
        assert!(verify_collections(&round.validators, &items).iter().all(Result::is_ok));
        for (m, c) in &items {
            verify_collection(&round.validators, m, c).unwrap();
            verify_collection_naive(&round.validators, m, c).unwrap();
            let committee = round.validators.committee(c.committee).unwrap();
            let naive = aggregate_key_naive(committee, &c.bits).unwrap();
            let (fast, strategy) = aggregate_key(committee, &c.bits).unwrap();
            assert_eq!(strategy, Strategy::Subtract, "90% participation subtracts");
            assert_eq!(naive, fast);
            assert_eq!(aggregate_key_with(committee, &c.bits, Strategy::Add).unwrap(), naive);
        }
        // Batch reconstruction: the shared subtraction is used and exact.
        let refs: Vec<&Collection> = round.collections.iter().collect();
        let batch = crate::aggregate_keys_with_strategies(&round.validators, &refs);
        let independent = crate::aggregate_keys_independent(&round.validators, &refs);
        let mut shared = 0;
        for ((b, ind), c) in batch.iter().zip(&independent).zip(&refs) {
            let (key, strategy) = b.as_ref().unwrap();
            shared += (*strategy == Strategy::SubtractFromShared) as usize;
            let committee = round.validators.committee(c.committee).unwrap();
            assert_eq!(key, &aggregate_key_naive(committee, &c.bits).unwrap());
            assert_eq!(key, ind.as_ref().unwrap());
        }
        assert!(shared > 0, "collections of a committee share their absences");
        // Aggregates verify too (what collectors check).
        for a in round.aggregates.iter().take(6) {
            a.verify(&round.validators, &round.message).unwrap();
        }
    }

    #[test]
    fn low_participation_adds_and_both_strategies_agree() {
        let round = simulate(&small(0.3, 3)).unwrap();
        for (_, c) in round.items() {
            let committee = round.validators.committee(c.committee).unwrap();
            let (fast, strategy) = aggregate_key(committee, &c.bits).unwrap();
            assert_eq!(strategy, Strategy::Add);
            assert_eq!(fast, aggregate_key_with(committee, &c.bits, Strategy::Subtract).unwrap());
        }
        assert!(verify_collections(&round.validators, &round.items()).iter().all(Result::is_ok));
    }

    #[test]
    fn bad_collections_are_singled_out() {
        let round = simulate(&small(0.9, 4)).unwrap();
        let mut cols = round.collections.clone();
        // Wrong bitfield: one more signer claimed than signed.
        let missing = cols[0].bits.zeros().next().unwrap();
        cols[0].bits.set(missing).unwrap();
        // Tampered signature: another collection's signature.
        cols[4].signature = cols[9].signature;
        // Empty bitfield.
        cols[7].bits = Bitfield::new(512);
        // Wrong committee index (out of range).
        cols[8].committee = 99;
        let wrong_msg = b"another message".to_vec();
        let mut items: Vec<(&[u8], &Collection)> = cols.iter().map(|c| (round.message.as_slice(), c)).collect();
        items[10].0 = &wrong_msg;
        let results = verify_collections(&round.validators, &items);
        let naive = verify_collections_naive(&round.validators, &items);
        for (i, (r, n)) in results.iter().zip(&naive).enumerate() {
            let bad = [0, 4, 7, 8, 10].contains(&i);
            assert_eq!(r.is_err(), bad, "collection {i}: {r:?}");
            assert_eq!(n.is_err(), bad, "collection {i} (naive): {n:?}");
        }
        assert_eq!(results[0], Err(HornError::Bls(BlsError::VerificationFailed)));
        assert_eq!(results[7], Err(HornError::EmptyBitfield));
        assert!(matches!(results[8], Err(HornError::CommitteeOutOfRange { committee: 99, .. })));
    }

    #[test]
    fn full_and_single_bit_collections() {
        // Everyone votes and is heard: full bitfields take the committee key as is.
        let mut cfg = small(1.0, 5);
        cfg.aggregator_coverage = 1.0;
        let round = simulate(&cfg).unwrap();
        for (_, c) in round.items() {
            assert!(c.bits.all());
            let committee = round.validators.committee(c.committee).unwrap();
            assert_eq!(aggregate_key(committee, &c.bits).unwrap().0, aggregate_key_naive(committee, &c.bits).unwrap());
        }
        assert!(verify_collections(&round.validators, &round.items()).iter().all(Result::is_ok));
        // A single signer.
        let sk = round.secret_key(513).unwrap();
        let mut bits = Bitfield::new(512);
        bits.set(1).unwrap();
        let one = Collection { committee: 1, bits, signature: sk.sign(&round.message) };
        verify_collection(&round.validators, &round.message, &one).unwrap();
    }

    #[test]
    fn multiplicity_aggregates_merge_overlaps_and_verify() {
        let round = simulate(&small(0.9, 6)).unwrap();
        let merged = round.multiplicity_aggregates().unwrap();
        assert_eq!(merged.len(), 4);
        for m in &merged {
            assert!(m.counts.counts().iter().any(|&c| c > 1), "overlapping aggregates merged");
            verify_multiplicity_aggregate(&round.validators, &round.message, m).unwrap();
            let committee = round.validators.committee(m.committee).unwrap();
            assert_eq!(
                multiplicity_key(committee, &m.counts).unwrap(),
                multiplicity_key_naive(committee, &m.counts).unwrap()
            );
        }
        // Wrong counts: one validator claimed once more.
        let mut bad = merged[0].clone();
        let mut counts = bad.counts.counts().to_vec();
        let j = counts.iter().position(|&c| c > 0 && c < 15).unwrap();
        counts[j] += 1;
        bad.counts = Multiplicities::from_counts(counts).unwrap();
        assert!(verify_multiplicity_aggregate(&round.validators, &round.message, &bad).is_err());
        // Merging a collection with itself doubles both sides and still verifies
        // (add-or-double on the signature, count 2 in the MSM).
        let mut twice = MultiplicityAggregate::from_collection(&round.collections[0]);
        let again = twice.clone();
        twice.merge(&again).unwrap();
        verify_multiplicity_aggregate(&round.validators, &round.message, &twice).unwrap();
        // Overflow past 15 is refused.
        let mut many = again.clone();
        for _ in 0..14 {
            many.merge(&again).unwrap();
        }
        assert!(matches!(many.merge(&again), Err(HornError::CountOverflow { .. })));
        verify_multiplicity_aggregate(&round.validators, &round.message, &many).unwrap();
        // Both forms of the 4-bit MSM (direct, and complement of the most common
        // count) agree with repeated add-or-double, for counts 1, 2 and 15.
        let committee = round.validators.committee(again.committee).unwrap();
        for m in [&again, &twice, &many] {
            assert_eq!(
                multiplicity_key(committee, &m.counts).unwrap(),
                multiplicity_key_naive(committee, &m.counts).unwrap()
            );
        }
        // Mixed counts around a dominant value (complement with both signs).
        let mixed: Vec<u8> = (0..512).map(|i| if i % 7 == 0 { (i % 16) as u8 } else { 9 }).collect();
        let mixed = Multiplicities::from_counts(mixed).unwrap();
        assert_eq!(multiplicity_key(committee, &mixed).unwrap(), multiplicity_key_naive(committee, &mixed).unwrap());
        assert_eq!(multiplicity_key(committee, &Multiplicities::new(512)), Err(HornError::EmptyBitfield));
    }

    #[test]
    fn wire_round_trips_and_compression() {
        let round = simulate(&small(0.95, 7)).unwrap();
        let params = *round.validators.params();
        for c in &round.collections {
            let raw = c.to_bytes();
            assert_eq!(raw.len(), wire::collection_len(&params));
            assert_eq!(&Collection::from_bytes(&params, &raw).unwrap(), c);
            let z = wire::compress(&raw);
            assert_eq!(&wire::collection_from_compressed(&params, &z).unwrap(), c);
        }
        for a in round.aggregates.iter().take(5) {
            let raw = a.to_bytes();
            assert_eq!(raw.len(), wire::subcommittee_aggregate_len(&params));
            assert_eq!(&SubcommitteeAggregate::from_bytes(&params, &raw).unwrap(), a);
        }
        let m = &round.multiplicity_aggregates().unwrap()[0];
        let raw = m.to_bytes();
        assert_eq!(raw.len(), wire::multiplicity_aggregate_len(&params));
        assert_eq!(&MultiplicityAggregate::from_bytes(&params, &raw).unwrap(), m);
        let encoded: Vec<Vec<u8>> = round.collections.iter().map(Collection::to_bytes).collect();
        let sizes = wire::WireSizes::measure(&encoded);
        assert_eq!(sizes.messages, round.collections.len());
        assert_eq!(sizes.raw_bytes, round.collections.len() * wire::collection_len(&params));
        // Snappy never expands by more than its small worst-case bound...
        assert!(sizes.compressed_bytes <= sizes.raw_bytes + sizes.raw_bytes / 6 + 32 * sizes.messages);
        // ...and a full 2^15-bit bitfield (runs of 0xff) shrinks to almost nothing.
        let full = Bitfield::full(1 << 15).to_bytes();
        assert!(wire::compress(&full).len() < 400);
        assert_eq!(wire::decompress(&wire::compress(&full), 4096).unwrap(), full);
    }

    #[test]
    fn config_is_checked() {
        let mut cfg = small(1.5, 1);
        assert!(matches!(simulate(&cfg), Err(HornError::InvalidParams(_))));
        cfg.participation = 0.5;
        cfg.aggregators = 0;
        assert!(matches!(simulate(&cfg), Err(HornError::InvalidParams(_))));
    }
}
