//! BLS12-381 signatures (Ethereum's proof-of-possession suite: keys in
//! G1) on files, through [`sigagg_bytes::bls`]: `bls keygen`, `pop`,
//! `pop-verify`, `sign`, `verify`, `aggregate`, `fast-aggregate-verify`,
//! `aggregate-verify`, `batch-verify`.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use sigagg_bytes::bls;

use super::{keys_and_pops, parse_ikm, rejected_file, valid};
use crate::args::{read_files, slices};
use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct KeygenArgs {
    /// Secret key output (32 bytes; hex text if the name ends in .hex).
    #[arg(long)]
    pub sk: PathBuf,
    /// Public key output (48 bytes compressed).
    #[arg(long)]
    pub pk: PathBuf,
    /// Proof of possession output (96 bytes), if wanted.
    #[arg(long)]
    pub pop: Option<PathBuf>,
    /// Deterministic key material (at least 32 bytes, hex); random if absent.
    #[arg(long)]
    pub ikm: Option<String>,
}

#[derive(Args)]
pub struct SkOutArgs {
    /// Secret key file.
    #[arg(long)]
    pub sk: PathBuf,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct PopVerifyArgs {
    /// Public key file.
    #[arg(long)]
    pub pk: PathBuf,
    /// Proof of possession file.
    #[arg(long)]
    pub pop: PathBuf,
}

#[derive(Args)]
pub struct SignArgs {
    /// Secret key file.
    #[arg(long)]
    pub sk: PathBuf,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Signature output (96 bytes).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Public key file.
    #[arg(long)]
    pub pk: PathBuf,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Signature file.
    #[arg(long)]
    pub sig: PathBuf,
}

#[derive(Args)]
pub struct AggregateArgs {
    /// Signature files (repeat the flag).
    #[arg(long = "sig", required = true)]
    pub sigs: Vec<PathBuf>,
    /// Aggregate signature output.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct FastAggregateVerifyArgs {
    /// Public key files (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Proof of possession files, one per key in the same order (rogue-key protection).
    #[arg(long = "pop", required = true)]
    pub pops: Vec<PathBuf>,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Aggregate signature file.
    #[arg(long)]
    pub sig: PathBuf,
}

#[derive(Args)]
pub struct AggregateVerifyArgs {
    /// Public key files (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Proof of possession files, one per key in the same order.
    #[arg(long = "pop", required = true)]
    pub pops: Vec<PathBuf>,
    /// Messages, one per key in the same order.
    #[arg(long = "message", required = true)]
    pub messages: Vec<String>,
    /// Aggregate signature file.
    #[arg(long)]
    pub sig: PathBuf,
}

#[derive(Args)]
pub struct BatchVerifyArgs {
    /// Public key files (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Messages, one per key.
    #[arg(long = "message", required = true)]
    pub messages: Vec<String>,
    /// Signature files, one per key.
    #[arg(long = "sig", required = true)]
    pub sigs: Vec<PathBuf>,
}

pub fn keygen(a: &KeygenArgs) -> CliResult {
    let (sk, pk) = bls::keygen(parse_ikm(&a.ikm)?.as_deref()).map_err(CliError::usage)?;
    io::write_bytes(&a.sk, &*sk)?;
    io::write_bytes(&a.pk, &pk)?;
    if let Some(pop) = &a.pop {
        io::write_bytes(pop, &bls::prove_possession(&*sk).map_err(CliError::rejected)?)?;
    }
    io::print_json(&json!({ "public_key": hex::encode(pk) }));
    Ok(())
}

/// The bytes of the secret key file `path` (wiped when dropped).
fn read_sk(path: &std::path::Path) -> Result<zeroize::Zeroizing<Vec<u8>>, CliError> {
    Ok(zeroize::Zeroizing::new(io::read_bytes(path)?))
}

pub fn pop(a: &SkOutArgs) -> CliResult {
    let pop = bls::prove_possession(&read_sk(&a.sk)?).map_err(|e| rejected_file(&a.sk, e))?;
    io::write_bytes(&a.out, &pop)
}

pub fn pop_verify(a: &PopVerifyArgs) -> CliResult {
    let (pk, pop) = (io::read_bytes(&a.pk)?, io::read_bytes(&a.pop)?);
    bls::verify_possession(&pk, &pop).map_err(CliError::rejected)?;
    valid("proof of possession")
}

pub fn sign(a: &SignArgs) -> CliResult {
    let msg = io::parse_message(&a.message)?;
    let sig = bls::sign(&read_sk(&a.sk)?, &msg).map_err(|e| rejected_file(&a.sk, e))?;
    io::write_bytes(&a.out, &sig)
}

pub fn verify(a: &VerifyArgs) -> CliResult {
    let msg = io::parse_message(&a.message)?;
    let (pk, sig) = (io::read_bytes(&a.pk)?, io::read_bytes(&a.sig)?);
    bls::verify(&pk, &msg, &sig).map_err(CliError::rejected)?;
    valid("signature")
}

pub fn aggregate(a: &AggregateArgs) -> CliResult {
    let sigs = read_files(&a.sigs)?;
    io::write_bytes(&a.out, &bls::aggregate(&slices(&sigs)).map_err(CliError::rejected)?)
}

pub fn fast_aggregate_verify(a: &FastAggregateVerifyArgs) -> CliResult {
    let (pks, pops) = keys_and_pops(&a.pks, &a.pops)?;
    let msg = io::parse_message(&a.message)?;
    let sig = io::read_bytes(&a.sig)?;
    bls::fast_aggregate_verify(&slices(&pks), Some(&slices(&pops)[..]), &msg, &sig).map_err(CliError::rejected)?;
    valid("aggregate signature")
}

pub fn aggregate_verify(a: &AggregateVerifyArgs) -> CliResult {
    let (pks, pops) = keys_and_pops(&a.pks, &a.pops)?;
    let msgs: Vec<Vec<u8>> = a.messages.iter().map(|m| io::parse_message(m)).collect::<Result<_, _>>()?;
    let sig = io::read_bytes(&a.sig)?;
    bls::aggregate_verify(&slices(&pks), Some(&slices(&pops)[..]), &slices(&msgs), &sig).map_err(CliError::rejected)?;
    valid("aggregate signature")
}

pub fn batch_verify(a: &BatchVerifyArgs) -> CliResult {
    if a.pks.len() != a.messages.len() || a.pks.len() != a.sigs.len() {
        return Err(CliError::usage("give as many --pk, --message and --sig"));
    }
    let msgs: Vec<Vec<u8>> = a.messages.iter().map(|m| io::parse_message(m)).collect::<Result<_, _>>()?;
    let (pks, sigs) = (read_files(&a.pks)?, read_files(&a.sigs)?);
    bls::batch_verify(&slices(&pks), &slices(&msgs), &slices(&sigs)).map_err(CliError::rejected)?;
    valid("batch")
}
