//! `sigagg bench xmss`: key generation, signing and verification of many
//! XMSS keys of one parameter set.

use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use sigagg_bytes::Scheme;
use sigagg_xmss::{LeanSigProd, ParameterSet, PublicKey, SecretKey, Seed001, Signature, Test, keygen as xmss_keygen};

use crate::args::{self, XMSS};
use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct BenchArgs {
    /// Parameter set.
    #[arg(long, value_parser = args::schemes(XMSS), default_value = "seed001")]
    pub scheme: Scheme,
    /// Number of keys.
    #[arg(long, default_value_t = 16)]
    pub n: usize,
    /// Epochs each key activates (minimum: two bottom trees).
    #[arg(long, default_value_t = 1)]
    pub num_epochs: u64,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

pub fn bench(args: &BenchArgs) -> CliResult {
    match args.scheme {
        Scheme::Seed001 => bench_for::<Seed001>(args),
        Scheme::LeanSigProd => bench_for::<LeanSigProd>(args),
        Scheme::Test => bench_for::<Test>(args),
        other => Err(CliError::usage(format!("bench xmss: {} is not an XMSS set", other.name()))),
    }
}

fn bench_for<S: ParameterSet>(args: &BenchArgs) -> CliResult {
    let n = args.n;
    let message = [0x5a; 32];
    let bar = io::progress(n as u64, "keygen");
    let t = Instant::now();
    let mut keys: Vec<(PublicKey<S>, SecretKey<S>)> = (0..n)
        .into_par_iter()
        .map(|_| {
            let pair = xmss_keygen::<S, _>(&mut rand::rng(), 0, args.num_epochs).expect("valid default window");
            bar.inc(1);
            pair
        })
        .collect();
    let keygen_s = t.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let t = Instant::now();
    let sigs: Vec<Signature<S>> = keys
        .par_iter_mut()
        .map(|(_, sk)| sk.sign(1, &message).map_err(CliError::rejected))
        .collect::<Result<_, _>>()?;
    let sign_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let valid =
        keys.par_iter().zip(&sigs).filter(|((pk, _), sig)| sigagg_xmss::verify(pk, 1, &message, sig).is_ok()).count();
    let verify_s = t.elapsed().as_secs_f64();
    if valid != n {
        return Err(CliError::rejected(format!("{} of {n} signatures failed to verify", n - valid)));
    }
    io::print_json(&json!({
        "bench": "xmss",
        "scheme": S::NAME,
        "n": n,
        "activated_epochs_per_key": keys.first().map(|(_, sk)| sk.activation_interval().end - sk.activation_interval().start),
        "threads": io::threads(),
        "keygen_s": keygen_s,
        "sign_s": sign_s,
        "verify_s": verify_s,
        "keygen_per_key_ms": 1e3 * keygen_s / n as f64,
        "sign_per_sig_us": 1e6 * sign_s / n as f64,
        "verify_per_sig_us": 1e6 * verify_s / n as f64,
        "signature_bytes": Signature::<S>::SSZ_LEN,
        "public_key_bytes": PublicKey::<S>::SSZ_LEN,
    }));
    Ok(())
}
