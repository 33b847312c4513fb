//! Proves and verifies one aggregate or threshold proof, printing the time
//! of each step (a development aid; `sigagg bench lamport-agg|threshold` is
//! the benchmark).
//!
//! ```sh
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-lamport-agg --example prove -- aggregate 1024 fast plain
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-lamport-agg --example prove -- threshold 1024 compact mined
//! ```

use std::time::Instant;

use sigagg_lamport::{GroupTree, LamportPlus, LamportPlusMined, ParameterSet, keygen_from_seeds, sign_all, sign_many};
use sigagg_lamport_agg::proof::StarkProof;
use sigagg_lamport_agg::security::{ProofShape, security_level};
use sigagg_lamport_agg::{AggregateEntry, AggregateStatement, Disclosure, Proof, Signer, ThresholdStatement};
use sigagg_lamport_agg::{aggregate, named, threshold};
use sigagg_prover::fri::FriProof;

fn run<S: ParameterSet>(mode: &str, n: usize, settings: sigagg_lamport_agg::Settings) {
    // `SEED` varies the keys (and so the transcript), e.g. to sample the
    // spread of proof sizes over statements of one shape.
    let seed = std::env::var("SEED").ok().and_then(|s| s.parse::<u8>().ok()).unwrap_or(9);
    let seeds: Vec<[u8; 32]> = (0..n as u64)
        .map(|i| {
            let mut s = [seed; 32];
            s[..8].copy_from_slice(&i.to_le_bytes());
            s
        })
        .collect();
    let t = Instant::now();
    let (pks, mut sks): (Vec<_>, Vec<_>) = keygen_from_seeds::<S>(&seeds).expect("distinct seeds").into_iter().unzip();
    eprintln!("keys: {:.2?}", t.elapsed());
    let (proof, bytes, prove, shape) = if mode == "aggregate" {
        let msgs: Vec<Vec<u8>> = (0..n).map(|i| format!("message {i}").into_bytes()).collect();
        let t = Instant::now();
        let sigs = sign_many(&mut sks, &msgs).unwrap();
        eprintln!("signatures: {:.2?}", t.elapsed());
        let entries = pks.iter().zip(msgs).map(|(pk, m)| AggregateEntry { public_key: *pk, message: m }).collect();
        let st = AggregateStatement::new(entries).unwrap();
        let t = Instant::now();
        let proof = aggregate::prove(&settings, &st, &sigs).unwrap();
        let prove = t.elapsed();
        let bytes = proof.to_bytes();
        let t = Instant::now();
        aggregate::verify(&settings, &st, &Proof::from_bytes(&bytes).unwrap()).unwrap();
        eprintln!("verify: {:.2?}", t.elapsed());
        (proof, bytes, prove, ProofShape::Aggregate { signatures: n })
    } else {
        let tree = GroupTree::new(&pks).unwrap();
        // `MESSAGE` overrides the signed message (e.g. the threshold bench's
        // "bench threshold message", whose codeword fits the main table).
        let msg = std::env::var("MESSAGE").map_or(b"threshold message".to_vec(), String::into_bytes);
        let msg = msg.as_slice();
        let sigs = sign_all(&mut sks, msg).unwrap();
        let signers: Vec<Signer<S>> = (0..n)
            .map(|i| Signer { public_key: pks[i], signature: sigs[i].clone(), path: tree.prove(i as u32).unwrap() })
            .collect();
        let st = ThresholdStatement::new(tree.key(), msg.to_vec(), (2 * n as u32).div_ceil(3)).unwrap();
        let t = Instant::now();
        let proof = threshold::prove(&settings, &st, &signers, Disclosure::CountOnly).unwrap();
        let prove = t.elapsed();
        let bytes = proof.to_bytes();
        let t = Instant::now();
        threshold::verify(&settings, &st, &Proof::from_bytes(&bytes).unwrap()).unwrap();
        eprintln!("verify: {:.2?}", t.elapsed());
        (proof, bytes, prove, ProofShape::Threshold { signers: n, group_size: n as u32 })
    };
    for (part, len) in proof.stark.size_breakdown() {
        eprintln!("  {part}: {len}");
    }
    match &proof.stark {
        StarkProof::Fri(FriProof::Sha256(p)) => print_tables(p),
        StarkProof::Fri(FriProof::Sha256Trunc24(p)) => print_tables(p),
        StarkProof::Whir(_) | StarkProof::Skip(_) => {
            eprintln!("  table heights (log2): {:?}", proof.stark.degree_bits())
        }
    }
    let sec = security_level(&settings, S::NUM_SUBKEYS, shape);
    println!(
        "{mode} {} n={n} {}: prove {prove:.2?} ({:.0} sig/s), {} bytes, proven {:.1} bits, conjectured {:.1}",
        S::NAME,
        named::named(&settings).map_or("custom", named::Named::name),
        n as f64 / prove.as_secs_f64(),
        bytes.len(),
        sec.proven_bits,
        sec.conjectured_bits
    );
}

/// Each table's height and the columns every query opens, in base-field
/// elements (a LogUp column or quotient chunk is one extension element, 5
/// of them).
fn print_tables<SC: p3_uni_stark::StarkGenericConfig>(proof: &p3_batch_stark::BatchProof<SC>) {
    for (i, (inst, bits)) in proof.opened_values.instances.iter().zip(&proof.degree_bits).enumerate() {
        let base = &inst.base_opened_values;
        let quotient: usize = base.quotient_chunks.iter().map(Vec::len).sum();
        eprintln!(
            "  table {i}: 2^{bits} rows, main {} (also at the next row: {}), LogUp {}, quotient {}",
            base.trace_local.len(),
            base.trace_next.is_some(),
            inst.permutation_local.len(),
            quotient
        );
    }
}

/// The allocator of the CLI and the bindings (transparent huge pages on
/// large buffers), so that these figures compare with the benchmarks'.
#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

fn main() {
    sigagg_testkit::trace_from_env();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map_or("aggregate", String::as_str).to_string();
    let n: usize = args.get(1).map_or(64, |a| a.parse().expect("n"));
    let named = named::settings(args.get(2).map_or("fast", String::as_str).parse().expect("a settings name"));
    let settings = sigagg_prover::testing::settings_from_env(named);
    match args.get(3).map_or("plain", String::as_str) {
        "mined" => run::<LamportPlusMined>(&mode, n, settings),
        _ => run::<LamportPlus>(&mode, n, settings),
    }
}
