//! The verifier circuit of Seed001 aggregates, measured: `C` children of
//! `N` signatures each on one message, proven under whir-skip-poseidon2,
//! verified whole in one circuit (each proof as advice,
//! `sigagg_recursion::child`), whose proof is the merge's: the circuit's
//! size, and its outer proof's time, size and verification (the
//! verifier's build of the circuit, from the statements alone, included).
//!
//! ```sh
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-recursion --example verify_aggregates -- 64 2
//! ```
//!
//! `SIGAGG_TRACE=info` prints the provers' phases.

use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use sigagg_prover::skip_stark::{SkipProof, skip_for};
use sigagg_prover::{Settings, StarkProof};
use sigagg_recursion::child::{self, ChildStatement, NativeProof, ProofShape, ProofWires};
use sigagg_recursion::whir::{PathOracle, native_paths, no_paths};
use sigagg_recursion::{Circuit, CircuitBuilder, CircuitProof, Ext, prove, security_level, verify};
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::{prove as aggregate, testing};
use sigagg_xmss_agg::air::AggAir;
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement, system, trace};

/// One child: its statement's tables, heights, seed, and (the prover's)
/// proof values and paths.
struct Child {
    airs: Vec<AggAir>,
    log_heights: Vec<usize>,
    seed: Vec<u8>,
    values: Arc<Vec<Ext>>,
    paths: PathOracle,
}

fn body(stark: &StarkProof) -> &NativeProof {
    match stark {
        StarkProof::Skip(SkipProof::Poseidon2(body)) => body.proof(),
        _ => panic!("a whir-skip-poseidon2 proof"),
    }
}

/// The circuit verifying every child; `prover` gives the advice.
fn circuit(children: &[Child], settings: &sigagg_prover::WhirSettings, prover: bool) -> Circuit {
    let mut b = CircuitBuilder::new();
    for c in children {
        let airs: Vec<&AggAir> = c.airs.iter().collect();
        let statement = ChildStatement {
            airs: &airs,
            log_heights: &c.log_heights,
            skip: skip_for(&c.log_heights),
            seed: &c.seed,
            settings,
        };
        let shape = ProofShape::of(&statement).expect("a shape");
        let wires = ProofWires::advice(&mut b, &shape, prover.then(|| c.values.clone()));
        let paths = if prover { c.paths.clone() } else { no_paths() };
        child::verify(&mut b, &statement, &wires, &paths).expect("a verifier circuit");
    }
    b.build()
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
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(64, |a| a.parse().expect("N"));
    let count: usize = args.next().map_or(2, |a| a.parse().expect("C"));
    let settings = Settings::WHIR_SKIP_POSEIDON2;
    let Settings::Skip(whir) = settings else { unreachable!() };
    let message = *b"consensus message signed by all!";
    let epoch = 7;
    let mut children = Vec::new();
    for i in 0..count {
        let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
            .into_par_iter()
            .map(|_| {
                let (pk, sig) =
                    single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), epoch, &message).unwrap();
                (AggregateEntry { public_key: pk, epoch, message }, sig)
            })
            .unzip();
        let statement = AggregateStatement::new(entries).unwrap();
        let t = Instant::now();
        let proof = aggregate(&settings, &statement, &signatures).unwrap();
        let level = sigagg_xmss_agg::security::security_level(&settings, n);
        println!(
            "child {i}: {n} signatures proven in {:.2?}, {} bytes, {:.2} proven bits",
            t.elapsed(),
            proof.to_bytes().len(),
            level.proven_bits
        );
        let native = body(&proof.stark);
        children.push(Child {
            airs: testing::statement_airs(&settings, &statement),
            log_heights: trace::log_heights(&settings, statement.padded_len()),
            seed: system::transcript_seed(&settings, &statement.digest()),
            values: Arc::new(child::values(native)),
            paths: native_paths(&native.opening),
        });
    }
    let t = Instant::now();
    let merge = circuit(&children, &whir, true);
    let built = t.elapsed();
    let levels: usize = merge.paths().iter().map(|p| p.bits.len()).sum();
    println!(
        "verifier circuit of {count} children: {} wires, {} arithmetic rows, {} permutations, {} path levels (built in {built:.2?})",
        merge.num_wires(),
        merge.rows().len(),
        merge.perms().len(),
        levels
    );
    let t = Instant::now();
    merge.witness(&[]).expect("the children verify");
    println!("witness in {:.2?}", t.elapsed());
    let t = Instant::now();
    let outer = prove(&settings, &merge, &[]).expect("an outer proof");
    let proved = t.elapsed();
    let bytes = outer.to_bytes();
    let level = security_level(&settings, &merge, &[]).expect("a level");
    println!(
        "outer proof: {proved:.2?}, {} bytes, {:.2} proven bits ({})",
        bytes.len(),
        level.proven_bits,
        level.proven_binding
    );
    let t = Instant::now();
    let verifier_build = circuit(&children, &whir, false);
    let rebuilt = t.elapsed();
    let decoded = CircuitProof::from_bytes(&bytes).unwrap();
    let t = Instant::now();
    verify(&settings, &verifier_build, &[], &decoded).expect("the outer proof verifies");
    println!("verified in {:.2?} (the circuit rebuilt from the statements in {rebuilt:.2?})", t.elapsed());
}
