//! Writes the seed corpus: one real object per decoder into
//! `corpus/<target>/` (next to this crate's Cargo.toml, or under the
//! directory given as the first argument), prefixed with its selector
//! byte for the targets that cover several decoders. Deterministic: the
//! same objects every run (`fixtures`).
//!
//! After `cargo +nightly fuzz build`, from `fuzz/`:
//! `../target/x86_64-unknown-linux-gnu/release/seeds [DIR] [FAMILY]` (under
//! `$CARGO_TARGET_DIR` if set), where `FAMILY` (one of `bls`, `hash`, `cert`,
//! `horn`, `proofs`, `mithril`) writes only that family's seeds.

// Linked for its sanitizer-coverage callbacks only: `cargo fuzz build`
// instruments every binary of this crate, this one included.
extern crate libfuzzer_sys;

use std::fs;
use std::path::PathBuf;

use sigagg_fuzz::fixtures;
use sigagg_horn::wire;

fn main() {
    let root = std::env::args()
        .nth(1)
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus"));
    let family = std::env::args().nth(2);
    let want = |f: &str| family.as_deref().is_none_or(|x| x == f);
    let write = |target: &str, selector: Option<u8>, name: &str, bytes: &[u8]| {
        let dir = root.join(target);
        fs::create_dir_all(&dir).unwrap();
        let mut data = selector.map(|s| vec![s]).unwrap_or_default();
        data.extend_from_slice(bytes);
        fs::write(dir.join(format!("seed-{name}")), &data).unwrap();
        println!("{target}/seed-{name}: {} bytes", data.len());
    };

    if want("bls") {
        bls_seeds(&write);
    }
    if want("hash") {
        hash_seeds(&write);
    }
    if want("cert") {
        cert_seeds(&write);
    }
    if want("horn") {
        horn_seeds(&write);
    }
    if want("proofs") {
        proof_seeds(&write);
    }
    if want("mithril") {
        mithril_seeds(&write);
    }
}

/// Writes `bytes`, prefixed with `selector` if any, to `corpus/<target>/seed-<name>`.
type Write<'a> = dyn Fn(&str, Option<u8>, &str, &[u8]) + 'a;

fn bls_seeds(write: &Write<'_>) {
    let b = fixtures::bls();
    for (s, name, bytes) in [
        (0, "public-key", &b.public_key),
        (1, "signature", &b.signature),
        (2, "pop", &b.pop),
        (3, "secret-key", &b.secret_key),
    ] {
        write("decode_bls", Some(s), name, bytes);
    }
    write("decode_atms", Some(0), "aggregate-key", &b.atms_key);
    write("decode_atms", Some(1), "signature", &b.atms_signature);
    for (s, name, bytes) in [
        (0, "verification-key", &b.msp_verification_key),
        (1, "signature", &b.msp_signature),
        (2, "pop", &b.msp_pop),
        (3, "signing-key", &b.msp_signing_key),
    ] {
        write("decode_msp", Some(s), name, bytes);
    }
    for (s, name, bytes) in [
        (0, "signature", &b.signature),
        (1, "public-key", &b.public_key),
        (2, "pop", &b.pop),
        (3, "atms-signature", &b.atms_signature),
        (4, "atms-key", &b.atms_key),
    ] {
        write("verify_bls", Some(s), name, bytes);
    }
}

fn hash_seeds(write: &Write<'_>) {
    let h = fixtures::hash_sigs();
    let [pk, sig, sk] = &h.xmss_test;
    write("decode_xmss", Some(0), "test-public-key", pk);
    write("decode_xmss", Some(1), "test-signature", sig);
    write("decode_xmss", Some(2), "test-secret-key", sk);
    write("decode_xmss", Some(3), "seed001-public-key", &h.xmss_seed001[0]);
    write("decode_xmss", Some(4), "seed001-signature", &h.xmss_seed001[1]);
    let participants = sigagg_xmss::Participants::from_indices(&[0, 3, 9, 100]).expect("within the limit");
    let container = sigagg_xmss::AggregatedSignatureProof::new(participants.clone(), h.xmss_seed001[1].clone())
        .expect("within the limit");
    write("decode_lean_aggregate", Some(0), "container", &container.to_bytes());
    write("decode_lean_aggregate", Some(1), "participants", &participants.to_bytes());
    for (set, [pk, sig, sk]) in ["plain", "mined"].iter().zip(&h.lamport) {
        let base = if *set == "plain" { 0 } else { 3 };
        write("decode_lamport", Some(base), &format!("{set}-public-key"), pk);
        write("decode_lamport", Some(base + 1), &format!("{set}-signature"), sig);
        write("decode_lamport", Some(base + 2), &format!("{set}-secret-key"), sk);
    }
}

fn cert_seeds(write: &Write<'_>) {
    let c = fixtures::cert();
    write("decode_certificate", None, "accountable", &c.accountable);
    write("decode_certificate", None, "counting", &c.counting);
    write("verify_certificate", None, "accountable", &c.accountable);
    write("verify_certificate", None, "counting", &c.counting);
    write("decode_committee_key", None, "weighted", &c.committee_key);
    write("decode_committee", Some(0), "weighted", &c.committee);
    write("decode_committee", Some(1), "weighted-as-key", &c.committee);
    write("decode_setup", Some(0), "ceremony", &c.setup);
    write("decode_setup", Some(1), "ceremony-checksum-fixed", &c.setup);
    write("decode_setup", Some(0), "development", &c.development_setup);
}

fn horn_seeds(write: &Write<'_>) {
    let round = fixtures::horn();
    let aggregate = round.aggregates[0].to_bytes();
    let collection = round.collections[0].to_bytes();
    let multiplicity = round.multiplicities[0].to_bytes();
    write("decode_horn_wire", Some(0), "subcommittee-aggregate", &aggregate);
    write("decode_horn_wire", Some(1), "collection", &collection);
    write("decode_horn_wire", Some(2), "multiplicity-aggregate", &multiplicity);
    write("decode_horn_wire", Some(3), "compressed-collection", &wire::compress(&collection));
    write("verify_horn", Some(0), "subcommittee-aggregate", &aggregate);
    write("verify_horn", Some(1), "collection", &collection);
    write("verify_horn", Some(2), "multiplicity-aggregate", &multiplicity);
}

fn proof_seeds(write: &Write<'_>) {
    let xa = fixtures::xmss_aggregate();
    write("decode_xmss_aggregate_proof", None, "three", &xa.proof);
    write("verify_xmss_aggregate", None, "three", &xa.proof);
    let la = fixtures::lamport_aggregate();
    write("decode_lamport_aggregate_proof", None, "three", &la.proof);
    write("verify_lamport_aggregate", None, "three", &la.proof);
    let xt = fixtures::xmss_threshold();
    write("decode_xmss_threshold_proof", None, "three-of-four", &xt.proof);
    let lean = fixtures::lean_proofs();
    write("decode_xmss_aggregate_proof", None, "leansig-three", &lean.aggregate);
    write("decode_xmss_threshold_proof", None, "leansig-three-of-four", &lean.threshold);
    write("verify_xmss_threshold", None, "three-of-four", &xt.proof);
    write("decode_group", Some(0), "xmss-group-key", &xt.group_key);
    write("decode_group", Some(1), "xmss-path", &xt.paths[1]);
    let lt = fixtures::lamport_threshold();
    write("decode_lamport_threshold_proof", None, "three-of-four", &lt.proof);
    write("verify_lamport_threshold", None, "three-of-four", &lt.proof);
    write("decode_group", Some(2), "lamport-group-key", &lt.group_key);
    write("decode_group", Some(3), "lamport-path", &lt.paths[1]);
}

/// A small Mithril STM world (four parties, k = 3 of m = 20, phi_f = 0.5):
/// every encoding `decode_mithril` reads, from one certificate.
fn mithril_seeds(write: &Write<'_>) {
    use sigagg_mithril::{AggregateSignature, Clerk, KeyRegistration, Parameters, Signer, SigningKey};
    let params = Parameters { m: 20, k: 3, phi_f: 0.5 };
    let stakes = [40u64, 30, 20, 10];
    let keys: Vec<SigningKey> =
        (0..stakes.len()).map(|i| SigningKey::from_key_material(&[0x5a ^ i as u8; 32]).unwrap()).collect();
    let mut registration = KeyRegistration::new();
    for (key, &stake) in keys.iter().zip(&stakes) {
        registration.register(stake, &key.verification_key_pop()).unwrap();
    }
    let closed = registration.close().unwrap();
    let msg = b"fuzz seed";
    let sigs: Vec<_> = keys
        .iter()
        .zip(&stakes)
        .filter_map(|(key, &stake)| Signer::new(key.clone(), stake, &closed, params).unwrap().sign(msg).ok())
        .collect();
    let avk = closed.aggregate_verification_key();
    let proof = Clerk::new(params, closed).aggregate(&sigs, msg).unwrap();
    let certificate = AggregateSignature::Concatenation(proof.clone());
    write("decode_mithril", Some(0), "parameters", &params.to_bytes());
    write("decode_mithril", Some(1), "key-pop", &keys[0].verification_key_pop().to_bytes());
    write("decode_mithril", Some(3), "avk", &avk.to_bytes());
    write("decode_mithril", Some(4), "single-signature", &sigs[0].to_bytes());
    write("decode_mithril", Some(7), "concatenation-proof", &proof.to_bytes());
    write("decode_mithril", Some(8), "certificate", &certificate.to_bytes());
    write("decode_mithril", Some(9), "certificate-json", certificate.to_json().as_bytes());
}
