//! Lamport+ sub-commands: `sigagg lamport keygen | sign | verify | member | bench`
//! (groups are committed by the top-level `sigagg group-key`).
//!
//! Files hold the crate's byte encodings (raw, or hex text when the name
//! ends in `.hex`). Messages are `0x`-prefixed hex or UTF-8 text on the
//! command line, or any file with `--message-file`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use rand::RngExt;
use serde_json::json;
use sigagg_lamport::{
    GroupKey, LamportPlus, LamportPlusMined, MembershipProof, ParameterSet, PublicKey, SecretKey, Signature,
};

use crate::io::{self, CliError, CliResult};

/// The Lamport+ parameter sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Scheme {
    /// 248-bit representative, 256 sub-keys, no mining (124-bit classical security).
    LamportPlus,
    /// 16 mined zero bits, 224 sub-keys (124-bit classical security).
    LamportPlusMined,
}

/// Runs `$body` with `$S` bound to the parameter set chosen by `$scheme`.
macro_rules! with_scheme {
    ($scheme:expr, $S:ident => $body:expr) => {
        match $scheme {
            Scheme::LamportPlus => {
                type $S = LamportPlus;
                $body
            }
            Scheme::LamportPlusMined => {
                type $S = LamportPlusMined;
                $body
            }
        }
    };
}

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
    Bench(BenchArgs),
}

#[derive(Args)]
pub struct KeygenArgs {
    /// Parameter set.
    #[arg(long, value_enum, default_value = "lamport-plus")]
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
    fn read(&self) -> Result<Vec<u8>, CliError> {
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
    #[arg(long, value_enum, default_value = "lamport-plus")]
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
    #[arg(long, value_enum, default_value = "lamport-plus")]
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
    #[arg(long, value_enum, default_value = "lamport-plus")]
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

#[derive(Args)]
pub struct BenchArgs {
    /// Parameter set.
    #[arg(long, value_enum, default_value = "lamport-plus")]
    pub scheme: Scheme,
    /// Number of keys.
    #[arg(long, default_value_t = 256)]
    pub n: usize,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

pub fn run(cmd: LamportCommand) -> CliResult {
    match cmd {
        LamportCommand::Keygen(a) => with_scheme!(a.scheme, S => keygen::<S>(&a)),
        LamportCommand::Sign(a) => with_scheme!(a.scheme, S => sign::<S>(&a)),
        LamportCommand::Verify(a) => with_scheme!(a.scheme, S => verify::<S>(&a)),
        LamportCommand::Member(a) => with_scheme!(a.scheme, S => member::<S>(&a)),
        LamportCommand::Bench(a) => with_scheme!(a.scheme, S => bench::<S>(&a)),
    }
}

fn parse_seed(hex_seed: &str) -> Result<[u8; 32], CliError> {
    let bytes =
        hex::decode(hex_seed.trim_start_matches("0x")).map_err(|e| CliError::usage(format!("bad --seed: {e}")))?;
    bytes.try_into().map_err(|_| CliError::usage("--seed must be 32 bytes (64 hex digits)"))
}

fn numbered(prefix: &Path, count: usize, i: usize, ext: &str, hex: bool) -> PathBuf {
    let base = if count == 1 { prefix.display().to_string() } else { format!("{}-{i}", prefix.display()) };
    PathBuf::from(format!("{base}.{ext}{}", if hex { ".hex" } else { "" }))
}

fn keygen<S: ParameterSet>(args: &KeygenArgs) -> CliResult {
    if args.count == 0 {
        return Err(CliError::usage("--count must be at least 1"));
    }
    let base = args.seed.as_deref().map(parse_seed).transpose()?;
    let seeds: Vec<[u8; 32]> = (0..args.count)
        .map(|i| match base {
            Some(mut seed) => {
                for (s, x) in seed[24..].iter_mut().zip((i as u64).to_le_bytes()) {
                    *s ^= x;
                }
                seed
            }
            None => rand::rng().random(),
        })
        .collect();
    let pairs = sigagg_lamport::keygen_from_seeds::<S>(&seeds).map_err(CliError::usage)?;
    for (i, (pk, sk)) in pairs.iter().enumerate() {
        io::write_bytes(&numbered(&args.out, args.count, i, "sk", args.hex), &zeroize::Zeroizing::new(sk.to_bytes()))?;
        io::write_bytes(&numbered(&args.out, args.count, i, "pk", args.hex), &pk.to_bytes())?;
    }
    eprintln!("wrote {} {} key pair(s) with prefix {}", args.count, S::NAME, args.out.display());
    Ok(())
}

fn sign<S: ParameterSet>(args: &SignArgs) -> CliResult {
    let message = args.message.read()?;
    // The used state is on disk (and the key locked against a concurrent
    // signer) before the signature exists anywhere.
    let sig = io::update_key_file(&args.sk, |bytes| {
        let mut sk = SecretKey::<S>::from_bytes(bytes).map_err(CliError::rejected)?;
        let sig = match args.counter {
            None => sk.sign(&message),
            Some(c) => sk.sign_with_counter(&message, c),
        }
        .map_err(CliError::rejected)?;
        Ok((sk.to_bytes(), sig))
    })?;
    io::write_bytes(&args.out, &sig.to_bytes())?;
    eprintln!("signed {} bytes with {} (counter {}); the key is now used", message.len(), S::NAME, sig.counter());
    Ok(())
}

fn verify<S: ParameterSet>(args: &VerifyArgs) -> CliResult {
    let message = args.message.read()?;
    let pk = PublicKey::<S>::from_bytes(&io::read_bytes(&args.pk)?).map_err(CliError::rejected)?;
    let sig = Signature::<S>::from_bytes(&io::read_bytes(&args.sig)?).map_err(CliError::rejected)?;
    sigagg_lamport::verify(&pk, &message, &sig).map_err(|e| CliError::rejected(format!("invalid signature: {e}")))?;
    println!("valid");
    Ok(())
}

fn member<S: ParameterSet>(args: &MemberArgs) -> CliResult {
    let group = GroupKey::from_bytes(&io::read_bytes(&args.group)?).map_err(CliError::rejected)?;
    let pk = PublicKey::<S>::from_bytes(&io::read_bytes(&args.pk)?).map_err(CliError::rejected)?;
    let proof = MembershipProof::from_bytes(&io::read_bytes(&args.path)?).map_err(CliError::rejected)?;
    sigagg_lamport::verify_member(&group, &pk, &proof).map_err(CliError::rejected)?;
    println!("member");
    Ok(())
}

fn bench<S: ParameterSet>(args: &BenchArgs) -> CliResult {
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
