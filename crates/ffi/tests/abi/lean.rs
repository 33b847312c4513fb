//! leanSpec's aggregation API through the C ABI: a container of two
//! leanSig production signatures is made, verifies, and is refused for
//! another message, slot or key list; failures leave outputs untouched.

use std::ffi::CStr;
use std::ptr::null;

use rand::SeedableRng;
use rand::rngs::StdRng;
use sigagg_ffi::lean::{
    sigagg_lean_aggregate, sigagg_lean_aggregate_signatures, sigagg_lean_verify,
    sigagg_lean_verify_aggregated_signatures,
};
use sigagg_ffi::*;
use sigagg_xmss::{LeanSigProd, single_epoch_key_and_signature};

const SETTINGS: u32 = SIGAGG_SETTINGS_TEST_WHIR_SKIP;
const MESSAGE: [u8; 32] = [0x5a; 32];
const SLOT: u32 = 1234;

fn slice(b: &[u8]) -> sigagg_slice {
    sigagg_slice { ptr: b.as_ptr(), len: b.len() }
}

fn slices(items: &[Vec<u8>]) -> Vec<sigagg_slice> {
    items.iter().map(|b| slice(b)).collect()
}

fn last_error() -> String {
    unsafe { CStr::from_ptr(sigagg_last_error()) }.to_str().unwrap().to_owned()
}

fn empty() -> sigagg_bytes {
    sigagg_bytes { ptr: std::ptr::null_mut(), len: 0 }
}

/// Copies a library buffer out and frees it.
fn take(b: sigagg_bytes) -> Vec<u8> {
    let v = unsafe { std::slice::from_raw_parts(b.ptr, b.len) }.to_vec();
    unsafe { sigagg_bytes_free(b) };
    v
}

#[test]
fn containers_verify_and_wrong_statements_are_refused() {
    let mut rng = StdRng::seed_from_u64(11);
    let (pks, sigs): (Vec<Vec<u8>>, Vec<Vec<u8>>) = (0..2)
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<LeanSigProd, _>(&mut rng, SLOT, &MESSAGE).unwrap();
            (pk.to_bytes(), sig.to_bytes())
        })
        .unzip();
    let (pk_s, sig_s) = (slices(&pks), slices(&sigs));
    let all = sigagg_slice { ptr: null(), len: 0 };

    let mut out = empty();
    let status = unsafe {
        sigagg_lean_aggregate(SETTINGS, all, pk_s.as_ptr(), 2, sig_s.as_ptr(), 2, slice(&MESSAGE), SLOT, &mut out)
    };
    assert_eq!(status, SIGAGG_OK, "{}", last_error());
    let container = take(out);
    // The SSZ container: offsets 8 and 9, the bitlist 0b111 (two bits set, the delimiter).
    assert_eq!(container[..9], [8, 0, 0, 0, 9, 0, 0, 0, 0b111]);
    let verify = |proof: &[u8], keys: &[sigagg_slice], message: &[u8], slot: u32| unsafe {
        sigagg_lean_verify(SETTINGS, slice(proof), keys.as_ptr(), keys.len(), slice(message), slot)
    };
    assert_eq!(verify(&container, &pk_s, &MESSAGE, SLOT), SIGAGG_OK, "{}", last_error());

    // Negative cases: each a status code and a message.
    let mut wrong = MESSAGE;
    wrong[0] ^= 1;
    assert_eq!(verify(&container, &pk_s, &wrong, SLOT), SIGAGG_ERR_VERIFY);
    assert_eq!(verify(&container, &pk_s, &MESSAGE, SLOT + 1), SIGAGG_ERR_VERIFY);
    assert_eq!(verify(&container, &[pk_s[1], pk_s[0]], &MESSAGE, SLOT), SIGAGG_ERR_VERIFY);
    assert_eq!(verify(&container, &pk_s[..1], &MESSAGE, SLOT), SIGAGG_ERR_VERIFY);
    assert!(last_error().contains("2 participants for 1 public keys"), "{}", last_error());
    assert_eq!(verify(&container[..8], &pk_s, &MESSAGE, SLOT), SIGAGG_ERR_DECODE);
    assert_eq!(verify(&container, &pk_s, &MESSAGE[..31], SLOT), SIGAGG_ERR_ARGUMENT);
    let no_keys = unsafe { sigagg_lean_verify(SETTINGS, slice(&container), null(), 2, slice(&MESSAGE), SLOT) };
    assert_eq!(no_keys, SIGAGG_ERR_ARGUMENT);
    assert!(last_error().contains("public_keys is a null pointer"), "{}", last_error());

    // The bare proof_data is the container's tail and verifies alone.
    let mut out = empty();
    let status = unsafe {
        sigagg_lean_aggregate_signatures(SETTINGS, pk_s.as_ptr(), 2, sig_s.as_ptr(), 2, slice(&MESSAGE), SLOT, &mut out)
    };
    assert_eq!(status, SIGAGG_OK, "{}", last_error());
    let proof_data = take(out);
    let bare = |keys: &[sigagg_slice], slot: u32| unsafe {
        sigagg_lean_verify_aggregated_signatures(
            SETTINGS,
            keys.as_ptr(),
            keys.len(),
            slice(&MESSAGE),
            slice(&proof_data),
            slot,
        )
    };
    assert_eq!(bare(&pk_s, SLOT), SIGAGG_OK, "{}", last_error());
    assert_eq!(bare(&pk_s, SLOT - 1), SIGAGG_ERR_VERIFY);
    assert_eq!(bare(&pk_s[..1], SLOT), SIGAGG_ERR_VERIFY);
}

#[test]
fn failed_aggregations_leave_the_output_untouched() {
    let mut rng = StdRng::seed_from_u64(12);
    let (pk, sig) = single_epoch_key_and_signature::<LeanSigProd, _>(&mut rng, SLOT, &MESSAGE).unwrap();
    let (pk, sig) = (pk.to_bytes(), sig.to_bytes());
    let (pks, sigs) = ([slice(&pk)], [slice(&sig)]);
    let all = sigagg_slice { ptr: null(), len: 0 };
    let mut out = sigagg_bytes { ptr: std::ptr::null_mut(), len: 7 };
    let run = |message: &[u8], slot: u32, sig_count: usize, settings: u32, out: &mut sigagg_bytes| unsafe {
        sigagg_lean_aggregate(settings, all, pks.as_ptr(), 1, sigs.as_ptr(), sig_count, slice(message), slot, out)
    };
    // The signature is of another message, of another slot.
    assert_eq!(run(&[0; 32], SLOT, 1, SETTINGS, &mut out), SIGAGG_ERR_PROVE);
    assert!(last_error().contains("signature 0 is invalid"), "{}", last_error());
    assert_eq!(run(&MESSAGE, SLOT + 1, 1, SETTINGS, &mut out), SIGAGG_ERR_PROVE);
    // Counts that differ, an unknown settings code, two participants for one key.
    assert_eq!(run(&MESSAGE, SLOT, 0, SETTINGS, &mut out), SIGAGG_ERR_ARGUMENT);
    assert_eq!(run(&MESSAGE, SLOT, 1, 99, &mut out), SIGAGG_ERR_ARGUMENT);
    let two = [0b111u8];
    let status = unsafe {
        sigagg_lean_aggregate(SETTINGS, slice(&two), pks.as_ptr(), 1, sigs.as_ptr(), 1, slice(&MESSAGE), SLOT, &mut out)
    };
    assert_eq!(status, SIGAGG_ERR_ARGUMENT);
    assert!(out.ptr.is_null() && out.len == 7);
}
