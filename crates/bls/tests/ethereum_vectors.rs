//! Runs every Ethereum BLS test vector in the repository's `vectors/bls/`
//! (a copy of the project's shared vector folder; ethereum/bls12-381-tests,
//! ciphersuite `BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_`).
//!
//! Every handler directory must be present and every file is run; the test
//! also checks the total count against the README (104), so a vector cannot
//! silently go missing. A second test checks that the copy equals the shared
//! folder whenever that folder exists.

use std::path::{Path, PathBuf};

use sigagg_bls::{
    BlsError, PublicKey, SecretKey, Signature, SignatureSet, aggregate, aggregate_verify, batch_verify,
    fast_aggregate_verify, hash_to_g2_coordinates,
};
use yaml_rust2::{Yaml, YamlLoader};

const HANDLERS: [(&str, usize); 9] = [
    ("aggregate", 6),
    ("aggregate_verify", 5),
    ("batch_verify", 4),
    ("deserialization_G1", 16),
    ("deserialization_G2", 18),
    ("fast_aggregate_verify", 12),
    ("hash_to_G2", 4),
    ("sign", 10),
    ("verify", 29),
];

/// The RFC 9380 test DST used by the hash_to_G2 cases.
const QUUX_DST: &[u8] = b"QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_";

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/bls")
}

fn hex(y: &Yaml) -> Vec<u8> {
    let s = y.as_str().unwrap_or_else(|| panic!("expected a hex string, got {y:?}"));
    hex::decode(s.strip_prefix("0x").unwrap_or(s)).expect("valid hex in vector")
}

fn hex_list(y: &Yaml) -> Vec<Vec<u8>> {
    y.as_vec().expect("list").iter().map(hex).collect()
}

/// Decodes keys with `KeyValidate`; any failure makes the whole case invalid.
fn keys(raw: &[Vec<u8>]) -> Option<Vec<PublicKey>> {
    raw.iter().map(|k| PublicKey::from_bytes(k).ok()).collect()
}

fn run_case(handler: &str, doc: &Yaml) -> Result<(), String> {
    let input = &doc["input"];
    let output = &doc["output"];
    match handler {
        "sign" => {
            let sk = SecretKey::from_bytes(&hex(&input["privkey"]));
            let msg = hex(&input["message"]);
            match (sk, output.is_null()) {
                (Err(BlsError::InvalidSecretKey), true) => Ok(()),
                (Ok(sk), false) => {
                    let sig = sk.sign(&msg);
                    if sig.to_bytes().to_vec() != hex(output) {
                        return Err("signature differs".into());
                    }
                    sig.verify(&sk.public_key(), &msg).map_err(|e| e.to_string())
                }
                (sk, _) => Err(format!("unexpected outcome {:?}", sk.map(|_| ()))),
            }
        }
        "verify" => {
            let expected = output.as_bool().expect("bool output");
            let pk = PublicKey::from_bytes(&hex(&input["pubkey"]));
            let sig = Signature::from_bytes(&hex(&input["signature"]));
            let msg = hex(&input["message"]);
            let got = match (pk, sig) {
                (Ok(pk), Ok(sig)) => sig.verify(&pk, &msg).is_ok(),
                _ => false,
            };
            check(got, expected)
        }
        "aggregate" => {
            let sigs: Result<Vec<Signature>, _> = hex_list(input).iter().map(|s| Signature::from_bytes(s)).collect();
            let got = sigs.ok().and_then(|s| aggregate(&s).ok());
            match (got, output.is_null()) {
                (None, true) => Ok(()),
                (Some(agg), false) if agg.to_bytes().to_vec() == hex(output) => Ok(()),
                (got, _) => Err(format!("aggregate gave {got:?}")),
            }
        }
        "fast_aggregate_verify" => {
            let expected = output.as_bool().expect("bool output");
            let msg = hex(&input["message"]);
            let got = match (keys(&hex_list(&input["pubkeys"])), Signature::from_bytes(&hex(&input["signature"]))) {
                (Some(pks), Ok(sig)) => fast_aggregate_verify(&pks, &msg, &sig).is_ok(),
                _ => false,
            };
            check(got, expected)
        }
        "aggregate_verify" => {
            let expected = output.as_bool().expect("bool output");
            let msgs = hex_list(&input["messages"]);
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            let got = match (keys(&hex_list(&input["pubkeys"])), Signature::from_bytes(&hex(&input["signature"]))) {
                (Some(pks), Ok(sig)) => aggregate_verify(&pks, &refs, &sig).is_ok(),
                _ => false,
            };
            check(got, expected)
        }
        "batch_verify" => {
            let expected = output.as_bool().expect("bool output");
            let msgs = hex_list(&input["messages"]);
            let sigs: Result<Vec<Signature>, _> =
                hex_list(&input["signatures"]).iter().map(|s| Signature::from_bytes(s)).collect();
            let got = match (keys(&hex_list(&input["pubkeys"])), sigs) {
                (Some(pks), Ok(sigs)) if pks.len() == sigs.len() && sigs.len() == msgs.len() => {
                    let sets: Vec<SignatureSet<'_>> = pks
                        .iter()
                        .zip(&msgs)
                        .zip(&sigs)
                        .map(|((k, m), s)| SignatureSet { public_key: *k, message: m, signature: *s })
                        .collect();
                    batch_verify(&sets).is_ok()
                }
                _ => false,
            };
            check(got, expected)
        }
        "deserialization_G1" => {
            let expected = output.as_bool().expect("bool output");
            // A valid G1 point: a valid key, or the identity (which KeyValidate
            // refuses only after the encoding checks passed).
            let got = match PublicKey::from_bytes(&hex(&input["pubkey"])) {
                Ok(_) | Err(BlsError::Identity { .. }) => true,
                Err(_) => false,
            };
            check(got, expected)
        }
        "deserialization_G2" => {
            let expected = output.as_bool().expect("bool output");
            check(Signature::from_bytes(&hex(&input["signature"])).is_ok(), expected)
        }
        "hash_to_G2" => {
            let msg = input["msg"].as_str().expect("msg string");
            let coords = hash_to_g2_coordinates(msg.as_bytes(), QUUX_DST);
            let fmt = |a: &[u8; 48], b: &[u8; 48]| format!("0x{},0x{}", hex::encode(a), hex::encode(b));
            let x = fmt(&coords[0], &coords[1]);
            let y = fmt(&coords[2], &coords[3]);
            if output["x"].as_str() == Some(x.as_str()) && output["y"].as_str() == Some(y.as_str()) {
                Ok(())
            } else {
                Err(format!("hash_to_G2 gave x={x} y={y}"))
            }
        }
        other => Err(format!("unknown handler {other}")),
    }
}

fn check(got: bool, expected: bool) -> Result<(), String> {
    if got == expected { Ok(()) } else { Err(format!("got {got}, expected {expected}")) }
}

#[test]
fn all_ethereum_bls_vectors_pass() {
    let dir = vectors_dir();
    let mut total = 0;
    let mut failures = Vec::new();
    for (handler, expected_count) in HANDLERS {
        let hdir = dir.join(handler);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&hdir)
            .unwrap_or_else(|e| panic!("missing handler directory {}: {e}", hdir.display()))
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort();
        assert_eq!(files.len(), expected_count, "{handler}: number of cases");
        for f in files {
            let text = std::fs::read_to_string(&f).expect("readable vector");
            let docs = YamlLoader::load_from_str(&text).expect("valid YAML");
            assert_eq!(docs.len(), 1, "{}: one document", f.display());
            if let Err(e) = run_case(handler, &docs[0]) {
                failures.push(format!("{}: {e}", f.display()));
            }
            total += 1;
        }
    }
    assert!(failures.is_empty(), "{} failing vectors:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(total, 104, "every vector of the README ran");
    eprintln!("{total} Ethereum BLS vectors passed");
}

/// The repository's copy equals the shared folder, file for file, whenever
/// the shared folder is present (it is on development machines).
#[test]
fn vendored_vectors_match_shared_folder() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors/bls");
    let Ok(handlers) = std::fs::read_dir(&shared) else { return };
    for handler in handlers {
        let path = handler.expect("dir entry").path();
        let ours = vectors_dir().join(path.file_name().expect("name"));
        if path.is_dir() {
            for file in std::fs::read_dir(&path).expect("readable") {
                let file = file.expect("dir entry").path();
                let copy = ours.join(file.file_name().expect("name"));
                assert_eq!(std::fs::read(&file).unwrap(), std::fs::read(&copy).unwrap(), "{}", file.display());
            }
        } else {
            assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&ours).unwrap(), "{}", path.display());
        }
    }
}
