//! `sigagg bench merge`: C children of N Seed001 signatures each, proven
//! under the recursion setting, merged into one proof (`sigagg-merge`).

use std::time::Instant;

use clap::Args;
use serde_json::json;
use sigagg_merge::{
    CHILD_SETTINGS, MergeScheme, MergeStatement, MergedProof, merge, security_level, verifier_circuit, verify,
};
use sigagg_xmss::{LeanSigProd, Seed001, Signature};
use sigagg_xmss_agg::{AggregateStatement, Proof, ProveError, Settings};

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
    /// Settings of the merged proof: whir-skip-poseidon2 (the default) or whir-skip;
    /// test-whir-skip for a quick look (insecure). Refused: fast, compact, whir,
    /// whir-compact, test, test-compact, test-whir (not whir-skip).
    #[arg(long)]
    pub settings: Option<String>,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
    /// The children's parameter set: seed001 or lean-sig-prod (leanSig's production set).
    #[arg(long, default_value = "seed001", value_parser = ["seed001", "lean-sig-prod"])]
    pub scheme: String,
}

/// A child's aggregate prover.
type ProveChild<S> = fn(&Settings, &AggregateStatement<S>, &[Signature<S>]) -> Result<Proof, ProveError>;

pub fn bench(args: &BenchArgs) -> CliResult {
    match args.scheme.as_str() {
        "lean-sig-prod" => bench_with::<LeanSigProd>(args, sigagg_xmss_agg::leansig::aggregate::prove),
        _ => bench_with::<Seed001>(args, sigagg_xmss_agg::aggregate::prove),
    }
}

fn bench_with<S: MergeScheme>(args: &BenchArgs, prove_child: ProveChild<S>) -> CliResult {
    let named = args::parse_named(args.settings.as_deref().unwrap_or("whir-skip-poseidon2"))?;
    let settings = sigagg_xmss_agg::settings(named);
    if args.children == 0 || args.children > sigagg_merge::MAX_CHILDREN || args.n == 0 {
        return Err(CliError::usage(format!(
            "--children must be in 1..={}, --n at least 1",
            sigagg_merge::MAX_CHILDREN
        )));
    }
    let mut statements = Vec::new();
    let mut proofs = Vec::new();
    let mut children = Vec::new();
    for _ in 0..args.children {
        let (statement, sigs) = quick_signatures_of::<S>(args.n, false);
        let t = Instant::now();
        let proof = prove_child(&CHILD_SETTINGS, &statement, &sigs).map_err(CliError::rejected)?;
        let prove_s = t.elapsed().as_secs_f64();
        let bytes = proof.to_bytes().len();
        let t = Instant::now();
        S::verify_child(&CHILD_SETTINGS, &statement, &proof).map_err(CliError::rejected)?;
        children.push(json!({ "prove_s": prove_s, "proof_bytes": bytes, "verify_s": t.elapsed().as_secs_f64() }));
        statements.push(statement);
        proofs.push(proof);
    }
    let statement = MergeStatement::new(statements).map_err(CliError::rejected)?;
    let circuit = verifier_circuit(&statement, None).map_err(CliError::rejected)?;
    let circuit_json = json!({
        "wires": circuit.num_wires(),
        "arithmetic_rows": circuit.rows().len(),
        "permutations": circuit.perms().len(),
        "path_levels": circuit.paths().iter().map(|p| p.bits.len()).sum::<usize>(),
    });
    drop(circuit);
    let run = io::ProofRun::measure(
        || merge(&settings, &statement, &proofs).map_err(CliError::rejected),
        MergedProof::to_bytes,
        |bytes| {
            let decoded = MergedProof::from_bytes(bytes).map_err(CliError::rejected)?;
            verify(&settings, &statement, &decoded).map_err(CliError::rejected)
        },
    )?;
    let level = security_level(&settings, &statement).map_err(CliError::rejected)?;
    let child = match args.scheme.as_str() {
        "lean-sig-prod" => sigagg_xmss_agg::leansig::aggregate::security_level::<LeanSigProd>(&CHILD_SETTINGS, args.n),
        _ => sigagg_xmss_agg::security::security_level(&CHILD_SETTINGS, args.n),
    };
    let head = json!({
        "bench": "merge",
        "scheme": args.scheme,
        "settings": report_name(sigagg_xmss_agg::named(&settings)),
        "children": args.children,
        "n": args.n,
        "child_settings": sigagg_bytes::merge::CHILD_SETTINGS.name(),
        "child_security_bits": child.proven_bits,
        "child_runs": children,
        "circuit": circuit_json,
        "verify_includes": "decoding and the verifier circuit rebuilt from the statement",
        "prove_includes": "each child verified natively, the verifier circuit built with the proofs as advice, its proof",
    });
    let bits = (level.proven_bits, level.conjectured_bits);
    io::print_json(&run.report(head, &settings, bits, args.children * args.n));
    Ok(())
}
