//! Helpers the merge tests share.

use sigagg_xmss::{Seed001, Signature, single_epoch_key_and_signature};
use sigagg_xmss_agg::{AggregateEntry, AggregateStatement, Proof};

/// A statement of `n` fresh signers of `message` at `epoch`, and their
/// signatures.
pub fn signed(n: usize, message: [u8; 32], epoch: u32) -> (AggregateStatement, Vec<Signature<Seed001>>) {
    let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), epoch, &message).unwrap();
            (AggregateEntry { public_key: pk, epoch, message }, sig)
        })
        .unzip();
    (AggregateStatement::new(entries).unwrap(), signatures)
}

/// A copy of a proof (proofs are not `Clone`: their bytes are).
pub fn copy(proof: &Proof) -> Proof {
    Proof::from_bytes(&proof.to_bytes()).unwrap()
}
