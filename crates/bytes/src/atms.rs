//! Ad-hoc threshold multisignatures (ATMS, seed 000 section 1) on bytes,
//! over the BLS keys of [`crate::bls`] (`sigagg_bls::atms`).
//!
//! The aggregate key (88 bytes: the sum of the keys, the Merkle root of
//! the key list, its length) commits to a key list; an ATMS signature is
//! the sum of the signers' signatures plus the non-signers' keys with their
//! Merkle proofs, and verifies against the aggregate key alone.

use sigagg_bls::atms::{self, AggregateKey, AtmsError, AtmsSignature};
use sigagg_bls::{PublicKey, Signature};

use crate::bls::with_proofs;
use crate::error::{Error, ErrorKind, Result};
use crate::input::{decode, decode_each, same_length};

/// Bytes of an aggregate key.
pub const AGGREGATE_KEY_BYTES: usize = atms::AGGREGATE_KEY_BYTES;

/// The aggregate key of `public_keys` (in order), after checking one
/// proof of possession per key (`pops[i]` for key `i`): without them a
/// list ending in a rogue key would let its author sign for every key.
pub fn aggregate_key(public_keys: &[&[u8]], pops: &[&[u8]]) -> Result<[u8; AGGREGATE_KEY_BYTES]> {
    let keys = decode_each(public_keys, "public key", PublicKey::from_bytes)?;
    Ok(atms::akey_with_proofs(&with_proofs(keys, pops)?)?.to_bytes())
}

/// Checks that `public_keys` with their proofs of possession give
/// `aggregate_key` (`ACheck`).
pub fn check(public_keys: &[&[u8]], pops: &[&[u8]], aggregate_key: &[u8]) -> Result<()> {
    let keys = decode_each(public_keys, "public key", PublicKey::from_bytes)?;
    let avk = decode(aggregate_key, AggregateKey::from_bytes)?;
    Ok(atms::acheck_with_proofs(&with_proofs(keys, pops)?, &avk)?)
}

/// Aggregates the signatures on `message` of the signers at
/// `signer_indices` (positions in `public_keys`; `signatures[j]` is signer
/// `j`'s) into an ATMS signature for `threshold` (`ASig`). Every
/// signature is checked; fewer than `threshold` signers is an argument
/// error.
pub fn sign(
    threshold: usize,
    message: &[u8],
    public_keys: &[&[u8]],
    signer_indices: &[u32],
    signatures: &[&[u8]],
) -> Result<Vec<u8>> {
    same_length(("signer indices", signer_indices.len()), ("signatures", signatures.len()))?;
    let params = atms::pgen(threshold)?;
    let keys = decode_each(public_keys, "public key", PublicKey::from_bytes)?;
    let sigs = decode_each(signatures, "signature", Signature::from_bytes)?;
    let signers = signer_indices
        .iter()
        .zip(sigs)
        .enumerate()
        .map(|(j, (&i, sig))| {
            let key = keys
                .get(i as usize)
                .ok_or_else(|| Error::argument(format!("signer {j}: index {i} is past the {} keys", keys.len())))?;
            Ok((*key, sig))
        })
        .collect::<Result<Vec<_>>>()?;
    let signature = atms::asig(&params, message, &keys, &signers).map_err(|e| match e {
        AtmsError::BelowThreshold { .. } => Error::from(e).with_kind(ErrorKind::Argument),
        other => Error::from(other),
    })?;
    Ok(signature.to_bytes())
}

/// Verifies an ATMS `signature` on `message` against `aggregate_key` and
/// `threshold` (`AVer`).
pub fn verify(threshold: usize, message: &[u8], aggregate_key: &[u8], signature: &[u8]) -> Result<()> {
    let params = atms::pgen(threshold)?;
    let avk = decode(aggregate_key, AggregateKey::from_bytes)?;
    let sig = decode(signature, AtmsSignature::from_bytes)?;
    Ok(atms::aver(&params, message, &avk, &sig)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bls;

    #[test]
    fn two_of_three_signs_and_verifies() {
        let pairs: Vec<_> = (1..=3u8).map(|i| bls::keygen(Some(&[i; 32])).unwrap()).collect();
        let pks: Vec<&[u8]> = pairs.iter().map(|(_, pk)| &pk[..]).collect();
        let pops: Vec<[u8; 96]> = pairs.iter().map(|(sk, _)| bls::prove_possession(&**sk).unwrap()).collect();
        let pops: Vec<&[u8]> = pops.iter().map(|p| &p[..]).collect();
        let avk = aggregate_key(&pks, &pops).unwrap();
        check(&pks, &pops, &avk).unwrap();
        assert_eq!(check(&pks[..2], &pops[..2], &avk).unwrap_err().kind(), ErrorKind::Verify);
        let sigs: Vec<[u8; 96]> = [0, 2].iter().map(|&i| bls::sign(&*pairs[i].0, b"m").unwrap()).collect();
        let sigs: Vec<&[u8]> = sigs.iter().map(|s| &s[..]).collect();
        let signature = sign(2, b"m", &pks, &[0, 2], &sigs).unwrap();
        verify(2, b"m", &avk, &signature).unwrap();
        assert_eq!(verify(3, b"m", &avk, &signature).unwrap_err().kind(), ErrorKind::Verify);
        assert_eq!(verify(2, b"x", &avk, &signature).unwrap_err().kind(), ErrorKind::Verify);
        assert_eq!(verify(2, b"m", &avk, &signature[1..]).unwrap_err().kind(), ErrorKind::Decode);
        assert_eq!(sign(3, b"m", &pks, &[0, 2], &sigs).unwrap_err().kind(), ErrorKind::Argument);
        assert_eq!(sign(2, b"m", &pks, &[0, 7], &sigs).unwrap_err().kind(), ErrorKind::Argument);
        assert_eq!(sign(2, b"m", &pks, &[0, 1], &sigs).unwrap_err().kind(), ErrorKind::Verify);
    }
}
