//! Hash-based (XMSS) signatures on files: `sigagg keygen`, `sigagg sign`
//! and the single-signature check of `sigagg verify --sig`, all through
//! [`sigagg_bytes::xmss`] (`sigagg bench xmss` is in [`crate::bench`]).

use std::path::{Path, PathBuf};

use clap::Args;
use rayon::prelude::*;
use sigagg_bytes::{Scheme, StatefulKey, xmss};

use crate::args::{self, XMSS};
use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct KeygenArgs {
    /// Parameter set.
    #[arg(long, value_parser = args::schemes(XMSS), default_value = "seed001")]
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
    #[arg(long, value_parser = args::schemes(XMSS), default_value = "seed001")]
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

pub fn keygen(args: KeygenArgs) -> CliResult {
    if args.count == 0 {
        return Err(CliError::usage("--count must be at least 1"));
    }
    let seed = args.seed.as_deref().map(args::parse_seed).transpose()?;
    let bar = io::progress(args.count as u64, "keygen");
    let results: Vec<CliResult> = (0..args.count)
        .into_par_iter()
        .map(|i| {
            let seed = seed.map(|s| zeroize::Zeroizing::new(args::batch_seed(s, i)));
            let (pk, sk) =
                xmss::keygen(args.scheme, args.activation_epoch, args.num_epochs, seed.as_deref().map(|s| &s[..]))
                    .map_err(CliError::usage)?;
            io::write_bytes(
                &args::numbered(&args.out, args.count, i, "sk", args.hex),
                &sk.to_bytes().map_err(CliError::usage)?,
            )?;
            io::write_bytes(&args::numbered(&args.out, args.count, i, "pk", args.hex), &pk)?;
            bar.inc(1);
            Ok(())
        })
        .collect();
    bar.finish_and_clear();
    results.into_iter().collect::<CliResult>()?;
    eprintln!("wrote {} key pair(s) for {} with prefix {}", args.count, args.scheme.name(), args.out.display());
    Ok(())
}

pub fn sign(args: SignArgs) -> CliResult {
    let message = args::parse_message32(&args.message)?;
    // The used epoch is on disk (and the key locked against a concurrent
    // signer) before the signature exists anywhere.
    let (signature, next) = io::update_key_file(&args.sk, |bytes| {
        let sk = xmss::XmssSecretKey::from_bytes(args.scheme, bytes).map_err(CliError::rejected)?;
        let signature = sk.sign(args.epoch, &message).map_err(CliError::rejected)?;
        let next = sk.next_usable_epoch().map_err(CliError::rejected)?;
        Ok((sk.to_bytes().map_err(CliError::rejected)?.to_vec(), (signature, next)))
    })?;
    io::write_bytes(&args.out, &signature)?;
    eprintln!("signed epoch {}; next usable epoch {next}", args.epoch);
    Ok(())
}

/// Verifies one signature file; prints `valid` or returns a rejection.
pub fn verify_signature(scheme: Scheme, pk: &Path, epoch: u32, message: &[u8], sig: &Path) -> CliResult {
    let (pk, sig) = (io::read_bytes(pk)?, io::read_bytes(sig)?);
    xmss::verify(scheme, &pk, epoch, message, &sig).map_err(|e| match e.kind() {
        sigagg_bytes::ErrorKind::Verify => CliError::rejected(format!("invalid signature: {e}")),
        _ => CliError::rejected(e),
    })?;
    println!("valid");
    Ok(())
}
