//! End-to-end tests of the `sigagg` binary's hash-based signature commands.

mod common;

use common::{sigagg, tempdir};

const MSG: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

#[test]
fn keygen_sign_verify_and_refusals() {
    let dir = tempdir("xmss");
    assert!(sigagg(&dir, &["keygen", "--scheme", "test", "--out", "k", "--num-epochs", "40"]).status.success());
    let sign = |epoch: &str, out: &str| {
        sigagg(&dir, &["sign", "--scheme", "test", "--sk", "k.sk", "--epoch", epoch, "--message", MSG, "--out", out])
    };
    let verify = |epoch: &str, msg: &str, sig: &str| {
        sigagg(&dir, &["verify", "--scheme", "test", "--pk", "k.pk", "--epoch", epoch, "--message", msg, "--sig", sig])
    };
    assert!(sign("3", "s.hex").status.success());
    let ok = verify("3", MSG, "s.hex");
    assert!(ok.status.success());
    assert_eq!(String::from_utf8_lossy(&ok.stdout).trim(), "valid");

    // Reuse of an epoch is refused (the key file remembers it).
    let again = sign("3", "s2.hex");
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already used"));
    assert!(!dir.join("s2.hex").exists());
    // Out of the activation window.
    assert_eq!(sign("200", "s3.hex").status.code(), Some(1));
    // Wrong epoch, wrong message, tampered signature, wrong parameter set.
    assert_eq!(verify("4", MSG, "s.hex").status.code(), Some(1));
    let other = MSG.replace("00112233", "00112234");
    assert_eq!(verify("3", &other, "s.hex").status.code(), Some(1));
    let mut text = std::fs::read_to_string(dir.join("s.hex")).unwrap();
    text.replace_range(20..21, if &text[20..21] == "0" { "1" } else { "0" });
    std::fs::write(dir.join("bad.hex"), text).unwrap();
    assert_eq!(verify("3", MSG, "bad.hex").status.code(), Some(1));
    let wrong_set = sigagg(
        &dir,
        &["verify", "--scheme", "seed001", "--pk", "k.pk", "--epoch", "3", "--message", MSG, "--sig", "s.hex"],
    );
    assert_eq!(wrong_set.status.code(), Some(1));
    // Malformed arguments are usage errors (exit 2).
    assert_eq!(verify("3", "abcd", "s.hex").status.code(), Some(2));
    assert_eq!(verify("3", MSG, "missing.hex").status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn seeded_keygen_is_reproducible_and_parallel() {
    let dir = tempdir("seeded");
    let seed = "01".repeat(32);
    for prefix in ["a", "b"] {
        let out = sigagg(&dir, &["keygen", "--scheme", "test", "--count", "3", "--seed", &seed, "--out", prefix]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    for i in 0..3 {
        let a = std::fs::read(dir.join(format!("a-{i}.pk"))).unwrap();
        let b = std::fs::read(dir.join(format!("b-{i}.pk"))).unwrap();
        assert_eq!(a, b);
    }
    assert_ne!(std::fs::read(dir.join("a-0.pk")).unwrap(), std::fs::read(dir.join("a-1.pk")).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_xmss_prints_the_required_json() {
    let dir = tempdir("bench");
    let out = sigagg(&dir, &["bench", "xmss", "--scheme", "test", "--n", "3", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["scheme", "n", "keygen_s", "sign_s", "verify_s", "threads"] {
        assert!(!v[key].is_null(), "missing {key}");
    }
    assert_eq!(v["n"], 3);
    assert_eq!(v["scheme"], "test");
    std::fs::remove_dir_all(dir).unwrap();
}
