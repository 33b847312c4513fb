//! Lamport+: key generation, one-time secret-key handles, sign, verify.

use ::sigagg_bytes::StatefulKey;
use ::sigagg_bytes::lamport::{self, LamportSecretKey};

use crate::boundary::{KeyHandle, Out, bytes, call, encoding, free, handle, key_from_bytes, key_output, keygen};
use crate::{scheme_of, sigagg_bytes, sigagg_slice};

/// A one-time Lamport+ secret key (opaque). Signing uses it up; its state
/// is behind a lock, so it may be used from several threads.
pub struct sigagg_lamport_secret_key(LamportSecretKey);

impl KeyHandle for sigagg_lamport_secret_key {
    type Key = LamportSecretKey;
    fn wrap(key: LamportSecretKey) -> Self {
        Self(key)
    }
    fn key(&self) -> &LamportSecretKey {
        &self.0
    }
}

/// Generates a Lamport+ key pair of `scheme` (SIGAGG_SCHEME_LAMPORT_PLUS or
/// _MINED). `seed`: 32 bytes for a deterministic key (one key per seed),
/// or a NULL `ptr` for the operating system's randomness.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_lamport_keygen(
    scheme: u32,
    seed: sigagg_slice,
    public_key: *mut sigagg_bytes,
    secret_key: *mut *mut sigagg_lamport_secret_key,
) -> i32 {
    unsafe { keygen(seed, public_key, secret_key, |seed| lamport::keygen(scheme_of(scheme)?, seed)) }
}

/// Decodes a secret key written by sigagg_lamport_secret_key_to_bytes.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_lamport_secret_key_from_bytes(
    scheme: u32,
    encoding: sigagg_slice,
    secret_key: *mut *mut sigagg_lamport_secret_key,
) -> i32 {
    unsafe { key_from_bytes(scheme, encoding, secret_key) }
}

/// The key's encoding with its one-time state (secret: wiped by
/// sigagg_bytes_free).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_lamport_secret_key_to_bytes(
    secret_key: *const sigagg_lamport_secret_key,
    output: *mut sigagg_bytes,
) -> i32 {
    unsafe { key_output(secret_key, output, encoding) }
}

/// The key's public key.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_lamport_secret_key_public_key(
    secret_key: *const sigagg_lamport_secret_key,
    public_key: *mut sigagg_bytes,
) -> i32 {
    unsafe { key_output(secret_key, public_key, LamportSecretKey::public_key) }
}

/// Whether the key has signed.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_lamport_secret_key_is_used(
    secret_key: *const sigagg_lamport_secret_key,
    used: *mut bool,
) -> i32 {
    call(|| {
        let (key, out) = unsafe { (handle(secret_key, "secret_key")?, Out::new(used, "used")?) };
        out.set(key.0.is_used()?);
        Ok(())
    })
}

/// Signs `message` (any length) and marks the key used: store the key's
/// new encoding before releasing the signature. Re-signing the same
/// message gives the same signature; another message is SIGAGG_ERR_SIGN.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_lamport_sign(
    secret_key: *const sigagg_lamport_secret_key,
    message: sigagg_slice,
    signature: *mut sigagg_bytes,
) -> i32 {
    unsafe { key_output(secret_key, signature, |key| key.sign(bytes(message, "message")?)) }
}

/// Frees a secret-key handle; NULL is ignored.
///
/// # Safety
/// `secret_key` must be NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_lamport_secret_key_free(secret_key: *mut sigagg_lamport_secret_key) {
    unsafe { free(secret_key) }
}

/// Verifies a Lamport+ `signature` on `message`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_lamport_verify(
    scheme: u32,
    public_key: sigagg_slice,
    message: sigagg_slice,
    signature: sigagg_slice,
) -> i32 {
    call(|| {
        let (pk, message, sig) =
            unsafe { (bytes(public_key, "public_key")?, bytes(message, "message")?, bytes(signature, "signature")?) };
        lamport::verify(scheme_of(scheme)?, pk, message, sig)
    })
}
