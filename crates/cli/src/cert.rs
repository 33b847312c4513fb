//! Succinct BLS threshold certificates (`sigagg-bls-cert`): the KZG setup
//! and its ceremony, committees, certificates, and `bench cert`.
//!
//! Every command that touches the insecure development setup says so on
//! standard error, and the JSON of `verify-cert` names the setup and its
//! digest. `committee` builds only on the development setup or on a
//! ceremony that verifies; `verify-cert` refuses a development committee
//! key unless given `--allow-insecure-setup`.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use rayon::prelude::*;
use serde_json::json;
use sigagg_bls::bitfield::Bitfield;
use sigagg_bls::{KeyRegistry, PUBLIC_KEY_BYTES, ProofOfPossession, PublicKey, SIGNATURE_BYTES, Signature};
use sigagg_bls_cert::{
    CertError, Certificate, Committee, CommitteeKey, Mode, Prover, Setup, Signed, Threshold, powers_for_committee,
    verify, verify_allowing_insecure_setup,
};
use zeroize::Zeroize;

use crate::io::{self, CliError, CliResult};

/// Which certificate to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// The bitfield of signers is public (verification linear in the signers).
    Accountable,
    /// The bitfield stays inside the proof (constant-size certificate and verification).
    Counting,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Accountable => Mode::Accountable,
            ModeArg::Counting => Mode::Counting,
        }
    }
}

#[derive(Args)]
pub struct DevSetupArgs {
    /// Largest committee the setup serves.
    #[arg(long)]
    pub max_committee: usize,
    /// Setup file output.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct CeremonyStartArgs {
    /// Largest committee the setup serves.
    #[arg(long)]
    pub max_committee: usize,
    /// Ceremony file output (no contribution yet: not usable until contributed to).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct ContributeArgs {
    /// The ceremony so far.
    #[arg(long)]
    pub params: PathBuf,
    /// The ceremony with this contribution appended.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct VerifyCeremonyArgs {
    /// The ceremony file.
    #[arg(long)]
    pub params: PathBuf,
}

#[derive(Args)]
pub struct CommitteeArgs {
    /// The setup (a verified ceremony, or the insecure development setup).
    #[arg(long)]
    pub params: PathBuf,
    /// Member public keys, in committee order (repeat the flag).
    #[arg(long = "pk")]
    pub pks: Vec<PathBuf>,
    /// Their proofs of possession, one per key.
    #[arg(long = "pop")]
    pub pops: Vec<PathBuf>,
    /// Or: a file of concatenated 48-byte keys, in committee order.
    #[arg(long, conflicts_with = "pks")]
    pub keys: Option<PathBuf>,
    /// With --keys: a file of concatenated 96-byte proofs of possession.
    #[arg(long, requires = "keys")]
    pub pops_file: Option<PathBuf>,
    /// Stake weights, one per key (repeat, in order), or a file of one per line with --weights.
    #[arg(long = "weight")]
    pub weights: Vec<u64>,
    /// A text file of stake weights, one per line.
    #[arg(long = "weights", conflicts_with = "weights")]
    pub weights_file: Option<PathBuf>,
    /// Committee output for provers (the committee key and the member keys).
    #[arg(long)]
    pub out: PathBuf,
    /// Committee key output for verifiers (a few hundred bytes).
    #[arg(long)]
    pub key_out: PathBuf,
}

#[derive(Args)]
pub struct CertifyArgs {
    /// The setup the committee was made with.
    #[arg(long)]
    pub params: PathBuf,
    /// The committee (from `bls committee --out`).
    #[arg(long)]
    pub committee: PathBuf,
    /// The message: 0x-prefixed hex or UTF-8 text.
    #[arg(long, conflicts_with = "message_file")]
    pub message: Option<String>,
    /// A file whose bytes are the message.
    #[arg(long)]
    pub message_file: Option<PathBuf>,
    /// Certificate mode.
    #[arg(long, value_enum, default_value_t = ModeArg::Counting)]
    pub mode: ModeArg,
    /// A signer's public key (repeat, paired with --sig).
    #[arg(long = "pk")]
    pub pks: Vec<PathBuf>,
    /// That signer's signature.
    #[arg(long = "sig")]
    pub sigs: Vec<PathBuf>,
    /// Or: a signer by committee index and signature file, as INDEX:FILE (repeat).
    #[arg(long = "signer")]
    pub signers: Vec<String>,
    /// Or: an aggregate signature of the members set in --bitfield.
    #[arg(long, requires = "bitfield")]
    pub aggregate: Option<PathBuf>,
    /// The signers of --aggregate: SSZ bitvector as 0x-hex, or a file.
    #[arg(long, requires = "aggregate")]
    pub bitfield: Option<String>,
    /// Certificate output.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct VerifyCertArgs {
    /// The committee key (or the committee file, whose key is read).
    #[arg(long)]
    pub committee_key: PathBuf,
    /// The certificate.
    #[arg(long)]
    pub cert: PathBuf,
    /// The message: 0x-prefixed hex or UTF-8 text.
    #[arg(long, conflicts_with = "message_file")]
    pub message: Option<String>,
    /// A file whose bytes are the message.
    #[arg(long)]
    pub message_file: Option<PathBuf>,
    /// At least this many signers.
    #[arg(long)]
    pub threshold: u64,
    /// And at least this much stake (weighted committees).
    #[arg(long)]
    pub stake: Option<u64>,
    /// Require the committee key's setup to be the file with this SHA-256
    /// (hex, as `sha256sum` or `bls verify-ceremony` prints it).
    #[arg(long)]
    pub setup_digest: Option<String>,
    /// Accept a committee key of the INSECURE development setup (tests and
    /// demos only: anyone can forge its certificates).
    #[arg(long)]
    pub allow_insecure_setup: bool,
}

pub(crate) fn rejected(e: impl std::fmt::Display) -> CliError {
    CliError::rejected(e)
}

/// Certificate errors are the input's fault except where the setup is too
/// small for the committee (a usage error).
pub(crate) fn cert_error(e: CertError) -> CliError {
    match e {
        CertError::SetupTooSmall { .. } => CliError::usage(e),
        _ => CliError::rejected(e),
    }
}

fn warn_if_insecure(insecure: bool) {
    if insecure {
        eprintln!(
            "warning: INSECURE development setup: its trapdoor is public, anyone can forge certificates under it; \
             use a ceremony (bls ceremony-start, contribute, verify-ceremony) for real committees"
        );
    }
}

pub(crate) fn setup_name(insecure: bool) -> &'static str {
    if insecure { "insecure-development" } else { "ceremony" }
}

fn read_setup(path: &Path) -> Result<Setup, CliError> {
    let bar = io::spinner("reading setup");
    let setup = Setup::from_bytes(&io::read_bytes(path)?).map_err(|e| rejected(format!("{}: {e}", path.display())));
    bar.finish_and_clear();
    let setup = setup?;
    warn_if_insecure(setup.is_insecure());
    Ok(setup)
}

fn message(text: &Option<String>, file: &Option<PathBuf>) -> Result<Vec<u8>, CliError> {
    match (text, file) {
        (Some(m), None) => io::parse_message(m),
        (None, Some(p)) => io::read_bytes(p),
        _ => Err(CliError::usage("give --message or --message-file")),
    }
}

pub(crate) fn powers(max_committee: usize) -> Result<usize, CliError> {
    powers_for_committee(max_committee).map_err(CliError::usage)
}

/// `bls dev-setup`.
pub fn dev_setup(a: DevSetupArgs) -> CliResult {
    let setup = Setup::insecure_development(powers(a.max_committee)?).map_err(CliError::usage)?;
    warn_if_insecure(true);
    io::write_bytes(&a.out, &setup.to_bytes())?;
    io::print_json(&json!({ "setup": setup_name(true), "powers": setup.powers(), "max_committee": a.max_committee }));
    Ok(())
}

/// `bls ceremony-start`.
pub fn ceremony_start(a: CeremonyStartArgs) -> CliResult {
    let setup = Setup::ceremony_start(powers(a.max_committee)?).map_err(CliError::usage)?;
    io::write_bytes(&a.out, &setup.to_bytes())?;
    io::print_json(&json!({ "setup": "ceremony", "contributions": 0, "powers": setup.powers() }));
    Ok(())
}

/// `bls contribute`: 64 bytes of entropy from the operating system's
/// generator, erased once the contribution is made.
pub fn contribute(a: ContributeArgs) -> CliResult {
    let mut setup = read_setup(&a.params)?;
    let mut entropy = [0u8; 64];
    rand::fill(&mut entropy[..]);
    let bar = io::spinner("contributing");
    let result = setup.contribute(&entropy).map(|c| c.secret_g1);
    entropy.zeroize();
    bar.finish_and_clear();
    let secret_g1 = result.map_err(rejected)?;
    io::write_bytes(&a.out, &setup.to_bytes())?;
    let mut point = Vec::new();
    ark_serialize::CanonicalSerialize::serialize_compressed(&secret_g1, &mut point)
        .expect("writing to a Vec cannot fail");
    io::print_json(&json!({
        "contributions": setup.contributions().len(),
        "powers": setup.powers(),
        // Keep this to find your contribution in the final ceremony file.
        "your_contribution_secret_g1": hex::encode(point),
    }));
    Ok(())
}

/// `bls verify-ceremony`.
pub fn verify_ceremony(a: VerifyCeremonyArgs) -> CliResult {
    let setup = read_setup(&a.params)?;
    let bar = io::spinner("checking the ceremony");
    let report = setup.verify_ceremony();
    bar.finish_and_clear();
    let report = report.map_err(rejected)?;
    io::print_json(&json!({
        "valid": true,
        "contributions": report.contributions,
        "powers": report.powers,
        "setup_digest": hex::encode(setup.digest()),
    }));
    Ok(())
}

/// `bls committee`.
pub fn committee(a: CommitteeArgs) -> CliResult {
    let setup = read_setup(&a.params)?;
    let entries = committee_entries(&a)?;
    let weights = committee_weights(&a)?;
    let bar = io::spinner("checking proofs of possession");
    let registry = KeyRegistry::from_keys_with_proofs(&entries).map_err(rejected);
    bar.finish_and_clear();
    let bar = io::spinner("committing the committee");
    let committee = Committee::new(&setup, registry?, weights).map_err(cert_error);
    bar.finish_and_clear();
    let committee = committee?;
    io::write_bytes(&a.out, &committee.to_bytes())?;
    let key = committee.key().to_bytes();
    io::write_bytes(&a.key_out, &key)?;
    io::print_json(&json!({
        "keys": committee.keys().len(),
        "stake": committee.key().total_stake(),
        "committee_key_bytes": key.len(),
        "setup": setup_name(setup.is_insecure()),
        "setup_digest": hex::encode(setup.digest()),
    }));
    Ok(())
}

fn committee_entries(a: &CommitteeArgs) -> Result<Vec<(PublicKey, ProofOfPossession)>, CliError> {
    if let Some(keys) = &a.keys {
        let pops = a.pops_file.as_ref().ok_or_else(|| CliError::usage("--keys needs --pops-file"))?;
        let (key_bytes, pop_bytes) = (io::read_bytes(keys)?, io::read_bytes(pops)?);
        let keys = chunks(&key_bytes, PUBLIC_KEY_BYTES, "--keys")?;
        let pops = chunks(&pop_bytes, SIGNATURE_BYTES, "--pops-file")?;
        if keys.len() != pops.len() {
            return Err(CliError::usage(format!("{} keys but {} proofs of possession", keys.len(), pops.len())));
        }
        return keys
            .par_iter()
            .zip(pops.par_iter())
            .enumerate()
            .map(|(i, (k, p))| {
                let key = PublicKey::from_bytes(k).map_err(|e| rejected(format!("key #{i}: {e}")))?;
                let pop =
                    ProofOfPossession::from_bytes(p).map_err(|e| rejected(format!("proof of possession #{i}: {e}")))?;
                Ok((key, pop))
            })
            .collect();
    }
    if a.pks.is_empty() || a.pks.len() != a.pops.len() {
        return Err(CliError::usage(format!(
            "give one --pop per --pk ({} keys, {} proofs), or --keys with --pops-file",
            a.pks.len(),
            a.pops.len()
        )));
    }
    a.pks.iter().zip(&a.pops).map(|(k, p)| Ok((read_pk(k)?, read_pop(p)?))).collect()
}

fn committee_weights(a: &CommitteeArgs) -> Result<Option<Vec<u64>>, CliError> {
    if let Some(path) = &a.weights_file {
        let text = String::from_utf8(io::read_bytes(path)?)
            .map_err(|_| rejected(format!("{} is not text", path.display())))?;
        let weights = text
            .split_whitespace()
            .map(|w| w.parse::<u64>().map_err(|e| rejected(format!("{}: bad weight {w:?}: {e}", path.display()))))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Some(weights));
    }
    Ok((!a.weights.is_empty()).then(|| a.weights.clone()))
}

fn chunks<'a>(bytes: &'a [u8], size: usize, what: &str) -> Result<Vec<&'a [u8]>, CliError> {
    if bytes.is_empty() || !bytes.len().is_multiple_of(size) {
        return Err(rejected(format!("{what}: {} bytes is not a whole number of {size}-byte items", bytes.len())));
    }
    Ok(bytes.chunks(size).collect())
}

fn read_pk(path: &Path) -> Result<PublicKey, CliError> {
    PublicKey::from_bytes(&io::read_bytes(path)?).map_err(|e| rejected(format!("{}: {e}", path.display())))
}

fn read_sig(path: &Path) -> Result<Signature, CliError> {
    Signature::from_bytes(&io::read_bytes(path)?).map_err(|e| rejected(format!("{}: {e}", path.display())))
}

fn read_pop(path: &Path) -> Result<ProofOfPossession, CliError> {
    ProofOfPossession::from_bytes(&io::read_bytes(path)?).map_err(|e| rejected(format!("{}: {e}", path.display())))
}

/// `bls certify`.
pub fn certify(a: CertifyArgs) -> CliResult {
    let setup = read_setup(&a.params)?;
    let committee = Committee::from_bytes(&io::read_bytes(&a.committee)?)
        .map_err(|e| rejected(format!("{}: {e}", a.committee.display())))?;
    let msg = message(&a.message, &a.message_file)?;
    let bar = io::spinner("preparing the committee's columns");
    let prover = Prover::new(&setup, &committee).map_err(cert_error);
    bar.finish_and_clear();
    let prover = prover?;
    let bar = io::spinner("proving");
    let cert = match signed_input(&a, &committee)? {
        Input::Pairs(pairs) => prover.certify(&msg, Signed::Signatures(&pairs), a.mode.into()),
        Input::Aggregate(signers, signature) => {
            prover.certify(&msg, Signed::Aggregate { signers: &signers, signature: &signature }, a.mode.into())
        }
    };
    bar.finish_and_clear();
    let cert = cert.map_err(cert_error)?;
    let bytes = cert.to_bytes();
    io::write_bytes(&a.out, &bytes)?;
    io::print_json(&json!({
        "mode": mode_name(cert.mode()),
        "count": cert.count(),
        "stake": cert.stake(),
        "certificate_bytes": bytes.len(),
        "proof_bytes": cert.proof_len(),
        "setup": setup_name(setup.is_insecure()),
    }));
    Ok(())
}

enum Input {
    Pairs(Vec<(PublicKey, Signature)>),
    Aggregate(Bitfield, Signature),
}

fn signed_input(a: &CertifyArgs, committee: &Committee) -> Result<Input, CliError> {
    let given = [!a.pks.is_empty(), !a.signers.is_empty(), a.aggregate.is_some()];
    if given.iter().filter(|g| **g).count() != 1 {
        return Err(CliError::usage(
            "give signers as --pk/--sig pairs, or --signer INDEX:FILE, or --aggregate with --bitfield",
        ));
    }
    if let (Some(agg), Some(bits)) = (&a.aggregate, &a.bitfield) {
        let bytes = match bits.strip_prefix("0x") {
            Some(h) => hex::decode(h).map_err(|e| CliError::usage(format!("bad --bitfield hex: {e}")))?,
            None => io::read_bytes(Path::new(bits))?,
        };
        let n = committee.keys().len();
        let signers = Bitfield::from_bytes(&bytes, n).map_err(|e| rejected(format!("--bitfield: {e}")))?;
        return Ok(Input::Aggregate(signers, read_sig(agg)?));
    }
    if !a.signers.is_empty() {
        let pairs = a
            .signers
            .iter()
            .map(|s| {
                let (index, file) =
                    s.split_once(':').ok_or_else(|| CliError::usage(format!("--signer {s}: expected INDEX:FILE")))?;
                let index: usize = index.parse().map_err(|_| CliError::usage(format!("--signer {s}: bad index")))?;
                let key = committee.keys().get(index).ok_or_else(|| {
                    rejected(format!("--signer {s}: index out of range ({} keys)", committee.keys().len()))
                })?;
                Ok((*key, read_sig(Path::new(file))?))
            })
            .collect::<Result<Vec<_>, CliError>>()?;
        return Ok(Input::Pairs(pairs));
    }
    if a.pks.len() != a.sigs.len() {
        return Err(CliError::usage(format!("{} --pk but {} --sig", a.pks.len(), a.sigs.len())));
    }
    let pairs =
        a.pks.iter().zip(&a.sigs).map(|(k, s)| Ok((read_pk(k)?, read_sig(s)?))).collect::<Result<_, CliError>>()?;
    Ok(Input::Pairs(pairs))
}

pub(crate) fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Accountable => "accountable",
        Mode::Counting => "counting",
    }
}

/// Reads a committee key from a committee key file or a committee file.
fn read_committee_key(path: &Path) -> Result<CommitteeKey, CliError> {
    let bytes = io::read_bytes(path)?;
    CommitteeKey::from_bytes(&bytes)
        .or_else(|e| Committee::key_from_bytes(&bytes).map_err(|_| e))
        .map_err(|e| rejected(format!("{}: {e}", path.display())))
}

/// `bls verify-cert`.
pub fn verify_cert(a: VerifyCertArgs) -> CliResult {
    let key = read_committee_key(&a.committee_key)?;
    warn_if_insecure(key.is_insecure());
    let msg = message(&a.message, &a.message_file)?;
    let bytes = io::read_bytes(&a.cert)?;
    let cert = Certificate::from_bytes(&bytes).map_err(|e| rejected(format!("{}: {e}", a.cert.display())))?;
    let threshold = Threshold { signers: a.threshold, stake: a.stake };
    check_setup_digest(&key, a.setup_digest.as_deref())?;
    let verified = if a.allow_insecure_setup {
        verify_allowing_insecure_setup(&key, &cert, &msg, &threshold)
    } else {
        verify(&key, &cert, &msg, &threshold)
    };
    let verified = verified.map_err(|e| match e {
        CertError::InsecureSetup => rejected(format!("{e}; pass --allow-insecure-setup to check it anyway")),
        e => rejected(e),
    })?;
    io::print_json(&json!({
        "valid": true,
        "mode": mode_name(verified.mode),
        "count": verified.count,
        "stake": verified.stake,
        "threshold": a.threshold,
        "stake_threshold": a.stake,
        "signers": verified.signers.map(|b| format!("0x{}", hex::encode(b.to_bytes()))),
        "setup": setup_name(verified.insecure_setup),
        "setup_digest": hex::encode(key.setup_digest()),
        "security": "BW6-767 KZG (q-SDH, algebraic group model), SHA-256 Fiat-Shamir, BLS12-381 signature: ~117-128 bits",
    }));
    Ok(())
}

/// Fails unless the key's recorded setup digest is `expected` (hex).
fn check_setup_digest(key: &CommitteeKey, expected: Option<&str>) -> CliResult {
    let Some(expected) = expected else { return Ok(()) };
    let wanted = hex::decode(expected.trim().trim_start_matches("0x"))
        .ok()
        .filter(|d| d.len() == 32)
        .ok_or_else(|| CliError::usage("--setup-digest takes 64 hex digits (a SHA-256)"))?;
    if wanted == key.setup_digest() {
        return Ok(());
    }
    Err(rejected(CertError::SetupDigestMismatch {
        expected: hex::encode(wanted),
        found: hex::encode(key.setup_digest()),
    }))
}
