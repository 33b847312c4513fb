//! Ad-hoc threshold multisignatures (ATMS, seed 000 section 1) over BLS
//! keys, through [`sigagg_bytes::atms`]: `bls atms-akey`, `atms-check`,
//! `atms-sign`, `atms-verify`.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;
use sigagg_bytes::{ErrorKind, atms};

use super::{keys_and_pops, valid};
use crate::args::{read_files, slices};
use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct AkeyArgs {
    /// Key list, in order (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Proofs of possession, one per key.
    #[arg(long = "pop", required = true)]
    pub pops: Vec<PathBuf>,
    /// Aggregate key output (88 bytes: sum, root, number of keys).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Key list, in order (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Proofs of possession, one per key: without them a list ending in a
    /// rogue key would check, and its author could sign for every key.
    #[arg(long = "pop", required = true)]
    pub pops: Vec<PathBuf>,
    /// Aggregate key file.
    #[arg(long)]
    pub avk: PathBuf,
}

#[derive(Args)]
pub struct SignArgs {
    /// Key list, in order (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Threshold t.
    #[arg(long)]
    pub threshold: usize,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// A signer as INDEX:SIGNATURE_FILE, INDEX being its position in the key list (repeat).
    #[arg(long = "signer", required = true)]
    pub signers: Vec<String>,
    /// ATMS signature output.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Aggregate key file.
    #[arg(long)]
    pub avk: PathBuf,
    /// Threshold t.
    #[arg(long)]
    pub threshold: usize,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// ATMS signature file.
    #[arg(long)]
    pub sig: PathBuf,
}

pub fn akey(a: &AkeyArgs) -> CliResult {
    let (pks, pops) = keys_and_pops(&a.pks, &a.pops)?;
    let avk = atms::aggregate_key(&slices(&pks), &slices(&pops)).map_err(CliError::rejected)?;
    io::write_bytes(&a.out, &avk)?;
    // The key is the sum of the keys (48 bytes), the Merkle root of the
    // list (32 bytes) and its length.
    io::print_json(&json!({ "keys": pks.len(), "root": hex::encode(&avk[48..80]) }));
    Ok(())
}

pub fn check(a: &CheckArgs) -> CliResult {
    let (pks, pops) = keys_and_pops(&a.pks, &a.pops)?;
    let avk = io::read_bytes(&a.avk)?;
    atms::check(&slices(&pks), &slices(&pops), &avk).map_err(CliError::rejected)?;
    valid("ATMS aggregate key")
}

/// The signers of `--signer INDEX:FILE`: their indices and signature files.
fn signers(specs: &[String], keys: usize) -> Result<(Vec<u32>, Vec<PathBuf>), CliError> {
    specs
        .iter()
        .map(|s| {
            let (i, path) =
                s.split_once(':').ok_or_else(|| CliError::usage(format!("--signer {s}: expected INDEX:FILE")))?;
            let i: u32 = i.parse().map_err(|_| CliError::usage(format!("--signer {s}: bad index")))?;
            if i as usize >= keys {
                return Err(CliError::usage(format!("--signer {s}: index past the {keys} keys")));
            }
            Ok((i, Path::new(path).to_path_buf()))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|v| v.into_iter().unzip())
}

pub fn sign(a: &SignArgs) -> CliResult {
    if a.threshold == 0 {
        return Err(CliError::usage("the threshold must be at least 1"));
    }
    let pks = read_files(&a.pks)?;
    let msg = io::parse_message(&a.message)?;
    let (indices, files) = signers(&a.signers, pks.len())?;
    let sigs = read_files(&files)?;
    let sig = atms::sign(a.threshold, &msg, &slices(&pks), &indices, &slices(&sigs)).map_err(CliError::rejected)?;
    io::write_bytes(&a.out, &sig)?;
    io::print_json(&json!({
        "signers": indices.len(),
        "non_signers": pks.len() - indices.len(),
        "bytes": sig.len(),
    }));
    Ok(())
}

pub fn verify(a: &VerifyArgs) -> CliResult {
    let (avk, sig) = (io::read_bytes(&a.avk)?, io::read_bytes(&a.sig)?);
    let msg = io::parse_message(&a.message)?;
    atms::verify(a.threshold, &msg, &avk, &sig).map_err(|e| match e.kind() {
        ErrorKind::Argument => CliError::usage(e),
        _ => CliError::rejected(e),
    })?;
    valid("ATMS signature")
}
