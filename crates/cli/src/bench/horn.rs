//! `sigagg bench horn`: a full Horn round (seed 003), simulated and
//! measured by `sigagg_horn::bench`.

use clap::Args;
use serde_json::json;
use sigagg_horn::bench;

use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct BenchArgs {
    /// Probability that a validator votes.
    #[arg(long, default_value_t = 0.95)]
    pub participation: f64,
    /// Committees (the seed: 32).
    #[arg(long, default_value_t = 32)]
    pub committees: usize,
    /// Validators per committee (the seed: 2^15).
    #[arg(long, default_value_t = 1 << 15)]
    pub committee_size: usize,
    /// Validators per subcommittee (the seed: 512).
    #[arg(long, default_value_t = 512)]
    pub subcommittee_size: usize,
    /// Aggregators per subcommittee.
    #[arg(long, default_value_t = 16)]
    pub aggregators: usize,
    /// Collectors per committee.
    #[arg(long, default_value_t = 16)]
    pub collectors: usize,
    /// Seed of the simulated round.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Times the fast verification is repeated (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub fast_repeats: usize,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

pub fn bench(args: &BenchArgs) -> CliResult {
    let config = bench::BenchConfig {
        committees: args.committees,
        committee_size: args.committee_size,
        subcommittee_size: args.subcommittee_size,
        participation: args.participation,
        aggregators: args.aggregators,
        collectors: args.collectors,
        seed: args.seed,
        fast_repeats: args.fast_repeats,
    };
    let r = bench::run(&config, &mut |stage| eprintln!("horn: {stage}")).map_err(|e| match e {
        bench::BenchError::Config(e) => CliError::usage(e),
        e => CliError::rejected(e),
    })?;
    let (params, v, m) = (&r.params, &r.verify, &r.multiplicity);
    let per = &v.per_collection_ms;
    io::print_json(&json!({
        "bench": "horn",
        "threads": io::threads(),
        "validators": params.validators(),
        "committees": params.committees(),
        "committee_size": params.committee_size(),
        "subcommittee_size": params.subcommittee_size(),
        "aggregators_per_subcommittee": args.aggregators,
        "collectors_per_committee": args.collectors,
        "participation": args.participation,
        "votes": r.votes,
        "collection_participation_mean": r.collection_participation_mean,
        "setup_s": r.setup_s,
        "setup_note": bench::SETUP_NOTE,
        "global_topic": {
            "collections": r.global_topic.messages,
            "raw_bytes": r.global_topic.raw_bytes,
            "compressed_bytes": r.global_topic.compressed_bytes,
            "compression_ratio": r.global_topic.ratio(),
            "bytes_per_collection": r.bytes_per_collection,
        },
        "subnet_aggregates": {
            "aggregates": r.subnet_aggregates.messages,
            "raw_bytes": r.subnet_aggregates.raw_bytes,
            "compressed_bytes": r.subnet_aggregates.compressed_bytes,
        },
        "block": {
            "attestations": r.block.messages,
            "raw_bytes": r.block.raw_bytes,
            "compressed_bytes": r.block.compressed_bytes,
            "raw_bytes_with_2x_redundancy": 2 * r.block.raw_bytes,
            "note": bench::BLOCK_NOTE,
        },
        "verify": {
            "collections": v.collections,
            "decode_s": v.decode_s,
            "naive_s": v.naive_s,
            "fast_s": v.fast_s,
            "fast_runs_s": v.fast_runs_s,
            "fast_reconstruct_s": v.fast_reconstruct_s,
            "fast_batched_pairing_s": v.fast_batched_pairing_s,
            "speedup": r.speedup(),
            "fast_reconstruct_independent_s": v.fast_reconstruct_independent_s,
            "strategies": {
                "add": v.strategies.add,
                "subtract": v.strategies.subtract,
                "subtract_from_shared": v.strategies.subtract_from_shared,
            },
            "per_collection_ms": {
                "naive_key": per.naive_key,
                "bulk_add_key": per.bulk_add_key,
                "subtract_key": per.subtract_key,
                "single_fast_verify": per.single_fast_verify,
            },
        },
        "multiplicity": {
            "aggregates": m.aggregates,
            "mean_signers": m.mean_signers,
            "raw_bytes": m.sizes.raw_bytes,
            "compressed_bytes": m.sizes.compressed_bytes,
            "verify_ms_each": m.verify_ms_each,
        },
        "targets": {
            "speedup_target": r.speedup_target(),
            "speedup_met": r.speedup_met(),
            "fast_under_0_6_s": r.fast_under_target(),
        },
    }));
    Ok(())
}
