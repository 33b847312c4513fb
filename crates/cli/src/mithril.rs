//! Mithril STM sub-commands, `sigagg mithril params | keygen | register |
//! sign | aggregate | verify`, through [`sigagg_bytes::mithril`] (the
//! benchmark is `sigagg bench mithril`, in [`crate::bench`]).
//!
//! Files hold mithril-stm 0.13's encodings (raw, or hex text when the name
//! ends in `.hex`): parameters, signing keys, keys with proofs of
//! possession, single signatures, the aggregate verification key and the
//! certificate; the closed registration has sigagg's own layout.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;
use sigagg_bytes::mithril::{self, Signed};
use sigagg_bytes::{Error, ErrorKind};

use crate::args::{read_files, slices};
use crate::io::{self, CliError, CliResult};

#[derive(Subcommand)]
pub enum MithrilCommand {
    /// Write the parameters k, m, phi_f (mainnet: k 1944, m 16948, phi_f 0.2).
    #[command(after_help = example!("mithril params --k 5 --m 50 --phi-f 0.9 --out p.params"))]
    Params(ParamsArgs),
    /// Generate a signing key and its verification key with proof of possession (192 bytes).
    #[command(after_help = example!("mithril keygen --sk a.sk --vk a.vk"))]
    Keygen(KeygenArgs),
    /// Register parties (key with proof of possession, stake): the closed registration and its aggregate key.
    #[command(after_help = example!(
        "mithril register --vk a.vk --stake 30 --vk b.vk --stake 70 --out r.reg --avk-out r.avk",
    ))]
    Register(RegisterArgs),
    /// Sign a message: the lottery indices the signature wins; no file if it wins none (not an error).
    #[command(after_help = example!(
        "mithril sign --params p.params --registration r.reg --sk a.sk --message 0x00112233 --out a.sig",
    ))]
    Sign(SignArgs),
    /// The clerk: a concatenation certificate from single signatures (at least k distinct indices).
    #[command(after_help = example!(
        "mithril aggregate --params p.params --registration r.reg --message 0x00112233 --sig a.sig --sig b.sig --out c.cert",
    ))]
    Aggregate(AggregateArgs),
    /// Verify a certificate against the aggregate verification key, the parameters and the message.
    #[command(after_help = example!(
        "mithril verify --params p.params --avk r.avk --message 0x00112233 --cert c.cert",
    ))]
    Verify(VerifyArgs),
}

#[derive(Args)]
pub struct ParamsArgs {
    /// Distinct lottery indices a certificate needs.
    #[arg(long)]
    pub k: u64,
    /// Lottery indices each signer tries (0..m; signing time is linear in m).
    #[arg(long)]
    pub m: u64,
    /// Probability that a party holding all the stake wins an index, in (0, 1].
    #[arg(long)]
    pub phi_f: f64,
    /// Parameters output (mithril-stm's encoding).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct KeygenArgs {
    /// Signing key output (32 bytes; hex text if the name ends in .hex).
    #[arg(long)]
    pub sk: PathBuf,
    /// Verification key with proof of possession output (mvk, k1, k2: 192 bytes), to register.
    #[arg(long)]
    pub vk: PathBuf,
    /// Deterministic key material (at least 32 bytes, hex); random if absent.
    #[arg(long)]
    pub seed: Option<String>,
}

#[derive(Args)]
pub struct RegisterArgs {
    /// A party's verification key with proof of possession (repeat; one --stake each, in order).
    #[arg(long = "vk", required = true)]
    pub vks: Vec<PathBuf>,
    /// The stake of the party of the --vk at the same position.
    #[arg(long = "stake", required = true)]
    pub stakes: Vec<u64>,
    /// Closed registration output (for signers and the clerk).
    #[arg(long)]
    pub out: PathBuf,
    /// Aggregate verification key output (Merkle root, parties, total stake: all a verifier needs).
    #[arg(long)]
    pub avk_out: PathBuf,
}

#[derive(Args)]
pub struct SignArgs {
    /// Parameters file.
    #[arg(long)]
    pub params: PathBuf,
    /// Closed registration file (the signing key must be registered in it).
    #[arg(long)]
    pub registration: PathBuf,
    /// Signing key file.
    #[arg(long)]
    pub sk: PathBuf,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Single signature output, written only if the signature wins an index.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct AggregateArgs {
    /// Parameters file.
    #[arg(long)]
    pub params: PathBuf,
    /// Closed registration file.
    #[arg(long)]
    pub registration: PathBuf,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Single signature files (repeat; any order; invalid ones are skipped).
    #[arg(long = "sig", required = true)]
    pub sigs: Vec<PathBuf>,
    /// Certificate output (mithril-stm's AggregateSignature encoding).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Parameters file.
    #[arg(long)]
    pub params: PathBuf,
    /// Aggregate verification key file.
    #[arg(long)]
    pub avk: PathBuf,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Certificate file.
    #[arg(long)]
    pub cert: PathBuf,
}

pub fn run(cmd: MithrilCommand) -> CliResult {
    match cmd {
        MithrilCommand::Params(a) => params(&a),
        MithrilCommand::Keygen(a) => keygen(&a),
        MithrilCommand::Register(a) => register(&a),
        MithrilCommand::Sign(a) => sign(&a),
        MithrilCommand::Aggregate(a) => aggregate(&a),
        MithrilCommand::Verify(a) => verify(&a),
    }
}

/// Arguments that do not fit are usage errors (exit 2); inputs that are
/// read but refused are rejections (exit 1).
fn cli_error(e: Error) -> CliError {
    match e.kind() {
        ErrorKind::Argument => CliError::usage(e),
        _ => CliError::rejected(e),
    }
}

fn params(a: &ParamsArgs) -> CliResult {
    let bytes = mithril::parameters(a.k, a.m, a.phi_f).map_err(cli_error)?;
    io::write_bytes(&a.out, &bytes)?;
    io::print_json(&json!({ "k": a.k, "m": a.m, "phi_f": a.phi_f }));
    Ok(())
}

fn keygen(a: &KeygenArgs) -> CliResult {
    let seed = a
        .seed
        .as_ref()
        .map(|h| hex::decode(h.trim_start_matches("0x")).map_err(|e| CliError::usage(format!("bad --seed: {e}"))))
        .transpose()?
        .map(zeroize::Zeroizing::new);
    let (sk, vk) = mithril::keygen(seed.as_deref().map(Vec::as_slice)).map_err(cli_error)?;
    io::write_bytes(&a.sk, &*sk)?;
    io::write_bytes(&a.vk, &vk)?;
    io::print_json(&json!({ "verification_key": hex::encode(&vk[..96]) }));
    Ok(())
}

fn register(a: &RegisterArgs) -> CliResult {
    if a.vks.len() != a.stakes.len() {
        return Err(CliError::usage(format!(
            "{} --vk but {} --stake: give one stake per key",
            a.vks.len(),
            a.stakes.len()
        )));
    }
    let keys = read_files(&a.vks)?;
    let reg = mithril::register(&slices(&keys), &a.stakes).map_err(cli_error)?;
    io::write_bytes(&a.out, &reg.registration)?;
    io::write_bytes(&a.avk_out, &reg.avk)?;
    io::print_json(&json!({
        "parties": keys.len(),
        "total_stake": a.stakes.iter().sum::<u64>(),
        "avk": hex::encode(&reg.avk),
    }));
    Ok(())
}

fn sign(a: &SignArgs) -> CliResult {
    let (params, reg) = (io::read_bytes(&a.params)?, io::read_bytes(&a.registration)?);
    let sk = zeroize::Zeroizing::new(io::read_bytes(&a.sk)?);
    let msg = io::parse_message(&a.message)?;
    match mithril::sign(&params, &reg, &sk, &msg).map_err(cli_error)? {
        Signed::Won(sig) => {
            io::write_bytes(&a.out, &sig)?;
            io::print_json(&json!({ "signed": true, "out": a.out.display().to_string() }));
        }
        Signed::NoIndexWon => {
            io::print_json(&json!({ "signed": false, "reason": "the signature won no lottery index" }))
        }
    }
    Ok(())
}

fn aggregate(a: &AggregateArgs) -> CliResult {
    let (params, reg) = (io::read_bytes(&a.params)?, io::read_bytes(&a.registration)?);
    let msg = io::parse_message(&a.message)?;
    let sigs = read_files(&a.sigs)?;
    let cert = mithril::aggregate(&params, &reg, &msg, &slices(&sigs)).map_err(cli_error)?;
    io::write_bytes(&a.out, &cert)?;
    io::print_json(&json!({ "given": sigs.len(), "certificate_bytes": cert.len() }));
    Ok(())
}

fn verify(a: &VerifyArgs) -> CliResult {
    let (params, avk, cert) = (io::read_bytes(&a.params)?, io::read_bytes(&a.avk)?, io::read_bytes(&a.cert)?);
    let msg = io::parse_message(&a.message)?;
    let v = mithril::verify(&params, &avk, &msg, &cert).map_err(|e| match e.kind() {
        ErrorKind::Verify => CliError::rejected(format!("invalid certificate: {e}")),
        _ => cli_error(e),
    })?;
    io::print_json(&json!({ "valid": true, "signatures": v.signatures, "indices": v.indices }));
    Ok(())
}
