//! Key pairs. A secret key is a 32-byte seed plus its one-time state; the
//! public key is one digest, the sponge of the `n` sub-public-keys.

use core::fmt;
use core::marker::PhantomData;

use p3_field::PrimeCharacteristicRing;
use rand::{CryptoRng, RngExt};
use zeroize::Zeroize;

use crate::codeword::{Representative, checked_representative, mine};
use crate::error::SignError;
use crate::field::{DIGEST_LEN, Digest, F};
use crate::hash::{pubkey_sponge, subkey_hashes};
use crate::params::{ParameterSet, check_params};
use crate::prf::{self, Randomizer, Seed};
use crate::signature::Signature;

/// A public key: one digest (32 bytes on the wire).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PublicKey<S: ParameterSet> {
    digest: Digest,
    _set: PhantomData<S>,
}

impl<S: ParameterSet> fmt::Debug for PublicKey<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex: String = crate::field::digest_to_bytes(&self.digest).iter().map(|b| format!("{b:02x}")).collect();
        write!(f, "PublicKey<{}>({hex})", S::NAME)
    }
}

impl<S: ParameterSet> PublicKey<S> {
    /// Wraps a digest (any digest is a syntactically valid public key).
    pub fn from_digest(digest: Digest) -> Self {
        Self { digest, _set: PhantomData }
    }

    /// The digest: the last output of the public-key sponge.
    pub fn digest(&self) -> &Digest {
        &self.digest
    }
}

/// A one-time secret key: the seed and, once it signed, the representative
/// it signed.
///
/// Signing a second message with a different representative would reveal
/// the sub-keys of two codewords, from which anyone can forge, so
/// [`SecretKey::sign`] refuses it. Re-signing the *same* representative is
/// allowed: it reproduces the same signature (signing is deterministic) and
/// reveals nothing new, which makes a retry after a crash safe. The state
/// lives in the key and in its encoding: persist the key after signing and
/// before releasing the signature. The type is deliberately not `Clone`:
/// two copies of the state could each sign a different message. That only
/// guards against accidents: a second key from the same seed (or a copy of
/// an encoded key) has its own state, so a seed must be used for one key
/// only (`keygen_from_seeds` refuses a repeated seed).
pub struct SecretKey<S: ParameterSet> {
    seed: Seed,
    signed: Option<Representative<S>>,
}

impl<S: ParameterSet> Drop for SecretKey<S> {
    fn drop(&mut self) {
        self.seed.zeroize();
    }
}

impl<S: ParameterSet> fmt::Debug for SecretKey<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecretKey").field("set", &S::NAME).field("used", &self.is_used()).finish_non_exhaustive()
    }
}

impl<S: ParameterSet> PartialEq for SecretKey<S> {
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed && self.signed == other.signed
    }
}

impl<S: ParameterSet> Eq for SecretKey<S> {}

impl<S: ParameterSet> SecretKey<S> {
    /// A fresh (unused) key derived from `seed`.
    pub fn from_seed(seed: Seed) -> Self {
        Self { seed, signed: None }
    }

    /// Restores a key with its state (used by decoding).
    pub(crate) fn with_state(seed: Seed, signed: Option<Representative<S>>) -> Self {
        Self { seed, signed }
    }

    /// The secret seed.
    pub fn seed(&self) -> &Seed {
        &self.seed
    }

    /// Whether the key has signed.
    pub fn is_used(&self) -> bool {
        self.signed.is_some()
    }

    /// The representative the key signed, if any.
    pub fn signed_representative(&self) -> Option<&Representative<S>> {
        self.signed.as_ref()
    }

    /// The public randomizer (it travels in every signature).
    pub fn randomizer(&self) -> Randomizer {
        prf::randomizer(S::ID, &self.seed)
    }

    /// The `n` secret sub-keys `pr_i`.
    fn subkeys(&self) -> Vec<Digest> {
        prf::subkeys(S::ID, &self.seed, S::NUM_SUBKEYS)
    }

    /// The `n` sub-public-keys `pb_i = G(pr_i)`.
    pub fn sub_public_keys(&self) -> Vec<Digest> {
        let mut items: Vec<(usize, Digest)> = self.subkeys().into_iter().enumerate().collect();
        let hashes = subkey_hashes(&self.randomizer(), &items);
        wipe(&mut items);
        hashes
    }

    /// The public key: `n` sub-key hashes and `n/2` sponge permutations.
    pub fn public_key(&self) -> PublicKey<S> {
        const { check_params::<S>() };
        PublicKey::from_digest(pubkey_sponge(&self.randomizer(), &self.sub_public_keys()))
    }

    /// Signs `message` (any length): mines the counter (a no-op without
    /// mining), then reveals `pr_i` where the codeword bit is 1 and
    /// `pb_i = G(pr_i)` where it is 0.
    ///
    /// One-time: fails with [`SignError::KeyAlreadyUsed`] if the key signed
    /// a message with another representative. On success the key is marked
    /// used before the signature is returned.
    pub fn sign(&mut self, message: &[u8]) -> Result<Signature<S>, SignError> {
        let (counter, rep) = mine::<S>(message)?;
        self.sign_representative(counter, rep)
    }

    /// Signs `message` with a mining `counter` found by someone else (in a
    /// threshold round one party mines and every signer checks the counter
    /// with one hash instead of repeating the search). The counter must be
    /// admissible; it need not be the smallest.
    pub fn sign_with_counter(&mut self, message: &[u8], counter: u32) -> Result<Signature<S>, SignError> {
        let rep = checked_representative::<S>(message, counter).map_err(|_| SignError::InvalidCounter { counter })?;
        self.sign_representative(counter, rep)
    }

    fn sign_representative(&mut self, counter: u32, rep: Representative<S>) -> Result<Signature<S>, SignError> {
        if self.signed.is_some_and(|prev| prev != rep) {
            return Err(SignError::KeyAlreadyUsed);
        }
        self.signed = Some(rep);
        let codeword = rep.codeword();
        let randomizer = self.randomizer();
        let mut elements = self.subkeys();
        let mut hidden: Vec<(usize, Digest)> =
            codeword.bits().iter().enumerate().filter(|(_, b)| !**b).map(|(i, _)| (i, elements[i])).collect();
        for ((i, _), pb) in hidden.iter().zip(subkey_hashes(&randomizer, &hidden)) {
            elements[*i] = pb;
        }
        wipe(&mut hidden);
        Ok(Signature::new_unchecked(counter, randomizer, elements))
    }
}

/// Overwrites secret sub-keys before their buffer is freed. The field type
/// has no `Zeroize`; `black_box` keeps the optimizer from dropping the
/// writes to a buffer about to die.
fn wipe(items: &mut [(usize, Digest)]) {
    for (_, d) in items.iter_mut() {
        *d = [F::ZERO; DIGEST_LEN];
    }
    std::hint::black_box(items);
}

/// Generates a key pair from a fresh seed drawn from `rng`.
pub fn keygen<S: ParameterSet, R: CryptoRng + ?Sized>(rng: &mut R) -> (PublicKey<S>, SecretKey<S>) {
    keygen_from_seed(rng.random())
}

/// Derives the key pair of `seed` (deterministic: the same seed gives the
/// same keys; the parameter set's id is mixed in, so one seed gives
/// unrelated keys in different sets).
pub fn keygen_from_seed<S: ParameterSet>(seed: Seed) -> (PublicKey<S>, SecretKey<S>) {
    let sk = SecretKey::from_seed(seed);
    (sk.public_key(), sk)
}

/// Signs with `sk`; see [`SecretKey::sign`].
pub fn sign<S: ParameterSet>(sk: &mut SecretKey<S>, message: &[u8]) -> Result<Signature<S>, SignError> {
    sk.sign(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{LamportPlus, LamportPlusMined};

    #[test]
    fn keys_are_deterministic_and_set_specific() {
        let (a, _) = keygen_from_seed::<LamportPlus>([1; 32]);
        let (b, _) = keygen_from_seed::<LamportPlus>([1; 32]);
        let (c, _) = keygen_from_seed::<LamportPlus>([2; 32]);
        let (d, _) = keygen_from_seed::<LamportPlusMined>([1; 32]);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a.digest(), d.digest());
    }

    #[test]
    fn one_time_state() {
        let (_, mut sk) = keygen_from_seed::<LamportPlus>([3; 32]);
        assert!(!sk.is_used());
        let s1 = sk.sign(b"first").unwrap();
        assert!(sk.is_used());
        assert_eq!(sk.sign(b"first").unwrap(), s1);
        assert_eq!(sk.sign(b"second"), Err(SignError::KeyAlreadyUsed));
        assert_eq!(sk.signed_representative(), Some(&crate::codeword::representative(b"first", 0)));
    }

    #[test]
    fn signing_with_a_given_counter() {
        let msg = b"threshold round";
        let (c, _) = mine::<LamportPlusMined>(msg).unwrap();
        let (pk, mut sk) = keygen_from_seed::<LamportPlusMined>([4; 32]);
        assert_eq!(sk.sign_with_counter(msg, c + 1), Err(SignError::InvalidCounter { counter: c + 1 }));
        assert!(!sk.is_used());
        let sig = sk.sign_with_counter(msg, c).unwrap();
        assert_eq!(sig, sk.sign(msg).unwrap());
        assert_eq!(crate::signature::verify(&pk, msg, &sig), Ok(()));
        let (_, mut plain) = keygen_from_seed::<LamportPlus>([4; 32]);
        assert_eq!(plain.sign_with_counter(msg, 1), Err(SignError::InvalidCounter { counter: 1 }));
    }

    #[test]
    fn debug_hides_the_seed() {
        let (_, sk) = keygen_from_seed::<LamportPlus>([0xab; 32]);
        let s = format!("{sk:?}");
        assert!(!s.contains("171") && !s.contains("ab"), "{s}");
    }
}
