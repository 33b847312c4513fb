//! leanSpec's aggregation API for leanSig production signatures
//! (`sigagg_bytes::lean`): the SSZ container `AggregatedSignatureProof`
//! (participants bitlist and proof), and the bare `proof_data` calls
//! leanSpec makes of its prover library.

use ::sigagg_bytes::lean;

use crate::boundary::{Out, byte_strings, bytes, call, optional_bytes, owned_bytes};
use crate::{settings_of, sigagg_bytes, sigagg_slice};

/// Proves with `settings` (a `SIGAGG_SETTINGS_*` code; leanSpec's default
/// is `SIGAGG_SETTINGS_WHIR_SKIP`) that `signatures[i]` (leanSig
/// production SSZ, `signature_count` of them) is `public_keys[i]`'s
/// (`public_key_count` of them) signature of the 32-byte `message` at
/// `slot`. Writes leanSpec's SSZ container `AggregatedSignatureProof` to
/// `proof`. `participants` is its SSZ bitlist, one bit set per key in key
/// order; a NULL `participants.ptr` stands for all the keys (as many bits
/// as keys, all set). Takes seconds, on every core. An invalid signature
/// is SIGAGG_ERR_PROVE, its index in the message.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the C signature: pointer and length per list
pub unsafe extern "C" fn sigagg_lean_aggregate(
    settings: u32,
    participants: sigagg_slice,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    signatures: *const sigagg_slice,
    signature_count: usize,
    message: sigagg_slice,
    slot: u32,
    proof: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let participants = unsafe { optional_bytes(participants, "participants") }?;
        let pks = unsafe { byte_strings(public_keys, public_key_count, "public_keys") }?;
        let sigs = unsafe { byte_strings(signatures, signature_count, "signatures") }?;
        let message = unsafe { bytes(message, "message") }?;
        let out = unsafe { Out::new(proof, "proof") }?;
        out.set(owned_bytes(lean::aggregate(settings_of(settings)?, participants, &pks, &sigs, message, slot)?));
        Ok(())
    })
}

/// Verifies leanSpec's SSZ container `proof` (from sigagg_lean_aggregate
/// with the same `settings`) against the participants' `public_keys` (one
/// per bit set, in order) signing the 32-byte `message` at `slot`. A
/// container that does not decode is SIGAGG_ERR_DECODE; one whose
/// participants do not count the keys, or whose proof does not prove this
/// statement, SIGAGG_ERR_VERIFY.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_lean_verify(
    settings: u32,
    proof: sigagg_slice,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    message: sigagg_slice,
    slot: u32,
) -> i32 {
    call(|| {
        let proof = unsafe { bytes(proof, "proof") }?;
        let pks = unsafe { byte_strings(public_keys, public_key_count, "public_keys") }?;
        let message = unsafe { bytes(message, "message") }?;
        lean::verify(settings_of(settings)?, proof, &pks, message, slot)
    })
}

/// sigagg_lean_aggregate without the container: writes the bare proof,
/// leanSpec's `proof_data` (what its `aggregate_signatures` returns).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the C signature: pointer and length per list
pub unsafe extern "C" fn sigagg_lean_aggregate_signatures(
    settings: u32,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    signatures: *const sigagg_slice,
    signature_count: usize,
    message: sigagg_slice,
    slot: u32,
    proof_data: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let pks = unsafe { byte_strings(public_keys, public_key_count, "public_keys") }?;
        let sigs = unsafe { byte_strings(signatures, signature_count, "signatures") }?;
        let message = unsafe { bytes(message, "message") }?;
        let out = unsafe { Out::new(proof_data, "proof_data") }?;
        out.set(owned_bytes(lean::aggregate_signatures(settings_of(settings)?, &pks, &sigs, message, slot)?));
        Ok(())
    })
}

/// sigagg_lean_verify of a bare `proof_data` (leanSpec's
/// `verify_aggregated_signatures`): `public_keys` are every signer's.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_lean_verify_aggregated_signatures(
    settings: u32,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    message: sigagg_slice,
    proof_data: sigagg_slice,
    slot: u32,
) -> i32 {
    call(|| {
        let pks = unsafe { byte_strings(public_keys, public_key_count, "public_keys") }?;
        let message = unsafe { bytes(message, "message") }?;
        let proof_data = unsafe { bytes(proof_data, "proof_data") }?;
        lean::verify_aggregated_signatures(settings_of(settings)?, &pks, message, proof_data, slot)
    })
}
