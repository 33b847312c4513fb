//! A threshold certificate as a child: a 2-of-3 Seed001 threshold proof
//! merges beside an aggregate and verifies; its claimed count changed, its
//! disclosed signers changed, a threshold above its count or another
//! group, and a threshold proof given as an aggregate's are refused; the
//! statement splits again from the keys, the committee and the proof's
//! shape.

use sigagg_merge::{
    CHILD_SETTINGS, Child, ChildHeader, ChildProof, MergeError, MergeStatement, MergedProof, merge, verify,
};
use sigagg_xmss::group::GroupTree;
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::threshold::{self, Disclosure, Signer, ThresholdStatement};
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement, Proof, aggregate};

const MESSAGE: [u8; 32] = *b"a committee and a subnet, merged";
const EPOCH: u32 = 11;

fn copy(proof: &Proof) -> Proof {
    Proof::from_bytes(&proof.to_bytes()).unwrap()
}

#[test]
fn a_threshold_certificate_merges_beside_an_aggregate() {
    let mut rng = rand::rng();
    let (keys, sigs): (Vec<_>, Vec<_>) =
        (0..3).map(|_| single_epoch_key_and_signature::<Seed001, _>(&mut rng, EPOCH, &MESSAGE).unwrap()).unzip();
    let tree = GroupTree::new(keys).unwrap();
    let committee = ThresholdStatement::new(tree.key(), EPOCH, MESSAGE, 2).unwrap();
    let signers: Vec<Signer> =
        [2u32, 0].iter().map(|&i| Signer::from_tree(&tree, i, sigs[i as usize].clone()).unwrap()).collect();
    let certificate = threshold::prove(&CHILD_SETTINGS, &committee, &signers, Disclosure::Signers).unwrap();

    let (entries, signatures): (Vec<_>, Vec<_>) = (0..2)
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rng, EPOCH, &MESSAGE).unwrap();
            (AggregateEntry { public_key: pk, epoch: EPOCH, message: MESSAGE }, sig)
        })
        .unzip();
    let subnet = AggregateStatement::new(entries).unwrap();
    let aggregate = aggregate::prove(&CHILD_SETTINGS, &subnet, &signatures).unwrap();

    let statement = MergeStatement::of(vec![Child::Aggregate(subnet.clone()), Child::Threshold(committee)]).unwrap();
    let proofs = [ChildProof::from(copy(&aggregate)), ChildProof::Threshold(copy(&certificate))];
    let merged = merge(&CHILD_SETTINGS, &statement, &proofs).unwrap();
    let bytes = merged.to_bytes();
    let decoded = MergedProof::from_bytes(&bytes).unwrap();
    verify(&CHILD_SETTINGS, &statement, &decoded).unwrap();
    assert_eq!(decoded.children[1], ChildHeader::Threshold { count: 2, signers: Some(vec![0, 2]) });

    // The statement rebuilt from the keys, the committee and the proof's
    // shape; without the committee, or with one too many, it does not split.
    let keys: Vec<_> = subnet.entries().iter().map(|e| e.public_key).collect();
    let shape = decoded.shape();
    assert_eq!(MergeStatement::split_with(&keys, &[committee], &shape, MESSAGE, EPOCH).unwrap(), statement);
    for committees in [&[][..], &[committee, committee][..]] {
        let refused = MergeStatement::split_with(&keys, committees, &shape, MESSAGE, EPOCH);
        assert!(matches!(refused, Err(MergeError::Split { .. })), "{committees:?}");
    }

    // The certificate's claims changed: another count, other signers.
    for header in [
        ChildHeader::Threshold { count: 3, signers: Some(vec![0, 1, 2]) },
        ChildHeader::Threshold { count: 2, signers: Some(vec![0, 1]) },
        ChildHeader::Threshold { count: 2, signers: None },
    ] {
        let mut changed = MergedProof::from_bytes(&bytes).unwrap();
        changed.children[1] = header.clone();
        assert!(verify(&CHILD_SETTINGS, &statement, &changed).is_err(), "{header:?}");
    }
    // A count the statement refuses before any proof: a typed error.
    let mut below = MergedProof::from_bytes(&bytes).unwrap();
    below.children[1] = ChildHeader::Threshold { count: 1, signers: None };
    assert!(matches!(verify(&CHILD_SETTINGS, &statement, &below), Err(MergeError::ChildInvalid { index: 1, .. })));
    // A higher threshold than the count (a lower one holds: two signers
    // are at least one), another group.
    let higher = ThresholdStatement::new(tree.key(), EPOCH, MESSAGE, 3).unwrap();
    let higher = MergeStatement::of(vec![Child::Aggregate(subnet.clone()), Child::Threshold(higher)]).unwrap();
    assert!(matches!(verify(&CHILD_SETTINGS, &higher, &decoded), Err(MergeError::ChildInvalid { index: 1, .. })));
    let lower = ThresholdStatement::new(tree.key(), EPOCH, MESSAGE, 1).unwrap();
    let lower = MergeStatement::of(vec![Child::Aggregate(subnet.clone()), Child::Threshold(lower)]).unwrap();
    assert!(
        sigagg_xmss_agg::threshold::verify(
            &CHILD_SETTINGS,
            &ThresholdStatement::new(tree.key(), EPOCH, MESSAGE, 1).unwrap(),
            &certificate
        )
        .is_ok()
    );
    verify(&CHILD_SETTINGS, &lower, &decoded).unwrap();
    let other_tree = GroupTree::new(
        (0..3).map(|_| single_epoch_key_and_signature::<Seed001, _>(&mut rng, EPOCH, &MESSAGE).unwrap().0).collect(),
    )
    .unwrap();
    let other_group = ThresholdStatement::new(other_tree.key(), EPOCH, MESSAGE, 2).unwrap();
    let other = MergeStatement::of(vec![Child::Aggregate(subnet.clone()), Child::Threshold(other_group)]).unwrap();
    assert!(matches!(verify(&CHILD_SETTINGS, &other, &decoded), Err(MergeError::Circuit(_))));
    // Proofs of the other kind.
    let swapped = [ChildProof::Threshold(copy(&aggregate)), ChildProof::from(copy(&certificate))];
    assert!(matches!(merge(&CHILD_SETTINGS, &statement, &swapped), Err(MergeError::ChildInvalid { index: 0, .. })));
    // Another message: the statement is refused.
    let elsewhere = ThresholdStatement::new(tree.key(), EPOCH + 1, MESSAGE, 2).unwrap();
    assert!(matches!(
        MergeStatement::of(vec![Child::Aggregate(subnet), Child::Threshold(elsewhere)]),
        Err(MergeError::MessageMismatch { child: 1 })
    ));
}
