//! BLS sub-commands, `sigagg bls ...`, one module per area: [`sig`]
//! (BLS12-381 signatures, aggregates, proofs of possession), [`atms`]
//! (ad-hoc threshold multisignatures), [`msp`] (MSP.B, Mithril's layout)
//! and the succinct certificates of [`crate::cert`]. Signatures and ATMS
//! go through [`sigagg_bytes`]; the benchmarks are in [`crate::bench`].

pub mod atms;
pub mod msp;
pub mod sig;

use std::path::{Path, PathBuf};

use clap::Subcommand;
use serde_json::json;

use crate::cert;
use crate::io::{self, CliError, CliResult};

#[derive(Subcommand)]
pub enum BlsCommand {
    /// Generate a key pair and its proof of possession (Ethereum suite: keys in G1).
    #[command(after_help = example!("bls keygen --sk a.sk --pk a.pk --pop a.pop"))]
    Keygen(sig::KeygenArgs),
    /// Prove possession of a secret key (signature of the public key under the PoP tag).
    #[command(after_help = example!("bls pop --sk a.sk --out a.pop"))]
    Pop(sig::SkOutArgs),
    /// Check a proof of possession.
    #[command(after_help = example!("bls pop-verify --pk a.pk --pop a.pop"))]
    PopVerify(sig::PopVerifyArgs),
    /// Sign a message.
    #[command(after_help = example!("bls sign --sk a.sk --message 0x00112233 --out a.sig"))]
    Sign(sig::SignArgs),
    /// Verify a signature.
    #[command(after_help = example!("bls verify --pk a.pk --message 0x00112233 --sig a.sig"))]
    Verify(sig::VerifyArgs),
    /// Add signatures into one aggregate signature.
    #[command(after_help = example!("bls aggregate --sig a.sig --sig b.sig --out ab.sig"))]
    Aggregate(sig::AggregateArgs),
    /// Verify an aggregate signature of many keys on one message; every key needs a proof of possession.
    #[command(after_help = example!(
        "bls fast-aggregate-verify --pk a.pk --pop a.pop --pk b.pk --pop b.pop --message 0x00112233 --sig ab.sig",
    ))]
    FastAggregateVerify(sig::FastAggregateVerifyArgs),
    /// Verify an aggregate signature over (key, message) pairs.
    #[command(after_help = example!(
        "bls aggregate-verify --pk a.pk --pop a.pop --message 0x01 --pk b.pk --pop b.pop --message 0x02 --sig ab.sig",
    ))]
    AggregateVerify(sig::AggregateVerifyArgs),
    /// Verify many (key, message, signature) sets at once with random 64-bit weights.
    #[command(after_help = example!(
        "bls batch-verify --pk a.pk --message 0x01 --sig a.sig --pk b.pk --message 0x02 --sig b.sig",
    ))]
    BatchVerify(sig::BatchVerifyArgs),
    /// ATMS AKey: aggregate key (key sum, Merkle root) of a key list; checks every proof of possession.
    #[command(after_help = example!(
        "bls atms-akey --pk a.pk --pop a.pop --pk b.pk --pop b.pop --pk c.pk --pop c.pop --out abc.avk",
    ))]
    AtmsAkey(atms::AkeyArgs),
    /// ATMS ACheck: does a key list give this aggregate key?
    #[command(after_help = example!(
        "bls atms-check --pk a.pk --pop a.pop --pk b.pk --pop b.pop --pk c.pk --pop c.pop --avk abc.avk",
    ))]
    AtmsCheck(atms::CheckArgs),
    /// ATMS ASig: aggregate the signers' signatures with the non-signers' keys and Merkle proofs.
    #[command(after_help = example!(
        "bls atms-sign --pk a.pk --pk b.pk --pk c.pk --threshold 2 --message 0x00112233 --signer 0:a.sig --signer 2:c.sig --out abc.atms",
    ))]
    AtmsSign(atms::SignArgs),
    /// ATMS AVer: verify an ATMS signature against an aggregate key and threshold.
    #[command(after_help = example!("bls atms-verify --avk abc.avk --threshold 2 --message 0x00112233 --sig abc.atms"))]
    AtmsVerify(atms::VerifyArgs),
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
    MspKeygen(msp::KeygenArgs),
    /// MSP.B signature.
    #[command(after_help = example!("bls msp-sign --sk m.sk --message 0x00112233 --out m.sig"))]
    MspSign(msp::SignArgs),
    /// MSP.B aggregation: ivk = sum e_i mvk_i, mu = sum e_i sigma_i (Mithril weights, MSM).
    #[command(after_help = example!(
        "bls msp-aggregate --vk m.vk --vk n.vk --sig m.sig --sig n.sig --out-ivk mn.ivk --out-mu mn.mu",
    ))]
    MspAggregate(msp::AggregateArgs),
    /// MSP.B verification of signatures (aggregated here) or of an (ivk, mu) pair.
    #[command(after_help = example!(
        "bls msp-verify --vk m.vk --pop m.pop --vk n.vk --pop n.pop --sig m.sig --sig n.sig --message 0x00112233",
        "bls msp-verify --aggregated --vk mn.ivk --sig mn.mu --message 0x00112233",
    ))]
    MspVerify(msp::VerifyArgs),
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
        BlsCommand::Keygen(a) => sig::keygen(&a),
        BlsCommand::Pop(a) => sig::pop(&a),
        BlsCommand::PopVerify(a) => sig::pop_verify(&a),
        BlsCommand::Sign(a) => sig::sign(&a),
        BlsCommand::Verify(a) => sig::verify(&a),
        BlsCommand::Aggregate(a) => sig::aggregate(&a),
        BlsCommand::FastAggregateVerify(a) => sig::fast_aggregate_verify(&a),
        BlsCommand::AggregateVerify(a) => sig::aggregate_verify(&a),
        BlsCommand::BatchVerify(a) => sig::batch_verify(&a),
        BlsCommand::AtmsAkey(a) => atms::akey(&a),
        BlsCommand::AtmsCheck(a) => atms::check(&a),
        BlsCommand::AtmsSign(a) => atms::sign(&a),
        BlsCommand::AtmsVerify(a) => atms::verify(&a),
        BlsCommand::MspKeygen(a) => msp::keygen(&a),
        BlsCommand::MspSign(a) => msp::sign(&a),
        BlsCommand::MspAggregate(a) => msp::aggregate(&a),
        BlsCommand::MspVerify(a) => msp::verify(&a),
    }
}

/// A rejection naming the file it concerns.
fn rejected_file(path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError::rejected(format!("{}: {e}", path.display()))
}

/// `--ikm`: deterministic key material as hex.
fn parse_ikm(ikm: &Option<String>) -> Result<Option<Vec<u8>>, CliError> {
    ikm.as_ref()
        .map(|h| hex::decode(h.trim_start_matches("0x")).map_err(|e| CliError::usage(format!("bad --ikm: {e}"))))
        .transpose()
}

/// Prints `{"valid": true, "what": what}`.
fn valid(what: &str) -> CliResult {
    io::print_json(&json!({ "valid": true, "what": what }));
    Ok(())
}

/// The bytes of a list of files, in order.
type Files = Vec<Vec<u8>>;

/// Keys and their proofs of possession, read (one proof per key, checked
/// by the caller's byte-level call).
fn keys_and_pops(pks: &[PathBuf], pops: &[PathBuf]) -> Result<(Files, Files), CliError> {
    if pks.len() != pops.len() {
        return Err(CliError::usage(format!("{} keys but {} proofs of possession", pks.len(), pops.len())));
    }
    Ok((crate::args::read_files(pks)?, crate::args::read_files(pops)?))
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
        use crate::bench::{horn, msp};
        msp::bench(&msp::BenchArgs { n: 8, repeats: 1, json: true }).unwrap();
        assert!(msp::bench(&msp::BenchArgs { n: 1, repeats: 1, json: true }).is_err());
        horn::bench(&horn::BenchArgs {
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
