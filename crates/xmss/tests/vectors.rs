//! Known-answer vectors from the reference implementations (leanSig, hash-sig),
//! stored in `vectors/xmss/` (a copy of `../shared/vectors/xmss/`).
//!
//! For every key: the public key decodes to the listed field elements and is
//! reproduced byte for byte by our key generation from the same seeded RNG.
//! For every case: verification gives the expected answer; every valid
//! signature re-encodes to the same bytes, and re-signing with the
//! regenerated key yields the identical signature (signing is deterministic).

use std::path::{Path, PathBuf};

use p3_field::{Field, PrimeCharacteristicRing, PrimeField32};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::Value;
use sigagg_xmss::field::{F, FeArray};
use sigagg_xmss::hash::codeword;
use sigagg_xmss::{LeanSigProd, ParameterSet, PublicKey, SecretKey, Seed001, Signature, Test, keygen, verify};

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/xmss")
}

fn load(name: &str) -> Value {
    let path = vectors_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn hex_field(v: &Value, key: &str) -> Vec<u8> {
    hex::decode(v[key].as_str().unwrap_or_else(|| panic!("missing {key}"))).unwrap()
}

fn num(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("missing {key}"))
}

fn fes(v: &Value) -> Vec<u32> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

fn canon(x: &[F]) -> Vec<u32> {
    x.iter().map(|f| f.as_canonical_u32()).collect()
}

fn message(v: &Value) -> [u8; 32] {
    hex_field(v, "message").try_into().unwrap()
}

/// The seed of `"rand 0.x StdRng::seed_from_u64(N)"`.
fn seed_of(key: &Value) -> u64 {
    let s = key["rng"].as_str().unwrap();
    let inner = s.rsplit('(').next().unwrap().trim_end_matches(')');
    inner.parse().unwrap()
}

/// Regenerates a vector key from its seed and activation arguments.
fn regenerate<S: ParameterSet>(key: &Value) -> (PublicKey<S>, SecretKey<S>) {
    let mut rng = StdRng::seed_from_u64(seed_of(key));
    let (pk, sk) =
        keygen::<S, _>(&mut rng, num(key, "keygen_activation_epoch_arg"), num(key, "keygen_num_active_epochs_arg"))
            .unwrap();
    let interval = key["activation_interval"].as_array().unwrap();
    assert_eq!(sk.activation_interval(), interval[0].as_u64().unwrap()..interval[1].as_u64().unwrap());
    (pk, sk)
}

/// leanSig files: SSZ everywhere.
fn check_leansig<S: ParameterSet>(file: &str, reproduce_keys: bool) {
    let v = load(file);
    let keys = v["keys"].as_array().unwrap();
    let mut regenerated: Vec<Option<SecretKey<S>>> = Vec::new();
    for key in keys {
        let bytes = hex_field(key, "public_key_ssz");
        let pk = PublicKey::<S>::from_bytes(&bytes).unwrap();
        assert_eq!(pk.to_bytes(), bytes);
        let want = &key["public_key_fields_canonical"];
        assert_eq!(canon(pk.root.as_slice()), fes(&want["root"]));
        assert_eq!(canon(pk.parameter.as_slice()), fes(&want["parameter"]));
        if reproduce_keys {
            let (ours, sk) = regenerate::<S>(key);
            assert_eq!(ours.to_bytes(), bytes, "key generation differs from leanSig");
            regenerated.push(Some(sk));
        } else {
            regenerated.push(None);
        }
    }
    let mut checked = 0;
    for case in v["cases"].as_array().unwrap() {
        let pk = PublicKey::<S>::from_bytes(&hex_field(case, "public_key")).unwrap();
        let sig_bytes = hex_field(case, "signature");
        let epoch = num(case, "epoch") as u32;
        let msg = message(case);
        let expected = case["expected"].as_bool().unwrap();
        let result = Signature::<S>::from_bytes(&sig_bytes).map(|sig| verify(&pk, epoch, &msg, &sig));
        match &result {
            Ok(r) => assert_eq!(r.is_ok(), expected, "case {}: {r:?}", case["id"]),
            Err(e) => assert!(!expected, "case {} failed to decode: {e}", case["id"]),
        }
        if case["kind"] == "valid" {
            let sig = Signature::<S>::from_bytes(&sig_bytes).unwrap();
            assert_eq!(sig.to_bytes(), sig_bytes, "re-encoding differs");
            let digits = codeword::<S>(&pk.parameter, epoch, sig.rho(), &msg).unwrap();
            let want: Vec<u8> = fes(&case["internals"]["codeword_chunks"]).iter().map(|&d| d as u8).collect();
            assert_eq!(digits, want);
            let k = num(case, "key_index") as usize;
            if let Some(sk) = regenerated[k].as_mut() {
                assert!(sk.prepare_for(u64::from(epoch)));
                let ours = sk.sign(epoch, &msg).unwrap();
                assert_eq!(ours.to_bytes(), sig_bytes, "signing differs from leanSig");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 16);
}

#[test]
fn leansig_test_vectors() {
    check_leansig::<Test>("leansig-test.json", true);
}

/// Regenerating the production keys costs two bottom trees of 2^16 leaves
/// each per key; release mode makes that a few seconds.
#[test]
fn leansig_prod_vectors() {
    check_leansig::<LeanSigProd>("leansig-prod.json", !cfg!(debug_assertions));
}

// --- hash-sig: bincode (legacy config) with field elements in Montgomery form.

/// Canonical value of a Plonky3 Montgomery-form `u32`: `v * 2^-32 mod p`.
fn from_monty(v: u32) -> F {
    let r_inv = F::from_u64(1 << 32).inverse();
    F::from_u32(v) * r_inv
}

struct Bincode<'a>(&'a [u8]);

impl Bincode<'_> {
    fn u64(&mut self) -> u64 {
        let (head, rest) = self.0.split_at(8);
        self.0 = rest;
        u64::from_le_bytes(head.try_into().unwrap())
    }
    fn fes<T: FeArray>(&mut self) -> T {
        let (head, rest) = self.0.split_at(T::LEN * 4);
        self.0 = rest;
        T::generate(|i| from_monty(u32::from_le_bytes(head[4 * i..4 * i + 4].try_into().unwrap())))
    }
}

fn hashsig_public_key(bytes: &[u8]) -> PublicKey<Seed001> {
    assert_eq!(bytes.len(), 48);
    let mut r = Bincode(bytes);
    PublicKey { root: r.fes(), parameter: r.fes() }
}

fn hashsig_signature(bytes: &[u8]) -> Signature<Seed001> {
    assert_eq!(bytes.len(), 2784);
    let mut r = Bincode(bytes);
    let n = r.u64() as usize;
    let path = (0..n).map(|_| r.fes()).collect();
    let rho = r.fes();
    let m = r.u64() as usize;
    let hashes = (0..m).map(|_| r.fes()).collect();
    assert!(r.0.is_empty());
    Signature::from_parts(path, rho, hashes).unwrap()
}

#[test]
fn hashsig_lifetime20_w2_vectors() {
    let v = load("hashsig-lifetime20-w2.json");
    let mut regenerated = Vec::new();
    for key in v["keys"].as_array().unwrap() {
        let pk = hashsig_public_key(&hex_field(key, "public_key_bincode"));
        let want = &key["public_key_fields_canonical"];
        assert_eq!(canon(pk.root.as_slice()), fes(&want["root"]));
        assert_eq!(canon(pk.parameter.as_slice()), fes(&want["parameter"]));
        let (ours, sk) = regenerate::<Seed001>(key);
        assert_eq!(ours, pk, "key generation differs from hash-sig");
        regenerated.push(sk);
    }
    let mut checked = 0;
    for case in v["cases"].as_array().unwrap() {
        let pk = hashsig_public_key(&hex_field(case, "public_key"));
        let sig = hashsig_signature(&hex_field(case, "signature"));
        let epoch = num(case, "epoch") as u32;
        let msg = message(case);
        let expected = case["expected"].as_bool().unwrap();
        assert_eq!(verify(&pk, epoch, &msg, &sig).is_ok(), expected, "case {}", case["id"]);
        // Our SSZ form of the same values round-trips.
        let ssz = sig.to_bytes();
        assert_eq!(Signature::<Seed001>::from_bytes(&ssz).unwrap(), sig);
        assert_eq!(PublicKey::<Seed001>::from_bytes(&pk.to_bytes()).unwrap(), pk);
        if case["kind"] == "valid" {
            let want = &case["signature_fields_canonical"];
            assert_eq!(canon(sig.rho().as_slice()), fes(&want["rho"]));
            let sk = &mut regenerated[num(case, "key_index") as usize];
            assert!(sk.prepare_for(u64::from(epoch)));
            assert_eq!(sk.sign(epoch, &msg).unwrap(), sig, "signing differs from hash-sig");
        }
        checked += 1;
    }
    assert_eq!(checked, 16);
}

/// The repository's copy of the vectors must equal the shared folder's,
/// whenever that folder is present (it is on development machines).
#[test]
fn vendored_vectors_match_shared_folder() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors/xmss");
    let Ok(entries) = std::fs::read_dir(&shared) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        let ours = vectors_dir().join(path.file_name().unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&ours).unwrap(), "{}", path.display());
    }
}

#[test]
fn flipped_byte_is_rejected_by_decoding_or_verification() {
    let v = load("leansig-test.json");
    let case = &v["cases"][0];
    let mut bytes = hex_field(case, "signature");
    let pk = PublicKey::<Test>::from_bytes(&hex_field(case, "public_key")).unwrap();
    let msg = message(case);
    let epoch = num(case, "epoch") as u32;
    for i in 0..bytes.len() {
        bytes[i] ^= 0x40;
        let ok = Signature::<Test>::from_bytes(&bytes).is_ok_and(|s| verify(&pk, epoch, &msg, &s).is_ok());
        assert!(!ok, "flip at byte {i} accepted");
        bytes[i] ^= 0x40;
    }
}
