//! What the two stateful secret-key types share: a key of a run-time
//! scheme behind a lock, and the [`StatefulKey`] trait the bindings use to
//! treat both alike.

use std::sync::{Mutex, MutexGuard};

use zeroize::Zeroizing;

use crate::error::{Error, ErrorKind, Result};
use crate::scheme::Scheme;

/// Operations every stateful secret key offers, whatever its scheme.
///
/// # Why
///
/// The bindings expose XMSS and Lamport+ keys as two handle types with the
/// same life cycle (decode, encode, public key, free); the trait lets them
/// write that life cycle once.
pub trait StatefulKey: Sized + Send + Sync {
    /// Decodes a key of `scheme` written by [`StatefulKey::to_bytes`].
    fn from_bytes(scheme: Scheme, bytes: &[u8]) -> Result<Self>;
    /// The key's encoding with its current state (secret; wiped on drop).
    fn to_bytes(&self) -> Result<Zeroizing<Vec<u8>>>;
    /// The public key's bytes.
    fn public_key(&self) -> Result<Vec<u8>>;
    /// The key's parameter set.
    fn scheme(&self) -> Scheme;
}

/// A secret key with its state behind a lock, tagged with its scheme.
///
/// # Why the lock
///
/// Signing reads and advances the state in one step; two threads signing
/// with one key unlocked could both read the same state and sign one XMSS
/// epoch twice, which lets anyone forge. With the lock, concurrent calls on
/// one key run one after the other, so the key types are `Sync` and the
/// bindings may share them between threads.
pub(crate) struct Locked<K> {
    scheme: Scheme,
    key: Mutex<K>,
}

impl<K> Locked<K> {
    pub(crate) fn new(scheme: Scheme, key: impl Into<K>) -> Self {
        Self { scheme, key: Mutex::new(key.into()) }
    }

    pub(crate) fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The key, locked. A key whose lock a panic poisoned is refused: its
    /// state may be half-updated.
    pub(crate) fn lock(&self) -> Result<MutexGuard<'_, K>> {
        self.key
            .lock()
            .map_err(|_| Error::new(ErrorKind::Internal, "this secret key was left unusable by a panic while signing"))
    }
}

impl<K> std::fmt::Debug for Locked<K> {
    /// Names the scheme only: the key is secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecretKey").field("scheme", &self.scheme.name()).finish_non_exhaustive()
    }
}

/// An enum with one variant per parameter set's key type, and `From` for
/// each (so a typed key goes into [`Locked::new`] as is).
macro_rules! key_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident($ty:ty)),+ $(,)? }) => {
        $(#[$doc])*
        enum $name {
            $($variant($ty)),+
        }
        $(impl From<$ty> for $name {
            fn from(key: $ty) -> Self {
                $name::$variant(key)
            }
        })+
    };
}

pub(crate) use key_enum;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poisoned_key_is_refused_as_internal() {
        let locked: Locked<u8> = Locked::new(Scheme::Test, 1u8);
        let _ = std::thread::scope(|s| {
            s.spawn(|| {
                let _guard = locked.lock().unwrap();
                panic!("while signing");
            })
            .join()
        });
        assert_eq!(locked.lock().unwrap_err().kind(), ErrorKind::Internal);
        assert_eq!(format!("{locked:?}"), "SecretKey { scheme: \"test\", .. }");
    }
}
