//! Development timing of committee, prover and verifier at one size:
//! `cargo run --release -p sigagg-bls-cert --example timing -- N T`.
use std::time::Instant;

use rayon::prelude::*;
use sigagg_bls::bitfield::Bitfield;
use sigagg_bls::{KeyRegistry, SecretKey, aggregate};
use sigagg_bls_cert::{Committee, Mode, Prover, Setup, Signed, Threshold, verify_allowing_insecure_setup as verify};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let (n, t) = (args[0], args[1]);
    let sks: Vec<SecretKey> = (0..n)
        .into_par_iter()
        .map(|i| {
            let mut ikm = [0u8; 32];
            ikm[..8].copy_from_slice(&(i as u64).to_le_bytes());
            SecretKey::from_key_material(&ikm).unwrap()
        })
        .collect();
    let entries: Vec<_> = sks.par_iter().map(|s| (s.public_key(), s.prove_possession())).collect();
    let registry = KeyRegistry::from_keys_with_proofs(&entries).unwrap();
    let msg = [7u8; 32];
    let mut bits = Bitfield::new(n);
    for i in 0..t {
        bits.set(i * n / t).unwrap();
    }
    let sigs: Vec<_> = bits.ones().collect::<Vec<_>>().par_iter().map(|&i| sks[i].sign(&msg)).collect();
    let sig = aggregate(&sigs).unwrap();
    let setup =
        Setup::insecure_development(sigagg_bls_cert::domain::Domain::with_at_least(n + 1).unwrap().size()).unwrap();
    for weights in [None, Some((0..n as u64).map(|i| 1 + i % 7).collect::<Vec<_>>())] {
        let stake = weights.is_some();
        let s = Instant::now();
        let committee = Committee::new(&setup, registry.clone(), weights).unwrap();
        let committee_s = s.elapsed().as_secs_f64();
        let s = Instant::now();
        let prover = Prover::new(&setup, &committee).unwrap();
        let prover_s = s.elapsed().as_secs_f64();
        for mode in [Mode::Accountable, Mode::Counting] {
            let s = Instant::now();
            let cert = prover.certify(&msg, Signed::Aggregate { signers: &bits, signature: &sig }, mode).unwrap();
            let prove_s = s.elapsed().as_secs_f64();
            let bytes = cert.to_bytes();
            let mut v = Vec::new();
            for _ in 0..5 {
                let s = Instant::now();
                let cert = sigagg_bls_cert::Certificate::from_bytes(&bytes).unwrap();
                verify(committee.key(), &cert, &msg, &Threshold::signers(t as u64)).unwrap();
                v.push(s.elapsed().as_secs_f64());
            }
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let mut d = Vec::new();
            let mut only = Vec::new();
            for _ in 0..5 {
                let s = Instant::now();
                let c = sigagg_bls_cert::Certificate::from_bytes(&bytes).unwrap();
                d.push(s.elapsed().as_secs_f64());
                let s = Instant::now();
                verify(committee.key(), &c, &msg, &Threshold::signers(t as u64)).unwrap();
                only.push(s.elapsed().as_secs_f64());
            }
            d.sort_by(|a, b| a.partial_cmp(b).unwrap());
            only.sort_by(|a, b| a.partial_cmp(b).unwrap());
            println!("   decode {:.2} ms, verify-only {:.2} ms", d[2] * 1e3, only[2] * 1e3);
            println!(
                "n={n} t={t} stake={stake} {mode:?}: committee {committee_s:.3}s prover-key {prover_s:.3}s prove {prove_s:.3}s verify {:.2}ms proof {}B cert {}B",
                v[2] * 1e3,
                cert.proof_len(),
                cert.to_bytes().len()
            );
        }
    }
}
