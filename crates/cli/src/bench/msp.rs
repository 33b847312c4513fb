//! `sigagg bench msp`: MSP.B aggregation (Mithril weights), one scalar
//! multiplication per point versus one MSM.

use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use sigagg_bls::msp::{self, DST_MSP, MspSignature, MspSigningKey, MspVerificationKey};

use crate::io::{self, CliError, CliResult};

fn rejected(e: impl std::fmt::Display) -> CliError {
    CliError::rejected(e)
}

/// The median of `v` (the middle run of repeated timings).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

#[derive(Args)]
pub struct BenchArgs {
    /// Number of signers.
    #[arg(long, default_value_t = 1024)]
    pub n: usize,
    /// Times each aggregation is repeated (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub repeats: usize,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

pub fn bench(args: &BenchArgs) -> CliResult {
    let n = args.n;
    if n < 2 {
        return Err(CliError::usage("--n must be at least 2 (one signature is not weighted)"));
    }
    let msg = b"mithril checkpoint message";
    let t = Instant::now();
    let sks: Vec<MspSigningKey> = (0..n)
        .into_par_iter()
        .map(|i| {
            let mut ikm = [0x42u8; 32];
            ikm[..8].copy_from_slice(&(i as u64).to_le_bytes());
            MspSigningKey::from_key_material(&ikm).expect("32 bytes of key material")
        })
        .collect();
    let vks: Vec<MspVerificationKey> = sks.par_iter().map(MspSigningKey::verification_key).collect();
    let sigs: Vec<MspSignature> = sks.par_iter().map(|sk| sk.sign(msg)).collect();
    let setup_s = t.elapsed().as_secs_f64();

    let repeats = args.repeats.max(1);
    let time = |f: &dyn Fn() -> Result<(MspVerificationKey, MspSignature), msp::MspError>| {
        let mut runs = Vec::with_capacity(repeats);
        let mut out = None;
        for _ in 0..repeats {
            let t = Instant::now();
            let r = f();
            runs.push(t.elapsed().as_secs_f64());
            out = Some(r);
        }
        (median(runs), out.expect("at least one run"))
    };
    let (weights_s, _) = {
        let mut runs = Vec::new();
        for _ in 0..repeats {
            let t = Instant::now();
            std::hint::black_box(msp::weights(&sigs));
            runs.push(t.elapsed().as_secs_f64());
        }
        (median(runs), ())
    };
    let (per_point_s, per_point) = time(&|| msp::aggregate_per_point(&vks, &sigs));
    let (msm_s, msm) = time(&|| msp::aggregate(&vks, &sigs));
    let per_point = per_point.map_err(rejected)?;
    let (ivk, mu) = msm.map_err(rejected)?;
    if per_point != (ivk, mu) {
        return Err(rejected("per-point and MSM aggregates differ"));
    }
    let t = Instant::now();
    msp::verify_aggregated(msg, DST_MSP, &ivk, &mu).map_err(rejected)?;
    let verify_s = t.elapsed().as_secs_f64();
    io::print_json(&json!({
        "bench": "msp",
        "n": n,
        "threads": io::threads(),
        "setup_s": setup_s,
        "weights_ms": 1e3 * weights_s,
        "per_point_ms": 1e3 * per_point_s,
        "msm_ms": 1e3 * msm_s,
        "speedup": per_point_s / msm_s,
        "verify_aggregated_ms": 1e3 * verify_s,
        "note": "aggregation = weights (Blake2b-128, Mithril byte layout) + ivk in G2 + mu in G1 with 128-bit weights; per-point: one scalar multiplication per key and per signature then a sum; msm: blst Pippenger, single-threaded calls",
        "ivk": hex::encode(ivk.to_bytes()),
        "mu": hex::encode(mu.to_bytes()),
    }));
    Ok(())
}
