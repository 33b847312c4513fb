//! `sigagg bench lamport-agg` and `sigagg bench threshold` for the
//! Lamport+ sets: one STARK proof (`sigagg-lamport-agg`) of deterministic
//! in-memory keys.

use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use sigagg_bytes::Scheme;
use sigagg_lamport::{
    GroupTree, LamportPlus, LamportPlusMined, ParameterSet, PublicKey, keygen_from_seeds, sign_all, sign_many,
};
use sigagg_lamport_agg::security::{ProofShape, security_level};
use sigagg_lamport_agg::{
    AggregateEntry, AggregateStatement, Disclosure, Proof, Signer, ThresholdStatement, aggregate, threshold,
};

use super::{ThresholdBenchArgs, bench_settings};
use crate::args::{self, PROVABLE, report_name};
use crate::io::{self, CliError, CliResult};

#[derive(Args)]
pub struct BenchArgs {
    /// Signature scheme.
    #[arg(long, value_parser = args::schemes(PROVABLE), default_value = "lamport-plus")]
    pub scheme: Scheme,
    /// Number of signatures (distinct messages).
    #[arg(long, default_value_t = 1024)]
    pub n: usize,
    /// log2 of the blowup: 1 is the fast setting, 3 the compact one.
    #[arg(long, default_value_t = 1)]
    pub log_blowup: usize,
    /// Named settings (fast, compact, whir, whir-compact, whir-skip, whir-skip-poseidon2, whir-skip-compact, or test, test-compact, test-whir,
    /// test-whir-skip), in place of --log-blowup.
    #[arg(long)]
    pub settings: Option<String>,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

/// Runs `$body` with `$S` bound to the Lamport+ set of `$scheme`, or
/// returns a usage error for another scheme (`$other` names the command).
macro_rules! by_set {
    ($scheme:expr, $other:expr, $S:ident => $body:expr) => {
        match $scheme {
            Scheme::LamportPlus => {
                type $S = LamportPlus;
                $body
            }
            Scheme::LamportPlusMined => {
                type $S = LamportPlusMined;
                $body
            }
            _ => Err(CliError::usage($other)),
        }
    };
}

pub fn bench_aggregate(args: &BenchArgs) -> CliResult {
    by_set!(args.scheme, "for seed001 use `sigagg bench xmss-agg`", S => bench_aggregate_for::<S>(args))
}

pub fn bench_threshold(args: &ThresholdBenchArgs) -> CliResult {
    by_set!(args.scheme, "bench threshold: not a Lamport+ set", S => bench_threshold_for::<S>(args))
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

fn bench_aggregate_for<S: ParameterSet>(args: &BenchArgs) -> CliResult {
    let settings = bench_settings(args.settings.as_deref(), args.log_blowup, sigagg_lamport_agg::settings)?;
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

fn bench_threshold_for<S: ParameterSet>(args: &ThresholdBenchArgs) -> CliResult {
    let settings = bench_settings(args.settings.as_deref(), args.log_blowup, sigagg_lamport_agg::settings)?;
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
