//! End to end through the binary: Mithril parameters, keys, registration,
//! lottery signing, the clerk's certificate and its verification, and the
//! refusals (a tampered certificate, another message, too few indices)
//! with their exit codes and messages; `bench mithril` on small sizes.

use std::process::Output;

mod common;

use common::{ok, sigagg, tempdir};

const M: &str = "0x00112233";

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&ok(out)).expect("one JSON object")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn keygen_register_sign_aggregate_verify() {
    let dir = tempdir("mithril-flow");
    let names = ["a", "b", "c", "d"];
    let params =
        json(&sigagg(&dir, &["mithril", "params", "--k", "5", "--m", "40", "--phi-f", "0.9", "--out", "p.params"]));
    assert_eq!((params["k"].as_u64(), params["m"].as_u64()), (Some(5), Some(40)));
    for (i, n) in names.iter().enumerate() {
        let seed = format!("{:02x}", i + 1).repeat(32);
        let key = json(&sigagg(
            &dir,
            &["mithril", "keygen", "--sk", &format!("{n}.sk"), "--vk", &format!("{n}.vk"), "--seed", &seed],
        ));
        assert_eq!(key["verification_key"].as_str().map(str::len), Some(192));
        assert_eq!(std::fs::read(dir.join(format!("{n}.vk"))).unwrap().len(), 192);
    }
    let mut register = vec!["mithril", "register", "--out", "r.reg", "--avk-out", "r.avk"];
    let stakes = ["10", "20", "30", "40"];
    let vks: Vec<String> = names.iter().map(|n| format!("{n}.vk")).collect();
    for (vk, stake) in vks.iter().zip(stakes) {
        register.extend(["--vk", vk, "--stake", stake]);
    }
    let reg = json(&sigagg(&dir, &register));
    assert_eq!((reg["parties"].as_u64(), reg["total_stake"].as_u64()), (Some(4), Some(100)));

    // A key whose proof of possession is another key's is refused (exit 1).
    let mut swapped = std::fs::read(dir.join("a.vk")).unwrap();
    swapped[96..].copy_from_slice(&std::fs::read(dir.join("b.vk")).unwrap()[96..]);
    std::fs::write(dir.join("x.vk"), swapped).unwrap();
    let rogue =
        sigagg(&dir, &["mithril", "register", "--vk", "x.vk", "--stake", "1", "--out", "x.reg", "--avk-out", "x.avk"]);
    assert_eq!(rogue.status.code(), Some(1));
    assert!(stderr(&rogue).contains("proof of possession"), "{}", stderr(&rogue));

    let mut sigs = vec![];
    for n in names {
        let out = format!("{n}.sig");
        let signed = json(&sigagg(
            &dir,
            &[
                "mithril",
                "sign",
                "--params",
                "p.params",
                "--registration",
                "r.reg",
                "--sk",
                &format!("{n}.sk"),
                "--message",
                M,
                "--out",
                &out,
            ],
        ));
        if signed["signed"].as_bool() == Some(true) {
            sigs.push(out);
        } else {
            assert!(!dir.join(&out).exists());
        }
    }
    assert!(sigs.len() >= 2, "{sigs:?}");
    let mut aggregate = vec![
        "mithril",
        "aggregate",
        "--params",
        "p.params",
        "--registration",
        "r.reg",
        "--message",
        M,
        "--out",
        "c.cert",
    ];
    for s in &sigs {
        aggregate.extend(["--sig", s]);
    }
    let made = json(&sigagg(&dir, &aggregate));
    assert!(made["certificate_bytes"].as_u64().unwrap() > 0);

    let verify = |params: &str, cert: &str, message: &str| {
        sigagg(&dir, &["mithril", "verify", "--params", params, "--avk", "r.avk", "--message", message, "--cert", cert])
    };
    let checked = json(&verify("p.params", "c.cert", M));
    assert_eq!(checked["valid"].as_bool(), Some(true));
    assert!(checked["indices"].as_u64().unwrap() >= 5);

    // Another message: refused with exit 1 and the reason.
    let other = verify("p.params", "c.cert", "0x00112234");
    assert_eq!(other.status.code(), Some(1));
    let why = stderr(&other);
    assert!(
        why.contains("invalid certificate") && (why.contains("not won") || why.contains("does not verify")),
        "{why}"
    );

    // A tampered certificate (its last byte flipped): refused with exit 1.
    let cert = std::fs::read(dir.join("c.cert")).unwrap();
    let mut tampered = cert.clone();
    let last = tampered.len() - 1;
    tampered[last] ^= 1;
    std::fs::write(dir.join("t.cert"), &tampered).unwrap();
    let bad = verify("p.params", "t.cert", M);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).starts_with("error: "), "{}", stderr(&bad));
    // Bytes spread over the whole certificate, each flipped in turn:
    // refused with exit 1, never accepted (every byte: the byte-level API's test).
    for i in (0..cert.len()).step_by(31) {
        let mut t = cert.clone();
        t[i] ^= 0x80; // not a low bit: that may turn an index into another one won
        std::fs::write(dir.join("t.cert"), &t).unwrap();
        let out = verify("p.params", "t.cert", M);
        assert_eq!(out.status.code(), Some(1), "byte {i}: {}", String::from_utf8_lossy(&out.stdout));
    }
    // Stricter parameters (more indices than the certificate holds): refused, named.
    let k = (checked["indices"].as_u64().unwrap() + 1).to_string();
    ok(&sigagg(&dir, &["mithril", "params", "--k", &k, "--m", "40", "--phi-f", "0.9", "--out", "q.params"]));
    let strict = verify("q.params", "c.cert", M);
    assert_eq!(strict.status.code(), Some(1));
    assert!(stderr(&strict).contains("needed"), "{}", stderr(&strict));
    // The clerk with k = m cannot gather enough indices: exit 1, named.
    ok(&sigagg(&dir, &["mithril", "params", "--k", "40", "--m", "40", "--phi-f", "0.9", "--out", "all.params"]));
    aggregate[3] = "all.params";
    let short = sigagg(&dir, &aggregate);
    assert_eq!(short.status.code(), Some(1));
    assert!(stderr(&short).contains("needed"), "{}", stderr(&short));
    // Usage errors (exit 2): k > m, a missing file.
    let bad_params = sigagg(&dir, &["mithril", "params", "--k", "41", "--m", "40", "--phi-f", "0.9", "--out", "z"]);
    assert_eq!(bad_params.status.code(), Some(2));
    assert_eq!(verify("p.params", "missing.cert", M).status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_mithril_prints_the_concatenation_fields() {
    let dir = tempdir("mithril-bench");
    let out =
        json(&sigagg(&dir, &["bench", "mithril", "--k", "4", "--m", "24", "--phi-f", "0.8", "--n", "6", "--json"]));
    for field in ["keygen_s", "register_s", "sign_s", "aggregate_s", "verify_s", "certificate_bytes", "peak_rss_bytes"]
    {
        assert!(out[field].is_number(), "{field}: {out}");
    }
    assert_eq!((out["k"].as_u64(), out["m"].as_u64(), out["n"].as_u64()), (Some(4), Some(24), Some(6)));
    assert!(out.get("prove_s").is_none() && out.get("proof_bytes").is_none());
    let impossible =
        sigagg(&dir, &["bench", "mithril", "--k", "24", "--m", "24", "--phi-f", "0.05", "--n", "2", "--json"]);
    assert_eq!(impossible.status.code(), Some(1));
    std::fs::remove_dir_all(dir).unwrap();
}
