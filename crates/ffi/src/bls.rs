//! BLS12-381 (Ethereum's proof-of-possession ciphersuite) and ATMS.
//! Fixed-size outputs go to caller-owned buffers of the documented size.

use ::sigagg_bytes::{atms, bls};

use crate::boundary::{
    Out, OutArray, byte_strings, bytes, call, items, optional_byte_strings, optional_bytes, owned_bytes,
};
use crate::{
    SIGAGG_ATMS_AGGREGATE_KEY_BYTES, SIGAGG_BLS_PUBLIC_KEY_BYTES, SIGAGG_BLS_SECRET_KEY_BYTES,
    SIGAGG_BLS_SIGNATURE_BYTES, sigagg_bytes, sigagg_slice,
};

/// A BLS key pair. `ikm`: input key material (at least 32 bytes) for a
/// deterministic key, or a NULL `ptr` for the operating system's
/// randomness. Writes SIGAGG_BLS_SECRET_KEY_BYTES to `secret_key` and
/// SIGAGG_BLS_PUBLIC_KEY_BYTES to `public_key`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bls_keygen(ikm: sigagg_slice, secret_key: *mut u8, public_key: *mut u8) -> i32 {
    call(|| {
        let ikm = unsafe { optional_bytes(ikm, "ikm") }?;
        let sk_out = unsafe { OutArray::<SIGAGG_BLS_SECRET_KEY_BYTES>::new(secret_key, "secret_key") }?;
        let pk_out = unsafe { OutArray::<SIGAGG_BLS_PUBLIC_KEY_BYTES>::new(public_key, "public_key") }?;
        let (sk, pk) = bls::keygen(ikm)?;
        sk_out.set(&sk);
        pk_out.set(&pk);
        Ok(())
    })
}

/// The public key of a secret key (SIGAGG_BLS_PUBLIC_KEY_BYTES to `public_key`).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bls_public_key(secret_key: sigagg_slice, public_key: *mut u8) -> i32 {
    call(|| {
        let sk = unsafe { bytes(secret_key, "secret_key") }?;
        let out = unsafe { OutArray::<SIGAGG_BLS_PUBLIC_KEY_BYTES>::new(public_key, "public_key") }?;
        out.set(&bls::public_key(sk)?);
        Ok(())
    })
}

/// Signs `message` (SIGAGG_BLS_SIGNATURE_BYTES to `signature`).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bls_sign(secret_key: sigagg_slice, message: sigagg_slice, signature: *mut u8) -> i32 {
    call(|| {
        let (sk, message) = unsafe { (bytes(secret_key, "secret_key")?, bytes(message, "message")?) };
        let out = unsafe { OutArray::<SIGAGG_BLS_SIGNATURE_BYTES>::new(signature, "signature") }?;
        out.set(&bls::sign(sk, message)?);
        Ok(())
    })
}

/// Verifies a BLS `signature` on `message`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bls_verify(
    public_key: sigagg_slice,
    message: sigagg_slice,
    signature: sigagg_slice,
) -> i32 {
    call(|| {
        let (pk, message, sig) =
            unsafe { (bytes(public_key, "public_key")?, bytes(message, "message")?, bytes(signature, "signature")?) };
        bls::verify(pk, message, sig)
    })
}

/// The proof of possession of a secret key (SIGAGG_BLS_SIGNATURE_BYTES to `pop`).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bls_prove_possession(secret_key: sigagg_slice, pop: *mut u8) -> i32 {
    call(|| {
        let sk = unsafe { bytes(secret_key, "secret_key") }?;
        let out = unsafe { OutArray::<SIGAGG_BLS_SIGNATURE_BYTES>::new(pop, "pop") }?;
        out.set(&bls::prove_possession(sk)?);
        Ok(())
    })
}

/// Checks a proof of possession.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bls_verify_possession(public_key: sigagg_slice, pop: sigagg_slice) -> i32 {
    call(|| {
        let (pk, pop) = unsafe { (bytes(public_key, "public_key")?, bytes(pop, "pop")?) };
        bls::verify_possession(pk, pop)
    })
}

/// The sum of the `count` signatures (SIGAGG_BLS_SIGNATURE_BYTES to `aggregate`).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bls_aggregate(
    signatures: *const sigagg_slice,
    count: usize,
    aggregate: *mut u8,
) -> i32 {
    call(|| {
        let sigs = unsafe { byte_strings(signatures, count, "signatures") }?;
        let out = unsafe { OutArray::<SIGAGG_BLS_SIGNATURE_BYTES>::new(aggregate, "aggregate") }?;
        out.set(&bls::aggregate(&sigs)?);
        Ok(())
    })
}

/// FastAggregateVerify over the `count` keys. `pops`: `count` proofs of
/// possession, checked here, or NULL for keys whose proofs were checked
/// before (a key list without them can hide a rogue key).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bls_fast_aggregate_verify(
    public_keys: *const sigagg_slice,
    pops: *const sigagg_slice,
    count: usize,
    message: sigagg_slice,
    signature: sigagg_slice,
) -> i32 {
    call(|| {
        let pks = unsafe { byte_strings(public_keys, count, "public_keys") }?;
        let pops = unsafe { optional_byte_strings(pops, count, "pops") }?;
        let (message, sig) = unsafe { (bytes(message, "message")?, bytes(signature, "signature")?) };
        bls::fast_aggregate_verify(&pks, pops.as_deref(), message, sig)
    })
}

/// AggregateVerify: key `i` signed `messages[i]`, for the `count` keys.
/// `pops` as for sigagg_bls_fast_aggregate_verify.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bls_aggregate_verify(
    public_keys: *const sigagg_slice,
    pops: *const sigagg_slice,
    messages: *const sigagg_slice,
    count: usize,
    signature: sigagg_slice,
) -> i32 {
    call(|| {
        let pks = unsafe { byte_strings(public_keys, count, "public_keys") }?;
        let pops = unsafe { optional_byte_strings(pops, count, "pops") }?;
        let messages = unsafe { byte_strings(messages, count, "messages") }?;
        let sig = unsafe { bytes(signature, "signature") }?;
        bls::aggregate_verify(&pks, pops.as_deref(), &messages, sig)
    })
}

/// The ATMS aggregate key of the `count` keys, each with its proof of
/// possession (SIGAGG_ATMS_AGGREGATE_KEY_BYTES to `aggregate_key`).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_atms_aggregate_key(
    public_keys: *const sigagg_slice,
    pops: *const sigagg_slice,
    count: usize,
    aggregate_key: *mut u8,
) -> i32 {
    call(|| {
        let pks = unsafe { byte_strings(public_keys, count, "public_keys") }?;
        let pops = unsafe { byte_strings(pops, count, "pops") }?;
        let out = unsafe { OutArray::<SIGAGG_ATMS_AGGREGATE_KEY_BYTES>::new(aggregate_key, "aggregate_key") }?;
        out.set(&atms::aggregate_key(&pks, &pops)?);
        Ok(())
    })
}

/// Checks that the `count` keys with their proofs give `aggregate_key`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_atms_check(
    public_keys: *const sigagg_slice,
    pops: *const sigagg_slice,
    count: usize,
    aggregate_key: sigagg_slice,
) -> i32 {
    call(|| {
        let pks = unsafe { byte_strings(public_keys, count, "public_keys") }?;
        let pops = unsafe { byte_strings(pops, count, "pops") }?;
        let avk = unsafe { bytes(aggregate_key, "aggregate_key") }?;
        atms::check(&pks, &pops, avk)
    })
}

/// An ATMS signature on `message` for `threshold`: signer `j` is key
/// `signer_indices[j]` of the `key_count` keys and `signatures[j]` its
/// signature, for the `signer_count` signers. Writes the signature.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_atms_sign(
    threshold: usize,
    message: sigagg_slice,
    public_keys: *const sigagg_slice,
    key_count: usize,
    signer_indices: *const u32,
    signatures: *const sigagg_slice,
    signer_count: usize,
    signature: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let message = unsafe { bytes(message, "message") }?;
        let pks = unsafe { byte_strings(public_keys, key_count, "public_keys") }?;
        let indices = unsafe { items(signer_indices, signer_count, "signer_indices") }?;
        let sigs = unsafe { byte_strings(signatures, signer_count, "signatures") }?;
        let out = unsafe { Out::new(signature, "signature") }?;
        out.set(owned_bytes(atms::sign(threshold, message, &pks, indices, &sigs)?));
        Ok(())
    })
}

/// Verifies an ATMS `signature` against `aggregate_key` and `threshold`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_atms_verify(
    threshold: usize,
    message: sigagg_slice,
    aggregate_key: sigagg_slice,
    signature: sigagg_slice,
) -> i32 {
    call(|| {
        let (message, avk, sig) = unsafe {
            (bytes(message, "message")?, bytes(aggregate_key, "aggregate_key")?, bytes(signature, "signature")?)
        };
        atms::verify(threshold, message, avk, sig)
    })
}
