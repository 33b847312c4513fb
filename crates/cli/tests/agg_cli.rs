//! End-to-end tests of `sigagg group-key | aggregate | threshold | verify
//! --proof` and `sigagg bench lamport-agg | threshold`, for Seed001 XMSS and
//! Lamport+. Proofs use the insecure `test` settings (speed); the benches
//! the real ones at tiny sizes.

use std::path::Path;
use std::process::Output;

mod common;

use common::{ok, sigagg, tempdir};

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&ok(out)).expect("one JSON object")
}

/// Runs `sigagg` with `base` followed by `extra`.
fn run(dir: &Path, base: &[&str], extra: &[&str]) -> Output {
    let all: Vec<&str> = base.iter().chain(extra).copied().collect();
    sigagg(dir, &all)
}

/// Flips one byte of `from` into `to`.
fn tamper(dir: &Path, from: &str, to: &str, at: usize) {
    let mut bytes = std::fs::read(dir.join(from)).unwrap();
    let at = at.min(bytes.len() - 1);
    bytes[at] ^= 0x10;
    std::fs::write(dir.join(to), bytes).unwrap();
}

const MSG_A: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const MSG_B: &str = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

#[test]
fn seed001_threshold_and_aggregate_on_files() {
    let dir = tempdir("seed001");
    let seed = "11".repeat(32);
    ok(&sigagg(&dir, &["keygen", "--scheme", "seed001", "--count", "3", "--seed", &seed, "--out", "k"]));
    let group = json(&sigagg(
        &dir,
        &[
            "group-key",
            "--scheme",
            "seed001",
            "--pk",
            "k-0.pk",
            "--pk",
            "k-1.pk",
            "--pk",
            "k-2.pk",
            "--out",
            "g.key",
            "--paths",
            "m",
        ],
    ));
    assert_eq!(group["size"], 3);
    assert_eq!(group["depth"], 2);
    // Members 0 and 2 sign MSG_A at epoch 5; member 1 signs MSG_B at epoch 6.
    for (i, msg, epoch) in [(0, MSG_A, "5"), (2, MSG_A, "5"), (1, MSG_B, "6")] {
        let (sk, out) = (format!("k-{i}.sk"), format!("s-{i}.sig"));
        ok(&sigagg(
            &dir,
            &["sign", "--scheme", "seed001", "--sk", &sk, "--epoch", epoch, "--message", msg, "--out", &out],
        ));
    }

    // Threshold 2 of 3, signers disclosed.
    let prove = ["threshold", "--scheme", "seed001", "--settings", "test", "--group", "g.key", "--epoch", "5"];
    let signers = ["--pk", "k-2.pk", "--sig", "s-2.sig", "--path", "m-2.path", "--pk", "k-0.pk", "--sig", "s-0.sig"];
    ok(&run(
        &dir,
        &prove,
        &[
            &signers[..],
            &["--path", "m-0.path", "--message", MSG_A, "--threshold", "2", "--bitmap", "--out", "t.proof"],
        ]
        .concat(),
    ));
    let verify = ["verify", "--scheme", "seed001", "--settings", "test", "--proof", "t.proof", "--group", "g.key"];
    let cert = json(&run(&dir, &verify, &["--threshold", "2", "--epoch", "5", "--message", MSG_A]));
    assert_eq!(cert["valid"], true);
    assert_eq!(cert["kind"], "threshold");
    assert_eq!(cert["count"], 2);
    assert_eq!(cert["signers"], serde_json::json!([0, 2]));
    // The output says what the proof is worth: the insecure test settings,
    // far below 80 proven bits, and a warning on standard error.
    assert_eq!(cert["settings"], "test");
    assert!(cert["proven_bits"].as_f64().unwrap() < 80.0, "{cert}");
    let warned = run(&dir, &verify, &["--threshold", "2", "--epoch", "5", "--message", MSG_A]);
    assert!(String::from_utf8_lossy(&warned.stderr).contains("warning: settings test"));
    // A higher threshold, another message or epoch, other settings: rejected (1).
    assert_eq!(run(&dir, &verify, &["--threshold", "3", "--epoch", "5", "--message", MSG_A]).status.code(), Some(1));
    assert_eq!(run(&dir, &verify, &["--threshold", "2", "--epoch", "5", "--message", MSG_B]).status.code(), Some(1));
    assert_eq!(run(&dir, &verify, &["--threshold", "2", "--epoch", "6", "--message", MSG_A]).status.code(), Some(1));
    // Without --settings the proof's own settings are used if they reach
    // --min-bits (100 by default): the test settings need a lower one.
    let own = ["verify", "--scheme", "seed001", "--proof", "t.proof", "--group", "g.key", "--threshold", "2"];
    let refused = run(&dir, &own, &["--epoch", "5", "--message", MSG_A]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--min-bits"), "{refused:?}");
    let accepted = json(&run(&dir, &own, &["--epoch", "5", "--message", MSG_A, "--min-bits", "0"]));
    assert_eq!((accepted["valid"].as_bool(), accepted["settings"].as_str()), (Some(true), Some("test")));
    let demanded = ["verify", "--scheme", "seed001", "--settings", "fast", "--proof", "t.proof", "--group", "g.key"];
    let other = run(&dir, &demanded, &["--threshold", "2", "--epoch", "5", "--message", MSG_A]);
    assert_eq!(other.status.code(), Some(1), "--settings demands exactly those settings");
    // Tampered proofs: rejected (1).
    for at in [0usize, 8, 100, 5000, usize::MAX] {
        tamper(&dir, "t.proof", "bad.proof", at);
        let verify_bad =
            ["verify", "--scheme", "seed001", "--settings", "test", "--proof", "bad.proof", "--group", "g.key"];
        let out = run(&dir, &verify_bad, &["--threshold", "2", "--epoch", "5", "--message", MSG_A]);
        assert_eq!(out.status.code(), Some(1), "byte {at}");
    }
    // Proving refuses a member with another member's path, too few signers,
    // and a signature on another message.
    let bad_path = ["--pk", "k-0.pk", "--sig", "s-0.sig", "--path", "m-2.path", "--message", MSG_A, "--threshold", "1"];
    assert_eq!(run(&dir, &prove, &[&bad_path[..], &["--out", "x.proof"]].concat()).status.code(), Some(1));
    let one = ["--pk", "k-0.pk", "--sig", "s-0.sig", "--path", "m-0.path", "--message", MSG_A, "--threshold", "2"];
    assert_eq!(run(&dir, &prove, &[&one[..], &["--out", "x.proof"]].concat()).status.code(), Some(1));
    let other = ["--pk", "k-1.pk", "--sig", "s-1.sig", "--path", "m-1.path", "--message", MSG_A, "--threshold", "1"];
    assert_eq!(run(&dir, &prove, &[&other[..], &["--out", "x.proof"]].concat()).status.code(), Some(1));
    assert!(!dir.join("x.proof").exists());

    // Aggregate of three entries with their own epochs and messages.
    let keys = ["--pk", "k-0.pk", "--pk", "k-1.pk", "--pk", "k-2.pk"];
    let stmt =
        ["--epoch", "5", "--epoch", "6", "--epoch", "5", "--message", MSG_A, "--message", MSG_B, "--message", MSG_A];
    let sigs = ["--sig", "s-0.sig", "--sig", "s-1.sig", "--sig", "s-2.sig"];
    let aggregate = ["aggregate", "--scheme", "seed001", "--settings", "test", "--out", "a.proof"];
    ok(&run(&dir, &aggregate, &[&keys[..], &stmt, &sigs].concat()));
    let verify = ["verify", "--scheme", "seed001", "--settings", "test", "--proof", "a.proof"];
    let out = json(&run(&dir, &verify, &[&keys[..], &stmt].concat()));
    assert_eq!((out["kind"].as_str(), out["count"].as_u64()), (Some("aggregate"), Some(3)));
    assert!(out["proven_bits"].as_f64().unwrap() < 80.0 && out["conjectured_bits"].as_f64().is_some(), "{out}");
    // Swapped messages, one epoch for all, a dropped entry: rejected (1).
    let swapped =
        ["--epoch", "5", "--epoch", "6", "--epoch", "5", "--message", MSG_B, "--message", MSG_A, "--message", MSG_A];
    assert_eq!(run(&dir, &verify, &[&keys[..], &swapped].concat()).status.code(), Some(1));
    let one_epoch = ["--epoch", "5", "--message", MSG_A, "--message", MSG_B, "--message", MSG_A];
    assert_eq!(run(&dir, &verify, &[&keys[..], &one_epoch].concat()).status.code(), Some(1));
    let dropped =
        ["--pk", "k-0.pk", "--pk", "k-1.pk", "--epoch", "5", "--epoch", "6", "--message", MSG_A, "--message", MSG_B];
    assert_eq!(run(&dir, &verify, &dropped).status.code(), Some(1));
    // A threshold statement for an aggregate proof is a usage error (2).
    let mixed = ["--group", "g.key", "--threshold", "2", "--epoch", "5", "--message", MSG_A];
    assert_eq!(run(&dir, &verify, &mixed).status.code(), Some(2));
    // A signature where an aggregate needs another epoch: refused when proving.
    let wrong = ["--epoch", "5", "--message", MSG_A, "--message", MSG_A, "--message", MSG_A];
    assert_eq!(run(&dir, &aggregate, &[&keys[..], &wrong, &sigs].concat()).status.code(), Some(1));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn lamport_threshold_and_aggregate_on_files() {
    let dir = tempdir("lamport");
    ok(&sigagg(&dir, &["lamport", "keygen", "--count", "3", "--out", "k"]));
    ok(&sigagg(
        &dir,
        &[
            "group-key",
            "--scheme",
            "lamport-plus",
            "--pk",
            "k-0.pk",
            "--pk",
            "k-1.pk",
            "--pk",
            "k-2.pk",
            "--out",
            "g.key",
            "--paths",
            "m",
        ],
    ));
    for i in 0..3 {
        let (sk, out) = (format!("k-{i}.sk"), format!("s-{i}.sig"));
        ok(&sigagg(&dir, &["lamport", "sign", "--sk", &sk, "--message", "block 9", "--out", &out]));
    }
    let prove =
        ["threshold", "--scheme", "lamport-plus", "--settings", "test", "--group", "g.key", "--message", "block 9"];
    let signers = ["--pk", "k-1.pk", "--sig", "s-1.sig", "--path", "m-1.path", "--pk", "k-2.pk", "--sig", "s-2.sig"];
    ok(&run(
        &dir,
        &prove,
        &[&signers[..], &["--path", "m-2.path", "--threshold", "2", "--bitmap", "--out", "t.proof"]].concat(),
    ));
    let verify = ["verify", "--scheme", "lamport-plus", "--settings", "test", "--proof", "t.proof", "--group", "g.key"];
    let cert = json(&run(&dir, &verify, &["--threshold", "2", "--message", "block 9"]));
    assert_eq!((cert["count"].as_u64(), cert["signers"].clone()), (Some(2), serde_json::json!([1, 2])));
    assert_eq!(run(&dir, &verify, &["--threshold", "3", "--message", "block 9"]).status.code(), Some(1));
    assert_eq!(run(&dir, &verify, &["--threshold", "2", "--message", "block 8"]).status.code(), Some(1));
    // Lamport+ has no epochs.
    assert_eq!(
        run(&dir, &verify, &["--threshold", "2", "--message", "block 9", "--epoch", "1"]).status.code(),
        Some(2)
    );
    tamper(&dir, "t.proof", "bad.proof", 3000);
    let verify_bad =
        ["verify", "--scheme", "lamport-plus", "--settings", "test", "--proof", "bad.proof", "--group", "g.key"];
    assert_eq!(run(&dir, &verify_bad, &["--threshold", "2", "--message", "block 9"]).status.code(), Some(1));
    // The same signer twice is refused.
    let twice = ["--pk", "k-1.pk", "--sig", "s-1.sig", "--path", "m-1.path", "--pk", "k-1.pk", "--sig", "s-1.sig"];
    let out =
        run(&dir, &prove, &[&twice[..], &["--path", "m-1.path", "--threshold", "2", "--out", "x.proof"]].concat());
    assert_eq!(out.status.code(), Some(1));

    // Aggregate: two fresh keys sign distinct messages.
    ok(&sigagg(&dir, &["lamport", "keygen", "--scheme", "lamport-plus", "--count", "2", "--out", "a"]));
    for (i, msg) in [(0, "one"), (1, "two")] {
        let (sk, out) = (format!("a-{i}.sk"), format!("a-{i}.sig"));
        ok(&sigagg(&dir, &["lamport", "sign", "--sk", &sk, "--message", msg, "--out", &out]));
    }
    let keys = ["--pk", "a-0.pk", "--pk", "a-1.pk"];
    let msgs = ["--message", "one", "--message", "two"];
    let sigs = ["--sig", "a-0.sig", "--sig", "a-1.sig"];
    let aggregate = ["aggregate", "--scheme", "lamport-plus", "--settings", "test", "--out", "a.proof"];
    ok(&run(&dir, &aggregate, &[&keys[..], &msgs, &sigs].concat()));
    let verify = ["verify", "--scheme", "lamport-plus", "--settings", "test", "--proof", "a.proof"];
    let v = json(&run(&dir, &verify, &[&keys[..], &msgs].concat()));
    assert_eq!((v["kind"].as_str(), v["count"].as_u64()), (Some("aggregate"), Some(2)));
    let swapped = ["--message", "two", "--message", "one"];
    assert_eq!(run(&dir, &verify, &[&keys[..], &swapped].concat()).status.code(), Some(1));
    // The compact setting (rate 1/8: the paired Poseidon2 layout) end to end;
    // its proof is not a fast one.
    let compact = ["aggregate", "--scheme", "lamport-plus", "--settings", "compact", "--out", "c.proof"];
    ok(&run(&dir, &compact, &[&keys[..], &msgs, &sigs].concat()));
    let verify_compact = ["verify", "--scheme", "lamport-plus", "--settings", "compact", "--proof", "c.proof"];
    let v = json(&run(&dir, &verify_compact, &[&keys[..], &msgs].concat()));
    assert_eq!(v["settings"], "compact");
    assert!(v["proven_bits"].as_f64().unwrap() >= 100.0, "{v}");
    let verify_fast = ["verify", "--scheme", "lamport-plus", "--settings", "fast", "--proof", "c.proof"];
    assert_eq!(run(&dir, &verify_fast, &[&keys[..], &msgs].concat()).status.code(), Some(1));
    // Without --settings: the proof's own (compact), at the default level.
    let own = ["verify", "--scheme", "lamport-plus", "--proof", "c.proof"];
    let v = json(&run(&dir, &own, &[&keys[..], &msgs].concat()));
    assert_eq!((v["valid"].as_bool(), v["settings"].as_str()), (Some(true), Some("compact")));
    let above = ["verify", "--scheme", "lamport-plus", "--proof", "c.proof", "--min-bits", "200"];
    assert_eq!(run(&dir, &above, &[&keys[..], &msgs].concat()).status.code(), Some(1));
    // A whir-skip proof verifies without repeating its setting.
    let skip = ["aggregate", "--scheme", "lamport-plus", "--settings", "whir-skip", "--out", "w.proof"];
    ok(&run(&dir, &skip, &[&keys[..], &msgs, &sigs].concat()));
    let v =
        json(&run(&dir, &["verify", "--scheme", "lamport-plus", "--proof", "w.proof"], &[&keys[..], &msgs].concat()));
    assert_eq!((v["valid"].as_bool(), v["settings"].as_str()), (Some(true), Some("whir-skip")));
    assert!(v["proven_bits"].as_f64().unwrap() >= 100.0, "{v}");
    assert_eq!(run(&dir, &verify_compact, &[&keys[..], &swapped].concat()).status.code(), Some(1));
    // The mined set is another scheme; a proof of one scheme is not one of the other.
    let as_mined = ["verify", "--scheme", "lamport-plus-mined", "--settings", "test", "--proof", "a.proof"];
    assert_eq!(run(&dir, &as_mined, &[&keys[..], &msgs].concat()).status.code(), Some(1));
    let as_xmss = ["verify", "--scheme", "seed001", "--settings", "test", "--proof", "a.proof"];
    assert_eq!(run(&dir, &as_xmss, &["--pk", "k-0.pk", "--epoch", "1", "--message", MSG_A]).status.code(), Some(1));
    // Aggregates are over distinct messages (seed 004, section 4).
    let same = ["--message", "one", "--message", "one"];
    assert_eq!(run(&dir, &aggregate, &[&keys[..], &same, &sigs].concat()).status.code(), Some(1));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn benches_print_json() {
    let dir = tempdir("bench");
    let fields =
        ["n", "t", "log_blowup", "security_bits", "threads", "prove_s", "sigs_per_s", "proof_bytes", "verify_s"];
    for scheme in ["seed001", "lamport-plus"] {
        let out = json(&sigagg(&dir, &["bench", "threshold", "--scheme", scheme, "--n", "4", "--t", "3", "--json"]));
        for key in fields.iter().chain(&["peak_rss_bytes", "signers"]) {
            assert!(out.get(key).is_some(), "{scheme}: missing {key} in {out}");
        }
        assert_eq!((out["n"].as_u64(), out["t"].as_u64()), (Some(4), Some(3)));
        assert!(out["security_bits"].as_f64().unwrap() >= 100.0, "{out}");
    }
    let out = json(&sigagg(&dir, &["bench", "lamport-agg", "--n", "2", "--json"]));
    for key in &fields[2..] {
        assert!(out.get(key).is_some(), "missing {key} in {out}");
    }
    // Named settings choose the backend, and the JSON says which.
    let out = json(&sigagg(&dir, &["bench", "xmss-agg", "--n", "2", "--settings", "whir", "--json"]));
    assert_eq!((out["settings"].as_str(), out["backend"].as_str()), (Some("whir"), Some("whir")), "{out}");
    assert!(out["security_bits"].as_f64().unwrap() >= 120.0, "{out}");
    assert_eq!((out["warm"].as_bool(), out["first_prove_s"].as_f64()), (Some(false), None), "{out}");
    // A warm run times the second proof and reports the first apart.
    let out = json(&sigagg(&dir, &["bench", "xmss-agg", "--n", "2", "--settings", "test", "--warm", "--json"]));
    assert_eq!(out["warm"].as_bool(), Some(true), "{out}");
    assert!(out["first_prove_s"].as_f64().unwrap() > 0.0 && out["prove_s"].as_f64().unwrap() > 0.0, "{out}");
    let out =
        json(&sigagg(&dir, &["bench", "threshold", "--scheme", "seed001", "--n", "3", "--settings", "whir", "--json"]));
    assert_eq!(out["backend"].as_str(), Some("whir"), "{out}");
    assert_eq!(sigagg(&dir, &["bench", "xmss-agg", "--n", "2", "--settings", "slow"]).status.code(), Some(2));
    let out = json(&sigagg(
        &dir,
        &["bench", "threshold", "--scheme", "lamport-plus", "--n", "3", "--settings", "whir", "--json"],
    ));
    assert_eq!((out["settings"].as_str(), out["backend"].as_str()), (Some("whir"), Some("whir")), "{out}");
    assert_eq!(sigagg(&dir, &["bench", "threshold", "--n", "3", "--settings", "slow"]).status.code(), Some(2));
    // leanSig's production set: a threshold certificate on the multilinear prover.
    let lean = ["bench", "threshold", "--scheme", "leansig-prod", "--n", "4", "--t", "3", "--signers", "3"];
    let out = json(&sigagg(&dir, &[&lean[..], &["--settings", "test-whir-skip", "--json"]].concat()));
    assert_eq!((out["scheme"].as_str(), out["backend"].as_str()), (Some("leansig-prod"), Some("skip")), "{out}");
    assert_eq!((out["n"].as_u64(), out["t"].as_u64(), out["signers"].as_u64()), (Some(4), Some(3), Some(3)), "{out}");
    let too_few = ["bench", "threshold", "--scheme", "leansig-prod", "--n", "4", "--t", "4", "--signers", "3"];
    assert_eq!(sigagg(&dir, &too_few).status.code(), Some(2));
    // Bad shapes are usage errors.
    assert_eq!(sigagg(&dir, &["bench", "threshold", "--n", "4", "--t", "5"]).status.code(), Some(2));
    assert_eq!(sigagg(&dir, &["bench", "lamport-agg", "--n", "2", "--log-blowup", "2"]).status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

/// leanSpec's aggregation API (a module here: one release test binary fewer to link).
#[path = "agg_cli/lean.rs"]
mod lean;

/// Merged aggregates.
#[path = "agg_cli/merge.rs"]
mod merge;
