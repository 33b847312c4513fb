//! `sigagg bench merge`: C children of N Seed001 signatures each, proven
//! under the recursion setting, merged into one proof (`sigagg-merge`);
//! with `--depth D`, a tree of D levels of merging, C children to each
//! merge, timed at its root.

use std::time::Instant;

use clap::Args;
use serde_json::json;
use sigagg_merge::{
    CHILD_SETTINGS, Child, ChildHeader, ChildProof, MergeKey, MergeScheme, MergeStatement, MergedProof, Messages,
    merge, merge_signed, security_level, verifier_circuit, verify, verify_with_key,
};
use sigagg_xmss::{LeanSigProd, Seed001};
use sigagg_xmss_agg::Settings;

use super::xmss_agg::quick_signatures_of;
use crate::args::{self, report_name};
use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct BenchArgs {
    /// Number of children.
    #[arg(long, default_value_t = 2)]
    pub children: usize,
    /// Signatures per child.
    #[arg(long, default_value_t = 64)]
    pub n: usize,
    /// Settings of the merged proof: whir-skip-poseidon2 (the default), whir-skip-compact or whir-skip;
    /// test-whir-skip for a quick look (insecure). Refused: fast, compact, whir,
    /// whir-compact, test, test-compact, test-whir (not whir-skip).
    #[arg(long)]
    pub settings: Option<String>,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
    /// Levels of merging: 1 merges C aggregates; D > 1 merges C merged proofs of depth
    /// D - 1 (C^D aggregates in all), the root timed.
    #[arg(long, default_value_t = 1)]
    pub depth: usize,
    /// Raw signatures beside the children (0: none): aggregated alone first (`raw.alone_prove_s`),
    /// then merged with the children in the timed run (`merge_signed`).
    #[arg(long, default_value_t = 0)]
    pub raw: usize,
    /// The children's parameter set: seed001 or lean-sig-prod (leanSig's production set).
    #[arg(long, default_value = "seed001", value_parser = ["seed001", "lean-sig-prod"])]
    pub scheme: String,
}

pub fn bench(args: &BenchArgs) -> CliResult {
    match args.scheme.as_str() {
        "lean-sig-prod" => bench_with::<LeanSigProd>(args),
        _ => bench_with::<Seed001>(args),
    }
}

fn bench_with<S: MergeScheme>(args: &BenchArgs) -> CliResult {
    let named = args::parse_named(args.settings.as_deref().unwrap_or("whir-skip-poseidon2"))?;
    let settings = sigagg_xmss_agg::settings(named);
    if args.children == 0 || args.children > sigagg_merge::MAX_CHILDREN || args.n == 0 {
        return Err(CliError::usage(format!(
            "--children must be in 1..={}, --n at least 1",
            sigagg_merge::MAX_CHILDREN
        )));
    }
    if args.depth == 0 || args.depth > 3 {
        return Err(CliError::usage("--depth must be in 1..=3 (C^D aggregates are made)"));
    }
    let mut statements = Vec::new();
    let mut proofs = Vec::new();
    let mut children = Vec::new();
    for _ in 0..args.children {
        let (statement, proof, run) = child_of::<S>(args, args.depth - 1)?;
        children.push(run);
        statements.push(statement);
        proofs.push(proof);
    }
    // Raw signatures beside the children: first aggregated alone, for the
    // comparison, then merged with them (`merge_signed`), timed as a whole.
    let raw = (args.raw > 0).then(|| quick_signatures_of::<S>(args.raw, false));
    let mut raw_json = serde_json::Value::Null;
    let mut all = statements.clone();
    if let Some((raw_statement, sigs)) = &raw {
        let t = Instant::now();
        S::prove_child(&CHILD_SETTINGS, raw_statement, sigs).map_err(CliError::rejected)?;
        raw_json = json!({ "n": args.raw, "alone_prove_s": t.elapsed().as_secs_f64() });
        all.push(Child::Aggregate(raw_statement.clone()));
    }
    let statement = MergeStatement::of(all).map_err(CliError::rejected)?;
    let mut headers: Option<Vec<ChildHeader>> = None;
    let mut merged_bytes = Vec::new();
    let run = io::ProofRun::measure(
        || {
            match raw {
                Some((raw_statement, sigs)) => {
                    merge_signed(&settings, Messages::One, statements, proofs, raw_statement, &sigs)
                        .map(|(_, proof)| proof)
                }
                None => merge(&settings, &statement, &proofs),
            }
            .map_err(CliError::rejected)
        },
        MergedProof::to_bytes,
        |bytes| {
            let decoded = MergedProof::from_bytes(bytes).map_err(CliError::rejected)?;
            verify(&settings, &statement, &decoded).map_err(CliError::rejected)?;
            headers = Some(decoded.children);
            merged_bytes = bytes.to_vec();
            Ok(())
        },
    )?;
    let headers = headers.unwrap_or_default();
    let key_json = with_key(&settings, &statement, &headers, &merged_bytes)?;
    let circuit = verifier_circuit(&statement, &headers, None).map_err(CliError::rejected)?;
    let circuit_json = json!({
        "wires": circuit.num_wires(),
        "arithmetic_rows": circuit.rows().len(),
        "permutations": circuit.perms().len(),
        "path_levels": circuit.paths().iter().map(|p| p.bits.len()).sum::<usize>(),
    });
    drop(circuit);
    let level = security_level(&settings, &statement, &headers).map_err(CliError::rejected)?;
    let child = match args.scheme.as_str() {
        "lean-sig-prod" => sigagg_xmss_agg::leansig::aggregate::security_level::<LeanSigProd>(&CHILD_SETTINGS, args.n),
        _ => sigagg_xmss_agg::security::security_level(&CHILD_SETTINGS, args.n),
    };
    let head = json!({
        "bench": "merge",
        "scheme": args.scheme,
        "settings": report_name(sigagg_xmss_agg::named(&settings)),
        "children": args.children,
        "depth": args.depth,
        "n": args.n,
        "child_settings": sigagg_bytes::merge::CHILD_SETTINGS.name(),
        "leaf_security_bits": child.proven_bits,
        "child_runs": children,
        "raw": raw_json,
        "circuit": circuit_json,
        "verifying_key": key_json,
        "verify_includes": "decoding, the verifier circuit rebuilt from the statement (every level's, the claims below checked)",
        "prove_includes": "each child verified natively, the verifier circuit built with the proofs as advice, its proof",
    });
    let bits = (level.proven_bits, level.conjectured_bits);
    let signers = args.n * args.children.pow(args.depth as u32) + args.raw;
    io::print_json(&run.report(head, &settings, bits, signers));
    Ok(())
}

/// Verification with a verifying key of the proof's shape
/// (`sigagg_merge::MergeKey`): the key's build, then five verifications.
fn with_key<S: MergeScheme>(
    settings: &Settings,
    statement: &MergeStatement<S>,
    headers: &[ChildHeader],
    bytes: &[u8],
) -> Result<serde_json::Value, CliError> {
    let t = Instant::now();
    let key = MergeKey::<S>::new(headers).map_err(CliError::rejected)?;
    let build_s = t.elapsed().as_secs_f64();
    let mut runs = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let decoded = MergedProof::from_bytes(bytes).map_err(CliError::rejected)?;
        verify_with_key(&key, settings, statement, &decoded).map_err(CliError::rejected)?;
        runs.push(t.elapsed().as_secs_f64());
    }
    Ok(json!({
        "build_s": build_s,
        "verify_s": runs,
        "verify_includes": "decoding, each child's seed and columns from its statement (a merged child's through its key), every claim checked, the proof on the key's tables",
    }))
}

/// One child of a merge `depth` levels above the aggregates (0: an
/// aggregate of N signatures; above: a merge of C such children, under
/// the recursion setting), with its own figures.
fn child_of<S: MergeScheme>(
    args: &BenchArgs,
    depth: usize,
) -> Result<(Child<S>, ChildProof, serde_json::Value), CliError> {
    if depth == 0 {
        let (statement, sigs) = quick_signatures_of::<S>(args.n, false);
        let t = Instant::now();
        let proof = S::prove_child(&CHILD_SETTINGS, &statement, &sigs).map_err(CliError::rejected)?;
        let prove_s = t.elapsed().as_secs_f64();
        let bytes = proof.to_bytes().len();
        let t = Instant::now();
        S::verify_child(&CHILD_SETTINGS, &statement, &proof).map_err(CliError::rejected)?;
        let run = json!({ "prove_s": prove_s, "proof_bytes": bytes, "verify_s": t.elapsed().as_secs_f64() });
        return Ok((Child::Aggregate(statement), proof.into(), run));
    }
    let (mut statements, mut proofs) = (Vec::new(), Vec::new());
    for _ in 0..args.children {
        let (statement, proof, _) = child_of::<S>(args, depth - 1)?;
        statements.push(statement);
        proofs.push(proof);
    }
    let statement = MergeStatement::of(statements).map_err(CliError::rejected)?;
    let t = Instant::now();
    let proof = merge(&CHILD_SETTINGS, &statement, &proofs).map_err(CliError::rejected)?;
    let prove_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    verify(&CHILD_SETTINGS, &statement, &proof).map_err(CliError::rejected)?;
    let run = json!({
        "depth": depth,
        "prove_s": prove_s,
        "proof_bytes": proof.to_bytes().len(),
        "verify_s": t.elapsed().as_secs_f64(),
    });
    Ok((Child::Merged(statement), proof.into(), run))
}
