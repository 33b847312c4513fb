//! # sigagg-ffi: the C ABI of sigagg
//!
//! A `cdylib` and `staticlib` exporting the byte-level API of
//! [`sigagg_bytes`] to C (and to Zig, Go, Nim, C++, ... through it). The
//! header, `include/sigagg.h`, is generated from these sources by cbindgen
//! and checked in; `tests/header.rs` fails while it is stale
//! (`SIGAGG_BLESS=1 cargo test -p sigagg-ffi --test header` rewrites it).
//! The header's opening comment states the rules on errors, ownership and
//! threads; each function's comment its own.
//!
//! Every exported function converts its pointers in [`boundary`] (the one
//! module that dereferences them), calls one `sigagg_bytes` function
//! through `boundary::call` (panics caught, errors turned into a status
//! code and a thread-local message), and writes its outputs.
//!
//! Why the header is checked in rather than written by a build script: a
//! build script may only write into `OUT_DIR` (a crate that writes its own
//! source tree cannot be packaged, and its output would change under
//! review), and C users should find the header in the repository without
//! building anything. The test keeps it from drifting.

#![allow(non_camel_case_types)] // C type names, as the header spells them

pub mod bls;
pub mod boundary;
pub mod cert;
pub mod lamport;
pub mod lean;
pub mod merge;
pub mod mithril;
pub mod proofs;
pub mod xmss;

use std::ffi::c_char;

use ::sigagg_bytes::{self as api, ErrorKind, ProofSettings, Scheme};

/// The system allocator, with transparent huge pages asked for on the
/// provers' large buffers (`sigagg_alloc`).
#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

/// Success.
pub const SIGAGG_OK: i32 = 0;
/// The arguments do not fit together or are out of range (an unknown scheme
/// code, a null pointer, lists of different lengths, a message of the
/// wrong length).
pub const SIGAGG_ERR_ARGUMENT: i32 = 1;
/// Bytes that do not decode as the object they should be.
pub const SIGAGG_ERR_DECODE: i32 = 2;
/// Well-formed inputs whose claim is false: a signature, proof or key
/// list that does not verify.
pub const SIGAGG_ERR_VERIFY: i32 = 3;
/// A stateful key refused to sign (XMSS epoch used or outside the key's
/// window, Lamport+ key already used).
pub const SIGAGG_ERR_SIGN: i32 = 4;
/// No proof can be made from the witness (an invalid signature, a
/// non-member, too few signers).
pub const SIGAGG_ERR_PROVE: i32 = 5;
/// A bug: a panic caught at the boundary. Please report it.
pub const SIGAGG_ERR_INTERNAL: i32 = 6;

/// XMSS, hash-sig's lifetime-2^20 set (seed 001): signatures, aggregate and threshold proofs.
pub const SIGAGG_SCHEME_SEED001: u32 = 1;
/// XMSS, leanSig's production set (lifetime 2^32): signatures.
pub const SIGAGG_SCHEME_LEANSIG_PROD: u32 = 2;
/// XMSS, leanSig's lifetime-2^8 set, insecure, for tests: signatures.
pub const SIGAGG_SCHEME_TEST: u32 = 3;
/// Lamport+ one-time signatures: signatures, aggregate and threshold proofs.
pub const SIGAGG_SCHEME_LAMPORT_PLUS: u32 = 4;
/// Lamport+ with 16 mined bits: signatures, aggregate and threshold proofs.
pub const SIGAGG_SCHEME_LAMPORT_PLUS_MINED: u32 = 5;

/// Proof settings: rate 1/2, at least 100 proven bits, the fastest prover.
pub const SIGAGG_SETTINGS_FAST: u32 = 1;
/// Proof settings: rate 1/8, smaller proofs, a slower prover.
pub const SIGAGG_SETTINGS_COMPACT: u32 = 2;
/// Proof settings: insecure (about 20 bits), for tests only.
pub const SIGAGG_SETTINGS_TEST: u32 = 3;
/// Proof settings: the multilinear backend (WHIR) at rate 1/2, at least
/// 120 proven bits.
pub const SIGAGG_SETTINGS_WHIR: u32 = 4;
/// Proof settings: the multilinear backend (WHIR) at rate 1/8, at least
/// 120 proven bits, the shortest proofs (small statements).
pub const SIGAGG_SETTINGS_WHIR_COMPACT: u32 = 5;
/// Proof settings: our own multilinear prover on the WHIR commitment, at
/// least 120 proven bits, faster than `SIGAGG_SETTINGS_WHIR`.
pub const SIGAGG_SETTINGS_WHIR_SKIP: u32 = 6;
/// Proof settings: insecure, for tests only, at rate 1/8 (the compact
/// tables' layout).
pub const SIGAGG_SETTINGS_TEST_COMPACT: u32 = 7;
/// Proof settings: insecure, for tests only, on the WHIR backend.
pub const SIGAGG_SETTINGS_TEST_WHIR: u32 = 8;
/// Proof settings: insecure, for tests only, on our own multilinear prover.
pub const SIGAGG_SETTINGS_TEST_WHIR_SKIP: u32 = 9;
/// Proof settings: `SIGAGG_SETTINGS_WHIR_SKIP` with Merkle trees and
/// transcript over Poseidon2, at least 120 proven bits: proofs a verifier
/// written as AIR tables can check (recursion).
pub const SIGAGG_SETTINGS_WHIR_SKIP_POSEIDON2: u32 = 10;
/// Proof settings: `SIGAGG_SETTINGS_WHIR_SKIP` at starting rate 1/4, at
/// least 120 proven bits: shorter proofs, a slower commitment.
pub const SIGAGG_SETTINGS_WHIR_SKIP_COMPACT: u32 = 11;

/// Bytes of a BLS secret key.
pub const SIGAGG_BLS_SECRET_KEY_BYTES: usize = 32;
/// Bytes of a BLS public key (compressed G1).
pub const SIGAGG_BLS_PUBLIC_KEY_BYTES: usize = 48;
/// Bytes of a BLS signature or proof of possession (compressed G2).
pub const SIGAGG_BLS_SIGNATURE_BYTES: usize = 96;
/// Bytes of an ATMS aggregate key.
pub const SIGAGG_ATMS_AGGREGATE_KEY_BYTES: usize = 88;
/// Bytes of a Mithril signing key.
pub const SIGAGG_MITHRIL_SIGNING_KEY_BYTES: usize = 32;
/// Bytes of a Mithril verification key with its proof of possession
/// (mvk in G2, k1 and k2 in G1, compressed).
pub const SIGAGG_MITHRIL_KEY_BYTES: usize = 192;
/// Bytes of a key-generation seed.
pub const SIGAGG_SEED_BYTES: usize = 32;

/// A borrowed byte string: `len` bytes at `ptr` (`ptr` may be NULL when
/// `len` is 0). Where an input is optional, a NULL `ptr` means absent.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sigagg_slice {
    pub ptr: *const u8,
    pub len: usize,
}

/// A byte string allocated by the library and owned by the caller, who
/// releases it exactly once with `sigagg_bytes_free`.
#[repr(C)]
#[derive(Debug)]
pub struct sigagg_bytes {
    pub ptr: *mut u8,
    pub len: usize,
}

/// What an aggregate proof claims: entry `i` is (`public_keys[i]`,
/// `messages[i]`, `epochs[i]`) and was signed. `messages` holds
/// `message_count` items: `count`, or 1 for one message signed by all.
/// Seed001: `epochs` holds `epoch_count` items, `count` or 1. Lamport+:
/// `epoch_count` is 0 (its keys are one-time), and its messages must be
/// distinct.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sigagg_aggregate_statement {
    pub public_keys: *const sigagg_slice,
    pub count: usize,
    pub messages: *const sigagg_slice,
    pub message_count: usize,
    pub epochs: *const u32,
    pub epoch_count: usize,
}

/// What a threshold proof claims: at least `threshold` members of the
/// group `group_key` signed `message`. Seed001: `epoch` points to the
/// epoch they signed at (and the message is 32 bytes); Lamport+: `epoch`
/// is NULL.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sigagg_threshold_statement {
    pub group_key: sigagg_slice,
    pub threshold: u32,
    pub message: sigagg_slice,
    pub epoch: *const u32,
}

/// One signer's witness for a threshold proof: its public key, its
/// signature on the statement's message, its membership path.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sigagg_signer {
    pub public_key: sigagg_slice,
    pub signature: sigagg_slice,
    pub path: sigagg_slice,
}

/// The scheme of a `SIGAGG_SCHEME_*` code.
pub(crate) fn scheme_of(code: u32) -> api::Result<Scheme> {
    Ok(match code {
        SIGAGG_SCHEME_SEED001 => Scheme::Seed001,
        SIGAGG_SCHEME_LEANSIG_PROD => Scheme::LeanSigProd,
        SIGAGG_SCHEME_TEST => Scheme::Test,
        SIGAGG_SCHEME_LAMPORT_PLUS => Scheme::LamportPlus,
        SIGAGG_SCHEME_LAMPORT_PLUS_MINED => Scheme::LamportPlusMined,
        other => return Err(api::Error::argument(format!("unknown scheme code {other}"))),
    })
}

/// The settings of a `SIGAGG_SETTINGS_*` code.
pub(crate) fn settings_of(code: u32) -> api::Result<ProofSettings> {
    Ok(match code {
        SIGAGG_SETTINGS_FAST => ProofSettings::Fast,
        SIGAGG_SETTINGS_COMPACT => ProofSettings::Compact,
        SIGAGG_SETTINGS_TEST => ProofSettings::Test,
        SIGAGG_SETTINGS_WHIR => ProofSettings::Whir,
        SIGAGG_SETTINGS_WHIR_COMPACT => ProofSettings::WhirCompact,
        SIGAGG_SETTINGS_WHIR_SKIP => ProofSettings::WhirSkip,
        SIGAGG_SETTINGS_TEST_COMPACT => ProofSettings::TestCompact,
        SIGAGG_SETTINGS_TEST_WHIR => ProofSettings::TestWhir,
        SIGAGG_SETTINGS_TEST_WHIR_SKIP => ProofSettings::TestWhirSkip,
        SIGAGG_SETTINGS_WHIR_SKIP_POSEIDON2 => ProofSettings::WhirSkipPoseidon2,
        SIGAGG_SETTINGS_WHIR_SKIP_COMPACT => ProofSettings::WhirSkipCompact,
        other => return Err(api::Error::argument(format!("unknown settings code {other}"))),
    })
}

/// The message of the calling thread's last failed call ("" after a
/// success), NUL-terminated. Owned by the library: valid until the next
/// sigagg call on this thread; copy it to keep it.
#[unsafe(no_mangle)]
pub extern "C" fn sigagg_last_error() -> *const c_char {
    boundary::last_error()
}

/// The name of a status code ("ok", "argument", "decode", "verify",
/// "sign", "prove", "internal"; "unknown" otherwise). A static string.
#[unsafe(no_mangle)]
pub extern "C" fn sigagg_status_name(status: i32) -> *const c_char {
    let name: &'static std::ffi::CStr = match status {
        SIGAGG_OK => c"ok",
        _ => ErrorKind::ALL.iter().find(|k| boundary::code(**k) == status).map_or(c"unknown", |k| kind_name(*k)),
    };
    name.as_ptr()
}

fn kind_name(kind: ErrorKind) -> &'static std::ffi::CStr {
    match kind {
        ErrorKind::Argument => c"argument",
        ErrorKind::Decode => c"decode",
        ErrorKind::Verify => c"verify",
        ErrorKind::Sign => c"sign",
        ErrorKind::Prove => c"prove",
        ErrorKind::Internal => c"internal",
    }
}

/// Wipes and frees a buffer the library returned; NULL `ptr` is ignored.
///
/// # Safety
/// `bytes` must be exactly as the library returned it, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_bytes_free(bytes: sigagg_bytes) {
    unsafe { boundary::free_bytes(bytes) }
}

#[cfg(test)]
mod tests {
    use std::ffi::CStr;

    use super::*;

    #[test]
    fn status_names_follow_the_kinds() {
        let name = |s| unsafe { CStr::from_ptr(sigagg_status_name(s)) }.to_str().unwrap();
        assert_eq!(name(SIGAGG_OK), "ok");
        for kind in ErrorKind::ALL {
            assert_eq!(name(boundary::code(kind)), kind.name());
        }
        assert_eq!(name(99), "unknown");
    }

    #[test]
    fn mithril_sizes_are_the_byte_level_ones() {
        assert_eq!(SIGAGG_MITHRIL_SIGNING_KEY_BYTES, api::mithril::SIGNING_KEY_BYTES);
        assert_eq!(SIGAGG_MITHRIL_KEY_BYTES, api::mithril::KEY_BYTES);
    }

    #[test]
    fn codes_map_to_every_scheme_and_setting() {
        let schemes: Vec<_> = (1..=5).map(|c| scheme_of(c).unwrap()).collect();
        assert_eq!(schemes, Scheme::ALL);
        // Every name has a code; the codes keep the order they were added in.
        let mut all: Vec<_> = (1..=11).map(|c| settings_of(c).unwrap()).collect();
        assert_eq!(all[..3], [ProofSettings::Fast, ProofSettings::Compact, ProofSettings::Test]);
        all.sort_by_key(|s| ProofSettings::ALL.iter().position(|a| a == s));
        assert_eq!(all, ProofSettings::ALL);
        assert_eq!(scheme_of(0).unwrap_err().kind(), ErrorKind::Argument);
        assert_eq!(settings_of(12).unwrap_err().kind(), ErrorKind::Argument);
    }
}
