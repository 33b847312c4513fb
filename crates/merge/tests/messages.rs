//! Type 2: a merge over several messages. Children of two messages and
//! epochs (one of them raw signatures) merge into one proof that verifies
//! against each signer's own message and epoch, rebuilt from the keys,
//! messages and shape; the same proof is refused against the children's
//! messages exchanged, another epoch, and the statement of one message. A
//! type-1 statement refuses children of several messages; a type-2 one
//! takes a signer once per message, never twice for one.

use sigagg_merge::{
    CHILD_SETTINGS, Child, MergeError, MergeStatement, MergedProof, Messages, Shape, merge_signed, verify,
};
use sigagg_xmss::{Seed001, Signature, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::prove as aggregate;
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement};

const HEAD: [u8; 32] = *b"a vote for one head of the chain";
const OTHER: [u8; 32] = *b"a vote for another head, later..";
const SLOT: u32 = 9;

/// `n` fresh signers of `message` at `epoch`, and their signatures.
fn signed(n: usize, message: [u8; 32], epoch: u32) -> (AggregateStatement, Vec<Signature<Seed001>>) {
    let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), epoch, &message).unwrap();
            (AggregateEntry { public_key: pk, epoch, message }, sig)
        })
        .unzip();
    (AggregateStatement::new(entries).unwrap(), signatures)
}

/// The statement with every entry's message (and epoch) replaced.
fn resigned(statement: &AggregateStatement, message: [u8; 32], epoch: u32) -> AggregateStatement {
    let entries = statement.entries().iter().map(|e| AggregateEntry { message, epoch, ..*e }).collect();
    AggregateStatement::new(entries).unwrap()
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
