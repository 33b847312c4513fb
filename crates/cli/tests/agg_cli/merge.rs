//! `sigagg merge` and `sigagg verify --proof` of a merged proof on files:
//! two seed001 aggregates (whir-skip-poseidon2) of one message merge; the
//! merged proof verifies for their keys, child after child, and is
//! refused for another epoch, message or order of keys, when tampered,
//! and when a child is not under the recursion setting; the merged proof
//! merges again beside a third aggregate (depth 2) and verifies, and is
//! refused with its keys reordered; raw signatures merge beside a child
//! and a swapped pair is refused; a threshold certificate merges beside an
//! aggregate with its --committee, and is refused without it or at a
//! higher threshold; a raw signer of another message and epoch merges
//! beside an aggregate (type 2), verifies with a message and epoch per
//! key, and is refused with the messages exchanged or one for all; it
//! splits into the aggregate's part, verified with its keys alone;
//! `sigagg bench merge` prints its figures, at depth 1 and 2.

use super::{MSG_A, MSG_B, json, run, tamper};
use crate::common::{ok, sigagg, tempdir};

#[test]
fn two_aggregates_merge_and_the_merged_proof_verifies_on_files() {
    let dir = tempdir("merge");
    let seed = "22".repeat(32);
    ok(&sigagg(&dir, &["keygen", "--count", "6", "--seed", &seed, "--out", "k"]));
    for i in 0..6 {
        let (sk, out) = (format!("k-{i}.sk"), format!("s-{i}.sig"));
        ok(&sigagg(&dir, &["sign", "--sk", &sk, "--epoch", "5", "--message", MSG_A, "--out", &out]));
    }
    let child = |settings: &str, first: usize, out: &str| {
        let mut args =
            vec!["aggregate".to_string(), "--settings".into(), settings.into(), "--epoch".into(), "5".into()];
        for i in first..first + 2 {
            args.extend(["--pk".into(), format!("k-{i}.pk"), "--sig".into(), format!("s-{i}.sig")]);
        }
        args.extend(["--message".into(), MSG_A.into(), "--out".into(), out.into()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&sigagg(&dir, &args));
    };
    child("whir-skip-poseidon2", 0, "a.proof");
    child("whir-skip-poseidon2", 2, "b.proof");
    child("whir-skip-poseidon2", 4, "c.proof");
    child("test", 2, "t.proof");
    let keys = ["--pk", "k-0.pk", "--pk", "k-1.pk", "--pk", "k-2.pk", "--pk", "k-3.pk"];
    let merge = ["merge", "--child", "a.proof", "--child", "b.proof", "--epoch", "5", "--message", MSG_A];
    ok(&run(&dir, &merge, &[&keys[..], &["--out", "m.proof"]].concat()));

    let verify = ["verify", "--proof", "m.proof", "--epoch", "5"];
    let out = json(&run(&dir, &verify, &[&keys[..], &["--message", MSG_A]].concat()));
    assert_eq!((out["valid"].as_bool(), out["kind"].as_str()), (Some(true), Some("merged")), "{out}");
    assert_eq!((out["count"].as_u64(), &out["children"]), (Some(4), &serde_json::json!([2, 2])), "{out}");
    assert!(out["proven_bits"].as_f64().unwrap() >= 120.0, "{out}");

    // Another message, another epoch, the children's keys swapped, a key
    // missing, a tampered proof: rejected (1).
    assert_eq!(run(&dir, &verify, &[&keys[..], &["--message", MSG_B]].concat()).status.code(), Some(1));
    let other_epoch = ["verify", "--proof", "m.proof", "--epoch", "6", "--message", MSG_A];
    assert_eq!(run(&dir, &other_epoch, &keys).status.code(), Some(1));
    let swapped = ["--pk", "k-2.pk", "--pk", "k-3.pk", "--pk", "k-0.pk", "--pk", "k-1.pk", "--message", MSG_A];
    assert_eq!(run(&dir, &verify, &swapped).status.code(), Some(1));
    assert_eq!(run(&dir, &verify, &[&keys[..6], &["--message", MSG_A]].concat()).status.code(), Some(1));
    for at in [40usize, 4000, usize::MAX] {
        tamper(&dir, "m.proof", "bad.proof", at);
        let bad = ["verify", "--proof", "bad.proof", "--epoch", "5", "--message", MSG_A];
        assert_eq!(run(&dir, &bad, &keys).status.code(), Some(1), "byte {at}");
    }
    // A child under the test settings is not a recursion child; FRI
    // settings cannot prove the verifier circuit.
    let test_child = ["merge", "--child", "a.proof", "--child", "t.proof", "--epoch", "5", "--message", MSG_A];
    assert_eq!(run(&dir, &test_child, &[&keys[..], &["--out", "x.proof"]].concat()).status.code(), Some(1));
    let fri = [&merge[..], &["--settings", "fast", "--out", "x.proof"]].concat();
    assert_ne!(run(&dir, &fri, &keys).status.code(), Some(0));
    assert!(!dir.join("x.proof").exists());

    // Depth 2: the merged proof is a child beside a third aggregate; the
    // keys are the whole tree's, depth first.
    let again = ["merge", "--child", "m.proof", "--child", "c.proof", "--epoch", "5", "--message", MSG_A];
    let six = [&keys[..], &["--pk", "k-4.pk", "--pk", "k-5.pk"]].concat();
    ok(&run(&dir, &again, &[&six[..], &["--out", "m2.proof"]].concat()));
    let verify2 = ["verify", "--proof", "m2.proof", "--epoch", "5", "--message", MSG_A];
    let out = json(&run(&dir, &verify2, &six));
    assert_eq!((out["valid"].as_bool(), out["depth"].as_u64()), (Some(true), Some(2)), "{out}");
    assert_eq!((out["count"].as_u64(), &out["children"]), (Some(6), &serde_json::json!([[2, 2], 2])), "{out}");
    let reordered = [&six[4..], &six[..4]].concat();
    assert_eq!(run(&dir, &verify2, &reordered).status.code(), Some(1));
    // Raw signatures beside a child: the last keys' signers, one more child.
    let signed = ["merge", "--child", "m.proof", "--sig", "s-4.sig", "--sig", "s-5.sig", "--epoch", "5"];
    ok(&run(&dir, &signed, &[&six[..], &["--message", MSG_A, "--out", "m3.proof"]].concat()));
    let out = json(&run(&dir, &["verify", "--proof", "m3.proof", "--epoch", "5", "--message", MSG_A], &six));
    assert_eq!((out["valid"].as_bool(), &out["children"]), (Some(true), &serde_json::json!([[2, 2], 2])), "{out}");
    let forged = ["merge", "--child", "m.proof", "--sig", "s-5.sig", "--sig", "s-4.sig", "--epoch", "5"];
    let refused = run(&dir, &forged, &[&six[..], &["--message", MSG_A, "--out", "x.proof"]].concat());
    assert_eq!(refused.status.code(), Some(1));

    // A 2-of-2 committee's certificate beside an aggregate, its committee
    // given as GROUP_KEY_FILE:THRESHOLD.
    let other = "33".repeat(32);
    ok(&sigagg(&dir, &["keygen", "--count", "2", "--seed", &other, "--out", "c"]));
    ok(&sigagg(&dir, &["group-key", "--pk", "c-0.pk", "--pk", "c-1.pk", "--out", "g.key", "--paths", "cm"]));
    for i in 0..2 {
        let (sk, out) = (format!("c-{i}.sk"), format!("cs-{i}.sig"));
        ok(&sigagg(&dir, &["sign", "--sk", &sk, "--epoch", "5", "--message", MSG_A, "--out", &out]));
    }
    let certify = ["threshold", "--settings", "whir-skip-poseidon2", "--group", "g.key", "--threshold", "2"];
    let members = ["--pk", "c-0.pk", "--sig", "cs-0.sig", "--path", "cm-0.path", "--pk", "c-1.pk", "--sig", "cs-1.sig"];
    let rest = ["--path", "cm-1.path", "--epoch", "5", "--message", MSG_A, "--out", "cert.proof"];
    ok(&run(&dir, &certify, &[&members[..], &rest].concat()));
    let with_cert = ["merge", "--child", "a.proof", "--child", "cert.proof", "--epoch", "5", "--message", MSG_A];
    let a_keys = ["--pk", "k-0.pk", "--pk", "k-1.pk"];
    ok(&run(&dir, &with_cert, &[&a_keys[..], &["--committee", "g.key:2", "--out", "mc.proof"]].concat()));
    let verify_c = ["verify", "--proof", "mc.proof", "--epoch", "5", "--message", MSG_A];
    let out = json(&run(&dir, &verify_c, &[&a_keys[..], &["--committee", "g.key:2"]].concat()));
    assert_eq!((out["valid"].as_bool(), &out["children"]), (Some(true), &serde_json::json!([2, "threshold"])), "{out}");
    assert_eq!(run(&dir, &verify_c, &a_keys).status.code(), Some(1));
    assert_ne!(run(&dir, &verify_c, &[&a_keys[..], &["--committee", "g.key:3"]].concat()).status.code(), Some(0));
    assert_eq!(run(&dir, &with_cert, &[&a_keys[..], &["--out", "x.proof"]].concat()).status.code(), Some(1));
    assert_eq!(run(&dir, &verify_c, &[&a_keys[..], &["--committee", "g.key"]].concat()).status.code(), Some(2));

    // Several messages (type 2): --message and --epoch once per --pk. A raw
    // signer of MSG_B at epoch 7 beside the aggregate of MSG_A at epoch 5.
    let third = "44".repeat(32);
    ok(&sigagg(&dir, &["keygen", "--count", "1", "--seed", &third, "--out", "d"]));
    ok(&sigagg(&dir, &["sign", "--sk", "d.sk", "--epoch", "7", "--message", MSG_B, "--out", "d.sig"]));
    let three = ["--pk", "k-0.pk", "--pk", "k-1.pk", "--pk", "d.pk", "--epoch", "5", "--epoch", "5", "--epoch", "7"];
    let (a, b) = (["--message", MSG_A], ["--message", MSG_B]);
    let several = ["merge", "--child", "a.proof", "--sig", "d.sig", "--out", "m4.proof"];
    ok(&run(&dir, &several, &[&three[..], &a, &a, &b].concat()));
    let verify4 = ["verify", "--proof", "m4.proof"];
    let out = json(&run(&dir, &verify4, &[&three[..], &a, &a, &b].concat()));
    assert_eq!((out["valid"].as_bool(), &out["children"]), (Some(true), &serde_json::json!([2, 1])), "{out}");
    // The messages exchanged, or one message for all: rejected (1); a
    // message list of another length: a usage error.
    assert_eq!(run(&dir, &verify4, &[&three[..], &a, &b, &a].concat()).status.code(), Some(1));
    assert_eq!(run(&dir, &verify4, &[&three[..], &a].concat()).status.code(), Some(1));
    assert_ne!(run(&dir, &verify4, &[&three[..], &a, &b].concat()).status.code(), Some(0));
    // Split: the aggregate's part alone, the raw signer withheld; verified
    // with its two keys, one message and one epoch.
    let split = ["split", "--proof", "m4.proof", "--keep", "0", "--out", "s4.proof"];
    ok(&run(&dir, &split, &[&three[..], &a, &a, &b].concat()));
    let verify_s = ["verify", "--proof", "s4.proof", "--epoch", "5"];
    let out = json(&run(&dir, &verify_s, &[&a_keys[..], &a].concat()));
    assert_eq!((out["valid"].as_bool(), &out["children"]), (Some(true), &serde_json::json!([2, "withheld"])), "{out}");
    assert_eq!(run(&dir, &verify_s, &[&a_keys[..], &b].concat()).status.code(), Some(1));
    let bad_keep = ["split", "--proof", "m4.proof", "--keep", "2", "--out", "x.proof"];
    assert_ne!(run(&dir, &bad_keep, &[&three[..], &a, &a, &b].concat()).status.code(), Some(0));

    // The benchmark: children of one signature, the merged proof under the
    // insecure test setting (quick).
    let bench = ["bench", "merge", "--children", "2", "--n", "1", "--settings", "test-whir-skip", "--json"];
    let out = json(&sigagg(&dir, &bench));
    for key in ["prove_s", "proof_bytes", "security_bits", "verify_s", "peak_rss_bytes", "child_runs", "circuit"] {
        assert!(out.get(key).is_some(), "missing {key} in {out}");
    }
    assert_eq!(out["child_runs"].as_array().map(Vec::len), Some(2), "{out}");
    assert!(out["circuit"]["wires"].as_u64().unwrap() > 100_000, "{out}");
    let deep = ["bench", "merge", "--children", "1", "--depth", "2", "--n", "1", "--settings", "test-whir-skip"];
    let out = json(&sigagg(&dir, &[&deep[..], &["--json"]].concat()));
    assert_eq!((out["depth"].as_u64(), out["child_runs"][0]["depth"].as_u64()), (Some(2), Some(1)), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}
