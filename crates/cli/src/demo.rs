//! `sigagg demo`: the main job end to end, on built-in defaults.
//!
//! N Seed001 signers sign one message at one epoch ([`Job`]) (the leanSig
//! row makes N keys of leanSig's production set); then every
//! entry of [`ROWS`] turns their signatures into one object, writes it to a
//! file, reads it back and verifies it, and reports a [`Row`]: what went
//! in, what came out, prove and verify times, the settings' security and
//! the row's peak memory. The rows print as a table, or with `--json` as
//! one JSON object on standard output; progress goes to standard error.
//!
//! A row is a function from the [`Job`] to a [`Row`]: another way to
//! aggregate is one more such function, listed in [`ROWS`]; a row that
//! needs other keys makes them from `job.n()` and `job.message`, as the
//! succinct BLS certificate's row does.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value, json};
use sigagg_bls::{KeyRegistry, SIGNATURE_BYTES, SecretKey as BlsSecretKey};
use sigagg_bls_cert::security::CONJECTURED_BITS;
use sigagg_bls_cert::{
    Certificate, Committee, CommitteeKey, Mode, Prover, Setup, Signed, Threshold, powers_for_committee,
    verify as verify_cert,
};
use sigagg_xmss::group::GroupKey;
use sigagg_xmss::{LeanSigProd, Seed001, Signature};
use sigagg_xmss_agg::leansig::aggregate as lean;
use sigagg_xmss_agg::security::{SecurityLevel, security_level};
use sigagg_xmss_agg::threshold::{self as stark_threshold, Disclosure, ThresholdStatement};
use sigagg_xmss_agg::{AggregateStatement as Statement, Settings};
use zeroize::Zeroize;

use crate::bench::two_thirds;
use crate::bench::xmss_agg::{
    group_signers, measure_aggregate, measure_threshold, quick_signatures, quick_signatures_of,
};
use crate::io::{self, CliError, CliResult};
use crate::proofs::verified_security;

#[derive(Args)]
pub struct DemoArgs {
    /// Number of signers.
    #[arg(long, default_value_t = 1024)]
    pub n: usize,
    /// Proof settings: fast, compact, whir, whir-compact, whir-skip, whir-skip-poseidon2, whir-skip-compact, or an insecure test setting for tests
    /// (test, test-compact, test-whir, test-whir-skip).
    #[arg(long, default_value = "fast")]
    pub settings: String,
    /// Folder the proofs are written to and read back from, kept afterwards
    /// (default: a temporary folder, removed at the end).
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Print one JSON object on standard output instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// What every row starts from: the signers' keys and signatures on one
/// message at one epoch, the proof settings, and the output folder.
pub struct Job {
    /// The signers' keys, the epoch and the shared message, in signer order.
    pub statement: Statement,
    /// One signature per entry of `statement`.
    pub signatures: Vec<Signature<Seed001>>,
    /// The epoch every signer signed at.
    pub epoch: u32,
    /// The message every signer signed.
    pub message: [u8; 32],
    /// Proof settings of the STARK rows.
    pub settings: Settings,
    /// Their name on the command line (fast, compact, test).
    pub settings_name: String,
    /// Where rows write their objects.
    pub dir: PathBuf,
}

impl Job {
    /// The number of signers.
    pub fn n(&self) -> usize {
        self.signatures.len()
    }

    /// Writes `bytes` to `name` in the output folder and reads them back.
    fn store(&self, name: &str, bytes: &[u8]) -> Result<Vec<u8>, CliError> {
        let path = self.dir.join(name);
        io::write_bytes(&path, bytes)?;
        io::read_bytes(&path)
    }
}

/// One line of the demo's table: one object made from the signatures.
#[derive(Serialize)]
pub struct Row {
    /// Short name of the object ("aggregate", "threshold").
    pub row: &'static str,
    /// The signature scheme that went in.
    pub scheme: &'static str,
    /// What the verified object says, for people.
    pub claim: String,
    /// Signatures that went in.
    pub signatures: usize,
    /// Their encoded size: what a verifier would receive without aggregation.
    pub signature_bytes: usize,
    /// The object's file in the output folder.
    pub file: String,
    /// The object's size.
    pub proof_bytes: usize,
    /// Making the object.
    pub prove_s: f64,
    /// Decoding and verifying the bytes read back from the file.
    pub verify_s: f64,
    /// Proven security of the settings at this size, in bits; `None` where
    /// no such bound exists (pairing-based proofs rest on estimates of the
    /// best attack, not on a soundness theorem alone).
    pub proven_bits: Option<f64>,
    /// Conjectured security (random-words regime), in bits.
    pub conjectured_bits: f64,
    /// Peak resident memory during the row (the signers' keys and
    /// signatures included), where the system reports it.
    pub peak_rss_bytes: Option<u64>,
    /// The object read back from its file verified (a row that does not
    /// verify fails the demo instead).
    pub verified: bool,
    /// Facts particular to the row (a threshold's t and proven count).
    #[serde(flatten)]
    pub details: Map<String, Value>,
}

/// A function that makes one row.
pub type RowFn = fn(&Job) -> Result<Row, CliError>;

/// The demo's rows, in order.
pub const ROWS: &[RowFn] = &[aggregate_row, lean_aggregate_row, threshold_row, bls_certificate_row];

/// One STARK proof that every signature is valid.
fn aggregate_row(job: &Job) -> Result<Row, CliError> {
    let n = job.n();
    let file = "aggregate.proof";
    let bar = io::spinner("aggregate: proving");
    let run = measure_aggregate(&job.settings, &job.statement, &job.signatures, |bytes| {
        bar.set_message("aggregate: verifying");
        job.store(file, &bytes)
    })?;
    bar.finish_and_clear();
    let level = security_level(&job.settings, n);
    let claim = format!("all {n} signatures valid");
    Ok(stark_row(
        job,
        ("aggregate", "seed001"),
        claim,
        signed(&job.signatures.iter().collect::<Vec<_>>()),
        file,
        &run,
        &level,
    ))
}

/// One STARK proof that n leanSig production signatures (what lean
/// Ethereum clients sign) of the job's message are valid: n keys of that
/// set sign at the job's epoch (their signing time in the details), and the
/// proof is leanSpec's `proof_data` (`sigagg_xmss_agg::leansig`).
fn lean_aggregate_row(job: &Job) -> Result<Row, CliError> {
    let n = job.n();
    let max = lean::max_signatures::<LeanSigProd>(&job.settings);
    if n > max {
        return Err(CliError::usage(format!("--n: at most {max} leanSig signatures under these settings")));
    }
    let start = Instant::now();
    let (statement, sigs) = quick_signatures_of::<LeanSigProd>(n, false);
    let sign_s = start.elapsed().as_secs_f64();
    let file = "lean-aggregate.proof";
    let bar = io::spinner("lean-aggregate: proving");
    let run = io::ProofRun::measure_stored(
        || lean::prove(&job.settings, &statement, &sigs).map_err(CliError::rejected),
        sigagg_xmss_agg::Proof::to_bytes,
        |bytes| {
            bar.set_message("lean-aggregate: verifying");
            job.store(file, &bytes)
        },
        |bytes| {
            let decoded = sigagg_xmss_agg::Proof::from_bytes(bytes).map_err(CliError::rejected)?;
            lean::verify(&job.settings, &statement, &decoded).map_err(CliError::rejected)
        },
    )?;
    bar.finish_and_clear();
    let level = lean::security_level::<LeanSigProd>(&job.settings, n);
    let signed = (n, sigs.iter().map(|s| s.to_bytes().len()).sum());
    let claim = format!("all {n} leanSig signatures valid");
    let mut row = stark_row(job, ("lean-aggregate", "leansig-prod"), claim, signed, file, &run, &level);
    row.details = [("sign_s".to_string(), json!(sign_s))].into_iter().collect();
    Ok(row)
}

/// A t-of-n certificate: the signers' keys committed as a group key
/// (written to `group.key` and read back, as a verifier would hold it), all
/// n sign, the proof shows at least t = ceil(2n/3) distinct members did.
fn threshold_row(job: &Job) -> Result<Row, CliError> {
    let n = job.n();
    let t = two_thirds(n as u32);
    let members: Vec<usize> = (0..n).collect();
    let (group, signers) = group_signers(&job.statement, &job.signatures, &members)?;
    let group = GroupKey::from_bytes(&job.store("group.key", &group.to_bytes())?).map_err(CliError::rejected)?;
    let statement = ThresholdStatement::new(group, job.epoch, job.message, t).map_err(CliError::rejected)?;
    let file = "threshold.proof";
    let bar = io::spinner("threshold: proving");
    let (run, certificate) = measure_threshold(&job.settings, &statement, &signers, Disclosure::CountOnly, |bytes| {
        bar.set_message("threshold: verifying");
        job.store(file, &bytes)
    })?;
    bar.finish_and_clear();
    let level = stark_threshold::security_level(&job.settings, certificate.count as usize, group.size);
    let claim = format!("{} of {} members signed (t = {t})", certificate.count, group.size);
    let sigs: Vec<_> = signers.iter().map(|s| &s.signature).collect();
    let mut row = stark_row(job, ("threshold", "seed001"), claim, signed(&sigs), file, &run, &level);
    let details = [("threshold", json!(t)), ("count", json!(certificate.count)), ("group_size", json!(group.size))];
    row.details = details.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    Ok(row)
}

/// A succinct BLS threshold certificate (`sigagg-bls-cert`) for a committee
/// of n BLS12-381 keys: a one-party KZG ceremony run here (its secret drawn
/// from the operating system and erased), the committee key written and
/// read back as a verifier would hold it, all n members sign the job's
/// message, and the certificate (counting mode) proves that at least
/// t = ceil(2n/3) of them did. Prove time is certifying alone; committing
/// the committee and preparing its prover are one-time costs, in the details.
fn bls_certificate_row(job: &Job) -> Result<Row, CliError> {
    let n = job.n();
    let t = two_thirds(n as u32);
    let bar = io::spinner("BLS certificate: keys and committee");
    let sks: Vec<BlsSecretKey> = (0..n as u64)
        .into_par_iter()
        .map(|i| {
            let mut ikm = [0x42u8; 32];
            ikm[..8].copy_from_slice(&i.to_le_bytes());
            BlsSecretKey::from_key_material(&ikm).expect("32 bytes of key material")
        })
        .collect();
    let entries: Vec<_> = sks.par_iter().map(|sk| (sk.public_key(), sk.prove_possession())).collect();
    let registry = KeyRegistry::from_keys_with_proofs(&entries).map_err(CliError::rejected)?;
    let start = Instant::now();
    let mut setup =
        Setup::ceremony_start(powers_for_committee(n).map_err(CliError::usage)?).map_err(CliError::usage)?;
    let mut entropy = [0u8; 64];
    rand::fill(&mut entropy[..]);
    let contributed = setup.contribute(&entropy).map(|_| ());
    entropy.zeroize();
    contributed.map_err(CliError::rejected)?;
    let committee = Committee::new(&setup, registry, None).map_err(CliError::rejected)?;
    let committee_s = start.elapsed().as_secs_f64();
    let key = CommitteeKey::from_bytes(&job.store("committee.key", &committee.key().to_bytes())?)
        .map_err(CliError::rejected)?;
    let start = Instant::now();
    let prover = Prover::new(&setup, &committee).map_err(CliError::rejected)?;
    let prover_key_s = start.elapsed().as_secs_f64();
    let signed: Vec<_> = sks.par_iter().map(|sk| (sk.public_key(), sk.sign(&job.message))).collect();
    bar.set_message("BLS certificate: proving");
    let file = "certificate.cert";
    let mut count = 0;
    let run = io::ProofRun::measure_stored(
        || prover.certify(&job.message, Signed::Signatures(&signed), Mode::Counting).map_err(CliError::rejected),
        Certificate::to_bytes,
        |bytes| job.store(file, &bytes),
        |bytes| {
            let cert = Certificate::from_bytes(bytes).map_err(CliError::rejected)?;
            count = verify_cert(&key, &cert, &job.message, &Threshold::signers(u64::from(t)))
                .map_err(CliError::rejected)?
                .count;
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    let details = [
        ("threshold", json!(t)),
        ("count", json!(count)),
        ("group_size", json!(n)),
        ("mode", json!("counting")),
        ("setup", json!("one-party ceremony run by the demo")),
        ("committee_key_bytes", json!(key.to_bytes().len())),
        ("committee_s", json!(committee_s)),
        ("prover_key_s", json!(prover_key_s)),
    ];
    Ok(Row {
        row: "bls-certificate",
        scheme: "bls12-381",
        claim: format!("{count} of {n} members signed (t = {t})"),
        signatures: n,
        signature_bytes: n * SIGNATURE_BYTES,
        file: file.into(),
        proof_bytes: run.proof_bytes,
        prove_s: run.prove_s,
        verify_s: run.verify_s,
        proven_bits: None,
        conjectured_bits: f64::from(CONJECTURED_BITS),
        peak_rss_bytes: io::peak_rss_bytes(),
        verified: true,
        details: details.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
    })
}

/// How many signatures went in, and their encoded size.
fn signed(sigs: &[&Signature<Seed001>]) -> (usize, usize) {
    (sigs.len(), sigs.iter().map(|s| s.to_bytes().len()).sum())
}

/// A STARK row (its name and scheme) from its measured run: `signatures`
/// (count and bytes) went in, the proof was stored as `file`, `level` is the
/// security of the job's settings for this proof (with a warning on standard
/// error if they are insecure).
fn stark_row(
    job: &Job,
    (row, scheme): (&'static str, &'static str),
    claim: String,
    (signatures, signature_bytes): (usize, usize),
    file: &str,
    run: &io::ProofRun,
    level: &SecurityLevel,
) -> Row {
    let (proven_bits, conjectured_bits) =
        verified_security(&job.settings_name, (level.proven_bits, level.conjectured_bits));
    Row {
        row,
        scheme,
        claim,
        signatures,
        signature_bytes,
        file: file.into(),
        proof_bytes: run.proof_bytes,
        prove_s: run.prove_s,
        verify_s: run.verify_s,
        proven_bits: Some(proven_bits),
        conjectured_bits,
        peak_rss_bytes: io::peak_rss_bytes(),
        verified: true,
        details: Map::new(),
    }
}

/// The output folder: the one given (created if missing, kept), or a fresh
/// temporary one, removed when this is dropped (on errors too).
struct OutDir {
    path: PathBuf,
    temporary: bool,
}

impl OutDir {
    fn new(given: Option<PathBuf>) -> Result<Self, CliError> {
        let cannot = |p: &Path, e: std::io::Error| CliError::usage(format!("cannot create {}: {e}", p.display()));
        match given {
            Some(path) => {
                std::fs::create_dir_all(&path).map_err(|e| cannot(&path, e))?;
                Ok(Self { path, temporary: false })
            }
            None => {
                let nanos =
                    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
                let path = std::env::temp_dir().join(format!("sigagg-demo-{}-{nanos}", std::process::id()));
                std::fs::create_dir(&path).map_err(|e| cannot(&path, e))?;
                Ok(Self { path, temporary: true })
            }
        }
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

pub fn demo(args: DemoArgs) -> CliResult {
    let settings = crate::args::parse_named(&args.settings).map(sigagg_xmss_agg::settings)?;
    if args.n == 0 || args.n > sigagg_xmss_agg::max_signatures(&settings) {
        return Err(CliError::usage(format!("--n must be in 1..={}", sigagg_xmss_agg::max_signatures(&settings))));
    }
    let out = OutDir::new(args.out_dir)?;
    let start = Instant::now();
    let (statement, signatures) = quick_signatures(args.n, false);
    let sign_s = start.elapsed().as_secs_f64();
    let (epoch, message) = (statement.entries()[0].epoch, statement.entries()[0].message);
    let job =
        Job { epoch, message, statement, signatures, settings, settings_name: args.settings, dir: out.path.clone() };
    let mut rows = Vec::with_capacity(ROWS.len());
    for row in ROWS {
        io::reset_peak_rss();
        rows.push(row(&job)?);
    }
    let report = json!({
        "demo": "sigagg",
        "n": job.n(),
        "epoch": job.epoch,
        "message": hex::encode(job.message),
        "settings": job.settings_name,
        "threads": io::threads(),
        "sign_s": sign_s,
        "wall_s": start.elapsed().as_secs_f64(),
        "out_dir": (!out.temporary).then(|| out.path.display().to_string()),
        "rows": rows,
    });
    if args.json {
        io::print_json(&report);
    } else {
        print_table(&report, &rows, &out);
    }
    Ok(())
}

/// The report for people: one line of context, the rows, one line of totals.
fn print_table(report: &Value, rows: &[Row], out: &OutDir) {
    println!(
        "sigagg demo: {} Seed001 signers sign one message at epoch {} ({} leanSig production signers for lean-aggregate, {} BLS12-381 signers for the last row); settings {}, {} threads\n",
        report["n"],
        report["epoch"],
        report["n"],
        report["n"],
        report["settings"].as_str().unwrap_or_default(),
        report["threads"]
    );
    let header = [
        "object",
        "claim (verified)",
        "signatures in",
        "proof out",
        "prove",
        "verify",
        "bits proven / conj.",
        "peak memory",
    ];
    let lines: Vec<[String; 8]> = rows
        .iter()
        .map(|r| {
            [
                r.row.to_string(),
                r.claim.clone(),
                format!("{} ({})", r.signatures, bytes(r.signature_bytes as u64)),
                bytes(r.proof_bytes as u64),
                seconds(r.prove_s),
                seconds(r.verify_s),
                format!("{} / {:.1}", r.proven_bits.map_or("-".to_string(), |b| format!("{b:.1}")), r.conjectured_bits),
                r.peak_rss_bytes.map_or("-".into(), bytes),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| lines.iter().map(|l| l[c].len()).chain([header[c].len()]).max().unwrap_or(0))
        .collect();
    let render = |cells: &[&str]| {
        let padded: Vec<String> = cells.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        println!("{}", padded.join("  ").trim_end());
    };
    render(&header);
    for line in &lines {
        render(&line.each_ref().map(String::as_str));
    }
    let kept = if out.temporary { " (temporary, removed)" } else { "" };
    println!(
        "\nkeys and signatures {}, all in {}; files in {}{kept}",
        seconds(report["sign_s"].as_f64().unwrap_or_default()),
        seconds(report["wall_s"].as_f64().unwrap_or_default()),
        out.path.display()
    );
}

/// A byte count for people: B, KiB or MiB.
fn bytes(n: u64) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..1_048_576 => format!("{:.1} KiB", n as f64 / 1024.0),
        _ => format!("{:.1} MiB", n as f64 / 1_048_576.0),
    }
}

/// A duration for people: milliseconds below one second.
fn seconds(s: f64) -> String {
    if s < 1.0 { format!("{:.0} ms", s * 1e3) } else { format!("{s:.2} s") }
}
