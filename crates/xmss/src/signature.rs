//! Signatures: signing with a stateful secret key, and verification.

use rand::CryptoRng;

use crate::error::{SignError, VerifyError};
use crate::hash::{MESSAGE_LEN, chain_ends, codeword, leaf, walk_chain};
use crate::keys::{PublicKey, SecretKey, random_fes};
use crate::params::ParameterSet;
use crate::prf::{self, PrfKey};
use crate::tree::root_from_path;

/// A signature: the Merkle co-path of the epoch's leaf, the encoding
/// randomness, and one intermediate value per hash chain.
///
/// Its shape (path and chain counts) is guaranteed by construction: only
/// signing and [`Signature::from_parts`] / decoding create one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature<S: ParameterSet> {
    pub(crate) co_path: Vec<S::Digest>,
    pub(crate) rho: S::Rho,
    pub(crate) hashes: Vec<S::Digest>,
}

impl<S: ParameterSet> Signature<S> {
    /// Assembles a signature; `None` unless the co-path has `LOG_LIFETIME`
    /// nodes and there is one hash per chain.
    pub fn from_parts(co_path: Vec<S::Digest>, rho: S::Rho, hashes: Vec<S::Digest>) -> Option<Self> {
        (co_path.len() == S::LOG_LIFETIME as usize && hashes.len() == S::NUM_CHAINS).then_some(Self {
            co_path,
            rho,
            hashes,
        })
    }

    /// Siblings of the leaf's path, from the leaf level up.
    pub fn co_path(&self) -> &[S::Digest] {
        &self.co_path
    }

    /// The encoding randomness.
    pub fn rho(&self) -> &S::Rho {
        &self.rho
    }

    /// Chain `i`'s value at the position given by the codeword.
    pub fn hashes(&self) -> &[S::Digest] {
        &self.hashes
    }
}

/// Finds the encoding randomness and walks each chain to its codeword
/// position: the one-time part of signing.
fn one_time_sign<S: ParameterSet>(
    prf_key: &PrfKey,
    parameter: &S::Parameter,
    epoch: u32,
    message: &[u8; MESSAGE_LEN],
) -> Result<(S::Rho, Vec<S::Digest>), SignError> {
    let (rho, digits) = (0..S::MAX_TRIES)
        .find_map(|counter| {
            let rho: S::Rho = prf::randomness(prf_key, epoch, message, counter);
            codeword::<S>(parameter, epoch, &rho, message).ok().map(|x| (rho, x))
        })
        .ok_or(SignError::EncodingAttemptsExceeded { attempts: S::MAX_TRIES })?;
    let hashes = digits
        .iter()
        .enumerate()
        .map(|(i, &steps)| {
            let start: S::Digest = prf::chain_start(prf_key, epoch, i as u64);
            walk_chain::<S>(parameter, epoch, i as u8, 0, usize::from(steps), &start)
        })
        .collect();
    Ok((rho, hashes))
}

impl<S: ParameterSet> SecretKey<S> {
    /// Signs `message` at `epoch`, then forbids every epoch up to and
    /// including `epoch`. Store the updated key before releasing the signature.
    pub fn sign(&mut self, epoch: u32, message: &[u8; MESSAGE_LEN]) -> Result<Signature<S>, SignError> {
        let e = u64::from(epoch);
        let active = self.activation_interval();
        if !active.contains(&e) {
            return Err(SignError::EpochNotActive { epoch: e, start: active.start, end: active.end });
        }
        if e < self.next_epoch {
            return Err(SignError::EpochAlreadyUsed { epoch: e, next_usable: self.next_epoch });
        }
        let prepared = self.prepared_interval();
        if !prepared.contains(&e) {
            return Err(SignError::EpochNotPrepared { epoch: e, start: prepared.start, end: prepared.end });
        }
        let c = S::leaves_per_bottom_tree();
        let bottom = if e < (self.left_index + 1) * c { &self.left } else { &self.right };
        let mut co_path = bottom.co_path(e).expect("a prepared epoch is in its bottom tree");
        co_path.extend(self.top.co_path(e / c).expect("an active bottom tree is in the top tree"));

        let (rho, hashes) = one_time_sign::<S>(&self.prf_key, &self.parameter, epoch, message)?;
        self.next_epoch = e + 1;
        Ok(Signature { co_path, rho, hashes })
    }
}

/// Verifies `signature` on `message` at `epoch` under `public_key`.
pub fn verify<S: ParameterSet>(
    public_key: &PublicKey<S>,
    epoch: u32,
    message: &[u8; MESSAGE_LEN],
    signature: &Signature<S>,
) -> Result<(), VerifyError> {
    if u64::from(epoch) >= S::lifetime() {
        return Err(VerifyError::EpochOutOfRange { epoch: u64::from(epoch), lifetime: S::lifetime() });
    }
    let parameter = &public_key.parameter;
    let digits = codeword::<S>(parameter, epoch, &signature.rho, message)?;
    let ends: Vec<S::Digest> = digits
        .iter()
        .zip(&signature.hashes)
        .enumerate()
        .map(|(i, (&x, h))| walk_chain::<S>(parameter, epoch, i as u8, x, S::BASE - 1 - usize::from(x), h))
        .collect();
    let leaf = leaf::<S>(parameter, epoch, &ends);
    let root = root_from_path::<S>(parameter, u64::from(epoch), leaf, &signature.co_path);
    if root == public_key.root { Ok(()) } else { Err(VerifyError::RootMismatch) }
}

/// A genuine key pair whose tree holds exactly one usable leaf, at `epoch`,
/// and its signature on `message`: the one-time key is derived from a fresh
/// PRF key as usual, every other node of the co-path is random.
///
/// This costs one leaf instead of two bottom trees, which is what benchmarks
/// and tests of aggregation need to build thousands of signers quickly. The
/// key cannot sign at any other epoch.
pub fn single_epoch_key_and_signature<S: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
    epoch: u32,
    message: &[u8; MESSAGE_LEN],
) -> Result<(PublicKey<S>, Signature<S>), SignError> {
    let parameter: S::Parameter = random_fes(rng);
    let prf_key = zeroize::Zeroizing::new(rand::RngExt::random::<PrfKey>(rng));
    let co_path: Vec<S::Digest> = (0..S::LOG_LIFETIME).map(|_| random_fes(rng)).collect();
    let leaf = leaf::<S>(&parameter, epoch, &chain_ends::<S>(&prf_key, &parameter, epoch));
    let root = root_from_path::<S>(&parameter, u64::from(epoch), leaf, &co_path);
    let (rho, hashes) = one_time_sign::<S>(&prf_key, &parameter, epoch, message)?;
    Ok((PublicKey { root, parameter }, Signature { co_path, rho, hashes }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::keygen;
    use crate::params::{Seed001, Test};
    use p3_field::PrimeCharacteristicRing;

    #[test]
    fn sign_verify_round_trip_and_state() {
        let mut rng = rand::rng();
        let (pk, mut sk) = keygen::<Test, _>(&mut rng, 0, 256).unwrap();
        let msg = [3u8; 32];
        let sig = sk.sign(5, &msg).unwrap();
        assert_eq!(verify(&pk, 5, &msg, &sig), Ok(()));
        assert!(verify(&pk, 6, &msg, &sig).is_err());
        assert!(verify(&pk, 5, &[4u8; 32], &sig).is_err());
        assert_eq!(sk.sign(5, &msg), Err(SignError::EpochAlreadyUsed { epoch: 5, next_usable: 6 }));
        assert_eq!(sk.sign(4, &msg), Err(SignError::EpochAlreadyUsed { epoch: 4, next_usable: 6 }));
        assert!(matches!(sk.sign(40, &msg), Err(SignError::EpochNotPrepared { .. })));
        assert!(sk.prepare_for(40));
        let sig = sk.sign(40, &msg).unwrap();
        assert_eq!(verify(&pk, 40, &msg, &sig), Ok(()));
    }

    #[test]
    fn out_of_window_epoch_refused() {
        let mut rng = rand::rng();
        let (_, mut sk) = keygen::<Test, _>(&mut rng, 32, 32).unwrap();
        assert!(matches!(sk.sign(10, &[0; 32]), Err(SignError::EpochNotActive { .. })));
        assert!(matches!(sk.sign(64, &[0; 32]), Err(SignError::EpochNotActive { .. })));
    }

    #[test]
    fn single_epoch_keys_verify_only_at_their_epoch() {
        let mut rng = rand::rng();
        let msg = [9u8; 32];
        let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rng, 77, &msg).unwrap();
        assert_eq!(verify(&pk, 77, &msg, &sig), Ok(()));
        assert!(verify(&pk, 78, &msg, &sig).is_err());
        let mut bad = sig.clone();
        bad.hashes[0][0] += crate::field::F::ONE;
        assert_eq!(verify(&pk, 77, &msg, &bad), Err(VerifyError::RootMismatch));
    }
}
