//! MSP.B multisignatures (Mithril's layout: keys in G2, signatures in
//! G1) on files: `bls msp-keygen`, `msp-sign`, `msp-aggregate`,
//! `msp-verify`. The byte-level API has no MSP.B yet, so these call
//! `sigagg_bls::msp` directly.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use sigagg_bls::msp::{
    self, DST_MITHRIL, DST_MSP, MspProofOfPossession, MspSignature, MspSigningKey, MspVerificationKey,
};

use super::{parse_ikm, rejected_file, valid};
use crate::io::{self, CliError, CliResult};

fn rejected(e: impl std::fmt::Display) -> CliError {
    CliError::rejected(e)
}

#[derive(Args)]
pub struct KeygenArgs {
    /// Secret key output (32 bytes).
    #[arg(long)]
    pub sk: PathBuf,
    /// Verification key output (96 bytes, G2).
    #[arg(long)]
    pub vk: PathBuf,
    /// Proof of possession output (48 bytes), if wanted.
    #[arg(long)]
    pub pop: Option<PathBuf>,
    /// Deterministic key material (at least 32 bytes, hex); random if absent.
    #[arg(long)]
    pub ikm: Option<String>,
}

#[derive(Args)]
pub struct SignArgs {
    /// Secret key file.
    #[arg(long)]
    pub sk: PathBuf,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Hash to G1 with Mithril's (empty) tag instead of this crate's.
    #[arg(long)]
    pub mithril_dst: bool,
    /// Signature output (48 bytes, G1).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct AggregateArgs {
    /// Verification key files, in signer order (repeat).
    #[arg(long = "vk", required = true)]
    pub vks: Vec<PathBuf>,
    /// Signature files, same order (repeat).
    #[arg(long = "sig", required = true)]
    pub sigs: Vec<PathBuf>,
    /// ivk output (96 bytes).
    #[arg(long)]
    pub out_ivk: PathBuf,
    /// mu output (48 bytes).
    #[arg(long)]
    pub out_mu: PathBuf,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Verification key files, in signer order (repeat); or one aggregated ivk with --aggregated.
    #[arg(long = "vk", required = true)]
    pub vks: Vec<PathBuf>,
    /// Proofs of possession, one per key (required unless --aggregated).
    #[arg(long = "pop")]
    pub pops: Vec<PathBuf>,
    /// Signature files (repeat); or one mu with --aggregated.
    #[arg(long = "sig", required = true)]
    pub sigs: Vec<PathBuf>,
    /// The single --vk / --sig are an already aggregated (ivk, mu).
    #[arg(long)]
    pub aggregated: bool,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Hash to G1 with Mithril's (empty) tag.
    #[arg(long)]
    pub mithril_dst: bool,
}

pub fn keygen(a: &KeygenArgs) -> CliResult {
    let sk = match parse_ikm(&a.ikm)? {
        Some(ikm) => MspSigningKey::from_key_material(&ikm).map_err(CliError::usage)?,
        None => MspSigningKey::generate(&mut rand::rng()),
    };
    io::write_bytes(&a.sk, &sk.to_bytes())?;
    io::write_bytes(&a.vk, &sk.verification_key().to_bytes())?;
    if let Some(pop) = &a.pop {
        io::write_bytes(pop, &sk.prove_possession().to_bytes())?;
    }
    io::print_json(&json!({ "verification_key": hex::encode(sk.verification_key().to_bytes()) }));
    Ok(())
}

pub fn sign(a: &SignArgs) -> CliResult {
    let sk = MspSigningKey::from_bytes(&io::read_bytes(&a.sk)?).map_err(rejected)?;
    let msg = io::parse_message(&a.message)?;
    let dst = if a.mithril_dst { DST_MITHRIL } else { DST_MSP };
    io::write_bytes(&a.out, &sk.sign_with_dst(&msg, dst).to_bytes())
}

pub fn aggregate(a: &AggregateArgs) -> CliResult {
    let (vks, sigs) = msp_inputs(&a.vks, &a.sigs)?;
    let (ivk, mu) = msp::aggregate(&vks, &sigs).map_err(rejected)?;
    io::write_bytes(&a.out_ivk, &ivk.to_bytes())?;
    io::write_bytes(&a.out_mu, &mu.to_bytes())
}

pub fn verify(a: &VerifyArgs) -> CliResult {
    let msg = io::parse_message(&a.message)?;
    let dst = if a.mithril_dst { DST_MITHRIL } else { DST_MSP };
    let (vks, sigs) = msp_inputs(&a.vks, &a.sigs)?;
    if a.aggregated {
        if vks.len() != 1 {
            return Err(CliError::usage("--aggregated takes one --vk (ivk) and one --sig (mu)"));
        }
        msp::verify_aggregated(&msg, dst, &vks[0], &sigs[0]).map_err(rejected)?;
    } else {
        if a.pops.len() != vks.len() {
            return Err(CliError::usage("give one --pop per --vk (rogue-key protection)"));
        }
        for (i, (vk, p)) in vks.iter().zip(&a.pops).enumerate() {
            MspProofOfPossession::from_bytes(&io::read_bytes(p)?)
                .and_then(|pop| pop.verify(vk))
                .map_err(|e| rejected(format!("key #{i}: {e}")))?;
        }
        msp::verify_aggregate_with_dst(&msg, dst, &vks, &sigs).map_err(rejected)?;
    }
    valid("MSP.B aggregate")
}

fn msp_inputs(
    vk_paths: &[PathBuf],
    sig_paths: &[PathBuf],
) -> Result<(Vec<MspVerificationKey>, Vec<MspSignature>), CliError> {
    let vks = vk_paths
        .iter()
        .map(|p| MspVerificationKey::from_bytes(&io::read_bytes(p)?).map_err(|e| rejected_file(p, e)))
        .collect::<Result<Vec<_>, CliError>>()?;
    let sigs = sig_paths
        .iter()
        .map(|p| MspSignature::from_bytes(&io::read_bytes(p)?).map_err(|e| rejected_file(p, e)))
        .collect::<Result<Vec<_>, CliError>>()?;
    if vks.len() != sigs.len() {
        return Err(CliError::usage(format!("{} keys but {} signatures", vks.len(), sigs.len())));
    }
    Ok((vks, sigs))
}
