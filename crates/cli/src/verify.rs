//! `sigagg verify`: one XMSS signature (`--sig`), or an aggregate or
//! threshold proof (`--proof`) against the statement given on the command
//! line.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::agg::{self, AggScheme, MessageList};
use crate::io::{CliError, CliResult};
use crate::xmss::{self, Scheme};

/// Every scheme `sigagg verify` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VerifyScheme {
    /// XMSS Seed001 (signatures, aggregate and threshold proofs).
    Seed001,
    /// XMSS leanSig production set (signatures).
    LeanSigProd,
    /// XMSS tiny insecure test set (signatures).
    Test,
    /// Lamport+ aggregate and threshold proofs (signatures: `sigagg lamport verify`).
    LamportPlus,
    /// Lamport+ with mining, aggregate and threshold proofs.
    LamportPlusMined,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Scheme of the signature or proof.
    #[arg(long, value_enum, default_value = "seed001")]
    pub scheme: VerifyScheme,
    /// A signature file: verify one XMSS signature (needs one --pk, --epoch, --message).
    #[arg(long, conflicts_with = "proof")]
    pub sig: Option<PathBuf>,
    /// An aggregate or threshold proof file.
    #[arg(long)]
    pub proof: Option<PathBuf>,
    /// Demand exactly these proof settings: fast, compact, whir, whir-compact,
    /// whir-skip, or an insecure test setting (test, test-compact, test-whir,
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
    #[command(flatten)]
    pub messages: MessageList,
}

pub fn verify(args: VerifyArgs) -> CliResult {
    match (&args.sig, &args.proof) {
        (Some(_), _) => verify_signature(&args),
        (None, Some(_)) => {
            let scheme = match args.scheme {
                VerifyScheme::Seed001 => AggScheme::Seed001,
                VerifyScheme::LamportPlus => AggScheme::LamportPlus,
                VerifyScheme::LamportPlusMined => AggScheme::LamportPlusMined,
                VerifyScheme::LeanSigProd | VerifyScheme::Test => {
                    return Err(CliError::usage("aggregate and threshold proofs exist for seed001 and Lamport+ only"));
                }
            };
            agg::verify_proof(scheme, &args)
        }
        (None, None) => Err(CliError::usage("give --sig (one signature) or --proof (an aggregate or threshold proof)")),
    }
}

fn verify_signature(args: &VerifyArgs) -> CliResult {
    let scheme = match args.scheme {
        VerifyScheme::Seed001 => Scheme::Seed001,
        VerifyScheme::LeanSigProd => Scheme::LeanSigProd,
        VerifyScheme::Test => Scheme::Test,
        VerifyScheme::LamportPlus | VerifyScheme::LamportPlusMined => {
            return Err(CliError::usage("verify single Lamport+ signatures with `sigagg lamport verify`"));
        }
    };
    let [pk] = args.pks.as_slice() else {
        return Err(CliError::usage("give exactly one --pk"));
    };
    let [epoch] = args.epochs.as_slice() else {
        return Err(CliError::usage("give exactly one --epoch"));
    };
    let [message] = xmss::messages32(&args.messages)?[..] else {
        return Err(CliError::usage("give exactly one message"));
    };
    let sig = args.sig.as_deref().expect("dispatched on --sig");
    xmss::verify_signature(scheme, pk, *epoch, &message, sig)
}
