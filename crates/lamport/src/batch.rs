//! Parallel helpers (rayon): many keys, many signatures, many verifications.

use rand::{CryptoRng, RngExt};
use rayon::prelude::*;

use crate::codeword::mine;
use crate::error::BatchError;
use crate::keys::{PublicKey, SecretKey, keygen_from_seed};
use crate::params::ParameterSet;
use crate::prf::Seed;
use crate::signature::{Signature, verify};

/// Derives the key pairs of `seeds`, in parallel, in order.
pub fn keygen_from_seeds<S: ParameterSet>(seeds: &[Seed]) -> Vec<(PublicKey<S>, SecretKey<S>)> {
    seeds.par_iter().map(|s| keygen_from_seed(*s)).collect()
}

/// `count` key pairs from seeds drawn from `rng` (sequentially, so a seeded
/// generator gives reproducible keys), derived in parallel.
pub fn keygen_many<S: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
    count: usize,
) -> Vec<(PublicKey<S>, SecretKey<S>)> {
    let seeds: Vec<Seed> = (0..count).map(|_| rng.random()).collect();
    keygen_from_seeds(&seeds)
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
    let failure = (0..keys.len())
        .into_par_iter()
        .filter_map(|i| verify(&keys[i], messages[i].as_ref(), &signatures[i]).err().map(|e| (i, e)))
        .min_by_key(|(i, _)| *i);
    match failure {
        None => Ok(()),
        Some((index, error)) => Err(BatchError::Verify { index, error }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::LamportPlus;
    use crate::{SignError, VerifyError};
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
}
