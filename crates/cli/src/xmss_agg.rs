//! Seed001 XMSS proofs (`sigagg-xmss-agg`) on files: the `--scheme seed001`
//! paths of `group-key`, `aggregate`, `threshold`, `verify --proof` and
//! `bench threshold`, and `bench xmss-agg`.
//!
//! Keys and signatures are the XMSS SSZ encodings, group keys 36 bytes
//! (root and size), membership paths `MembershipPath::to_bytes`; proofs
//! start with `SGXAGG` (aggregate) or `SGXTHR` (threshold).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use sigagg_xmss::group::{GroupKey, GroupTree, MembershipPath};
use sigagg_xmss::{PublicKey, Seed001, Signature, single_epoch_key_and_signature};
use sigagg_xmss_agg::proof::{PROOF_MAGIC, THRESHOLD_PROOF_MAGIC};
use sigagg_xmss_agg::security::security_level;
use sigagg_xmss_agg::threshold::{self as stark_threshold, Disclosure, Signer, ThresholdStatement};
use sigagg_xmss_agg::{AggregateEntry as Entry, AggregateStatement as Statement, Proof, Settings, aggregate};

use crate::agg::{
    AggregateArgs, GroupKeyArgs, ProofSettings, ThresholdArgs, ThresholdBenchArgs, path_file, per_entry, read_all,
};
use crate::io::{self, CliError, CliResult};
use crate::verify::VerifyArgs;
use crate::xmss::messages32;

#[derive(Args)]
pub struct BenchArgs {
    /// Number of signatures.
    #[arg(long, default_value_t = 1024)]
    pub n: usize,
    /// log2 of the blowup: 1 is the fast setting, 3 the compact one.
    #[arg(long, default_value_t = 1)]
    pub log_blowup: usize,
    /// Named settings (fast, compact, whir, whir-compact, whir-skip, or test, test-compact, test-whir,
    /// test-whir-skip), in place of --log-blowup.
    #[arg(long)]
    pub settings: Option<String>,
    /// Every signer signs its own message (default: one shared message, the consensus case).
    #[arg(long)]
    pub distinct_messages: bool,
    /// Prove once untimed first (reported as `first_prove_s`) and time the
    /// second proof of the same process: the steady state of a long-running
    /// aggregator, whose memory the host already backs. Without it the timed
    /// proof is the process's first, which also pays the first touch of
    /// every page (BENCHMARKS.md).
    #[arg(long)]
    pub warm: bool,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

/// The settings a benchmark runs with: those named by `--settings`, else
/// the named FRI settings of `--log-blowup`.
pub fn bench_settings(named: Option<&str>, log_blowup: usize) -> Result<Settings, CliError> {
    named.map_or_else(|| settings_for(log_blowup), settings_named)
}

/// The named settings for a blowup.
pub fn settings_for(log_blowup: usize) -> Result<Settings, CliError> {
    match log_blowup {
        1 => Ok(Settings::FAST),
        3 => Ok(Settings::COMPACT),
        other => Err(CliError::usage(format!("--log-blowup {other}: use 1 (fast) or 3 (compact)"))),
    }
}

/// `n` genuine Seed001 key pairs and signatures, made quickly: each key's
/// tree has one real leaf (the signing epoch) and random siblings.
pub fn quick_signatures(n: usize, distinct: bool) -> (Statement, Vec<Signature<Seed001>>) {
    let epoch = 4242;
    let shared = *b"sigagg benchmark consensus root!";
    let bar = io::progress(n as u64, "sign");
    let (entries, sigs): (Vec<Entry>, Vec<Signature<Seed001>>) = (0..n)
        .into_par_iter()
        .map(|i| {
            let mut message = shared;
            if distinct {
                message[..8].copy_from_slice(&(i as u64).to_le_bytes());
            }
            let (public_key, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), epoch, &message)
                .expect("signing a fresh key succeeds");
            bar.inc(1);
            (Entry { public_key, epoch, message }, sig)
        })
        .unzip();
    bar.finish_and_clear();
    (Statement::new(entries).expect("valid statement"), sigs)
}

/// How the benchmarks make their XMSS signatures (printed with the results).
const SIGNATURE_SETUP: &str = "one genuine leaf per key, other tree nodes random (single_epoch_key_and_signature)";

pub fn bench(args: BenchArgs) -> CliResult {
    let settings = bench_settings(args.settings.as_deref(), args.log_blowup)?;
    if args.n == 0 || args.n > sigagg_xmss_agg::max_signatures(&settings) {
        return Err(CliError::usage(format!("--n must be in 1..={}", sigagg_xmss_agg::max_signatures(&settings))));
    }
    let (statement, sigs) = quick_signatures(args.n, args.distinct_messages);
    let first_prove_s = if args.warm {
        let start = Instant::now();
        aggregate::prove(&settings, &statement, &sigs).map_err(CliError::rejected)?;
        Some(start.elapsed().as_secs_f64())
    } else {
        None
    };
    let run = measure_aggregate(&settings, &statement, &sigs, Ok)?;
    let security = security_level(&settings, args.n);
    let head = json!({
        "bench": "xmss-agg",
        "scheme": "seed001",
        "settings": crate::agg::report_name(sigagg_xmss_agg::named(&settings)),
        "n": args.n,
        "shared_message": !args.distinct_messages,
        "signature_setup": SIGNATURE_SETUP,
        "warm": args.warm,
        "first_prove_s": first_prove_s,
    });
    let bits = (security.proven_bits, security.conjectured_bits);
    io::print_json(&run.report(head, &settings, bits, args.n));
    Ok(())
}

/// One measured aggregate proof ([`io::ProofRun::measure_stored`]): prove,
/// encode, `store`, decode and verify; shared by `bench xmss-agg` and the
/// demo so that both measure the same steps.
pub fn measure_aggregate(
    settings: &Settings,
    statement: &Statement,
    sigs: &[Signature<Seed001>],
    store: impl FnOnce(Vec<u8>) -> Result<Vec<u8>, CliError>,
) -> Result<io::ProofRun, CliError> {
    io::ProofRun::measure_stored(
        || aggregate::prove(settings, statement, sigs).map_err(CliError::rejected),
        Proof::to_bytes,
        store,
        |bytes| {
            let decoded = Proof::from_bytes(bytes).map_err(CliError::rejected)?;
            aggregate::verify(settings, statement, &decoded).map_err(CliError::rejected)
        },
    )
}

/// One measured threshold proof, as [`measure_aggregate`], with the
/// certificate the verifier accepted (the proven count); shared by `bench
/// threshold --scheme seed001` and the demo.
pub fn measure_threshold(
    settings: &Settings,
    statement: &ThresholdStatement,
    signers: &[Signer],
    disclosure: Disclosure,
    store: impl FnOnce(Vec<u8>) -> Result<Vec<u8>, CliError>,
) -> Result<(io::ProofRun, stark_threshold::Certificate), CliError> {
    let mut accepted = None;
    let run = io::ProofRun::measure_stored(
        || stark_threshold::prove(settings, statement, signers, disclosure).map_err(CliError::rejected),
        Proof::to_bytes,
        store,
        |bytes| {
            let decoded = Proof::from_bytes(bytes).map_err(CliError::rejected)?;
            accepted = Some(stark_threshold::verify(settings, statement, &decoded).map_err(CliError::rejected)?);
            Ok(())
        },
    )?;
    let certificate = accepted.expect("measure_stored returns Ok only after verify succeeded");
    Ok((run, certificate))
}

/// The committed group of the aggregate statement's keys (in entry order)
/// and its members `members` as threshold signers, with their paths and
/// the signatures `sigs` (one per entry). Keys made by
/// [`single_epoch_key_and_signature`] serve: the group tree commits public
/// keys only, and each key signs at the statement's epoch.
pub fn group_signers(
    statement: &Statement,
    sigs: &[Signature<Seed001>],
    members: &[usize],
) -> Result<(GroupKey, Vec<Signer>), CliError> {
    let keys = statement.entries().iter().map(|e| e.public_key).collect();
    let tree = GroupTree::new(keys).map_err(CliError::rejected)?;
    let signers = members
        .iter()
        .map(|&i| {
            let sig = sigs.get(i).ok_or_else(|| CliError::usage(format!("no signature for member {i}")))?;
            Signer::from_tree(&tree, i as u32, sig.clone()).map_err(CliError::rejected)
        })
        .collect::<Result<_, _>>()?;
    Ok((tree.key(), signers))
}

/// XMSS proof settings by the registry's name ([`sigagg_xmss_agg::settings`]).
pub fn settings_named(name: &str) -> Result<Settings, CliError> {
    crate::agg::parse_named(name).map(sigagg_xmss_agg::settings)
}

fn read_keys(paths: &[PathBuf]) -> Result<Vec<PublicKey<Seed001>>, CliError> {
    read_all(paths, "public key", PublicKey::<Seed001>::from_bytes)
}

fn read_group(path: &Path) -> Result<GroupKey, CliError> {
    GroupKey::from_bytes(&io::read_bytes(path)?)
        .map_err(|e| CliError::rejected(format!("group key {}: {e}", path.display())))
}

/// `sigagg group-key --scheme seed001`.
pub fn group_key(args: &GroupKeyArgs) -> CliResult {
    let tree = GroupTree::new(read_keys(&args.pks)?).map_err(CliError::rejected)?;
    let key = tree.key();
    io::write_bytes(&args.out, &key.to_bytes())?;
    if let Some(prefix) = &args.paths {
        for i in 0..key.size {
            let path = tree.path(i).map_err(CliError::rejected)?;
            io::write_bytes(&path_file(prefix, i as usize, args.hex), &path.to_bytes())?;
        }
    }
    io::print_json(&json!({
        "scheme": "seed001",
        "root": hex::encode(&key.to_bytes()[..32]),
        "size": key.size,
        "depth": key.depth(),
    }));
    Ok(())
}

/// The aggregate statement of `pks`, `epochs` and messages (each one per
/// key, or one for all).
fn aggregate_statement(
    pks: &[PathBuf],
    epochs: &[u32],
    messages: &crate::agg::MessageList,
) -> Result<Statement, CliError> {
    let keys = read_keys(pks)?;
    let messages = per_entry(messages32(messages)?, keys.len(), "messages")?;
    let epochs = per_entry(epochs.to_vec(), keys.len(), "epochs")?;
    let entries = keys.into_iter().zip(epochs).zip(messages);
    let entries = entries.map(|((public_key, epoch), message)| Entry { public_key, epoch, message }).collect();
    Statement::new(entries).map_err(CliError::rejected)
}

/// `sigagg aggregate --scheme seed001`.
pub fn aggregate_files(args: &AggregateArgs) -> CliResult {
    let settings = settings_named(&args.settings)?;
    let statement = aggregate_statement(&args.pks, &args.epochs, &args.messages)?;
    let sigs = read_all(&args.sigs, "signature", Signature::<Seed001>::from_bytes)?;
    let t = Instant::now();
    let proof = aggregate::prove(&settings, &statement, &sigs).map_err(CliError::rejected)?;
    let bytes = proof.to_bytes();
    io::write_bytes(&args.out, &bytes)?;
    eprintln!(
        "aggregated {} seed001 signatures in {:.2} s ({} bytes)",
        statement.len(),
        t.elapsed().as_secs_f64(),
        bytes.len()
    );
    Ok(())
}

fn threshold_statement(
    group: &Path,
    epoch: Option<u32>,
    messages: &crate::agg::MessageList,
    t: u32,
) -> Result<ThresholdStatement, CliError> {
    let epoch = epoch.ok_or_else(|| CliError::usage("seed001 needs --epoch"))?;
    let [message] = messages32(messages)?[..] else {
        return Err(CliError::usage("give exactly one message"));
    };
    ThresholdStatement::new(read_group(group)?, epoch, message, t).map_err(CliError::rejected)
}

/// `sigagg threshold --scheme seed001`.
pub fn threshold_files(args: &ThresholdArgs) -> CliResult {
    let settings = settings_named(&args.settings)?;
    let statement = threshold_statement(&args.group, args.epoch, &args.message, args.threshold)?;
    if args.sigs.len() != args.pks.len() || args.paths.len() != args.pks.len() {
        return Err(CliError::usage("give one --sig and one --path per --pk"));
    }
    let keys = read_keys(&args.pks)?;
    let sigs = read_all(&args.sigs, "signature", Signature::<Seed001>::from_bytes)?;
    let paths = read_all(&args.paths, "membership path", MembershipPath::from_bytes)?;
    let signers: Vec<Signer> = keys
        .into_iter()
        .zip(sigs)
        .zip(paths)
        .map(|((public_key, signature), path)| Signer { public_key, path, signature })
        .collect();
    let disclosure = if args.bitmap { Disclosure::Signers } else { Disclosure::CountOnly };
    let t = Instant::now();
    let proof = stark_threshold::prove(&settings, &statement, &signers, disclosure).map_err(CliError::rejected)?;
    let bytes = proof.to_bytes();
    io::write_bytes(&args.out, &bytes)?;
    eprintln!(
        "proved {} of {} (threshold {}) in {:.2} s ({} bytes)",
        proof.count,
        statement.group().size,
        statement.threshold(),
        t.elapsed().as_secs_f64(),
        bytes.len()
    );
    Ok(())
}

/// `sigagg verify --scheme seed001 --proof`: the proof's first bytes say
/// whether it is an aggregate or a threshold proof; the command line must
/// give the matching statement.
pub fn verify_proof(args: &VerifyArgs) -> CliResult {
    let bytes = io::read_bytes(args.proof.as_deref().ok_or_else(|| CliError::usage("give --proof"))?)?;
    let reject = |e: sigagg_xmss_agg::VerifyError| CliError::rejected(format!("invalid proof: {e}"));
    if bytes.starts_with(THRESHOLD_PROOF_MAGIC) {
        let (Some(group), Some(t), true) = (&args.group, args.threshold, args.pks.is_empty()) else {
            return Err(CliError::usage(
                "a threshold proof takes --group, --threshold, --epoch and --message (no --pk)",
            ));
        };
        let [epoch] = args.epochs[..] else {
            return Err(CliError::usage("a threshold proof takes exactly one --epoch"));
        };
        let statement = threshold_statement(group, Some(epoch), &args.messages, t)?;
        let proof = Proof::from_bytes(&bytes).map_err(reject)?;
        let chosen = ProofSettings::choose(args, proof.settings, sigagg_xmss_agg::settings, sigagg_xmss_agg::named)?;
        let settings = chosen.settings;
        let certificate = stark_threshold::verify(&settings, &statement, &proof).map_err(reject)?;
        let level = stark_threshold::security_level(&settings, certificate.count as usize, statement.group().size);
        let security = chosen.accept((level.proven_bits, level.conjectured_bits))?;
        io::print_json(&json!({
            "valid": true,
            "kind": "threshold",
            "scheme": "seed001",
            "count": certificate.count,
            "threshold": t,
            "group_size": statement.group().size,
            "signers": certificate.signers,
            "settings": chosen.name,
            "proven_bits": security.0,
            "conjectured_bits": security.1,
        }));
    } else if bytes.starts_with(PROOF_MAGIC) {
        if args.group.is_some() || args.threshold.is_some() {
            return Err(CliError::usage("an aggregate proof takes --pk, --epoch and --message per entry (no --group)"));
        }
        let statement = aggregate_statement(&args.pks, &args.epochs, &args.messages)?;
        let proof = Proof::from_bytes(&bytes).map_err(reject)?;
        let chosen = ProofSettings::choose(args, proof.settings, sigagg_xmss_agg::settings, sigagg_xmss_agg::named)?;
        let settings = chosen.settings;
        aggregate::verify(&settings, &statement, &proof).map_err(reject)?;
        let level = security_level(&settings, statement.len());
        let security = chosen.accept((level.proven_bits, level.conjectured_bits))?;
        io::print_json(&json!({
            "valid": true,
            "kind": "aggregate",
            "scheme": "seed001",
            "count": statement.len(),
            "settings": chosen.name,
            "proven_bits": security.0,
            "conjectured_bits": security.1,
        }));
    } else {
        return Err(CliError::rejected("not a seed001 aggregate or threshold proof"));
    }
    Ok(())
}

/// `sigagg bench threshold --scheme seed001`: a committed group of `n`
/// quick Seed001 keys (one genuine leaf each, [`quick_signatures`]) that
/// all sign one message at one epoch; `signers` of them in one threshold
/// proof.
pub fn bench_threshold(args: &ThresholdBenchArgs) -> CliResult {
    let settings = bench_settings(args.settings.as_deref(), args.log_blowup)?;
    let (n, t, signing) = args.shape(sigagg_xmss_agg::max_signatures(&settings))?;
    let (aggregate_statement, sigs) = quick_signatures(n as usize, false);
    let (group, signers) = group_signers(&aggregate_statement, &sigs, &args.members())?;
    let Entry { epoch, message, .. } = aggregate_statement.entries()[0];
    let statement = ThresholdStatement::new(group, epoch, message, t).map_err(CliError::rejected)?;
    let disclosure = if args.bitmap { Disclosure::Signers } else { Disclosure::CountOnly };
    let (run, _) = measure_threshold(&settings, &statement, &signers, disclosure, Ok)?;
    let security = stark_threshold::security_level(&settings, signing as usize, n);
    let head = json!({
        "bench": "threshold",
        "scheme": "seed001",
        "settings": crate::agg::report_name(sigagg_xmss_agg::named(&settings)),
        "n": n,
        "t": t,
        "signers": signing,
        "depth": statement.group().depth(),
        "bitmap": args.bitmap,
        "signature_setup": SIGNATURE_SETUP,
    });
    let bits = (security.proven_bits, security.conjectured_bits);
    io::print_json(&run.report(head, &settings, bits, signing as usize));
    Ok(())
}
