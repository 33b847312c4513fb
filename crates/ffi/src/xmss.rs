//! XMSS: key generation, stateful secret-key handles, sign, verify.

use ::sigagg_bytes::StatefulKey;
use ::sigagg_bytes::xmss::{self, XmssSecretKey};

use crate::boundary::{
    KeyHandle, Out, OutArray, bytes, call, encoding, free, handle, key_from_bytes, key_output, keygen,
};
use crate::{SIGAGG_SEED_BYTES, scheme_of, sigagg_bytes, sigagg_slice};

/// A stateful XMSS secret key (opaque). Signing advances it; its state is
/// behind a lock, so it may be used from several threads.
pub struct sigagg_xmss_secret_key(XmssSecretKey);

impl KeyHandle for sigagg_xmss_secret_key {
    type Key = XmssSecretKey;
    fn wrap(key: XmssSecretKey) -> Self {
        Self(key)
    }
    fn key(&self) -> &XmssSecretKey {
        &self.0
    }
}

/// Generates an XMSS key pair of `scheme` (a `SIGAGG_SCHEME_*` XMSS code)
/// able to sign the epochs [activation_epoch, activation_epoch +
/// num_epochs), widened to whole bottom trees. `seed`: 32 bytes for a
/// deterministic key, or a NULL `ptr` for the operating system's
/// randomness. Writes the public key (free with sigagg_bytes_free) and a
/// new secret-key handle (free with sigagg_xmss_secret_key_free).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_xmss_keygen(
    scheme: u32,
    activation_epoch: u64,
    num_epochs: u64,
    seed: sigagg_slice,
    public_key: *mut sigagg_bytes,
    secret_key: *mut *mut sigagg_xmss_secret_key,
) -> i32 {
    unsafe {
        keygen(seed, public_key, secret_key, |seed| {
            xmss::keygen(scheme_of(scheme)?, activation_epoch, num_epochs, seed)
        })
    }
}

/// Decodes a secret key written by sigagg_xmss_secret_key_to_bytes for
/// `scheme` (recomputes and checks its prepared bottom trees).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_xmss_secret_key_from_bytes(
    scheme: u32,
    encoding: sigagg_slice,
    secret_key: *mut *mut sigagg_xmss_secret_key,
) -> i32 {
    unsafe { key_from_bytes(scheme, encoding, secret_key) }
}

/// The key's encoding with its current state (secret: wiped by
/// sigagg_bytes_free).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_xmss_secret_key_to_bytes(
    secret_key: *const sigagg_xmss_secret_key,
    output: *mut sigagg_bytes,
) -> i32 {
    unsafe { key_output(secret_key, output, encoding) }
}

/// The key's public key.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_xmss_secret_key_public_key(
    secret_key: *const sigagg_xmss_secret_key,
    public_key: *mut sigagg_bytes,
) -> i32 {
    unsafe { key_output(secret_key, public_key, XmssSecretKey::public_key) }
}

/// The smallest epoch the key may still sign.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_xmss_secret_key_next_usable_epoch(
    secret_key: *const sigagg_xmss_secret_key,
    epoch: *mut u64,
) -> i32 {
    call(|| {
        let (key, out) = unsafe { (handle(secret_key, "secret_key")?, Out::new(epoch, "epoch")?) };
        out.set(key.0.next_usable_epoch()?);
        Ok(())
    })
}

/// Signs the 32-byte `message` at `epoch` and advances the key past it:
/// store the key's new encoding before releasing the signature.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_xmss_sign(
    secret_key: *const sigagg_xmss_secret_key,
    epoch: u32,
    message: sigagg_slice,
    signature: *mut sigagg_bytes,
) -> i32 {
    unsafe { key_output(secret_key, signature, |key| key.sign(epoch, bytes(message, "message")?)) }
}

/// Frees a secret-key handle; NULL is ignored.
///
/// # Safety
/// `secret_key` must be NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_xmss_secret_key_free(secret_key: *mut sigagg_xmss_secret_key) {
    unsafe { free(secret_key) }
}

/// Verifies an XMSS `signature` on the 32-byte `message` at `epoch`
/// (SIGAGG_OK, or SIGAGG_ERR_VERIFY / SIGAGG_ERR_DECODE / ...).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_xmss_verify(
    scheme: u32,
    public_key: sigagg_slice,
    epoch: u32,
    message: sigagg_slice,
    signature: sigagg_slice,
) -> i32 {
    call(|| {
        let (pk, message, sig) =
            unsafe { (bytes(public_key, "public_key")?, bytes(message, "message")?, bytes(signature, "signature")?) };
        xmss::verify(scheme_of(scheme)?, pk, epoch, message, sig)
    })
}

/// Writes the 32-byte seed that `StdRng::seed_from_u64(n)` expands to (the
/// reference implementations' known-answer vectors draw their keys from
/// it) into `seed` (SIGAGG_SEED_BYTES bytes).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_seed_from_u64(n: u64, seed: *mut u8) -> i32 {
    call(|| {
        let out = unsafe { OutArray::<SIGAGG_SEED_BYTES>::new(seed, "seed") }?;
        out.set(&xmss::seed_from_u64(n));
        Ok(())
    })
}
