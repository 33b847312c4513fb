//! Tampered certificates, signatures and encodings: every change that
//! mithril-stm 0.13.0 refuses is refused here with a typed error (and a few
//! that it lets through, documented in the crate docs, are refused too).

mod common;

use common::{D, World, stm_params, their_vk, theirs_from_ours};
use sigagg_mithril::{
    AggregateSignature, AggregateVerificationKey, BatchPath, Clerk, ConcatenationProof, DecodeError, MithrilError,
    Parameters, SignedEntry, SigningKey, SingleSignature, VerificationKeyPop,
};

const MSG: &[u8] = b"certificate of epoch 9";

struct Setup {
    w: World,
    sigs: Vec<SingleSignature>,
    proof: ConcatenationProof,
}

fn setup(phi_f: f64, m: u64, k: u64) -> Setup {
    let w = World::new(77, Parameters { m, k, phi_f }, &[4, 9, 1, 16, 25, 36, 2, 3, 5, 7, 11, 13]);
    let (sigs, theirs) = w.sign_all(MSG);
    let proof = Clerk::new(w.params, w.ours.clone()).aggregate(&sigs, MSG).unwrap();
    let cert = AggregateSignature::Concatenation(proof.clone());
    assert_eq!(cert.to_bytes(), w.their_aggregate(&theirs, MSG).unwrap().to_bytes().unwrap());
    Setup { w, sigs, proof }
}

impl Setup {
    /// Verifies a tampered proof on both sides; returns (ours, theirs).
    fn check(
        &self,
        proof: &ConcatenationProof,
        msg: &[u8],
        params: &Parameters,
    ) -> (Result<(), MithrilError>, Result<(), String>) {
        let ours = proof.verify(msg, &self.w.avk(), params);
        let bytes = AggregateSignature::Concatenation(proof.clone()).to_bytes();
        let theirs =
            mithril_stm_013::AggregateSignature::<D>::from_bytes(&bytes).map_err(|e| format!("{e:#}")).and_then(|s| {
                s.verify(msg, &self.w.their_avk(), &stm_params(params), None, None).map_err(|e| format!("{e:#}"))
            });
        (ours, theirs)
    }

    fn both_refuse(&self, proof: &ConcatenationProof, expected: fn(&MithrilError) -> bool, what: &str) {
        let (ours, theirs) = self.check(proof, MSG, &self.w.params);
        let err = ours.expect_err(what);
        assert!(expected(&err), "{what}: got {err:?}");
        assert!(theirs.is_err(), "{what}: mithril-stm accepts");
    }

    /// An index in 0..m that signature `i` of the proof did not win.
    fn unwon_index(&self, i: usize) -> u64 {
        let s = &self.proof.signatures[i];
        let won = self.sigs.iter().find(|x| x.signer_index == s.sig.signer_index).unwrap();
        (0..self.w.params.m).find(|j| !won.indexes.contains(j)).unwrap()
    }
}

#[test]
fn honest_certificate_verifies() {
    let s = setup(0.4, 150, 25);
    let (ours, theirs) = s.check(&s.proof, MSG, &s.w.params);
    ours.unwrap();
    theirs.unwrap();
    assert!(s.proof.signatures.len() >= 2);
}

#[test]
fn index_not_won_is_refused() {
    let s = setup(0.4, 150, 25);
    let mut p = s.proof.clone();
    let j = s.unwon_index(0);
    p.signatures[0].sig.indexes.push(j);
    s.both_refuse(
        &p,
        |e| *e == MithrilError::LotteryLost(0) || matches!(e, MithrilError::LotteryLost(_)),
        "unwon index",
    );
    // The single signature alone, too.
    let mut sig = p.signatures[0].sig.clone();
    sig.indexes = vec![j];
    let e = p.signatures[0].entry;
    assert_eq!(sig.verify(&s.w.params, &e.vk, e.stake, &s.w.avk(), MSG), Err(MithrilError::LotteryLost(j)));
    let i = s.w.keys.iter().position(|k| k.verification_key() == e.vk).unwrap();
    assert!(
        theirs_from_ours(&sig)
            .verify::<D>(&stm_params(&s.w.params), &their_vk(&s.w, i), &e.stake, &s.w.their_avk(), MSG)
            .is_err()
    );
}

#[test]
fn repeated_indices_are_refused() {
    let s = setup(0.4, 150, 25);
    // Within one signature.
    let mut p = s.proof.clone();
    let first = p.signatures[0].sig.indexes[0];
    p.signatures[0].sig.indexes.push(first);
    s.both_refuse(&p, |e| *e == MithrilError::IndexNotUnique, "index twice in one signature");
    // The same signer twice.
    let mut p = s.proof.clone();
    p.signatures.push(p.signatures[0].clone());
    s.both_refuse(&p, |e| *e == MithrilError::IndexNotUnique, "signer twice");
    // An index two signers won, given back to the one the clerk took it from.
    let mut p = s.proof.clone();
    let mut done = false;
    'outer: for a in 0..p.signatures.len() {
        let won = s.sigs.iter().find(|x| x.signer_index == p.signatures[a].sig.signer_index).unwrap().clone();
        for j in won.indexes {
            if !p.signatures[a].sig.indexes.contains(&j) && p.signatures.iter().any(|o| o.sig.indexes.contains(&j)) {
                p.signatures[a].sig.indexes.push(j);
                done = true;
                break 'outer;
            }
        }
    }
    assert!(done, "phi_f = 0.4 with 12 signers leaves a settled conflict");
    s.both_refuse(&p, |e| *e == MithrilError::IndexNotUnique, "index won by two signers, claimed by both");
}

#[test]
fn indices_at_or_above_m_are_refused() {
    let s = setup(0.4, 150, 25);
    let m = s.w.params.m;
    let mut p = s.proof.clone();
    p.signatures[0].sig.indexes.push(m + 5);
    s.both_refuse(&p, |e| matches!(e, MithrilError::IndexOutOfBound { index: 155, m: 150 }), "index above m");
    // Index m exactly: refused here (mithril-stm checks `index > m` and
    // accepts m if it wins the lottery; an honest signer never claims it).
    let mut p = s.proof.clone();
    p.signatures[0].sig.indexes.push(m);
    let (ours, _) = s.check(&p, MSG, &s.w.params);
    assert_eq!(ours, Err(MithrilError::IndexOutOfBound { index: m, m }));
    // phi_f = 1: every index wins, so index m passes mithril-stm's lottery too.
    let w = World::new(5, Parameters { m: 6, k: 3, phi_f: 1.0 }, &[1, 2]);
    let mut sig = w.signer(0).sign(MSG).unwrap();
    sig.indexes.push(6);
    let e = w.ours.entry(sig.signer_index).unwrap();
    assert_eq!(
        sig.verify(&w.params, &e.vk, e.stake, &w.avk(), MSG),
        Err(MithrilError::IndexOutOfBound { index: 6, m: 6 })
    );
    let i = w.keys.iter().position(|k| k.verification_key() == e.vk).unwrap();
    assert!(
        theirs_from_ours(&sig)
            .verify::<D>(&stm_params(&w.params), &their_vk(&w, i), &e.stake, &w.their_avk(), MSG)
            .is_ok(),
        "mithril-stm 0.13 accepts index = m"
    );
}

#[test]
fn another_message_is_refused() {
    let s = setup(0.4, 150, 25);
    let (ours, theirs) = s.check(&s.proof, b"another message", &s.w.params);
    assert!(ours.is_err() && theirs.is_err());
    // With phi_f = 1 every index wins whatever σ is, so a σ on another
    // message reaches the MSP.B check and fails there.
    let w = World::new(6, Parameters { m: 8, k: 8, phi_f: 1.0 }, &[1, 2, 3]);
    let (sigs, _) = w.sign_all(MSG);
    let mut p = Clerk::new(w.params, w.ours.clone()).aggregate(&sigs, MSG).unwrap();
    let i = w.keys.iter().position(|k| k.verification_key() == p.signatures[0].entry.vk).unwrap();
    p.signatures[0].sig.sigma = w.signer(i).sign(b"another message").unwrap().sigma;
    assert_eq!(p.verify(MSG, &w.avk(), &w.params), Err(MithrilError::AggregateInvalid));
    assert!(w.their_verify_bytes(&AggregateSignature::Concatenation(p.clone()).to_bytes(), MSG).is_err());
    // A single signature checked against another message.
    let sig = &sigs[0];
    let e = w.ours.entry(sig.signer_index).unwrap();
    assert_eq!(
        sig.verify(&w.params, &e.vk, e.stake, &w.avk(), b"another message"),
        Err(MithrilError::SignatureInvalid)
    );
    let j = w.keys.iter().position(|k| k.verification_key() == e.vk).unwrap();
    assert!(
        theirs_from_ours(sig)
            .verify::<D>(&stm_params(&w.params), &their_vk(&w, j), &e.stake, &w.their_avk(), b"another message")
            .is_err()
    );
}

#[test]
fn signers_outside_the_registration_are_refused() {
    let s = setup(0.4, 150, 25);
    // The clerk: an unknown signer index aborts on both sides.
    let mut sigs = s.sigs.clone();
    sigs[0].signer_index = 99;
    let err = Clerk::new(s.w.params, s.w.ours.clone()).aggregate(&sigs, MSG).unwrap_err();
    assert_eq!(err, MithrilError::UnregisteredIndex(99));
    let theirs: Vec<_> = sigs.iter().map(theirs_from_ours).collect();
    assert!(s.w.their_aggregate(&theirs, MSG).is_err());
    // A certificate entry for a key that is not registered (same stake, its own σ).
    let outsider = SigningKey::from_key_material(&[0x42; 32]).unwrap();
    let mut p = s.proof.clone();
    let stake = p.signatures[0].entry.stake;
    p.signatures[0].entry.vk = outsider.verification_key();
    s.both_refuse(&p, |e| matches!(e, MithrilError::BatchPathInvalid | MithrilError::LotteryLost(_)), "outsider key");
    // The outsider cannot make a signer either.
    assert_eq!(
        sigagg_mithril::Signer::new(outsider, stake, &s.w.ours, s.w.params).unwrap_err(),
        MithrilError::NotRegistered
    );
}

#[test]
fn wrong_stakes_are_refused() {
    let s = setup(0.4, 150, 25);
    for delta in [1i64, -1, 1000] {
        let mut p = s.proof.clone();
        let e = &mut p.signatures[1].entry;
        e.stake = (e.stake as i64 + delta) as u64;
        s.both_refuse(
            &p,
            |e| {
                matches!(
                    e,
                    MithrilError::BatchPathInvalid
                        | MithrilError::LotteryLost(_)
                        | MithrilError::StakeAboveTotal { .. }
                )
            },
            "stake",
        );
    }
    // A stake above the total is refused before the lottery (mithril-stm
    // spends about a minute on its series first).
    let mut p = s.proof.clone();
    p.signatures[1].entry.stake += 1 << 40;
    let t = std::time::Instant::now();
    assert!(matches!(p.verify(MSG, &s.w.avk(), &s.w.params), Err(MithrilError::StakeAboveTotal { .. })));
    assert!(t.elapsed().as_secs() < 5);
}

#[test]
fn tampered_merkle_paths_are_refused() {
    let s = setup(0.4, 150, 25);
    assert!(!s.proof.batch_path.values.is_empty());
    let bad = |e: &MithrilError| *e == MithrilError::BatchPathInvalid;
    let mut p = s.proof.clone();
    p.batch_path.values[0][7] ^= 1;
    s.both_refuse(&p, bad, "flipped value");
    let mut p = s.proof.clone();
    p.batch_path.values.pop();
    s.both_refuse(&p, bad, "missing value");
    let mut p = s.proof.clone();
    p.batch_path.indices.swap(0, 1);
    s.both_refuse(&p, bad, "unsorted indices");
    let mut p = s.proof.clone();
    p.batch_path.indices[0] += 1;
    if p.batch_path.indices[0] != p.batch_path.indices[1] {
        s.both_refuse(&p, bad, "shifted index");
    }
    let mut p = s.proof.clone();
    p.batch_path.indices.pop();
    s.both_refuse(&p, bad, "one index fewer");
    // Stricter than mithril-stm: an unused extra value, and a signer index
    // that is not its leaf.
    let mut p = s.proof.clone();
    p.batch_path.values.push([0; 32]);
    let (ours, theirs) = s.check(&p, MSG, &s.w.params);
    assert_eq!(ours, Err(MithrilError::BatchPathInvalid));
    assert!(theirs.is_ok(), "mithril-stm ignores unused values");
    let mut p = s.proof.clone();
    p.signatures[0].sig.signer_index += 1;
    let (ours, theirs) = s.check(&p, MSG, &s.w.params);
    assert_eq!(ours, Err(MithrilError::SignerIndexMismatch));
    assert!(theirs.is_ok(), "mithril-stm does not look at signer_index");
}

#[test]
fn fewer_than_k_indices_are_refused() {
    let s = setup(0.4, 150, 25);
    let total: u64 = s.proof.signatures.iter().map(|x| x.sig.indexes.len() as u64).sum();
    let params = Parameters { k: total + 1, ..s.w.params };
    let (ours, theirs) = s.check(&s.proof, MSG, &params);
    assert_eq!(ours, Err(MithrilError::NotEnoughSignatures { got: total, k: total + 1 }));
    assert!(theirs.is_err());
    // Dropping indices below k.
    let mut p = s.proof.clone();
    for x in &mut p.signatures {
        x.sig.indexes.truncate(1);
    }
    if (p.signatures.len() as u64) < s.w.params.k {
        s.both_refuse(&p, |e| matches!(e, MithrilError::NotEnoughSignatures { .. }), "too few indices");
    }
    // An empty certificate.
    let empty = ConcatenationProof { signatures: vec![], batch_path: BatchPath { values: vec![], indices: vec![] } };
    s.both_refuse(&empty, |e| matches!(e, MithrilError::NotEnoughSignatures { got: 0, .. }), "empty");
}

/// Mutants of `bytes`: our verdict must be an error wherever mithril-stm's is.
fn mutants_agree(
    name: &str,
    bytes: &[u8],
    ours: impl Fn(&[u8]) -> Result<(), MithrilError>,
    theirs: impl Fn(&[u8]) -> bool,
    ours_refuse_all: bool,
) {
    ours(bytes).unwrap_or_else(|e| panic!("{name}: the original is refused: {e:?}"));
    assert!(theirs(bytes), "{name}: mithril-stm refuses the original");
    let mut refused = 0;
    for (label, m) in sigagg_testkit::mutants(bytes) {
        let o = ours(&m);
        // mithril-stm's legacy decoders can panic on malformed bytes (an
        // integer overflow in debug builds): that counts as a refusal.
        let accepted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| theirs(&m))).unwrap_or(false);
        if !accepted {
            assert!(o.is_err(), "{name}, {label}: mithril-stm refuses, sigagg accepts");
        }
        if ours_refuse_all {
            assert!(o.is_err(), "{name}, {label}: accepted");
        }
        refused += o.is_err() as usize;
    }
    assert!(refused > 0, "{name}: no mutant refused");
}

/// Mutants of a pure encoding: whatever is read re-encodes to exactly the
/// bytes read; the rest is a decoding (or point) error.
fn reads_canonically(name: &str, bytes: &[u8], decode: impl Fn(&[u8]) -> Result<Vec<u8>, MithrilError>) {
    assert_eq!(decode(bytes).unwrap(), bytes, "{name}");
    let mut refused = 0;
    for (label, m) in sigagg_testkit::mutants(bytes) {
        match decode(&m) {
            Ok(again) => assert_eq!(again, m, "{name}, {label}: read but not canonical"),
            Err(MithrilError::Decode { .. } | MithrilError::Bls { .. }) => refused += 1,
            Err(other) => panic!("{name}, {label}: unexpected {other:?}"),
        }
    }
    assert!(refused > 0);
}

#[test]
fn byte_mutants_of_every_encoding_are_refused() {
    let s = setup(0.4, 150, 25);
    let w = &s.w;
    let avk = w.avk();
    // The certificate (outer envelope and inner proof): every mutant is refused here.
    let cert = AggregateSignature::Concatenation(s.proof.clone()).to_bytes();
    mutants_agree("certificate", &cert, |b| w.our_verify_bytes(b, MSG), |b| w.their_verify_bytes(b, MSG).is_ok(), true);
    let proof_bytes = s.proof.to_bytes();
    mutants_agree(
        "proof",
        &proof_bytes,
        |b| ConcatenationProof::from_bytes(b)?.verify(MSG, &avk, &w.params),
        |b| {
            // mithril-stm's ConcatenationProof is not nameable: wrap the mutant
            // in its outer envelope the way 0.13 writes it.
            let mut env = vec![1u8, 0xa2, 0x6e];
            env.extend_from_slice(b"signature_type");
            env.extend_from_slice(&[0x00, 0x6b]);
            env.extend_from_slice(b"proof_bytes");
            env.push(0x5a);
            env.extend_from_slice(&(b.len() as u32).to_be_bytes());
            env.extend_from_slice(b);
            w.their_verify_bytes(&env, MSG).is_ok()
        },
        true,
    );
    // A single signature: checked with its signer's key and stake.
    let sig = &s.sigs[0];
    let e = *w.ours.entry(sig.signer_index).unwrap();
    let i = w.keys.iter().position(|k| k.verification_key() == e.vk).unwrap();
    mutants_agree(
        "single signature",
        &sig.to_bytes(),
        |b| SingleSignature::from_bytes(b)?.verify(&w.params, &e.vk, e.stake, &avk, MSG),
        |b| {
            mithril_stm_013::SingleSignature::from_bytes::<D>(b)
                .and_then(|x| x.verify::<D>(&stm_params(&w.params), &their_vk(w, i), &e.stake, &w.their_avk(), MSG))
                .is_ok()
        },
        false,
    );
    // A signed entry: decoding, then the signature checked against the entry it carries.
    let signed = s.proof.signatures[0].clone();
    mutants_agree(
        "signed entry",
        &signed.to_bytes(),
        |b| {
            let x = SignedEntry::from_bytes(b)?;
            if x.entry != signed.entry {
                return Err(MithrilError::BatchPathInvalid);
            }
            x.sig.verify(&w.params, &x.entry.vk, x.entry.stake, &avk, MSG)
        },
        |b| mithril_stm_013::SingleSignatureWithRegisteredParty::from_bytes::<D>(b).is_ok(),
        false,
    );
    // Key with proof of possession (raw 192 bytes): decoding and registration.
    let vk_pop = w.keys[0].verification_key_pop().to_bytes();
    mutants_agree(
        "key and proof of possession",
        &vk_pop,
        |b| VerificationKeyPop::from_bytes(b)?.verify(),
        |b| {
            mithril_stm_013::VerificationKeyProofOfPossessionForConcatenation::from_canonical_bytes(b)
                .and_then(|k| mithril_stm_013::KeyRegistration::initialize().register(1, &k))
                .is_ok()
        },
        false,
    );
    // Pure encodings: whatever is read re-encodes to exactly the bytes read.
    reads_canonically("parameters", &w.params.to_bytes(), |b| Parameters::from_bytes(b).map(|x| x.to_bytes()));
    reads_canonically("avk", &avk.to_bytes(), |b| AggregateVerificationKey::from_bytes(b).map(|x| x.to_bytes()));
    reads_canonically("batch path", &s.proof.batch_path.to_bytes(), |b| BatchPath::from_bytes(b).map(|x| x.to_bytes()));
    reads_canonically("single signature", &sig.to_bytes(), |b| SingleSignature::from_bytes(b).map(|x| x.to_bytes()));
    reads_canonically("certificate", &cert, |b| AggregateSignature::from_bytes(b).map(|x| x.to_bytes()));
}

#[test]
fn decoding_errors_are_typed() {
    let s = setup(0.4, 150, 25);
    let cert = AggregateSignature::Concatenation(s.proof.clone()).to_bytes();
    let what = |r: Result<AggregateSignature, MithrilError>| match r {
        Err(MithrilError::Decode { reason, .. }) => reason,
        other => panic!("expected a decoding error, got {other:?}"),
    };
    assert_eq!(what(AggregateSignature::from_bytes(&[])), DecodeError::Version(None));
    assert_eq!(what(AggregateSignature::from_bytes(&cert[1..])), DecodeError::Version(Some(cert[1])));
    assert!(matches!(what(AggregateSignature::from_bytes(&cert[..cert.len() - 1])), DecodeError::Cbor(_)));
    assert_eq!(what(AggregateSignature::from_bytes(&[&cert[..], &[0]].concat())), DecodeError::NotCanonical);
    // The 0.12 form (proof_bytes as an array of integers) is not read.
    let proof = s.proof.to_bytes();
    let mut v012 = vec![1u8, 0xa2, 0x6e];
    v012.extend_from_slice(b"signature_type");
    v012.extend_from_slice(&[0x00, 0x6b]);
    v012.extend_from_slice(b"proof_bytes");
    v012.push(0x99);
    v012.extend_from_slice(&(proof.len() as u16).to_be_bytes());
    for b in &proof {
        if *b < 24 { v012.push(*b) } else { v012.extend_from_slice(&[0x18, *b]) }
    }
    assert!(mithril_stm_013::AggregateSignature::<D>::from_bytes(&v012).is_ok(), "mithril-stm reads 0.12's form");
    assert!(AggregateSignature::from_bytes(&v012).is_err());
    // JSON: malformed text and points off the curve.
    assert!(matches!(
        ConcatenationProof::from_json("{"),
        Err(MithrilError::Decode { reason: DecodeError::Json(_), .. })
    ));
    let json = s.proof.to_json().replacen("\"sigma\":[1", "\"sigma\":[0", 1);
    if json != s.proof.to_json() {
        assert!(ConcatenationProof::from_json(&json).is_err());
    }
}

#[test]
fn registration_refusals_match_mithril_stm() {
    use common::{IkmRng, ikm};
    use mithril_stm_013 as stm;
    let params = Parameters { m: 10, k: 2, phi_f: 0.2 };
    let keys: Vec<SigningKey> = (0..3).map(|i| SigningKey::from_key_material(&ikm(9, i)).unwrap()).collect();
    let theirs: Vec<_> = (0..3)
        .map(|i| {
            stm::Initializer::new(stm_params(&params), 1, &mut IkmRng::new(ikm(9, i)))
                .get_verification_key_proof_of_possession_for_concatenation()
        })
        .collect();
    // Another key's proof of possession (rebuilt from bytes: key 0, proof of key 1).
    let mixed = [&keys[0].verification_key().to_bytes()[..], &keys[1].proof_of_possession().to_bytes()[..]].concat();
    let ours_mixed = VerificationKeyPop::from_bytes(&mixed).unwrap();
    let mut reg = sigagg_mithril::KeyRegistration::new();
    assert_eq!(reg.register(1, &ours_mixed), Err(MithrilError::InvalidProofOfPossession));
    let their_mixed = stm::VerificationKeyProofOfPossessionForConcatenation::from_canonical_bytes(&mixed).unwrap();
    assert!(stm::KeyRegistration::initialize().register(1, &their_mixed).is_err());
    // k1 alone swapped (k2 right): refused on both sides too.
    let mut k1_swapped = keys[0].verification_key_pop().to_bytes();
    k1_swapped[96..144].copy_from_slice(&keys[1].proof_of_possession().to_bytes()[..48]);
    assert_eq!(
        sigagg_mithril::KeyRegistration::new().register(1, &VerificationKeyPop::from_bytes(&k1_swapped).unwrap()),
        Err(MithrilError::InvalidProofOfPossession)
    );
    let t = stm::VerificationKeyProofOfPossessionForConcatenation::from_canonical_bytes(&k1_swapped).unwrap();
    assert!(stm::KeyRegistration::initialize().register(1, &t).is_err());
    // The same key twice.
    reg.register(1, &keys[2].verification_key_pop()).unwrap();
    assert_eq!(reg.register(5, &keys[2].verification_key_pop()), Err(MithrilError::AlreadyRegistered));
    let mut their_reg = stm::KeyRegistration::initialize();
    their_reg.register(1, &theirs[2]).unwrap();
    assert!(their_reg.register(5, &theirs[2]).is_err());
    // Zero and overflowing totals.
    for (stakes, expected) in
        [([0u64, 0], MithrilError::ZeroTotalStake), ([u64::MAX, 1], MithrilError::TotalStakeOverflow)]
    {
        let mut reg = sigagg_mithril::KeyRegistration::new();
        let mut their_reg = stm::KeyRegistration::initialize();
        for i in 0..2 {
            reg.register(stakes[i], &keys[i].verification_key_pop()).unwrap();
            their_reg.register(stakes[i], &theirs[i]).unwrap();
        }
        assert_eq!(reg.close().unwrap_err(), expected);
        assert!(their_reg.close_registration(&stm_params(&params)).is_err());
    }
}

#[test]
fn a_repeated_submission_does_not_strip_its_signer() {
    // mithril-stm's clerk lets a second copy of a signature take every index
    // from the first (the copies are equal, and `<` keeps neither), leaving
    // the signer with none; sigagg drops the copy. With k at the number of
    // distinct indices, mithril-stm then falls short and sigagg does not.
    let w = World::new(31, Parameters { m: 60, k: 1, phi_f: 0.5 }, &[3, 5, 7, 11]);
    let (ours, theirs) = w.sign_all(MSG);
    let mut distinct: Vec<u64> = ours.iter().flat_map(|s| s.indexes.clone()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let w = World::new(31, Parameters { m: 60, k: distinct.len() as u64, phi_f: 0.5 }, &[3, 5, 7, 11]);
    let clerk = Clerk::new(w.params, w.ours.clone());
    let once = clerk.aggregate(&ours, MSG).unwrap();
    let twice = clerk.aggregate(&[&ours[..], &ours[..1]].concat(), MSG).unwrap();
    assert_eq!(once, twice);
    assert!(w.their_aggregate(&theirs, MSG).is_ok());
    assert!(w.their_aggregate(&[&theirs[..], &theirs[..1]].concat(), MSG).is_err());
}
