//! Hash-based signature sub-commands: `keygen`, `sign`, `bench xmss`, and
//! single-signature checks for `sigagg verify`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rayon::prelude::*;
use serde_json::json;
use sigagg_xmss::{LeanSigProd, ParameterSet, PublicKey, SecretKey, Seed001, Signature, Test, keygen as xmss_keygen};

use crate::agg::MessageList;
use crate::io::{self, CliError, CliResult};

/// The XMSS parameter sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Scheme {
    /// Seed 001 / hash-sig: Poseidon2, lifetime 2^20, 78 chains of length 4.
    Seed001,
    /// leanSig production: Poseidon1, lifetime 2^32, 46 chains of length 8.
    LeanSigProd,
    /// Tiny insecure set for tests: lifetime 2^8.
    Test,
}

/// Runs `$body` with `$S` bound to the parameter set chosen by `$scheme`.
macro_rules! with_scheme {
    ($scheme:expr, $S:ident => $body:expr) => {
        match $scheme {
            Scheme::Seed001 => {
                type $S = Seed001;
                $body
            }
            Scheme::LeanSigProd => {
                type $S = LeanSigProd;
                $body
            }
            Scheme::Test => {
                type $S = Test;
                $body
            }
        }
    };
}

#[derive(Args)]
pub struct KeygenArgs {
    /// Parameter set.
    #[arg(long, value_enum, default_value = "seed001")]
    pub scheme: Scheme,
    /// First epoch the key must be able to sign.
    #[arg(long, default_value_t = 0)]
    pub activation_epoch: u64,
    /// Number of epochs the key must be able to sign (widened to whole bottom trees, at least two).
    #[arg(long, default_value_t = 1)]
    pub num_epochs: u64,
    /// Number of key pairs to generate (in parallel).
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// 32-byte hex seed for reproducible keys (default: the operating system's RNG).
    #[arg(long)]
    pub seed: Option<String>,
    /// Output prefix: writes PREFIX.pk and PREFIX.sk (PREFIX-i.* when --count > 1).
    #[arg(long)]
    pub out: PathBuf,
    /// Write hex text instead of raw bytes.
    #[arg(long)]
    pub hex: bool,
}

#[derive(Args)]
pub struct SignArgs {
    /// Parameter set.
    #[arg(long, value_enum, default_value = "seed001")]
    pub scheme: Scheme,
    /// Secret key file; it is updated (synced to disk, under a lock on
    /// `<sk>.lock`) before the signature is written.
    #[arg(long)]
    pub sk: PathBuf,
    /// Epoch to sign at.
    #[arg(long)]
    pub epoch: u32,
    /// The 32-byte message, as 64 hex digits.
    #[arg(long)]
    pub message: String,
    /// Signature output file (SSZ; hex text if it ends in .hex).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Parameter set.
    #[arg(long, value_enum, default_value = "seed001")]
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

/// Parses a 32-byte message given as hex.
pub fn parse_message32(arg: &str) -> Result<[u8; 32], CliError> {
    let bytes = io::parse_message(if arg.starts_with("0x") { arg.to_string() } else { format!("0x{arg}") }.as_str())?;
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| CliError::usage(format!("the message must be 32 bytes (64 hex digits), got {}", b.len())))
}

fn rng_from(seed: Option<&str>, index: usize) -> Result<StdRng, CliError> {
    Ok(match seed {
        None => rand::make_rng(),
        Some(hex_seed) => {
            let bytes = hex::decode(hex_seed.trim_start_matches("0x"))
                .map_err(|e| CliError::usage(format!("bad --seed: {e}")))?;
            let mut seed: [u8; 32] =
                bytes.try_into().map_err(|_| CliError::usage("--seed must be 32 bytes (64 hex digits)"))?;
            // Each key of a batch gets its own seed: the index is mixed into the last bytes.
            for (s, i) in seed[24..].iter_mut().zip((index as u64).to_le_bytes()) {
                *s ^= i;
            }
            StdRng::from_seed(seed)
        }
    })
}

fn key_paths(out: &Path, count: usize, i: usize, hex: bool) -> (PathBuf, PathBuf) {
    let base = if count == 1 { out.display().to_string() } else { format!("{}-{i}", out.display()) };
    let ext = if hex { ".hex" } else { "" };
    (PathBuf::from(format!("{base}.pk{ext}")), PathBuf::from(format!("{base}.sk{ext}")))
}

pub fn keygen(args: KeygenArgs) -> CliResult {
    with_scheme!(args.scheme, S => keygen_for::<S>(&args))
}

fn keygen_for<S: ParameterSet>(args: &KeygenArgs) -> CliResult {
    if args.count == 0 {
        return Err(CliError::usage("--count must be at least 1"));
    }
    let bar = io::progress(args.count as u64, "keygen");
    let results: Vec<CliResult> = (0..args.count)
        .into_par_iter()
        .map(|i| {
            let mut rng = rng_from(args.seed.as_deref(), i)?;
            let (pk, sk) =
                xmss_keygen::<S, _>(&mut rng, args.activation_epoch, args.num_epochs).map_err(CliError::usage)?;
            let (pk_path, sk_path) = key_paths(&args.out, args.count, i, args.hex);
            io::write_bytes(&sk_path, &zeroize::Zeroizing::new(sk.to_bytes()))?;
            io::write_bytes(&pk_path, &pk.to_bytes())?;
            bar.inc(1);
            Ok(())
        })
        .collect();
    bar.finish_and_clear();
    results.into_iter().collect::<CliResult>()?;
    eprintln!("wrote {} key pair(s) for {} with prefix {}", args.count, S::NAME, args.out.display());
    Ok(())
}

pub fn sign(args: SignArgs) -> CliResult {
    with_scheme!(args.scheme, S => sign_for::<S>(&args))
}

fn sign_for<S: ParameterSet>(args: &SignArgs) -> CliResult {
    let message = parse_message32(&args.message)?;
    // The used epoch is on disk (and the key locked against a concurrent
    // signer) before the signature exists anywhere.
    let (signature, next) = io::update_key_file(&args.sk, |bytes| {
        let mut sk = SecretKey::<S>::from_bytes(bytes).map_err(CliError::rejected)?;
        // Best effort: slide the prepared window forward if the epoch lies
        // ahead; when it cannot, signing reports the precise reason.
        sk.prepare_for(u64::from(args.epoch));
        let signature = sk.sign(args.epoch, &message).map_err(CliError::rejected)?;
        Ok((sk.to_bytes(), (signature, sk.next_usable_epoch())))
    })?;
    io::write_bytes(&args.out, &signature.to_bytes())?;
    eprintln!("signed epoch {}; next usable epoch {next}", args.epoch);
    Ok(())
}

/// Verifies one signature file; prints `valid` or returns a rejection.
pub fn verify_signature(scheme: Scheme, pk: &Path, epoch: u32, message: &[u8; 32], sig: &Path) -> CliResult {
    with_scheme!(scheme, S => verify_for::<S>(pk, epoch, message, sig))
}

fn verify_for<S: ParameterSet>(pk: &Path, epoch: u32, message: &[u8; 32], sig: &Path) -> CliResult {
    let pk = PublicKey::<S>::from_bytes(&io::read_bytes(pk)?).map_err(CliError::rejected)?;
    let sig = Signature::<S>::from_bytes(&io::read_bytes(sig)?).map_err(CliError::rejected)?;
    sigagg_xmss::verify(&pk, epoch, message, &sig)
        .map_err(|e| CliError::rejected(format!("invalid signature: {e}")))?;
    println!("valid");
    Ok(())
}

/// 32-byte XMSS messages: each `--message` as 64 hex digits (optionally
/// `0x`-prefixed), each `--message-file` as exactly 32 bytes.
pub fn messages32(list: &MessageList) -> Result<Vec<[u8; 32]>, CliError> {
    if !list.messages.is_empty() && !list.message_files.is_empty() {
        return Err(CliError::usage("give either --message or --message-file, not both"));
    }
    let from_text = list.messages.iter().map(|m| parse_message32(m));
    let from_files = list.message_files.iter().map(|p| {
        io::read_bytes(p)?.try_into().map_err(|b: Vec<u8>| {
            CliError::usage(format!("{}: a message must be 32 bytes, got {}", p.display(), b.len()))
        })
    });
    let all = from_text.chain(from_files).collect::<Result<Vec<_>, _>>()?;
    if all.is_empty() {
        return Err(CliError::usage("give --message or --message-file"));
    }
    Ok(all)
}

pub fn bench(args: BenchArgs) -> CliResult {
    with_scheme!(args.scheme, S => bench_for::<S>(&args))
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
