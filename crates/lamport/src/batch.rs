//! Parallel helpers (rayon): many keys, many signatures, many verifications.

use p3_field::PackedValue;
use rand::{CryptoRng, RngExt};
use rayon::prelude::*;

use crate::codeword::{codeword, mine};
use crate::error::{BatchError, VerifyError};
use crate::field::{Digest, PackedF};
use crate::hash::pubkey_sponge_many;
use crate::keys::{PublicKey, SecretKey};
use crate::params::ParameterSet;
use crate::prf::{Randomizer, Seed};
use crate::signature::Signature;

/// A public key and its secret key.
pub type KeyPair<S> = (PublicKey<S>, SecretKey<S>);

/// Derives the key pairs of `seeds`, in parallel, in order. Groups of
/// `PackedF::WIDTH` keys share their public-key sponges (one SIMD lane each).
///
/// Two equal seeds are refused: they would be two copies of one one-time
/// key, and two signatures on different messages under one key let anyone
/// forge (`SecretKey` is not `Clone` for that reason).
pub fn keygen_from_seeds<S: ParameterSet>(seeds: &[Seed]) -> Result<Vec<KeyPair<S>>, BatchError> {
    let mut first = std::collections::HashMap::with_capacity(seeds.len());
    for (i, seed) in seeds.iter().enumerate() {
        if let Some(&f) = first.get(seed) {
            return Err(BatchError::DuplicateSeed { first: f, second: i });
        }
        first.insert(*seed, i);
    }
    Ok(derive_pairs(seeds))
}

/// The key pairs of `seeds` (distinct), in parallel, in order.
fn derive_pairs<S: ParameterSet>(seeds: &[Seed]) -> Vec<KeyPair<S>> {
    seeds
        .par_chunks(PackedF::WIDTH)
        .flat_map_iter(|chunk| {
            let sks: Vec<SecretKey<S>> = chunk.iter().map(|s| SecretKey::from_seed(*s)).collect();
            let spks: Vec<(Randomizer, Vec<Digest>)> =
                sks.iter().map(|sk| (sk.randomizer(), sk.sub_public_keys())).collect();
            let refs: Vec<(Randomizer, &[Digest])> = spks.iter().map(|(r, ys)| (*r, ys.as_slice())).collect();
            let pks = pubkey_sponge_many(&refs);
            pks.into_iter().map(PublicKey::from_digest).zip(sks).collect::<Vec<_>>()
        })
        .collect()
}

/// `count` key pairs from seeds drawn from `rng` (sequentially, so a seeded
/// generator gives reproducible keys), derived in parallel.
pub fn keygen_many<S: ParameterSet, R: CryptoRng + ?Sized>(rng: &mut R, count: usize) -> Vec<KeyPair<S>> {
    let seeds: Vec<Seed> = (0..count).map(|_| rng.random()).collect();
    // Fresh 256-bit seeds from a cryptographic generator do not repeat.
    derive_pairs(&seeds)
}

/// Key `i` signs message `i`, in parallel. Every key is attempted; on
/// failure the smallest failing index is reported (keys that succeeded are
/// marked used either way).
pub fn sign_many<S: ParameterSet, M: AsRef<[u8]> + Sync>(
    keys: &mut [SecretKey<S>],
    messages: &[M],
) -> Result<Vec<Signature<S>>, BatchError> {
    if keys.len() != messages.len() {
        return Err(BatchError::LengthMismatch { left: keys.len(), right: messages.len() });
    }
    let results: Vec<_> = keys.par_iter_mut().zip(messages).map(|(sk, m)| sk.sign(m.as_ref())).collect();
    results.into_iter().enumerate().map(|(index, r)| r.map_err(|error| BatchError::Sign { index, error })).collect()
}

/// Every key signs the same `message` (a threshold round), in parallel.
/// The message is mined once and every key signs with that counter.
pub fn sign_all<S: ParameterSet>(keys: &mut [SecretKey<S>], message: &[u8]) -> Result<Vec<Signature<S>>, BatchError> {
    let (counter, _) = mine::<S>(message).map_err(|error| BatchError::Sign { index: 0, error })?;
    let results: Vec<_> = keys.par_iter_mut().map(|sk| sk.sign_with_counter(message, counter)).collect();
    results.into_iter().enumerate().map(|(index, r)| r.map_err(|error| BatchError::Sign { index, error })).collect()
}

/// Verifies signature `i` on message `i` under key `i`, in parallel;
/// reports the smallest failing index.
pub fn verify_many<S: ParameterSet, M: AsRef<[u8]> + Sync>(
    keys: &[PublicKey<S>],
    messages: &[M],
    signatures: &[Signature<S>],
) -> Result<(), BatchError> {
    if keys.len() != messages.len() {
        return Err(BatchError::LengthMismatch { left: keys.len(), right: messages.len() });
    }
    if keys.len() != signatures.len() {
        return Err(BatchError::LengthMismatch { left: keys.len(), right: signatures.len() });
    }
    // Groups of PackedF::WIDTH signatures share their sponges; a failure is
    // reported for the smallest index.
    let failure = (0..keys.len())
        .collect::<Vec<usize>>()
        .par_chunks(PackedF::WIDTH)
        .filter_map(|idx| {
            let mut first: Option<(usize, VerifyError)> = None;
            let mut recovered: Vec<(usize, Randomizer, Vec<Digest>)> = Vec::with_capacity(idx.len());
            for &i in idx {
                match codeword::<S>(messages[i].as_ref(), signatures[i].counter()) {
                    Ok(cw) => recovered.push((i, *signatures[i].randomizer(), signatures[i].sub_public_keys(&cw))),
                    Err(e) => {
                        first.get_or_insert((i, e));
                    }
                }
            }
            let refs: Vec<(Randomizer, &[Digest])> = recovered.iter().map(|(_, r, ys)| (*r, ys.as_slice())).collect();
            let mismatch = recovered
                .iter()
                .zip(pubkey_sponge_many(&refs))
                .find(|((i, _, _), pk)| pk != keys[*i].digest())
                .map(|((i, _, _), _)| (*i, VerifyError::PublicKeyMismatch));
            [first, mismatch].into_iter().flatten().min_by_key(|(i, _)| *i)
        })
        .min_by_key(|(i, _)| *i);
    match failure {
        None => Ok(()),
        Some((index, error)) => Err(BatchError::Verify { index, error }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{LamportPlus, LamportPlusMined};
    use crate::{SignError, keygen_from_seed, verify};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn batch_round_trip_and_first_failure() {
        let mut rng = StdRng::seed_from_u64(1);
        let pairs = keygen_many::<LamportPlus, _>(&mut rng, 5);
        let (pks, mut sks): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
        let msgs: Vec<Vec<u8>> = (0..5u8).map(|i| vec![i; 10]).collect();
        let sigs = sign_many(&mut sks, &msgs).unwrap();
        assert_eq!(verify_many(&pks, &msgs, &sigs), Ok(()));
        let mut bad = msgs.clone();
        bad[3][0] ^= 1;
        bad[4][0] ^= 1;
        assert_eq!(
            verify_many(&pks, &bad, &sigs),
            Err(BatchError::Verify { index: 3, error: VerifyError::PublicKeyMismatch })
        );
        assert_eq!(verify_many(&pks[..4], &msgs, &sigs), Err(BatchError::LengthMismatch { left: 4, right: 5 }));
        // Re-signing other messages fails at the first key.
        assert_eq!(sign_all(&mut sks, b"x"), Err(BatchError::Sign { index: 0, error: SignError::KeyAlreadyUsed }));
        // Seeded generation is reproducible.
        let again = keygen_many::<LamportPlus, _>(&mut StdRng::seed_from_u64(1), 5);
        assert!(again.iter().zip(&pks).all(|((a, _), b)| a == b));
    }

    #[test]
    fn batches_agree_with_single_operations_across_chunks() {
        let count = 2 * PackedF::WIDTH + 5;
        let seeds: Vec<Seed> = (0..count).map(|i| [i as u8; 32]).collect();
        let pairs = keygen_from_seeds::<LamportPlusMined>(&seeds).unwrap();
        for (seed, (pk, _)) in seeds.iter().zip(&pairs) {
            assert_eq!(*pk, keygen_from_seed::<LamportPlusMined>(*seed).0);
        }
        // A repeated seed would be one one-time key twice.
        let mut twice = seeds.clone();
        twice.push(seeds[3]);
        assert_eq!(
            keygen_from_seeds::<LamportPlusMined>(&twice).err(),
            Some(BatchError::DuplicateSeed { first: 3, second: count })
        );
        let (pks, mut sks): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
        let msg = b"one round";
        let sigs = sign_all(&mut sks, msg).unwrap();
        let msgs = vec![msg.to_vec(); count];
        assert_eq!(verify_many(&pks, &msgs, &sigs), Ok(()));
        // A bad counter late and a bad element later still: the earliest wins,
        // in whichever chunk it sits, and matches the single verifier's error.
        for (bad_counter, bad_element) in [(count - 3, count - 1), (count - 1, PackedF::WIDTH + 1), (3, 4)] {
            let mut broken = sigs.clone();
            broken[bad_counter] = Signature::from_parts(
                broken[bad_counter].counter() + 1,
                *broken[bad_counter].randomizer(),
                broken[bad_counter].elements().to_vec(),
            )
            .unwrap();
            let mut e = broken[bad_element].elements().to_vec();
            e[0][0] += <crate::F as p3_field::PrimeCharacteristicRing>::ONE;
            broken[bad_element] =
                Signature::from_parts(broken[bad_element].counter(), *broken[bad_element].randomizer(), e).unwrap();
            let first = bad_counter.min(bad_element);
            let want = verify(&pks[first], msg, &broken[first]).unwrap_err();
            assert_eq!(verify_many(&pks, &msgs, &broken), Err(BatchError::Verify { index: first, error: want }));
        }
    }
}
