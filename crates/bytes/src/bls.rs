//! BLS12-381 on bytes, Ethereum's proof-of-possession ciphersuite
//! (`sigagg-bls`): secret keys 32 bytes (big-endian scalar), public keys
//! 48 bytes (compressed G1), signatures and proofs of possession 96 bytes
//! (compressed G2). Every decoded point is checked to be on the curve and
//! in the subgroup; public keys must not be the identity.
//!
//! BLS keys are stateless: a secret key is plain bytes here, and signing
//! twice is harmless.
//!
//! # Key lists need proofs of possession
//!
//! An aggregate over a list of keys is only as good as the list: a key
//! chosen as `x·G - (sum of the others)` lets its author sign for
//! everyone. Functions over key lists take one proof of possession per key
//! and check them, or `None` for keys whose proofs were checked before
//! (as Ethereum does once, at deposit).

use sigagg_bls::{KeyRegistry, ProofOfPossession, PublicKey, SecretKey, Signature, SignatureSet};
use zeroize::Zeroizing;

use crate::error::Result;
use crate::input::{decode, decode_each, same_length};

/// Bytes of a secret key.
pub const SECRET_KEY_BYTES: usize = sigagg_bls::SECRET_KEY_BYTES;
/// Bytes of a public key.
pub const PUBLIC_KEY_BYTES: usize = sigagg_bls::PUBLIC_KEY_BYTES;
/// Bytes of a signature or proof of possession.
pub const SIGNATURE_BYTES: usize = sigagg_bls::SIGNATURE_BYTES;

/// A new key pair: `(secret key, public key)`. With `ikm` (input key
/// material, at least 32 bytes) the IETF KeyGen derivation is
/// deterministic; without, 32 bytes come from the operating system.
pub fn keygen(ikm: Option<&[u8]>) -> Result<(Zeroizing<[u8; SECRET_KEY_BYTES]>, [u8; PUBLIC_KEY_BYTES])> {
    let sk = match ikm {
        Some(ikm) => SecretKey::from_key_material(ikm)?,
        None => SecretKey::generate(&mut rand::rng()),
    };
    Ok((Zeroizing::new(sk.to_bytes()), sk.public_key().to_bytes()))
}

/// The public key of `secret_key`.
pub fn public_key(secret_key: &[u8]) -> Result<[u8; PUBLIC_KEY_BYTES]> {
    Ok(SecretKey::from_bytes(secret_key)?.public_key().to_bytes())
}

/// Signs `message` (any length) with `secret_key`.
pub fn sign(secret_key: &[u8], message: &[u8]) -> Result<[u8; SIGNATURE_BYTES]> {
    Ok(SecretKey::from_bytes(secret_key)?.sign(message).to_bytes())
}

/// Verifies `signature` on `message` under `public_key`.
pub fn verify(public_key: &[u8], message: &[u8], signature: &[u8]) -> Result<()> {
    let pk = PublicKey::from_bytes(public_key)?;
    Ok(Signature::from_bytes(signature)?.verify(&pk, message)?)
}

/// The proof of possession of `secret_key` (its public key signed under
/// the separate proof-of-possession tag).
pub fn prove_possession(secret_key: &[u8]) -> Result<[u8; SIGNATURE_BYTES]> {
    Ok(SecretKey::from_bytes(secret_key)?.prove_possession().to_bytes())
}

/// Checks the proof of possession `pop` of `public_key`.
pub fn verify_possession(public_key: &[u8], pop: &[u8]) -> Result<()> {
    let pk = PublicKey::from_bytes(public_key)?;
    Ok(ProofOfPossession::from_bytes(pop)?.verify(&pk)?)
}

/// The sum of `signatures` (at least one; each subgroup-checked).
pub fn aggregate(signatures: &[&[u8]]) -> Result<[u8; SIGNATURE_BYTES]> {
    let sigs = decode_each(signatures, "signature", Signature::from_bytes)?;
    Ok(sigagg_bls::aggregate(&sigs)?.to_bytes())
}

/// `FastAggregateVerify`: `signature` is the aggregate of every key of
/// `public_keys` signing `message`. `pops` holds one proof of possession
/// per key, checked here, or is `None` for keys proven before (see the
/// module docs). Empty and duplicate key lists are refused.
pub fn fast_aggregate_verify(
    public_keys: &[&[u8]],
    pops: Option<&[&[u8]]>,
    message: &[u8],
    signature: &[u8],
) -> Result<()> {
    let keys = proven_keys(public_keys, pops)?;
    let sig = decode(signature, Signature::from_bytes)?;
    Ok(sigagg_bls::fast_aggregate_verify(&keys, message, &sig)?)
}

/// `AggregateVerify`: `signature` is the aggregate of key `i` signing
/// `messages[i]` for every `i`. `pops` as in [`fast_aggregate_verify`].
pub fn aggregate_verify(
    public_keys: &[&[u8]],
    pops: Option<&[&[u8]]>,
    messages: &[&[u8]],
    signature: &[u8],
) -> Result<()> {
    let keys = proven_keys(public_keys, pops)?;
    let sig = decode(signature, Signature::from_bytes)?;
    Ok(sigagg_bls::aggregate_verify(&keys, messages, &sig)?)
}

/// Verifies many `(public_keys[i], messages[i], signatures[i])` sets at
/// once with random 64-bit weights: one multi-pairing instead of one
/// pairing check per set. Fails if any set is invalid (without saying
/// which: verify them one by one to find it); the lists must have one
/// length, at least one.
pub fn batch_verify(public_keys: &[&[u8]], messages: &[&[u8]], signatures: &[&[u8]]) -> Result<()> {
    same_length(("public keys", public_keys.len()), ("messages", messages.len()))?;
    same_length(("public keys", public_keys.len()), ("signatures", signatures.len()))?;
    let keys = decode_each(public_keys, "public key", PublicKey::from_bytes)?;
    let sigs = decode_each(signatures, "signature", Signature::from_bytes)?;
    let sets: Vec<SignatureSet<'_>> = keys
        .into_iter()
        .zip(messages)
        .zip(sigs)
        .map(|((public_key, message), signature)| SignatureSet { public_key, message, signature })
        .collect();
    Ok(sigagg_bls::batch_verify(&sets)?)
}

/// Decodes `public_keys` and, if `pops` are given, checks one proof of
/// possession per key; duplicates are refused either way. `None` is the
/// caller's statement that every key's proof was checked before (the
/// precondition of Ethereum's `FastAggregateVerify`, whose validators
/// prove possession once, at deposit): the keys are used for this one
/// verification and never stored.
pub(crate) fn proven_keys(public_keys: &[&[u8]], pops: Option<&[&[u8]]>) -> Result<Vec<PublicKey>> {
    let keys = decode_each(public_keys, "public key", PublicKey::from_bytes)?;
    let registry = match pops {
        None => KeyRegistry::from_keys_unchecked(keys)?,
        Some(pops) => KeyRegistry::from_keys_with_proofs(&with_proofs(keys, pops)?)?,
    };
    Ok(registry.keys().to_vec())
}

/// `keys` paired with their decoded proofs of possession.
pub(crate) fn with_proofs(keys: Vec<PublicKey>, pops: &[&[u8]]) -> Result<Vec<(PublicKey, ProofOfPossession)>> {
    same_length(("public keys", keys.len()), ("proofs of possession", pops.len()))?;
    let pops = decode_each(pops, "proof of possession", ProofOfPossession::from_bytes)?;
    Ok(keys.into_iter().zip(pops).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn pair(i: u8) -> (Zeroizing<[u8; 32]>, [u8; 48]) {
        keygen(Some(&[i; 32])).unwrap()
    }

    #[test]
    fn sign_verify_aggregate_and_possession() {
        let (sk1, pk1) = pair(1);
        let (sk2, pk2) = pair(2);
        assert_eq!(public_key(&*sk1).unwrap(), pk1);
        let (s1, s2) = (sign(&*sk1, b"m").unwrap(), sign(&*sk2, b"m").unwrap());
        verify(&pk1, b"m", &s1).unwrap();
        assert_eq!(verify(&pk2, b"m", &s1).unwrap_err().kind(), ErrorKind::Verify);
        let agg = aggregate(&[&s1, &s2]).unwrap();
        let (p1, p2) = (prove_possession(&*sk1).unwrap(), prove_possession(&*sk2).unwrap());
        verify_possession(&pk1, &p1).unwrap();
        assert_eq!(verify_possession(&pk1, &p2).unwrap_err().kind(), ErrorKind::Verify);
        fast_aggregate_verify(&[&pk1, &pk2], Some(&[&p1, &p2]), b"m", &agg).unwrap();
        fast_aggregate_verify(&[&pk1, &pk2], None, b"m", &agg).unwrap();
        let swapped = fast_aggregate_verify(&[&pk1, &pk2], Some(&[&p2, &p1]), b"m", &agg).unwrap_err();
        assert_eq!(swapped.kind(), ErrorKind::Verify);
        assert_eq!(fast_aggregate_verify(&[&pk1, &pk2], None, b"x", &agg).unwrap_err().kind(), ErrorKind::Verify);
        assert_eq!(fast_aggregate_verify(&[&pk1, &pk1], None, b"m", &agg).unwrap_err().kind(), ErrorKind::Argument);
        assert_eq!(fast_aggregate_verify(&[&pk1], Some(&[]), b"m", &s1).unwrap_err().kind(), ErrorKind::Argument);
        let agg2 = aggregate(&[&s1, &sign(&*sk2, b"n").unwrap()]).unwrap();
        aggregate_verify(&[&pk1, &pk2], Some(&[&p1, &p2]), &[b"m", b"n"], &agg2).unwrap();
        assert!(aggregate_verify(&[&pk1, &pk2], None, &[b"n", b"m"], &agg2).is_err());
        batch_verify(&[&pk1, &pk2], &[b"m", b"m"], &[&s1, &s2]).unwrap();
        assert_eq!(batch_verify(&[&pk1, &pk2], &[b"m", b"x"], &[&s1, &s2]).unwrap_err().kind(), ErrorKind::Verify);
        assert_eq!(batch_verify(&[&pk1], &[b"m", b"m"], &[&s1]).unwrap_err().kind(), ErrorKind::Argument);
    }

    #[test]
    fn malformed_inputs_are_decode_errors() {
        let (sk, pk) = pair(3);
        let sig = sign(&*sk, b"m").unwrap();
        assert_eq!(verify(&pk[1..], b"m", &sig).unwrap_err().kind(), ErrorKind::Decode);
        assert_eq!(verify(&pk, b"m", &[0u8; 96]).unwrap_err().kind(), ErrorKind::Decode);
        assert_eq!(sign(&[0u8; 32], b"m").unwrap_err().kind(), ErrorKind::Decode);
        assert_eq!(aggregate(&[]).unwrap_err().kind(), ErrorKind::Argument);
        assert_eq!(keygen(Some(&[1; 31])).unwrap_err().kind(), ErrorKind::Argument);
    }
}
