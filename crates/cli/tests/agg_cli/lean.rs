//! End-to-end tests of `sigagg aggregate | verify --proof --scheme
//! leansig-prod`: leanSpec's SSZ container `AggregatedSignatureProof` of
//! leanSig production signatures, written, verified, and refused for a
//! wrong message, slot or key list. Proofs use the insecure
//! `test-whir-skip` settings (speed).

use std::path::Path;
use std::process::Output;

use super::common::{ok, sigagg, tempdir};
use rand::SeedableRng;
use rand::rngs::StdRng;
use sigagg_xmss::{LeanSigProd, single_epoch_key_and_signature};

const MESSAGE: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const OTHER: &str = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";
const SLOT: u32 = 4096;

/// Writes `n` leanSig production key and signature files (`k-i.pk`,
/// `s-i.sig`, SSZ) signing `MESSAGE` at `SLOT`: one-leaf keys, which
/// cost a leaf each where `sigagg keygen` costs two bottom trees.
fn signers(dir: &Path, n: usize) {
    let mut rng = StdRng::seed_from_u64(41);
    let message: [u8; 32] = hex::decode(MESSAGE).unwrap().try_into().unwrap();
    for i in 0..n {
        let (pk, sig) = single_epoch_key_and_signature::<LeanSigProd, _>(&mut rng, SLOT, &message).unwrap();
        std::fs::write(dir.join(format!("k-{i}.pk")), pk.to_bytes()).unwrap();
        std::fs::write(dir.join(format!("s-{i}.sig")), sig.to_bytes()).unwrap();
    }
}

/// Exit status and standard error of a run that must have failed.
fn failure(out: &Output) -> (Option<i32>, String) {
    assert!(!out.status.success(), "succeeded: {}", String::from_utf8_lossy(&out.stdout));
    (out.status.code(), String::from_utf8_lossy(&out.stderr).trim().to_string())
}

#[test]
fn leansig_containers_aggregate_verify_and_refuse_wrong_statements() {
    let dir = tempdir("lean");
    signers(&dir, 2);
    let slot = SLOT.to_string();
    let entries = ["--pk", "k-0.pk", "--pk", "k-1.pk"];
    let aggregate = [
        &["aggregate", "--scheme", "lean-sig-prod", "--settings", "test-whir-skip", "--epoch", &slot][..],
        &entries,
        &["--sig", "s-0.sig", "--sig", "s-1.sig", "--message", MESSAGE],
    ]
    .concat();
    // Validators 3 and 7 of the registry.
    let participants = ["--participant", "3", "--participant", "7", "--out", "a.ssz"];
    ok(&sigagg(&dir, &[&aggregate[..], &participants].concat()));
    let container = std::fs::read(dir.join("a.ssz")).unwrap();
    // SSZ: offsets 8 and 10, bits 3 and 7 set, then the delimiter (bit 8).
    assert_eq!(container[..10], [8, 0, 0, 0, 10, 0, 0, 0, 0b1000_1000, 1]);

    let verify =
        [&["verify", "--scheme", "leansig-prod", "--proof", "a.ssz", "--min-bits", "0"][..], &entries].concat();
    let out: serde_json::Value =
        serde_json::from_str(&ok(&sigagg(&dir, &[&verify[..], &["--epoch", &slot, "--message", MESSAGE]].concat())))
            .unwrap();
    assert_eq!(out["valid"], true);
    assert_eq!(out["count"], 2);
    assert_eq!(out["participants"], serde_json::json!([3, 7]));
    assert_eq!(out["settings"], "test-whir-skip");

    // A wrong message: exit status 1 and a message that says the proof is invalid.
    let (code, stderr) = failure(&sigagg(&dir, &[&verify[..], &["--epoch", &slot, "--message", OTHER]].concat()));
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("invalid proof"), "{stderr}");
    // A wrong slot, keys in the wrong order, one key missing.
    let next = (SLOT + 1).to_string();
    let (code, _) = failure(&sigagg(&dir, &[&verify[..], &["--epoch", &next, "--message", MESSAGE]].concat()));
    assert_eq!(code, Some(1));
    let swapped = ["verify", "--scheme", "leansig-prod", "--proof", "a.ssz", "--min-bits", "0", "--pk", "k-1.pk"];
    let (code, _) =
        failure(&sigagg(&dir, &[&swapped[..], &["--pk", "k-0.pk", "--epoch", &slot, "--message", MESSAGE]].concat()));
    assert_eq!(code, Some(1));
    let (code, stderr) = failure(&sigagg(&dir, &[&swapped[..], &["--epoch", &slot, "--message", MESSAGE]].concat()));
    assert_eq!(code, Some(1));
    assert!(stderr.contains("2 participants for 1 public keys"), "{stderr}");
    // The insecure settings are refused unless asked for.
    let strict = [&verify[..5], &entries, &["--epoch", &slot, "--message", MESSAGE]].concat();
    let (code, stderr) = failure(&sigagg(&dir, &strict));
    assert_eq!(code, Some(1));
    assert!(stderr.contains("below --min-bits"), "{stderr}");
    // A truncated container.
    std::fs::write(dir.join("short.ssz"), &container[..9]).unwrap();
    let short = [&["verify", "--scheme", "leansig-prod", "--proof", "short.ssz"][..], &entries].concat();
    let (code, stderr) = failure(&sigagg(&dir, &[&short[..], &["--epoch", &slot, "--message", MESSAGE]].concat()));
    assert_eq!(code, Some(1));
    assert!(stderr.contains("invalid proof"), "{stderr}");
}

#[test]
fn leansig_aggregation_refuses_bad_arguments() {
    let dir = tempdir("lean-args");
    signers(&dir, 1);
    let base = ["aggregate", "--scheme", "leansig-prod", "--settings", "test-whir-skip", "--pk", "k-0.pk"];
    let tail = ["--sig", "s-0.sig", "--message", MESSAGE, "--out", "x.ssz"];
    // One slot only.
    let (code, stderr) = failure(&sigagg(&dir, &[&base[..], &tail, &["--epoch", "1", "--epoch", "2"]].concat()));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("exactly one --epoch"), "{stderr}");
    // The signature is not of this slot: the prover says which one is invalid.
    let (code, stderr) = failure(&sigagg(&dir, &[&base[..], &tail, &["--epoch", "5"]].concat()));
    assert_eq!(code, Some(1));
    assert!(stderr.contains("signature 0 is invalid"), "{stderr}");
    // Not one --participant per --pk.
    let slot = SLOT.to_string();
    let two = ["--epoch", &slot, "--participant", "1", "--participant", "0"];
    let (code, stderr) = failure(&sigagg(&dir, &[&base[..], &tail, &two].concat()));
    assert_eq!(code, Some(2));
    assert!(stderr.contains("one --participant per --pk"), "{stderr}");
    assert!(!dir.join("x.ssz").exists());
}

/// `group-key`, `threshold` and `verify --group` with leanSig production
/// keys: a 2-of-3 certificate (a bare proof, not a container) verifies,
/// and a wrong message, slot or threshold is refused with status 1.
#[test]
fn leansig_threshold_certificates_prove_verify_and_refuse_wrong_statements() {
    let dir = tempdir("lean-threshold");
    signers(&dir, 3);
    let keys = ["--pk", "k-0.pk", "--pk", "k-1.pk", "--pk", "k-2.pk"];
    let group = [&["group-key", "--scheme", "leansig-prod"][..], &keys, &["--out", "g.key", "--paths", "m"]].concat();
    let info: serde_json::Value = serde_json::from_str(&ok(&sigagg(&dir, &group))).unwrap();
    assert_eq!((info["size"].as_u64(), info["depth"].as_u64()), (Some(3), Some(2)));
    let slot = SLOT.to_string();
    let prove = ["threshold", "--scheme", "leansig-prod", "--settings", "test-whir-skip", "--group", "g.key"];
    let members = ["--pk", "k-2.pk", "--sig", "s-2.sig", "--path", "m-2.path", "--pk", "k-0.pk", "--sig", "s-0.sig"];
    let rest = ["--path", "m-0.path", "--epoch", &slot, "--message", MESSAGE, "--threshold", "2", "--bitmap"];
    ok(&sigagg(&dir, &[&prove[..], &members, &rest, &["--out", "t.proof"]].concat()));
    let verify = ["verify", "--scheme", "leansig-prod", "--proof", "t.proof", "--group", "g.key", "--min-bits", "0"];
    let certificate = |extra: &[&str]| sigagg(&dir, &[&verify[..], extra].concat());
    let out: serde_json::Value =
        serde_json::from_str(&ok(&certificate(&["--threshold", "2", "--epoch", &slot, "--message", MESSAGE]))).unwrap();
    assert_eq!(
        (out["valid"].as_bool(), out["kind"].as_str(), out["count"].as_u64()),
        (Some(true), Some("threshold"), Some(2))
    );
    assert_eq!(out["signers"], serde_json::json!([0, 2]));
    let next = (SLOT + 1).to_string();
    for wrong in [
        ["--threshold", "2", "--epoch", &slot, "--message", OTHER],
        ["--threshold", "2", "--epoch", &next, "--message", MESSAGE],
        ["--threshold", "3", "--epoch", &slot, "--message", MESSAGE],
    ] {
        let (code, stderr) = failure(&certificate(&wrong));
        assert_eq!(code, Some(1), "{wrong:?}: {stderr}");
    }
    // Without its epoch the statement is incomplete: a usage error (2).
    let (code, _) = failure(&certificate(&["--threshold", "2", "--message", MESSAGE]));
    assert_eq!(code, Some(2));
}

/// Two leanSig containers (`aggregate --scheme leansig-prod` under
/// whir-skip-poseidon2) merge with `sigagg merge --scheme leansig-prod`;
/// the merged proof verifies with `verify --scheme leansig-prod` and is
/// refused at another slot.
#[test]
fn leansig_containers_merge_and_the_merged_proof_verifies() {
    let dir = tempdir("lean-merge");
    signers(&dir, 2);
    let slot = SLOT.to_string();
    for i in 0..2 {
        let (pk, sig, out) = (format!("k-{i}.pk"), format!("s-{i}.sig"), format!("c-{i}.ssz"));
        let aggregate =
            ["aggregate", "--scheme", "leansig-prod", "--settings", "whir-skip-poseidon2", "--epoch", &slot];
        ok(&sigagg(
            &dir,
            &[&aggregate[..], &["--pk", &pk, "--sig", &sig, "--message", MESSAGE, "--out", &out]].concat(),
        ));
    }
    let keys = ["--pk", "k-0.pk", "--pk", "k-1.pk"];
    let merge = ["merge", "--scheme", "leansig-prod", "--child", "c-0.ssz", "--child", "c-1.ssz", "--epoch", &slot];
    ok(&sigagg(&dir, &[&merge[..], &keys, &["--message", MESSAGE, "--out", "m.proof"]].concat()));
    let verify = ["verify", "--scheme", "leansig-prod", "--proof", "m.proof", "--message", MESSAGE];
    let out: serde_json::Value =
        serde_json::from_str(&ok(&sigagg(&dir, &[&verify[..], &keys, &["--epoch", &slot]].concat()))).unwrap();
    assert_eq!((out["kind"].as_str(), out["scheme"].as_str()), (Some("merged"), Some("leansig-prod")), "{out}");
    let other_slot = (SLOT + 1).to_string();
    let (code, _) = failure(&sigagg(&dir, &[&verify[..], &keys, &["--epoch", &other_slot]].concat()));
    assert_eq!(code, Some(1));
    std::fs::remove_dir_all(dir).unwrap();
}
