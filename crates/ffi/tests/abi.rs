//! The C ABI called from Rust: outputs are untouched on failure, handles
//! are safe to share between threads, accessors tolerate NULL.

use std::ffi::CStr;
use std::ptr::{null, null_mut};

use sigagg_ffi::bls::sigagg_bls_sign;
use sigagg_ffi::proofs::{
    sigagg_bytes_list_get, sigagg_bytes_list_len, sigagg_certificate_count, sigagg_certificate_signers,
};
use sigagg_ffi::xmss::{
    sigagg_xmss_keygen, sigagg_xmss_secret_key, sigagg_xmss_secret_key_free, sigagg_xmss_sign, sigagg_xmss_verify,
};
use sigagg_ffi::*;

fn slice(b: &[u8]) -> sigagg_slice {
    sigagg_slice { ptr: b.as_ptr(), len: b.len() }
}

fn last_error() -> String {
    unsafe { CStr::from_ptr(sigagg_last_error()) }.to_str().unwrap().to_owned()
}

#[test]
fn outputs_are_untouched_when_a_call_fails() {
    let mut out = [0xAAu8; SIGAGG_BLS_SIGNATURE_BYTES];
    let status = unsafe { sigagg_bls_sign(slice(&[0; 32]), slice(b"m"), out.as_mut_ptr()) };
    assert_eq!(status, SIGAGG_ERR_DECODE);
    assert!(last_error().contains("secret key"), "{}", last_error());
    assert_eq!(out, [0xAA; SIGAGG_BLS_SIGNATURE_BYTES]);

    let mut pk = sigagg_bytes { ptr: null_mut(), len: 7 };
    let mut sk: *mut sigagg_xmss_secret_key = null_mut();
    let bad_seed = slice(&[1; 31]);
    let status = unsafe { sigagg_xmss_keygen(SIGAGG_SCHEME_TEST, 0, 64, bad_seed, &mut pk, &mut sk) };
    assert_eq!(status, SIGAGG_ERR_ARGUMENT);
    assert!(pk.ptr.is_null() && pk.len == 7 && sk.is_null());
}

/// A raw handle that may cross threads (the header promises it may).
#[derive(Clone, Copy)]
struct Shared(*mut sigagg_xmss_secret_key);
unsafe impl Send for Shared {}

#[test]
fn one_key_signs_an_epoch_once_even_from_many_threads() {
    let mut pk = sigagg_bytes { ptr: null_mut(), len: 0 };
    let mut sk: *mut sigagg_xmss_secret_key = null_mut();
    let seed = slice(&[3; 32]);
    assert_eq!(unsafe { sigagg_xmss_keygen(SIGAGG_SCHEME_TEST, 0, 64, seed, &mut pk, &mut sk) }, SIGAGG_OK);
    let key = Shared(sk);
    let message = [9u8; 32];
    let results: Vec<(i32, String, Vec<u8>)> = (0..8)
        .map(|_| {
            std::thread::spawn(move || {
                let key = key;
                let mut sig = sigagg_bytes { ptr: null_mut(), len: 0 };
                let status = unsafe { sigagg_xmss_sign(key.0, 12, slice(&message), &mut sig) };
                let bytes = if status == SIGAGG_OK {
                    let v = unsafe { std::slice::from_raw_parts(sig.ptr, sig.len) }.to_vec();
                    unsafe { sigagg_bytes_free(sig) };
                    v
                } else {
                    Vec::new()
                };
                (status, last_error(), bytes)
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    let signed: Vec<_> = results.iter().filter(|(s, _, _)| *s == SIGAGG_OK).collect();
    assert_eq!(signed.len(), 1);
    assert_eq!(signed[0].1, "");
    for (status, message, _) in results.iter().filter(|(s, _, _)| *s != SIGAGG_OK) {
        assert_eq!(*status, SIGAGG_ERR_SIGN);
        assert!(message.contains("already used"), "{message}");
    }
    let pk_view = unsafe { std::slice::from_raw_parts(pk.ptr, pk.len) };
    let status =
        unsafe { sigagg_xmss_verify(SIGAGG_SCHEME_TEST, slice(pk_view), 12, slice(&message), slice(&signed[0].2)) };
    assert_eq!(status, SIGAGG_OK);
    unsafe {
        sigagg_xmss_secret_key_free(sk);
        sigagg_bytes_free(pk);
    }
}

#[test]
fn accessors_tolerate_null_handles() {
    unsafe {
        assert_eq!(sigagg_bytes_list_len(null()), 0);
        let item = sigagg_bytes_list_get(null(), 0);
        assert!(item.ptr.is_null() && item.len == 0);
        assert_eq!(sigagg_certificate_count(null()), 0);
        assert!(!sigagg_certificate_signers(null(), null_mut(), null_mut()));
    }
}

/// leanSpec's aggregation API (a module here: one release test binary fewer to link).
#[path = "abi/lean.rs"]
mod lean;
/// Merged aggregates.
#[path = "abi/merge.rs"]
mod merge;
