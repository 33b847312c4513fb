//! `sigagg bench mithril`: Mithril STM's native concatenation certificate
//! (`sigagg-mithril`): key generation, registration, signing by every
//! party, the clerk's aggregation, the certificate's size and its
//! verification. The succinct certificate (`prove_s`, `proof_bytes`) does
//! not exist yet and is not measured.

use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use sigagg_mithril::{
    AggregateSignature, AggregateVerificationKey, Clerk, KeyRegistration, MithrilError, Parameters, Signer, SigningKey,
    SingleSignature, VerificationKeyPop,
};

use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct BenchArgs {
    /// Distinct lottery indices a certificate needs.
    #[arg(long, default_value_t = 1944)]
    pub k: u64,
    /// Lottery indices each signer tries.
    #[arg(long, default_value_t = 16948)]
    pub m: u64,
    /// Lottery parameter phi_f (mainnet 0.2).
    #[arg(long, default_value_t = 0.2)]
    pub phi_f: f64,
    /// Registered parties; every one signs. Stakes are deterministic,
    /// pseudo-random in 1..=1000.
    #[arg(long, default_value_t = 3000)]
    pub n: usize,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

/// Party `i`'s stake: splitmix64 of `i`, in 1..=1000.
fn stake(i: usize) -> u64 {
    let mut z = (i as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    1 + (z ^ (z >> 31)) % 1000
}

fn rejected(e: MithrilError) -> CliError {
    CliError::rejected(e)
}

pub fn bench(a: &BenchArgs) -> CliResult {
    if a.n == 0 || a.k == 0 || a.k > a.m || !(a.phi_f > 0.0 && a.phi_f <= 1.0) {
        return Err(CliError::usage("need n >= 1, 1 <= k <= m and 0 < phi_f <= 1"));
    }
    let params = Parameters { m: a.m, k: a.k, phi_f: a.phi_f };
    let msg = b"mithril bench: certificate of one snapshot";

    let t = Instant::now();
    let keys: Vec<(SigningKey, VerificationKeyPop)> = (0..a.n)
        .into_par_iter()
        .map(|i| {
            let mut ikm = [0x4du8; 32];
            ikm[..8].copy_from_slice(&(i as u64).to_le_bytes());
            let sk = SigningKey::from_key_material(&ikm).map_err(rejected)?;
            let vk = sk.verification_key_pop();
            Ok((sk, vk))
        })
        .collect::<Result<_, CliError>>()?;
    let keygen_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let mut registration = KeyRegistration::new();
    for (i, (_, vk)) in keys.iter().enumerate() {
        registration.register(stake(i), vk).map_err(rejected)?;
    }
    let closed = registration.close().map_err(rejected)?;
    let avk_bytes = closed.aggregate_verification_key().to_bytes();
    let register_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let outcomes: Vec<Option<SingleSignature>> = keys
        .into_par_iter()
        .enumerate()
        .map(|(i, (sk, _))| match Signer::new(sk, stake(i), &closed, params)?.sign(msg) {
            Ok(sig) => Ok(Some(sig)),
            Err(MithrilError::NoIndexWon) => Ok(None),
            Err(e) => Err(e),
        })
        .collect::<Result<_, MithrilError>>()
        .map_err(rejected)?;
    let sign_s = t.elapsed().as_secs_f64();
    let sigs: Vec<SingleSignature> = outcomes.into_iter().flatten().collect();
    let won: usize = sigs.iter().map(|s| s.indexes.len()).sum();

    let t = Instant::now();
    let proof = Clerk::new(params, closed).aggregate(&sigs, msg).map_err(|e| {
        CliError::rejected(format!(
            "{e} ({} of {} parties won {won} indices in all): raise --m or --phi-f, or lower --k",
            sigs.len(),
            a.n
        ))
    })?;
    let cert_bytes = AggregateSignature::Concatenation(proof).to_bytes();
    let aggregate_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let avk = AggregateVerificationKey::from_bytes(&avk_bytes).map_err(rejected)?;
    let cert = AggregateSignature::from_bytes(&cert_bytes).map_err(rejected)?;
    cert.verify(msg, &avk, &params).map_err(rejected)?;
    let verify_s = t.elapsed().as_secs_f64();
    let AggregateSignature::Concatenation(proof) = &cert;

    io::print_json(&json!({
        "bench": "mithril",
        "certificate": "concatenation",
        "k": a.k,
        "m": a.m,
        "phi_f": a.phi_f,
        "n": a.n,
        "total_stake": avk.total_stake,
        "threads": io::threads(),
        "keygen_s": keygen_s,
        "register_s": register_s,
        "sign_s": sign_s,
        "signers_won": sigs.len(),
        "indices_won": won,
        "aggregate_s": aggregate_s,
        "certificate_signatures": proof.signatures.len(),
        "certificate_bytes": cert_bytes.len(),
        "verify_s": verify_s,
        "peak_rss_bytes": io::peak_rss_bytes(),
        "note": "native concatenation certificate only: the succinct certificate (prove_s, proof_bytes) does not exist yet; keygen and signing run on all threads, registration (proofs of possession) on one; verify_s includes decoding",
    }));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_on_small_sizes_and_refuses_impossible_ones() {
        bench(&BenchArgs { k: 4, m: 20, phi_f: 0.9, n: 5, json: true }).unwrap();
        // k above what m allows, and more indices than 5 parties can win.
        assert!(!bench(&BenchArgs { k: 21, m: 20, phi_f: 0.9, n: 5, json: true }).unwrap_err().rejected);
        assert!(bench(&BenchArgs { k: 20, m: 20, phi_f: 0.05, n: 5, json: true }).unwrap_err().rejected);
    }

    #[test]
    fn stakes_are_in_range_and_not_all_equal() {
        let s: Vec<u64> = (0..100).map(stake).collect();
        assert!(s.iter().all(|&x| (1..=1000).contains(&x)));
        assert!(s.iter().any(|&x| x != s[0]));
    }
}
