//! Every `sigagg bench ...` command (and `sigagg lamport bench`): each
//! prints one JSON object on standard output.
//!
//! Benchmarks measure the aggregator crates themselves, so they call them
//! directly (typed parameter sets, in-memory keys) rather than through the
//! byte-level API the other commands use; settings still come from the
//! one registry of names ([`sigagg_bytes::ProofSettings`]) and each
//! aggregator's own `settings(named)`.

pub mod cert;
pub mod horn;
pub mod lamport;
pub mod lamport_agg;
pub mod merge;
pub mod mithril;
pub mod msp;
pub mod xmss;
pub mod xmss_agg;

use clap::{Args, Subcommand};
use sigagg_bytes::{ProofSettings, Scheme};
use sigagg_xmss_agg::Settings;

use crate::args;
use crate::io::{CliError, CliResult};

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Key generation, signing and verification of many XMSS keys.
    #[command(after_help = example!("bench xmss --scheme leansig-prod --n 16 --json"))]
    Xmss(xmss::BenchArgs),
    /// One STARK proof for N Seed001 XMSS signatures.
    #[command(after_help = example!("bench xmss-agg --n 1024 --log-blowup 3 --json", "bench xmss-agg --n 1024 --settings whir --json"))]
    XmssAgg(xmss_agg::BenchArgs),
    /// One merged proof of C Seed001 aggregates of N signatures each (children proven with whir-skip-poseidon2).
    ///
    /// Prints prove_s, proof_bytes, security_bits, verify_s, peak_rss_bytes, the verifier
    /// circuit's size, and each child's own prove_s, proof_bytes and verify_s.
    #[command(after_help = example!("bench merge --children 2 --n 64 --json"))]
    Merge(merge::BenchArgs),
    /// One STARK proof for N Lamport+ signatures.
    #[command(after_help = example!("bench lamport-agg --scheme lamport-plus-mined --n 1024 --json"))]
    LamportAgg(lamport_agg::BenchArgs),
    /// One t-of-n threshold proof (Lamport+ or Seed001).
    #[command(after_help = example!("bench threshold --scheme seed001 --n 1024 --t 683 --json"))]
    Threshold(ThresholdBenchArgs),
    /// A full Horn round (seed 003).
    #[command(after_help = example!("bench horn --participation 0.9 --json"))]
    Horn(horn::BenchArgs),
    /// MSP.B aggregation, per-point scalar multiplication versus MSM.
    #[command(after_help = example!("bench msp --n 1024 --json"))]
    Msp(msp::BenchArgs),
    /// One succinct BLS threshold certificate, beside the native ATMS signature of the same statement.
    #[command(after_help = example!("bench cert --n 2001 --t 1602 --mode counting --json", "bench cert --n 32768 --stake --mode accountable --json"))]
    Cert(cert::BenchArgs),
    /// Mithril STM: keygen, registration, signing, the native concatenation certificate and its verification.
    ///
    /// Prints keygen_s, register_s, sign_s (all signers), aggregate_s, certificate_bytes,
    /// verify_s, peak_rss_bytes, the parameters and the signer count. The succinct Mithril
    /// certificate does not exist yet: its prove_s and proof_bytes are not printed.
    #[command(after_help = example!("bench mithril --k 1944 --m 16948 --n 3000 --json", "bench mithril --k 8 --m 64 --phi-f 0.5 --n 16 --json"))]
    Mithril(mithril::BenchArgs),
}

pub fn run(cmd: BenchCommand) -> CliResult {
    match cmd {
        BenchCommand::Xmss(a) => xmss::bench(&a),
        BenchCommand::XmssAgg(a) => xmss_agg::bench(&a),
        BenchCommand::LamportAgg(a) => lamport_agg::bench_aggregate(&a),
        BenchCommand::Merge(a) => merge::bench(&a),
        BenchCommand::Threshold(a) if a.scheme == Scheme::Seed001 => xmss_agg::bench_threshold(&a),
        BenchCommand::Threshold(a) if a.scheme == Scheme::LeanSigProd => xmss_agg::bench_lean_threshold(&a),
        BenchCommand::Threshold(a) => lamport_agg::bench_threshold(&a),
        BenchCommand::Horn(a) => horn::bench(&a),
        BenchCommand::Msp(a) => msp::bench(&a),
        BenchCommand::Cert(a) => cert::bench(&a),
        BenchCommand::Mithril(a) => mithril::bench(&a),
    }
}

/// A benchmark's settings: the one `--settings` names, if any (the test
/// settings included), else the named FRI setting (fast or compact) with
/// `--log-blowup`; `settings_of` is the aggregator's mapping of names.
pub fn bench_settings(
    name: Option<&str>,
    log_blowup: usize,
    settings_of: fn(ProofSettings) -> Settings,
) -> Result<Settings, CliError> {
    if let Some(name) = name {
        return args::parse_named(name).map(settings_of);
    }
    let [fast, compact] = [ProofSettings::Fast, ProofSettings::Compact].map(settings_of);
    [fast, compact].into_iter().find(|s| s.log_blowup() == log_blowup).ok_or_else(|| {
        CliError::usage(format!(
            "--log-blowup {log_blowup}: use {} (fast) or {} (compact)",
            fast.log_blowup(),
            compact.log_blowup()
        ))
    })
}

#[derive(Args)]
pub struct ThresholdBenchArgs {
    /// Signature scheme.
    #[arg(long, value_parser = args::schemes(args::GROUPS), default_value = "lamport-plus")]
    pub scheme: Scheme,
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
    /// Named settings (fast, compact, whir, whir-compact, whir-skip, whir-skip-poseidon2, whir-skip-compact, or test, test-compact, test-whir,
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
