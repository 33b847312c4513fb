//! BLS sub-commands: `sigagg bls ...`, `sigagg bench horn`, `sigagg bench msp`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use rayon::prelude::*;
use serde_json::json;
use sigagg_bls::msp::{
    self, DST_MITHRIL, DST_MSP, MspProofOfPossession, MspSignature, MspSigningKey, MspVerificationKey,
};
use sigagg_bls::{KeyRegistry, ProofOfPossession, PublicKey, SecretKey, Signature, SignatureSet, atms};
use sigagg_horn::bench;

use crate::cert;
use crate::io::{self, CliError, CliResult};

#[derive(Subcommand)]
pub enum BlsCommand {
    /// Generate a key pair and its proof of possession (Ethereum suite: keys in G1).
    #[command(after_help = example!("bls keygen --sk a.sk --pk a.pk --pop a.pop"))]
    Keygen(KeygenArgs),
    /// Prove possession of a secret key (signature of the public key under the PoP tag).
    #[command(after_help = example!("bls pop --sk a.sk --out a.pop"))]
    Pop(SkOutArgs),
    /// Check a proof of possession.
    #[command(after_help = example!("bls pop-verify --pk a.pk --pop a.pop"))]
    PopVerify(PopVerifyArgs),
    /// Sign a message.
    #[command(after_help = example!("bls sign --sk a.sk --message 0x00112233 --out a.sig"))]
    Sign(SignArgs),
    /// Verify a signature.
    #[command(after_help = example!("bls verify --pk a.pk --message 0x00112233 --sig a.sig"))]
    Verify(VerifyArgs),
    /// Add signatures into one aggregate signature.
    #[command(after_help = example!("bls aggregate --sig a.sig --sig b.sig --out ab.sig"))]
    Aggregate(AggregateArgs),
    /// Verify an aggregate signature of many keys on one message; every key needs a proof of possession.
    #[command(after_help = example!(
        "bls fast-aggregate-verify --pk a.pk --pop a.pop --pk b.pk --pop b.pop --message 0x00112233 --sig ab.sig",
    ))]
    FastAggregateVerify(FastAggregateVerifyArgs),
    /// Verify an aggregate signature over (key, message) pairs.
    #[command(after_help = example!(
        "bls aggregate-verify --pk a.pk --pop a.pop --message 0x01 --pk b.pk --pop b.pop --message 0x02 --sig ab.sig",
    ))]
    AggregateVerify(AggregateVerifyArgs),
    /// Verify many (key, message, signature) sets at once with random 64-bit weights.
    #[command(after_help = example!(
        "bls batch-verify --pk a.pk --message 0x01 --sig a.sig --pk b.pk --message 0x02 --sig b.sig",
    ))]
    BatchVerify(BatchVerifyArgs),
    /// ATMS AKey: aggregate key (key sum, Merkle root) of a key list; checks every proof of possession.
    #[command(after_help = example!(
        "bls atms-akey --pk a.pk --pop a.pop --pk b.pk --pop b.pop --pk c.pk --pop c.pop --out abc.avk",
    ))]
    AtmsAkey(AtmsAkeyArgs),
    /// ATMS ACheck: does a key list give this aggregate key?
    #[command(after_help = example!(
        "bls atms-check --pk a.pk --pop a.pop --pk b.pk --pop b.pop --pk c.pk --pop c.pop --avk abc.avk",
    ))]
    AtmsCheck(AtmsCheckArgs),
    /// ATMS ASig: aggregate the signers' signatures with the non-signers' keys and Merkle proofs.
    #[command(after_help = example!(
        "bls atms-sign --pk a.pk --pk b.pk --pk c.pk --threshold 2 --message 0x00112233 --signer 0:a.sig --signer 2:c.sig --out abc.atms",
    ))]
    AtmsSign(AtmsSignArgs),
    /// ATMS AVer: verify an ATMS signature against an aggregate key and threshold.
    #[command(after_help = example!("bls atms-verify --avk abc.avk --threshold 2 --message 0x00112233 --sig abc.atms"))]
    AtmsVerify(AtmsVerifyArgs),
    /// Succinct certificates: the INSECURE deterministic development setup (tests and demos only).
    #[command(after_help = example!("bls dev-setup --max-committee 2001 --out dev.params"))]
    DevSetup(cert::DevSetupArgs),
    /// Succinct certificates: start a setup ceremony (powers of tau on BW6-767, no contribution yet).
    #[command(after_help = example!("bls ceremony-start --max-committee 2001 --out c0.params"))]
    CeremonyStart(cert::CeremonyStartArgs),
    /// Succinct certificates: add a contribution (fresh secret from the OS, erased after use).
    #[command(after_help = example!("bls contribute --params c0.params --out c1.params"))]
    Contribute(cert::ContributeArgs),
    /// Succinct certificates: check every contribution of a ceremony with pairings.
    #[command(after_help = example!("bls verify-ceremony --params c1.params"))]
    VerifyCeremony(cert::VerifyCeremonyArgs),
    /// Succinct certificates: commit a validator set (keys with proofs of possession, optional stake).
    #[command(after_help = example!(
        "bls committee --params c1.params --pk a.pk --pop a.pop --pk b.pk --pop b.pop --pk c.pk --pop c.pop --out abc.committee --key-out abc.ckey",
        "bls committee --params c1.params --keys keys.bin --pops-file pops.bin --weights stake.txt --out v.committee --key-out v.ckey",
    ))]
    Committee(cert::CommitteeArgs),
    /// Succinct certificates: prove that signers of a committee signed a message.
    #[command(after_help = example!(
        "bls certify --params c1.params --committee abc.committee --message 0x00112233 --signer 0:a.sig --signer 2:c.sig --out abc.cert",
        "bls certify --params c1.params --committee abc.committee --message 0x00112233 --mode accountable --aggregate ac.sig --bitfield 0x05 --out abc.cert",
    ))]
    Certify(cert::CertifyArgs),
    /// Succinct certificates: verify a certificate against a committee key and a threshold.
    #[command(after_help = example!("bls verify-cert --committee-key abc.ckey --cert abc.cert --message 0x00112233 --threshold 2"))]
    VerifyCert(cert::VerifyCertArgs),
    /// MSP.B key pair (Mithril layout: keys in G2, signatures in G1) and proof of possession.
    #[command(after_help = example!("bls msp-keygen --sk m.sk --vk m.vk --pop m.pop"))]
    MspKeygen(MspKeygenArgs),
    /// MSP.B signature.
    #[command(after_help = example!("bls msp-sign --sk m.sk --message 0x00112233 --out m.sig"))]
    MspSign(MspSignArgs),
    /// MSP.B aggregation: ivk = sum e_i mvk_i, mu = sum e_i sigma_i (Mithril weights, MSM).
    #[command(after_help = example!(
        "bls msp-aggregate --vk m.vk --vk n.vk --sig m.sig --sig n.sig --out-ivk mn.ivk --out-mu mn.mu",
    ))]
    MspAggregate(MspAggregateArgs),
    /// MSP.B verification of signatures (aggregated here) or of an (ivk, mu) pair.
    #[command(after_help = example!(
        "bls msp-verify --vk m.vk --pop m.pop --vk n.vk --pop n.pop --sig m.sig --sig n.sig --message 0x00112233",
        "bls msp-verify --aggregated --vk mn.ivk --sig mn.mu --message 0x00112233",
    ))]
    MspVerify(MspVerifyArgs),
}

#[derive(Args)]
pub struct KeygenArgs {
    /// Secret key output (32 bytes; hex text if the name ends in .hex).
    #[arg(long)]
    pub sk: PathBuf,
    /// Public key output (48 bytes compressed).
    #[arg(long)]
    pub pk: PathBuf,
    /// Proof of possession output (96 bytes), if wanted.
    #[arg(long)]
    pub pop: Option<PathBuf>,
    /// Deterministic key material (at least 32 bytes, hex); random if absent.
    #[arg(long)]
    pub ikm: Option<String>,
}

#[derive(Args)]
pub struct SkOutArgs {
    /// Secret key file.
    #[arg(long)]
    pub sk: PathBuf,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct PopVerifyArgs {
    /// Public key file.
    #[arg(long)]
    pub pk: PathBuf,
    /// Proof of possession file.
    #[arg(long)]
    pub pop: PathBuf,
}

#[derive(Args)]
pub struct SignArgs {
    /// Secret key file.
    #[arg(long)]
    pub sk: PathBuf,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Signature output (96 bytes).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Public key file.
    #[arg(long)]
    pub pk: PathBuf,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Signature file.
    #[arg(long)]
    pub sig: PathBuf,
}

#[derive(Args)]
pub struct AggregateArgs {
    /// Signature files (repeat the flag).
    #[arg(long = "sig", required = true)]
    pub sigs: Vec<PathBuf>,
    /// Aggregate signature output.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct FastAggregateVerifyArgs {
    /// Public key files (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Proof of possession files, one per key in the same order (rogue-key protection).
    #[arg(long = "pop", required = true)]
    pub pops: Vec<PathBuf>,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// Aggregate signature file.
    #[arg(long)]
    pub sig: PathBuf,
}

#[derive(Args)]
pub struct AggregateVerifyArgs {
    /// Public key files (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Proof of possession files, one per key in the same order.
    #[arg(long = "pop", required = true)]
    pub pops: Vec<PathBuf>,
    /// Messages, one per key in the same order.
    #[arg(long = "message", required = true)]
    pub messages: Vec<String>,
    /// Aggregate signature file.
    #[arg(long)]
    pub sig: PathBuf,
}

#[derive(Args)]
pub struct BatchVerifyArgs {
    /// Public key files (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Messages, one per key.
    #[arg(long = "message", required = true)]
    pub messages: Vec<String>,
    /// Signature files, one per key.
    #[arg(long = "sig", required = true)]
    pub sigs: Vec<PathBuf>,
}

#[derive(Args)]
pub struct AtmsAkeyArgs {
    /// Key list, in order (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Proofs of possession, one per key.
    #[arg(long = "pop", required = true)]
    pub pops: Vec<PathBuf>,
    /// Aggregate key output (88 bytes: sum, root, number of keys).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct AtmsCheckArgs {
    /// Key list, in order (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Proofs of possession, one per key: without them a list ending in a
    /// rogue key would check, and its author could sign for every key.
    #[arg(long = "pop", required = true)]
    pub pops: Vec<PathBuf>,
    /// Aggregate key file.
    #[arg(long)]
    pub avk: PathBuf,
}

#[derive(Args)]
pub struct AtmsSignArgs {
    /// Key list, in order (repeat the flag).
    #[arg(long = "pk", required = true)]
    pub pks: Vec<PathBuf>,
    /// Threshold t.
    #[arg(long)]
    pub threshold: usize,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// A signer as INDEX:SIGNATURE_FILE, INDEX being its position in the key list (repeat).
    #[arg(long = "signer", required = true)]
    pub signers: Vec<String>,
    /// ATMS signature output.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct AtmsVerifyArgs {
    /// Aggregate key file.
    #[arg(long)]
    pub avk: PathBuf,
    /// Threshold t.
    #[arg(long)]
    pub threshold: usize,
    /// Message: 0x-prefixed hex, or UTF-8 text.
    #[arg(long)]
    pub message: String,
    /// ATMS signature file.
    #[arg(long)]
    pub sig: PathBuf,
}

#[derive(Args)]
pub struct MspKeygenArgs {
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
pub struct MspSignArgs {
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
pub struct MspAggregateArgs {
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
pub struct MspVerifyArgs {
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

#[derive(Args)]
pub struct HornBenchArgs {
    /// Probability that a validator votes.
    #[arg(long, default_value_t = 0.95)]
    pub participation: f64,
    /// Committees (the seed: 32).
    #[arg(long, default_value_t = 32)]
    pub committees: usize,
    /// Validators per committee (the seed: 2^15).
    #[arg(long, default_value_t = 1 << 15)]
    pub committee_size: usize,
    /// Validators per subcommittee (the seed: 512).
    #[arg(long, default_value_t = 512)]
    pub subcommittee_size: usize,
    /// Aggregators per subcommittee.
    #[arg(long, default_value_t = 16)]
    pub aggregators: usize,
    /// Collectors per committee.
    #[arg(long, default_value_t = 16)]
    pub collectors: usize,
    /// Seed of the simulated round.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Times the fast verification is repeated (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub fast_repeats: usize,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct MspBenchArgs {
    /// Number of signers.
    #[arg(long, default_value_t = 1024)]
    pub n: usize,
    /// Times each aggregation is repeated (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub repeats: usize,
    /// Print JSON (the only output format; kept for symmetry with other benches).
    #[arg(long)]
    pub json: bool,
}

fn rejected(e: impl std::fmt::Display) -> CliError {
    CliError::rejected(e)
}

fn read_pk(path: &Path) -> Result<PublicKey, CliError> {
    PublicKey::from_bytes(&io::read_bytes(path)?).map_err(|e| rejected(format!("{}: {e}", path.display())))
}

fn read_sig(path: &Path) -> Result<Signature, CliError> {
    Signature::from_bytes(&io::read_bytes(path)?).map_err(|e| rejected(format!("{}: {e}", path.display())))
}

fn read_sk(path: &Path) -> Result<SecretKey, CliError> {
    SecretKey::from_bytes(&io::read_bytes(path)?).map_err(|e| rejected(format!("{}: {e}", path.display())))
}

fn read_pop(path: &Path) -> Result<ProofOfPossession, CliError> {
    ProofOfPossession::from_bytes(&io::read_bytes(path)?).map_err(|e| rejected(format!("{}: {e}", path.display())))
}

fn parse_ikm(ikm: &Option<String>) -> Result<Option<Vec<u8>>, CliError> {
    ikm.as_ref()
        .map(|h| hex::decode(h.trim_start_matches("0x")).map_err(|e| CliError::usage(format!("bad --ikm: {e}"))))
        .transpose()
}

/// Keys with their proofs of possession, checked: the registry refuses a
/// missing or invalid proof (a possible rogue key) and duplicate keys.
fn proven_keys(pks: &[PathBuf], pops: &[PathBuf]) -> Result<Vec<PublicKey>, CliError> {
    if pks.len() != pops.len() {
        return Err(CliError::usage(format!("{} keys but {} proofs of possession", pks.len(), pops.len())));
    }
    let entries: Vec<(PublicKey, ProofOfPossession)> =
        pks.iter().zip(pops).map(|(k, p)| Ok((read_pk(k)?, read_pop(p)?))).collect::<Result<_, CliError>>()?;
    Ok(KeyRegistry::from_keys_with_proofs(&entries).map_err(rejected)?.keys().to_vec())
}

fn valid(what: &str) -> CliResult {
    io::print_json(&json!({ "valid": true, "what": what }));
    Ok(())
}

pub fn run(cmd: BlsCommand) -> CliResult {
    match cmd {
        BlsCommand::DevSetup(a) => cert::dev_setup(a),
        BlsCommand::CeremonyStart(a) => cert::ceremony_start(a),
        BlsCommand::Contribute(a) => cert::contribute(a),
        BlsCommand::VerifyCeremony(a) => cert::verify_ceremony(a),
        BlsCommand::Committee(a) => cert::committee(a),
        BlsCommand::Certify(a) => cert::certify(a),
        BlsCommand::VerifyCert(a) => cert::verify_cert(a),
        BlsCommand::Keygen(a) => {
            let sk = match parse_ikm(&a.ikm)? {
                Some(ikm) => SecretKey::from_key_material(&ikm).map_err(CliError::usage)?,
                None => SecretKey::generate(&mut rand::rng()),
            };
            io::write_bytes(&a.sk, &sk.to_bytes())?;
            io::write_bytes(&a.pk, &sk.public_key().to_bytes())?;
            if let Some(pop) = &a.pop {
                io::write_bytes(pop, &sk.prove_possession().to_bytes())?;
            }
            io::print_json(&json!({ "public_key": hex::encode(sk.public_key().to_bytes()) }));
            Ok(())
        }
        BlsCommand::Pop(a) => io::write_bytes(&a.out, &read_sk(&a.sk)?.prove_possession().to_bytes()),
        BlsCommand::PopVerify(a) => {
            read_pop(&a.pop)?.verify(&read_pk(&a.pk)?).map_err(rejected)?;
            valid("proof of possession")
        }
        BlsCommand::Sign(a) => {
            let msg = io::parse_message(&a.message)?;
            io::write_bytes(&a.out, &read_sk(&a.sk)?.sign(&msg).to_bytes())
        }
        BlsCommand::Verify(a) => {
            let msg = io::parse_message(&a.message)?;
            read_sig(&a.sig)?.verify(&read_pk(&a.pk)?, &msg).map_err(rejected)?;
            valid("signature")
        }
        BlsCommand::Aggregate(a) => {
            let sigs: Vec<Signature> = a.sigs.iter().map(|p| read_sig(p)).collect::<Result<_, _>>()?;
            let agg = sigagg_bls::aggregate(&sigs).map_err(rejected)?;
            io::write_bytes(&a.out, &agg.to_bytes())
        }
        BlsCommand::FastAggregateVerify(a) => {
            let keys = proven_keys(&a.pks, &a.pops)?;
            let msg = io::parse_message(&a.message)?;
            sigagg_bls::fast_aggregate_verify(&keys, &msg, &read_sig(&a.sig)?).map_err(rejected)?;
            valid("aggregate signature")
        }
        BlsCommand::AggregateVerify(a) => {
            let keys = proven_keys(&a.pks, &a.pops)?;
            let msgs: Vec<Vec<u8>> = a.messages.iter().map(|m| io::parse_message(m)).collect::<Result<_, _>>()?;
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            sigagg_bls::aggregate_verify(&keys, &refs, &read_sig(&a.sig)?).map_err(rejected)?;
            valid("aggregate signature")
        }
        BlsCommand::BatchVerify(a) => {
            if a.pks.len() != a.messages.len() || a.pks.len() != a.sigs.len() {
                return Err(CliError::usage("give as many --pk, --message and --sig"));
            }
            let msgs: Vec<Vec<u8>> = a.messages.iter().map(|m| io::parse_message(m)).collect::<Result<_, _>>()?;
            let sets: Vec<SignatureSet<'_>> = a
                .pks
                .iter()
                .zip(&msgs)
                .zip(&a.sigs)
                .map(|((k, m), s)| Ok(SignatureSet { public_key: read_pk(k)?, message: m, signature: read_sig(s)? }))
                .collect::<Result<_, CliError>>()?;
            sigagg_bls::batch_verify(&sets).map_err(rejected)?;
            valid("batch")
        }
        BlsCommand::AtmsAkey(a) => {
            let keys = proven_keys(&a.pks, &a.pops)?;
            let avk = atms::akey(&keys).map_err(rejected)?;
            io::write_bytes(&a.out, &avk.to_bytes())?;
            io::print_json(&json!({ "keys": avk.leaves, "root": hex::encode(avk.root) }));
            Ok(())
        }
        BlsCommand::AtmsCheck(a) => {
            let keys = proven_keys(&a.pks, &a.pops)?;
            let avk = atms::AggregateKey::from_bytes(&io::read_bytes(&a.avk)?).map_err(rejected)?;
            atms::acheck(&keys, &avk).map_err(rejected)?;
            valid("ATMS aggregate key")
        }
        BlsCommand::AtmsSign(a) => {
            let params = atms::pgen(a.threshold).map_err(CliError::usage)?;
            let keys: Vec<PublicKey> = a.pks.iter().map(|p| read_pk(p)).collect::<Result<_, _>>()?;
            let msg = io::parse_message(&a.message)?;
            let signers: Vec<(PublicKey, Signature)> = a
                .signers
                .iter()
                .map(|s| {
                    let (i, path) = s
                        .split_once(':')
                        .ok_or_else(|| CliError::usage(format!("--signer {s}: expected INDEX:FILE")))?;
                    let i: usize = i.parse().map_err(|_| CliError::usage(format!("--signer {s}: bad index")))?;
                    let key = *keys
                        .get(i)
                        .ok_or_else(|| CliError::usage(format!("--signer {s}: index past the {} keys", keys.len())))?;
                    Ok((key, read_sig(Path::new(path))?))
                })
                .collect::<Result<_, CliError>>()?;
            let sig = atms::asig(&params, &msg, &keys, &signers).map_err(rejected)?;
            let bytes = sig.to_bytes();
            io::write_bytes(&a.out, &bytes)?;
            io::print_json(&json!({
                "signers": signers.len(),
                "non_signers": sig.non_signers.len(),
                "bytes": bytes.len(),
            }));
            Ok(())
        }
        BlsCommand::AtmsVerify(a) => {
            let params = atms::pgen(a.threshold).map_err(CliError::usage)?;
            let avk = atms::AggregateKey::from_bytes(&io::read_bytes(&a.avk)?).map_err(rejected)?;
            let sig = atms::AtmsSignature::from_bytes(&io::read_bytes(&a.sig)?).map_err(rejected)?;
            let msg = io::parse_message(&a.message)?;
            atms::aver(&params, &msg, &avk, &sig).map_err(rejected)?;
            valid("ATMS signature")
        }
        BlsCommand::MspKeygen(a) => {
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
        BlsCommand::MspSign(a) => {
            let sk = MspSigningKey::from_bytes(&io::read_bytes(&a.sk)?).map_err(rejected)?;
            let msg = io::parse_message(&a.message)?;
            let dst = if a.mithril_dst { DST_MITHRIL } else { DST_MSP };
            io::write_bytes(&a.out, &sk.sign_with_dst(&msg, dst).to_bytes())
        }
        BlsCommand::MspAggregate(a) => {
            let (vks, sigs) = msp_inputs(&a.vks, &a.sigs)?;
            let (ivk, mu) = msp::aggregate(&vks, &sigs).map_err(rejected)?;
            io::write_bytes(&a.out_ivk, &ivk.to_bytes())?;
            io::write_bytes(&a.out_mu, &mu.to_bytes())
        }
        BlsCommand::MspVerify(a) => {
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
    }
}

fn msp_inputs(
    vk_paths: &[PathBuf],
    sig_paths: &[PathBuf],
) -> Result<(Vec<MspVerificationKey>, Vec<MspSignature>), CliError> {
    let vks = vk_paths
        .iter()
        .map(|p| {
            MspVerificationKey::from_bytes(&io::read_bytes(p)?).map_err(|e| rejected(format!("{}: {e}", p.display())))
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    let sigs = sig_paths
        .iter()
        .map(|p| MspSignature::from_bytes(&io::read_bytes(p)?).map_err(|e| rejected(format!("{}: {e}", p.display()))))
        .collect::<Result<Vec<_>, CliError>>()?;
    if vks.len() != sigs.len() {
        return Err(CliError::usage(format!("{} keys but {} signatures", vks.len(), sigs.len())));
    }
    Ok((vks, sigs))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

pub fn bench_horn(args: HornBenchArgs) -> CliResult {
    let config = bench::BenchConfig {
        committees: args.committees,
        committee_size: args.committee_size,
        subcommittee_size: args.subcommittee_size,
        participation: args.participation,
        aggregators: args.aggregators,
        collectors: args.collectors,
        seed: args.seed,
        fast_repeats: args.fast_repeats,
    };
    let r = bench::run(&config, &mut |stage| eprintln!("horn: {stage}")).map_err(|e| match e {
        bench::BenchError::Config(e) => CliError::usage(e),
        e => CliError::rejected(e),
    })?;
    let (params, v, m) = (&r.params, &r.verify, &r.multiplicity);
    let per = &v.per_collection_ms;
    io::print_json(&json!({
        "bench": "horn",
        "threads": io::threads(),
        "validators": params.validators(),
        "committees": params.committees(),
        "committee_size": params.committee_size(),
        "subcommittee_size": params.subcommittee_size(),
        "aggregators_per_subcommittee": args.aggregators,
        "collectors_per_committee": args.collectors,
        "participation": args.participation,
        "votes": r.votes,
        "collection_participation_mean": r.collection_participation_mean,
        "setup_s": r.setup_s,
        "setup_note": bench::SETUP_NOTE,
        "global_topic": {
            "collections": r.global_topic.messages,
            "raw_bytes": r.global_topic.raw_bytes,
            "compressed_bytes": r.global_topic.compressed_bytes,
            "compression_ratio": r.global_topic.ratio(),
            "bytes_per_collection": r.bytes_per_collection,
        },
        "subnet_aggregates": {
            "aggregates": r.subnet_aggregates.messages,
            "raw_bytes": r.subnet_aggregates.raw_bytes,
            "compressed_bytes": r.subnet_aggregates.compressed_bytes,
        },
        "block": {
            "attestations": r.block.messages,
            "raw_bytes": r.block.raw_bytes,
            "compressed_bytes": r.block.compressed_bytes,
            "raw_bytes_with_2x_redundancy": 2 * r.block.raw_bytes,
            "note": bench::BLOCK_NOTE,
        },
        "verify": {
            "collections": v.collections,
            "decode_s": v.decode_s,
            "naive_s": v.naive_s,
            "fast_s": v.fast_s,
            "fast_runs_s": v.fast_runs_s,
            "fast_reconstruct_s": v.fast_reconstruct_s,
            "fast_batched_pairing_s": v.fast_batched_pairing_s,
            "speedup": r.speedup(),
            "fast_reconstruct_independent_s": v.fast_reconstruct_independent_s,
            "strategies": {
                "add": v.strategies.add,
                "subtract": v.strategies.subtract,
                "subtract_from_shared": v.strategies.subtract_from_shared,
            },
            "per_collection_ms": {
                "naive_key": per.naive_key,
                "bulk_add_key": per.bulk_add_key,
                "subtract_key": per.subtract_key,
                "single_fast_verify": per.single_fast_verify,
            },
        },
        "multiplicity": {
            "aggregates": m.aggregates,
            "mean_signers": m.mean_signers,
            "raw_bytes": m.sizes.raw_bytes,
            "compressed_bytes": m.sizes.compressed_bytes,
            "verify_ms_each": m.verify_ms_each,
        },
        "targets": {
            "speedup_target": r.speedup_target(),
            "speedup_met": r.speedup_met(),
            "fast_under_0_6_s": r.fast_under_target(),
        },
    }));
    Ok(())
}

pub fn bench_msp(args: MspBenchArgs) -> CliResult {
    let n = args.n;
    if n < 2 {
        return Err(CliError::usage("--n must be at least 2 (one signature is not weighted)"));
    }
    let msg = b"mithril checkpoint message";
    let t = Instant::now();
    let sks: Vec<MspSigningKey> = (0..n)
        .into_par_iter()
        .map(|i| {
            let mut ikm = [0x42u8; 32];
            ikm[..8].copy_from_slice(&(i as u64).to_le_bytes());
            MspSigningKey::from_key_material(&ikm).expect("32 bytes of key material")
        })
        .collect();
    let vks: Vec<MspVerificationKey> = sks.par_iter().map(MspSigningKey::verification_key).collect();
    let sigs: Vec<MspSignature> = sks.par_iter().map(|sk| sk.sign(msg)).collect();
    let setup_s = t.elapsed().as_secs_f64();

    let repeats = args.repeats.max(1);
    let time = |f: &dyn Fn() -> Result<(MspVerificationKey, MspSignature), msp::MspError>| {
        let mut runs = Vec::with_capacity(repeats);
        let mut out = None;
        for _ in 0..repeats {
            let t = Instant::now();
            let r = f();
            runs.push(t.elapsed().as_secs_f64());
            out = Some(r);
        }
        (median(runs), out.expect("at least one run"))
    };
    let (weights_s, _) = {
        let mut runs = Vec::new();
        for _ in 0..repeats {
            let t = Instant::now();
            std::hint::black_box(msp::weights(&sigs));
            runs.push(t.elapsed().as_secs_f64());
        }
        (median(runs), ())
    };
    let (per_point_s, per_point) = time(&|| msp::aggregate_per_point(&vks, &sigs));
    let (msm_s, msm) = time(&|| msp::aggregate(&vks, &sigs));
    let per_point = per_point.map_err(rejected)?;
    let (ivk, mu) = msm.map_err(rejected)?;
    if per_point != (ivk, mu) {
        return Err(rejected("per-point and MSM aggregates differ"));
    }
    let t = Instant::now();
    msp::verify_aggregated(msg, DST_MSP, &ivk, &mu).map_err(rejected)?;
    let verify_s = t.elapsed().as_secs_f64();
    io::print_json(&json!({
        "bench": "msp",
        "n": n,
        "threads": io::threads(),
        "setup_s": setup_s,
        "weights_ms": 1e3 * weights_s,
        "per_point_ms": 1e3 * per_point_s,
        "msm_ms": 1e3 * msm_s,
        "speedup": per_point_s / msm_s,
        "verify_aggregated_ms": 1e3 * verify_s,
        "note": "aggregation = weights (Blake2b-128, Mithril byte layout) + ivk in G2 + mu in G1 with 128-bit weights; per-point: one scalar multiplication per key and per signature then a sum; msm: blst Pippenger, single-threaded calls",
        "ivk": hex::encode(ivk.to_bytes()),
        "mu": hex::encode(mu.to_bytes()),
    }));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(subcommand)]
        cmd: BlsCommand,
    }

    struct Dir(PathBuf);

    impl Dir {
        fn new(name: &str) -> Dir {
            let d = std::env::temp_dir().join(format!("sigagg-bls-cli-{name}-{}", std::process::id()));
            std::fs::create_dir_all(&d).unwrap();
            Dir(d)
        }
        fn p(&self, f: &str) -> String {
            self.0.join(f).display().to_string()
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn bls(args: &[&str]) -> CliResult {
        let mut v = vec!["bls"];
        v.extend_from_slice(args);
        run(Cli::try_parse_from(v).map_err(|e| CliError::usage(e.to_string()))?.cmd)
    }

    fn rejected_err(r: CliResult) -> bool {
        matches!(r, Err(CliError { rejected: true, .. }))
    }

    #[test]
    fn signatures_and_aggregates_through_the_cli() {
        let d = Dir::new("sig");
        for i in 0..3 {
            let ikm = format!("{:02x}", i).repeat(32);
            bls(&[
                "keygen",
                "--sk",
                &d.p(&format!("{i}.sk.hex")),
                "--pk",
                &d.p(&format!("{i}.pk.hex")),
                "--pop",
                &d.p(&format!("{i}.pop")),
                "--ikm",
                &ikm,
            ])
            .unwrap();
            bls(&[
                "sign",
                "--sk",
                &d.p(&format!("{i}.sk.hex")),
                "--message",
                "vote",
                "--out",
                &d.p(&format!("{i}.sig")),
            ])
            .unwrap();
        }
        bls(&["verify", "--pk", &d.p("0.pk.hex"), "--message", "vote", "--sig", &d.p("0.sig")]).unwrap();
        assert!(rejected_err(bls(&["verify", "--pk", &d.p("1.pk.hex"), "--message", "vote", "--sig", &d.p("0.sig")])));
        assert!(rejected_err(bls(&["verify", "--pk", &d.p("0.pk.hex"), "--message", "veto", "--sig", &d.p("0.sig")])));
        bls(&["pop-verify", "--pk", &d.p("0.pk.hex"), "--pop", &d.p("0.pop")]).unwrap();
        assert!(rejected_err(bls(&["pop-verify", "--pk", &d.p("1.pk.hex"), "--pop", &d.p("0.pop")])));
        bls(&[
            "aggregate",
            "--sig",
            &d.p("0.sig"),
            "--sig",
            &d.p("1.sig"),
            "--sig",
            &d.p("2.sig"),
            "--out",
            &d.p("agg.hex"),
        ])
        .unwrap();
        let (pk0, pk1, pk2) = (d.p("0.pk.hex"), d.p("1.pk.hex"), d.p("2.pk.hex"));
        let (pop0, pop1, pop2) = (d.p("0.pop"), d.p("1.pop"), d.p("2.pop"));
        let (sig0, sig1, sig2, agg) = (d.p("0.sig"), d.p("1.sig"), d.p("2.sig"), d.p("agg.hex"));
        let pks = ["--pk", &pk0, "--pk", &pk1, "--pk", &pk2];
        let pops = ["--pop", &pop0, "--pop", &pop1, "--pop", &pop2];
        let mut args = vec!["fast-aggregate-verify"];
        args.extend(pks);
        args.extend(pops);
        args.extend(["--message", "vote", "--sig", &agg]);
        bls(&args).unwrap();
        // A key whose proof of possession does not match is refused.
        let bad_pops = ["--pop", &pop0, "--pop", &pop0, "--pop", &pop2];
        let mut args = vec!["fast-aggregate-verify"];
        args.extend(pks);
        args.extend(bad_pops);
        args.extend(["--message", "vote", "--sig", &agg]);
        assert!(rejected_err(bls(&args)));
        let mut args = vec!["batch-verify"];
        args.extend(pks);
        args.extend(["--message", "vote", "--message", "vote", "--message", "vote"]);
        args.extend(["--sig", &sig0, "--sig", &sig1, "--sig", &sig2]);
        bls(&args).unwrap();
        // Malformed signature file: a typed rejection, not a panic.
        std::fs::write(d.p("junk.sig"), [0u8; 95]).unwrap();
        assert!(rejected_err(bls(&[
            "verify",
            "--pk",
            &d.p("0.pk.hex"),
            "--message",
            "vote",
            "--sig",
            &d.p("junk.sig")
        ])));
    }

    #[test]
    fn atms_through_the_cli() {
        let d = Dir::new("atms");
        let mut list = vec![];
        for i in 0..5 {
            let ikm = format!("{:02x}", 0x40 + i).repeat(32);
            bls(&[
                "keygen",
                "--sk",
                &d.p(&format!("{i}.sk")),
                "--pk",
                &d.p(&format!("{i}.pk")),
                "--pop",
                &d.p(&format!("{i}.pop")),
                "--ikm",
                &ikm,
            ])
            .unwrap();
            bls(&["sign", "--sk", &d.p(&format!("{i}.sk")), "--message", "0x00ff", "--out", &d.p(&format!("{i}.sig"))])
                .unwrap();
            list.push(d.p(&format!("{i}.pk")));
        }
        let mut akey = vec!["atms-akey".to_string()];
        for i in 0..5 {
            akey.extend(["--pk".into(), d.p(&format!("{i}.pk")), "--pop".into(), d.p(&format!("{i}.pop"))]);
        }
        akey.extend(["--out".into(), d.p("avk.hex")]);
        bls(&akey.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
        let mut sign =
            vec!["atms-sign".to_string(), "--threshold".into(), "3".into(), "--message".into(), "0x00ff".into()];
        for pk in &list {
            sign.extend(["--pk".into(), pk.clone()]);
        }
        for i in [0, 2, 4] {
            sign.extend(["--signer".into(), format!("{i}:{}", d.p(&format!("{i}.sig")))]);
        }
        sign.extend(["--out".into(), d.p("atms.sig")]);
        bls(&sign.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
        let verify = |t: &str, m: &str| {
            bls(&["atms-verify", "--avk", &d.p("avk.hex"), "--threshold", t, "--message", m, "--sig", &d.p("atms.sig")])
        };
        verify("3", "0x00ff").unwrap();
        assert!(rejected_err(verify("4", "0x00ff")));
        assert!(rejected_err(verify("3", "0x00fe")));
        let mut check = vec!["atms-check".to_string(), "--avk".into(), d.p("avk.hex")];
        for i in 0..5 {
            check.extend(["--pk".into(), d.p(&format!("{i}.pk")), "--pop".into(), d.p(&format!("{i}.pop"))]);
        }
        let run = |args: &[String]| bls(&args.iter().map(String::as_str).collect::<Vec<_>>());
        run(&check).unwrap();
        // Another list (the last key dropped) does not produce the avk.
        assert!(rejected_err(run(&check[..check.len() - 4])));
        // A key whose proof of possession is another key's is refused.
        let mut swapped = check.clone();
        swapped[6] = d.p("1.pop");
        assert!(rejected_err(run(&swapped)));
        // Keys without their proofs are a usage error.
        assert!(run(&check[..check.len() - 2]).is_err());
    }

    #[test]
    fn msp_through_the_cli() {
        let d = Dir::new("msp");
        for i in 0..4 {
            bls(&[
                "msp-keygen",
                "--sk",
                &d.p(&format!("{i}.sk")),
                "--vk",
                &d.p(&format!("{i}.vk")),
                "--pop",
                &d.p(&format!("{i}.pop")),
            ])
            .unwrap();
            bls(&[
                "msp-sign",
                "--sk",
                &d.p(&format!("{i}.sk")),
                "--message",
                "cp",
                "--mithril-dst",
                "--out",
                &d.p(&format!("{i}.sig")),
            ])
            .unwrap();
        }
        let mut common = vec![];
        for i in 0..4 {
            common.extend(["--vk".to_string(), d.p(&format!("{i}.vk")), "--sig".into(), d.p(&format!("{i}.sig"))]);
        }
        let mut agg = vec!["msp-aggregate".to_string()];
        agg.extend(common.clone());
        agg.extend(["--out-ivk".into(), d.p("ivk"), "--out-mu".into(), d.p("mu")]);
        bls(&agg.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
        bls(&[
            "msp-verify",
            "--aggregated",
            "--vk",
            &d.p("ivk"),
            "--sig",
            &d.p("mu"),
            "--message",
            "cp",
            "--mithril-dst",
        ])
        .unwrap();
        assert!(rejected_err(bls(&[
            "msp-verify",
            "--aggregated",
            "--vk",
            &d.p("ivk"),
            "--sig",
            &d.p("mu"),
            "--message",
            "cp"
        ])));
        let mut v = vec!["msp-verify".to_string(), "--message".into(), "cp".into(), "--mithril-dst".into()];
        v.extend(common.clone());
        for i in 0..4 {
            v.extend(["--pop".into(), d.p(&format!("{i}.pop"))]);
        }
        bls(&v.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
        // Without proofs of possession: refused as a usage error.
        let mut v = vec!["msp-verify".to_string(), "--message".into(), "cp".into(), "--mithril-dst".into()];
        v.extend(common);
        assert!(bls(&v.iter().map(String::as_str).collect::<Vec<_>>()).is_err());
    }

    #[test]
    fn benches_run_on_small_sizes() {
        bench_msp(MspBenchArgs { n: 8, repeats: 1, json: true }).unwrap();
        assert!(bench_msp(MspBenchArgs { n: 1, repeats: 1, json: true }).is_err());
        bench_horn(HornBenchArgs {
            participation: 0.9,
            committees: 2,
            committee_size: 256,
            subcommittee_size: 64,
            aggregators: 4,
            collectors: 3,
            seed: 1,
            fast_repeats: 1,
            json: true,
        })
        .unwrap();
    }
}
