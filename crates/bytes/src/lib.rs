//! # sigagg-bytes: the byte-level API the language bindings wrap
//!
//! Every operation the Python package (`bindings/python`) and the C ABI
//! (`crates/ffi`) expose, written once on byte strings: keys, signatures,
//! group keys, membership paths and proofs go in and come out as the
//! scheme crates' own encodings, schemes and settings are chosen at run
//! time ([`Scheme`], [`ProofSettings`]), and every failure is one
//! [`Error`] with an [`ErrorKind`] and the typed error's message.
//!
//! | module | operations |
//! |---|---|
//! | [`xmss`] | key generation, stateful secret keys, sign, verify (Seed001, LeanSigProd, Test) |
//! | [`lamport`] | key generation, one-time secret keys, sign (mined or given counter), verify, group membership (Lamport+ plain and mined) |
//! | [`aggregate`](mod@aggregate) | aggregate proofs and their verification (Seed001, Lamport+) |
//! | [`lean`] | leanSpec's aggregation API for leanSig production signatures: `aggregate_signatures`, `verify_aggregated_signatures`, and its SSZ container `AggregatedSignatureProof` |
//! | [`merge`](mod@merge) | merged aggregates: one proof that Seed001 aggregates of one message verify, and its verification |
//! | [`threshold`] | groups, t-of-n threshold proofs and their verification (Seed001, Lamport+) |
//! | [`proof`] | what a proof says about itself (kind, count, named settings) and its settings' security |
//! | [`bls`] | BLS keys, sign, verify, proofs of possession, aggregate, (fast) aggregate verify, batch verify |
//! | [`atms`] | ATMS aggregate keys, signing and verification |
//! | [`cert`] | succinct BLS threshold certificates: setup ceremony, committees, certify, verify |
//! | [`mithril`] | Mithril STM (mithril-stm 0.13 encodings): parameters, keys with proofs of possession, registration, lottery signing, the concatenation certificate, its verification |
//!
//! ```
//! use sigagg_bytes::{Scheme, xmss};
//!
//! let (pk, sk) = xmss::keygen(Scheme::Test, 0, 32, Some(&[7; 32])).unwrap();
//! let sig = sk.sign(3, &[1; 32]).unwrap(); // the key now refuses epochs <= 3
//! xmss::verify(Scheme::Test, &pk, 3, &[1; 32], &sig).unwrap();
//! let e = xmss::verify(Scheme::Test, &pk, 3, &[2; 32], &sig).unwrap_err();
//! assert_eq!(e.kind(), sigagg_bytes::ErrorKind::Verify);
//! ```
//!
//! ## Boundary discipline
//!
//! A binding's only job is to cross its boundary: convert arguments (Python
//! objects, C pointers) into the slices taken here, call one function
//! through [`guarded`] (so a panic becomes [`ErrorKind::Internal`] and
//! never unwinds into the caller), and convert the result or the error
//! back. Nothing is checked or decided in a binding that is not checked
//! or decided here.
//!
//! ## Adding a function
//!
//! 1. Write it here, in the module of its scheme, on `&[u8]` / `&[&[u8]]`
//!    arguments, returning [`Result`]; map a new crate's errors in
//!    `error.rs` (one `From` impl choosing the kind per variant).
//! 2. Python: one `#[pyfunction]` in `bindings/python/src/lib.rs` calling it
//!    through `run` (which releases the GIL and maps the error), its line
//!    in `sigagg/_native.pyi`, and a test.
//! 3. C: one `extern "C"` function in `crates/ffi/src/lib.rs` calling it
//!    through `call`, then regenerate `include/sigagg.h`
//!    (`SIGAGG_BLESS=1 cargo test -p sigagg-ffi --test header`).
//!
//! ## Threads
//!
//! Every function may be called from any thread. Secret keys
//! ([`xmss::XmssSecretKey`], [`lamport::LamportSecretKey`]) keep their
//! state behind a lock, so concurrent signing with one key is serialized
//! rather than racing. Proving runs on rayon's global pool
//! (`RAYON_NUM_THREADS` limits it).

#![forbid(unsafe_code)]

pub mod aggregate;
pub mod atms;
pub mod bls;
pub mod cert;
mod error;
mod input;
pub mod lamport;
pub mod lean;
pub mod merge;
pub mod mithril;
pub mod proof;
mod scheme;
mod state;
pub mod threshold;
pub mod xmss;

pub use aggregate::{AggregateStatement, aggregate, verify_aggregate};
pub use error::{Error, ErrorKind, Result, guarded};
pub use proof::{ProofInfo, ProofKind, Security, Shape, inspect, security};
pub use scheme::{ProofSettings, Scheme};
pub use state::StatefulKey;
pub use threshold::{
    Certificate, Group, GroupInfo, Signer, ThresholdStatement, group, group_info, prove_threshold, verify_threshold,
};
