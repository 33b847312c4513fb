//! XMSS aggregation sub-commands: `bench xmss-agg` (and the demo's proof).

use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use sigagg_stark::security::security_level;
use sigagg_stark::{AggregateProof, Entry, Settings, Statement, aggregate, verify};
use sigagg_xmss::{Seed001, Signature, single_epoch_key_and_signature};

use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct BenchArgs {
    /// Number of signatures.
    #[arg(long, default_value_t = 1024)]
    pub n: usize,
    /// log2 of the blowup: 1 is the fast setting, 3 the compact one.
    #[arg(long, default_value_t = 1)]
    pub log_blowup: usize,
    /// Every signer signs its own message (default: one shared message, the consensus case).
    #[arg(long)]
    pub distinct_messages: bool,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

/// The named settings for a blowup.
pub fn settings_for(log_blowup: usize) -> Result<Settings, CliError> {
    match log_blowup {
        1 => Ok(Settings::FAST),
        3 => Ok(Settings::COMPACT),
        other => Err(CliError::usage(format!("--log-blowup {other}: use 1 (fast) or 3 (compact)"))),
    }
}

/// `n` genuine Seed001 key pairs and signatures, made quickly: each key's
/// tree has one real leaf (the signing epoch) and random siblings.
pub fn quick_signatures(n: usize, distinct: bool) -> (Statement, Vec<Signature<Seed001>>) {
    let epoch = 4242;
    let shared = *b"sigagg benchmark consensus root!";
    let bar = io::progress(n as u64, "sign");
    let (entries, sigs): (Vec<Entry>, Vec<Signature<Seed001>>) = (0..n)
        .into_par_iter()
        .map(|i| {
            let mut message = shared;
            if distinct {
                message[..8].copy_from_slice(&(i as u64).to_le_bytes());
            }
            let (public_key, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), epoch, &message)
                .expect("signing a fresh key succeeds");
            bar.inc(1);
            (Entry { public_key, epoch, message }, sig)
        })
        .unzip();
    bar.finish_and_clear();
    (Statement::new(entries).expect("valid statement"), sigs)
}

/// Peak resident memory of this process so far (Linux `VmHWM`), in bytes.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

pub fn bench(args: BenchArgs) -> CliResult {
    let settings = settings_for(args.log_blowup)?;
    if args.n == 0 || args.n > settings.max_signatures() {
        return Err(CliError::usage(format!("--n must be in 1..={}", settings.max_signatures())));
    }
    let (statement, sigs) = quick_signatures(args.n, args.distinct_messages);
    let rss_before = peak_rss_bytes();
    let t = Instant::now();
    let proof = aggregate(&settings, &statement, &sigs).map_err(CliError::rejected)?;
    let prove_s = t.elapsed().as_secs_f64();
    let peak = peak_rss_bytes();
    let bytes = proof.to_bytes();
    drop(proof);
    let t = Instant::now();
    let decoded = AggregateProof::from_bytes(&bytes).map_err(CliError::rejected)?;
    verify(&settings, &statement, &decoded).map_err(CliError::rejected)?;
    let verify_s = t.elapsed().as_secs_f64();
    let security = security_level(&settings, args.n);
    io::print_json(&json!({
        "bench": "xmss-agg",
        "scheme": "seed001",
        "n": args.n,
        "shared_message": !args.distinct_messages,
        "log_blowup": settings.log_blowup,
        "num_queries": settings.num_queries,
        "query_pow_bits": settings.query_pow_bits,
        "security_bits": security.proven_bits,
        "security_bits_conjectured": security.conjectured_bits,
        "threads": io::threads(),
        "prove_s": prove_s,
        "sigs_per_s": args.n as f64 / prove_s,
        "proof_bytes": bytes.len(),
        "verify_s": verify_s,
        "peak_rss_bytes": peak,
        "rss_before_prove_bytes": rss_before,
        "signature_setup": "one genuine leaf per key, other tree nodes random (single_epoch_key_and_signature)",
    }));
    Ok(())
}
