//! Type 2: a merge over several messages. Children of two messages and
//! epochs (one of them raw signatures) merge into one proof that verifies
//! against each signer's own message and epoch, rebuilt from the keys,
//! messages and shape; the same proof is refused against the children's
//! messages exchanged, another epoch, and the statement of one message. A
//! type-1 statement refuses children of several messages; a type-2 one
//! takes a signer once per message, never twice for one. A type-2 proof
//! splits into one message's part, verified without the others' keys.

mod common;

use common::{copy, signed};
use p3_field::PrimeCharacteristicRing;
use sigagg_merge::{
    CHILD_SETTINGS, Child, ChildHeader, MergeError, MergeKey, MergeStatement, MergedProof, Messages, Shape, Withheld,
    merge, merge_signed, split, verify, verify_with_key,
};
use sigagg_recursion::Ext;
use sigagg_xmss::{LeanSigProd, Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::prove as aggregate;
use sigagg_xmss_agg::{AggScheme, AggregateEntry, AggregateStatement};

const HEAD: [u8; 32] = *b"a vote for one head of the chain";
const OTHER: [u8; 32] = *b"a vote for another head, later..";
const SLOT: u32 = 9;

/// The statement with every entry's message (and epoch) replaced.
fn resigned<S: AggScheme>(statement: &AggregateStatement<S>, message: [u8; 32], epoch: u32) -> AggregateStatement<S> {
    let entries = statement.entries().iter().map(|e| AggregateEntry { message, epoch, ..*e }).collect();
    AggregateStatement::from_entries(entries).unwrap()
}

#[test]
fn children_of_several_messages_merge_into_one_proof() {
    let (head, head_sigs) = signed(3, HEAD, SLOT);
    let head_proof = aggregate(&CHILD_SETTINGS, &head, &head_sigs).unwrap();
    let (other, other_sigs) = signed(2, OTHER, SLOT + 1);
    let children = vec![Child::Aggregate(head.clone())];
    let (statement, merged) =
        merge_signed(&CHILD_SETTINGS, Messages::Several, children, vec![head_proof.into()], other.clone(), &other_sigs)
            .unwrap();
    assert_eq!(statement.messages(), [(HEAD, SLOT), (OTHER, SLOT + 1)]);
    let merged = MergedProof::from_bytes(&merged.to_bytes()).unwrap();
    verify(&CHILD_SETTINGS, &statement, &merged).unwrap();

    // A verifier rebuilds the statement from each signer's key, message
    // and epoch and the proof's shape.
    let entries: Vec<_> = statement.entries().into_iter().copied().collect();
    assert_eq!(merged.shape(), [Shape::Aggregate(3), Shape::Aggregate(2)]);
    let rebuilt = MergeStatement::split_entries(&entries, &[], &merged.shape(), Messages::Several).unwrap();
    assert_eq!(rebuilt, statement);
    // Nor as one message: the type-1 split refuses these entries.
    assert!(matches!(
        MergeStatement::split_entries(&entries, &[], &merged.shape(), Messages::One),
        Err(MergeError::MessageMismatch { child: 1 })
    ));

    // The children's messages exchanged, another epoch, or one message for
    // all: other statements, refused.
    let refuse = |children: Vec<AggregateStatement>| {
        let wrong = MergeStatement::of_messages(children.into_iter().map(Child::Aggregate).collect()).unwrap();
        assert!(matches!(verify(&CHILD_SETTINGS, &wrong, &merged), Err(MergeError::Circuit(_))));
    };
    refuse(vec![resigned(&head, OTHER, SLOT + 1), resigned(&other, HEAD, SLOT)]);
    refuse(vec![head.clone(), resigned(&other, OTHER, SLOT)]);
    refuse(vec![head.clone(), resigned(&other, HEAD, SLOT)]);
}

#[test]
fn a_signer_is_once_per_message_and_one_message_is_type_one() {
    let (head, _) = signed(2, HEAD, SLOT);
    let (other, _) = signed(2, OTHER, SLOT);
    let children = || vec![Child::Aggregate(head.clone()), Child::Aggregate(other.clone())];
    assert!(matches!(MergeStatement::of(children()), Err(MergeError::MessageMismatch { child: 1 })));
    let several = MergeStatement::of_messages(children()).unwrap();
    assert_eq!(several.messages(), [(HEAD, SLOT), (OTHER, SLOT)]);
    // The same keys on another message (or at another epoch) are other
    // signatures; twice on one message they are a duplicate.
    for (message, epoch) in [(OTHER, SLOT), (HEAD, SLOT + 1)] {
        let again = vec![Child::Aggregate(head.clone()), Child::Aggregate(resigned(&head, message, epoch))];
        assert_eq!(MergeStatement::of_messages(again).unwrap().participants(), 4);
    }
    let twice = vec![Child::Aggregate(head.clone()), Child::Merged(several)];
    assert!(matches!(MergeStatement::of_messages(twice), Err(MergeError::DuplicateSigner { child: 1 })));
    // A type-1 statement is a type-2 one with one message.
    let one = || vec![Child::Aggregate(head.clone()), Child::Aggregate(resigned(&other, HEAD, SLOT))];
    assert_eq!(MergeStatement::of(one()).unwrap(), MergeStatement::of_messages(one()).unwrap());
    assert_eq!(MergeStatement::of(one()).unwrap().messages(), [(HEAD, SLOT)]);
}

/// A type-2 merge split into one message's part: the same proof verifies
/// against the kept child alone, the other withheld (its header its
/// tables' heights and seed, its keys unknown). Refused: the kept child's
/// statement changed, another seed for the withheld child, a withheld
/// claim changed, and the split proof against the whole statement. A
/// withheld merged child (a merge of its own) splits the same way, and the
/// split proof merges again as a child and verifies.
#[test]
fn a_merge_of_several_messages_splits_into_one_messages_part() {
    let (head, head_sigs) = signed(2, HEAD, SLOT);
    let (other, other_sigs) = signed(3, OTHER, SLOT + 1);
    let head_proof = aggregate(&CHILD_SETTINGS, &head, &head_sigs).unwrap();
    let other_proof = aggregate(&CHILD_SETTINGS, &other, &other_sigs).unwrap();
    let children = vec![Child::Aggregate(head.clone()), Child::Aggregate(other.clone())];
    let statement = MergeStatement::of_messages(children).unwrap();
    let proofs = [head_proof.into(), copy(&other_proof).into()];
    let merged = merge(&CHILD_SETTINGS, &statement, &proofs).unwrap();
    // The whole merge's key: a withheld child has the shape of its kept self.
    let key = MergeKey::new(&merged.children).unwrap();

    let (kept, split_proof) = split(&statement, merged, &[0]).unwrap();
    assert_eq!(kept.messages(), [(HEAD, SLOT)]);
    assert_eq!(kept.participants(), 2);
    let Child::Withheld(withheld) = &kept.children()[1] else { panic!("the second child is withheld") };
    assert!(matches!(withheld, Withheld::Aggregate { signers: 3, .. }));
    let bytes = split_proof.to_bytes();
    let split_proof = MergedProof::from_bytes(&bytes).unwrap();
    verify(&CHILD_SETTINGS, &kept, &split_proof).unwrap();
    verify_with_key(&key, &CHILD_SETTINGS, &kept, &split_proof).unwrap();
    verify_with_key(&MergeKey::new(&split_proof.children).unwrap(), &CHILD_SETTINGS, &kept, &split_proof).unwrap();
    // The verifier rebuilds the kept statement from the kept keys alone.
    let entries: Vec<_> = head.entries().to_vec();
    assert_eq!(MergeStatement::split_entries(&entries, &[], &split_proof.shape(), Messages::Several).unwrap(), kept);

    // The kept child's statement changed (another message for its keys).
    let moved = vec![Child::Aggregate(resigned(&head, OTHER, SLOT)), Child::Withheld(withheld.clone())];
    let moved = MergeStatement::of_messages(moved).unwrap();
    assert!(verify(&CHILD_SETTINGS, &moved, &split_proof).is_err());
    // Another seed for the withheld child (statement and header alike).
    let Withheld::Aggregate { signers, mut digest } = withheld.clone() else { unreachable!() };
    digest[0] ^= 1;
    let forged = Withheld::Aggregate { signers, digest };
    let forged_statement =
        MergeStatement::of_messages(vec![Child::Aggregate(head.clone()), Child::Withheld(forged.clone())]).unwrap();
    let mut forged_proof = MergedProof::from_bytes(&bytes).unwrap();
    forged_proof.children[1] = ChildHeader::Withheld(forged);
    assert!(matches!(verify(&CHILD_SETTINGS, &forged_statement, &forged_proof), Err(MergeError::Circuit(_))));
    let refused = verify_with_key(&key, &CHILD_SETTINGS, &forged_statement, &forged_proof);
    assert!(matches!(refused, Err(MergeError::Circuit(_))));
    // A withheld claim changed: not checked natively, refused by the proof.
    let mut changed = MergedProof::from_bytes(&bytes).unwrap();
    let last = changed.claims.len() - 1;
    changed.claims[last] += Ext::ONE;
    assert!(matches!(verify(&CHILD_SETTINGS, &kept, &changed), Err(MergeError::Circuit(_))));
    assert!(matches!(verify_with_key(&key, &CHILD_SETTINGS, &kept, &changed), Err(MergeError::Circuit(_))));
    // Flipped bytes, over the whole encoding (the tree's nodes, the
    // withheld child's digest among them, then the circuit's proof):
    // refused, without a panic.
    for at in (0..bytes.len()).step_by(bytes.len() / 24).chain([bytes.len() - 1]) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x04;
        let refused = MergedProof::from_bytes(&flipped).map_or(true, |p| verify(&CHILD_SETTINGS, &kept, &p).is_err());
        assert!(refused, "byte {at}");
    }
    // Against the whole statement the headers no longer match.
    assert!(verify(&CHILD_SETTINGS, &statement, &split_proof).is_err());
    // Nothing kept, an index past the children.
    for keep in [&[][..], &[2]] {
        let proof = MergedProof::from_bytes(&bytes).unwrap();
        assert!(matches!(split(&kept, proof, keep), Err(MergeError::Withheld(_))), "{keep:?}");
    }

    // A merged child withheld: the merge of `other` alone beside `head`.
    let inner = MergeStatement::new(vec![other.clone()]).unwrap();
    let inner_proof = merge(&CHILD_SETTINGS, &inner, &[other_proof.into()]).unwrap();
    let (head2, head2_sigs) = signed(2, HEAD, SLOT);
    let head2_proof = aggregate(&CHILD_SETTINGS, &head2, &head2_sigs).unwrap();
    let outer = MergeStatement::of_messages(vec![Child::Aggregate(head2.clone()), Child::Merged(inner)]).unwrap();
    let outer_proof = merge(&CHILD_SETTINGS, &outer, &[copy(&head2_proof).into(), inner_proof.into()]).unwrap();
    let (kept2, split2) = split(&outer, outer_proof, &[0]).unwrap();
    assert!(matches!(&kept2.children()[1], Child::Withheld(Withheld::Merged { .. })));
    let split2 = MergedProof::from_bytes(&split2.to_bytes()).unwrap();
    verify(&CHILD_SETTINGS, &kept2, &split2).unwrap();
    // The split proof is a child again, beside the first split's kept part.
    let parent = MergeStatement::of_messages(vec![Child::Merged(kept2), Child::Merged(kept)]).unwrap();
    let root = merge(&CHILD_SETTINGS, &parent, &[split2.into(), split_proof.into()]).unwrap();
    verify(&CHILD_SETTINGS, &parent, &MergedProof::from_bytes(&root.to_bytes()).unwrap()).unwrap();
    verify_with_key(&MergeKey::new(&root.children).unwrap(), &CHILD_SETTINGS, &parent, &root).unwrap();
    assert_eq!(parent.participants(), 4);
}

/// Withheld children out of bounds are refused before any table is built.
#[test]
fn withheld_children_out_of_bounds_are_refused() {
    let digest = [7; 32];
    for w in [
        Withheld::Aggregate { signers: 0, digest },
        Withheld::Aggregate { signers: u32::MAX, digest },
        Withheld::Merged { log_heights: vec![10; 4], digest },
        Withheld::Merged { log_heights: vec![10, 10, 10, 10, 25], digest },
    ] {
        assert!(matches!(
            MergeStatement::<Seed001>::of_messages(vec![Child::Withheld(w)]),
            Err(MergeError::Withheld(_))
        ));
    }
}

/// leanSig production children (what lean clients sign) of two slots
/// merge as type 2 and split: the kept child's part verifies with its keys
/// alone, and is refused with its keys on the other slot's vote.
#[test]
fn lean_sig_children_of_two_slots_merge_and_split() {
    let lean = |n: usize, message: [u8; 32], epoch: u32| {
        let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
            .map(|_| {
                let (pk, sig) =
                    single_epoch_key_and_signature::<LeanSigProd, _>(&mut rand::rng(), epoch, &message).unwrap();
                (AggregateEntry { public_key: pk, epoch, message }, sig)
            })
            .unzip();
        let statement = AggregateStatement::from_entries(entries).unwrap();
        let proof = sigagg_xmss_agg::leansig::aggregate::prove(&CHILD_SETTINGS, &statement, &signatures).unwrap();
        (statement, proof)
    };
    let ((head, head_proof), (other, other_proof)) = (lean(2, HEAD, SLOT), lean(2, OTHER, SLOT + 1));
    let children = vec![Child::Aggregate(head.clone()), Child::Aggregate(other)];
    let statement = MergeStatement::<LeanSigProd>::of_messages(children).unwrap();
    let merged = merge(&CHILD_SETTINGS, &statement, &[head_proof.into(), other_proof.into()]).unwrap();
    verify(&CHILD_SETTINGS, &statement, &merged).unwrap();
    let (kept, split_proof) = split(&statement, merged, &[0]).unwrap();
    verify(&CHILD_SETTINGS, &kept, &MergedProof::from_bytes(&split_proof.to_bytes()).unwrap()).unwrap();
    let moved = vec![Child::Aggregate(resigned(&head, OTHER, SLOT + 1)), kept.children()[1].clone()];
    let moved = MergeStatement::of_messages(moved).unwrap();
    assert!(verify(&CHILD_SETTINGS, &moved, &split_proof).is_err());
}
