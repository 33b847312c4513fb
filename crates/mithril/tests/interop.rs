//! sigagg-mithril against mithril-stm 0.13.0: the same inputs give the same
//! bytes, and each side accepts what the other makes.

mod common;

use common::{D, IkmRng, World, ikm, ours_from_theirs, stm_params, their_vk, theirs_from_ours};
use mithril_stm_013 as stm;
use sigagg_mithril::{
    AggregateSignature, AggregateVerificationKey, Clerk, ConcatenationProof, Parameters, RegistrationEntry,
    SignedEntry, SigningKey, SingleSignature, VerificationKeyPop,
};

const MSG: &[u8] = b"mithril: epoch 612, immutable file 4211, digest 5a1e...";

#[test]
fn keys_and_proofs_of_possession_are_mithril_bytes() {
    let params = Parameters { m: 10, k: 3, phi_f: 0.2 };
    for i in 0..8 {
        let ours = SigningKey::from_key_material(&ikm(7, i)).unwrap();
        let init = stm::Initializer::new(stm_params(&params), 1, &mut IkmRng::new(ikm(7, i)));
        assert_eq!(ours.to_bytes(), init.bls_signing_key.to_canonical_bytes(), "signing key {i}");
        let their_pop = init.get_verification_key_proof_of_possession_for_concatenation();
        let vk_pop = ours.verification_key_pop();
        assert_eq!(vk_pop.to_bytes(), their_pop.to_canonical_bytes(), "vk and pop {i}");
        assert_eq!(vk_pop.to_json(), serde_json::to_string(&their_pop).unwrap(), "JSON {i}");
        // Each side reads and accepts the other's.
        VerificationKeyPop::from_bytes(&their_pop.to_canonical_bytes()).unwrap().verify().unwrap();
        VerificationKeyPop::from_json(&serde_json::to_string(&their_pop).unwrap()).unwrap().verify().unwrap();
        let back =
            stm::VerificationKeyProofOfPossessionForConcatenation::from_canonical_bytes(&vk_pop.to_bytes()).unwrap();
        stm::KeyRegistration::initialize().register(1, &back).unwrap();
    }
}

#[test]
fn registration_order_and_aggregate_key_are_mithril_bytes() {
    // Equal stakes (ordered by key bytes), zero stake, large stakes.
    let stakes = [5u64, 1, 5, 0, 1 << 40, 5, 3, 1, 1 << 40, 2];
    let params = Parameters { m: 100, k: 10, phi_f: 0.2 };
    let w = World::new(1, params, &stakes);
    assert_eq!(w.ours.entries().len(), stakes.len());
    for (i, e) in w.ours.entries().iter().enumerate() {
        let theirs = w.theirs.get_registration_entry_for_index(&(i as u64)).unwrap();
        assert_eq!(e.vk.to_bytes(), theirs.get_verification_key_for_concatenation().to_canonical_bytes(), "entry {i}");
        assert_eq!(e.stake, theirs.get_stake(), "entry {i}");
        // (mithril-stm keeps this entry's `to_bytes` private; the signed
        // entries of a certificate, compared below, embed it.)
        assert_eq!(RegistrationEntry::from_bytes(&e.to_bytes()).unwrap(), *e);
    }
    assert!(w.ours.entries().windows(2).all(|p| p[0] < p[1]));
    let their_avk = w.their_avk();
    let their_avk = their_avk.to_concatenation_aggregate_verification_key();
    let avk = w.avk();
    assert_eq!(avk.total_stake, stakes.iter().sum::<u64>());
    assert_eq!(avk.to_bytes(), their_avk.to_bytes().unwrap());
    assert_eq!(avk.to_json(), serde_json::to_string(their_avk).unwrap());
    assert_eq!(AggregateVerificationKey::from_bytes(&their_avk.to_bytes().unwrap()).unwrap(), avk);
    assert_eq!(AggregateVerificationKey::from_json(&avk.to_json()).unwrap(), avk);
    // One party: the root is its leaf hash.
    let one = World::new(2, params, &[9]);
    assert_eq!(one.avk().root, one.ours.entries()[0].leaf_hash());
    assert_eq!(one.avk().to_bytes(), one.their_avk().to_concatenation_aggregate_verification_key().to_bytes().unwrap());
}

#[test]
fn parameters_are_mithril_bytes() {
    for p in [
        Parameters { m: 16948, k: 1944, phi_f: 0.2 },
        Parameters { m: 20973, k: 2422, phi_f: 0.2 },
        Parameters { m: 10, k: 5, phi_f: 0.5 },
        Parameters { m: 0, k: u64::MAX, phi_f: 0.65 },
        Parameters { m: 24, k: 23, phi_f: 1.0 },
    ] {
        let theirs = stm_params(&p);
        assert_eq!(p.to_bytes(), theirs.to_bytes().unwrap(), "{p:?}");
        assert_eq!(p.to_json(), serde_json::to_string(&theirs).unwrap());
        assert_eq!(Parameters::from_bytes(&theirs.to_bytes().unwrap()).unwrap(), p);
        assert_eq!(stm::Parameters::from_bytes(&p.to_bytes()).unwrap(), theirs);
    }
    // mithril-stm's own golden: m = 20973, k = 2422, phi_f = 0.2 is 27 bytes.
    assert_eq!(Parameters { m: 20973, k: 2422, phi_f: 0.2 }.to_bytes().len(), 27);
}

#[test]
fn single_signatures_are_mithril_bytes_and_verify_both_ways() {
    let stakes: Vec<u64> = (1..=12).map(|i| i * 1000 + (i % 3)).collect();
    let params = Parameters { m: 300, k: 40, phi_f: 0.2 };
    let w = World::new(3, params, &stakes);
    let (ours, theirs) = w.sign_all(MSG);
    assert!(ours.len() >= 8, "most parties win something at m = 300");
    let avk = w.avk();
    let their_avk = w.their_avk();
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a.to_bytes(), b.to_bytes().unwrap(), "signer {}", a.signer_index);
        assert_eq!(a.to_json(), serde_json::to_string(b).unwrap());
        assert_eq!(SingleSignature::from_json(&a.to_json()).unwrap(), *a);
        let e = w.ours.entry(a.signer_index).unwrap();
        // Theirs verifies here, ours there.
        ours_from_theirs(b).verify(&params, &e.vk, e.stake, &avk, MSG).unwrap();
        let i = w.keys.iter().position(|k| k.verification_key() == e.vk).unwrap();
        theirs_from_ours(a).verify::<D>(&stm_params(&params), &their_vk(&w, i), &e.stake, &their_avk, MSG).unwrap();
        // The signature on the root-extended message is the same point.
        assert_eq!(a.sigma.to_bytes(), b.get_concatenation_signature_sigma().to_canonical_bytes());
    }
}

/// Builds a certificate on both sides from the same signatures (in
/// `order`), compares bytes and JSON, and checks each verifies on the other side.
fn certificate_round(
    w: &World,
    ours: &[SingleSignature],
    theirs: &[stm::SingleSignature],
    msg: &[u8],
) -> ConcatenationProof {
    let clerk = Clerk::new(w.params, w.ours.clone());
    let proof = clerk.aggregate(ours, msg).unwrap();
    let their_cert = w.their_aggregate(theirs, msg).unwrap();
    let cert = AggregateSignature::Concatenation(proof.clone());
    assert_eq!(cert.to_bytes(), their_cert.to_bytes().unwrap(), "certificate bytes");
    let their_proof = their_cert.to_concatenation_proof().unwrap();
    assert_eq!(proof.to_bytes(), their_proof.to_bytes().unwrap(), "proof bytes");
    assert_eq!(cert.to_json(), serde_json::to_string(&their_cert).unwrap(), "JSON");
    // Theirs verifies here (bytes and JSON), ours there.
    let from_theirs = AggregateSignature::from_bytes(&their_cert.to_bytes().unwrap()).unwrap();
    from_theirs.verify(msg, &w.avk(), &w.params).unwrap();
    AggregateSignature::from_json(&serde_json::to_string(&their_cert).unwrap())
        .unwrap()
        .verify(msg, &w.avk(), &w.params)
        .unwrap();
    w.their_verify_bytes(&cert.to_bytes(), msg).unwrap();
    let back: stm::AggregateSignature<D> = serde_json::from_str(&cert.to_json()).unwrap();
    back.verify(msg, &w.their_avk(), &stm_params(&w.params), None, None).unwrap();
    assert_eq!(from_theirs, cert);
    proof
}

#[test]
fn certificates_are_mithril_bytes_and_verify_both_ways() {
    let cases: [(u64, Parameters, Vec<u64>); 4] = [
        (10, Parameters { m: 200, k: 30, phi_f: 0.2 }, (0..20).map(|i| 10 + i * i).collect()),
        // High phi_f: many signers claim the same indices, the clerk settles them.
        (11, Parameters { m: 60, k: 40, phi_f: 0.9 }, vec![3; 9]),
        (12, Parameters { m: 120, k: 5, phi_f: 0.65 }, vec![1, 1, 1, 1, 1, 100, 1000]),
        (13, Parameters { m: 50, k: 1, phi_f: 0.5 }, vec![7]),
    ];
    for (seed, params, stakes) in cases {
        let w = World::new(seed, params, &stakes);
        let (ours, theirs) = w.sign_all(MSG);
        let proof = certificate_round(&w, &ours, &theirs, MSG);
        let total: usize = proof.signatures.iter().map(|s| s.sig.indexes.len()).sum();
        assert!(total as u64 >= params.k);
        // Another submission order gives the same certificate on both sides.
        let (mut ours_r, mut theirs_r) = (ours.clone(), theirs.clone());
        ours_r.reverse();
        theirs_r.reverse();
        let again = certificate_round(&w, &ours_r, &theirs_r, MSG);
        assert_eq!(again, proof, "seed {seed}");
    }
}

#[test]
fn clerk_settles_conflicts_as_mithril_does() {
    // phi_f = 0.9 with equal stakes: most indices are claimed by several
    // signers; k at the full count forces every settled index to be used.
    let params = Parameters { m: 40, k: 1, phi_f: 0.9 };
    let w = World::new(20, params, &[1; 6]);
    let (ours, theirs) = w.sign_all(MSG);
    let claims: usize = ours.iter().map(|s| s.indexes.len()).sum();
    let mut distinct: Vec<u64> = ours.iter().flat_map(|s| s.indexes.clone()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let won = distinct.len() as u64;
    assert!(claims as u64 > won + 20, "conflicts expected");
    // One index more than exist: both clerks refuse.
    let short = World::new(20, Parameters { k: won + 1, ..params }, &[1; 6]);
    let err = Clerk::new(short.params, short.ours.clone()).aggregate(&ours, MSG).unwrap_err();
    assert_eq!(err, sigagg_mithril::MithrilError::NotEnoughSignatures { got: won, k: won + 1 });
    assert!(short.their_aggregate(&theirs, MSG).is_err());
    for k in [1u64, 10, won / 2, won - 1, won] {
        let w2 = World::new(20, Parameters { k, ..params }, &[1; 6]);
        let proof = certificate_round(&w2, &ours, &theirs, MSG);
        let mut all: Vec<u64> = proof.signatures.iter().flat_map(|s| s.sig.indexes.clone()).collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "indices distinct after settling");
        // Each kept index belongs to the smallest σ among its claimants.
        for s in &proof.signatures {
            for i in &s.sig.indexes {
                let best = ours.iter().filter(|o| o.indexes.contains(i)).map(|o| o.sigma).min().unwrap();
                assert_eq!(best, s.sig.sigma);
            }
        }
    }
}

#[test]
fn golden_certificate_of_mithril_stm_0_13() {
    // mithril-stm's own golden scenario: two parties of stake 1, m = 10,
    // k = 5, phi_f = 0.8, message [0; 16], keys from ChaCha20Rng::from_seed([0; 32])
    // (the first two 32-byte blocks of its keystream, the RFC 7539 block of the zero key).
    let stream = hex::decode(
        "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7\
         da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
    )
    .unwrap();
    let keys: Vec<SigningKey> =
        (0..2).map(|i| SigningKey::from_key_material(&stream[32 * i..32 * i + 32]).unwrap()).collect();
    assert_eq!(hex::encode(&keys[0].verification_key().to_bytes()[..3]), "8fa1ff");
    assert_eq!(hex::encode(&keys[1].verification_key().to_bytes()[..3]), "9138af");
    let params = Parameters { m: 10, k: 5, phi_f: 0.8 };
    let mut reg = sigagg_mithril::KeyRegistration::new();
    for k in &keys {
        reg.register(1, &k.verification_key_pop()).unwrap();
    }
    let closed = reg.close().unwrap();
    let avk = closed.aggregate_verification_key();
    assert_eq!(hex::encode(&avk.root[..4]), "38255f6b");
    assert_eq!(hex::encode(&avk.root[30..]), "eb9f");
    let msg = [0u8; 16];
    let sigs: Vec<SingleSignature> = keys
        .iter()
        .map(|k| sigagg_mithril::Signer::new(k.clone(), 1, &closed, params).unwrap().sign(&msg).unwrap())
        .collect();
    // Signer 1 also wins 4 and 5, which the clerk gives to signer 0 (smaller σ).
    assert_eq!(sigs[0].indexes, vec![1, 4, 5, 8]);
    assert_eq!(sigs[1].indexes, vec![0, 3, 4, 5, 6]);
    assert_eq!(sigs[0].sigma.to_bytes()[..4], [149, 157, 201, 187]);
    assert_eq!(sigs[1].sigma.to_bytes()[..4], [149, 169, 22, 201]);
    let proof = Clerk::new(params, closed).aggregate(&sigs, &msg).unwrap();
    assert_eq!(proof.signatures[0].sig.indexes, vec![1, 4, 5, 8]);
    assert_eq!(proof.signatures[1].sig.indexes, vec![0, 3, 6]);
    assert!(proof.batch_path.values.is_empty());
    assert_eq!(proof.batch_path.indices, vec![0, 1]);
    let cert = AggregateSignature::Concatenation(proof.clone());
    let bytes = cert.to_bytes();
    assert_eq!(bytes.len(), 3007);
    assert_eq!(proof.to_bytes().len(), 2974);
    // The golden's first bytes: 01 a2 "signature_type" 00 "proof_bytes" 59 0b9e 01 a2 ...
    assert_eq!(&bytes[..2], &[1, 162]);
    assert_eq!(&bytes[30..36], &[89, 11, 158, 1, 162, 111]);
    cert.verify(&msg, &avk, &params).unwrap();
    // And mithril-stm reads and accepts it.
    let theirs = stm::AggregateSignature::<D>::from_bytes(&bytes).unwrap();
    assert_eq!(theirs.to_bytes().unwrap(), bytes);
}

#[test]
fn signed_entries_and_batch_paths_are_mithril_bytes() {
    let params = Parameters { m: 150, k: 20, phi_f: 0.3 };
    let w = World::new(30, params, &(1..=13).collect::<Vec<u64>>());
    let (ours, theirs) = w.sign_all(MSG);
    let cert = w.their_aggregate(&theirs, MSG).unwrap();
    let their_proof = cert.to_concatenation_proof().unwrap();
    let proof = Clerk::new(params, w.ours.clone()).aggregate(&ours, MSG).unwrap();
    let their_json: serde_json::Value = serde_json::from_str(&serde_json::to_string(their_proof).unwrap()).unwrap();
    assert_eq!(their_json["signatures"].as_array().unwrap().len(), proof.signatures.len());
    for (i, s) in proof.signatures.iter().enumerate() {
        let their_entry: stm::SingleSignatureWithRegisteredParty =
            serde_json::from_value(their_json["signatures"][i].clone()).unwrap();
        assert_eq!(s.to_bytes(), their_entry.to_bytes().unwrap());
        assert_eq!(SignedEntry::from_bytes(&their_entry.to_bytes().unwrap()).unwrap(), *s);
    }
    assert_eq!(proof.batch_path.to_bytes(), their_proof.batch_proof.to_bytes().unwrap());
    assert!(!proof.batch_path.values.is_empty(), "a sparse batch has sibling values");
}

#[test]
fn mainnet_parameters_give_the_same_certificate() {
    // k = 1944, m = 16948, phi_f = 0.2 with 12 parties of unequal stake: every
    // party runs the lottery on all 16 948 indices, on both sides.
    let params = Parameters { m: 16948, k: 1944, phi_f: 0.2 };
    let stakes: Vec<u64> = (0..12).map(|i| 1_000_000_000 + i * 97_000_123).collect();
    let w = World::new(40, params, &stakes);
    let t = std::time::Instant::now();
    let ours: Vec<SingleSignature> = (0..stakes.len()).map(|i| w.signer(i).sign(MSG).unwrap()).collect();
    let our_time = t.elapsed();
    let t = std::time::Instant::now();
    let theirs: Vec<stm::SingleSignature> =
        (0..stakes.len()).map(|i| w.their_signer(i).create_single_signature(MSG).unwrap()).collect();
    let their_time = t.elapsed();
    eprintln!("12 signatures at m = 16948: sigagg {our_time:?}, mithril-stm {their_time:?}");
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a.to_bytes(), b.to_bytes().unwrap());
    }
    let proof = certificate_round(&w, &ours, &theirs, MSG);
    let total: usize = proof.signatures.iter().map(|s| s.sig.indexes.len()).sum();
    assert!(total >= 1944);
}
