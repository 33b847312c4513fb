//! Bounded mutation tests of every decoder of untrusted bytes in the
//! byte-level API (issue 40, item 9).
//!
//! Each test makes a few real, valid objects through the API, then feeds a
//! fixed, deterministic set of mutants of each ([`mutants`]: single bit
//! flips at a spread of positions, truncations, extensions, runs
//! overwritten with `0x00` and `0xff`) to the functions that decode it.
//! Two properties are checked for every mutant:
//!
//! 1. **No panic**, whatever the bytes: the bindings run every call through
//!    `guarded`, but a panic there is still a bug (an `Internal` error).
//! 2. **No mutated object is accepted** for the original statement: the
//!    call fails with a typed kind that fits (a decoding or verification
//!    failure), or, where the mutant legitimately decodes to another valid
//!    object (a key, a committee key), verification against the original
//!    statement still fails. Decoders with no statement to check (secret
//!    keys) may decode a mutant, but must not panic or misreport.
//!
//! Proofs use the insecure `test` settings and XMSS keys the insecure
//! `test` set where the operation allows it, so the whole file runs in
//! seconds in release mode (`cargo test --release --test mutation`).
//! Horn wire messages are not part of the byte-level API: their mutation
//! test is `crates/horn/tests/mutation.rs`. The cargo-fuzz targets of
//! every decoder are in `fuzz/` (nightly; fuzz/README.md).

use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use sigagg_bytes::{
    AggregateStatement, ErrorKind, ProofSettings, Result, Scheme, Signer, StatefulKey, ThresholdStatement, aggregate,
    atms, bls, cert, group, lamport, lean, prove_threshold, verify_aggregate, verify_threshold, xmss,
};

use ErrorKind::{Argument, Decode, Prove, Verify};
use sigagg_testkit::mutants;

/// The kinds a refused mutant of a verified object may have.
const REFUSED: &[ErrorKind] = &[Decode, Verify];

/// Why an `Ok` of a mutant is not acceptable, or `None` if it is.
type WhyNot<'a, T> = &'a dyn Fn(&T) -> Option<String>;

/// Failures found so far, reported together at the end of a test.
#[derive(Default)]
struct Findings(Vec<String>);

impl Findings {
    /// Runs `call` on every mutant of `original` (the object `decoder`
    /// decodes): it must not panic, and must fail with one of `kinds`.
    /// `accepted_ok` decides whether an `Ok` is acceptable (it returns why
    /// not, if not); `None` refuses every `Ok`.
    fn check<T: Debug>(
        &mut self,
        decoder: &str,
        original: &[u8],
        kinds: &[ErrorKind],
        call: impl Fn(&[u8]) -> Result<T>,
        accepted_ok: Option<WhyNot<'_, T>>,
    ) {
        for (label, mutant) in mutants(original) {
            match catch_unwind(AssertUnwindSafe(|| call(&mutant))) {
                Err(payload) => {
                    let what = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic".into());
                    self.0.push(format!("{decoder}: {label}: PANIC: {what}"));
                }
                Ok(Err(e)) if !kinds.contains(&e.kind()) => {
                    self.0.push(format!("{decoder}: {label}: kind {:?}, expected one of {kinds:?}: {e}", e.kind()));
                }
                Ok(Err(_)) => {}
                Ok(Ok(value)) => match accepted_ok {
                    None => self.0.push(format!("{decoder}: {label}: ACCEPTED: {value:?}")),
                    Some(why_not) => {
                        if let Some(reason) = why_not(&value) {
                            self.0.push(format!("{decoder}: {label}: {reason}"));
                        }
                    }
                },
            }
        }
    }

    /// Every mutant must be refused with one of `kinds`.
    fn refused<T: Debug>(
        &mut self,
        decoder: &str,
        original: &[u8],
        kinds: &[ErrorKind],
        call: impl Fn(&[u8]) -> Result<T>,
    ) {
        self.check(decoder, original, kinds, call, None);
    }

    /// Mutants may decode (no statement to check), but must not panic, and
    /// a failure must have one of `kinds`.
    fn decoded_or_refused<T: Debug>(
        &mut self,
        decoder: &str,
        original: &[u8],
        kinds: &[ErrorKind],
        call: impl Fn(&[u8]) -> Result<T>,
    ) {
        self.check(decoder, original, kinds, call, Some(&|_: &T| None));
    }

    fn assert_none(self) {
        assert!(self.0.is_empty(), "{} mutation failures:\n{}", self.0.len(), self.0.join("\n"));
    }
}

fn refs<T: AsRef<[u8]>>(v: &[T]) -> Vec<&[u8]> {
    v.iter().map(AsRef::as_ref).collect()
}

/// BLS public keys, signatures, proofs of possession and secret keys.
#[test]
fn bls_keys_signatures_and_proofs_of_possession() {
    let (sk, pk) = bls::keygen(Some(&[1; 32])).unwrap();
    let (sk2, pk2) = bls::keygen(Some(&[2; 32])).unwrap();
    let msg = b"message";
    let sig = bls::sign(&*sk, msg).unwrap();
    let pop = bls::prove_possession(&*sk).unwrap();
    let pop2 = bls::prove_possession(&*sk2).unwrap();
    let agg = bls::aggregate(&[&sig, &bls::sign(&*sk2, msg).unwrap()]).unwrap();
    bls::verify(&pk, msg, &sig).unwrap();
    bls::verify_possession(&pk, &pop).unwrap();
    bls::fast_aggregate_verify(&[&pk, &pk2], Some(&[&pop, &pop2]), msg, &agg).unwrap();

    let mut f = Findings::default();
    f.refused("BLS public key (verify)", &pk, REFUSED, |m| bls::verify(m, msg, &sig));
    f.refused("BLS public key (verify_possession)", &pk, REFUSED, |m| bls::verify_possession(m, &pop));
    f.refused("BLS public key (fast_aggregate_verify)", &pk, REFUSED, |m| {
        bls::fast_aggregate_verify(&[m, &pk2], Some(&[&pop, &pop2]), msg, &agg)
    });
    f.refused("BLS signature (verify)", &sig, REFUSED, |m| bls::verify(&pk, msg, m));
    f.refused("BLS aggregate signature (fast_aggregate_verify)", &agg, REFUSED, |m| {
        bls::fast_aggregate_verify(&[&pk, &pk2], None, msg, m)
    });
    f.refused("BLS signature (aggregate_verify)", &agg, REFUSED, |m| {
        bls::aggregate_verify(&[&pk, &pk2], Some(&[&pop, &pop2]), &[msg, msg], m)
    });
    f.refused("BLS proof of possession", &pop, REFUSED, |m| bls::verify_possession(&pk, m));
    f.refused("BLS proof of possession (fast_aggregate_verify)", &pop, REFUSED, |m| {
        bls::fast_aggregate_verify(&[&pk, &pk2], Some(&[m, &pop2]), msg, &agg)
    });
    // A mutated signature may be a valid point: aggregating it is fine.
    f.decoded_or_refused("BLS signature (aggregate)", &sig, &[Decode], |m| bls::aggregate(&[m]));
    // Another scalar is another valid key: only the refusal's kind is checked.
    f.decoded_or_refused("BLS secret key (public_key)", &*sk, &[Decode], bls::public_key);
    f.decoded_or_refused("BLS secret key (sign)", &*sk, &[Decode], |m| bls::sign(m, msg));
    f.assert_none();
}

/// ATMS aggregate keys and signatures.
#[test]
fn atms_aggregate_keys_and_signatures() {
    let pairs: Vec<_> = (1..=4u8).map(|i| bls::keygen(Some(&[i; 32])).unwrap()).collect();
    let pks: Vec<[u8; 48]> = pairs.iter().map(|(_, pk)| *pk).collect();
    let pops: Vec<[u8; 96]> = pairs.iter().map(|(sk, _)| bls::prove_possession(&**sk).unwrap()).collect();
    let (pks, pops) = (refs(&pks), refs(&pops));
    let avk = atms::aggregate_key(&pks, &pops).unwrap();
    let msg = b"m";
    let signing = [0usize, 2];
    let sigs: Vec<[u8; 96]> = signing.iter().map(|&i| bls::sign(&*pairs[i].0, msg).unwrap()).collect();
    let signature = atms::sign(2, msg, &pks, &[0, 2], &refs(&sigs)).unwrap();
    atms::check(&pks, &pops, &avk).unwrap();
    atms::verify(2, msg, &avk, &signature).unwrap();

    let mut f = Findings::default();
    f.refused("ATMS aggregate key (verify)", &avk, REFUSED, |m| atms::verify(2, msg, m, &signature));
    f.refused("ATMS aggregate key (check)", &avk, REFUSED, |m| atms::check(&pks, &pops, m));
    f.refused("ATMS signature (two non-signers)", &signature, REFUSED, |m| atms::verify(2, msg, &avk, m));
    f.assert_none();
}

/// Setup files (ceremony and development), committees, committee keys,
/// certificates and signer bitfields of succinct BLS certificates.
#[test]
fn certificates_committees_and_setups() {
    let sks: Vec<[u8; 32]> = (1..=4u8).map(|i| *bls::keygen(Some(&[i; 32])).unwrap().0).collect();
    let pks: Vec<[u8; 48]> = sks.iter().map(|sk| bls::public_key(sk).unwrap()).collect();
    let pops: Vec<[u8; 96]> = sks.iter().map(|sk| bls::prove_possession(sk).unwrap()).collect();
    let (pks, pops) = (refs(&pks), refs(&pops));
    let setup = cert::contribute(&cert::ceremony_start(4).unwrap(), &[7; 64]).unwrap();
    let dev = cert::development_setup(4).unwrap();
    let weights: &[u64] = &[5, 6, 7, 8];
    let files = cert::committee(&setup, &pks, &pops, Some(weights)).unwrap();
    let msg = b"checkpoint";
    let signing = [0u32, 2, 3];
    let sigs: Vec<[u8; 96]> = signing.iter().map(|&i| bls::sign(&sks[i as usize], msg).unwrap()).collect();
    let accountable = cert::certify(&setup, &files.committee, msg, &signing, &refs(&sigs), true).unwrap();
    let agg = bls::aggregate(&refs(&sigs)).unwrap();
    let bitfield = [0b1101u8];
    let counting = cert::certify_aggregate(&setup, &files.committee, msg, &bitfield, &agg, false).unwrap();
    let verify = |key: &[u8], certificate: &[u8]| cert::verify_certificate(key, certificate, msg, 3, Some(20), false);
    assert_eq!(cert::verify_ceremony(&setup).unwrap(), 1);
    for key in [&files.key, &files.committee] {
        verify(key, &accountable).unwrap();
        verify(key, &counting).unwrap();
    }

    let mut f = Findings::default();
    // Setup files carry a checksum: no mutant decodes.
    f.refused("setup (verify_ceremony)", &setup, REFUSED, cert::verify_ceremony);
    f.refused("setup (committee)", &setup, REFUSED, |m| cert::committee(m, &pks, &pops, Some(weights)));
    f.refused("development setup (committee)", &dev, REFUSED, |m| cert::committee(m, &pks, &pops, None));
    f.refused("setup (contribute)", &setup, REFUSED, |m| cert::contribute(m, &[9; 32]));
    // A mutated committee key or committee may decode to another valid
    // one; no certificate of the original statement verifies under it.
    f.refused("committee key", &files.key, REFUSED, |m| verify(m, &accountable));
    f.refused("committee key (counting certificate)", &files.key, REFUSED, |m| verify(m, &counting));
    // A committee file given as a verifier's key is decoded up to its
    // embedded committee key (`Committee::key_from_bytes`) and its length
    // checked: a mutant of the member keys, proofs of possession or weights
    // of the same length still stands for the original committee key and
    // verifies; a truncated or extended file, or any mutant of the header
    // or of the key itself, is refused.
    let key_end =
        files.committee.windows(files.key.len()).position(|w| w == files.key.as_slice()).unwrap() + files.key.len();
    let original = verify(&files.committee, &accountable).unwrap();
    let committee_as_key = |m: &[u8]| {
        let intact = m.len() == files.committee.len() && m[..key_end] == files.committee[..key_end];
        verify(m, &accountable).map(|info| (intact, info))
    };
    let same_key = |(intact, info): &(bool, cert::CertificateInfo)| {
        (!intact || *info != original)
            .then(|| format!("ACCEPTED with the embedded committee key or the file's length changed: {info:?}"))
    };
    f.check("committee (as a verifier's key)", &files.committee, REFUSED, committee_as_key, Some(&same_key));
    // A prover given a mutated committee must not certify for the original one.
    let not_original = |c: &Vec<u8>| {
        verify(&files.key, c).is_ok().then(|| "a mutated committee certified for the original committee".to_string())
    };
    f.check(
        "committee (certify)",
        &files.committee,
        &[Decode, Verify, Argument, Prove],
        |m| cert::certify(&setup, m, msg, &signing, &refs(&sigs), true),
        Some(&not_original),
    );
    f.refused("accountable certificate", &accountable, REFUSED, |m| verify(&files.key, m));
    f.refused("counting certificate", &counting, REFUSED, |m| verify(&files.key, m));
    // A signer bitfield that is not the aggregate's signers certifies nothing.
    f.refused("signer bitfield (certify_aggregate)", &bitfield, &[Argument, Prove], |m| {
        cert::certify_aggregate(&setup, &files.committee, msg, m, &agg, false)
    });
    f.assert_none();
}

/// XMSS public keys, signatures and stateful secret keys (insecure `test` set).
#[test]
fn xmss_keys_and_signatures() {
    let scheme = Scheme::Test;
    let (pk, sk) = xmss::keygen(scheme, 0, 64, Some(&[1; 32])).unwrap();
    let msg = [9u8; 32];
    let sig = sk.sign(3, &msg).unwrap();
    xmss::verify(scheme, &pk, 3, &msg, &sig).unwrap();
    let sk_bytes = sk.to_bytes().unwrap();

    let mut f = Findings::default();
    f.refused("XMSS public key", &pk, REFUSED, |m| xmss::verify(scheme, m, 3, &msg, &sig));
    f.refused("XMSS signature", &sig, REFUSED, |m| xmss::verify(scheme, &pk, 3, &msg, m));
    // A secret key's state (its next usable epoch) may decode to another
    // valid state: only panics and kinds are checked.
    f.decoded_or_refused("XMSS secret key", &sk_bytes, &[Decode], |m| xmss::XmssSecretKey::from_bytes(scheme, m));
    f.assert_none();
}

/// Lamport+ public keys, signatures and one-time secret keys, both sets.
#[test]
fn lamport_keys_and_signatures() {
    let mut f = Findings::default();
    for scheme in [Scheme::LamportPlus, Scheme::LamportPlusMined] {
        let (pk, sk) = lamport::keygen(scheme, Some(&[5; 32])).unwrap();
        let msg = b"block 1";
        let sig = sk.sign(msg).unwrap();
        lamport::verify(scheme, &pk, msg, &sig).unwrap();
        let sk_bytes = sk.to_bytes().unwrap();
        let name = scheme.name();
        f.refused(&format!("{name} public key"), &pk, REFUSED, |m| lamport::verify(scheme, m, msg, &sig));
        f.refused(&format!("{name} signature"), &sig, REFUSED, |m| lamport::verify(scheme, &pk, msg, m));
        f.decoded_or_refused(&format!("{name} secret key"), &sk_bytes, &[Decode], |m| {
            lamport::LamportSecretKey::from_bytes(scheme, m)
        });
    }
    f.assert_none();
}

const TEST: ProofSettings = ProofSettings::Test;
const EPOCH: u32 = 5;

/// `n` public keys of `scheme` with their signatures on `message(i)`.
fn signed(scheme: Scheme, n: u8, message: impl Fn(usize) -> Vec<u8>) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    (0..n)
        .map(|i| {
            let m = message(i as usize);
            if scheme == Scheme::Seed001 {
                let (pk, sk) = xmss::keygen(scheme, 0, 1, Some(&[i + 1; 32])).unwrap();
                (pk, sk.sign(EPOCH, &m).unwrap())
            } else {
                let (pk, sk) = lamport::keygen(scheme, Some(&[i + 1; 32])).unwrap();
                (pk, sk.sign(&m).unwrap())
            }
        })
        .unzip()
}

/// Aggregate proofs (and the statement's public keys) of `scheme`.
fn aggregate_proofs(scheme: Scheme) {
    let seed001 = scheme == Scheme::Seed001;
    let message = |i: usize| if seed001 { vec![0x42; 32] } else { format!("block {i}").into_bytes() };
    let (pks, sigs) = signed(scheme, 3, message);
    let msgs: Vec<Vec<u8>> = if seed001 { vec![message(0)] } else { (0..3).map(message).collect() };
    let epochs: &[u32] = if seed001 { &[EPOCH] } else { &[] };
    let (pk_refs, msg_refs) = (refs(&pks), refs(&msgs));
    let statement = AggregateStatement { public_keys: &pk_refs, messages: &msg_refs, epochs };
    let proof = aggregate(scheme, TEST, &statement, &refs(&sigs)).unwrap();
    verify_aggregate(scheme, TEST, &statement, &proof).unwrap();

    let mut f = Findings::default();
    let name = scheme.name();
    f.refused(&format!("{name} aggregate proof"), &proof, REFUSED, |m| verify_aggregate(scheme, TEST, &statement, m));
    f.refused(&format!("{name} aggregate statement public key"), &pks[1], REFUSED, |m| {
        let keys = [pk_refs[0], m, pk_refs[2]];
        verify_aggregate(scheme, TEST, &AggregateStatement { public_keys: &keys, ..statement }, &proof)
    });
    f.assert_none();
}

#[test]
fn seed001_aggregate_proofs() {
    aggregate_proofs(Scheme::Seed001);
}

#[test]
fn lamport_aggregate_proofs() {
    aggregate_proofs(Scheme::LamportPlus);
}

/// leanSpec's container `AggregatedSignatureProof` (`lean::verify`), its
/// bare `proof_data` (`lean::verify_aggregated_signatures`) and a key of
/// the statement, for two leanSig production signatures (one-leaf keys:
/// LeanSigProd is the only set leanSpec's API takes).
#[test]
fn leansig_containers_and_proof_data() {
    use rand::SeedableRng;
    use sigagg_xmss::{LeanSigProd, single_epoch_key_and_signature};

    let settings = ProofSettings::TestWhirSkip;
    let message = [0x42u8; 32];
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let (pks, sigs): (Vec<Vec<u8>>, Vec<Vec<u8>>) = (0..2)
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<LeanSigProd, _>(&mut rng, EPOCH, &message).unwrap();
            (pk.to_bytes(), sig.to_bytes())
        })
        .unzip();
    let pk_refs = refs(&pks);
    let container = lean::aggregate(settings, None, &pk_refs, &refs(&sigs), &message, EPOCH).unwrap();
    lean::verify(settings, &container, &pk_refs, &message, EPOCH).unwrap();
    let proof_data = &container[9..]; // after the two offsets and the one-byte bitlist
    lean::verify_aggregated_signatures(settings, &pk_refs, &message, proof_data, EPOCH).unwrap();

    let mut f = Findings::default();
    f.refused("leanSpec AggregatedSignatureProof", &container, REFUSED, |m| {
        lean::verify(settings, m, &pk_refs, &message, EPOCH)
    });
    f.refused("leanSpec proof_data", proof_data, REFUSED, |m| {
        lean::verify_aggregated_signatures(settings, &pk_refs, &message, m, EPOCH)
    });
    f.refused("leanSpec statement public key", &pks[1], REFUSED, |m| {
        lean::verify(settings, &container, &[pk_refs[0], m], &message, EPOCH)
    });
    f.assert_none();
}

/// Threshold proofs, group keys and membership paths of `scheme`.
fn threshold_proofs(scheme: Scheme) {
    let message = vec![0x17; 32];
    let (pks, sigs) = signed(scheme, 4, |_| message.clone());
    let g = group(scheme, &refs(&pks)).unwrap();
    let epoch = (scheme == Scheme::Seed001).then_some(EPOCH);
    let signing = [3usize, 0, 2];
    let signers: Vec<Signer<'_>> =
        signing.iter().map(|&i| Signer { public_key: &pks[i], signature: &sigs[i], path: &g.paths[i] }).collect();
    let statement = ThresholdStatement { group_key: &g.key, threshold: 2, message: &message, epoch };
    let proof = prove_threshold(scheme, TEST, &statement, &signers, true).unwrap();
    verify_threshold(scheme, TEST, &statement, &proof).unwrap();

    let mut f = Findings::default();
    let name = scheme.name();
    f.refused(&format!("{name} threshold proof"), &proof, REFUSED, |m| verify_threshold(scheme, TEST, &statement, m));
    // `sigagg_lamport::GroupKey::from_bytes` takes any size; a size past the
    // maximum depth is refused by the statement, as an argument error.
    let group_key_kinds = if scheme == Scheme::Seed001 { REFUSED } else { &[Decode, Verify, Argument] };
    f.refused(&format!("{name} group key"), &g.key, group_key_kinds, |m| {
        verify_threshold(scheme, TEST, &ThresholdStatement { group_key: m, ..statement }, &proof)
    });
    // A mutated membership path proves nothing: the witness is refused
    // before any proving starts.
    f.refused(&format!("{name} membership path"), &g.paths[3], &[Decode, Prove], |m| {
        let witness = [Signer { path: m, ..signers[0] }, signers[1]];
        prove_threshold(scheme, TEST, &statement, &witness, false)
    });
    f.assert_none();
}

#[test]
fn seed001_threshold_proofs_group_keys_and_paths() {
    threshold_proofs(Scheme::Seed001);
}

#[test]
fn lamport_threshold_proofs_group_keys_and_paths() {
    threshold_proofs(Scheme::LamportPlusMined);
}

/// Merged proofs (`merge::verify_merged`), at depth 2 so that mutants
/// reach a merged child's header and claims: two Seed001 aggregates
/// merged, that proof merged beside a third aggregate.
#[test]
fn merged_proofs_at_depth_two() {
    use sigagg_bytes::merge::{self, CHILD_SETTINGS, MergeStatement};

    let message = vec![0x42u8; 32];
    let (pks, sigs) = signed(Scheme::Seed001, 3, |_| message.clone());
    let child = |i: usize| {
        let keys = [&pks[i][..]];
        let statement = AggregateStatement { public_keys: &keys, messages: &[&message], epochs: &[EPOCH] };
        aggregate(Scheme::Seed001, CHILD_SETTINGS, &statement, &[&sigs[i][..]]).unwrap()
    };
    let (a, b, c) = (child(0), child(1), child(2));
    let pk_refs = refs(&pks);
    let messages = [&message[..]];
    let statement = |keys| MergeStatement {
        scheme: Scheme::Seed001,
        public_keys: keys,
        messages: &messages,
        epochs: &[EPOCH],
        committees: &[],
    };
    let inner = merge::merge(CHILD_SETTINGS, &statement(&pk_refs[..2]), &[&a, &b]).unwrap();
    let root = merge::merge(CHILD_SETTINGS, &statement(&pk_refs), &[&inner, &c]).unwrap();
    merge::verify_merged(CHILD_SETTINGS, &statement(&pk_refs), &root).unwrap();

    let mut f = Findings::default();
    f.refused("merged proof (depth 2)", &root, REFUSED, |m| {
        merge::verify_merged(CHILD_SETTINGS, &statement(&pk_refs), m)
    });
    f.assert_none();
}
