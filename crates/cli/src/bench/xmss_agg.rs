//! `sigagg bench xmss-agg` and `sigagg bench threshold --scheme seed001`:
//! one STARK proof (`sigagg-xmss-agg`) of quickly made Seed001 signatures;
//! [`measure_aggregate`] and [`measure_threshold`] also serve the demo.

use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use sigagg_xmss::group::{GroupKey, GroupTree};
use sigagg_xmss::{LeanSigProd, Seed001, Signature, single_epoch_key_and_signature};
use sigagg_xmss_agg::leansig::aggregate as lean;
use sigagg_xmss_agg::security::security_level;
use sigagg_xmss_agg::threshold::{self as stark_threshold, Disclosure, Signer, ThresholdStatement};
use sigagg_xmss_agg::{AggScheme, AggregateStatement};
use sigagg_xmss_agg::{AggregateEntry as Entry, AggregateStatement as Statement, Proof, Settings, aggregate};

use super::{ThresholdBenchArgs, bench_settings};
use crate::args::report_name;
use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct BenchArgs {
    /// Number of signatures.
    #[arg(long, default_value_t = 1024)]
    pub n: usize,
    /// log2 of the blowup: 1 is the fast setting, 3 the compact one.
    #[arg(long, default_value_t = 1)]
    pub log_blowup: usize,
    /// Named settings (fast, compact, whir, whir-compact, whir-skip, whir-skip-poseidon2, whir-skip-compact, or test, test-compact, test-whir,
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
    /// lean-sig-prod only: prove the same aggregate this many times in one
    /// process after the timed run and report the peak RSS after the first
    /// and after the last (a long-running node's memory must not ratchet up).
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
    /// The parameter set of the signatures: seed001 (hash-sig's lifetime
    /// 2^20, Poseidon2) or lean-sig-prod (leanSig's production set, what
    /// lean Ethereum clients sign).
    #[arg(long, default_value = "seed001", value_parser = ["seed001", "lean-sig-prod"])]
    pub scheme: String,
}

/// `n` genuine Seed001 key pairs and signatures, made quickly: each key's
/// tree has one real leaf (the signing epoch) and random siblings.
pub fn quick_signatures(n: usize, distinct: bool) -> (Statement, Vec<Signature<Seed001>>) {
    quick_signatures_of::<Seed001>(n, distinct)
}

/// [`quick_signatures`] for any parameter set the aggregator proves.
pub fn quick_signatures_of<S: AggScheme>(n: usize, distinct: bool) -> (AggregateStatement<S>, Vec<Signature<S>>) {
    let epoch = 4242;
    let shared = *b"sigagg benchmark consensus root!";
    let bar = io::progress(n as u64, "sign");
    let (entries, sigs): (Vec<Entry<S>>, Vec<Signature<S>>) = (0..n)
        .into_par_iter()
        .map(|i| {
            let mut message = shared;
            if distinct {
                message[..8].copy_from_slice(&(i as u64).to_le_bytes());
            }
            let (public_key, sig) = single_epoch_key_and_signature::<S, _>(&mut rand::rng(), epoch, &message)
                .expect("signing a fresh key succeeds");
            bar.inc(1);
            (Entry { public_key, epoch, message }, sig)
        })
        .unzip();
    bar.finish_and_clear();
    (AggregateStatement::from_entries(entries).expect("valid statement"), sigs)
}

/// How the benchmarks make their XMSS signatures (printed with the results).
const SIGNATURE_SETUP: &str = "one genuine leaf per key, other tree nodes random (single_epoch_key_and_signature)";

pub fn bench(args: &BenchArgs) -> CliResult {
    if args.scheme == "lean-sig-prod" {
        return bench_lean(args);
    }
    let settings = bench_settings(args.settings.as_deref(), args.log_blowup, sigagg_xmss_agg::settings)?;
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
        "settings": report_name(sigagg_xmss_agg::named(&settings)),
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

/// `sigagg bench threshold --scheme seed001`: a committed group of `n`
/// quick Seed001 keys (one genuine leaf each, [`quick_signatures`]) that
/// all sign one message at one epoch; `signers` of them in one threshold
/// proof.
pub fn bench_threshold(args: &ThresholdBenchArgs) -> CliResult {
    let settings = bench_settings(args.settings.as_deref(), args.log_blowup, sigagg_xmss_agg::settings)?;
    let (n, t, signing) = args.shape(sigagg_xmss_agg::max_signatures(&settings))?;
    let (aggregate_statement, sigs) = quick_signatures(n as usize, false);
    let (group, signers) = group_signers(&aggregate_statement, &sigs, &args.members())?;
    let Entry { epoch, message, .. } = aggregate_statement.entries()[0];
    let statement = ThresholdStatement::new(group, epoch, message, t).map_err(CliError::rejected)?;
    let disclosure = if args.bitmap { Disclosure::Signers } else { Disclosure::CountOnly };
    let (run, _) = measure_threshold(&settings, &statement, &signers, disclosure, Ok)?;
    let security = stark_threshold::security_level(&settings, signing as usize, n);
    print_threshold(("seed001", &settings, args), (n, t, signing, statement.group().depth()), &run, &security);
    Ok(())
}

/// Prints a threshold benchmark's JSON: the scheme, settings and arguments,
/// the shape `(n, t, signers, group depth)`, the run and the security.
fn print_threshold(
    (scheme, settings, args): (&str, &Settings, &ThresholdBenchArgs),
    (n, t, signing, depth): (u32, u32, u32, usize),
    run: &io::ProofRun,
    security: &sigagg_xmss_agg::security::SecurityLevel,
) {
    let head = json!({
        "bench": "threshold",
        "scheme": scheme,
        "settings": report_name(sigagg_xmss_agg::named(settings)),
        "n": n,
        "t": t,
        "signers": signing,
        "depth": depth,
        "bitmap": args.bitmap,
        "signature_setup": SIGNATURE_SETUP,
    });
    let bits = (security.proven_bits, security.conjectured_bits);
    io::print_json(&run.report(head, settings, bits, signing as usize));
}

/// `sigagg bench threshold --scheme leansig-prod`: [`bench_threshold`] for
/// leanSig's production set (`sigagg_xmss_agg::leansig::threshold`).
pub fn bench_lean_threshold(args: &ThresholdBenchArgs) -> CliResult {
    use sigagg_xmss_agg::leansig::threshold as lean_threshold;
    let settings = bench_settings(args.settings.as_deref(), args.log_blowup, sigagg_xmss_agg::settings)?;
    let (n, t, signing) = args.shape(lean::max_signatures::<LeanSigProd>(&settings))?;
    let (aggregate_statement, sigs) = quick_signatures_of::<LeanSigProd>(n as usize, false);
    let entries = aggregate_statement.entries();
    let tree = GroupTree::new(entries.iter().map(|e| e.public_key).collect()).map_err(CliError::rejected)?;
    let signers: Vec<Signer<LeanSigProd>> = args
        .members()
        .iter()
        .map(|&i| Signer::from_tree(&tree, i as u32, sigs[i].clone()).map_err(CliError::rejected))
        .collect::<Result<_, _>>()?;
    let (epoch, message) = (entries[0].epoch, entries[0].message);
    let statement = ThresholdStatement::for_set(tree.key(), epoch, message, t).map_err(CliError::rejected)?;
    let disclosure = if args.bitmap { Disclosure::Signers } else { Disclosure::CountOnly };
    let run = io::ProofRun::measure_stored(
        || lean_threshold::prove(&settings, &statement, &signers, disclosure).map_err(CliError::rejected),
        Proof::to_bytes,
        Ok,
        |bytes| {
            let decoded = Proof::from_bytes(bytes).map_err(CliError::rejected)?;
            lean_threshold::verify(&settings, &statement, &decoded).map(drop).map_err(CliError::rejected)
        },
    )?;
    let security = lean_threshold::security_level::<LeanSigProd>(&settings, signing as usize, n);
    print_threshold(("leansig-prod", &settings, args), (n, t, signing, statement.group().depth()), &run, &security);
    Ok(())
}

/// `sigagg bench xmss-agg --scheme lean-sig-prod`: one aggregate proof of
/// LeanSigProd signatures (`sigagg_xmss_agg::leansig`).
/// Proves `rounds - 1` more times after the timed proof; returns the peak
/// RSS after the first proof and after the last, and their ratio (the
/// issue's bound: at most 1.1), or `null` for one round.
fn memory_rounds(rounds: usize, prove: impl Fn() -> Result<Proof, CliError>) -> Result<serde_json::Value, CliError> {
    if rounds <= 1 {
        return Ok(serde_json::Value::Null);
    }
    let first = io::peak_rss_bytes();
    let start = Instant::now();
    for _ in 1..rounds {
        drop(prove()?);
    }
    let last = io::peak_rss_bytes();
    let ratio = first.zip(last).map(|(f, l)| l as f64 / f as f64);
    Ok(json!({
        "count": rounds,
        "peak_rss_after_first": first,
        "peak_rss_after_last": last,
        "ratio": ratio,
        "mean_prove_s_after_first": start.elapsed().as_secs_f64() / (rounds - 1) as f64,
    }))
}

fn bench_lean(args: &BenchArgs) -> CliResult {
    let settings = bench_settings(args.settings.as_deref(), args.log_blowup, sigagg_xmss_agg::settings)?;
    let max = lean::max_signatures::<LeanSigProd>(&settings);
    if args.n == 0 || args.n > max {
        return Err(CliError::usage(format!("--n must be in 1..={max}")));
    }
    let (statement, sigs) = quick_signatures_of::<LeanSigProd>(args.n, args.distinct_messages);
    let prove = || lean::prove(&settings, &statement, &sigs).map_err(CliError::rejected);
    let first_prove_s = if args.warm {
        let start = Instant::now();
        prove()?;
        Some(start.elapsed().as_secs_f64())
    } else {
        None
    };
    let run = io::ProofRun::measure_stored(prove, Proof::to_bytes, Ok, |bytes| {
        let decoded = Proof::from_bytes(bytes).map_err(CliError::rejected)?;
        lean::verify(&settings, &statement, &decoded).map_err(CliError::rejected)
    })?;
    let rounds = memory_rounds(args.rounds, prove)?;
    let security = lean::security_level::<LeanSigProd>(&settings, args.n);
    let head = json!({
        "rounds": rounds,
        "bench": "xmss-agg",
        "scheme": "lean-sig-prod",
        "settings": report_name(sigagg_xmss_agg::named(&settings)),
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
