//! Aggregate and threshold proofs (Seed001, Lamport+), groups, byte lists
//! and certificates.

use ::sigagg_bytes::{self as api, Certificate, Signer};

use crate::boundary::{Out, byte_strings, bytes, call, free, handle, into_handle, items, owned_bytes};
use crate::{
    scheme_of, settings_of, sigagg_aggregate_statement, sigagg_bytes, sigagg_signer, sigagg_slice,
    sigagg_threshold_statement,
};

/// A list of byte strings owned by the library (opaque; immutable).
pub struct sigagg_bytes_list(Vec<Vec<u8>>);

/// What a verified threshold proof certifies (opaque; immutable).
pub struct sigagg_certificate(Certificate);

/// The lists of an aggregate statement, borrowed from the caller.
struct AggregateLists<'a> {
    public_keys: Vec<&'a [u8]>,
    messages: Vec<&'a [u8]>,
    epochs: &'a [u32],
}

impl<'a> AggregateLists<'a> {
    /// The lists of `s`.
    ///
    /// # Safety
    /// `s`'s pointers as the header's rules say.
    unsafe fn of(s: &sigagg_aggregate_statement) -> api::Result<Self> {
        unsafe {
            Ok(Self {
                public_keys: byte_strings(s.public_keys, s.count, "public_keys")?,
                messages: byte_strings(s.messages, s.message_count, "messages")?,
                epochs: items(s.epochs, s.epoch_count, "epochs")?,
            })
        }
    }

    fn statement(&self) -> api::AggregateStatement<'_> {
        api::AggregateStatement { public_keys: &self.public_keys, messages: &self.messages, epochs: self.epochs }
    }
}

/// Proves with `scheme` (Seed001 or Lamport+) and `settings` (a
/// `SIGAGG_SETTINGS_*` code) that `signatures[i]` (`signature_count` of
/// them, one per entry) signs entry `i` of `statement`. Takes seconds to
/// minutes, on every core. Writes the proof.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_aggregate(
    scheme: u32,
    settings: u32,
    statement: *const sigagg_aggregate_statement,
    signatures: *const sigagg_slice,
    signature_count: usize,
    proof: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let lists = unsafe { AggregateLists::of(handle(statement, "statement")?) }?;
        let sigs = unsafe { byte_strings(signatures, signature_count, "signatures") }?;
        let out = unsafe { Out::new(proof, "proof") }?;
        out.set(owned_bytes(api::aggregate(scheme_of(scheme)?, settings_of(settings)?, &lists.statement(), &sigs)?));
        Ok(())
    })
}

/// Verifies an aggregate `proof` of `statement` made with `settings`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_verify_aggregate(
    scheme: u32,
    settings: u32,
    statement: *const sigagg_aggregate_statement,
    proof: sigagg_slice,
) -> i32 {
    call(|| {
        let lists = unsafe { AggregateLists::of(handle(statement, "statement")?) }?;
        let proof = unsafe { bytes(proof, "proof") }?;
        api::verify_aggregate(scheme_of(scheme)?, settings_of(settings)?, &lists.statement(), proof)
    })
}

/// The group of the `count` keys at `public_keys` (in member order):
/// writes its key and a list whose item `i` is member `i`'s membership
/// path (free with sigagg_bytes_list_free).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_group(
    scheme: u32,
    public_keys: *const sigagg_slice,
    count: usize,
    group_key: *mut sigagg_bytes,
    paths: *mut *mut sigagg_bytes_list,
) -> i32 {
    call(|| {
        let pks = unsafe { byte_strings(public_keys, count, "public_keys") }?;
        let (key_out, paths_out) = unsafe { (Out::new(group_key, "group_key")?, Out::new(paths, "paths")?) };
        let group = api::group(scheme_of(scheme)?, &pks)?;
        key_out.set(owned_bytes(group.key));
        paths_out.set(into_handle(sigagg_bytes_list(group.paths)));
        Ok(())
    })
}

/// The number of items of `list` (0 for NULL).
///
/// # Safety
/// `list` must be NULL or a live list.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bytes_list_len(list: *const sigagg_bytes_list) -> usize {
    unsafe { handle(list, "list") }.map_or(0, |l| l.0.len())
}

/// Item `index` of `list`, borrowed from the list (valid until it is
/// freed); `{NULL, 0}` if `list` is NULL or `index` is out of range.
///
/// # Safety
/// `list` must be NULL or a live list.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bytes_list_get(list: *const sigagg_bytes_list, index: usize) -> sigagg_slice {
    let item = unsafe { handle(list, "list") }.ok().and_then(|l| l.0.get(index));
    item.map_or(sigagg_slice { ptr: std::ptr::null(), len: 0 }, |b| sigagg_slice { ptr: b.as_ptr(), len: b.len() })
}

/// Frees a list; NULL is ignored.
///
/// # Safety
/// `list` must be NULL or a live list, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bytes_list_free(list: *mut sigagg_bytes_list) {
    unsafe { free(list) }
}

/// The byte-level threshold statement of `s`.
///
/// # Safety
/// `s`'s pointers as the header's rules say.
unsafe fn threshold_statement<'a>(s: &sigagg_threshold_statement) -> api::Result<api::ThresholdStatement<'a>> {
    unsafe {
        Ok(api::ThresholdStatement {
            group_key: bytes(s.group_key, "group_key")?,
            threshold: s.threshold,
            message: bytes(s.message, "message")?,
            epoch: s.epoch.as_ref().copied(),
        })
    }
}

/// Proves that the `count` `signers` (at least the threshold, distinct
/// members, any order) signed the statement's message; with `disclose`
/// the proof also reveals who. Writes the proof.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_prove_threshold(
    scheme: u32,
    settings: u32,
    statement: *const sigagg_threshold_statement,
    signers: *const sigagg_signer,
    count: usize,
    disclose: bool,
    proof: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let st = unsafe { threshold_statement(handle(statement, "statement")?) }?;
        let witness = unsafe { items(signers, count, "signers") }?
            .iter()
            .enumerate()
            .map(|(i, s)| unsafe {
                Ok(Signer {
                    public_key: bytes(s.public_key, &format!("signers[{i}].public_key"))?,
                    signature: bytes(s.signature, &format!("signers[{i}].signature"))?,
                    path: bytes(s.path, &format!("signers[{i}].path"))?,
                })
            })
            .collect::<api::Result<Vec<_>>>()?;
        let out = unsafe { Out::new(proof, "proof") }?;
        out.set(owned_bytes(api::prove_threshold(
            scheme_of(scheme)?,
            settings_of(settings)?,
            &st,
            &witness,
            disclose,
        )?));
        Ok(())
    })
}

/// Verifies a threshold `proof` of `statement` made with `settings`. On
/// success, if `certificate` is not NULL, writes a new certificate handle
/// (free with sigagg_certificate_free).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_verify_threshold(
    scheme: u32,
    settings: u32,
    statement: *const sigagg_threshold_statement,
    proof: sigagg_slice,
    certificate: *mut *mut sigagg_certificate,
) -> i32 {
    call(|| {
        let st = unsafe { threshold_statement(handle(statement, "statement")?) }?;
        let proof = unsafe { bytes(proof, "proof") }?;
        let out = unsafe { Out::new(certificate, "certificate") }.ok();
        let cert = api::verify_threshold(scheme_of(scheme)?, settings_of(settings)?, &st, proof)?;
        if let Some(out) = out {
            out.set(into_handle(sigagg_certificate(cert)));
        }
        Ok(())
    })
}

/// The number of distinct members the certificate counts (0 for NULL).
///
/// # Safety
/// `certificate` must be NULL or a live certificate.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_certificate_count(certificate: *const sigagg_certificate) -> u32 {
    unsafe { handle(certificate, "certificate") }.map_or(0, |c| c.0.count)
}

/// Whether the proof disclosed its signers; if so, and `indices` and
/// `count` are not NULL, points `*indices` at their ascending member
/// indices (borrowed from the certificate) and sets `*count`.
///
/// # Safety
/// `certificate` must be NULL or a live certificate; `indices` and
/// `count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_certificate_signers(
    certificate: *const sigagg_certificate,
    indices: *mut *const u32,
    count: *mut usize,
) -> bool {
    let signers = unsafe { handle(certificate, "certificate") }.ok().and_then(|c| c.0.signers.as_deref());
    let (Some(signers), Ok(indices), Ok(count)) =
        (signers, unsafe { Out::new(indices, "indices") }, unsafe { Out::new(count, "count") })
    else {
        return signers.is_some();
    };
    indices.set(signers.as_ptr());
    count.set(signers.len());
    true
}

/// Frees a certificate; NULL is ignored.
///
/// # Safety
/// `certificate` must be NULL or a live certificate, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_certificate_free(certificate: *mut sigagg_certificate) {
    unsafe { free(certificate) }
}
