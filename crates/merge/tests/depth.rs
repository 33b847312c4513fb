//! Merged proofs as children: a merge of a merge verifies at depth 2 and
//! 3, through its encoding and from the participants' keys and the
//! proof's shape; a false claim of a merged child (checked natively at
//! the top), a moved one (which the native check passes), a merged
//! child's shape changed, a merged proof given for an aggregate, a
//! signer twice across levels and flipped bytes are refused.

use p3_field::PrimeCharacteristicRing;
use sigagg_merge::{
    CHILD_SETTINGS, Child, ChildHeader, ChildProof, MergeError, MergeKey, MergeStatement, MergedProof, Shape, merge,
    verifier_circuit, verify, verify_with_key,
};
use sigagg_recursion::Ext;
use sigagg_recursion::deferred::periodic_at;
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::prove as aggregate;
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement, Proof};

const MESSAGE: [u8; 32] = *b"one message for every level.....";
const EPOCH: u32 = 5;

/// An aggregate of `n` fresh signers under the recursion setting.
fn leaf(n: usize) -> (AggregateStatement, Proof) {
    let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), EPOCH, &MESSAGE).unwrap();
            (AggregateEntry { public_key: pk, epoch: EPOCH, message: MESSAGE }, sig)
        })
        .unzip();
    let statement = AggregateStatement::new(entries).unwrap();
    let proof = aggregate(&CHILD_SETTINGS, &statement, &signatures).unwrap();
    (statement, proof)
}

fn copy(proof: &MergedProof) -> MergedProof {
    MergedProof::from_bytes(&proof.to_bytes()).unwrap()
}

fn copy_leaf(proof: &Proof) -> ChildProof {
    Proof::from_bytes(&proof.to_bytes()).unwrap().into()
}

#[test]
fn merged_proofs_merge_again_at_depth_two_and_three() {
    let settings = CHILD_SETTINGS;
    let ((a, pa), (b, pb), (c, pc)) = (leaf(2), leaf(2), leaf(3));
    let one = MergeStatement::new(vec![a.clone(), b.clone()]).unwrap();
    let m1 = merge(&settings, &one, &[copy_leaf(&pa), copy_leaf(&pb)]).unwrap();

    // Depth 2: the merge of (a, b) beside the aggregate c.
    let two = MergeStatement::of(vec![Child::Merged(one.clone()), Child::Aggregate(c.clone())]).unwrap();
    assert_eq!((two.depth(), two.participants()), (2, 7));
    let m2 = merge(&settings, &two, &[copy(&m1).into(), copy_leaf(&pc)]).unwrap();
    let bytes = m2.to_bytes();
    let decoded = MergedProof::from_bytes(&bytes).unwrap();
    verify(&settings, &two, &decoded).unwrap();
    let shape = vec![Shape::Merged(vec![Shape::Aggregate(2), Shape::Aggregate(2)]), Shape::Aggregate(3)];
    assert_eq!(decoded.shape(), shape);
    let keys: Vec<_> = two.entries().iter().map(|e| e.public_key).collect();
    assert_eq!(MergeStatement::split(&keys, &decoded.shape(), MESSAGE, EPOCH).unwrap(), two);

    // Depth 3: that merge, alone, merged once more.
    let three = MergeStatement::of(vec![Child::Merged(two.clone())]).unwrap();
    let m3 = merge(&settings, &three, &[copy(&m2).into()]).unwrap();
    verify(&settings, &three, &copy(&m3)).unwrap();
    assert_eq!(three.depth(), 3);
    // The keys of depth 2 and 3, from the headers: no circuit rebuilt.
    let key2 = MergeKey::new(&m2.children).unwrap();
    verify_with_key(&key2, &settings, &two, &decoded).unwrap();
    verify_with_key(&MergeKey::new(&m3.children).unwrap(), &settings, &three, &m3).unwrap();

    // The merged child's claims: a value changed is refused by the native
    // check at the top; a point moved with the values recomputed there
    // passes that check, but the circuit that verified the child's proof
    // was built on the old claims (its seed, its inputs' column).
    let ChildHeader::Merged { children, claims } = &m2.children[0] else { unreachable!("a merged child") };
    let mut false_claim = copy(&m2);
    if let ChildHeader::Merged { claims, .. } = &mut false_claim.children[0] {
        let inner = verifier_circuit(&one, children, None).unwrap();
        claims[inner.claim_index(inner.deferred()[0].value).unwrap()] += Ext::ONE;
    }
    assert!(matches!(verify(&settings, &two, &false_claim), Err(MergeError::ChildInvalid { index: 0, .. })));
    assert!(matches!(
        verify_with_key(&key2, &settings, &two, &false_claim),
        Err(MergeError::ChildInvalid { index: 0, .. })
    ));
    let inner = verifier_circuit(&one, children, None).unwrap();
    let index = |w| inner.claim_index(w).unwrap();
    let mut moved = claims.clone();
    let r0 = inner.deferred()[0].r0;
    moved[index(r0)] += Ext::ONE;
    for d in inner.deferred().iter().filter(|d| d.r0 == r0) {
        let rest: Vec<Ext> = d.rest.iter().map(|&w| moved[index(w)]).collect();
        moved[index(d.value)] = periodic_at(&d.column, d.skip, moved[index(d.r0)], &rest);
    }
    sigagg_recursion::deferred::check(&inner, &inner.inputs_with(&moved).unwrap()).unwrap();
    // The prover verifies a merged child's proof on its claims: claims that
    // pass the native check but not the child's proof are refused there.
    let mut moved_child = copy(&m1);
    moved_child.claims = moved.clone();
    assert!(matches!(
        merge(&settings, &two, &[moved_child.into(), copy_leaf(&pc)]),
        Err(MergeError::ChildInvalid { index: 0, .. })
    ));
    let mut moved_proof = copy(&m2);
    moved_proof.children[0] = ChildHeader::Merged { children: children.clone(), claims: moved };
    assert!(matches!(verify(&settings, &two, &moved_proof), Err(MergeError::Circuit(_))));
    assert!(matches!(verify_with_key(&key2, &settings, &two, &moved_proof), Err(MergeError::Circuit(_))));

    // The merged child split otherwise (its keys the same).
    let resplit = MergeStatement::split(
        &keys,
        &[Shape::Merged(vec![Shape::Aggregate(1), Shape::Aggregate(3)]), Shape::Aggregate(3)],
        MESSAGE,
        EPOCH,
    )
    .unwrap();
    let mut reshaped = copy(&m2);
    if let ChildHeader::Merged { children, .. } = &mut reshaped.children[0] {
        *children = vec![ChildHeader::Aggregate { signers: 1 }, ChildHeader::Aggregate { signers: 3 }];
    }
    assert!(verify(&settings, &resplit, &reshaped).is_err());
    assert!(matches!(verify_with_key(&key2, &settings, &resplit, &reshaped), Err(MergeError::Key(_))));
    // Flattened: the same keys as aggregates of one level.
    let flat = MergeStatement::new(vec![a.clone(), b.clone(), c.clone()]).unwrap();
    assert!(matches!(verify(&settings, &flat, &m2), Err(MergeError::CountMismatch { .. })));
    // A merged proof for an aggregate, an aggregate for a merge.
    assert!(matches!(
        merge(&settings, &two, &[copy_leaf(&pc), copy(&m1).into()]),
        Err(MergeError::ChildInvalid { index: 0, .. })
    ));
    // A signer twice, across levels; another message below.
    assert!(matches!(
        MergeStatement::of(vec![Child::Merged(one.clone()), Child::Aggregate(a.clone())]),
        Err(MergeError::DuplicateSigner { child: 1 })
    ));
    // Flipped bytes of the depth-2 proof.
    for at in [8, 40, bytes.len() / 2, bytes.len() - 1] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x04;
        let refused = MergedProof::from_bytes(&flipped).map_or(true, |p| {
            verify(&settings, &two, &p).is_err() && verify_with_key(&key2, &settings, &two, &p).is_err()
        });
        assert!(refused, "byte {at}");
    }
}

#[test]
fn trees_deeper_than_the_bound_are_refused() {
    let (a, _) = leaf(1);
    let mut statement = MergeStatement::new(vec![a]).unwrap();
    for _ in 1..sigagg_merge::MAX_DEPTH {
        statement = MergeStatement::of(vec![Child::Merged(statement)]).unwrap();
    }
    assert_eq!(statement.depth(), sigagg_merge::MAX_DEPTH);
    assert!(matches!(MergeStatement::of(vec![Child::Merged(statement)]), Err(MergeError::TooDeep(_))));
    let _ = Seed001::default;
}
