//! Aggregate and threshold proofs on files: `sigagg group-key`,
//! `sigagg aggregate`, `sigagg threshold`, [`verify_proof`] (called by
//! `sigagg verify --proof`), and the benchmarks `sigagg bench lamport-agg`
//! and `sigagg bench threshold`.
//!
//! This module holds the arguments and the Lamport+ paths; `--scheme
//! seed001` goes to [`crate::xmss_agg`] (`sigagg-xmss-agg` proofs). Keys,
//! signatures, group keys and paths are the scheme crates' encodings; every
//! file is raw bytes, or hex text when its name ends in `.hex`. Messages are
//! given in statement order, one `--message` (0x-hex or text; 64 hex digits
//! for seed001) or `--message-file` per entry, or one for every entry (the
//! consensus case), as `--epoch` is.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use rayon::prelude::*;
use serde_json::json;
use sigagg_lamport::{
    GroupKey, GroupTree, LamportPlus, LamportPlusMined, MembershipProof, ParameterSet, PublicKey, Signature,
    keygen_from_seeds, sign_all, sign_many,
};
use sigagg_lamport_agg::Named;
use sigagg_lamport_agg::security::{ProofShape, security_level};
use sigagg_lamport_agg::{
    AggregateEntry, AggregateStatement, Disclosure, Proof, ProofKind, Settings, Signer, ThresholdStatement, aggregate,
    named, threshold,
};

use crate::io::{self, CliError, CliResult};
use crate::verify::VerifyArgs;
use crate::xmss_agg;

/// Signature schemes with aggregate / threshold proofs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AggScheme {
    /// Lamport+ without mining (n = 256).
    LamportPlus,
    /// Lamport+ with 16 mined bits (n = 224).
    LamportPlusMined,
    /// Generalized XMSS, parameter set Seed001 (proofs by `sigagg-xmss-agg`).
    Seed001,
}

/// Runs `$xmss` for seed001, or `$body` with `$S` bound to the Lamport+ set
/// chosen by `$scheme`.
macro_rules! by_scheme {
    ($scheme:expr, seed001 => $xmss:expr, $S:ident => $body:expr) => {
        match $scheme {
            AggScheme::Seed001 => $xmss,
            AggScheme::LamportPlus => {
                type $S = LamportPlus;
                $body
            }
            AggScheme::LamportPlusMined => {
                type $S = LamportPlusMined;
                $body
            }
        }
    };
}

/// Lamport+ signatures are one-time: they have no epoch.
fn no_epochs(epochs: &[u32]) -> CliResult {
    if epochs.is_empty() { Ok(()) } else { Err(CliError::usage("--epoch applies to seed001 only")) }
}

/// The registry's name `name` (`--settings`), or a usage error listing
/// every name.
pub fn parse_named(name: &str) -> Result<Named, CliError> {
    name.parse().map_err(|e| CliError::usage(format!("--settings: {e}")))
}

/// Lamport+ proof-system settings by name.
fn settings_named(name: &str) -> Result<Settings, CliError> {
    parse_named(name).map(sigagg_lamport_agg::settings)
}

/// The name of benchmark settings, `custom` for those no name gives.
pub fn report_name(named: Option<Named>) -> &'static str {
    named.map_or("custom", Named::name)
}

/// A benchmark's settings: the one named, if any (the test settings
/// included), else the named FRI setting with this blowup.
fn bench_settings(name: Option<&str>, log_blowup: usize) -> Result<Settings, CliError> {
    name.map_or_else(|| settings_for_blowup(log_blowup), settings_named)
}

/// The named setting with this blowup (benchmarks).
fn settings_for_blowup(log_blowup: usize) -> Result<Settings, CliError> {
    [named::FAST, named::COMPACT].into_iter().find(|s| s.log_blowup == log_blowup).ok_or_else(|| {
        CliError::usage(format!(
            "--log-blowup {log_blowup}: use {} (fast) or {} (compact)",
            named::FAST.log_blowup,
            named::COMPACT.log_blowup
        ))
    })
}

/// Messages of a statement, in order.
#[derive(Args)]
pub struct MessageList {
    /// A message: 0x-prefixed hex or UTF-8 text (seed001: 64 hex digits); one
    /// for every entry, or repeat it, in statement order.
    #[arg(long = "message")]
    pub messages: Vec<String>,
    /// A file whose bytes (hex text if it ends in .hex) are a message; one
    /// for every entry, or repeat it, in order.
    #[arg(long = "message-file")]
    pub message_files: Vec<PathBuf>,
}

/// One value per entry of a statement with `entries` entries: `values` when
/// there is one per entry, or its single value for every entry (one
/// `--epoch` or `--message` for all signers, the consensus case); any other
/// count is a usage error naming both counts. `what` names the values
/// ("messages", "epochs").
pub fn per_entry<T: Clone>(values: Vec<T>, entries: usize, what: &str) -> Result<Vec<T>, CliError> {
    match values.as_slice() {
        [one] => Ok(vec![one.clone(); entries]),
        many if many.len() == entries => Ok(values),
        many => Err(CliError::usage(format!(
            "{entries} public keys but {} {what}: give one for all, or one per --pk",
            many.len()
        ))),
    }
}

impl MessageList {
    /// The messages as bytes.
    pub fn read(&self) -> Result<Vec<Vec<u8>>, CliError> {
        match (self.messages.is_empty(), self.message_files.is_empty()) {
            (false, true) => self.messages.iter().map(|m| io::parse_message(m)).collect(),
            (true, false) => self.message_files.iter().map(|p| io::read_bytes(p)).collect(),
            (true, true) => Err(CliError::usage("give --message or --message-file")),
            (false, false) => Err(CliError::usage("give either --message or --message-file, not both")),
        }
    }

    /// The one message of a threshold statement.
    pub fn read_one(&self) -> Result<Vec<u8>, CliError> {
        let mut all = self.read()?;
        if all.len() != 1 {
            return Err(CliError::usage("give exactly one message"));
        }
        Ok(all.remove(0))
    }
}

#[derive(Args)]
pub struct GroupKeyArgs {
    /// Scheme of the members' keys.
    #[arg(long, value_enum, default_value = "seed001")]
    pub scheme: AggScheme,
    /// Member public key files, in member order (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Group key output file (Merkle root and size).
    #[arg(long)]
    pub out: PathBuf,
    /// Also write member i's membership path to PREFIX-i.path (.path.hex with --hex).
    #[arg(long)]
    pub paths: Option<PathBuf>,
    /// Write paths as hex text.
    #[arg(long)]
    pub hex: bool,
}

#[derive(Args)]
pub struct AggregateArgs {
    /// Signature scheme.
    #[arg(long, value_enum, default_value = "seed001")]
    pub scheme: AggScheme,
    /// Proof settings: fast, compact, whir, whir-compact, whir-skip, or an insecure test setting for tests
    /// (test, test-compact, test-whir, test-whir-skip).
    #[arg(long, default_value = "fast")]
    pub settings: String,
    /// Public key files, one per entry (repeat, in order).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Signature files, one per entry (repeat, in order).
    #[arg(long = "sig", required = true)]
    pub sigs: Vec<PathBuf>,
    /// Seed001: the epoch of each entry (repeat, in order), or one for all.
    #[arg(long = "epoch")]
    pub epochs: Vec<u32>,
    #[command(flatten)]
    pub messages: MessageList,
    /// Proof output file.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct ThresholdArgs {
    /// Signature scheme.
    #[arg(long, value_enum, default_value = "seed001")]
    pub scheme: AggScheme,
    /// Proof settings: fast, compact, whir, whir-compact, whir-skip, or an insecure test setting for tests
    /// (test, test-compact, test-whir, test-whir-skip).
    #[arg(long, default_value = "fast")]
    pub settings: String,
    /// Group key file.
    #[arg(long)]
    pub group: PathBuf,
    /// The threshold t.
    #[arg(long)]
    pub threshold: u32,
    /// Seed001: the epoch every signer signed at.
    #[arg(long)]
    pub epoch: Option<u32>,
    #[command(flatten)]
    pub message: MessageList,
    /// Signers' public key files (repeat; any order).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Signers' signature files, one per --pk.
    #[arg(long = "sig", required = true)]
    pub sigs: Vec<PathBuf>,
    /// Signers' membership path files, one per --pk.
    #[arg(long = "path", required = true)]
    pub paths: Vec<PathBuf>,
    /// Reveal the signer bitmap in the proof (default: only the count).
    #[arg(long)]
    pub bitmap: bool,
    /// Proof output file.
    #[arg(long)]
    pub out: PathBuf,
}

/// Decodes every file of `paths` with `decode`; a malformed one is rejected
/// with its name.
pub fn read_all<T, E: std::fmt::Display>(
    paths: &[PathBuf],
    what: &str,
    decode: impl Fn(&[u8]) -> Result<T, E>,
) -> Result<Vec<T>, CliError> {
    paths
        .iter()
        .map(|p| decode(&io::read_bytes(p)?).map_err(|e| CliError::rejected(format!("{what} {}: {e}", p.display()))))
        .collect()
}

fn write_proof(path: &Path, proof: &Proof) -> CliResult {
    io::write_bytes(path, &proof.to_bytes())
}

pub fn group_key(args: GroupKeyArgs) -> CliResult {
    by_scheme!(args.scheme, seed001 => xmss_agg::group_key(&args), S => group_key_for::<S>(&args))
}

/// The file member `i`'s path goes to: `PREFIX-i.path` (`.path.hex` with `--hex`).
pub fn path_file(prefix: &Path, i: usize, hex: bool) -> PathBuf {
    PathBuf::from(format!("{}-{i}.path{}", prefix.display(), if hex { ".hex" } else { "" }))
}

fn group_key_for<S: ParameterSet>(args: &GroupKeyArgs) -> CliResult {
    let pks = read_all(&args.pks, "public key", PublicKey::<S>::from_bytes)?;
    let tree = GroupTree::new(&pks).map_err(CliError::rejected)?;
    let key = tree.key();
    io::write_bytes(&args.out, &key.to_bytes())?;
    if let Some(prefix) = &args.paths {
        for i in 0..pks.len() {
            let proof = tree.prove(i as u32).map_err(CliError::rejected)?;
            io::write_bytes(&path_file(prefix, i, args.hex), &proof.to_bytes())?;
        }
    }
    io::print_json(&json!({
        "scheme": S::NAME,
        "root": hex::encode(sigagg_lamport::field::digest_to_bytes(key.root())),
        "size": key.size(),
        "depth": key.depth(),
    }));
    Ok(())
}

pub fn aggregate(args: AggregateArgs) -> CliResult {
    by_scheme!(args.scheme, seed001 => xmss_agg::aggregate_files(&args), S => aggregate_for::<S>(&args))
}

fn aggregate_statement<S: ParameterSet>(
    pks: &[PathBuf],
    messages: &MessageList,
) -> Result<AggregateStatement<S>, CliError> {
    let pks = read_all(pks, "public key", PublicKey::<S>::from_bytes)?;
    let messages = per_entry(messages.read()?, pks.len(), "messages")?;
    let entries = pks.into_iter().zip(messages).map(|(public_key, message)| AggregateEntry { public_key, message });
    AggregateStatement::new(entries.collect()).map_err(CliError::rejected)
}

fn aggregate_for<S: ParameterSet>(args: &AggregateArgs) -> CliResult {
    no_epochs(&args.epochs)?;
    let settings = settings_named(&args.settings)?;
    let statement = aggregate_statement::<S>(&args.pks, &args.messages)?;
    let sigs = read_all(&args.sigs, "signature", Signature::<S>::from_bytes)?;
    let t = Instant::now();
    let proof = aggregate::prove(&settings, &statement, &sigs).map_err(CliError::rejected)?;
    write_proof(&args.out, &proof)?;
    eprintln!(
        "aggregated {} {} signatures in {:.2} s ({} bytes)",
        statement.len(),
        S::NAME,
        t.elapsed().as_secs_f64(),
        proof.to_bytes().len()
    );
    Ok(())
}

pub fn threshold(args: ThresholdArgs) -> CliResult {
    by_scheme!(args.scheme, seed001 => xmss_agg::threshold_files(&args), S => threshold_for::<S>(&args))
}

fn threshold_statement<S: ParameterSet>(
    group: &Path,
    message: &MessageList,
    t: u32,
) -> Result<ThresholdStatement<S>, CliError> {
    let group = GroupKey::from_bytes(&io::read_bytes(group)?).map_err(CliError::rejected)?;
    ThresholdStatement::new(group, message.read_one()?, t).map_err(CliError::rejected)
}

fn threshold_for<S: ParameterSet>(args: &ThresholdArgs) -> CliResult {
    no_epochs(args.epoch.as_slice())?;
    let settings = settings_named(&args.settings)?;
    let statement = threshold_statement::<S>(&args.group, &args.message, args.threshold)?;
    if args.sigs.len() != args.pks.len() || args.paths.len() != args.pks.len() {
        return Err(CliError::usage("give one --sig and one --path per --pk"));
    }
    let pks = read_all(&args.pks, "public key", PublicKey::<S>::from_bytes)?;
    let sigs = read_all(&args.sigs, "signature", Signature::<S>::from_bytes)?;
    let paths = read_all(&args.paths, "membership path", MembershipProof::from_bytes)?;
    let signers: Vec<Signer<S>> = pks
        .into_iter()
        .zip(sigs)
        .zip(paths)
        .map(|((public_key, signature), path)| Signer { public_key, signature, path })
        .collect();
    let disclosure = if args.bitmap { Disclosure::Bitmap } else { Disclosure::CountOnly };
    let t = Instant::now();
    let proof = threshold::prove(&settings, &statement, &signers, disclosure).map_err(CliError::rejected)?;
    write_proof(&args.out, &proof)?;
    eprintln!(
        "proved {} of {} (threshold {}) in {:.2} s ({} bytes)",
        proof.count,
        statement.group().size(),
        statement.threshold(),
        t.elapsed().as_secs_f64(),
        proof.to_bytes().len()
    );
    Ok(())
}

/// Verifies a proof file against the statement given on the command line
/// and prints one JSON object (`"valid": true`, the kind, and for a
/// threshold proof the proven count and, if disclosed, the signers).
/// Rejected proofs are `CliError::rejected` (exit status 1).
pub fn verify_proof(scheme: AggScheme, args: &VerifyArgs) -> CliResult {
    by_scheme!(scheme, seed001 => xmss_agg::verify_proof(args), S => verify_proof_for::<S>(args))
}

/// The proven and conjectured bits of a verified proof's settings, with a
/// warning on standard error when they are too few to mean anything (the
/// insecure test settings): a valid proof is only as strong as them.
pub fn verified_security(name: &str, level: (f64, f64)) -> (f64, f64) {
    if level.0 < 80.0 {
        eprintln!("warning: settings {name} give only {:.1} proven bits; the proof convinces no one", level.0);
    }
    level
}

/// The settings `verify --proof` checks a proof under: those `--settings`
/// names (exactly those, or the proof is refused), else the proof's own if
/// a name gives them, which must then reach `--min-bits` proven bits.
/// Settings no name gives are refused: the verifier runs only
/// configurations whose cost and security are stated.
pub struct ProofSettings {
    /// The settings.
    pub settings: Settings,
    /// Their name.
    pub name: &'static str,
    /// The proven bits they must give: `--min-bits` for the proof's own
    /// settings, none for settings `--settings` names explicitly.
    min_bits: Option<f64>,
}

impl ProofSettings {
    /// Chooses as the type's documentation says; `settings_of` and
    /// `named` are the scheme's mapping of the registry's names
    /// (`sigagg_xmss_agg::settings`/`named`, or Lamport+'s).
    pub fn choose(
        args: &VerifyArgs,
        from_proof: Settings,
        settings_of: fn(Named) -> Settings,
        named: fn(&Settings) -> Option<Named>,
    ) -> Result<ProofSettings, CliError> {
        let (name, min_bits) = match args.settings.as_deref() {
            Some(name) => (parse_named(name)?, None),
            None => match named(&from_proof) {
                Some(name) => (name, Some(args.min_bits)),
                None => {
                    return Err(CliError::rejected(
                        "the proof was made with settings no name gives; name them with --settings",
                    ));
                }
            },
        };
        Ok(ProofSettings { settings: settings_of(name), name: name.name(), min_bits })
    }

    /// The proven and conjectured bits of a proof verified under these
    /// settings, refused below the level they must reach
    /// ([`verified_security`] warns below 80 either way).
    pub fn accept(&self, level: (f64, f64)) -> Result<(f64, f64), CliError> {
        if let Some(min_bits) = self.min_bits
            && level.0 < min_bits
        {
            return Err(CliError::rejected(format!(
                "the proof's settings {} give {:.1} proven bits, below --min-bits {min_bits}; \
                 pass a lower --min-bits, or --settings {}, to accept them",
                self.name, level.0, self.name
            )));
        }
        Ok(verified_security(self.name, level))
    }
}

fn verify_proof_for<S: ParameterSet>(args: &VerifyArgs) -> CliResult {
    no_epochs(&args.epochs)?;
    let proof_path = args.proof.as_deref().ok_or_else(|| CliError::usage("give --proof"))?;
    let proof = Proof::from_bytes(&io::read_bytes(proof_path)?).map_err(CliError::rejected)?;
    let chosen = ProofSettings::choose(args, proof.settings, sigagg_lamport_agg::settings, sigagg_lamport_agg::named)?;
    let (settings, name) = (chosen.settings, chosen.name);
    let reject = |e: sigagg_lamport_agg::VerifyError| CliError::rejected(format!("invalid proof: {e}"));
    match (args.group.as_ref(), args.threshold) {
        (Some(group), Some(t)) => {
            if !args.pks.is_empty() {
                return Err(CliError::usage("a threshold statement takes --group and --threshold, not --pk"));
            }
            let statement = threshold_statement::<S>(group, &args.messages, t)?;
            threshold::verify(&settings, &statement, &proof).map_err(reject)?;
            let signers =
                proof.bitmap.as_deref().and_then(|b| sigagg_lamport_agg::members_of(statement.group().size(), b));
            let shape = ProofShape::Threshold { signers: proof.count as usize, group_size: statement.group().size() };
            let level = security_level(&settings, S::NUM_SUBKEYS, shape);
            let security = chosen.accept((level.proven_bits, level.conjectured_bits))?;
            io::print_json(&json!({
                "valid": true,
                "kind": ProofKind::Threshold.name(),
                "scheme": S::NAME,
                "count": proof.count,
                "threshold": t,
                "group_size": statement.group().size(),
                "signers": signers,
                "settings": name,
                "proven_bits": security.0,
                "conjectured_bits": security.1,
            }));
        }
        (None, None) => {
            let statement = aggregate_statement::<S>(&args.pks, &args.messages)?;
            aggregate::verify(&settings, &statement, &proof).map_err(reject)?;
            let shape = ProofShape::Aggregate { signatures: statement.len() };
            let level = security_level(&settings, S::NUM_SUBKEYS, shape);
            let security = chosen.accept((level.proven_bits, level.conjectured_bits))?;
            io::print_json(&json!({
                "valid": true,
                "kind": ProofKind::Aggregate.name(),
                "scheme": S::NAME,
                "count": proof.count,
                "settings": name,
                "proven_bits": security.0,
                "conjectured_bits": security.1,
            }));
        }
        _ => return Err(CliError::usage("a threshold statement needs both --group and --threshold")),
    }
    Ok(())
}

#[derive(Args)]
pub struct AggBenchArgs {
    /// Signature scheme.
    #[arg(long, value_enum, default_value = "lamport-plus")]
    pub scheme: AggScheme,
    /// Number of signatures (distinct messages).
    #[arg(long, default_value_t = 1024)]
    pub n: usize,
    /// log2 of the blowup: 1 is the fast setting, 3 the compact one.
    #[arg(long, default_value_t = 1)]
    pub log_blowup: usize,
    /// Named settings (fast, compact, whir, whir-compact, whir-skip, or test, test-compact, test-whir,
    /// test-whir-skip), in place of --log-blowup.
    #[arg(long)]
    pub settings: Option<String>,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ThresholdBenchArgs {
    /// Signature scheme.
    #[arg(long, value_enum, default_value = "lamport-plus")]
    pub scheme: AggScheme,
    /// Group size.
    #[arg(long, default_value_t = 1024)]
    pub n: u32,
    /// Threshold (default: ceil(2n/3)).
    #[arg(long)]
    pub t: Option<u32>,
    /// Members who sign (default: all n; at least t).
    #[arg(long)]
    pub signers: Option<u32>,
    /// log2 of the blowup: 1 is the fast setting, 3 the compact one.
    #[arg(long, default_value_t = 1)]
    pub log_blowup: usize,
    /// Named settings (fast, compact, whir, whir-compact, whir-skip, or test, test-compact, test-whir,
    /// test-whir-skip), in place of --log-blowup.
    #[arg(long)]
    pub settings: Option<String>,
    /// Reveal the signer bitmap.
    #[arg(long)]
    pub bitmap: bool,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

/// t = ceil(2n/3): the consensus quorum, the default threshold of the
/// threshold benchmark and of the demo.
pub fn two_thirds(n: u32) -> u32 {
    (2 * n).div_ceil(3)
}

impl ThresholdBenchArgs {
    /// `(n, t, signers)`, checked: `1 <= t <= signers <= n`, signers at most `max`.
    pub fn shape(&self, max: usize) -> Result<(u32, u32, u32), CliError> {
        let n = self.n;
        let t = self.t.unwrap_or(two_thirds(n));
        let signing = self.signers.unwrap_or(n);
        if n == 0 || t == 0 || t > n || signing < t || signing > n || signing as usize > max {
            return Err(CliError::usage(format!("need 1 <= t <= signers <= n and signers <= {max}")));
        }
        Ok((n, t, signing))
    }

    /// The signing members: spread evenly over the group when not all sign.
    pub fn members(&self) -> Vec<usize> {
        let signing = self.signers.unwrap_or(self.n) as usize;
        let step = self.n as usize / signing.max(1);
        (0..signing).map(|k| k * step).collect()
    }
}

/// Deterministic benchmark keys.
fn bench_keys<S: ParameterSet>(n: usize) -> (Vec<PublicKey<S>>, Vec<sigagg_lamport::SecretKey<S>>) {
    let seeds: Vec<[u8; 32]> = (0..n as u64)
        .map(|i| {
            let mut s = [0x5a; 32];
            s[..8].copy_from_slice(&i.to_le_bytes());
            s
        })
        .collect();
    keygen_from_seeds::<S>(&seeds).expect("distinct bench seeds").into_iter().unzip()
}

pub fn bench_aggregate(args: AggBenchArgs) -> CliResult {
    by_scheme!(
        args.scheme,
        seed001 => Err(CliError::usage("for seed001 use `sigagg bench xmss-agg`")),
        S => bench_aggregate_for::<S>(&args)
    )
}

fn bench_aggregate_for<S: ParameterSet>(args: &AggBenchArgs) -> CliResult {
    let settings = bench_settings(args.settings.as_deref(), args.log_blowup)?;
    let max = sigagg_lamport_agg::layout::max_signatures(&settings);
    if args.n == 0 || args.n > max {
        return Err(CliError::usage(format!("--n must be in 1..={max}")));
    }
    let n = args.n;
    let (pks, mut sks) = bench_keys::<S>(n);
    let messages: Vec<Vec<u8>> =
        (0..n as u64).map(|i| [b"bench aggregate ".as_slice(), &i.to_le_bytes()].concat()).collect();
    let sigs = sign_many(&mut sks, &messages).map_err(CliError::rejected)?;
    let entries = pks.iter().zip(&messages).map(|(pk, m)| AggregateEntry { public_key: *pk, message: m.clone() });
    let statement = AggregateStatement::new(entries.collect()).map_err(CliError::rejected)?;
    let run = io::ProofRun::measure(
        || aggregate::prove(&settings, &statement, &sigs).map_err(CliError::rejected),
        Proof::to_bytes,
        |bytes| {
            let decoded = Proof::from_bytes(bytes).map_err(CliError::rejected)?;
            aggregate::verify(&settings, &statement, &decoded).map_err(CliError::rejected)
        },
    )?;
    let security = security_level(&settings, S::NUM_SUBKEYS, ProofShape::Aggregate { signatures: n });
    let hashed: usize = sigs
        .par_iter()
        .zip(&messages)
        .map(|(s, m)| sigagg_lamport::codeword::<S>(m, s.counter()).map_or(0, |c| c.ones()))
        .sum();
    let head = json!({
        "bench": "lamport-agg",
        "scheme": S::NAME,
        "n": n,
        "settings": report_name(sigagg_lamport_agg::named(&settings)),
        "permutations": { "width16": hashed, "width24": n * S::NUM_SUBKEYS / 2 },
    });
    io::print_json(&run.report(head, &settings, (security.proven_bits, security.conjectured_bits), n));
    Ok(())
}

pub fn bench_threshold(args: ThresholdBenchArgs) -> CliResult {
    by_scheme!(args.scheme, seed001 => xmss_agg::bench_threshold(&args), S => bench_threshold_for::<S>(&args))
}

fn bench_threshold_for<S: ParameterSet>(args: &ThresholdBenchArgs) -> CliResult {
    let settings = bench_settings(args.settings.as_deref(), args.log_blowup)?;
    let (n, t, signing) = args.shape(sigagg_lamport_agg::layout::max_signatures(&settings))?;
    let (pks, mut sks) = bench_keys::<S>(n as usize);
    let tree = GroupTree::new(&pks).map_err(CliError::rejected)?;
    let message = b"bench threshold message";
    let members = args.members();
    let mut chosen: Vec<_> = members
        .iter()
        .map(|&i| std::mem::replace(&mut sks[i], sigagg_lamport::SecretKey::from_seed([0; 32])))
        .collect();
    let sigs = sign_all(&mut chosen, message).map_err(CliError::rejected)?;
    let signers: Vec<Signer<S>> = members
        .iter()
        .zip(sigs)
        .map(|(&i, signature)| Signer { public_key: pks[i], signature, path: tree.prove(i as u32).expect("a member") })
        .collect();
    let statement = ThresholdStatement::new(tree.key(), message.to_vec(), t).map_err(CliError::rejected)?;
    let disclosure = if args.bitmap { Disclosure::Bitmap } else { Disclosure::CountOnly };
    let run = io::ProofRun::measure(
        || threshold::prove(&settings, &statement, &signers, disclosure).map_err(CliError::rejected),
        Proof::to_bytes,
        |bytes| {
            let decoded = Proof::from_bytes(bytes).map_err(CliError::rejected)?;
            threshold::verify(&settings, &statement, &decoded).map_err(CliError::rejected)
        },
    )?;
    let security =
        security_level(&settings, S::NUM_SUBKEYS, ProofShape::Threshold { signers: signing as usize, group_size: n });
    let head = json!({
        "bench": "threshold",
        "scheme": S::NAME,
        "n": n,
        "t": t,
        "signers": signing,
        "depth": statement.group().depth(),
        "bitmap": args.bitmap,
        "settings": report_name(sigagg_lamport_agg::named(&settings)),
    });
    let bits = (security.proven_bits, security.conjectured_bits);
    io::print_json(&run.report(head, &settings, bits, signing as usize));
    Ok(())
}

#[cfg(test)]
mod named_tests {
    use clap::CommandFactory;

    use super::*;

    /// Every `--settings` option's help names every setting of the
    /// registry, so that a new name cannot be left out of the help.
    fn check(cmd: &clap::Command, found: &mut usize) {
        for arg in cmd.get_arguments().filter(|a| a.get_id() == "settings") {
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            for name in Named::names() {
                assert!(help.split([' ', ',', '(', ')']).any(|w| w == name), "{}: {help} lacks {name}", cmd.get_name());
            }
            *found += 1;
        }
        for sub in cmd.get_subcommands() {
            check(sub, found);
        }
    }

    #[test]
    fn every_settings_help_lists_every_name() {
        let mut found = 0;
        check(&crate::Cli::command(), &mut found);
        assert!(found >= 4, "{found}");
    }

    #[test]
    fn unknown_names_are_usage_errors_listing_every_name() {
        let e = parse_named("fastest").unwrap_err().to_string();
        for name in Named::names() {
            assert!(e.contains(name), "{e}");
        }
        for named in Named::ALL {
            assert_eq!(parse_named(named.name()).unwrap(), named);
        }
    }
}
