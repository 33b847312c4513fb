//! Group keys over real Lamport+ public keys: membership, non-membership,
//! out-of-range indices, duplicates, empty sets, tampered paths and
//! malformed encodings.

use p3_field::PrimeCharacteristicRing;
use sigagg_lamport::field::{F, ZERO_DIGEST};
use sigagg_lamport::group::{MAX_GROUP_SIZE, depth_for};
use sigagg_lamport::{
    DecodeError, GroupError, GroupKey, GroupTree, LamportPlus, MembershipProof, PublicKey, keygen_from_seeds,
    verify_membership,
};

fn keys(n: usize, salt: u8) -> Vec<PublicKey<LamportPlus>> {
    let seeds: Vec<[u8; 32]> = (0..n)
        .map(|i| {
            let mut s = [salt; 32];
            s[..8].copy_from_slice(&(i as u64).to_le_bytes());
            s
        })
        .collect();
    keygen_from_seeds::<LamportPlus>(&seeds).expect("distinct seeds").into_iter().map(|(pk, _)| pk).collect()
}

#[test]
fn members_prove_and_outsiders_do_not() {
    let outsiders = keys(3, 200);
    for n in [1usize, 2, 3, 7, 20] {
        let pks = keys(n, 1);
        let tree = GroupTree::new(&pks).unwrap();
        let group = tree.key();
        assert_eq!(group.size() as usize, n);
        assert_eq!(group.depth(), depth_for(n));
        for (i, pk) in pks.iter().enumerate() {
            let proof = tree.prove(i as u32).unwrap();
            assert_eq!(proof.siblings().len(), group.depth());
            assert_eq!(proof.verify(&group, pk), Ok(()));
            // A path encodes and decodes to itself.
            assert_eq!(MembershipProof::from_bytes(&proof.to_bytes()).unwrap(), proof);
            // An outsider cannot use a member's path.
            for o in &outsiders {
                assert_eq!(proof.verify(&group, o), Err(GroupError::NotAMember { index: i as u64 }));
            }
            // Every other member fails at this index (positions are bound).
            for (j, other) in pks.iter().enumerate() {
                if j != i {
                    assert!(proof.verify(&group, other).is_err());
                }
            }
        }
        for o in &outsiders {
            assert_eq!(tree.position(o.digest()), None);
        }
        assert_eq!(GroupKey::from_bytes(&group.to_bytes()).unwrap(), group);
    }
}

#[test]
fn tampered_paths_and_keys_rejected() {
    let pks = keys(7, 2);
    let tree = GroupTree::new(&pks).unwrap();
    let group = tree.key();
    let proof = tree.prove(5).unwrap();
    for s in 0..proof.siblings().len() {
        for k in 0..8 {
            let mut sib = proof.siblings().to_vec();
            sib[s][k] += F::ONE;
            let bad = MembershipProof::new(5, sib);
            assert_eq!(bad.verify(&group, &pks[5]), Err(GroupError::NotAMember { index: 5 }), "{s} {k}");
        }
    }
    // Right key, path of a neighbour's index.
    assert!(MembershipProof::new(4, proof.siblings().to_vec()).verify(&group, &pks[5]).is_err());
    // Too short or too long a path.
    let short = MembershipProof::new(5, proof.siblings()[1..].to_vec());
    assert_eq!(short.verify(&group, &pks[5]), Err(GroupError::PathLength { expected: 3, actual: 2 }));
    let mut long_sibs = proof.siblings().to_vec();
    long_sibs.push(ZERO_DIGEST);
    let long = MembershipProof::new(5, long_sibs);
    assert_eq!(long.verify(&group, &pks[5]), Err(GroupError::PathLength { expected: 3, actual: 4 }));
    // A tampered root, or a size that changes the depth.
    let mut root = *group.root();
    root[0] += F::ONE;
    assert!(proof.verify(&GroupKey::new(root, 7).unwrap(), &pks[5]).is_err());
    assert!(proof.verify(&GroupKey::new(*group.root(), 9).unwrap(), &pks[5]).is_err());
}

#[test]
fn out_of_range_indices_and_padding_rejected() {
    let pks = keys(5, 3);
    let tree = GroupTree::new(&pks).unwrap();
    let group = tree.key();
    assert_eq!(tree.prove(5), Err(GroupError::IndexOutOfRange { index: 5, size: 5 }));
    assert_eq!(tree.prove(u32::MAX), Err(GroupError::IndexOutOfRange { index: u64::from(u32::MAX), size: 5 }));
    // The padding leaf at index 5 has a genuine path in the full tree, but
    // the group key's size excludes it.
    let sibs = tree.prove(4).unwrap().siblings().to_vec();
    let mut pad_sibs = sibs.clone();
    pad_sibs[0] = *pks[4].digest();
    let pad_proof = MembershipProof::new(5, pad_sibs);
    assert_eq!(
        verify_membership(&group, &ZERO_DIGEST, &pad_proof),
        Err(GroupError::IndexOutOfRange { index: 5, size: 5 })
    );
    // With a larger claimed size of the same depth, the padding leaf would
    // pass: the size is part of the group key and must come from it.
    assert_eq!(verify_membership(&GroupKey::new(*group.root(), 6).unwrap(), &ZERO_DIGEST, &pad_proof), Ok(()));
}

#[test]
fn bad_sets_rejected() {
    assert_eq!(GroupTree::new::<LamportPlus>(&[]), Err(GroupError::EmptySet));
    let mut pks = keys(4, 4);
    pks.push(pks[1]);
    assert_eq!(GroupTree::new(&pks), Err(GroupError::DuplicateKey { first: 1, second: 4 }));
    let mut digests: Vec<_> = keys(3, 5).iter().map(|k| *k.digest()).collect();
    digests.insert(2, ZERO_DIGEST);
    assert_eq!(GroupTree::from_digests(digests), Err(GroupError::PaddingKey { index: 2 }));
    assert_eq!(GroupKey::new(ZERO_DIGEST, 0), Err(GroupError::EmptySet));
    assert!(matches!(GroupKey::new(ZERO_DIGEST, MAX_GROUP_SIZE as u32 + 1), Err(GroupError::TooLarge { .. })));
}

#[test]
fn group_key_decoding_is_strict() {
    let group = GroupTree::new(&keys(3, 6)).unwrap().key();
    let bytes = group.to_bytes();
    assert_eq!(bytes.len(), 36);
    for n in 0..bytes.len() {
        assert!(matches!(GroupKey::from_bytes(&bytes[..n]), Err(DecodeError::InvalidLength { .. })));
    }
    let mut b = bytes.clone();
    b[32..].copy_from_slice(&0u32.to_le_bytes());
    assert!(matches!(GroupKey::from_bytes(&b), Err(DecodeError::Inconsistent(_))));
    let mut b = bytes.clone();
    b[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(GroupKey::from_bytes(&b), Err(DecodeError::NonCanonicalFieldElement { what: "group key", offset: 4 }));
}

#[test]
fn member_order_matters() {
    let pks = keys(4, 7);
    let mut swapped = pks.clone();
    swapped.swap(0, 3);
    assert_ne!(GroupTree::new(&pks).unwrap().key(), GroupTree::new(&swapped).unwrap().key());
}
