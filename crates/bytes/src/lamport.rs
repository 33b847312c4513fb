//! Lamport+ on bytes: key generation, one-time secret keys, signing and
//! verification for both parameter sets.
//!
//! Public keys are one 32-byte digest, signatures `counter ‖ randomizer ‖
//! elements` and secret keys the `SGLMPSK1` format with the one-time state
//! (`sigagg-lamport`'s encodings).

use rand::RngExt;
use sigagg_lamport::{LamportPlus, LamportPlusMined, PublicKey, SecretKey, Signature};
use zeroize::Zeroizing;

use crate::error::{Error, ErrorKind, Result};
use crate::input::{array, decode};
use crate::scheme::{Scheme, with_lamport};
use crate::state::{Locked, StatefulKey, key_enum};

key_enum! {
    /// A secret key of either set, behind one type.
    AnyKey {
        Plain(SecretKey<LamportPlus>),
        Mined(SecretKey<LamportPlusMined>),
    }
}

/// Runs `$body` with `$k` bound to the key inside an [`AnyKey`].
macro_rules! on_key {
    ($key:expr, $k:ident => $body:expr) => {
        match $key {
            AnyKey::Plain($k) => $body,
            AnyKey::Mined($k) => $body,
        }
    };
}

/// A one-time Lamport+ secret key.
///
/// **Signing uses the key up**: it signs one message (re-signing the same
/// message gives the same signature; any other message is refused). The
/// state is part of the encoding: store [`StatefulKey::to_bytes`] after
/// signing and before releasing the signature, and never sign from two
/// copies of one encoding (or two keys from one seed).
///
/// The key is safe to share between threads: its state is behind a lock.
#[derive(Debug)]
pub struct LamportSecretKey(Locked<AnyKey>);

/// Generates a key pair of `scheme`; returns the public key's bytes and the
/// secret key. With `seed` (32 bytes) the keys are deterministic; use a
/// seed for one key only. Without, the seed is drawn from the operating
/// system's generator.
pub fn keygen(scheme: Scheme, seed: Option<&[u8]>) -> Result<(Vec<u8>, LamportSecretKey)> {
    let seed = Zeroizing::new(match seed {
        Some(seed) => array::<32>(seed, "a key generation seed")?,
        None => rand::rng().random(),
    });
    with_lamport!(scheme, "Lamport+ key generation", S => {
        let (pk, sk) = sigagg_lamport::keygen_from_seed::<S>(*seed);
        Ok((pk.to_bytes(), LamportSecretKey(Locked::new(scheme, sk))))
    })
}

/// Verifies `signature` on `message` (any length) under `public_key`.
pub fn verify(scheme: Scheme, public_key: &[u8], message: &[u8], signature: &[u8]) -> Result<()> {
    with_lamport!(scheme, "Lamport+ verification", S => {
        let pk = PublicKey::<S>::from_bytes(public_key)?;
        let sig = Signature::<S>::from_bytes(signature)?;
        Ok(sigagg_lamport::verify(&pk, message, &sig)?)
    })
}

/// The mining counter of a Lamport+ `signature` of `scheme` (0 for the
/// plain set). Why: a signer that reports what it signed (the CLI) names
/// the counter without decoding signatures itself.
pub fn counter(scheme: Scheme, signature: &[u8]) -> Result<u32> {
    with_lamport!(scheme, "Lamport+ signatures", S => Ok(Signature::<S>::from_bytes(signature)?.counter()))
}

/// Checks that `public_key` (of `scheme`) is the member of the group
/// `group_key` that the membership `path` names (its index is in the
/// path). A key or path that does not match is an
/// [`ErrorKind::Verify`](crate::ErrorKind::Verify) error; malformed bytes
/// are [`ErrorKind::Decode`](crate::ErrorKind::Decode).
pub fn verify_member(scheme: Scheme, group_key: &[u8], public_key: &[u8], path: &[u8]) -> Result<()> {
    with_lamport!(scheme, "Lamport+ membership", S => {
        let group = decode(group_key, sigagg_lamport::GroupKey::from_bytes).map_err(|e| e.context("group key"))?;
        let pk = decode(public_key, PublicKey::<S>::from_bytes)?;
        let path = decode(path, sigagg_lamport::MembershipProof::from_bytes).map_err(|e| e.context("path"))?;
        path.verify(&group, &pk).map_err(|e| Error::from(e).with_kind(ErrorKind::Verify))
    })
}

impl StatefulKey for LamportSecretKey {
    /// Decodes a key written by `to_bytes` for `scheme`.
    fn from_bytes(scheme: Scheme, bytes: &[u8]) -> Result<Self> {
        with_lamport!(scheme, "Lamport+ secret keys", S => {
            Ok(Self(Locked::new(scheme, SecretKey::<S>::from_bytes(bytes)?)))
        })
    }

    /// The key's encoding with its one-time state. It contains the seed:
    /// the buffer is wiped when dropped; protect every copy.
    fn to_bytes(&self) -> Result<Zeroizing<Vec<u8>>> {
        Ok(Zeroizing::new(on_key!(&*self.0.lock()?, k => k.to_bytes())))
    }

    fn public_key(&self) -> Result<Vec<u8>> {
        Ok(on_key!(&*self.0.lock()?, k => k.public_key().to_bytes()))
    }

    fn scheme(&self) -> Scheme {
        self.0.scheme()
    }
}

impl LamportSecretKey {
    /// Whether the key has signed.
    pub fn is_used(&self) -> Result<bool> {
        Ok(on_key!(&*self.0.lock()?, k => k.is_used()))
    }

    /// Signs `message` (any length; the mined set first mines its counter)
    /// and marks the key used. See the type's docs: store the key before
    /// releasing the signature.
    pub fn sign(&self, message: &[u8]) -> Result<Vec<u8>> {
        on_key!(&mut *self.0.lock()?, k => Ok(k.sign(message)?.to_bytes()))
    }

    /// Signs `message` with the given mining `counter` instead of searching
    /// for one (it must be admissible for the message: an inadmissible one
    /// is an [`ErrorKind::Sign`](crate::ErrorKind::Sign) error and leaves
    /// the key unused). Why: a counter mined once serves every signer of
    /// one message, and a caller may have mined it already.
    pub fn sign_with_counter(&self, message: &[u8], counter: u32) -> Result<Vec<u8>> {
        on_key!(&mut *self.0.lock()?, k => Ok(k.sign_with_counter(message, counter)?.to_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn one_time_signing_round_trips_with_its_state() {
        for scheme in [Scheme::LamportPlus, Scheme::LamportPlusMined] {
            let (pk, sk) = keygen(scheme, Some(&[5; 32])).unwrap();
            assert_eq!(sk.public_key().unwrap(), pk);
            let sig = sk.sign(b"block 1").unwrap();
            verify(scheme, &pk, b"block 1", &sig).unwrap();
            assert_eq!(verify(scheme, &pk, b"block 2", &sig).unwrap_err().kind(), ErrorKind::Verify);
            assert_eq!(verify(scheme, &pk, b"block 1", &sig[..10]).unwrap_err().kind(), ErrorKind::Decode);
            assert!(sk.is_used().unwrap());
            let restored = LamportSecretKey::from_bytes(scheme, &sk.to_bytes().unwrap()).unwrap();
            assert_eq!(restored.sign(b"block 2").unwrap_err().kind(), ErrorKind::Sign);
            assert_eq!(restored.sign(b"block 1").unwrap(), sig);
        }
    }

    #[test]
    fn counters_and_membership() {
        let scheme = Scheme::LamportPlusMined;
        let pairs: Vec<_> = (0..3u8).map(|i| keygen(scheme, Some(&[i + 9; 32])).unwrap()).collect();
        let sig = pairs[0].1.sign(b"m").unwrap();
        let c = counter(scheme, &sig).unwrap();
        assert_eq!(pairs[1].1.sign_with_counter(b"m", c).unwrap().len(), sig.len());
        assert_eq!(counter(scheme, &sig[1..]).unwrap_err().kind(), ErrorKind::Decode);
        let pks: Vec<&[u8]> = pairs.iter().map(|(pk, _)| &pk[..]).collect();
        let group = crate::group(scheme, &pks).unwrap();
        verify_member(scheme, &group.key, pks[1], &group.paths[1]).unwrap();
        assert_eq!(verify_member(scheme, &group.key, pks[0], &group.paths[1]).unwrap_err().kind(), ErrorKind::Verify);
        assert_eq!(
            verify_member(scheme, &group.key[1..], pks[0], &group.paths[0]).unwrap_err().kind(),
            ErrorKind::Decode
        );
    }

    #[test]
    fn keys_belong_to_their_set() {
        let (_, sk) = keygen(Scheme::LamportPlus, None).unwrap();
        let bytes = sk.to_bytes().unwrap();
        assert_eq!(
            LamportSecretKey::from_bytes(Scheme::LamportPlusMined, &bytes).unwrap_err().kind(),
            ErrorKind::Decode
        );
        assert_eq!(LamportSecretKey::from_bytes(Scheme::Seed001, &bytes).unwrap_err().kind(), ErrorKind::Argument);
    }
}
