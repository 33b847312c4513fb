//! Merged aggregates end to end: two children of one message merge and
//! verify, through their encoding; a dropped, swapped, replaced or
//! miscounted child, another setting, flipped bytes, a false or moved
//! deferred claim, a child proof that does not verify, and statements of
//! several messages or a signer twice are refused with typed errors; a
//! compact merged proof is shorter and final.

mod common;

use common::{copy, signed};
use p3_field::PrimeCharacteristicRing;
use sigagg_merge::{
    CHILD_SETTINGS, Child, ChildHeader, ChildProof, MAX_CHILDREN, MergeError, MergeKey, MergeStatement, MergedProof,
    Messages, Shape, merge, merge_signed, security_level, verifier_circuit, verify, verify_level, verify_with_key,
};
use sigagg_prover::skip_stark::SkipProof;
use sigagg_prover::{Settings, StarkProof};
use sigagg_recursion::deferred::{self, periodic_at};
use sigagg_recursion::{Circuit, CircuitError, Ext};
use sigagg_xmss::{LeanSigProd, Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::prove as aggregate;
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement, Proof};

const MESSAGE: [u8; 32] = *b"one message for every subnet....";
const EPOCH: u32 = 9;

/// A child: its statement and its aggregate under the recursion setting.
fn child(n: usize) -> (AggregateStatement, Proof) {
    let (statement, signatures) = signed(n, MESSAGE, EPOCH);
    let proof = aggregate(&CHILD_SETTINGS, &statement, &signatures).unwrap();
    (statement, proof)
}

/// Aggregates of these counts.
fn aggregates(counts: &[u32]) -> Vec<Shape> {
    counts.iter().map(|&c| Shape::Aggregate(c)).collect()
}

/// The header of an aggregate of a shape's signers.
fn header(shape: &Shape) -> ChildHeader {
    match shape {
        Shape::Aggregate(signers) => ChildHeader::Aggregate { signers: *signers },
        Shape::Merged(_) | Shape::Threshold | Shape::Withheld(_) => unreachable!("aggregates only"),
    }
}

/// `claims` with the first deferred claim's point moved (its skip
/// challenge plus one) and every value at that point recomputed there:
/// claims that pass the native check but not the proof, which binds the
/// point to the transcript's.
fn moved_claims(circuit: &Circuit, claims: &[Ext]) -> Vec<Ext> {
    let index = |w| circuit.claim_index(w).unwrap();
    let r0 = circuit.deferred()[0].r0;
    let mut moved = claims.to_vec();
    moved[index(r0)] += Ext::ONE;
    for d in circuit.deferred().iter().filter(|d| d.r0 == r0) {
        let rest: Vec<Ext> = d.rest.iter().map(|&w| moved[index(w)]).collect();
        moved[index(d.value)] = periodic_at(&d.column, d.skip, moved[index(d.r0)], &rest);
    }
    moved
}

#[test]
fn children_merge_and_verify_and_every_other_claim_is_refused() {
    let (s0, p0) = child(16);
    let (s1, p1) = child(16);
    let (s2, p2) = child(16);
    let statement = MergeStatement::new(vec![s0.clone(), s1.clone()]).unwrap();
    assert_eq!(statement.participants(), 32);
    let settings = CHILD_SETTINGS;
    let merged = merge(&settings, &statement, &[copy(&p0).into(), copy(&p1).into()]).unwrap();
    verify(&settings, &statement, &merged).unwrap();
    let bytes = merged.to_bytes();
    verify(&settings, &statement, &MergedProof::from_bytes(&bytes).unwrap()).unwrap();

    // A dropped child, or the proof's count changed to match.
    let dropped = MergeStatement::new(vec![s0.clone()]).unwrap();
    assert!(matches!(verify(&settings, &dropped, &merged), Err(MergeError::CountMismatch { .. })));
    let mut one = MergedProof::from_bytes(&bytes).unwrap();
    one.children.pop();
    assert!(matches!(verify(&settings, &dropped, &one), Err(MergeError::Circuit(_))));
    // The statement rebuilt from the participants' keys and the proof's
    // counts; another split of the same keys is another circuit.
    let keys: Vec<_> = s0.entries().iter().chain(s1.entries()).map(|e| e.public_key).collect();
    assert_eq!(merged.shape(), [Shape::Aggregate(16), Shape::Aggregate(16)]);
    assert_eq!(MergeStatement::split(&keys, &merged.shape(), MESSAGE, EPOCH).unwrap(), statement);
    let resplit = MergeStatement::split(&keys, &aggregates(&[8, 24]), MESSAGE, EPOCH).unwrap();
    let mut moved = MergedProof::from_bytes(&bytes).unwrap();
    moved.children = resplit.shape().iter().map(header).collect();
    assert!(matches!(verify(&settings, &resplit, &moved), Err(MergeError::Circuit(_))));
    for counts in [&[16, 15][..], &[16, 17], &[32, 0], &[]] {
        let split = MergeStatement::split(&keys, &aggregates(counts), MESSAGE, EPOCH);
        assert!(matches!(split, Err(MergeError::Split { .. } | MergeError::Empty)), "{counts:?}");
    }
    // The children swapped, or one replaced by another statement's.
    for other in [vec![s1.clone(), s0.clone()], vec![s0.clone(), s2.clone()]] {
        let other = MergeStatement::new(other).unwrap();
        assert!(matches!(verify(&settings, &other, &merged), Err(MergeError::Circuit(_))));
    }
    // Another setting.
    assert!(verify(&Settings::INSECURE_TEST_SKIP, &statement, &merged).is_err());
    assert!(matches!(verify(&Settings::FAST, &statement, &merged), Err(MergeError::Settings)));
    // Flipped bytes.
    for at in [0, 7, bytes.len() / 3, bytes.len() / 2, bytes.len() - 1] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x10;
        let refused = MergedProof::from_bytes(&flipped).map_or(true, |p| verify(&settings, &statement, &p).is_err());
        assert!(refused, "byte {at}");
    }
    // The deferred claims (children's periodic columns at the zerocheck
    // points): a value changed is refused by the native check; a point
    // moved with its value recomputed there passes that check, but the
    // circuit binds the point to the transcript's.
    assert!(!merged.claims.is_empty());
    let circuit = verifier_circuit(&statement, &merged.children, None).unwrap();
    let claim = &circuit.deferred()[0];
    let index = |w| circuit.claim_index(w).unwrap();
    let mut wrong_value = MergedProof::from_bytes(&bytes).unwrap();
    wrong_value.claims[index(claim.value)] += Ext::ONE;
    assert!(matches!(
        verify(&settings, &statement, &wrong_value),
        Err(MergeError::Circuit(CircuitError::Deferred { claim: 0 }))
    ));
    let moved = moved_claims(&circuit, &merged.claims);
    deferred::check(&circuit, &circuit.inputs_with(&moved).unwrap()).unwrap();
    let mut moved_proof = MergedProof::from_bytes(&bytes).unwrap();
    moved_proof.claims = moved.clone();
    assert!(matches!(verify(&settings, &statement, &moved_proof), Err(MergeError::Circuit(_))));
    let prover_circuit = {
        let natives = [&p0, &p1].map(|p| match &p.stark {
            StarkProof::Skip(SkipProof::Poseidon2(body)) => body.proof(),
            _ => unreachable!("a whir-skip-poseidon2 proof"),
        });
        verifier_circuit(&statement, &merged.children, Some(&natives)).unwrap()
    };
    assert!(matches!(
        prover_circuit.witness(&prover_circuit.inputs_with(&moved).unwrap()),
        Err(CircuitError::Unsatisfied { .. })
    ));
    let mut short = MergedProof::from_bytes(&bytes).unwrap();
    short.claims.pop();
    assert!(verify(&settings, &statement, &short).is_err());

    // Both children's proofs exchanged: the children are verified side by
    // side, and the first refusal by index is the one reported.
    assert!(matches!(
        merge(&settings, &statement, &[copy(&p1).into(), copy(&p0).into()]),
        Err(MergeError::ChildInvalid { index: 0, .. })
    ));

    // A child's proof of another statement, and too few proofs.
    assert!(matches!(
        merge(&settings, &statement, &[copy(&p0).into(), p2.into()]),
        Err(MergeError::ChildInvalid { index: 1, .. })
    ));
    assert!(matches!(merge(&settings, &statement, &[p0.into()]), Err(MergeError::CountMismatch { .. })));
}

/// One key, built from a merged proof's headers alone, verifies merges of
/// any children of that shape as `verify` does, and refuses what it
/// refuses: children exchanged between proofs or swapped, a claim's value
/// changed or its point moved, another setting, flipped bytes; a key of
/// another shape, and a key for a threshold certificate, are refused.
#[test]
fn a_verifying_key_decides_as_the_rebuilt_circuit_does() {
    let ((s0, p0), (s1, p1), (s2, p2)) = (child(16), child(16), child(16));
    let settings = CHILD_SETTINGS;
    let statement = MergeStatement::new(vec![s0.clone(), s1.clone()]).unwrap();
    let merged = merge(&settings, &statement, &[copy(&p0).into(), copy(&p1).into()]).unwrap();
    let key = MergeKey::new(&merged.children).unwrap();
    let level = verify_with_key(&key, &settings, &statement, &merged).unwrap();
    assert_eq!(level.proven_bits, verify_level(&settings, &statement, &merged).unwrap().proven_bits);
    let other = MergeStatement::new(vec![s0.clone(), s2.clone()]).unwrap();
    let other_merged = merge(&settings, &other, &[copy(&p0).into(), p2.into()]).unwrap();
    verify_with_key(&key, &settings, &other, &other_merged).unwrap();

    assert!(verify_with_key(&key, &settings, &other, &merged).is_err());
    assert!(verify_with_key(&key, &settings, &statement, &other_merged).is_err());
    let swapped = MergeStatement::new(vec![s1.clone(), s0.clone()]).unwrap();
    assert!(verify_with_key(&key, &settings, &swapped, &merged).is_err());
    let circuit = verifier_circuit(&statement, &merged.children, None).unwrap();
    let claim = &circuit.deferred()[0];
    let index = |w| circuit.claim_index(w).unwrap();
    let bytes = merged.to_bytes();
    let mut wrong_value = MergedProof::from_bytes(&bytes).unwrap();
    wrong_value.claims[index(claim.value)] += Ext::ONE;
    assert!(matches!(
        verify_with_key(&key, &settings, &statement, &wrong_value),
        Err(MergeError::Circuit(CircuitError::Deferred { claim: 0 }))
    ));
    let moved = moved_claims(&circuit, &merged.claims);
    let mut moved_proof = MergedProof::from_bytes(&bytes).unwrap();
    moved_proof.claims = moved;
    assert!(matches!(verify_with_key(&key, &settings, &statement, &moved_proof), Err(MergeError::Circuit(_))));
    let mut short = MergedProof::from_bytes(&bytes).unwrap();
    short.claims.pop();
    assert!(verify_with_key(&key, &settings, &statement, &short).is_err());
    assert!(verify_with_key(&key, &Settings::INSECURE_TEST_SKIP, &statement, &merged).is_err());
    assert!(matches!(verify_with_key(&key, &Settings::FAST, &statement, &merged), Err(MergeError::Settings)));
    for at in [0, 7, bytes.len() / 3, bytes.len() / 2, bytes.len() - 1] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x10;
        let refused = MergedProof::from_bytes(&flipped)
            .map_or(true, |p| verify_with_key(&key, &settings, &statement, &p).is_err());
        assert!(refused, "byte {at}");
    }

    // Keys of other shapes.
    let other_shape = MergeKey::new(&[ChildHeader::Aggregate { signers: 16 }, ChildHeader::Aggregate { signers: 8 }]);
    assert!(matches!(verify_with_key(&other_shape.unwrap(), &settings, &statement, &merged), Err(MergeError::Key(_))));
    let threshold = ChildHeader::Threshold { count: 2, signers: None };
    assert!(matches!(MergeKey::<Seed001>::new(&[threshold]), Err(MergeError::Key(_))));
    assert!(matches!(MergeKey::<Seed001>::new(&[]), Err(MergeError::Empty)));
    let none = ChildHeader::Aggregate { signers: 0 };
    assert!(matches!(MergeKey::<Seed001>::new(&[none]), Err(MergeError::Withheld(_))));
}

#[test]
fn statements_of_several_messages_or_a_signer_twice_are_refused() {
    let (s0, _) = signed(2, MESSAGE, EPOCH);
    let (other_message, _) = signed(2, *b"another message, another slot...", EPOCH);
    let (other_epoch, _) = signed(2, MESSAGE, EPOCH + 1);
    assert!(matches!(MergeStatement::<Seed001>::new(Vec::new()), Err(MergeError::Empty)));
    for other in [other_message, other_epoch] {
        assert!(matches!(MergeStatement::new(vec![s0.clone(), other]), Err(MergeError::MessageMismatch { child: 1 })));
    }
    assert!(matches!(MergeStatement::new(vec![s0.clone(), s0.clone()]), Err(MergeError::DuplicateSigner { child: 1 })));
    let many: Vec<AggregateStatement> = (0..=MAX_CHILDREN).map(|_| signed(1, MESSAGE, EPOCH).0).collect();
    assert!(matches!(MergeStatement::new(many), Err(MergeError::TooManyChildren(_))));
}

/// leanSig production children (what lean Ethereum validators sign)
/// merge the same way: two aggregates of one slot merge and verify; the
/// children swapped, or a child's proof of another statement, are refused.
#[test]
fn lean_sig_prod_children_merge_and_verify() {
    let lean_child = |n: usize| {
        let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
            .map(|_| {
                let (pk, sig) =
                    single_epoch_key_and_signature::<LeanSigProd, _>(&mut rand::rng(), EPOCH, &MESSAGE).unwrap();
                (AggregateEntry { public_key: pk, epoch: EPOCH, message: MESSAGE }, sig)
            })
            .unzip();
        let statement = AggregateStatement::from_entries(entries).unwrap();
        let proof = sigagg_xmss_agg::leansig::aggregate::prove(&CHILD_SETTINGS, &statement, &signatures).unwrap();
        (statement, proof)
    };
    let ((s0, p0), (s1, p1)) = (lean_child(2), lean_child(3));
    let statement = MergeStatement::new(vec![s0.clone(), s1.clone()]).unwrap();
    let merged = merge(&CHILD_SETTINGS, &statement, &[copy(&p0).into(), copy(&p1).into()]).unwrap();
    verify(&CHILD_SETTINGS, &statement, &MergedProof::from_bytes(&merged.to_bytes()).unwrap()).unwrap();
    assert_eq!(merged.shape(), aggregates(&[2, 3]));
    let swapped = MergeStatement::new(vec![s1, s0]).unwrap();
    assert!(verify(&CHILD_SETTINGS, &swapped, &merged).is_err());
    // The verifying key of leanSig children decides alike.
    let key = MergeKey::<LeanSigProd>::new(&merged.children).unwrap();
    verify_with_key(&key, &CHILD_SETTINGS, &statement, &merged).unwrap();
    assert!(verify_with_key(&key, &CHILD_SETTINGS, &swapped, &merged).is_err());
    let mut wrong = MergedProof::from_bytes(&merged.to_bytes()).unwrap();
    wrong.claims[0] += Ext::ONE;
    assert!(verify_with_key(&key, &CHILD_SETTINGS, &statement, &wrong).is_err());
    assert!(matches!(
        merge(&CHILD_SETTINGS, &statement, &[copy(&p1).into(), p0.into()]),
        Err(MergeError::ChildInvalid { index: 0, .. })
    ));
}

/// Raw signatures beside a child: aggregated into one more child, the
/// last, and merged; the statement verifies from all the keys. A
/// signature on another message among them is refused before any proof.
#[test]
fn raw_signatures_merge_beside_children() {
    let (s0, p0) = child(3);
    let (raw, signatures) = signed(2, MESSAGE, EPOCH);
    let (statement, merged) = merge_signed(
        &CHILD_SETTINGS,
        Messages::One,
        vec![Child::Aggregate(s0.clone())],
        vec![copy(&p0).into()],
        raw.clone(),
        &signatures,
    )
    .unwrap();
    assert_eq!(merged.shape(), aggregates(&[3, 2]));
    assert_eq!(statement, MergeStatement::new(vec![s0.clone(), raw.clone()]).unwrap());
    verify(&CHILD_SETTINGS, &statement, &MergedProof::from_bytes(&merged.to_bytes()).unwrap()).unwrap();

    let (_, other) = signed(2, *b"another message, another slot...", EPOCH);
    let forged = [signatures[0].clone(), other[1].clone()];
    assert!(matches!(
        merge_signed(&CHILD_SETTINGS, Messages::One, vec![Child::Aggregate(s0)], vec![p0.into()], raw, &forged),
        Err(MergeError::Signatures(_))
    ));
}

/// `whir-skip-compact` (rate 1/4, SHA-256) for a final merged proof: it
/// verifies under that setting only, states at least 120 proven bits, is
/// shorter than the recursion setting's, and is no child of a further
/// merge (children are proven under [`CHILD_SETTINGS`]).
#[test]
fn a_compact_merged_proof_is_shorter_and_final() {
    let (s0, p0) = child(4);
    let (s1, p1) = child(4);
    let statement = MergeStatement::new(vec![s0, s1]).unwrap();
    let compact = Settings::WHIR_SKIP_COMPACT;
    let proofs = [copy(&p0).into(), copy(&p1).into()];
    let merged = merge(&compact, &statement, &proofs).unwrap();
    verify(&compact, &statement, &merged).unwrap();
    assert!(verify(&CHILD_SETTINGS, &statement, &merged).is_err());
    assert!(verify_level(&CHILD_SETTINGS, &statement, &merged).is_err());
    let level = security_level(&compact, &statement, &merged.children).unwrap();
    assert!(level.proven_bits >= 120.0);
    // What `verify_level` reports of the circuit it verified on.
    let reported = verify_level(&compact, &statement, &merged).unwrap();
    assert_eq!((reported.proven_bits, reported.conjectured_bits), (level.proven_bits, level.conjectured_bits));
    let recursive = merge(&CHILD_SETTINGS, &statement, &proofs).unwrap();
    let (short, long) = (merged.to_bytes().len(), recursive.to_bytes().len());
    assert!(short * 10 < long * 8, "{short} against {long}");

    let (s2, p2) = child(4);
    let parent = MergeStatement::of(vec![Child::Merged(statement), Child::Aggregate(s2)]).unwrap();
    let refused = merge(&CHILD_SETTINGS, &parent, &[ChildProof::Merged(merged), p2.into()]);
    assert!(matches!(refused, Err(MergeError::ChildInvalid { index: 0, .. })), "{:?}", refused.err());
}
