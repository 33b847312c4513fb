//! The Horn benchmark: simulates a full round ([`crate::sim`]), measures what
//! it puts on the wire, and times decoding and verifying its collections by
//! each method. `sigagg bench horn` runs it and prints the [`BenchReport`] as
//! JSON; the measuring lives here so that the command only parses arguments
//! and prints.

use std::time::Instant;

use sigagg_bls::{SignatureSet, batch_verify};
use thiserror::Error;

use crate::sim::{SimConfig, simulate};
use crate::wire::{self, WireSizes};
use crate::{
    Collection, HornError, HornParams, Strategy, aggregate_key_naive, aggregate_key_with, aggregate_keys,
    aggregate_keys_independent, aggregate_keys_with_strategies, verify_collection, verify_collections,
    verify_collections_naive, verify_multiplicity_aggregate,
};

/// How the simulated signatures are made, for readers of the report: the
/// setup is fast because nothing is signed one key at a time.
pub const SETUP_NOTE: &str = "keys sk_i = a + i*b (pk_i = pk_{i-1} + b*G) and aggregate signatures by linearity: sum_{i in S} sk_i*H(m) = |S|*(a*H(m)) + (sum i)*(b*H(m)); identical to real signing (tested), verification untouched";

/// What the block sizes count.
pub const BLOCK_NOTE: &str =
    "best collection per committee plus 128 bytes of AttestationData each; the seed budgets 2x that for missed slots";

/// The seed's bound on the fast verification of a round, in seconds.
pub const FAST_TARGET_S: f64 = 0.6;

/// Collections whose per-collection costs are timed one by one.
const SAMPLE: usize = 32;

/// The round to simulate and how often to repeat the fast verification.
#[derive(Clone, Copy, Debug)]
pub struct BenchConfig {
    /// Committees (the seed: 32).
    pub committees: usize,
    /// Validators per committee (the seed: 2^15).
    pub committee_size: usize,
    /// Validators per subcommittee (the seed: 512).
    pub subcommittee_size: usize,
    /// Probability that a validator votes.
    pub participation: f64,
    /// Aggregators per subcommittee.
    pub aggregators: usize,
    /// Collectors per committee.
    pub collectors: usize,
    /// Seed of the simulated round.
    pub seed: u64,
    /// Times the fast verification is repeated (the median is reported; 0 counts as 1).
    pub fast_repeats: usize,
}

impl BenchConfig {
    /// The simulator's configuration: aggregators see 99% of their
    /// subcommittee's votes and collectors receive 75% of the aggregates.
    pub fn sim_config(&self) -> Result<SimConfig, HornError> {
        Ok(SimConfig {
            params: HornParams::new(self.committees, self.committee_size, self.subcommittee_size)?,
            participation: self.participation,
            aggregators: self.aggregators,
            collectors: self.collectors,
            aggregator_coverage: 0.99,
            delivery: 0.75,
            seed: self.seed,
        })
    }
}

/// Why the benchmark stopped.
#[derive(Debug, Error)]
pub enum BenchError {
    /// Parameters the simulator refuses: the caller's mistake.
    #[error(transparent)]
    Config(HornError),
    /// A collection of the simulated round did not verify.
    #[error("collection {index} did not verify: {source}")]
    Rejected { index: usize, source: HornError },
    /// Any other failure while measuring (decoding, key reconstruction, ...).
    #[error(transparent)]
    Failed(#[from] HornError),
    /// The batch reconstruction without shared subtraction failed.
    #[error("independent reconstruction failed")]
    Independent,
}

/// How many collections' keys each strategy rebuilt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StrategyCounts {
    /// Bulk addition of the present keys.
    pub add: usize,
    /// Subtraction of the absent keys from the committee key.
    pub subtract: usize,
    /// Subtraction from the committee's shared absences.
    pub subtract_from_shared: usize,
}

/// Milliseconds per collection of each method, on a sample of collections.
#[derive(Clone, Copy, Debug)]
pub struct PerCollectionMs {
    /// Key by adding the present keys one at a time.
    pub naive_key: f64,
    /// Key by bulk addition of the present keys.
    pub bulk_add_key: f64,
    /// Key by subtracting the absent keys from the committee key.
    pub subtract_key: f64,
    /// One collection verified on its own by the fast path.
    pub single_fast_verify: f64,
}

/// Timings of decoding and verifying the round's collections.
#[derive(Clone, Debug)]
pub struct VerifyTimes {
    /// Collections verified (every collection of the global topic).
    pub collections: usize,
    /// Snappy decompression and decoding, with the curve and subgroup checks.
    pub decode_s: f64,
    /// One key rebuilt by plain addition and one pairing check per collection.
    pub naive_s: f64,
    /// Median of the fast verifications.
    pub fast_s: f64,
    /// Every fast verification.
    pub fast_runs_s: Vec<f64>,
    /// Median time of the fast path's key reconstruction.
    pub fast_reconstruct_s: f64,
    /// Median time of the fast path's batched pairing check.
    pub fast_batched_pairing_s: f64,
    /// Median time of the batch reconstruction without the shared subtraction.
    pub fast_reconstruct_independent_s: f64,
    /// Which strategy rebuilt each collection's key.
    pub strategies: StrategyCounts,
    /// Per-collection costs.
    pub per_collection_ms: PerCollectionMs,
}

/// Multiplicity (uint4) aggregates: one per committee merging every aggregate.
#[derive(Clone, Copy, Debug)]
pub struct MultiplicityReport {
    /// Number of aggregates (committees).
    pub aggregates: usize,
    /// Mean number of distinct signers per aggregate.
    pub mean_signers: f64,
    /// Their sizes on the wire.
    pub sizes: WireSizes,
    /// Milliseconds to verify one.
    pub verify_ms_each: f64,
}

/// Everything the benchmark measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// The configuration it ran.
    pub config: BenchConfig,
    /// The committee layout.
    pub params: HornParams,
    /// Validators that voted.
    pub votes: usize,
    /// Mean fraction of a committee's validators in a collection.
    pub collection_participation_mean: f64,
    /// Seconds to simulate the round (keys, aggregates, collections).
    pub setup_s: f64,
    /// The global topic: every collection, each compressed on its own.
    pub global_topic: WireSizes,
    /// Uncompressed bytes of one collection.
    pub bytes_per_collection: usize,
    /// The subnets: every subcommittee aggregate.
    pub subnet_aggregates: WireSizes,
    /// A block: the best collection per committee with its attestation data ([`BLOCK_NOTE`]).
    pub block: WireSizes,
    /// Decoding and verification timings.
    pub verify: VerifyTimes,
    /// Multiplicity aggregates.
    pub multiplicity: MultiplicityReport,
}

impl BenchReport {
    /// Naive over fast verification time.
    pub fn speedup(&self) -> f64 {
        self.verify.naive_s / self.verify.fast_s
    }

    /// The speedup the seed asks for: 10x at high participation (90% and
    /// up), where subtracting the few absent keys pays most; 1.2x below.
    pub fn speedup_target(&self) -> f64 {
        if self.config.participation >= 0.9 { 10.0 } else { 1.2 }
    }

    /// Whether [`BenchReport::speedup`] reaches [`BenchReport::speedup_target`].
    pub fn speedup_met(&self) -> bool {
        self.speedup() >= self.speedup_target()
    }

    /// Whether the fast verification stays under [`FAST_TARGET_S`].
    pub fn fast_under_target(&self) -> bool {
        self.verify.fast_s < FAST_TARGET_S
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

fn all_ok(results: Vec<Result<(), HornError>>) -> Result<(), BenchError> {
    match results.into_iter().enumerate().find_map(|(index, r)| r.err().map(|e| (index, e))) {
        None => Ok(()),
        Some((index, source)) => Err(BenchError::Rejected { index, source }),
    }
}

/// Runs the benchmark, reporting its stages through `progress` (the command
/// line prints them on stderr while a full-size round takes minutes).
pub fn run(config: &BenchConfig, progress: &mut dyn FnMut(&str)) -> Result<BenchReport, BenchError> {
    let sim_config = config.sim_config().map_err(BenchError::Config)?;
    let params = sim_config.params;
    progress(&format!(
        "simulating {} validators ({} committees x {}), participation {}",
        params.validators(),
        params.committees(),
        params.committee_size(),
        config.participation
    ));
    let t = Instant::now();
    let round = simulate(&sim_config).map_err(BenchError::Config)?;
    let setup_s = t.elapsed().as_secs_f64();
    let repeats = config.fast_repeats.max(1);

    // Bandwidth: the global topic carries every collection, each compressed on its own.
    let encoded: Vec<Vec<u8>> = round.collections.iter().map(Collection::to_bytes).collect();
    let global_topic = WireSizes::measure(&encoded);
    let agg_encoded: Vec<Vec<u8>> = round.aggregates.iter().map(|a| a.to_bytes()).collect();
    let subnet_aggregates = WireSizes::measure(&agg_encoded);
    let block_items: Vec<Vec<u8>> = round
        .best_collections()
        .iter()
        .map(|c| {
            let mut b = vec![0u8; wire::ATTESTATION_DATA_BYTES];
            b.extend_from_slice(&c.to_bytes());
            b
        })
        .collect();
    let block = WireSizes::measure(&block_items);

    // What a node receives: compressed collections. Decoding (Snappy, bitfield,
    // signature curve and subgroup checks) is the same for both methods.
    let compressed: Vec<Vec<u8>> = encoded.iter().map(|e| wire::compress(e)).collect();
    let t = Instant::now();
    let decoded: Vec<Collection> =
        compressed.iter().map(|z| wire::collection_from_compressed(&params, z)).collect::<Result<_, _>>()?;
    let decode_s = t.elapsed().as_secs_f64();
    let items: Vec<(&[u8], &Collection)> = decoded.iter().map(|c| (round.message.as_slice(), c)).collect();
    let refs: Vec<&Collection> = decoded.iter().collect();
    let v = &round.validators;

    progress(&format!("naive verification of {} collections", items.len()));
    let t = Instant::now();
    let naive = verify_collections_naive(v, &items);
    let naive_s = t.elapsed().as_secs_f64();
    all_ok(naive)?;

    progress(&format!("fast verification x{repeats}"));
    let mut fast_runs = Vec::new();
    let mut reconstruct_runs = Vec::new();
    let mut pairing_runs = Vec::new();
    for _ in 0..repeats {
        let t = Instant::now();
        let fast = verify_collections(v, &items);
        fast_runs.push(t.elapsed().as_secs_f64());
        all_ok(fast)?;
        // The two phases of the fast path, timed separately.
        let t = Instant::now();
        let keys = aggregate_keys(v, &refs);
        reconstruct_runs.push(t.elapsed().as_secs_f64());
        let sets: Vec<SignatureSet<'_>> = keys
            .into_iter()
            .zip(&decoded)
            .map(|(k, c)| Ok(SignatureSet { public_key: k?, message: &round.message, signature: c.signature }))
            .collect::<Result<_, HornError>>()?;
        let t = Instant::now();
        batch_verify(&sets).map_err(HornError::from)?;
        pairing_runs.push(t.elapsed().as_secs_f64());
    }
    let fast_s = median(fast_runs.clone());

    // Per-collection reconstruction cost of each method, on a sample.
    let sample = &refs[..refs.len().min(SAMPLE)];
    let per = |f: &dyn Fn(&Collection) -> Result<(), HornError>| -> Result<f64, HornError> {
        let t = Instant::now();
        for c in sample {
            f(c)?;
        }
        Ok(1e3 * t.elapsed().as_secs_f64() / sample.len() as f64)
    };
    let per_collection_ms = PerCollectionMs {
        naive_key: per(&|c| aggregate_key_naive(v.committee(c.committee)?, &c.bits).map(|_| ()))?,
        bulk_add_key: per(&|c| aggregate_key_with(v.committee(c.committee)?, &c.bits, Strategy::Add).map(|_| ()))?,
        subtract_key: per(&|c| aggregate_key_with(v.committee(c.committee)?, &c.bits, Strategy::Subtract).map(|_| ()))?,
        single_fast_verify: per(&|c| verify_collection(v, &round.message, c))?,
    };
    let mut strategies = StrategyCounts::default();
    for r in aggregate_keys_with_strategies(v, &refs) {
        match r?.1 {
            Strategy::Add => strategies.add += 1,
            Strategy::Subtract => strategies.subtract += 1,
            Strategy::SubtractFromShared => strategies.subtract_from_shared += 1,
        }
    }
    // The batch reconstruction without the shared subtraction, for comparison.
    let mut independent_runs = Vec::new();
    for _ in 0..repeats {
        let t = Instant::now();
        let keys = aggregate_keys_independent(v, &refs);
        independent_runs.push(t.elapsed().as_secs_f64());
        if keys.iter().any(Result::is_err) {
            return Err(BenchError::Independent);
        }
    }
    let parts: Vec<f64> = decoded.iter().map(Collection::participation).collect();
    let collection_participation_mean = parts.iter().sum::<f64>() / parts.len() as f64;

    // Multiplicity (uint4) aggregates: one per committee merging every aggregate.
    let multi = round.multiplicity_aggregates()?;
    let multi_encoded: Vec<Vec<u8>> = multi.iter().map(|m| m.to_bytes()).collect();
    let sizes = WireSizes::measure(&multi_encoded);
    let t = Instant::now();
    for m in &multi {
        verify_multiplicity_aggregate(v, &round.message, m)?;
    }
    let verify_ms_each = 1e3 * t.elapsed().as_secs_f64() / multi.len().max(1) as f64;
    let mean_signers = multi.iter().map(|m| m.counts.signers() as f64).sum::<f64>() / multi.len().max(1) as f64;

    Ok(BenchReport {
        config: *config,
        params,
        votes: round.votes,
        collection_participation_mean,
        setup_s,
        global_topic,
        bytes_per_collection: wire::collection_len(&params),
        subnet_aggregates,
        block,
        verify: VerifyTimes {
            collections: items.len(),
            decode_s,
            naive_s,
            fast_s,
            fast_runs_s: fast_runs,
            fast_reconstruct_s: median(reconstruct_runs),
            fast_batched_pairing_s: median(pairing_runs),
            fast_reconstruct_independent_s: median(independent_runs),
            strategies,
            per_collection_ms,
        },
        multiplicity: MultiplicityReport { aggregates: multi.len(), mean_signers, sizes, verify_ms_each },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(participation: f64) -> BenchConfig {
        BenchConfig {
            committees: 2,
            committee_size: 256,
            subcommittee_size: 64,
            participation,
            aggregators: 4,
            collectors: 3,
            seed: 1,
            fast_repeats: 2,
        }
    }

    #[test]
    fn small_round_is_measured() {
        let mut stages = Vec::new();
        let r = run(&small(0.9), &mut |s| stages.push(s.to_string())).unwrap();
        assert_eq!(stages.len(), 3);
        assert_eq!(r.params.validators(), 512);
        assert_eq!(r.global_topic.messages, 6);
        assert_eq!(r.verify.collections, 6);
        assert_eq!(r.verify.fast_runs_s.len(), 2);
        assert_eq!(r.block.messages, 2);
        assert_eq!(r.multiplicity.aggregates, 2);
        let s = r.verify.strategies;
        assert_eq!(s.add + s.subtract + s.subtract_from_shared, 6);
        assert_eq!(r.speedup_target(), 10.0);
    }

    #[test]
    fn bad_parameters_are_config_errors() {
        let mut cfg = small(0.9);
        cfg.subcommittee_size = 100;
        assert!(matches!(run(&cfg, &mut |_| {}), Err(BenchError::Config(_))));
        let mut cfg = small(1.5);
        cfg.fast_repeats = 0;
        assert!(matches!(run(&cfg, &mut |_| {}), Err(BenchError::Config(_))));
    }
}
