//! Threshold certificates as merge children on bytes: a 2-of-3 Seed001
//! committee's certificate merges beside an aggregate and verifies against
//! the aggregate's keys and the committee; the same proof is refused
//! without the committee, at a threshold above its count, under another
//! group, and with the children's order changed.

use sigagg_bytes::merge::{self, CHILD_SETTINGS, Committee, MergeStatement, Shape};
use sigagg_bytes::threshold::{Signer, ThresholdStatement, group, prove_threshold};
use sigagg_bytes::xmss::single_epoch_signers;
use sigagg_bytes::{AggregateStatement, ErrorKind, Scheme, aggregate};

const EPOCH: u32 = 21;
const MESSAGE: [u8; 32] = [0x5a; 32];

fn refs(v: &[Vec<u8>]) -> Vec<&[u8]> {
    v.iter().map(Vec::as_slice).collect()
}

#[test]
fn a_committee_certificate_merges_beside_an_aggregate() {
    let (members, member_sigs) = single_epoch_signers(Scheme::Seed001, 3, EPOCH, &MESSAGE, Some(&[1; 32])).unwrap();
    let committee = group(Scheme::Seed001, &refs(&members)).unwrap();
    let threshold =
        ThresholdStatement { group_key: &committee.key, threshold: 2, message: &MESSAGE, epoch: Some(EPOCH) };
    let signers: Vec<Signer> = [0, 2]
        .iter()
        .map(|&i| Signer { public_key: &members[i], signature: &member_sigs[i], path: &committee.paths[i] })
        .collect();
    let certificate = prove_threshold(Scheme::Seed001, CHILD_SETTINGS, &threshold, &signers, false).unwrap();

    let (keys, sigs) = single_epoch_signers(Scheme::Seed001, 2, EPOCH, &MESSAGE, Some(&[2; 32])).unwrap();
    let statement = AggregateStatement { public_keys: &refs(&keys), messages: &[&MESSAGE[..]; 2], epochs: &[EPOCH; 2] };
    let subnet = aggregate(Scheme::Seed001, CHILD_SETTINGS, &statement, &refs(&sigs)).unwrap();

    let key_refs = refs(&keys);
    let committees = [Committee { group_key: &committee.key, threshold: 2 }];
    let statement = |committees| MergeStatement {
        scheme: Scheme::Seed001,
        public_keys: &key_refs,
        messages: &[&MESSAGE],
        epochs: &[EPOCH],
        committees,
    };
    let merged = merge::merge(CHILD_SETTINGS, &statement(&committees), &[&subnet, &certificate]).unwrap();
    merge::verify_merged(CHILD_SETTINGS, &statement(&committees), &merged).unwrap();
    let info = merge::inspect(&merged).unwrap();
    assert_eq!(info.shape, vec![Shape::Aggregate(2), Shape::Threshold]);
    assert_eq!((info.participants(), info.committees(), info.depth()), (2, 1, 1));

    // No committee for the threshold child: its shape does not split.
    let e = merge::verify_merged(CHILD_SETTINGS, &statement(&[]), &merged).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Verify, "{e}");
    // A threshold above the certificate's count, and another group.
    let higher = [Committee { group_key: &committee.key, threshold: 3 }];
    let e = merge::verify_merged(CHILD_SETTINGS, &statement(&higher), &merged).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Verify, "{e}");
    let other = group(Scheme::Seed001, &refs(&keys)).unwrap();
    let other = [Committee { group_key: &other.key, threshold: 2 }];
    assert_eq!(
        merge::verify_merged(CHILD_SETTINGS, &statement(&other), &merged).unwrap_err().kind(),
        ErrorKind::Verify
    );
    // A committee key that does not decode.
    let garbled = [Committee { group_key: b"no key", threshold: 2 }];
    assert_eq!(
        merge::verify_merged(CHILD_SETTINGS, &statement(&garbled), &merged).unwrap_err().kind(),
        ErrorKind::Decode
    );
    // The children in the other order prove the other shape: refused
    // against the merged proof of this one.
    let swapped = merge::merge(CHILD_SETTINGS, &statement(&committees), &[&certificate, &subnet]).unwrap();
    assert_eq!(merge::inspect(&swapped).unwrap().shape, vec![Shape::Threshold, Shape::Aggregate(2)]);
    merge::verify_merged(CHILD_SETTINGS, &statement(&committees), &swapped).unwrap();
    assert_ne!(swapped, merged);
    // A merge told of no committee refuses a certificate child.
    let e = merge::merge(CHILD_SETTINGS, &statement(&[]), &[&subnet, &certificate]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Argument, "{e}");
    // A shape with a certificate has no verifying key.
    assert_eq!(merge::MergeKey::new(Scheme::Seed001, &merged).unwrap_err().kind(), ErrorKind::Argument);
}

/// A verifying key made from one merged proof verifies another of the same
/// shape, of other signers, as `verify_merged` does; it refuses the keys
/// exchanged between children, a proof of another shape or a statement of
/// another scheme (argument errors), and bytes that are no merged proof.
#[test]
fn a_verifying_key_verifies_every_merged_proof_of_its_shape() {
    let child = |seed: u8| {
        let (keys, sigs) = single_epoch_signers(Scheme::Seed001, 2, EPOCH, &MESSAGE, Some(&[seed; 32])).unwrap();
        let st = AggregateStatement { public_keys: &refs(&keys), messages: &[&MESSAGE[..]], epochs: &[EPOCH] };
        let proof = aggregate(Scheme::Seed001, CHILD_SETTINGS, &st, &refs(&sigs)).unwrap();
        (keys, proof)
    };
    let ((a_keys, a), (b_keys, b), (c_keys, c)) = (child(6), child(7), child(8));
    let ab: Vec<&[u8]> = refs(&a_keys).into_iter().chain(refs(&b_keys)).collect();
    let ac: Vec<&[u8]> = refs(&a_keys).into_iter().chain(refs(&c_keys)).collect();
    let ba: Vec<&[u8]> = refs(&b_keys).into_iter().chain(refs(&a_keys)).collect();
    let a_only = refs(&a_keys);
    let statement = |keys| MergeStatement {
        scheme: Scheme::Seed001,
        public_keys: keys,
        messages: &[&MESSAGE],
        epochs: &[EPOCH],
        committees: &[],
    };
    let merged_ab = merge::merge(CHILD_SETTINGS, &statement(&ab), &[&a, &b]).unwrap();
    let merged_ac = merge::merge(CHILD_SETTINGS, &statement(&ac), &[&a, &c]).unwrap();
    let key = merge::MergeKey::new(Scheme::Seed001, &merged_ab).unwrap();
    assert_eq!(key.scheme(), Scheme::Seed001);
    let security = merge::verify_merged_security(CHILD_SETTINGS, &statement(&ac), &merged_ac).unwrap();
    assert_eq!(key.verify(CHILD_SETTINGS, &statement(&ac), &merged_ac).unwrap(), security);
    key.verify(CHILD_SETTINGS, &statement(&ab), &merged_ab).unwrap();

    assert_eq!(key.verify(CHILD_SETTINGS, &statement(&ac), &merged_ab).unwrap_err().kind(), ErrorKind::Verify);
    assert_eq!(key.verify(CHILD_SETTINGS, &statement(&ba), &merged_ab).unwrap_err().kind(), ErrorKind::Verify);
    let one = merge::merge(CHILD_SETTINGS, &statement(&a_only), &[&a]).unwrap();
    let e = key.verify(CHILD_SETTINGS, &statement(&a_only), &one).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Argument, "{e}");
    let lean = MergeStatement { scheme: Scheme::LeanSigProd, ..statement(&ab) };
    assert_eq!(key.verify(CHILD_SETTINGS, &lean, &merged_ab).unwrap_err().kind(), ErrorKind::Argument);
    assert_eq!(key.verify(CHILD_SETTINGS, &statement(&ab), b"SGMERG").unwrap_err().kind(), ErrorKind::Decode);
    assert_eq!(merge::MergeKey::new(Scheme::Seed001, &a).unwrap_err().kind(), ErrorKind::Decode);
}

/// Type 2 on bytes: an aggregate of one message, a committee's certificate
/// of another at a later epoch and a raw signature of a third merge into
/// one proof, each key and the committee with its own message and epoch
/// (the keys' first, then the committee's). A merge of one message refuses
/// these children, and the proof is refused against the messages as one,
/// two keys' messages exchanged, another epoch for the committee, or lists
/// of another length.
#[test]
fn signers_of_several_messages_merge_into_one_proof() {
    const OTHER: [u8; 32] = [0x6b; 32];
    const THIRD: [u8; 32] = [0x7c; 32];
    const LATER: u32 = EPOCH + 3;
    let (members, member_sigs) = single_epoch_signers(Scheme::Seed001, 3, LATER, &OTHER, Some(&[3; 32])).unwrap();
    let committee = group(Scheme::Seed001, &refs(&members)).unwrap();
    let threshold = ThresholdStatement { group_key: &committee.key, threshold: 2, message: &OTHER, epoch: Some(LATER) };
    let signers: Vec<Signer> = [0, 1]
        .iter()
        .map(|&i| Signer { public_key: &members[i], signature: &member_sigs[i], path: &committee.paths[i] })
        .collect();
    let certificate = prove_threshold(Scheme::Seed001, CHILD_SETTINGS, &threshold, &signers, false).unwrap();
    let (subnet_keys, subnet_sigs) = single_epoch_signers(Scheme::Seed001, 2, EPOCH, &MESSAGE, Some(&[4; 32])).unwrap();
    let statement =
        AggregateStatement { public_keys: &refs(&subnet_keys), messages: &[&MESSAGE[..]], epochs: &[EPOCH] };
    let subnet = aggregate(Scheme::Seed001, CHILD_SETTINGS, &statement, &refs(&subnet_sigs)).unwrap();
    let (raw_keys, raw_sigs) = single_epoch_signers(Scheme::Seed001, 1, EPOCH, &THIRD, Some(&[5; 32])).unwrap();

    let keys: Vec<&[u8]> = refs(&subnet_keys).into_iter().chain(refs(&raw_keys)).collect();
    let committees = [Committee { group_key: &committee.key, threshold: 2 }];
    fn several<'a>(
        keys: &'a [&'a [u8]],
        committees: &'a [Committee<'a>],
        messages: &'a [&'a [u8]],
        epochs: &'a [u32],
    ) -> MergeStatement<'a> {
        MergeStatement { scheme: Scheme::Seed001, public_keys: keys, messages, epochs, committees }
    }
    let (messages, epochs): ([&[u8]; 4], _) = ([&MESSAGE, &MESSAGE, &THIRD, &OTHER], [EPOCH, EPOCH, EPOCH, LATER]);
    let children = [&subnet[..], &certificate[..]];
    let merged = merge::merge_signed(
        CHILD_SETTINGS,
        &several(&keys, &committees, &messages, &epochs),
        &children,
        &refs(&raw_sigs),
    )
    .unwrap();
    merge::verify_merged(CHILD_SETTINGS, &several(&keys, &committees, &messages, &epochs), &merged).unwrap();
    assert_eq!(
        merge::inspect(&merged).unwrap().shape,
        vec![Shape::Aggregate(2), Shape::Threshold, Shape::Aggregate(1)]
    );

    // One message for all (type 1): the certificate is of another.
    let e = merge::merge_signed(
        CHILD_SETTINGS,
        &several(&keys, &committees, &[&MESSAGE], &[EPOCH]),
        &children,
        &refs(&raw_sigs),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Prove, "{e}");
    let refused = |messages: &[&[u8]], epochs: &[u32]| {
        merge::verify_merged(CHILD_SETTINGS, &several(&keys, &committees, messages, epochs), &merged)
            .unwrap_err()
            .kind()
    };
    assert_eq!(refused(&[&MESSAGE], &[EPOCH]), ErrorKind::Verify);
    assert_eq!(refused(&[&MESSAGE, &THIRD, &MESSAGE, &OTHER], &epochs), ErrorKind::Verify);
    assert_eq!(refused(&messages, &[EPOCH, EPOCH, EPOCH, EPOCH]), ErrorKind::Verify);
    assert_eq!(refused(&messages[..3], &epochs), ErrorKind::Argument);
    assert_eq!(refused(&messages, &epochs[..2]), ErrorKind::Argument);
}
