//! Aggregates N freshly made Seed001 signatures on one message and verifies
//! the proof, printing the time of each step. Settings go by name
//! (`sigagg_xmss_agg::named`; fast when the name is unknown), changed by
//! the environment variables of `testing::settings_from_env`. `SIGAGG_VERIFY_PARTS=K` times a leanSig
//! verification's parts K more times (decoding, the statement's tables, its digest, the whole).
//!
//! ```sh
//! cargo run --release -p sigagg-xmss-agg --example aggregate -- 1024 fast
//! SIGAGG_SET=lean-sig-prod cargo run --release -p sigagg-xmss-agg --example aggregate -- 1550 whir-skip
//! SIGAGG_SET=lean-sig-prod SIGAGG_VERIFY_PARTS=5 cargo run --release -p sigagg-xmss-agg --example aggregate -- 8192 whir-skip
//! ```

use std::time::Instant;

use rayon::prelude::*;
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::{prove as aggregate, verify};
use sigagg_xmss_agg::{AggregateEntry as Entry, AggregateStatement as Statement, Proof, Settings};

/// The allocator of the CLI and the bindings (transparent huge pages on
/// large buffers), so that these figures compare with the benchmarks'.
#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

fn main() {
    sigagg_testkit::trace_from_env();
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(64, |a| a.parse().expect("N"));
    let named = args.next().and_then(|name| name.parse().ok()).map(sigagg_xmss_agg::settings);
    let settings = sigagg_xmss_agg::aggregate::testing::settings_from_env(named.unwrap_or(Settings::FAST));
    if std::env::var("SIGAGG_SET").is_ok_and(|s| s == "lean-sig-prod") {
        return lean_sig_prod(n, &settings);
    }
    let message = *b"consensus message signed by all!";
    let epoch = 1234;
    let t = Instant::now();
    let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
        .into_par_iter()
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), epoch, &message).unwrap();
            (Entry { public_key: pk, epoch, message }, sig)
        })
        .unzip();
    println!("{n} signatures made in {:.2?}", t.elapsed());
    let statement = Statement::new(entries).unwrap();
    let t = Instant::now();
    let proof = aggregate(&settings, &statement, &signatures).unwrap();
    let prove = t.elapsed();
    let bytes = proof.to_bytes();
    println!("proved in {prove:.2?} ({:.0} sig/s), {} bytes", n as f64 / prove.as_secs_f64(), bytes.len());
    for (part, len) in proof.stark.size_breakdown() {
        println!("  {part}: {len}");
    }
    let t = Instant::now();
    let proof = Proof::from_bytes(&bytes).unwrap();
    let decode = t.elapsed();
    verify(&settings, &statement, &proof).unwrap();
    println!("decoded and verified in {:.2?} (decoding {decode:.2?})", t.elapsed());
    let level = sigagg_xmss_agg::security::security_level(&settings, n);
    println!(
        "backend {}: proven {:.1} bits ({}), conjectured {:.1}",
        settings.backend().name(),
        level.proven_bits,
        level.proven_binding,
        level.conjectured_bits
    );
}

/// The same for LeanSigProd signatures (`sigagg_xmss_agg::leansig`).
fn lean_sig_prod(n: usize, settings: &Settings) {
    use sigagg_xmss::LeanSigProd;
    use sigagg_xmss_agg::leansig::aggregate as lean;
    let message = *b"consensus message signed by all!";
    let epoch = 1234;
    let t = Instant::now();
    let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
        .into_par_iter()
        .map(|_| {
            let (pk, sig) =
                single_epoch_key_and_signature::<LeanSigProd, _>(&mut rand::rng(), epoch, &message).unwrap();
            (Entry { public_key: pk, epoch, message }, sig)
        })
        .unzip();
    println!("{n} signatures made in {:.2?}", t.elapsed());
    let statement = Statement::from_entries(entries).unwrap();
    let t = Instant::now();
    let proof = lean::prove(settings, &statement, &signatures).unwrap();
    let prove = t.elapsed();
    let bytes = proof.to_bytes();
    println!("proved in {prove:.2?} ({:.0} sig/s), {} bytes", n as f64 / prove.as_secs_f64(), bytes.len());
    permutations("proving");
    let t = Instant::now();
    lean::verify(settings, &statement, &Proof::from_bytes(&bytes).unwrap()).unwrap();
    println!("decoded and verified in {:.2?}", t.elapsed());
    permutations("verifying");
    let level = lean::security_level::<LeanSigProd>(settings, n);
    println!(
        "backend {} over {:?}: proven {:.2} bits ({}), conjectured {:.1}",
        settings.backend().name(),
        settings.merkle(),
        level.proven_bits,
        level.proven_binding,
        level.conjectured_bits
    );
    if let Ok(rounds) = std::env::var("SIGAGG_VERIFY_PARTS") {
        for _ in 0..rounds.parse().unwrap_or(3) {
            let t = Instant::now();
            let proof = Proof::from_bytes(&bytes).unwrap();
            let decode = t.elapsed();
            let t = Instant::now();
            let airs = lean::airs(settings, &statement);
            let airs_t = t.elapsed();
            let t = Instant::now();
            let digest = statement.digest();
            let digest_t = t.elapsed();
            let t = Instant::now();
            lean::verify(settings, &statement, &proof).unwrap();
            println!("decode {decode:.2?}, airs {airs_t:.2?}, digest {digest_t:.2?}, verify {:.2?}", t.elapsed());
            drop((airs, digest));
        }
    }
}

/// With the feature `count-permutations`, prints the Poseidon2
/// permutations (trees, transcript) run since the last call.
fn permutations(phase: &str) {
    #[cfg(feature = "count-permutations")]
    {
        let (trees, transcript) = sigagg_prover::config::counted::take();
        println!("Poseidon2 permutations {phase}: {trees} in trees, {transcript} in the transcript");
    }
    let _ = phase;
}
