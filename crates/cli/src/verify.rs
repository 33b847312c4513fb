//! `sigagg verify`: one XMSS signature (`--sig`), or an aggregate or
//! threshold proof (`--proof`) against the statement given on the command
//! line.

use std::path::PathBuf;

use clap::Args;
use sigagg_bytes::Scheme;

use crate::args::{self, ALL, MessageList};
use crate::io::{CliError, CliResult};
use crate::{lean, proofs, xmss};

#[derive(Args)]
pub struct VerifyArgs {
    /// Scheme of the signature or proof.
    #[arg(long, value_parser = args::schemes(ALL), default_value = "seed001")]
    pub scheme: Scheme,
    /// A signature file: verify one XMSS signature (needs one --pk, --epoch, --message).
    #[arg(long, conflicts_with = "proof")]
    pub sig: Option<PathBuf>,
    /// An aggregate, merged or threshold proof file (leansig-prod: leanSpec's SSZ
    /// container AggregatedSignatureProof, with one --epoch, the slot; a merged
    /// proof: every participant's --pk, child after child, one --epoch).
    #[arg(long)]
    pub proof: Option<PathBuf>,
    /// Demand exactly these proof settings: fast, compact, whir, whir-compact,
    /// whir-skip, whir-skip-poseidon2, whir-skip-compact, or an insecure test setting (test, test-compact, test-whir,
    /// test-whir-skip). Without it the proof's own settings
    /// are used if they are named ones reaching --min-bits.
    #[arg(long)]
    pub settings: Option<String>,
    /// The fewest proven bits of security accepted from the proof's own
    /// settings (not applied to --settings, which names them explicitly);
    /// the insecure test settings (about 20 bits) need a lower value.
    #[arg(long, default_value_t = 100.0)]
    pub min_bits: f64,
    /// Public key files: the signer's, or an aggregate statement's in order (repeat).
    #[arg(long = "pk")]
    pub pks: Vec<PathBuf>,
    /// XMSS epochs: the signature's, an aggregate's per entry (or one for all), a threshold's.
    #[arg(long = "epoch")]
    pub epochs: Vec<u32>,
    /// Threshold proofs: the group key file.
    #[arg(long)]
    pub group: Option<PathBuf>,
    /// Threshold proofs: the threshold t.
    #[arg(long)]
    pub threshold: Option<u32>,
    /// Merged proofs: a threshold child's committee, GROUP_KEY_FILE:THRESHOLD (repeat, in
    /// the order of the threshold children, depth first).
    #[arg(long = "committee", value_parser = args::parse_committee)]
    pub committees: Vec<args::CommitteeArg>,
    #[command(flatten)]
    pub messages: MessageList,
}

pub fn verify(args: VerifyArgs) -> CliResult {
    if let (Some(path), true) = (&args.proof, crate::merge::MERGEABLE.contains(&args.scheme)) {
        // A merged proof says so in its first bytes.
        let proof = crate::io::read_bytes(path)?;
        if let Ok(info) = sigagg_bytes::merge::inspect(&proof) {
            return crate::merge::verify(&args, &proof, &info);
        }
    }
    if !args.committees.is_empty() {
        return Err(CliError::usage("--committee belongs to merged proofs"));
    }
    match (&args.sig, &args.proof) {
        (Some(sig), _) => verify_signature(&args, sig),
        (None, Some(_)) if args::PROVABLE.contains(&args.scheme) => proofs::verify_proof(args.scheme, &args),
        // A leansig-prod threshold certificate is a bare proof; its
        // aggregates travel in leanSpec's container.
        (None, Some(_)) if args.scheme == Scheme::LeanSigProd && args.group.is_some() => {
            proofs::verify_proof(args.scheme, &args)
        }
        (None, Some(_)) if args.scheme == Scheme::LeanSigProd => lean::verify_proof(&args),
        (None, Some(_)) => Err(CliError::usage(
            "aggregate proofs exist for seed001, leansig-prod and Lamport+, threshold proofs for seed001, leansig-prod and Lamport+",
        )),
        (None, None) => Err(CliError::usage("give --sig (one signature) or --proof (an aggregate or threshold proof)")),
    }
}

fn verify_signature(args: &VerifyArgs, sig: &std::path::Path) -> CliResult {
    if !args::XMSS.contains(&args.scheme) {
        return Err(CliError::usage("verify single Lamport+ signatures with `sigagg lamport verify`"));
    }
    let [pk] = args.pks.as_slice() else {
        return Err(CliError::usage("give exactly one --pk"));
    };
    let [epoch] = args.epochs.as_slice() else {
        return Err(CliError::usage("give exactly one --epoch"));
    };
    let message = args.messages.read_one(true)?;
    xmss::verify_signature(args.scheme, pk, *epoch, &message, sig)
}
