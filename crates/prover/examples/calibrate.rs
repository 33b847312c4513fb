//! Calibration: proves a plain table of width-16 Poseidon2 permutations
//! (Plonky3's vectorized AIR, 1, 2, 4 or 8 per row) with this crate's STARK
//! configuration, to separate the raw cost of the proof system on this
//! machine from the cost of the aggregation circuit (BENCHMARKS.md,
//! "Plonky3's ceiling ...").
//!
//! ```sh
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-prover --example calibrate -- 19 [narrow|two|four|eight|quartic] [fast|compact]
//! ```
//!
//! The first argument is log2 of the number of permutations; `narrow`,
//! `two`, `four` and `eight` (the default) put 1, 2, 4 or 8 permutations
//! in a row;
//! `quartic` is `eight` over the degree-4 extension (with Plonky3's radix-2
//! DFT), for comparison only. The last argument picks the settings
//! (default `fast`).

use std::time::Instant;

use p3_koala_bear::GenericPoseidon2LinearLayersKoalaBear;
use p3_poseidon2_air::{RoundConstants, VectorizedPoseidon2Air};
use rand::SeedableRng;
use rand::rngs::StdRng;
use sigagg_prover::config::Settings;
use sigagg_prover::config::Val;

/// Plonky3's Poseidon2 AIR over KoalaBear, width 16, `PER_ROW` permutations per row.
type Poseidon2Rows<const PER_ROW: usize> =
    VectorizedPoseidon2Air<Val, GenericPoseidon2LinearLayersKoalaBear, 16, 3, 0, 4, 20, PER_ROW>;

fn air<const PER_ROW: usize>() -> Poseidon2Rows<PER_ROW> {
    VectorizedPoseidon2Air::new(RoundConstants::from_rng(&mut StdRng::seed_from_u64(1)))
}

/// Proves and verifies `2^log_perms` permutations, `PER_ROW` to a row, with
/// `config` (whose FRI blowup is `2^log_blowup`), and prints the rate.
fn run<const PER_ROW: usize, SC>(label: &str, log_perms: usize, log_blowup: usize, config: &SC)
where
    SC: p3_uni_stark::StarkGenericConfig,
    SC::Pcs: p3_commit::Pcs<SC::Challenge, SC::Challenger, Domain = p3_field::coset::TwoAdicMultiplicativeCoset<Val>>,
    SC::Challenger: p3_challenger::GrindingChallenger<Witness = Val>,
    Poseidon2Rows<PER_ROW>: p3_uni_stark::QuotientAir<SC>
        + for<'a> p3_air::Air<p3_uni_stark::VerifierConstraintFolder<'a, SC>>
        + for<'a> p3_air::Air<p3_air::DebugConstraintBuilder<'a, Val>>,
{
    let air = air::<PER_ROW>();
    let t = Instant::now();
    let trace = air.generate_vectorized_trace_rows(1 << log_perms, log_blowup);
    let gen_time = t.elapsed();
    let t = Instant::now();
    let proof = p3_uni_stark::prove(config, &air, trace, &[]).expect("proving succeeds");
    let prove = t.elapsed();
    let t = Instant::now();
    p3_uni_stark::verify(config, &air, &proof, &[]).expect("valid proof");
    println!(
        "{label} ({PER_ROW} per row, log blowup {log_blowup}): {} perms, trace {gen_time:.2?}, prove {prove:.2?} ({:.0} perms/s), verify {:.2?}",
        1usize << log_perms,
        (1u64 << log_perms) as f64 / prove.as_secs_f64(),
        t.elapsed()
    );
}

/// The same configuration over the quartic extension (for comparison only:
/// it cannot reach 100 proven bits).
#[allow(clippy::type_complexity)]
fn quartic_config(
    settings: &Settings,
) -> p3_uni_stark::StarkConfig<
    p3_fri::TwoAdicFriPcs<
        Val,
        p3_dft::Radix2DitParallel<Val>,
        sigagg_prover::config::ValMmcs,
        p3_commit::ExtensionMmcs<
            Val,
            p3_field::extension::BinomialExtensionField<Val, 4>,
            sigagg_prover::config::ValMmcs,
        >,
    >,
    p3_field::extension::BinomialExtensionField<Val, 4>,
    sigagg_prover::config::Challenger,
> {
    let mmcs = sigagg_prover::config::val_mmcs(settings.cap_height);
    let fri = p3_fri::FriParameters {
        log_blowup: settings.log_blowup,
        log_final_poly_len: settings.log_final_poly_len,
        max_log_arity: settings.max_log_arity,
        num_queries: settings.num_queries,
        batch_proof_of_work_bits: settings.batch_pow_bits,
        commit_proof_of_work_bits: settings.commit_pow_bits,
        query_proof_of_work_bits: settings.query_pow_bits,
        mmcs: p3_commit::ExtensionMmcs::new(mmcs),
    };
    let pcs = p3_fri::TwoAdicFriPcs::new(Default::default(), mmcs, fri);
    p3_uni_stark::StarkConfig::new(
        pcs,
        sigagg_prover::config::transcript(vec![]),
    )
}

/// The allocator of the CLI and the bindings (transparent huge pages on
/// large buffers), so that these figures compare with the benchmarks'.
#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

fn main() {
    if let Ok(filter) = std::env::var("SIGAGG_TRACE") {
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        tracing_subscriber::Registry::default()
            .with(tracing_subscriber::EnvFilter::new(filter))
            .with(tracing_forest::ForestLayer::default())
            .init();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let log_perms: usize = args.first().map_or(19, |a| a.parse().expect("log2 of permutations"));
    let settings = match args.get(2).map(String::as_str) {
        None | Some("fast") => Settings::FAST,
        Some("compact") => Settings::COMPACT,
        Some(other) => panic!("unknown settings {other:?}: fast or compact"),
    };
    let config = settings.stark_config_seeded(b"calibrate".to_vec());
    let log_blowup = settings.log_blowup;
    match args.get(1).map(String::as_str) {
        Some("narrow") => run::<1, _>("narrow", log_perms, log_blowup, &config),
        Some("two") => run::<2, _>("two per row", log_perms, log_blowup, &config),
        Some("four") => run::<4, _>("four per row", log_perms, log_blowup, &config),
        None | Some("eight") => run::<8, _>("eight per row", log_perms, log_blowup, &config),
        Some("quartic") => run::<8, _>("quartic", log_perms, log_blowup, &quartic_config(&settings)),
        Some(other) => panic!("unknown layout {other:?}: narrow, two, four, eight or quartic"),
    }
}
