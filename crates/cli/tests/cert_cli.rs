//! End to end through the binary: a setup ceremony, a committee, succinct
//! certificates from each form of input, their verification and refusals
//! with exit codes, the development setup's warnings, and `bench cert`.

use std::path::Path;
use std::process::Output;

mod common;

use common::{ok, sigagg, tempdir};

const M: &str = "0x00112233";

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&ok(out)).expect("one JSON object")
}

fn code(out: &Output) -> Option<i32> {
    out.status.code()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// Keys a, b, c (with proofs of possession) and signatures of a and c on M.
fn keys(dir: &Path) {
    for k in ["a", "b", "c"] {
        ok(&sigagg(
            dir,
            &["bls", "keygen", "--sk", &format!("{k}.sk"), "--pk", &format!("{k}.pk"), "--pop", &format!("{k}.pop")],
        ));
    }
    for k in ["a", "c"] {
        ok(&sigagg(dir, &["bls", "sign", "--sk", &format!("{k}.sk"), "--message", M, "--out", &format!("{k}.sig")]));
    }
    ok(&sigagg(dir, &["bls", "aggregate", "--sig", "a.sig", "--sig", "c.sig", "--out", "ac.sig"]));
}

fn committee_args<'a>(params: &'a str, out: &'a str, key_out: &'a str) -> Vec<&'a str> {
    let mut args = vec!["bls", "committee", "--params", params, "--out", out, "--key-out", key_out];
    for k in ["--pk", "a.pk", "--pop", "a.pop", "--pk", "b.pk", "--pop", "b.pop", "--pk", "c.pk", "--pop", "c.pop"] {
        args.push(k);
    }
    args
}

fn verify(dir: &Path, key: &str, cert: &str, message: &str, threshold: &str) -> Output {
    sigagg(
        dir,
        &["bls", "verify-cert", "--committee-key", key, "--cert", cert, "--message", message, "--threshold", threshold],
    )
}

#[test]
fn ceremony_committee_certify_and_verify() {
    let dir = tempdir("cert-flow");
    keys(&dir);
    ok(&sigagg(&dir, &["bls", "ceremony-start", "--max-committee", "3", "--out", "c0.params"]));
    // A ceremony without a contribution is refused (exit 1).
    assert_eq!(code(&sigagg(&dir, &["bls", "verify-ceremony", "--params", "c0.params"])), Some(1));
    ok(&sigagg(&dir, &["bls", "contribute", "--params", "c0.params", "--out", "c1.params"]));
    let second = json(&sigagg(&dir, &["bls", "contribute", "--params", "c1.params", "--out", "c2.params"]));
    assert_eq!(second["contributions"], 2);
    let report = json(&sigagg(&dir, &["bls", "verify-ceremony", "--params", "c2.params"]));
    assert_eq!((report["valid"].as_bool(), report["contributions"].as_u64()), (Some(true), Some(2)));
    let digest = report["setup_digest"].as_str().unwrap().to_string();
    assert_eq!(digest.len(), 64);

    // No committee on the ceremony's start (tau = 1: anyone could forge).
    assert_eq!(code(&sigagg(&dir, &committee_args("c0.params", "x.committee", "x.ckey"))), Some(1));
    let made = json(&sigagg(&dir, &committee_args("c2.params", "abc.committee", "abc.ckey")));
    assert_eq!((made["keys"].as_u64(), made["setup"].as_str()), (Some(3), Some("ceremony")));
    assert_eq!(made["setup_digest"].as_str(), Some(digest.as_str()));

    // Three ways to name the signers; each certificate verifies at t = 2.
    let inputs: [&[&str]; 3] = [
        &["--signer", "0:a.sig", "--signer", "2:c.sig"],
        &["--pk", "a.pk", "--sig", "a.sig", "--pk", "c.pk", "--sig", "c.sig"],
        &["--mode", "accountable", "--aggregate", "ac.sig", "--bitfield", "0x05"],
    ];
    for (i, input) in inputs.iter().enumerate() {
        let cert = format!("abc-{i}.cert");
        let base =
            ["bls", "certify", "--params", "c2.params", "--committee", "abc.committee", "--message", M, "--out", &cert];
        let made = json(&sigagg(&dir, &[&base[..], input].concat()));
        assert_eq!(made["count"], 2);
        let checked = json(&verify(&dir, "abc.ckey", &cert, M, "2"));
        assert_eq!((checked["valid"].as_bool(), checked["setup"].as_str()), (Some(true), Some("ceremony")));
        assert_eq!(checked["setup_digest"].as_str(), Some(digest.as_str()));
        // With the ceremony's digest required: accepted; with another: refused.
        let args =
            ["bls", "verify-cert", "--committee-key", "abc.ckey", "--cert", &cert, "--message", M, "--threshold", "2"];
        ok(&sigagg(&dir, &[&args[..], &["--setup-digest", &digest]].concat()));
        let other = "00".repeat(32);
        let wrong = sigagg(&dir, &[&args[..], &["--setup-digest", &other]].concat());
        assert_eq!(code(&wrong), Some(1));
        assert!(stderr(&wrong).contains("digest"), "{}", stderr(&wrong));
        // The committee file serves as a committee key too.
        ok(&verify(&dir, "abc.committee", &cert, M, "2"));
        // Threshold not met, another message: rejected (exit 1), one line.
        let below = verify(&dir, "abc.ckey", &cert, M, "3");
        assert_eq!(code(&below), Some(1));
        assert!(stderr(&below).contains("below the threshold"), "{}", stderr(&below));
        assert_eq!(code(&verify(&dir, "abc.ckey", &cert, "0x01", "2")), Some(1));
    }
    let accountable = json(&verify(&dir, "abc.ckey", "abc-2.cert", M, "1"));
    assert_eq!(accountable["signers"], "0x05");

    // A corrupted certificate is rejected; a missing file is a usage error (2).
    let mut bytes = std::fs::read(dir.join("abc-0.cert")).unwrap();
    let last = bytes.len() - 10;
    bytes[last] ^= 1;
    std::fs::write(dir.join("bad.cert"), bytes).unwrap();
    assert_eq!(code(&verify(&dir, "abc.ckey", "bad.cert", M, "1")), Some(1));
    assert_eq!(code(&verify(&dir, "abc.ckey", "missing.cert", M, "1")), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_prover_refuses_outsiders_and_the_development_setup_is_reported() {
    let dir = tempdir("cert-dev");
    keys(&dir);
    let setup = sigagg(&dir, &["bls", "dev-setup", "--max-committee", "3", "--out", "dev.params"]);
    assert!(stderr(&setup).contains("INSECURE"), "the dev setup warns: {}", stderr(&setup));
    assert_eq!(json(&setup)["setup"], "insecure-development");
    let made = sigagg(&dir, &committee_args("dev.params", "abc.committee", "abc.ckey"));
    assert!(stderr(&made).contains("INSECURE"));
    assert_eq!(json(&made)["setup"], "insecure-development");
    // The development setup is no ceremony.
    assert_eq!(code(&sigagg(&dir, &["bls", "verify-ceremony", "--params", "dev.params"])), Some(1));

    // A signer outside the committee is refused before proving.
    ok(&sigagg(&dir, &["bls", "keygen", "--sk", "x.sk", "--pk", "x.pk"]));
    ok(&sigagg(&dir, &["bls", "sign", "--sk", "x.sk", "--message", M, "--out", "x.sig"]));
    let outsider = sigagg(
        &dir,
        &[
            "bls",
            "certify",
            "--params",
            "dev.params",
            "--committee",
            "abc.committee",
            "--message",
            M,
            "--pk",
            "x.pk",
            "--sig",
            "x.sig",
            "--out",
            "x.cert",
        ],
    );
    assert_eq!(code(&outsider), Some(1));
    assert!(stderr(&outsider).contains("not in the committee"), "{}", stderr(&outsider));

    ok(&sigagg(
        &dir,
        &[
            "bls",
            "certify",
            "--params",
            "dev.params",
            "--committee",
            "abc.committee",
            "--message",
            M,
            "--signer",
            "0:a.sig",
            "--out",
            "a.cert",
        ],
    ));
    // verify-cert refuses a development committee key unless told to
    // accept it, and then names it.
    let refused = verify(&dir, "abc.ckey", "a.cert", M, "1");
    assert_eq!(code(&refused), Some(1));
    assert!(stderr(&refused).contains("--allow-insecure-setup"), "{}", stderr(&refused));
    let args =
        ["bls", "verify-cert", "--committee-key", "abc.ckey", "--cert", "a.cert", "--message", M, "--threshold", "1"];
    let checked = sigagg(&dir, &[&args[..], &["--allow-insecure-setup"]].concat());
    assert!(stderr(&checked).contains("INSECURE"));
    assert_eq!(json(&checked)["setup"], "insecure-development");

    // A committee key made with another setup does not accept it.
    ok(&sigagg(&dir, &["bls", "ceremony-start", "--max-committee", "3", "--out", "c0.params"]));
    ok(&sigagg(&dir, &["bls", "contribute", "--params", "c0.params", "--out", "c1.params"]));
    ok(&sigagg(&dir, &committee_args("c1.params", "other.committee", "other.ckey")));
    assert_eq!(code(&verify(&dir, "other.ckey", "a.cert", M, "1")), Some(1));
    // Proving with a setup the committee was not made with is refused.
    let mismatch = sigagg(
        &dir,
        &[
            "bls",
            "certify",
            "--params",
            "c1.params",
            "--committee",
            "abc.committee",
            "--message",
            M,
            "--signer",
            "0:a.sig",
            "--out",
            "y.cert",
        ],
    );
    assert_eq!(code(&mismatch), Some(1));
    assert!(stderr(&mismatch).contains("another setup"), "{}", stderr(&mismatch));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_cert_prints_its_figures() {
    let dir = tempdir("cert-bench");
    for mode in ["counting", "accountable"] {
        let out = json(&sigagg(
            &dir,
            &[
                "bench",
                "cert",
                "--n",
                "8",
                "--t",
                "6",
                "--mode",
                mode,
                "--stake",
                "--repeats",
                "1",
                "--verify-repeats",
                "1",
                "--json",
            ],
        ));
        assert_eq!((out["n"].as_u64(), out["t"].as_u64(), out["mode"].as_str()), (Some(8), Some(6), Some(mode)));
        for field in ["prove_s", "verify_s", "atms_verify_s"] {
            assert!(out[field].as_f64().is_some_and(|s| s > 0.0), "{field}: {out}");
        }
        for field in ["proof_bytes", "certificate_bytes", "atms_signature_bytes", "threads"] {
            assert!(out[field].as_u64().is_some_and(|b| b > 0), "{field}: {out}");
        }
        assert!(out["stake"].as_u64().is_some_and(|s| s >= 6));
        assert_eq!(out["setup"], "insecure-development");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
