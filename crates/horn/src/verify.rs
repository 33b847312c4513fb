//! Verifying collections: the naive baseline and the fast path.
//!
//! The fast path does, for a whole slot's worth of collections:
//! 1. rebuild every aggregate key with the cheaper of bulk addition and
//!    subtraction from the committee key, in parallel (rayon);
//! 2. check all `(key, message, signature)` sets with one randomized batched
//!    pairing check ([`sigagg_bls::batch_verify_with_rng`]): one hash per distinct
//!    message, two 64-bit-scalar MSMs and one final exponentiation.
//!
//! Batching is sound here because every signature was subgroup-checked when
//! it was decoded (the [`Signature`](sigagg_bls::Signature) invariant), every key
//! is a sum of registered keys with proven possession, and the weights are
//! secret, nonzero and 64 bits long. If the batch fails, each collection is
//! checked on its own so that the caller learns exactly which ones are bad.

use rand::CryptoRng;
use rayon::prelude::*;

use super::{
    Collection, HornError, HornValidators, MultiplicityAggregate, aggregate_key, aggregate_key_naive, aggregate_keys,
    multiplicity_key,
};
use sigagg_bls::{SignatureSet, batch_verify_with_rng};

/// Naive verification of one collection: one point addition per set bit,
/// then a pairing check.
pub fn verify_collection_naive(
    validators: &HornValidators,
    message: &[u8],
    collection: &Collection,
) -> Result<(), HornError> {
    collection.check_shape(validators.params())?;
    let committee = validators.committee(collection.committee)?;
    let key = aggregate_key_naive(committee, &collection.bits)?;
    Ok(collection.signature.verify(&key, message)?)
}

/// Fast verification of one collection (cheaper reconstruction, own pairing check).
pub fn verify_collection(
    validators: &HornValidators,
    message: &[u8],
    collection: &Collection,
) -> Result<(), HornError> {
    collection.check_shape(validators.params())?;
    let committee = validators.committee(collection.committee)?;
    let (key, _) = aggregate_key(committee, &collection.bits)?;
    Ok(collection.signature.verify(&key, message)?)
}

/// The baseline for many collections: [`verify_collection_naive`] on each,
/// spread over rayon's threads like the fast path, so that the two compare
/// at any thread count.
pub fn verify_collections_naive(
    validators: &HornValidators,
    items: &[(&[u8], &Collection)],
) -> Vec<Result<(), HornError>> {
    items.par_iter().map(|(m, c)| verify_collection_naive(validators, m, c)).collect()
}

/// The fast path for many `(message, collection)` pairs, with weights from
/// the thread-local CSPRNG. One result per item.
pub fn verify_collections(validators: &HornValidators, items: &[(&[u8], &Collection)]) -> Vec<Result<(), HornError>> {
    verify_collections_with_rng(validators, items, &mut rand::rng())
}

/// [`verify_collections`] with an explicit cryptographic RNG for the weights.
pub fn verify_collections_with_rng<R: CryptoRng + ?Sized>(
    validators: &HornValidators,
    items: &[(&[u8], &Collection)],
    rng: &mut R,
) -> Vec<Result<(), HornError>> {
    let collections: Vec<&Collection> = items.iter().map(|(_, c)| *c).collect();
    let keys = aggregate_keys(validators, &collections);
    let mut results: Vec<Result<(), HornError>> = Vec::with_capacity(items.len());
    let mut sets: Vec<(usize, SignatureSet<'_>)> = Vec::new();
    for (i, (key, (message, collection))) in keys.into_iter().zip(items).enumerate() {
        match key {
            Ok(public_key) => {
                sets.push((i, SignatureSet { public_key, message, signature: collection.signature }));
                results.push(Ok(()));
            }
            Err(e) => results.push(Err(e)),
        }
    }
    if sets.is_empty() {
        return results;
    }
    let batch: Vec<SignatureSet<'_>> = sets.iter().map(|(_, s)| *s).collect();
    if batch_verify_with_rng(&batch, rng).is_err() {
        let singles: Vec<(usize, Result<(), HornError>)> = sets
            .par_iter()
            .map(|(i, s)| (*i, s.signature.verify(&s.public_key, s.message).map_err(HornError::from)))
            .collect();
        for (i, r) in singles {
            results[i] = r;
        }
    }
    results
}

/// Verifies a multiplicity aggregate: key by 4-bit MSM, then a pairing check.
pub fn verify_multiplicity_aggregate(
    validators: &HornValidators,
    message: &[u8],
    aggregate: &MultiplicityAggregate,
) -> Result<(), HornError> {
    aggregate.check_shape(validators.params())?;
    let committee = validators.committee(aggregate.committee)?;
    let key = multiplicity_key(committee, &aggregate.counts)?;
    Ok(aggregate.signature.verify(&key, message)?)
}
