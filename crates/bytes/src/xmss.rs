//! Generalized XMSS on bytes: key generation, stateful secret keys,
//! signing and verification for every parameter set.
//!
//! Public keys and signatures are the SSZ encodings of `sigagg-xmss`
//! (leanSig's layout); secret keys its versioned `SGXMSSK1` format, which
//! carries the key's state.

use rand::SeedableRng;
use rand::rngs::StdRng;
use sigagg_xmss::{LeanSigProd, MESSAGE_LEN, PublicKey, SecretKey, Seed001, Signature, Test};
use zeroize::Zeroizing;

use crate::error::{Error, Result};
use crate::input::array;
use crate::scheme::{Scheme, with_xmss};
use crate::state::{Locked, StatefulKey, key_enum};

key_enum! {
    /// A secret key of one of the three sets, behind one type.
    AnyKey {
        Seed001(SecretKey<Seed001>),
        LeanSigProd(SecretKey<LeanSigProd>),
        Test(SecretKey<Test>),
    }
}

/// Runs `$body` with `$k` bound to the key inside an [`AnyKey`].
macro_rules! on_key {
    ($key:expr, $k:ident => $body:expr) => {
        match $key {
            AnyKey::Seed001($k) => $body,
            AnyKey::LeanSigProd($k) => $body,
            AnyKey::Test($k) => $body,
        }
    };
}

/// A stateful XMSS secret key.
///
/// **Signing advances the key**: every signature moves the next usable
/// epoch past the signed one, and an epoch is never signed twice (two
/// messages at one epoch reveal enough chain values to forge). Store the
/// key's new encoding ([`StatefulKey::to_bytes`]) durably *before*
/// releasing a signature, and never sign from two copies of one encoding:
/// each copy has its own state.
///
/// The key is safe to share between threads: it holds its state behind a
/// lock, so concurrent calls on one key run one after the other.
#[derive(Debug)]
pub struct XmssSecretKey(Locked<AnyKey>);

/// The random generator of key generation: seeded (32 bytes), or the
/// operating system's.
fn rng(seed: Option<&[u8]>) -> Result<StdRng> {
    Ok(match seed {
        Some(seed) => StdRng::from_seed(*Zeroizing::new(array::<32>(seed, "a key generation seed")?)),
        None => rand::make_rng(),
    })
}

/// Generates a key pair of `scheme` that can sign at least the epochs
/// `[activation_epoch, activation_epoch + num_epochs)` (widened to whole
/// bottom trees, at least two). Returns the public key's bytes and the
/// secret key.
///
/// With `seed` (32 bytes), key generation is deterministic (`StdRng::from_seed`):
/// the same seed gives the same key, byte for byte as hash-sig and leanSig
/// derive it from the same generator. Without, the operating system's
/// generator is used. The cost grows with the activated epochs (two bottom
/// trees: 2^11 leaves for Seed001, 2^17 for LeanSigProd).
pub fn keygen(
    scheme: Scheme,
    activation_epoch: u64,
    num_epochs: u64,
    seed: Option<&[u8]>,
) -> Result<(Vec<u8>, XmssSecretKey)> {
    with_xmss!(scheme, "XMSS key generation", S => {
        let (pk, sk) = sigagg_xmss::keygen::<S, _>(&mut rng(seed)?, activation_epoch, num_epochs)?;
        Ok((pk.to_bytes(), XmssSecretKey(Locked::new(scheme, sk))))
    })
}

/// Public keys and signatures, in order.
pub type Signers = (Vec<Vec<u8>>, Vec<Vec<u8>>);

/// Most signers [`single_epoch_signers`] makes in one call.
pub const MAX_SINGLE_EPOCH_SIGNERS: usize = 1 << 16;

/// `count` fresh signers of `scheme` and their signatures of the 32-byte
/// `message` at `epoch`, quickly: each key's Merkle tree has one genuine
/// leaf (that epoch's) and random siblings, so each pair is a valid key
/// and signature that no other epoch can use. For benchmarks, tests and
/// examples that need thousands of signers (`sigagg bench` makes its
/// signers so); real validators use [`keygen`] and sign with their key.
/// Returns the public keys and the signatures, in order; with `seed` (32
/// bytes) the same seed gives the same signers.
pub fn single_epoch_signers(
    scheme: Scheme,
    count: usize,
    epoch: u32,
    message: &[u8],
    seed: Option<&[u8]>,
) -> Result<Signers> {
    if count > MAX_SINGLE_EPOCH_SIGNERS {
        return Err(Error::argument(format!("at most {MAX_SINGLE_EPOCH_SIGNERS} signers per call, not {count}")));
    }
    let message = message32(message)?;
    let mut rng = rng(seed)?;
    with_xmss!(scheme, "single-epoch signers", S => {
        (0..count)
            .map(|_| {
                let (pk, sig) = sigagg_xmss::single_epoch_key_and_signature::<S, _>(&mut rng, epoch, &message)?;
                Ok((pk.to_bytes(), sig.to_bytes()))
            })
            .collect::<Result<Vec<_>>>()
            .map(|pairs| pairs.into_iter().unzip())
    })
}

/// The 32-byte seed that `StdRng::seed_from_u64(n)` expands `n` to.
///
/// # Why
///
/// The reference implementations' known-answer vectors draw their keys
/// from `StdRng::seed_from_u64(n)`; with this seed, [`keygen`] reproduces
/// them from any language. The expansion is `rand`'s own (it hands the
/// seed to `from_seed`), captured rather than re-implemented.
pub fn seed_from_u64(n: u64) -> [u8; 32] {
    /// A "generator" that only keeps the seed it is built from.
    struct Captured([u8; 32]);
    impl SeedableRng for Captured {
        type Seed = [u8; 32];
        fn from_seed(seed: [u8; 32]) -> Self {
            Captured(seed)
        }
    }
    Captured::seed_from_u64(n).0
}

/// Verifies `signature` on the 32-byte `message` at `epoch` under
/// `public_key` (all of `scheme`).
pub fn verify(scheme: Scheme, public_key: &[u8], epoch: u32, message: &[u8], signature: &[u8]) -> Result<()> {
    with_xmss!(scheme, "XMSS verification", S => {
        let pk = PublicKey::<S>::from_bytes(public_key)?;
        let sig = Signature::<S>::from_bytes(signature)?;
        Ok(sigagg_xmss::verify(&pk, epoch, &message32(message)?, &sig)?)
    })
}

/// An XMSS message: exactly 32 bytes.
pub(crate) fn message32(message: &[u8]) -> Result<[u8; MESSAGE_LEN]> {
    array(message, "an XMSS message")
}

impl StatefulKey for XmssSecretKey {
    /// Decodes a key written by `to_bytes` for `scheme`. Recomputes the two
    /// prepared bottom trees (the cost of two bottom trees of key
    /// generation) and checks them against the stored top tree.
    fn from_bytes(scheme: Scheme, bytes: &[u8]) -> Result<Self> {
        with_xmss!(scheme, "XMSS secret keys", S => {
            Ok(Self(Locked::new(scheme, SecretKey::<S>::from_bytes(bytes)?)))
        })
    }

    /// The key's encoding, with its current state. It contains the secret
    /// PRF key: the buffer is wiped when dropped; protect every copy.
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

impl XmssSecretKey {
    /// The smallest epoch the key may still sign.
    pub fn next_usable_epoch(&self) -> Result<u64> {
        Ok(on_key!(&*self.0.lock()?, k => k.next_usable_epoch()))
    }

    /// The epochs `[start, end)` the key may ever sign.
    pub fn activation_interval(&self) -> Result<(u64, u64)> {
        let range = on_key!(&*self.0.lock()?, k => k.activation_interval());
        Ok((range.start, range.end))
    }

    /// Signs the 32-byte `message` at `epoch` and advances the key past
    /// `epoch` (see the type's docs: store the key before releasing the
    /// signature). Slides the prepared window forward when `epoch` lies
    /// ahead of it (the cost of one bottom tree per step). Refuses an epoch
    /// below [`XmssSecretKey::next_usable_epoch`] or outside the key's
    /// activation interval.
    pub fn sign(&self, epoch: u32, message: &[u8]) -> Result<Vec<u8>> {
        let message = message32(message)?;
        on_key!(&mut *self.0.lock()?, k => {
            // Best effort: when the window cannot reach the epoch, signing
            // reports the precise reason.
            k.prepare_for(u64::from(epoch));
            Ok(k.sign(epoch, &message)?.to_bytes())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn test_key(seed: u8) -> (Vec<u8>, XmssSecretKey) {
        keygen(Scheme::Test, 0, 64, Some(&[seed; 32])).unwrap()
    }

    #[test]
    fn seed_from_u64_is_what_std_rng_expands() {
        use rand::Rng;
        for n in [0, 1, 11, u64::MAX] {
            let mut ours = StdRng::from_seed(seed_from_u64(n));
            let mut theirs = StdRng::seed_from_u64(n);
            assert_eq!(ours.next_u64(), theirs.next_u64());
        }
    }

    #[test]
    fn sign_verify_and_state_round_trip() {
        let (pk, sk) = test_key(1);
        assert_eq!(sk.public_key().unwrap(), pk);
        let message = [9u8; 32];
        let sig = sk.sign(3, &message).unwrap();
        verify(Scheme::Test, &pk, 3, &message, &sig).unwrap();
        assert_eq!(sk.next_usable_epoch().unwrap(), 4);
        // The state travels with the encoding: the restored key refuses epoch 3.
        let restored = XmssSecretKey::from_bytes(Scheme::Test, &sk.to_bytes().unwrap()).unwrap();
        assert_eq!(restored.sign(3, &message).unwrap_err().kind(), ErrorKind::Sign);
        restored.sign(40, &message).unwrap();
    }

    #[test]
    fn rejections_have_their_kinds() {
        let (pk, sk) = test_key(2);
        let message = [1u8; 32];
        let sig = sk.sign(5, &message).unwrap();
        let kind = |r: Result<()>| r.unwrap_err().kind();
        assert_eq!(kind(verify(Scheme::Test, &pk, 6, &message, &sig)), ErrorKind::Verify);
        assert_eq!(kind(verify(Scheme::Test, &pk, 5, &[2u8; 32], &sig)), ErrorKind::Verify);
        assert_eq!(kind(verify(Scheme::Test, &pk, 5, &message, &sig[1..])), ErrorKind::Decode);
        assert_eq!(kind(verify(Scheme::Test, &pk[1..], 5, &message, &sig)), ErrorKind::Decode);
        assert_eq!(kind(verify(Scheme::Test, &pk, 5, &message[1..], &sig)), ErrorKind::Argument);
        assert_eq!(kind(verify(Scheme::LamportPlus, &pk, 5, &message, &sig)), ErrorKind::Argument);
        assert_eq!(sk.sign(5, &message).unwrap_err().kind(), ErrorKind::Sign);
        assert_eq!(sk.sign(500, &message).unwrap_err().kind(), ErrorKind::Sign);
        assert_eq!(
            XmssSecretKey::from_bytes(Scheme::Seed001, &sk.to_bytes().unwrap()).unwrap_err().kind(),
            ErrorKind::Decode
        );
        assert_eq!(keygen(Scheme::Test, 0, 0, None).unwrap_err().kind(), ErrorKind::Argument);
        assert_eq!(keygen(Scheme::Test, 0, 1, Some(&[0; 31])).unwrap_err().kind(), ErrorKind::Argument);
    }

    #[test]
    fn single_epoch_signers_sign_their_epoch_only() {
        let (pks, sigs) = single_epoch_signers(Scheme::Seed001, 3, 9, &[4; 32], Some(&[1; 32])).unwrap();
        assert_eq!((pks.len(), sigs.len()), (3, 3));
        for (pk, sig) in pks.iter().zip(&sigs) {
            verify(Scheme::Seed001, pk, 9, &[4; 32], sig).unwrap();
            assert_eq!(verify(Scheme::Seed001, pk, 10, &[4; 32], sig).unwrap_err().kind(), ErrorKind::Verify);
        }
        let again = single_epoch_signers(Scheme::Seed001, 3, 9, &[4; 32], Some(&[1; 32])).unwrap();
        assert_eq!(again.0, pks);
        let e = single_epoch_signers(Scheme::Seed001, MAX_SINGLE_EPOCH_SIGNERS + 1, 9, &[4; 32], None).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Argument);
        assert_eq!(
            single_epoch_signers(Scheme::LamportPlus, 1, 9, &[4; 32], None).unwrap_err().kind(),
            ErrorKind::Argument
        );
    }

    #[test]
    fn seeded_keygen_is_deterministic() {
        assert_eq!(test_key(3).0, test_key(3).0);
        assert_ne!(test_key(3).0, test_key(4).0);
        let (a, _) = keygen(Scheme::Test, 0, 1, None).unwrap();
        let (b, _) = keygen(Scheme::Test, 0, 1, None).unwrap();
        assert_ne!(a, b);
    }
}
