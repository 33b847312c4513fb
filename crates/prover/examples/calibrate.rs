//! Calibration: proves a plain table of Poseidon2 permutations (Plonky3's
//! vectorized AIR, width 16 or 24, 1 to 8 per row) with this crate's STARK
//! configuration, to separate the raw cost of the proof system on this
//! machine from the cost of the aggregation circuit (BENCHMARKS.md,
//! "The stack's own ceiling" and "The ceiling of the shapes that fit in
//! 1.2 MB"). It prints the prove time (the trace's generation apart),
//! the proof's size and the verification time.
//!
//! ```sh
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-prover --example calibrate -- 19 [narrow|two|four|eight|wide|wide-two|quartic] [fast|quarter|compact]
//! ```
//!
//! The first argument is log2 of the number of permutations; `narrow`,
//! `two`, `four` and `eight` (the default) put 1, 2, 4 or 8 permutations
//! in a row; `wide` and `wide-two` prove width-24 permutations (the
//! Seed001 hash table's), 1 or 2 to a row, so that the tables of an
//! aggregate can be matched shape for shape with no signature logic;
//! `quartic` is `eight` over the degree-4 extension (with Plonky3's radix-2
//! DFT), for comparison only. The last argument picks the settings
//! (default `fast`; `quarter` is rate 1/4 at about the fast level).

use std::time::Instant;

use p3_koala_bear::GenericPoseidon2LinearLayersKoalaBear;
use p3_poseidon2_air::{RoundConstants, VectorizedPoseidon2Air};
use rand::SeedableRng;
use rand::rngs::StdRng;
use sigagg_prover::config::FriSettings;
use sigagg_prover::config::Val;

/// Plonky3's Poseidon2 AIR over KoalaBear, `WIDTH` wide (16 with 20 partial
/// rounds, or 24 with 23), `PER_ROW` permutations per row.
type Poseidon2Rows<const WIDTH: usize, const PARTIAL: usize, const PER_ROW: usize> =
    VectorizedPoseidon2Air<Val, GenericPoseidon2LinearLayersKoalaBear, WIDTH, 3, 0, 4, PARTIAL, PER_ROW>;

fn air<const WIDTH: usize, const PARTIAL: usize, const PER_ROW: usize>() -> Poseidon2Rows<WIDTH, PARTIAL, PER_ROW> {
    VectorizedPoseidon2Air::new(RoundConstants::from_rng(&mut StdRng::seed_from_u64(1)))
}

/// Proves and verifies `2^log_perms` permutations, `PER_ROW` to a row, with
/// `config` (whose FRI blowup is `2^log_blowup`), and prints the rate.
fn run<const WIDTH: usize, const PARTIAL: usize, const PER_ROW: usize, SC>(
    label: &str,
    air: &Poseidon2Rows<WIDTH, PARTIAL, PER_ROW>,
    log_perms: usize,
    log_blowup: usize,
    config: &SC,
) where
    SC: p3_uni_stark::StarkGenericConfig,
    SC::Pcs: p3_commit::Pcs<SC::Challenge, SC::Challenger, Domain = p3_field::coset::TwoAdicMultiplicativeCoset<Val>>,
    SC::Challenger: p3_challenger::GrindingChallenger<Witness = Val>,
    GenericPoseidon2LinearLayersKoalaBear: p3_poseidon2::GenericPoseidon2LinearLayers<WIDTH>,
    Poseidon2Rows<WIDTH, PARTIAL, PER_ROW>: p3_uni_stark::QuotientAir<SC>
        + for<'a> p3_air::Air<p3_uni_stark::VerifierConstraintFolder<'a, SC>>
        + for<'a> p3_air::Air<p3_air::DebugConstraintBuilder<'a, Val>>,
{
    let t = Instant::now();
    let trace = air.generate_vectorized_trace_rows(1 << log_perms, log_blowup);
    let gen_time = t.elapsed();
    let t = Instant::now();
    let proof = p3_uni_stark::prove(config, air, trace, &[]).expect("proving succeeds");
    let prove = t.elapsed();
    let bytes = postcard::to_allocvec(&proof).expect("proofs serialize").len();
    let t = Instant::now();
    p3_uni_stark::verify(config, air, &proof, &[]).expect("valid proof");
    println!(
        "{label} ({PER_ROW} per row, log blowup {log_blowup}): {} perms, trace {gen_time:.2?}, prove {prove:.2?} ({:.0} perms/s), proof {bytes} B (postcard), verify {:.2?}",
        1usize << log_perms,
        (1u64 << log_perms) as f64 / prove.as_secs_f64(),
        t.elapsed()
    );
}

/// The same configuration over the quartic extension (for comparison only:
/// it cannot reach 100 proven bits).
#[allow(clippy::type_complexity)]
fn quartic_config(
    settings: &FriSettings,
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
    let fri = settings.fri_parameters(p3_commit::ExtensionMmcs::new(mmcs));
    let pcs = p3_fri::TwoAdicFriPcs::new(Default::default(), mmcs, fri);
    p3_uni_stark::StarkConfig::new(pcs, sigagg_prover::config::transcript(vec![]))
}

/// The allocator of the CLI and the bindings (transparent huge pages on
/// large buffers), so that these figures compare with the benchmarks'.
#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

fn main() {
    sigagg_testkit::trace_from_env();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let log_perms: usize = args.first().map_or(19, |a| a.parse().expect("log2 of permutations"));
    let settings = match args.get(2).map(String::as_str) {
        None | Some("fast") => FriSettings::FAST,
        Some("compact") => FriSettings::COMPACT,
        // Rate 1/4 with the fast setting's grinding and the queries that
        // keep about its level (a query at rate 2^-r is worth about r/2
        // proven bits): the same bytes per query as fast at twice the width.
        Some("quarter") => FriSettings { log_blowup: 2, num_queries: 84, ..FriSettings::FAST },
        Some(other) => panic!("unknown settings {other:?}: fast, quarter or compact"),
    };
    let config = settings.stark_config_seeded(b"calibrate".to_vec());
    let log_blowup = settings.log_blowup;
    match args.get(1).map(String::as_str) {
        Some("narrow") => run("narrow", &air::<16, 20, 1>(), log_perms, log_blowup, &config),
        Some("two") => run("two per row", &air::<16, 20, 2>(), log_perms, log_blowup, &config),
        Some("four") => run("four per row", &air::<16, 20, 4>(), log_perms, log_blowup, &config),
        None | Some("eight") => run("eight per row", &air::<16, 20, 8>(), log_perms, log_blowup, &config),
        Some("wide") => run("width 24", &air::<24, 23, 1>(), log_perms, log_blowup, &config),
        Some("wide-two") => run("width 24, two per row", &air::<24, 23, 2>(), log_perms, log_blowup, &config),
        Some("quartic") => run("quartic", &air::<16, 20, 8>(), log_perms, log_blowup, &quartic_config(&settings)),
        Some(other) => panic!("unknown layout {other:?}: narrow, two, four, eight, wide, wide-two or quartic"),
    }
}
