//! A merge, measured step by step: `C` children of `N` Seed001 signatures
//! each on one message, each proven under [`CHILD_SETTINGS`], merged into
//! one proof; prints each child's proof, the verifier circuit's size, the
//! merged proof's time, size and security, and its verification (the
//! circuit rebuilt from the statement included), then with a verifying
//! key. `sigagg bench merge` measures the same in JSON.
//!
//! ```sh
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-merge --example merge -- 64 2 [verifications]
//! ```
//!
//! `SIGAGG_TRACE=info` prints the provers' phases.

use std::time::Instant;

use rayon::prelude::*;
use sigagg_merge::{
    CHILD_SETTINGS, ChildHeader, ChildProof, MergeKey, MergeStatement, MergedProof, merge, security_level,
    verifier_circuit, verify, verify_with_key,
};
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::prove as aggregate;
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    sigagg_testkit::trace_from_env();
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(64), |a| a.parse())?;
    let count: usize = args.next().map_or(Ok(2), |a| a.parse())?;
    let verifications: usize = args.next().map_or(Ok(1), |a| a.parse())?;
    let (message, epoch) = (*b"consensus message signed by all!", 7);
    let mut statements = Vec::new();
    let mut proofs = Vec::new();
    for i in 0..count {
        let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
            .into_par_iter()
            .map(|_| {
                let (public_key, sig) =
                    single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), epoch, &message).unwrap();
                (AggregateEntry { public_key, epoch, message }, sig)
            })
            .unzip();
        let statement = AggregateStatement::new(entries)?;
        let t = Instant::now();
        let proof = aggregate(&CHILD_SETTINGS, &statement, &signatures)?;
        println!("child {i}: {n} signatures proven in {:.2?}, {} bytes", t.elapsed(), proof.to_bytes().len());
        statements.push(statement);
        proofs.push(ChildProof::from(proof));
    }
    let statement = MergeStatement::new(statements)?;
    let aggregates: Vec<ChildHeader> =
        statement.children().iter().map(|c| ChildHeader::Aggregate { signers: c.participants() as u32 }).collect();

    let t = Instant::now();
    let circuit = verifier_circuit(&statement, &aggregates, None)?;
    let levels: usize = circuit.paths().iter().map(|p| p.bits.len()).sum();
    println!(
        "verifier circuit of {count} children: {} wires, {} arithmetic rows, {} permutations, {} path levels (built in {:.2?})",
        circuit.num_wires(),
        circuit.rows().len(),
        circuit.perms().len(),
        levels,
        t.elapsed()
    );
    println!(
        "{} extension wires, {} base wires; {:?}",
        circuit.ext_wires().len(),
        circuit.base_wires().len(),
        circuit.census()
    );

    let settings = CHILD_SETTINGS;
    let t = Instant::now();
    let merged = merge(&settings, &statement, &proofs)?;
    let proved = t.elapsed();
    let bytes = merged.to_bytes();
    let level = security_level(&settings, &statement, &merged.children)?;
    println!(
        "merged proof: {proved:.2?} (the children's native verification included), {} bytes ({} deferred claims' values), {:.2} proven bits",
        bytes.len(),
        merged.claims.len(),
        level.proven_bits
    );
    for _ in 0..verifications {
        let t = Instant::now();
        verify(&settings, &statement, &MergedProof::from_bytes(&bytes)?)?;
        println!("verified in {:.2?} (the circuit rebuilt from the statement included)", t.elapsed());
    }
    let t = Instant::now();
    let key = MergeKey::new(&merged.children)?;
    println!("verifying key of the shape built in {:.2?}", t.elapsed());
    for _ in 0..verifications {
        let t = Instant::now();
        verify_with_key(&key, &settings, &statement, &MergedProof::from_bytes(&bytes)?)?;
        println!("verified with the key in {:.2?}", t.elapsed());
    }
    Ok(())
}
