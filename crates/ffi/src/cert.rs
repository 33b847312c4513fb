//! Succinct BLS threshold certificates (`sigagg-bls-cert`): the setup and
//! its ceremony, committees, certificates. Variable-size outputs are
//! library-allocated `sigagg_bytes` the caller frees.

use ::sigagg_bytes::cert;

use crate::boundary::{Out, byte_strings, bytes, call, items, owned_bytes};
use crate::{sigagg_bytes, sigagg_slice};

/// What a verified certificate establishes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sigagg_cert_info {
    /// Distinct committee members that signed.
    pub count: u64,
    /// Their stake; meaningful when `has_stake`.
    pub stake: u64,
    /// Whether the committee is weighted (so `stake` is set).
    pub has_stake: bool,
    /// Whether the committee key comes from the INSECURE development setup
    /// (anyone can forge certificates under it; only set when the caller
    /// passed `allow_insecure_setup`).
    pub insecure_setup: bool,
    /// SHA-256 of the setup file the committee key was made with: compare
    /// it with the published ceremony file's.
    pub setup_digest: [u8; 32],
}

/// The INSECURE deterministic development setup for committees of up to
/// `max_committee` keys, for tests and demos only (writes `setup`).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_cert_development_setup(max_committee: usize, setup: *mut sigagg_bytes) -> i32 {
    call(|| {
        let out = unsafe { Out::new(setup, "setup") }?;
        out.set(owned_bytes(cert::development_setup(max_committee)?));
        Ok(())
    })
}

/// The start of a setup ceremony for committees of up to `max_committee`
/// keys, with no contribution yet (writes `setup`).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_cert_ceremony_start(max_committee: usize, setup: *mut sigagg_bytes) -> i32 {
    call(|| {
        let out = unsafe { Out::new(setup, "setup") }?;
        out.set(owned_bytes(cert::ceremony_start(max_committee)?));
        Ok(())
    })
}

/// Adds a contribution to a ceremony; its secret is derived from `entropy`
/// (at least 32 bytes from a cryptographic source; wipe it afterwards).
/// Writes the extended ceremony to `out`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_cert_contribute(
    setup: sigagg_slice,
    entropy: sigagg_slice,
    out: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let (setup, entropy) = unsafe { (bytes(setup, "setup")?, bytes(entropy, "entropy")?) };
        let out = unsafe { Out::new(out, "out") }?;
        out.set(owned_bytes(cert::contribute(setup, entropy)?));
        Ok(())
    })
}

/// Checks every contribution of a ceremony with pairings and writes their
/// number to `contributions`. The development setup and a ceremony without
/// contributions are refused (SIGAGG_ERR_VERIFY).
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_cert_verify_ceremony(setup: sigagg_slice, contributions: *mut usize) -> i32 {
    call(|| {
        let setup = unsafe { bytes(setup, "setup") }?;
        let out = unsafe { Out::new(contributions, "contributions") }?;
        out.set(cert::verify_ceremony(setup)?);
        Ok(())
    })
}

/// Commits the `count` BLS keys (each with its proof of possession) and,
/// unless `weights` is NULL, their `count` stake weights. Writes the
/// committee (for provers) to `committee` and the committee key (for
/// verifiers, about 600 bytes) to `committee_key`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_cert_committee(
    setup: sigagg_slice,
    public_keys: *const sigagg_slice,
    pops: *const sigagg_slice,
    count: usize,
    weights: *const u64,
    committee: *mut sigagg_bytes,
    committee_key: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let setup = unsafe { bytes(setup, "setup") }?;
        let pks = unsafe { byte_strings(public_keys, count, "public_keys") }?;
        let pops = unsafe { byte_strings(pops, count, "pops") }?;
        let weights = if weights.is_null() { None } else { Some(unsafe { items(weights, count, "weights") }?) };
        let (committee_out, key_out) =
            unsafe { (Out::new(committee, "committee")?, Out::new(committee_key, "committee_key")?) };
        let files = cert::committee(setup, &pks, &pops, weights)?;
        committee_out.set(owned_bytes(files.committee));
        key_out.set(owned_bytes(files.key));
        Ok(())
    })
}

/// Certifies that the `signer_count` members at `signer_indices` (positions
/// in the committee; `signatures[j]` is signer `j`'s) signed `message`.
/// `accountable` publishes their bitfield in the certificate. Writes the
/// certificate.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_cert_certify(
    setup: sigagg_slice,
    committee: sigagg_slice,
    message: sigagg_slice,
    signer_indices: *const u32,
    signatures: *const sigagg_slice,
    signer_count: usize,
    accountable: bool,
    certificate: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let (setup, committee, message) =
            unsafe { (bytes(setup, "setup")?, bytes(committee, "committee")?, bytes(message, "message")?) };
        let indices = unsafe { items(signer_indices, signer_count, "signer_indices") }?;
        let sigs = unsafe { byte_strings(signatures, signer_count, "signatures") }?;
        let out = unsafe { Out::new(certificate, "certificate") }?;
        out.set(owned_bytes(cert::certify(setup, committee, message, indices, &sigs, accountable)?));
        Ok(())
    })
}

/// Certifies from an aggregate signature and its signers' bitfield (SSZ
/// bit order, one bit per member). Writes the certificate.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_cert_certify_aggregate(
    setup: sigagg_slice,
    committee: sigagg_slice,
    message: sigagg_slice,
    bitfield: sigagg_slice,
    aggregate_signature: sigagg_slice,
    accountable: bool,
    certificate: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let (setup, committee, message) =
            unsafe { (bytes(setup, "setup")?, bytes(committee, "committee")?, bytes(message, "message")?) };
        let (bits, aggregate) =
            unsafe { (bytes(bitfield, "bitfield")?, bytes(aggregate_signature, "aggregate_signature")?) };
        let out = unsafe { Out::new(certificate, "certificate") }?;
        out.set(owned_bytes(cert::certify_aggregate(setup, committee, message, bits, aggregate, accountable)?));
        Ok(())
    })
}

/// Verifies `certificate` on `message` against a committee key (or a
/// committee) and a threshold of `threshold` signers, and of
/// `*stake_threshold` stake unless `stake_threshold` is NULL. A committee
/// key of the INSECURE development setup is refused (SIGAGG_ERR_VERIFY)
/// unless `allow_insecure_setup` (tests and demos only). Writes what it
/// establishes to `info`, and, unless `signers` is NULL, the signers'
/// bitfield (empty for a counting certificate) to `signers`.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_cert_verify(
    committee_key: sigagg_slice,
    certificate: sigagg_slice,
    message: sigagg_slice,
    threshold: u64,
    stake_threshold: *const u64,
    allow_insecure_setup: bool,
    info: *mut sigagg_cert_info,
    signers: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let (key, cert_bytes, message) = unsafe {
            (bytes(committee_key, "committee_key")?, bytes(certificate, "certificate")?, bytes(message, "message")?)
        };
        let stake = if stake_threshold.is_null() { None } else { Some(unsafe { *stake_threshold }) };
        let info_out = unsafe { Out::new(info, "info") }?;
        let signers_out = if signers.is_null() { None } else { Some(unsafe { Out::new(signers, "signers") }?) };
        let verified = cert::verify_certificate(key, cert_bytes, message, threshold, stake, allow_insecure_setup)?;
        info_out.set(sigagg_cert_info {
            count: verified.count,
            stake: verified.stake.unwrap_or(0),
            has_stake: verified.stake.is_some(),
            insecure_setup: verified.insecure_setup,
            setup_digest: verified.setup_digest,
        });
        if let Some(out) = signers_out {
            out.set(owned_bytes(verified.signers.unwrap_or_default()));
        }
        Ok(())
    })
}
