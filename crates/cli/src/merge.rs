//! `sigagg merge`: one proof that aggregates (or merged proofs) of one
//! message and epoch, or of several (one per key), verify (`sigagg_bytes::merge`), and the merged-proof case of
//! `sigagg verify --proof` (`sigagg bench merge` is in [`crate::bench`]).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde_json::json;
use sigagg_bytes::Scheme;
use sigagg_bytes::merge::{self, MergeInfo, MergeStatement, Shape};

use crate::args::{self, MessageList};
use crate::io::{self, CliError, CliResult};
use crate::proofs::{ChosenSettings, invalid};
use crate::verify::VerifyArgs;

/// The schemes whose aggregates merge.
pub const MERGEABLE: &[Scheme] = &[Scheme::Seed001, Scheme::LeanSigProd];

#[derive(Args)]
pub struct MergeArgs {
    /// The children's signature scheme (leansig-prod: leanSpec's bare proof_data of each child).
    #[arg(long, value_parser = args::schemes(MERGEABLE), default_value = "seed001")]
    pub scheme: Scheme,
    /// A child proof file (repeat, in order): an aggregate made with
    /// `aggregate --settings whir-skip-poseidon2`, a merged proof made by `merge`
    /// (its default settings), which is merged again, or a seed001 threshold certificate
    /// made with `threshold --settings whir-skip-poseidon2` (its committee given by --committee).
    #[arg(long = "child")]
    pub children: Vec<PathBuf>,
    /// A threshold child's committee, GROUP_KEY_FILE:THRESHOLD (repeat, in the order of
    /// the threshold children, depth first).
    #[arg(long = "committee", value_parser = args::parse_committee)]
    pub committees: Vec<args::CommitteeArg>,
    /// The participants' public key files: every child's keys in its order, child after
    /// child (repeat; a merged child's keys in its own order). Each child proof says how
    /// many are its own.
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Raw signature files beside the children (repeat): the signers of the last --pk
    /// files, in order. They are aggregated into one more child, the last.
    #[arg(long = "sig")]
    pub sigs: Vec<PathBuf>,
    /// The epoch every signer signed at; or, repeated, each --pk's then each --committee's
    /// (a merge over several messages).
    #[arg(long = "epoch", required = true)]
    pub epochs: Vec<u32>,
    /// The signed message: one for all, or one per --pk then per --committee (a merge
    /// over several messages, each signer once per message).
    #[command(flatten)]
    pub messages: MessageList,
    /// Settings of the merged proof: whir-skip-poseidon2 (the default, what a merged
    /// proof needs to be merged again), whir-skip-compact (a final proof about 0.7x the size,
    /// at about 1.1x the time; it cannot be merged again), whir-skip, or test-whir-skip
    /// (insecure, for tests).
    /// The FRI and plain WHIR settings (fast, compact, whir, whir-compact, test, test-compact,
    /// test-whir) are refused: the verifier circuit is proven by whir-skip.
    #[arg(long)]
    pub settings: Option<String>,
    /// Merged proof output file.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn merge(args: MergeArgs) -> CliResult {
    let settings = args::parse_named(args.settings.as_deref().unwrap_or(merge::CHILD_SETTINGS.name()))?;
    let files = StatementFiles::read(&args.pks, &args.messages, &args.committees)?;
    let children = args::read_files(&args.children)?;
    let sigs = args::read_files(&args.sigs)?;
    if children.is_empty() && sigs.is_empty() {
        return Err(CliError::usage("give at least one --child or --sig"));
    }
    let bar = io::spinner("merge");
    let t = Instant::now();
    let proof = files.with(args.scheme, &args.epochs, |statement| {
        merge::merge_signed(settings, statement, &args::slices(&children), &args::slices(&sigs))
    });
    bar.finish_and_clear();
    let proof = proof.map_err(CliError::rejected)?;
    io::write_bytes(&args.out, &proof)?;
    eprintln!(
        "merged {} children and {} signatures of {} signers in {:.2} s ({} bytes)",
        children.len(),
        sigs.len(),
        files.pks.len(),
        t.elapsed().as_secs_f64(),
        proof.len()
    );
    Ok(())
}

#[derive(Args)]
pub struct SplitArgs {
    /// The children's signature scheme.
    #[arg(long, value_parser = args::schemes(MERGEABLE), default_value = "seed001")]
    pub scheme: Scheme,
    /// The merged proof file.
    #[arg(long)]
    pub proof: PathBuf,
    /// A child to keep, counted from 0 (repeat); every other child is withheld.
    #[arg(long = "keep", required = true)]
    pub keep: Vec<usize>,
    /// The participants' public key files, as `merge` took them (every child's).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// The threshold children's committees, as `merge` took them.
    #[arg(long = "committee", value_parser = args::parse_committee)]
    pub committees: Vec<args::CommitteeArg>,
    /// The epoch every signer signed at; or, repeated, each --pk's then each --committee's.
    #[arg(long = "epoch", required = true)]
    pub epochs: Vec<u32>,
    /// The signed message: one for all, or one per --pk then per --committee.
    #[command(flatten)]
    pub messages: MessageList,
    /// Split proof output file.
    #[arg(long)]
    pub out: PathBuf,
}

/// Splits a merged proof (`sigagg_bytes::merge::split`): the children not
/// kept are withheld.
pub fn split(args: SplitArgs) -> CliResult {
    let proof = io::read_bytes(&args.proof)?;
    let files = StatementFiles::read(&args.pks, &args.messages, &args.committees)?;
    let split = files.with(args.scheme, &args.epochs, |statement| merge::split(statement, &proof, &args.keep));
    let split = split.map_err(CliError::rejected)?;
    io::write_bytes(&args.out, &split)?;
    eprintln!(
        "kept {} of {} children ({} bytes)",
        args.keep.len(),
        merge::inspect(&proof).map_or(0, |i| i.shape.len()),
        split.len()
    );
    Ok(())
}

/// Verifies the merged proof `proof` against the statement of `args` (the
/// participants' keys, --epoch and --message once or per key and committee,
/// the threshold children's --committee) and prints one JSON
/// object. Without --settings the merged proof is checked under
/// whir-skip-poseidon2, which must reach --min-bits.
pub fn verify(args: &VerifyArgs, proof: &[u8], info: &MergeInfo) -> CliResult {
    let (false, None, None) = (args.epochs.is_empty(), &args.group, args.threshold) else {
        return Err(CliError::usage(
            "a merged proof takes --pk per participant, --epoch and --message once (or per --pk then per --committee) and --committee per threshold child",
        ));
    };
    let files = StatementFiles::read(&args.pks, &args.messages, &args.committees)?;
    let chosen = ChosenSettings::choose(args, Some(merge::CHILD_SETTINGS))?;
    let level = files
        .with(args.scheme, &args.epochs, |statement| merge::verify_merged_security(chosen.named, statement, proof))
        .map_err(invalid)?;
    let security = chosen.accept((level.proven_bits, level.conjectured_bits))?;
    io::print_json(&json!({
        "valid": true,
        "kind": "merged",
        "scheme": args.scheme.name(),
        "count": files.pks.len(),
        "children": shape_json(&info.shape),
        "depth": info.depth(),
        "settings": chosen.named.name(),
        "proven_bits": security.0,
        "conjectured_bits": security.1,
    }));
    Ok(())
}

/// A merge statement's files, read: the participants' keys, the messages
/// and the committees' group keys.
struct StatementFiles {
    pks: Vec<Vec<u8>>,
    messages: Vec<Vec<u8>>,
    committees: Vec<(Vec<u8>, u32)>,
}

impl StatementFiles {
    fn read(pks: &[PathBuf], messages: &MessageList, committees: &[args::CommitteeArg]) -> Result<Self, CliError> {
        Ok(Self {
            pks: args::read_files(pks)?,
            messages: messages.read(true)?,
            committees: args::read_committees(committees)?,
        })
    }

    /// `f` of the byte API's statement of these files, `scheme` and
    /// `epochs`.
    fn with<T>(&self, scheme: Scheme, epochs: &[u32], f: impl FnOnce(&MergeStatement<'_>) -> T) -> T {
        let (keys, messages) = (args::slices(&self.pks), args::slices(&self.messages));
        let committees = args::committee_views(&self.committees);
        f(&MergeStatement { scheme, public_keys: &keys, messages: &messages, epochs, committees: &committees })
    }
}

/// A shape as JSON: an aggregate's signer count, a merged child's array.
pub fn shape_json(shape: &[Shape]) -> serde_json::Value {
    serde_json::Value::Array(
        shape
            .iter()
            .map(|s| match s {
                Shape::Aggregate(n) => json!(n),
                Shape::Merged(inner) => shape_json(inner),
                Shape::Threshold => json!("threshold"),
                Shape::Withheld(_) => json!("withheld"),
            })
            .collect(),
    )
}
