//! Mithril stake-based threshold signatures (STM, mithril-stm 0.13
//! encodings): parameters, keys with proofs of possession, registration,
//! lottery signing, the concatenation certificate and its verification.
//! Fixed-size keys go to caller-owned buffers; everything else is a
//! library-allocated `sigagg_bytes` the caller frees.

use ::sigagg_bytes::mithril::{self, Signed};

use crate::boundary::{Out, OutArray, byte_strings, bytes, call, items, optional_bytes, owned_bytes};
use crate::{SIGAGG_MITHRIL_KEY_BYTES, SIGAGG_MITHRIL_SIGNING_KEY_BYTES, sigagg_bytes, sigagg_slice};

/// What a verified Mithril certificate holds.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sigagg_mithril_info {
    /// Signatures (distinct signers) in the certificate.
    pub signatures: u64,
    /// Distinct lottery indices they won (at least k).
    pub indices: u64,
}

/// Mithril parameters: `k` distinct lottery indices out of `m` make a
/// certificate; a party with all the stake wins an index with probability
/// `phi_f` (mainnet: 1944, 16948, 0.2). Needs 1 <= k <= m and 0 < phi_f
/// <= 1. Writes mithril-stm's encoding to `params`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_mithril_parameters(k: u64, m: u64, phi_f: f64, params: *mut sigagg_bytes) -> i32 {
    call(|| {
        let out = unsafe { Out::new(params, "params") }?;
        out.set(owned_bytes(mithril::parameters(k, m, phi_f)?));
        Ok(())
    })
}

/// A Mithril signing key and its verification key with proof of
/// possession. `seed`: at least 32 bytes of key material for a
/// deterministic key, or a NULL `ptr` for the operating system's
/// randomness. Writes SIGAGG_MITHRIL_SIGNING_KEY_BYTES to `signing_key`
/// and SIGAGG_MITHRIL_KEY_BYTES (mvk, k1, k2) to `key`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_mithril_keygen(seed: sigagg_slice, signing_key: *mut u8, key: *mut u8) -> i32 {
    call(|| {
        let seed = unsafe { optional_bytes(seed, "seed") }?;
        let sk_out = unsafe { OutArray::<SIGAGG_MITHRIL_SIGNING_KEY_BYTES>::new(signing_key, "signing_key") }?;
        let key_out = unsafe { OutArray::<SIGAGG_MITHRIL_KEY_BYTES>::new(key, "key") }?;
        let (sk, vk) = mithril::keygen(seed)?;
        sk_out.set(&sk);
        key_out.set(&vk);
        Ok(())
    })
}

/// Registers the `count` parties (`keys[i]`: a verification key with its
/// proof of possession, checked here; `stakes[i]`: its stake) and closes
/// the registration. Writes the closed registration (for signers and the
/// clerk) to `registration` and the aggregate verification key (for
/// verifiers) to `avk`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_mithril_register(
    keys: *const sigagg_slice,
    stakes: *const u64,
    count: usize,
    registration: *mut sigagg_bytes,
    avk: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let keys = unsafe { byte_strings(keys, count, "keys") }?;
        let stakes = unsafe { items(stakes, count, "stakes") }?;
        let (reg_out, avk_out) = unsafe { (Out::new(registration, "registration")?, Out::new(avk, "avk")?) };
        let reg = mithril::register(&keys, stakes)?;
        reg_out.set(owned_bytes(reg.registration));
        avk_out.set(owned_bytes(reg.avk));
        Ok(())
    })
}

/// Signs `message` with a registered signing key. A signature that wins
/// at least one lottery index is written to `signature` with `*won` set
/// to true; one that wins none is not an error in Mithril: SIGAGG_OK,
/// `*won` false and `signature` set to an empty buffer (NULL, 0).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_mithril_sign(
    params: sigagg_slice,
    registration: sigagg_slice,
    signing_key: sigagg_slice,
    message: sigagg_slice,
    signature: *mut sigagg_bytes,
    won: *mut bool,
) -> i32 {
    call(|| {
        let (params, reg) = unsafe { (bytes(params, "params")?, bytes(registration, "registration")?) };
        let (sk, message) = unsafe { (bytes(signing_key, "signing_key")?, bytes(message, "message")?) };
        let (sig_out, won_out) = unsafe { (Out::new(signature, "signature")?, Out::new(won, "won")?) };
        match mithril::sign(params, reg, sk, message)? {
            Signed::Won(sig) => {
                sig_out.set(owned_bytes(sig));
                won_out.set(true);
            }
            Signed::NoIndexWon => {
                sig_out.set(sigagg_bytes { ptr: std::ptr::null_mut(), len: 0 });
                won_out.set(false);
            }
        }
        Ok(())
    })
}

/// The clerk: a concatenation certificate on `message` from the `count`
/// single signatures (any order; invalid ones skipped). Too few indices
/// is SIGAGG_ERR_PROVE. Writes the certificate.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_mithril_aggregate(
    params: sigagg_slice,
    registration: sigagg_slice,
    message: sigagg_slice,
    signatures: *const sigagg_slice,
    count: usize,
    certificate: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let (params, reg) = unsafe { (bytes(params, "params")?, bytes(registration, "registration")?) };
        let message = unsafe { bytes(message, "message") }?;
        let sigs = unsafe { byte_strings(signatures, count, "signatures") }?;
        let out = unsafe { Out::new(certificate, "certificate") }?;
        out.set(owned_bytes(mithril::aggregate(params, reg, message, &sigs)?));
        Ok(())
    })
}

/// Verifies a concatenation `certificate` on `message` against the
/// aggregate verification key `avk` and `params`. Unless `info` is NULL,
/// writes what the certificate holds there.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_mithril_verify(
    params: sigagg_slice,
    avk: sigagg_slice,
    message: sigagg_slice,
    certificate: sigagg_slice,
    info: *mut sigagg_mithril_info,
) -> i32 {
    call(|| {
        let (params, avk) = unsafe { (bytes(params, "params")?, bytes(avk, "avk")?) };
        let (message, cert) = unsafe { (bytes(message, "message")?, bytes(certificate, "certificate")?) };
        let info_out = if info.is_null() { None } else { Some(unsafe { Out::new(info, "info") }?) };
        let v = mithril::verify(params, avk, message, cert)?;
        if let Some(out) = info_out {
            out.set(sigagg_mithril_info { signatures: v.signatures, indices: v.indices });
        }
        Ok(())
    })
}
