//! `sigagg bench cert`: one succinct BLS threshold certificate, beside the
//! native ATMS signature of the same statement.

use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use sigagg_bls::atms;
use sigagg_bls::bitfield::Bitfield;
use sigagg_bls::{KeyRegistry, PublicKey, SecretKey, Signature};
use sigagg_bls_cert::{Certificate, Committee, Prover, Setup, Signed, Threshold, verify_allowing_insecure_setup};

use crate::cert::{ModeArg, cert_error, mode_name, powers, rejected, setup_name};
use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct BenchArgs {
    /// Committee size.
    #[arg(long, default_value_t = 2001)]
    pub n: usize,
    /// Signers (and threshold); default two thirds of n, rounded up.
    #[arg(long)]
    pub t: Option<usize>,
    /// Certificate mode.
    #[arg(long, value_enum, default_value_t = ModeArg::Counting)]
    pub mode: ModeArg,
    /// Give the committee stake weights (1..=100) and prove the signers' stake.
    #[arg(long)]
    pub stake: bool,
    /// Times proving is repeated (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub repeats: usize,
    /// Times verification is repeated (the median is reported).
    #[arg(long, default_value_t = 15)]
    pub verify_repeats: usize,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

/// `bench cert`: one committee, one certificate, timed; the native ATMS
/// signature of the same statement beside it.
pub fn bench(a: &BenchArgs) -> CliResult {
    let n = a.n;
    let t = a.t.unwrap_or((2 * n).div_ceil(3));
    if n == 0 || t == 0 || t > n {
        return Err(CliError::usage(format!("need 1 <= t <= n (n = {n}, t = {t})")));
    }
    let msg = [0x5au8; 32];
    let bar = io::spinner("keys and signatures");
    let sks: Vec<SecretKey> = (0..n as u64)
        .into_par_iter()
        .map(|i| {
            let mut ikm = [0u8; 32];
            ikm[..8].copy_from_slice(&i.to_le_bytes());
            SecretKey::from_key_material(&ikm).expect("32 bytes of key material")
        })
        .collect();
    let keys: Vec<PublicKey> = sks.par_iter().map(SecretKey::public_key).collect();
    // Signers spread over the committee: i·n/t for i < t (distinct as t <= n).
    let members: Vec<usize> = (0..t).map(|i| i * n / t).collect();
    let pairs: Vec<(PublicKey, Signature)> = members.par_iter().map(|&i| (keys[i], sks[i].sign(&msg))).collect();
    let signature =
        sigagg_bls::aggregate(&pairs.iter().map(|(_, s)| *s).collect::<Vec<_>>()).map_err(CliError::usage)?;
    let mut signers = Bitfield::new(n);
    for &i in &members {
        signers.set(i).expect("members are below n");
    }
    let weights = a.stake.then(|| (0..n as u64).map(|i| 1 + (i * 7919) % 100).collect::<Vec<u64>>());
    let stake = weights.as_ref().map(|w| members.iter().map(|&i| w[i]).sum::<u64>());
    bar.finish_and_clear();

    let setup = Setup::insecure_development(powers(n)?).map_err(CliError::usage)?;
    let bar = io::spinner("proofs of possession");
    let entries: Vec<_> = sks.par_iter().zip(&keys).map(|(sk, pk)| (*pk, sk.prove_possession())).collect();
    let registry = KeyRegistry::from_keys_with_proofs(&entries).map_err(CliError::usage)?;
    bar.finish_and_clear();
    let start = Instant::now();
    let committee = Committee::new(&setup, registry, weights).map_err(cert_error)?;
    let committee_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let prover = Prover::new(&setup, &committee).map_err(cert_error)?;
    let prover_key_s = start.elapsed().as_secs_f64();

    let bar = io::progress(a.repeats as u64, "prove");
    io::reset_peak_rss();
    let mut prove_times = Vec::with_capacity(a.repeats);
    let mut cert = None;
    for _ in 0..a.repeats.max(1) {
        let start = Instant::now();
        let c = prover
            .certify(&msg, Signed::Aggregate { signers: &signers, signature: &signature }, a.mode.into())
            .map_err(cert_error)?;
        prove_times.push(start.elapsed().as_secs_f64());
        cert = Some(c);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let peak_rss_bytes = io::peak_rss_bytes();
    let cert = cert.expect("at least one repeat");
    let bytes = cert.to_bytes();
    let threshold = Threshold { signers: t as u64, stake };
    let verify_s = median_time(a.verify_repeats, || {
        let c = Certificate::from_bytes(&bytes).map_err(rejected)?;
        // The bench's committee is on the development setup (same cost).
        verify_allowing_insecure_setup(committee.key(), &c, &msg, &threshold).map(|_| ()).map_err(rejected)
    })?;

    // The native ATMS signature of the same statement (seed 000, section 1).
    let bar = io::spinner("native ATMS signature");
    let params = atms::pgen(t).map_err(CliError::usage)?;
    let avk = atms::akey(&keys).map_err(CliError::usage)?;
    let atms_sig = atms::asig(&params, &msg, &keys, &pairs).map_err(CliError::usage)?;
    let atms_bytes = atms_sig.to_bytes();
    bar.finish_and_clear();
    let atms_verify_s = median_time(a.verify_repeats, || {
        let s = atms::AtmsSignature::from_bytes(&atms_bytes).map_err(rejected)?;
        atms::aver(&params, &msg, &avk, &s).map_err(rejected)
    })?;

    io::print_json(&json!({
        "bench": "cert",
        "n": n,
        "t": t,
        "mode": mode_name(cert.mode()),
        "stake": stake,
        "threads": io::threads(),
        "setup": setup_name(true),
        "domain_size": committee.key().domain().size(),
        "committee_s": committee_s,
        "prover_key_s": prover_key_s,
        "prove_s": median(prove_times),
        "verify_s": verify_s,
        "proof_bytes": cert.proof_len(),
        "certificate_bytes": bytes.len(),
        "committee_key_bytes": committee.key().to_bytes().len(),
        "peak_rss_bytes": peak_rss_bytes,
        "atms_signature_bytes": atms_bytes.len(),
        "atms_verify_s": atms_verify_s,
    }));
    Ok(())
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn median_time(repeats: usize, mut run: impl FnMut() -> CliResult) -> Result<f64, CliError> {
    let mut times = Vec::with_capacity(repeats.max(1));
    for _ in 0..repeats.max(1) {
        let start = Instant::now();
        run()?;
        times.push(start.elapsed().as_secs_f64());
    }
    Ok(median(times))
}
