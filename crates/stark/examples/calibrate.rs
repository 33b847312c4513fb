//! Calibration: proves a plain table of width-16 Poseidon2 permutations
//! (Plonky3's vectorized AIR, 8 per row) with this crate's STARK
//! configuration, to separate the raw cost of the proof system on this
//! machine from the cost of the aggregation circuit.
//!
//! ```sh
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-stark --example calibrate -- 19
//! ```

use std::time::Instant;

use p3_koala_bear::GenericPoseidon2LinearLayersKoalaBear;
use p3_poseidon2_air::{RoundConstants, VectorizedPoseidon2Air};
use rand::SeedableRng;
use rand::rngs::StdRng;
use sigagg_stark::Settings;
use sigagg_stark::config::Val;

/// The same configuration over the quartic extension (for comparison only:
/// it cannot reach 100 proven bits).
#[allow(clippy::type_complexity)]
fn quartic_config(
    settings: &Settings,
) -> p3_uni_stark::StarkConfig<
    p3_fri::TwoAdicFriPcs<
        Val,
        p3_dft::Radix2DitParallel<Val>,
        sigagg_stark::config::ValMmcs,
        p3_commit::ExtensionMmcs<
            Val,
            p3_field::extension::BinomialExtensionField<Val, 4>,
            sigagg_stark::config::ValMmcs,
        >,
    >,
    p3_field::extension::BinomialExtensionField<Val, 4>,
    sigagg_stark::config::Challenger,
> {
    let mmcs = sigagg_stark::config::val_mmcs(settings.cap_height);
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
        sigagg_stark::config::transcript(vec![]),
    )
}

fn main() {
    if let Ok(filter) = std::env::var("SIGAGG_TRACE") {
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        tracing_subscriber::Registry::default()
            .with(tracing_subscriber::EnvFilter::new(filter))
            .with(tracing_forest::ForestLayer::default())
            .init();
    }
    let log_perms: usize = std::env::args()
        .nth(1)
        .map_or(19, |a| a.parse().expect("log2 of permutations"));
    if std::env::args().nth(2).as_deref() == Some("quartic") {
        let air: VectorizedPoseidon2Air<
            Val,
            GenericPoseidon2LinearLayersKoalaBear,
            16,
            3,
            0,
            4,
            20,
            8,
        > = VectorizedPoseidon2Air::new(RoundConstants::from_rng(&mut StdRng::seed_from_u64(1)));
        let config = quartic_config(&Settings::FAST);
        let trace = air.generate_vectorized_trace_rows(1 << log_perms, 1);
        let t = Instant::now();
        let proof = p3_uni_stark::prove(&config, &air, trace, &[]).expect("proving succeeds");
        let prove = t.elapsed();
        p3_uni_stark::verify(&config, &air, &proof, &[]).expect("valid proof");
        println!(
            "quartic: {} perms, prove {prove:.2?} ({:.0} perms/s)",
            1usize << log_perms,
            (1u64 << log_perms) as f64 / prove.as_secs_f64()
        );
        return;
    }
    if std::env::args().nth(2).as_deref() == Some("two") {
        let air: VectorizedPoseidon2Air<
            Val,
            GenericPoseidon2LinearLayersKoalaBear,
            16,
            3,
            0,
            4,
            20,
            2,
        > = VectorizedPoseidon2Air::new(RoundConstants::from_rng(&mut StdRng::seed_from_u64(1)));
        let config = Settings::FAST.stark_config_seeded(b"calibrate".to_vec());
        let trace = air.generate_vectorized_trace_rows(1 << log_perms, 1);
        let t = Instant::now();
        let proof = p3_uni_stark::prove(&config, &air, trace, &[]).expect("proving succeeds");
        let prove = t.elapsed();
        p3_uni_stark::verify(&config, &air, &proof, &[]).expect("valid proof");
        println!(
            "two per row: {} perms, prove {prove:.2?} ({:.0} perms/s)",
            1usize << log_perms,
            (1u64 << log_perms) as f64 / prove.as_secs_f64()
        );
        return;
    }
    if std::env::args().nth(2).as_deref() == Some("narrow") {
        // One permutation per row: the shape of the aggregation's chain table.
        let air: VectorizedPoseidon2Air<
            Val,
            GenericPoseidon2LinearLayersKoalaBear,
            16,
            3,
            0,
            4,
            20,
            1,
        > = VectorizedPoseidon2Air::new(RoundConstants::from_rng(&mut StdRng::seed_from_u64(1)));
        let config = Settings::FAST.stark_config_seeded(b"calibrate".to_vec());
        let trace = air.generate_vectorized_trace_rows(1 << log_perms, 1);
        let t = Instant::now();
        let proof = p3_uni_stark::prove(&config, &air, trace, &[]).expect("proving succeeds");
        let prove = t.elapsed();
        p3_uni_stark::verify(&config, &air, &proof, &[]).expect("valid proof");
        println!(
            "narrow: {} perms, prove {prove:.2?} ({:.0} perms/s)",
            1usize << log_perms,
            (1u64 << log_perms) as f64 / prove.as_secs_f64()
        );
        return;
    }
    let air: VectorizedPoseidon2Air<
        Val,
        GenericPoseidon2LinearLayersKoalaBear,
        16,
        3,
        0,
        4,
        20,
        8,
    > = VectorizedPoseidon2Air::new(RoundConstants::from_rng(&mut StdRng::seed_from_u64(1)));
    let settings = Settings::FAST;
    let config = settings.stark_config_seeded(b"calibrate".to_vec());
    let t = Instant::now();
    let trace = air.generate_vectorized_trace_rows(1 << log_perms, settings.log_blowup);
    let gen_time = t.elapsed();
    let t = Instant::now();
    let proof = p3_uni_stark::prove(&config, &air, trace, &[]).expect("proving succeeds");
    let prove = t.elapsed();
    let t = Instant::now();
    p3_uni_stark::verify(&config, &air, &proof, &[]).expect("valid proof");
    println!(
        "{} permutations: trace {gen_time:.2?}, prove {prove:.2?} ({:.0} perms/s), verify {:.2?}",
        1usize << log_perms,
        (1u64 << log_perms) as f64 / prove.as_secs_f64(),
        t.elapsed()
    );
}
