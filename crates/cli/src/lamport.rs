//! Lamport+ sub-commands: `sigagg lamport keygen | sign | verify | member | bench`
//! (groups are committed by the top-level `sigagg group-key`), through
//! [`sigagg_bytes::lamport`] (the benchmark is in [`crate::bench`]).
//!
//! Files hold the crate's byte encodings (raw, or hex text when the name
//! ends in `.hex`). Messages are `0x`-prefixed hex or UTF-8 text on the
//! command line, or any file with `--message-file`.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use rand::RngExt;
use rayon::prelude::*;
use sigagg_bytes::{Scheme, StatefulKey, lamport};

use crate::args::{self, LAMPORT};
use crate::io::{self, CliError, CliResult};

#[derive(Subcommand)]
pub enum LamportCommand {
    /// Generate one-time key pairs (PREFIX.pk, PREFIX.sk).
    #[command(after_help = example!("lamport keygen --count 3 --out l"))]
    Keygen(KeygenArgs),
    /// Sign a message; the secret key file is marked used before the signature is written.
    #[command(after_help = example!("lamport sign --sk l-0.sk --message block-9 --out l-0.sig"))]
    Sign(SignArgs),
    /// Verify a signature; prints "valid" or exits with status 1.
    #[command(after_help = example!("lamport verify --pk l-0.pk --message block-9 --sig l-0.sig"))]
    Verify(VerifyArgs),
    /// Check a membership path of a public key in a group; prints "member" or exits with status 1.
    #[command(after_help = example!(
        "group-key --scheme lamport-plus --pk l-0.pk --pk l-1.pk --pk l-2.pk --out lg.key --paths lm",
        "lamport member --group lg.key --pk l-0.pk --path lm-0.path",
    ))]
    Member(MemberArgs),
    /// Time key generation, signing and verification of many keys (JSON).
    #[command(after_help = example!("lamport bench --scheme lamport-plus-mined --n 256 --json"))]
    Bench(crate::bench::lamport::BenchArgs),
}

#[derive(Args)]
pub struct KeygenArgs {
    /// Parameter set.
    #[arg(long, value_parser = args::schemes(LAMPORT), default_value = "lamport-plus")]
    pub scheme: Scheme,
    /// Number of key pairs (written as PREFIX-i.* when more than one).
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// 32-byte hex seed for reproducible keys (key i of a batch uses the seed
    /// with i XORed into its last 8 bytes); default: the operating system's RNG.
    #[arg(long)]
    pub seed: Option<String>,
    /// Output prefix.
    #[arg(long)]
    pub out: PathBuf,
    /// Write hex text instead of raw bytes.
    #[arg(long)]
    pub hex: bool,
}

/// A message on the command line or in a file.
#[derive(Args)]
#[group(required = true, multiple = false)]
pub struct MessageArgs {
    /// The message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: Option<String>,
    /// A file whose raw bytes (hex text if it ends in .hex) are the message.
    #[arg(long)]
    pub message_file: Option<PathBuf>,
}

impl MessageArgs {
    pub fn read(&self) -> Result<Vec<u8>, CliError> {
        match (&self.message, &self.message_file) {
            (Some(m), _) => io::parse_message(m),
            (None, Some(path)) => io::read_bytes(path),
            (None, None) => Err(CliError::usage("give --message or --message-file")),
        }
    }
}

#[derive(Args)]
pub struct SignArgs {
    /// Parameter set.
    #[arg(long, value_parser = args::schemes(LAMPORT), default_value = "lamport-plus")]
    pub scheme: Scheme,
    /// Secret key file; it is marked used (synced to disk, under a lock on
    /// `<sk>.lock`) before the signature is written.
    #[arg(long)]
    pub sk: PathBuf,
    #[command(flatten)]
    pub message: MessageArgs,
    /// Use this mining counter instead of searching (it must be admissible).
    #[arg(long)]
    pub counter: Option<u32>,
    /// Signature output file.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Parameter set.
    #[arg(long, value_parser = args::schemes(LAMPORT), default_value = "lamport-plus")]
    pub scheme: Scheme,
    /// Public key file.
    #[arg(long)]
    pub pk: PathBuf,
    #[command(flatten)]
    pub message: MessageArgs,
    /// Signature file.
    #[arg(long)]
    pub sig: PathBuf,
}

#[derive(Args)]
pub struct MemberArgs {
    /// Parameter set of the key.
    #[arg(long, value_parser = args::schemes(LAMPORT), default_value = "lamport-plus")]
    pub scheme: Scheme,
    /// Group key file.
    #[arg(long)]
    pub group: PathBuf,
    /// Public key file.
    #[arg(long)]
    pub pk: PathBuf,
    /// Membership path file.
    #[arg(long)]
    pub path: PathBuf,
}

pub fn run(cmd: LamportCommand) -> CliResult {
    match cmd {
        LamportCommand::Keygen(a) => keygen(&a),
        LamportCommand::Sign(a) => sign(&a),
        LamportCommand::Verify(a) => verify(&a),
        LamportCommand::Member(a) => member(&a),
        LamportCommand::Bench(a) => crate::bench::lamport::bench(&a),
    }
}

fn keygen(args: &KeygenArgs) -> CliResult {
    if args.count == 0 {
        return Err(CliError::usage("--count must be at least 1"));
    }
    let base = args.seed.as_deref().map(args::parse_seed).transpose()?;
    let seeds: Vec<zeroize::Zeroizing<[u8; 32]>> = (0..args.count)
        .map(|i| zeroize::Zeroizing::new(base.map_or_else(|| rand::rng().random(), |seed| args::batch_seed(seed, i))))
        .collect();
    let pairs = seeds
        .par_iter()
        .map(|seed| lamport::keygen(args.scheme, Some(&seed[..])))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::usage)?;
    for (i, (pk, sk)) in pairs.iter().enumerate() {
        let sk = sk.to_bytes().map_err(CliError::usage)?;
        io::write_bytes(&args::numbered(&args.out, args.count, i, "sk", args.hex), &sk)?;
        io::write_bytes(&args::numbered(&args.out, args.count, i, "pk", args.hex), pk)?;
    }
    eprintln!("wrote {} {} key pair(s) with prefix {}", args.count, args.scheme.name(), args.out.display());
    Ok(())
}

fn sign(args: &SignArgs) -> CliResult {
    let message = args.message.read()?;
    // The used state is on disk (and the key locked against a concurrent
    // signer) before the signature exists anywhere.
    let sig = io::update_key_file(&args.sk, |bytes| {
        let sk = lamport::LamportSecretKey::from_bytes(args.scheme, bytes).map_err(CliError::rejected)?;
        let sig = match args.counter {
            None => sk.sign(&message),
            Some(c) => sk.sign_with_counter(&message, c),
        }
        .map_err(CliError::rejected)?;
        Ok((sk.to_bytes().map_err(CliError::rejected)?.to_vec(), sig))
    })?;
    io::write_bytes(&args.out, &sig)?;
    let counter = lamport::counter(args.scheme, &sig).map_err(CliError::rejected)?;
    eprintln!("signed {} bytes with {} (counter {counter}); the key is now used", message.len(), args.scheme.name());
    Ok(())
}

fn verify(args: &VerifyArgs) -> CliResult {
    let message = args.message.read()?;
    let (pk, sig) = (io::read_bytes(&args.pk)?, io::read_bytes(&args.sig)?);
    lamport::verify(args.scheme, &pk, &message, &sig).map_err(|e| match e.kind() {
        sigagg_bytes::ErrorKind::Verify => CliError::rejected(format!("invalid signature: {e}")),
        _ => CliError::rejected(e),
    })?;
    println!("valid");
    Ok(())
}

fn member(args: &MemberArgs) -> CliResult {
    let (group, pk, path) = (io::read_bytes(&args.group)?, io::read_bytes(&args.pk)?, io::read_bytes(&args.path)?);
    lamport::verify_member(args.scheme, &group, &pk, &path).map_err(CliError::rejected)?;
    println!("member");
    Ok(())
}
