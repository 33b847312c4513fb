//! End-to-end tests of `sigagg demo`: the main job at a small N, checked
//! through its JSON and against `sigagg verify`.

mod common;

use common::{ok, sigagg, tempdir};
use sigagg_xmss::{LeanSigProd, Seed001, Signature};

/// The proven bits the fast settings promise at every size (ARCHITECTURE.md).
const FAST_FLOOR_BITS: f64 = 100.0;

#[test]
fn demo_json_reports_verified_proofs_that_sigagg_verify_accepts() {
    let dir = tempdir("demo");
    let n = 5;
    let out = sigagg(&dir, &["demo", "--n", "5", "--json", "--out-dir", "proofs"]);
    let v: serde_json::Value = serde_json::from_str(&ok(&out)).expect("standard output is one JSON object");
    assert_eq!((v["n"].as_u64(), v["settings"].as_str()), (Some(n), Some("fast")), "{v}");
    assert!(v["wall_s"].as_f64().unwrap() >= v["sign_s"].as_f64().unwrap(), "{v}");
    assert!(v["out_dir"].as_str().unwrap().ends_with("proofs"), "{v}");
    let rows = v["rows"].as_array().unwrap();
    let names: Vec<_> = rows.iter().map(|r| r["row"].as_str().unwrap()).collect();
    assert_eq!(names, ["aggregate", "lean-aggregate", "threshold", "bls-certificate"]);
    for row in rows {
        assert_eq!(row["verified"], true, "{row}");
        assert_eq!(row["signatures"].as_u64(), Some(n), "{row}");
        let bls = row["row"] == "bls-certificate";
        let (scheme, signature_len) = match row["row"].as_str().unwrap() {
            "bls-certificate" => ("bls12-381", 96),
            "lean-aggregate" => ("leansig-prod", Signature::<LeanSigProd>::SSZ_LEN as u64),
            _ => ("seed001", Signature::<Seed001>::SSZ_LEN as u64),
        };
        assert_eq!(row["scheme"], scheme, "{row}");
        assert_eq!(row["signature_bytes"].as_u64(), Some(n * signature_len), "{row}");
        // The reported size is the file's.
        let file = dir.join("proofs").join(row["file"].as_str().unwrap());
        let proof_bytes = row["proof_bytes"].as_u64().unwrap();
        assert!(proof_bytes > 0);
        assert_eq!(std::fs::metadata(&file).unwrap().len(), proof_bytes, "{row}");
        let conjectured = row["conjectured_bits"].as_f64().unwrap();
        if bls {
            // Pairing-based: no proven level, the estimate of BLS12-381.
            assert!(row["proven_bits"].is_null() && conjectured == 117.0, "{row}");
        } else {
            let proven = row["proven_bits"].as_f64().unwrap();
            assert!(proven >= FAST_FLOOR_BITS && conjectured >= proven, "{row}");
        }
        assert!(row["prove_s"].as_f64().unwrap() > 0.0 && row["verify_s"].as_f64().unwrap() > 0.0, "{row}");
        if cfg!(target_os = "linux") {
            assert!(row["peak_rss_bytes"].as_u64().unwrap() > 0, "{row}");
        }
    }
    // t = ceil(2n/3) of the n members; all of them signed.
    let threshold = &rows[2];
    let shape = [&threshold["threshold"], &threshold["count"], &threshold["group_size"]].map(|x| x.as_u64());
    assert_eq!(shape, [Some(4), Some(n), Some(n)], "{threshold}");

    // The written certificate is a real one: `sigagg verify` accepts it
    // against the written group key, epoch and message, and refuses it for
    // another epoch or a threshold above the group's size.
    let epoch = v["epoch"].as_u64().unwrap();
    let message = v["message"].as_str().unwrap().to_string();
    let verify = |t: &str, epoch: u64| {
        let epoch = epoch.to_string();
        let statement = ["--group", "proofs/group.key", "--threshold", t, "--epoch", &epoch, "--message", &message];
        sigagg(&dir, &[&["verify", "--proof", "proofs/threshold.proof"][..], &statement].concat())
    };
    let cert: serde_json::Value = serde_json::from_str(&ok(&verify("5", epoch))).unwrap();
    assert_eq!((cert["valid"].as_bool(), cert["count"].as_u64()), (Some(true), Some(n)));
    assert_eq!(verify("5", epoch + 1).status.code(), Some(1));
    assert_eq!(verify("6", epoch).status.code(), Some(1));

    // The BLS certificate: t = 4 of 5, all signed; `sigagg bls verify-cert`
    // accepts the written certificate against the written committee key.
    let bls = &rows[3];
    let shape = [&bls["threshold"], &bls["count"], &bls["group_size"]].map(|x| x.as_u64());
    assert_eq!(shape, [Some(4), Some(n), Some(n)], "{bls}");
    let hex_message = format!("0x{message}");
    let verify_cert = |t: &str, message: &str| {
        let args =
            ["bls", "verify-cert", "--committee-key", "proofs/committee.key", "--cert", "proofs/certificate.cert"];
        sigagg(&dir, &[&args[..], &["--message", message, "--threshold", t]].concat())
    };
    let cert: serde_json::Value = serde_json::from_str(&ok(&verify_cert("5", &hex_message))).unwrap();
    assert_eq!(
        (cert["valid"].as_bool(), cert["count"].as_u64(), cert["setup"].as_str()),
        (Some(true), Some(n), Some("ceremony"))
    );
    assert_eq!(verify_cert("6", &hex_message).status.code(), Some(1));
    assert_eq!(verify_cert("5", "0x00").status.code(), Some(1));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn demo_prints_a_table_and_removes_its_temporary_folder() {
    let dir = tempdir("demo-table");
    let out = sigagg(&dir, &["demo", "--n", "2", "--settings", "test"]);
    let text = ok(&out);
    let lines: Vec<&str> = text.lines().collect();
    let row =
        |name: &str| lines.iter().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} row:\n{text}"));
    assert!(row("aggregate").contains("all 2 signatures valid"), "{text}");
    assert!(row("lean-aggregate").contains("all 2 leanSig signatures valid"), "{text}");
    assert!(row("threshold").contains("2 of 2 members signed (t = 2)"), "{text}");
    assert!(row("bls-certificate").contains("2 of 2 members signed (t = 2)"), "{text}");
    // The folder named on the last line is gone.
    let folder = text.rsplit("files in ").next().unwrap().trim_end_matches(" (temporary, removed)");
    assert!(folder.contains("sigagg-demo-") && !std::path::Path::new(folder).exists(), "{text}");
    // The insecure settings say so on standard error.
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning: settings test"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn demo_refuses_bad_arguments_with_usage_errors() {
    let dir = tempdir("demo-bad");
    for args in [&["demo", "--n", "0"][..], &["demo", "--settings", "slow"], &["demo", "--n", "many"]] {
        let out = sigagg(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
