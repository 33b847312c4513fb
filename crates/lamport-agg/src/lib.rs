//! STARK aggregate and threshold proofs for Lamport+ one-time signatures
//! (seed 004, sections 4-5; the threshold relations of seed 000, section 2.1).
//!
//! * [`aggregate`]: one proof that `N` signatures over `N` distinct
//!   messages are valid under `N` public keys.
//! * [`threshold`]: one proof that at least `t` distinct members of a group
//!   (a Merkle root and size over Lamport+ keys, `sigagg_lamport::GroupTree`)
//!   signed one message; it reveals the count and optionally the signer
//!   bitmap.
//!
//! Both are STARKs over KoalaBear (degree-5 challenge extension, SHA-256
//! commitments) made by the backend the settings name (`sigagg-prover`;
//! today Plonky3's batch STARK with FRI), whose
//! tables are described in [`air`] and [`layout`]. The crate has the
//! shape every aggregator has (ARCHITECTURE.md, "Adding an aggregator"):
//! [`statement`], [`air`], [`trace`], [`system`], [`aggregate`] and
//! [`threshold`] (each with `prove` and `verify`), [`proof`], [`security`],
//! [`error`] and [`named`]. Per signature the
//! circuit proves `ones(codeword)` width-16 permutations (the revealed
//! sub-keys; about 128 plain, 113 mined) and `n/2` width-24 permutations
//! (the public-key sponge: 128 plain, 112 mined), plus `depth` width-24
//! permutations (the Merkle path) in the threshold mode: the work of native
//! verification, nothing more. Codewords are public (the verifier derives
//! them from the messages): a threshold's one codeword enters as periodic
//! columns, an aggregate's per-slot codewords as chunk values in the slot
//! table (see [`air::hash::Codewords`]).
//!
//! ```no_run
//! use sigagg_lamport::{LamportPlus, keygen_from_seed};
//! use sigagg_lamport_agg::{AggregateEntry, AggregateStatement, Proof, aggregate, named};
//!
//! let (entries, sigs): (Vec<_>, Vec<_>) = (0..4u8)
//!     .map(|i| {
//!         let (pk, mut sk) = keygen_from_seed::<LamportPlus>([i; 32]);
//!         let message = vec![i; 8];
//!         let sig = sk.sign(&message).unwrap();
//!         (AggregateEntry { public_key: pk, message }, sig)
//!     })
//!     .unzip();
//! let statement = AggregateStatement::new(entries).unwrap();
//! let proof = aggregate::prove(&named::FAST, &statement, &sigs).unwrap();
//! let bytes = proof.to_bytes();
//! aggregate::verify(&named::FAST, &statement, &Proof::from_bytes(&bytes).unwrap()).unwrap();
//! ```

#![forbid(unsafe_code)]

pub mod aggregate;
pub mod air;
pub mod bus;
pub mod error;
pub mod layout;
pub mod named;
pub mod poseidon;
pub mod proof;
pub mod security;
pub mod statement;
pub mod system;
pub mod threshold;
pub mod trace;

/// The shared STARK machinery's settings and types (field, extension,
/// backends), at the path the XMSS aggregator has them too.
pub use sigagg_prover::config;

pub use config::{Backend, Settings};
pub use error::{ProveError, StatementError, VerifyError};
pub use layout::max_signatures;
pub use named::{Named, named, settings};
pub use proof::{Proof, ProofKind};
pub use statement::{AggregateEntry, AggregateStatement, ThresholdStatement, bitmap, members_of};
pub use threshold::{Disclosure, Signer};
