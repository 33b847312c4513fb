//! End-to-end tests of the command line's conveniences: one message for
//! every entry of an aggregate, `seed001` as the default scheme, examples
//! in every `--help`, one-line errors and their exit codes.

use std::process::Output;

mod common;

use common::{ok, sigagg, tempdir};

const MSG: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&ok(out)).expect("one JSON object")
}

/// A failed run's exit code and standard error, which must be one line.
fn failure(out: &Output) -> (Option<i32>, String) {
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(stderr.lines().count(), 1, "not one line: {stderr}");
    (out.status.code(), stderr)
}

#[test]
fn one_lamport_message_for_many_signers_is_refused_as_a_duplicate() {
    let dir = tempdir("one-message-lamport");
    ok(&sigagg(&dir, &["lamport", "keygen", "--count", "2", "--out", "l"]));
    for i in 0..2 {
        let (sk, out) = (format!("l-{i}.sk"), format!("l-{i}.sig"));
        ok(&sigagg(&dir, &["lamport", "sign", "--sk", &sk, "--message", "block-9", "--out", &out]));
    }
    let args =
        ["aggregate", "--scheme", "lamport-plus", "--settings", "test", "--message", "block-9", "--out", "a.proof"];
    let entries = ["--pk", "l-0.pk", "--sig", "l-0.sig", "--pk", "l-1.pk", "--sig", "l-1.sig"];
    // The one message applies to both entries; Lamport+ aggregates need
    // distinct messages (seed 004, section 4), so the statement is rejected (1).
    let (code, stderr) = failure(&sigagg(&dir, &[&args[..], &entries].concat()));
    assert_eq!(code, Some(1), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn every_help_ends_with_an_example_of_itself() {
    let dir = tempdir("help");
    let commands: [&[&str]; 8] = [
        &[],
        &["demo"],
        &["aggregate"],
        &["bls", "atms-sign"],
        &["lamport", "member"],
        &["bench", "threshold"],
        &["bench"],
        &["verify"],
    ];
    for path in commands {
        let help = ok(&sigagg(&dir, &[path, &["--help"]].concat()));
        let example = help.rsplit("Example:").next().filter(|_| help.contains("Example:")).unwrap_or_default();
        let own = ["sigagg"].iter().chain(path).copied().collect::<Vec<_>>().join(" ");
        assert!(example.lines().any(|l| l.trim().starts_with(&own)), "`{own} --help`:\n{help}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_help_workflow_runs_and_one_message_serves_every_signer() {
    // `sigagg --help` ends with the main workflow on files: no --scheme
    // (seed001 for keygen, sign, group-key, threshold and verify), fast
    // settings. Every line but the demo runs as printed, in order.
    let dir = tempdir("workflow");
    let help = ok(&sigagg(&dir, &["--help"]));
    let lines: Vec<&str> =
        help.lines().filter_map(|l| l.trim().strip_prefix("sigagg ")).filter(|l| !l.starts_with("demo")).collect();
    assert!(lines.len() >= 5, "{help}");
    let mut last = String::new();
    for line in lines {
        last = ok(&sigagg(&dir, &line.split_whitespace().collect::<Vec<_>>()));
    }
    let cert: serde_json::Value = serde_json::from_str(&last).expect("the workflow ends with a verification");
    assert_eq!((cert["valid"].as_bool(), cert["settings"].as_str()), (Some(true), Some("fast")));
    assert_eq!(json(&sigagg(&dir, &["group-key", "--pk", "k-0.pk", "--out", "one.key"]))["scheme"], "seed001");

    // The workflow's keys k-0..k-2 (k-1 signs now) aggregated with one
    // --message and one --epoch for the three entries.
    ok(&sigagg(&dir, &["sign", "--sk", "k-1.sk", "--epoch", "5", "--message", MSG, "--out", "s-1.sig"]));
    let entries = ["--pk", "k-0.pk", "--sig", "s-0.sig", "--pk", "k-1.pk", "--sig", "s-1.sig", "--pk", "k-2.pk"];
    let aggregate =
        [&["aggregate", "--settings", "test", "--epoch", "5"][..], &entries, &["--sig", "s-2.sig"]].concat();
    ok(&sigagg(&dir, &[&aggregate[..], &["--message", MSG, "--out", "a.proof"]].concat()));
    let verify =
        ["verify", "--settings", "test", "--proof", "a.proof", "--pk", "k-0.pk", "--pk", "k-1.pk", "--pk", "k-2.pk"];
    let out = json(&sigagg(&dir, &[&verify[..], &["--epoch", "5", "--message", MSG]].concat()));
    assert_eq!((out["kind"].as_str(), out["count"].as_u64()), (Some("aggregate"), Some(3)));
    // One --message-file serves every entry too.
    std::fs::write(dir.join("m.bin"), hex::decode(MSG).unwrap()).unwrap();
    let out = json(&sigagg(&dir, &[&verify[..], &["--epoch", "5", "--message-file", "m.bin"]].concat()));
    assert_eq!(out["valid"], true);
    // One message is still the statement's message: another is refused (1).
    let other = MSG.replace("0011", "0012");
    let (code, _) = failure(&sigagg(&dir, &[&verify[..], &["--epoch", "5", "--message", &other]].concat()));
    assert_eq!(code, Some(1));
    // Two messages for three entries: a usage error (2) naming both counts.
    let two = ["--message", MSG, "--message", MSG, "--out", "c.proof"];
    let (code, stderr) = failure(&sigagg(&dir, &[&aggregate[..], &two].concat()));
    assert_eq!(code, Some(2));
    assert!(stderr.contains("3 public keys but 2 messages"), "{stderr}");
    assert!(!dir.join("c.proof").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn errors_are_one_line_with_exit_codes_1_and_2() {
    let dir = tempdir("errors");
    // Rejected input: a signature file that is not one (1).
    ok(&sigagg(&dir, &["keygen", "--scheme", "test", "--out", "k"]));
    std::fs::write(dir.join("bad.sig"), [1u8; 10]).unwrap();
    let verify = ["verify", "--scheme", "test", "--pk", "k.pk", "--epoch", "1", "--message", MSG, "--sig", "bad.sig"];
    let (code, stderr) = failure(&sigagg(&dir, &verify));
    assert_eq!(code, Some(1));
    assert!(stderr.starts_with("error: "), "{stderr}");
    // Usage: a missing file (2), a bad value, an unknown flag (clap: 2).
    let missing = ["aggregate", "--pk", "none.pk", "--sig", "none.sig", "--epoch", "1", "--message", MSG, "--out", "x"];
    assert_eq!(failure(&sigagg(&dir, &missing)).0, Some(2));
    assert_eq!(sigagg(&dir, &["demo", "--n", "-1"]).status.code(), Some(2));
    assert_eq!(sigagg(&dir, &["aggregate", "--no-such-flag"]).status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}
