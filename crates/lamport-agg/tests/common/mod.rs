//! Shared fixtures: keys, signatures, groups (deterministic seeds).

#![allow(dead_code)]

use sigagg_lamport::{GroupTree, ParameterSet, PublicKey, SecretKey, Signature, keygen_from_seeds};
use sigagg_lamport_agg::{AggregateEntry, AggregateStatement, Signer};

/// `n` key pairs from seeds derived from `tag`.
pub fn keys<S: ParameterSet>(tag: u8, n: usize) -> Vec<(PublicKey<S>, SecretKey<S>)> {
    let seeds: Vec<[u8; 32]> = (0..n)
        .map(|i| {
            let mut s = [tag; 32];
            s[..8].copy_from_slice(&(i as u64).to_le_bytes());
            s
        })
        .collect();
    keygen_from_seeds::<S>(&seeds).expect("distinct seeds")
}

/// An aggregate statement of `n` entries with distinct messages, and its signatures.
pub fn aggregate_batch<S: ParameterSet>(tag: u8, n: usize) -> (AggregateStatement<S>, Vec<Signature<S>>) {
    let (entries, sigs): (Vec<_>, Vec<_>) = keys::<S>(tag, n)
        .into_iter()
        .enumerate()
        .map(|(i, (pk, mut sk))| {
            let message = format!("message {i} of batch {tag}").into_bytes();
            let sig = sk.sign(&message).unwrap();
            (AggregateEntry { public_key: pk, message }, sig)
        })
        .unzip();
    (AggregateStatement::new(entries).unwrap(), sigs)
}

/// A group of `n` members, its tree and the secret keys.
pub fn group<S: ParameterSet>(tag: u8, n: usize) -> (GroupTree, Vec<PublicKey<S>>, Vec<SecretKey<S>>) {
    let (pks, sks): (Vec<_>, Vec<_>) = keys::<S>(tag, n).into_iter().unzip();
    (GroupTree::new(&pks).unwrap(), pks, sks)
}

/// Members `indices` of the group sign `message`.
pub fn signers<S: ParameterSet>(
    tree: &GroupTree,
    pks: &[PublicKey<S>],
    sks: &mut [SecretKey<S>],
    indices: &[usize],
    message: &[u8],
) -> Vec<Signer<S>> {
    indices
        .iter()
        .map(|&i| {
            let sig = sks[i].sign(message).unwrap();
            Signer { public_key: pks[i], signature: sig, path: tree.prove(i as u32).unwrap() }
        })
        .collect()
}
