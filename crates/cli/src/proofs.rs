//! Aggregate and threshold proofs on files, for every scheme that has them
//! (Seed001 XMSS and both Lamport+ sets): `sigagg group-key`,
//! `sigagg aggregate`, `sigagg threshold` and [`verify_proof`] (called by
//! `sigagg verify --proof`), all through one path: [`sigagg_bytes`]'s
//! `group`, `aggregate`, `prove_threshold`, `verify_*`, `inspect` and
//! `security`.
//!
//! Keys, signatures, group keys and paths are the scheme crates'
//! encodings; every file is raw bytes, or hex text when its name ends in
//! `.hex`. Messages are given in statement order, one `--message` (0x-hex
//! or text; 64 hex digits for seed001) or `--message-file` per entry, or
//! one for every entry (the consensus case), as `--epoch` is.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde_json::json;
use sigagg_bytes::{ErrorKind, ProofKind, ProofSettings, Scheme, Shape};

use crate::args::{self, AGGREGATABLE, GROUPS, MessageList, per_entry};
use crate::io::{self, CliError, CliResult};
use crate::verify::VerifyArgs;

#[derive(Args)]
pub struct GroupKeyArgs {
    /// Scheme of the members' keys.
    #[arg(long, value_parser = args::schemes(GROUPS), default_value = "seed001")]
    pub scheme: Scheme,
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
    /// Signature scheme (leansig-prod: leanSpec's SSZ container AggregatedSignatureProof).
    #[arg(long, value_parser = args::schemes(AGGREGATABLE), default_value = "seed001")]
    pub scheme: Scheme,
    /// Proof settings: fast, compact, whir, whir-compact, whir-skip, whir-skip-poseidon2, whir-skip-compact, or an insecure test setting for tests
    /// (test, test-compact, test-whir, test-whir-skip). Default: fast; whir-skip for leansig-prod.
    #[arg(long)]
    pub settings: Option<String>,
    /// Public key files, one per entry (repeat, in order).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Signature files, one per entry (repeat, in order).
    #[arg(long = "sig", required = true)]
    pub sigs: Vec<PathBuf>,
    /// Seed001: the epoch of each entry (repeat, in order), or one for all.
    /// leansig-prod: the one slot every signer signed at.
    #[arg(long = "epoch")]
    pub epochs: Vec<u32>,
    /// leansig-prod: the validator index of each --pk (repeat, ascending), for
    /// the container's participants bitlist. Default: 0, 1, ... (every key).
    #[arg(long = "participant")]
    pub participants: Vec<u64>,
    #[command(flatten)]
    pub messages: MessageList,
    /// Proof output file.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct ThresholdArgs {
    /// Signature scheme.
    #[arg(long, value_parser = args::schemes(GROUPS), default_value = "seed001")]
    pub scheme: Scheme,
    /// Proof settings: fast, compact, whir, whir-compact, whir-skip, whir-skip-poseidon2, whir-skip-compact, or an insecure test setting for tests
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

/// XMSS statements carry epochs; Lamport+ keys are one-time and have none.
fn is_xmss(scheme: Scheme) -> bool {
    matches!(scheme, Scheme::Seed001 | Scheme::LeanSigProd)
}

/// Lamport+ signatures are one-time: they have no epoch.
fn no_epochs(scheme: Scheme, epochs: &[u32]) -> CliResult {
    if is_xmss(scheme) || epochs.is_empty() {
        Ok(())
    } else {
        Err(CliError::usage("--epoch applies to seed001 and leansig-prod only"))
    }
}

pub fn group_key(args: GroupKeyArgs) -> CliResult {
    let pks = args::read_files(&args.pks)?;
    let group = sigagg_bytes::group(args.scheme, &args::slices(&pks)).map_err(CliError::rejected)?;
    io::write_bytes(&args.out, &group.key)?;
    if let Some(prefix) = &args.paths {
        for (i, path) in group.paths.iter().enumerate() {
            io::write_bytes(&args::path_file(prefix, i, args.hex), path)?;
        }
    }
    let info = sigagg_bytes::group_info(args.scheme, &group.key).map_err(CliError::rejected)?;
    io::print_json(&json!({
        "scheme": args.scheme.name(),
        "root": hex::encode(info.root),
        "size": info.size,
        "depth": info.depth,
    }));
    Ok(())
}

/// The files of an aggregate statement, read: keys, messages and epochs
/// (one per key, or one for all; checked here so that a wrong count is a
/// usage error naming both counts).
struct AggregateFiles {
    pks: Vec<Vec<u8>>,
    messages: Vec<Vec<u8>>,
    epochs: Vec<u32>,
}

impl AggregateFiles {
    fn read(scheme: Scheme, pks: &[PathBuf], epochs: &[u32], messages: &MessageList) -> Result<Self, CliError> {
        no_epochs(scheme, epochs)?;
        let pks = args::read_files(pks)?;
        let messages = per_entry(messages.read(is_xmss(scheme))?, pks.len(), "messages")?;
        let epochs = if is_xmss(scheme) { per_entry(epochs.to_vec(), pks.len(), "epochs")? } else { vec![] };
        Ok(Self { pks, messages, epochs })
    }

    /// Runs `f` on the statement these files make.
    fn with<T>(&self, f: impl FnOnce(&sigagg_bytes::AggregateStatement<'_>) -> T) -> T {
        let (pks, messages) = (args::slices(&self.pks), args::slices(&self.messages));
        f(&sigagg_bytes::AggregateStatement { public_keys: &pks, messages: &messages, epochs: &self.epochs })
    }
}

pub fn aggregate(args: AggregateArgs) -> CliResult {
    if args.scheme == Scheme::LeanSigProd {
        return crate::lean::aggregate(args);
    }
    if !args.participants.is_empty() {
        return Err(CliError::usage("--participant applies to leansig-prod only"));
    }
    let settings = args::parse_named(args.settings.as_deref().unwrap_or("fast"))?;
    let files = AggregateFiles::read(args.scheme, &args.pks, &args.epochs, &args.messages)?;
    let sigs = args::read_files(&args.sigs)?;
    let t = Instant::now();
    let proof = files
        .with(|st| sigagg_bytes::aggregate(args.scheme, settings, st, &args::slices(&sigs)))
        .map_err(CliError::rejected)?;
    io::write_bytes(&args.out, &proof)?;
    eprintln!(
        "aggregated {} {} signatures in {:.2} s ({} bytes)",
        files.pks.len(),
        args.scheme.name(),
        t.elapsed().as_secs_f64(),
        proof.len()
    );
    Ok(())
}

/// The files of a threshold statement, read.
struct ThresholdFiles {
    group: Vec<u8>,
    message: Vec<u8>,
    epoch: Option<u32>,
    threshold: u32,
}

impl ThresholdFiles {
    fn read(scheme: Scheme, group: &Path, epoch: Option<u32>, message: &MessageList, t: u32) -> Result<Self, CliError> {
        no_epochs(scheme, epoch.as_slice())?;
        if is_xmss(scheme) && epoch.is_none() {
            return Err(CliError::usage(format!("{} needs --epoch", scheme.name())));
        }
        let message = message.read_one(is_xmss(scheme))?;
        Ok(Self { group: io::read_bytes(group)?, message, epoch, threshold: t })
    }

    fn statement(&self) -> sigagg_bytes::ThresholdStatement<'_> {
        sigagg_bytes::ThresholdStatement {
            group_key: &self.group,
            threshold: self.threshold,
            message: &self.message,
            epoch: self.epoch,
        }
    }
}

pub fn threshold(args: ThresholdArgs) -> CliResult {
    let settings = args::parse_named(&args.settings)?;
    let files = ThresholdFiles::read(args.scheme, &args.group, args.epoch, &args.message, args.threshold)?;
    if args.sigs.len() != args.pks.len() || args.paths.len() != args.pks.len() {
        return Err(CliError::usage("give one --sig and one --path per --pk"));
    }
    let (pks, sigs, paths) =
        (args::read_files(&args.pks)?, args::read_files(&args.sigs)?, args::read_files(&args.paths)?);
    let signers: Vec<sigagg_bytes::Signer<'_>> = pks
        .iter()
        .zip(&sigs)
        .zip(&paths)
        .map(|((public_key, signature), path)| sigagg_bytes::Signer { public_key, signature, path })
        .collect();
    let t = Instant::now();
    let proof = sigagg_bytes::prove_threshold(args.scheme, settings, &files.statement(), &signers, args.bitmap)
        .map_err(CliError::rejected)?;
    io::write_bytes(&args.out, &proof)?;
    let count = sigagg_bytes::inspect(args.scheme, &proof).map_err(CliError::rejected)?.count;
    let size = sigagg_bytes::group_info(args.scheme, &files.group).map_err(CliError::rejected)?.size;
    eprintln!(
        "proved {count} of {size} (threshold {}) in {:.2} s ({} bytes)",
        args.threshold,
        t.elapsed().as_secs_f64(),
        proof.len()
    );
    Ok(())
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
pub struct ChosenSettings {
    /// The settings.
    pub named: ProofSettings,
    /// The proven bits they must give: `--min-bits` for the proof's own
    /// settings, none for settings `--settings` names explicitly.
    min_bits: Option<f64>,
}

impl ChosenSettings {
    /// Chooses as the type's documentation says; `from_proof` is the
    /// proof's own named settings, if a name gives them.
    pub fn choose(args: &VerifyArgs, from_proof: Option<ProofSettings>) -> Result<Self, CliError> {
        match (args.settings.as_deref(), from_proof) {
            (Some(name), _) => Ok(Self { named: args::parse_named(name)?, min_bits: None }),
            (None, Some(named)) => Ok(Self { named, min_bits: Some(args.min_bits) }),
            (None, None) => {
                Err(CliError::rejected("the proof was made with settings no name gives; name them with --settings"))
            }
        }
    }

    /// The proven and conjectured bits of a proof verified under these
    /// settings, refused below the level they must reach
    /// ([`verified_security`] warns below 80 either way).
    pub fn accept(&self, level: (f64, f64)) -> Result<(f64, f64), CliError> {
        let name = self.named.name();
        if let Some(min_bits) = self.min_bits
            && level.0 < min_bits
        {
            return Err(CliError::rejected(format!(
                "the proof's settings {name} give {:.1} proven bits, below --min-bits {min_bits}; \
                 pass a lower --min-bits, or --settings {name}, to accept them",
                level.0
            )));
        }
        Ok(verified_security(name, level))
    }

    /// [`ChosenSettings::accept`] of the security of these settings for `shape`.
    fn accept_shape(&self, scheme: Scheme, shape: Shape) -> Result<(f64, f64), CliError> {
        let s = sigagg_bytes::security(scheme, self.named, shape).map_err(CliError::rejected)?;
        self.accept((s.proven_bits, s.conjectured_bits))
    }
}

/// A failed verification: "invalid proof: ..." for a proof that decodes
/// but does not verify or does not decode, as the error says otherwise.
pub(crate) fn invalid(e: sigagg_bytes::Error) -> CliError {
    match e.kind() {
        ErrorKind::Verify | ErrorKind::Decode => CliError::rejected(format!("invalid proof: {e}")),
        _ => CliError::rejected(e),
    }
}

/// Verifies a proof file against the statement given on the command line
/// and prints one JSON object (`"valid": true`, the kind, and for a
/// threshold proof the proven count and, if disclosed, the signers).
/// The proof's own bytes say whether it is an aggregate or a threshold
/// proof; the command line must give the matching statement. Rejected
/// proofs are `CliError::rejected` (exit status 1).
pub fn verify_proof(scheme: Scheme, args: &VerifyArgs) -> CliResult {
    let proof_path = args.proof.as_deref().ok_or_else(|| CliError::usage("give --proof"))?;
    let proof = io::read_bytes(proof_path)?;
    let info = sigagg_bytes::inspect(scheme, &proof).map_err(invalid)?;
    match info.kind {
        ProofKind::Threshold => verify_threshold(scheme, args, &proof, info.settings),
        ProofKind::Aggregate => verify_aggregate(scheme, args, &proof, info.settings),
    }
}

fn verify_threshold(scheme: Scheme, args: &VerifyArgs, proof: &[u8], own: Option<ProofSettings>) -> CliResult {
    let (Some(group), Some(t), true) = (&args.group, args.threshold, args.pks.is_empty()) else {
        return Err(CliError::usage(
            "a threshold proof takes --group, --threshold and --message (no --pk); seed001 and leansig-prod also --epoch",
        ));
    };
    let epoch = match (is_xmss(scheme), &args.epochs[..]) {
        (true, [epoch]) => Some(*epoch),
        (true, _) => return Err(CliError::usage("a threshold proof takes exactly one --epoch")),
        (false, epochs) => {
            no_epochs(scheme, epochs)?;
            None
        }
    };
    let files = ThresholdFiles::read(scheme, group, epoch, &args.messages, t)?;
    let chosen = ChosenSettings::choose(args, own)?;
    let certificate =
        sigagg_bytes::verify_threshold(scheme, chosen.named, &files.statement(), proof).map_err(invalid)?;
    let group_size = sigagg_bytes::group_info(scheme, &files.group).map_err(CliError::rejected)?.size;
    let shape = Shape::Threshold { signers: certificate.count as usize, group_size };
    let security = chosen.accept_shape(scheme, shape)?;
    io::print_json(&json!({
        "valid": true,
        "kind": ProofKind::Threshold.name(),
        "scheme": scheme.name(),
        "count": certificate.count,
        "threshold": t,
        "group_size": group_size,
        "signers": certificate.signers,
        "settings": chosen.named.name(),
        "proven_bits": security.0,
        "conjectured_bits": security.1,
    }));
    Ok(())
}

fn verify_aggregate(scheme: Scheme, args: &VerifyArgs, proof: &[u8], own: Option<ProofSettings>) -> CliResult {
    if args.group.is_some() || args.threshold.is_some() {
        return Err(CliError::usage(
            "an aggregate proof takes --pk and --message per entry, seed001 also --epoch (no --group)",
        ));
    }
    let files = AggregateFiles::read(scheme, &args.pks, &args.epochs, &args.messages)?;
    let chosen = ChosenSettings::choose(args, own)?;
    files.with(|st| sigagg_bytes::verify_aggregate(scheme, chosen.named, st, proof)).map_err(invalid)?;
    let count = files.pks.len();
    let security = chosen.accept_shape(scheme, Shape::Aggregate { signatures: count })?;
    io::print_json(&json!({
        "valid": true,
        "kind": ProofKind::Aggregate.name(),
        "scheme": scheme.name(),
        "count": count,
        "settings": chosen.named.name(),
        "proven_bits": security.0,
        "conjectured_bits": security.1,
    }));
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
            for name in ProofSettings::names() {
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
}
