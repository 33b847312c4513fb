//! Aggregate proofs of leanSig-family signatures (issue 41): the small
//! `Test` set and `LeanSigProd`, from generated keys and from leanSig's own
//! known-answer signatures, with wrong statements, foreign proofs and
//! invalid signatures refused.

use std::path::Path;

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::Value;
use sigagg_xmss::{LeanSigProd, PublicKey, Signature, Test, single_epoch_key_and_signature};
use sigagg_xmss_agg::leansig::aggregate::{prove, verify};
use sigagg_xmss_agg::leansig::layout::LeanFamily;
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement, Proof, ProveError, Settings, VerifyError};

const SETTINGS: [Settings; 2] = [Settings::INSECURE_TEST, Settings::INSECURE_TEST_SKIP];

/// `n` entries signed at `epochs` (cycled); one shared message or one each.
fn batch<S: LeanFamily>(
    seed: u64,
    n: usize,
    shared: bool,
    epochs: &[u32],
) -> (AggregateStatement<S>, Vec<Signature<S>>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (entries, sigs) = (0..n)
        .map(|i| {
            let message = if shared { [seed as u8; 32] } else { [i as u8 ^ 0x5a; 32] };
            let epoch = epochs[i % epochs.len()];
            let (public_key, sig) = single_epoch_key_and_signature::<S, _>(&mut rng, epoch, &message).unwrap();
            (AggregateEntry { public_key, epoch, message }, sig)
        })
        .unzip();
    (AggregateStatement::from_entries(entries).unwrap(), sigs)
}

fn prove_and_check<S: LeanFamily>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    sigs: &[Signature<S>],
) -> Proof {
    let proof = prove(settings, statement, sigs).unwrap_or_else(|e| panic!("{}: {e}", S::NAME));
    let bytes = proof.to_bytes();
    assert!(bytes.starts_with(sigagg_xmss_agg::proof::TAGGED_PROOF_MAGIC));
    let decoded = Proof::from_bytes(&bytes).unwrap();
    assert_eq!((decoded.set, decoded.to_bytes()), (S::ID, bytes));
    verify(settings, statement, &decoded).unwrap_or_else(|e| panic!("{}: {e}", S::NAME));
    decoded
}

/// Statements one value away from the proven one are refused by the STARK.
fn wrong_statements_refused<S: LeanFamily>(settings: &Settings, statement: &AggregateStatement<S>, proof: &Proof) {
    let entries = statement.entries().to_vec();
    let last = entries.len() - 1;
    let mut variants = Vec::new();
    let mut e = entries.clone();
    e[last].message[0] ^= 1;
    variants.push(("message", e));
    let mut e = entries.clone();
    e[0].epoch ^= 1;
    variants.push(("epoch", e));
    let mut e = entries.clone();
    let other = batch::<S>(99, 1, true, &[entries[0].epoch]).0.entries()[0].public_key;
    e[0].public_key = PublicKey { root: other.root, parameter: e[0].public_key.parameter };
    variants.push(("root", e));
    for (what, entries) in variants {
        let Ok(wrong) = AggregateStatement::from_entries(entries) else { continue };
        match verify(settings, &wrong, proof) {
            Err(VerifyError::Invalid(_)) => {}
            other => panic!("{}: a wrong {what} gave {other:?}", S::NAME),
        }
    }
    if entries.len() > 1 {
        let fewer = AggregateStatement::from_entries(entries[..last].to_vec()).unwrap();
        assert!(matches!(verify(settings, &fewer, proof), Err(VerifyError::PublicMismatch(_))));
    }
}

#[test]
fn test_set_aggregates_prove_and_verify() {
    let epochs = [0u32, 3, 127, 200, 255];
    for settings in SETTINGS {
        for (n, shared) in [(1, true), (2, false), (3, true), (17, false)] {
            let (statement, sigs) = batch::<Test>(n as u64, n, shared, &epochs);
            let proof = prove_and_check(&settings, &statement, &sigs);
            if n == 3 {
                wrong_statements_refused(&settings, &statement, &proof);
            }
        }
    }
}

/// LeanSigProd at epochs across the 32-bit range, including both sides of
/// the chain-tweak borrow frontiers and `2^32 - 1`.
#[test]
fn lean_sig_prod_far_epochs() {
    let epochs = [0u32, 127 * (1 << 24) + 2, 127 * ((1 << 24) + 0x2d_0700) + 1, (1 << 31) + 3, u32::MAX];
    let settings = Settings::INSECURE_TEST_SKIP;
    let (statement, sigs) = batch::<LeanSigProd>(5, epochs.len(), false, &epochs);
    let proof = prove_and_check(&settings, &statement, &sigs);
    wrong_statements_refused(&settings, &statement, &proof);
}

/// The recursion-friendly setting (Poseidon2 trees and transcript) proves
/// leanSig's production signatures on the same tables: the proof verifies,
/// refuses wrong statements, and a SHA-256 verifier refuses it (and it a
/// SHA-256 proof) by the settings it carries.
#[test]
fn lean_sig_prod_over_poseidon2() {
    use sigagg_xmss_agg::config::MerkleHash;
    let settings = Settings::INSECURE_TEST_SKIP.with_merkle(MerkleHash::Poseidon2);
    let (statement, sigs) = batch::<LeanSigProd>(8, 3, true, &[1234]);
    let proof = prove_and_check(&settings, &statement, &sigs);
    wrong_statements_refused(&settings, &statement, &proof);
    let sha = prove_and_check(&Settings::INSECURE_TEST_SKIP, &statement, &sigs);
    assert!(verify(&Settings::INSECURE_TEST_SKIP, &statement, &proof).is_err());
    assert!(verify(&settings, &statement, &sha).is_err());
}

/// A signature that does not verify is refused with its index.
#[test]
fn invalid_signatures_are_refused() {
    let (mut statement_entries, sigs) = {
        let (s, sigs) = batch::<Test>(4, 3, false, &[10, 20, 30]);
        (s.entries().to_vec(), sigs)
    };
    statement_entries[1].message[5] ^= 1;
    let statement = AggregateStatement::from_entries(statement_entries).unwrap();
    match prove(&Settings::INSECURE_TEST, &statement, &sigs) {
        Err(ProveError::InvalidSignature { index: 1, .. }) => {}
        other => panic!("{other:?}"),
    }
}

fn load(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/xmss").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The vector file's cases of `kind`, decoded (SSZ keys and signatures).
fn cases<S: LeanFamily>(file: &str, kind: &str) -> Vec<(AggregateEntry<S>, Signature<S>)> {
    let hex = |c: &Value, k: &str| hex::decode(c[k].as_str().unwrap()).unwrap();
    load(file)["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == kind)
        .map(|c| {
            let public_key = PublicKey::<S>::from_bytes(&hex(c, "public_key")).unwrap();
            let signature = Signature::<S>::from_bytes(&hex(c, "signature")).unwrap();
            let (epoch, message) = (c["epoch"].as_u64().unwrap() as u32, hex(c, "message").try_into().unwrap());
            (AggregateEntry { public_key, epoch, message }, signature)
        })
        .collect()
}

/// leanSig's own signatures (its known-answer vectors) aggregate; its
/// wrong-message and wrong-epoch cases are refused.
fn vectors_aggregate<S: LeanFamily>(file: &str) {
    let (entries, sigs): (Vec<_>, Vec<_>) = cases::<S>(file, "valid").into_iter().unzip();
    assert!(entries.len() >= 4);
    let statement = AggregateStatement::from_entries(entries).unwrap();
    prove_and_check(&Settings::INSECURE_TEST_SKIP, &statement, &sigs);
    for kind in ["wrong_message", "wrong_epoch"] {
        let (entries, sigs): (Vec<_>, Vec<_>) = cases::<S>(file, kind).into_iter().unzip();
        let statement = AggregateStatement::from_entries(entries).unwrap();
        assert!(
            matches!(
                prove(&Settings::INSECURE_TEST, &statement, &sigs),
                Err(ProveError::InvalidSignature { index: 0, .. })
            ),
            "{file} {kind}"
        );
    }
}

#[test]
fn leansig_test_vectors_aggregate() {
    vectors_aggregate::<Test>("leansig-test.json");
}

#[test]
fn leansig_prod_vectors_aggregate() {
    vectors_aggregate::<LeanSigProd>("leansig-prod.json");
}

/// One cell of each table, changed after witness generation and proved
/// anyway: the verifier refuses every such proof (or a debug prover
/// catches the broken constraint first).
#[test]
fn tampered_traces_are_refused() {
    use sigagg_xmss_agg::aggregate::testing::assert_tampered_rejected;
    use sigagg_xmss_agg::config::Val;
    use sigagg_xmss_agg::leansig::aggregate::testing::{prove_traces, traces};
    use sigagg_xmss_agg::leansig::air::{chain, digits, hash24};
    use sigagg_xmss_agg::leansig::layout::{SPONGE_ROW, Shape};
    let (statement, sigs) = batch::<Test>(8, 2, false, &[30, 31]);
    let shape = Shape::of::<Test>();
    // (table, row, column, what the change breaks)
    let cells = [
        (0, 0, 1, "a statement value's committed copy"),
        (1, 0, digits::col::R, "the hypercube split a = 127 d + r"),
        (1, 0, digits::col::BITS, "a codeword digit"),
        (2, 1, chain::col::X, "a chain value mid-chain"),
        (3, SPONGE_ROW, hash24::col::W + 3, "a sponge window element"),
        (3, shape.tree_row() + 1, hash24::col::BIT, "a Merkle direction bit"),
        (4, 5, 1, "a range-table multiplicity"),
    ];
    for settings in SETTINGS {
        let honest = traces(&settings, &statement, &sigs);
        for (table, row, column, what) in cells {
            let mut tampered = honest.clone();
            let m = &mut tampered[table];
            m.values[row * m.width + column] += <Val as p3_field::PrimeCharacteristicRing>::ONE;
            assert_tampered_rejected(
                &settings,
                || prove_traces(&settings, &statement, tampered),
                |proof| verify(&settings, &statement, proof),
            );
            eprintln!("{what}: refused");
        }
    }
}

/// leanSpec's API: SSZ keys and signatures of one message at one slot in,
/// `proof_data` out; bad bytes of every input are typed errors.
#[test]
fn leanspec_api_round_trip_and_bad_input() {
    use sigagg_xmss_agg::leansig::leanspec::{
        LeanApiError, aggregate, aggregate_signatures, verify, verify_aggregated_signatures,
    };
    let settings = Settings::INSECURE_TEST_SKIP;
    let slot = 77;
    let message = [9u8; 32];
    let mut rng = StdRng::seed_from_u64(77);
    let (keys, sigs): (Vec<Vec<u8>>, Vec<Vec<u8>>) = (0..3)
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<LeanSigProd, _>(&mut rng, slot, &message).unwrap();
            (pk.to_bytes(), sig.to_bytes())
        })
        .unzip();
    let keys: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
    let sig_refs: Vec<&[u8]> = sigs.iter().map(Vec::as_slice).collect();
    let proof = aggregate_signatures(&settings, &keys, &sig_refs, &message, slot).unwrap();
    assert!(proof.len() <= 1 << 20);
    verify_aggregated_signatures(&settings, &keys, &message, &proof, slot).unwrap();
    // The SSZ container: participants 4, 9 and 4000 of the registry.
    let participants = sigagg_xmss::Participants::from_indices(&[4, 9, 4000]).unwrap();
    let container = aggregate(&settings, participants.clone(), &keys, &sig_refs, &message, slot).unwrap();
    let decoded = sigagg_xmss::AggregatedSignatureProof::from_bytes(&container.to_bytes()).unwrap();
    assert_eq!(decoded.participants().indices(), vec![4, 9, 4000]);
    verify(&settings, &decoded, &keys, &message, slot).unwrap();
    assert!(matches!(
        verify(&settings, &decoded, &keys[..2], &message, slot),
        Err(LeanApiError::ParticipantsMismatch { participants: 3, keys: 2 })
    ));
    let two = sigagg_xmss::Participants::from_indices(&[4, 9]).unwrap();
    assert!(matches!(
        aggregate(&settings, two, &keys, &sig_refs, &message, slot),
        Err(LeanApiError::ParticipantsMismatch { participants: 2, keys: 3 })
    ));
    // Another slot, message or key order: the STARK refuses.
    for (m, s, k) in [
        (message, slot + 1, keys.clone()),
        ([8; 32], slot, keys.clone()),
        (message, slot, vec![keys[1], keys[0], keys[2]]),
    ] {
        assert!(matches!(
            verify_aggregated_signatures(&settings, &k, &m, &proof, s),
            Err(LeanApiError::Verify(VerifyError::Invalid(_)))
        ));
    }
    // Bad bytes, each named.
    let short = &keys[0][..51];
    assert!(matches!(
        verify_aggregated_signatures(&settings, &[keys[0], short], &message, &proof, slot),
        Err(LeanApiError::PublicKey { index: 1, .. })
    ));
    let truncated = &sig_refs[2][..100];
    assert!(matches!(
        aggregate_signatures(&settings, &keys, &[sig_refs[0], sig_refs[1], truncated], &message, slot),
        Err(LeanApiError::Signature { index: 2, .. })
    ));
    assert!(matches!(
        aggregate_signatures(&settings, &keys, &sig_refs[..2], &message, slot),
        Err(LeanApiError::CountMismatch { keys: 3, signatures: 2 })
    ));
    assert!(matches!(
        aggregate_signatures(&settings, &keys, &[sig_refs[1], sig_refs[0], sig_refs[2]], &message, slot),
        Err(LeanApiError::Prove(ProveError::InvalidSignature { index: 0, .. }))
    ));
    assert!(matches!(
        verify_aggregated_signatures(&settings, &keys, &message, &proof[..proof.len() - 1], slot),
        Err(LeanApiError::Verify(VerifyError::Malformed(_)))
    ));
    assert!(matches!(
        verify_aggregated_signatures(&settings, &[], &message, &proof, slot),
        Err(LeanApiError::Statement(_))
    ));
}
