//! Times `sigagg_prover::skip_stark` (our multilinear STARK: one stacked
//! WHIR commitment, the skip zerocheck, the skip's reduction to one point,
//! WHIR's opening) against `p3-multi-stark` with the same WHIR settings,
//! proving the chain and width-24 tables of N Seed001 signatures (WHIR
//! layout) together (issue 21 §2; results in BENCHMARKS.md). Both sides
//! drop the tables' bus messages, so both prove the constraints alone;
//! both proofs are verified. The two provers alternate `RUNS` times.
//!
//! With `full`, both prove every table of the aggregate statement, buses
//! included: the skip STARK the traces as they are, `p3-multi-stark`
//! through the aggregator's WHIR backend (`testing::prove_traces`, the
//! proof the aggregator returns). Trace generation is timed once, apart.
//!
//! ```sh
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-xmss-agg --example skip_stark -- 8192 5 2 [full]
//! ```

#[path = "common/no_bus.rs"]
mod no_bus;

use std::time::Instant;

use p3_matrix::Matrix;
use p3_sumcheck::layout::Table;
use sigagg_prover::codec::encoded_len;
use sigagg_prover::config::{Settings, transcript, val_mmcs};
use sigagg_prover::skip_stark::SkipStark;
use sigagg_prover::whir::sha256_config;

use no_bus::{NoBus, tables};
use sigagg_xmss_agg::aggregate::testing;

#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(1024, |a| a.parse().expect("N"));
    let skip: usize = args.next().map_or(5, |a| a.parse().expect("k"));
    let runs: usize = args.next().map_or(1, |a| a.parse().expect("runs"));
    if args.next().as_deref() == Some("full") {
        return full(n, skip, runs);
    }
    let settings = Settings::WHIR;
    let tables = tables(n);
    let airs: Vec<_> = tables.iter().map(|(_, air, _)| air).collect();
    let traces: Vec<_> = tables.iter().map(|(_, _, trace)| trace.clone()).collect();
    let heights: Vec<usize> = traces.iter().map(|t| t.height().trailing_zeros() as usize).collect();
    let widths: Vec<usize> = traces.iter().map(|t| t.width).collect();
    let shapes: Vec<(usize, usize)> = heights.iter().copied().zip(widths.iter().copied()).collect();
    let seed = || transcript(b"skip stark example".to_vec());

    let ours = SkipStark::new(settings.whir().unwrap(), &heights, &widths, skip, val_mmcs(0)).unwrap();
    let (bits, _) = ours.security(&airs).unwrap();
    let config = sha256_config(settings.whir().unwrap(), &shapes).unwrap();
    let wrapped: Vec<NoBus<'_>> = airs.iter().map(|&a| NoBus(a)).collect();
    let wrapped_refs: Vec<&NoBus<'_>> = wrapped.iter().collect();
    let (pk, vk) = p3_multi_stark::setup(&config, &wrapped_refs, &mut transcript(Vec::new())).unwrap();

    for run in 0..runs {
        let t = Instant::now();
        let proof = ours.prove(&airs, traces.clone(), &mut seed()).unwrap();
        let prove_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        ours.verify(&airs, &proof, &mut seed()).unwrap();
        let verify_ms = t.elapsed().as_secs_f64() * 1e3;
        let size = encoded_len(&proof);
        drop(proof);

        let instances = wrapped
            .iter()
            .zip(&traces)
            .map(|(air, trace)| {
                p3_multi_stark::ProverInstance::new(air, Table::new(trace.clone().transpose()), &pk, &[])
            })
            .collect();
        let t = Instant::now();
        let p3_proof =
            p3_multi_stark::prove(&config, p3_multi_stark::ProverInstances::new(instances), 0, &mut seed()).unwrap();
        let p3_s = t.elapsed().as_secs_f64();
        let verifier = wrapped
            .iter()
            .zip(&heights)
            .map(|(air, &h)| p3_multi_stark::VerifierInstance::new(air, &vk, h, &[]))
            .collect();
        let t = Instant::now();
        p3_multi_stark::verify(&config, p3_multi_stark::VerifierInstances::new(verifier), &p3_proof, 0, &mut seed())
            .unwrap();
        let p3_verify_ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "RESULT run={run} n={n} k={skip} tables={shapes:?} skip_stark_prove_s={prove_s:.3} skip_stark_verify_ms={verify_ms:.1} \
             skip_stark_bytes={size} skip_stark_bits={bits:.1} p3_prove_s={p3_s:.3} p3_verify_ms={p3_verify_ms:.1} p3_bytes={} ratio={:.2}",
            encoded_len(&p3_proof),
            p3_s / prove_s,
        );
    }
}

/// Both provers on every table of the aggregate statement, buses included.
///
/// `SKIP_P3=1` leaves `p3-multi-stark` out; the settings take the
/// development overrides of `testing::settings_from_env` (SHA-256 only).
fn full(n: usize, skip: usize, runs: usize) {
    let settings = sigagg_prover::testing::settings_from_env(Settings::WHIR);
    let with_p3 = std::env::var("SKIP_P3").is_err();
    let (statement, signatures) = no_bus::statement(n);
    let t = Instant::now();
    let traces = testing::traces(&settings, &statement, &signatures);
    let trace_s = t.elapsed().as_secs_f64();
    let airs_owned = testing::statement_airs(&settings, &statement);
    let airs: Vec<_> = airs_owned.iter().collect();
    let matrices = traces.clone().into_matrices();
    let heights: Vec<usize> = matrices.iter().map(|t| t.height().trailing_zeros() as usize).collect();
    let widths: Vec<usize> = matrices.iter().map(|t| t.width).collect();
    let shapes: Vec<(usize, usize)> = heights.iter().copied().zip(widths.iter().copied()).collect();
    let seed = || transcript(b"skip stark example".to_vec());
    let ours = SkipStark::new(settings.whir().unwrap(), &heights, &widths, skip, val_mmcs(0)).unwrap();
    let (bits, _) = ours.security(&airs).unwrap();
    for run in 0..runs {
        let t = Instant::now();
        let proof = ours.prove(&airs, matrices.clone(), &mut seed()).unwrap();
        let prove_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        ours.verify(&airs, &proof, &mut seed()).unwrap();
        let verify_ms = t.elapsed().as_secs_f64() * 1e3;
        let size = encoded_len(&proof);
        let zc = |f: &dyn Fn(&sigagg_prover::zerocheck::ZerocheckProof) -> usize| -> usize {
            proof.tables.iter().map(|t| f(&t.zerocheck)).sum()
        };
        println!(
            "BYTES bus={} skip_values={} rounds={} blends={} reductions={} whir_evals={} whir={}",
            encoded_len(&proof.bus),
            zc(&|z| encoded_len(&z.skip_values)),
            zc(&|z| encoded_len(&z.rounds)),
            zc(&|z| encoded_len(&z.local) + encoded_len(&z.next)),
            proof.tables.iter().map(|t| encoded_len(&t.reduction)).sum::<usize>(),
            encoded_len(&proof.opening.evals),
            encoded_len(&proof.opening.whir),
        );
        drop(proof);
        if !with_p3 {
            println!(
                "RESULT full run={run} n={n} k={skip} trace_s={trace_s:.3} skip_stark_prove_s={prove_s:.3} \
                 skip_stark_verify_ms={verify_ms:.1} skip_stark_bytes={size} skip_stark_bits={bits:.1} settings={settings:?}"
            );
            continue;
        }

        let t = Instant::now();
        let p3_proof = testing::prove_traces(&settings, &statement, &traces).unwrap();
        let p3_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        sigagg_xmss_agg::aggregate::verify(&settings, &statement, &p3_proof).unwrap();
        let p3_verify_ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "RESULT full run={run} n={n} k={skip} tables={shapes:?} trace_s={trace_s:.3} skip_stark_prove_s={prove_s:.3} \
             skip_stark_verify_ms={verify_ms:.1} skip_stark_bytes={size} skip_stark_bits={bits:.1} p3_prove_s={p3_s:.3} \
             p3_verify_ms={p3_verify_ms:.1} p3_bytes={} ratio={:.2}",
            p3_proof.to_bytes().len(),
            p3_s / prove_s,
        );
    }
}
