//! End-to-end tests of `sigagg lamport ...`.

mod common;

use common::{ok, sigagg, tempdir};

fn keygen_sign_verify(scheme: &str) {
    let dir = tempdir(scheme);
    let l = |args: &[&str]| {
        let mut full = vec!["lamport"];
        full.extend_from_slice(args);
        sigagg(&dir, &full)
    };
    ok(&l(&["keygen", "--scheme", scheme, "--out", "k", "--hex"]));
    assert_eq!(std::fs::read_to_string(dir.join("k.pk.hex")).unwrap().trim().len(), 64);
    ok(&l(&["sign", "--scheme", scheme, "--sk", "k.sk.hex", "--message", "block 7", "--out", "s.sig"]));
    let verify =
        |msg: &str, sig: &str| l(&["verify", "--scheme", scheme, "--pk", "k.pk.hex", "--message", msg, "--sig", sig]);
    assert_eq!(ok(&verify("block 7", "s.sig")), "valid");
    // The same message as a file, and as hex.
    std::fs::write(dir.join("m.bin"), b"block 7").unwrap();
    let from_file = l(&["verify", "--scheme", scheme, "--pk", "k.pk.hex", "--message-file", "m.bin", "--sig", "s.sig"]);
    assert_eq!(ok(&from_file), "valid");
    assert_eq!(ok(&verify("0x626c6f636b2037", "s.sig")), "valid");

    // One-time: a different message is refused and no signature is written;
    // the same message again is allowed (it reproduces the signature).
    let again = l(&["sign", "--scheme", scheme, "--sk", "k.sk.hex", "--message", "block 8", "--out", "s2.sig"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already signed"));
    assert!(!dir.join("s2.sig").exists());
    ok(&l(&["sign", "--scheme", scheme, "--sk", "k.sk.hex", "--message", "block 7", "--out", "s3.sig"]));
    assert_eq!(std::fs::read(dir.join("s.sig")).unwrap(), std::fs::read(dir.join("s3.sig")).unwrap());

    // Wrong message, tampered signature, truncated signature: rejected (1).
    assert_eq!(verify("block 8", "s.sig").status.code(), Some(1));
    let mut bytes = std::fs::read(dir.join("s.sig")).unwrap();
    bytes[100] ^= 1;
    std::fs::write(dir.join("bad.sig"), &bytes).unwrap();
    assert_eq!(verify("block 7", "bad.sig").status.code(), Some(1));
    std::fs::write(dir.join("short.sig"), &bytes[..bytes.len() - 1]).unwrap();
    assert_eq!(verify("block 7", "short.sig").status.code(), Some(1));
    // Missing file or missing message: usage errors (2).
    assert_eq!(verify("block 7", "missing.sig").status.code(), Some(2));
    assert_eq!(l(&["verify", "--scheme", scheme, "--pk", "k.pk.hex", "--sig", "s.sig"]).status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn keygen_sign_verify_plain() {
    keygen_sign_verify("lamport-plus");
}

#[test]
fn keygen_sign_verify_mined() {
    keygen_sign_verify("lamport-plus-mined");
}

#[test]
fn wrong_scheme_is_rejected() {
    let dir = tempdir("scheme");
    ok(&sigagg(&dir, &["lamport", "keygen", "--out", "k"]));
    ok(&sigagg(&dir, &["lamport", "sign", "--sk", "k.sk", "--message", "m", "--out", "s"]));
    let v = sigagg(
        &dir,
        &["lamport", "verify", "--scheme", "lamport-plus-mined", "--pk", "k.pk", "--message", "m", "--sig", "s"],
    );
    assert_eq!(v.status.code(), Some(1));
    let s = sigagg(
        &dir,
        &["lamport", "sign", "--scheme", "lamport-plus-mined", "--sk", "k.sk", "--message", "m", "--out", "t"],
    );
    assert_eq!(s.status.code(), Some(1));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn seeded_keygen_is_reproducible() {
    let dir = tempdir("seeded");
    let seed = "07".repeat(32);
    for prefix in ["a", "b"] {
        ok(&sigagg(&dir, &["lamport", "keygen", "--count", "3", "--seed", &seed, "--out", prefix]));
    }
    for i in 0..3 {
        assert_eq!(
            std::fs::read(dir.join(format!("a-{i}.pk"))).unwrap(),
            std::fs::read(dir.join(format!("b-{i}.pk"))).unwrap()
        );
    }
    assert_ne!(std::fs::read(dir.join("a-0.pk")).unwrap(), std::fs::read(dir.join("a-1.pk")).unwrap());
    assert_eq!(sigagg(&dir, &["lamport", "keygen", "--seed", "abcd", "--out", "c"]).status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn group_key_and_membership() {
    let dir = tempdir("group");
    ok(&sigagg(&dir, &["lamport", "keygen", "--count", "3", "--out", "m"]));
    ok(&sigagg(&dir, &["lamport", "keygen", "--out", "outsider"]));
    let out = ok(&sigagg(
        &dir,
        &[
            "group-key",
            "--scheme",
            "lamport-plus",
            "--pk",
            "m-0.pk",
            "--pk",
            "m-1.pk",
            "--pk",
            "m-2.pk",
            "--out",
            "g.key",
            "--paths",
            "p",
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["size"], 3);
    assert_eq!(v["depth"], 2);
    assert_eq!(v["root"].as_str().unwrap().len(), 64);
    assert_eq!(std::fs::read(dir.join("g.key")).unwrap().len(), 36);
    for i in 0..3 {
        let member = sigagg(
            &dir,
            &["lamport", "member", "--group", "g.key", "--pk", &format!("m-{i}.pk"), "--path", &format!("p-{i}.path")],
        );
        assert_eq!(ok(&member), "member");
    }
    let swapped = sigagg(&dir, &["lamport", "member", "--group", "g.key", "--pk", "m-0.pk", "--path", "p-1.path"]);
    assert_eq!(swapped.status.code(), Some(1));
    let outsider =
        sigagg(&dir, &["lamport", "member", "--group", "g.key", "--pk", "outsider.pk", "--path", "p-0.path"]);
    assert_eq!(outsider.status.code(), Some(1));
    // Duplicate members are refused.
    let dup =
        sigagg(&dir, &["group-key", "--scheme", "lamport-plus", "--pk", "m-0.pk", "--pk", "m-0.pk", "--out", "h.key"]);
    assert_eq!(dup.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&dup.stderr).contains("duplicates"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_prints_json() {
    let dir = tempdir("bench");
    let out = ok(&sigagg(&dir, &["lamport", "bench", "--n", "4", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in ["keygen_s", "sign_s", "verify_s", "threads", "num_subkeys", "signature_bytes"] {
        assert!(!v[key].is_null(), "missing {key}");
    }
    assert_eq!(v["n"], 4);
    assert_eq!(v["num_subkeys"], 256);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A counter mined by one signer serves another signer of the same message
/// (`--counter`, the stderr line names it); a counter that does not fit the
/// message is refused (1) and leaves the key unused.
#[test]
fn a_mined_counter_is_reused_with_counter() {
    let dir = tempdir("counter");
    let scheme = ["--scheme", "lamport-plus-mined"];
    ok(&sigagg(&dir, &[&["lamport", "keygen"][..], &scheme, &["--count", "2", "--out", "k"]].concat()));
    let sign = |sk: &str, counter: Option<&str>, out: &str| {
        let mut args = vec!["lamport", "sign", "--scheme", "lamport-plus-mined", "--sk", sk, "--message", "m"];
        if let Some(c) = counter {
            args.extend(["--counter", c]);
        }
        args.extend(["--out", out]);
        sigagg(&dir, &args)
    };
    let first = sign("k-0.sk", None, "s-0.sig");
    ok(&first);
    let stderr = String::from_utf8_lossy(&first.stderr).to_string();
    let counter = stderr.split("(counter ").nth(1).and_then(|r| r.split(')').next()).expect(&stderr).to_string();
    let wrong = (counter.parse::<u32>().unwrap() + 1).to_string();
    let refused = sign("k-1.sk", Some(&wrong), "bad.sig");
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(!dir.join("bad.sig").exists());
    ok(&sign("k-1.sk", Some(&counter), "s-1.sig"));
    let verify = [&["lamport", "verify"][..], &scheme, &["--pk", "k-1.pk", "--message", "m", "--sig", "s-1.sig"]];
    assert_eq!(ok(&sigagg(&dir, &verify.concat())), "valid");
    std::fs::remove_dir_all(dir).unwrap();
}
