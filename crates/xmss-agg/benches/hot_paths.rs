//! Criterion benches of the aggregation prover's hot parts, each at a size
//! that runs in seconds on a 2-core machine:
//!
//! * `trace/N`: witness generation (every verification step, written into
//!   the five tables) for N signatures;
//! * `prove/fast/N`: the whole proof (commitments, quotient, FRI) for N;
//! * `verify/fast/N`: verification of that proof;
//! * `xmss_verify`: one native Seed001 verification (the work each slot
//!   arithmetizes).
//!
//! Run: `RAYON_NUM_THREADS=2 cargo bench -p sigagg-xmss-agg --bench hot_paths`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::StdRng;
use sigagg_xmss::{Seed001, Signature, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::{prove as aggregate, verify};
use sigagg_xmss_agg::trace::generate;
use sigagg_xmss_agg::{AggregateEntry as Entry, AggregateStatement as Statement, Settings};

/// `n` signatures on one shared message (the consensus case).
fn batch(n: usize) -> (Statement, Vec<Signature<Seed001>>) {
    let mut rng = StdRng::seed_from_u64(n as u64);
    let (message, epoch) = ([3u8; 32], 77);
    let (entries, sigs): (Vec<_>, Vec<_>) = (0..n)
        .map(|_| {
            let (public_key, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rng, epoch, &message).unwrap();
            (Entry { public_key, epoch, message }, sig)
        })
        .unzip();
    (Statement::new(entries).unwrap(), sigs)
}

fn bench_trace(c: &mut Criterion) {
    let mut group = c.benchmark_group("trace");
    group.sample_size(10);
    for n in [64usize, 256] {
        let (statement, sigs) = batch(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| generate(&Settings::FAST, &statement, &sigs).unwrap())
        });
    }
    group.finish();
}

fn bench_prove_verify(c: &mut Criterion) {
    let n = 64;
    let (statement, sigs) = batch(n);
    let mut group = c.benchmark_group("prove");
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("fast", n), |b| {
        b.iter(|| aggregate(&Settings::FAST, &statement, &sigs).unwrap())
    });
    group.finish();
    let proof = aggregate(&Settings::FAST, &statement, &sigs).unwrap();
    let mut group = c.benchmark_group("verify");
    group.sample_size(20);
    group.bench_function(BenchmarkId::new("fast", n), |b| {
        b.iter(|| verify(&Settings::FAST, &statement, &proof).unwrap())
    });
    group.finish();
}

fn bench_native(c: &mut Criterion) {
    let (statement, sigs) = batch(1);
    let entry = &statement.entries()[0];
    c.bench_function("xmss_verify", |b| {
        b.iter(|| sigagg_xmss::verify(&entry.public_key, entry.epoch, &entry.message, &sigs[0]).unwrap())
    });
}

/// The allocator of the CLI and the bindings (transparent huge pages on
/// large buffers), so that these figures compare with the benchmarks'.
#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

criterion_group!(benches, bench_trace, bench_prove_verify, bench_native);
criterion_main!(benches);
