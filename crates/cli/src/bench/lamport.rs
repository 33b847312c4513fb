//! `sigagg lamport bench`: key generation, signing and verification of
//! many Lamport+ keys of one parameter set.

use std::time::Instant;

use clap::Args;
use serde_json::json;
use sigagg_bytes::Scheme;
use sigagg_lamport::{LamportPlus, LamportPlusMined, ParameterSet, PublicKey, SecretKey, Signature};

use crate::args::{self, LAMPORT};
use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct BenchArgs {
    /// Parameter set.
    #[arg(long, value_parser = args::schemes(LAMPORT), default_value = "lamport-plus")]
    pub scheme: Scheme,
    /// Number of keys.
    #[arg(long, default_value_t = 256)]
    pub n: usize,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

pub fn bench(args: &BenchArgs) -> CliResult {
    match args.scheme {
        Scheme::LamportPlus => bench_for::<LamportPlus>(args),
        Scheme::LamportPlusMined => bench_for::<LamportPlusMined>(args),
        other => Err(CliError::usage(format!("lamport bench: {} is not a Lamport+ set", other.name()))),
    }
}

fn bench_for<S: ParameterSet>(args: &BenchArgs) -> CliResult {
    let n = args.n;
    if n == 0 {
        return Err(CliError::usage("--n must be at least 1"));
    }
    let messages: Vec<Vec<u8>> =
        (0..n as u64).map(|i| [b"bench message ".as_slice(), &i.to_le_bytes()].concat()).collect();

    let t = Instant::now();
    let (pks, mut sks): (Vec<_>, Vec<_>) = sigagg_lamport::keygen_many::<S, _>(&mut rand::rng(), n).into_iter().unzip();
    let keygen_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let sigs = sigagg_lamport::sign_many(&mut sks, &messages).map_err(CliError::rejected)?;
    let sign_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    sigagg_lamport::verify_many(&pks, &messages, &sigs).map_err(CliError::rejected)?;
    let verify_s = t.elapsed().as_secs_f64();

    // One message signed by every key: mined once, then signed with the counter.
    let (_, mut fresh): (Vec<_>, Vec<_>) = sigagg_lamport::keygen_many::<S, _>(&mut rand::rng(), n).into_iter().unzip();
    let t = Instant::now();
    sigagg_lamport::sign_all(&mut fresh, b"one message for all").map_err(CliError::rejected)?;
    let sign_all_s = t.elapsed().as_secs_f64();

    // Latency of single calls on this thread (the sponge is not lane-packed here).
    let k = n.min(64);
    let t = Instant::now();
    let singles: Vec<_> = (0..k).map(|i| sigagg_lamport::keygen_from_seed::<S>([i as u8; 32]).0).collect();
    let keygen_one_us = 1e6 * t.elapsed().as_secs_f64() / k as f64;
    drop(singles);
    let t = Instant::now();
    for i in 0..k {
        sigagg_lamport::verify(&pks[i], &messages[i], &sigs[i]).map_err(CliError::rejected)?;
    }
    let verify_one_us = 1e6 * t.elapsed().as_secs_f64() / k as f64;

    let set_bits: usize = sigs
        .iter()
        .zip(&messages)
        .map(|(s, m)| sigagg_lamport::codeword::<S>(m, s.counter()).map(|c| c.ones()).unwrap_or(0))
        .sum();
    io::print_json(&json!({
        "bench": "lamport",
        "scheme": S::NAME,
        "n": n,
        "threads": io::threads(),
        "keygen_s": keygen_s,
        "sign_s": sign_s,
        "verify_s": verify_s,
        "sign_same_message_s": sign_all_s,
        "keygen_per_key_us": 1e6 * keygen_s / n as f64,
        "sign_per_sig_us": 1e6 * sign_s / n as f64,
        "verify_per_sig_us": 1e6 * verify_s / n as f64,
        "keygen_one_us": keygen_one_us,
        "verify_one_us": verify_one_us,
        "num_subkeys": S::NUM_SUBKEYS,
        "mining_bits": S::MINING_BITS,
        "mean_set_bits": set_bits as f64 / n as f64,
        "permutations_per_verify": { "width16_mean": set_bits as f64 / n as f64, "width24": S::NUM_SUBKEYS / 2 },
        "signature_bytes": Signature::<S>::ENCODED_LEN,
        "public_key_bytes": PublicKey::<S>::ENCODED_LEN,
        "secret_key_bytes": SecretKey::<S>::ENCODED_LEN,
        "classical_security_bits": S::CLASSICAL_SECURITY_BITS,
        "quantum_security_bits": S::QUANTUM_SECURITY_BITS,
    }));
    Ok(())
}
