//! STARK aggregate and threshold proofs for generalized-XMSS signatures
//! (parameter set [`Seed001`](sigagg_xmss::Seed001); seed 001, and the
//! threshold relations of seed 000, section 2.1).
//!
//! * [`aggregate`]: one proof that `N` signatures are valid, each under its
//!   own key, at its own epoch, over its own message (or one shared
//!   message, the consensus case).
//! * [`threshold`]: one proof that at least `t` distinct members of a group
//!   (a Merkle root and size over Seed001 keys, `sigagg_xmss::group`)
//!   signed one message at one epoch; it reveals the count and optionally
//!   the signers.
//!
//! Both answer with one [`Proof`] that carries its [`ProofKind`]. They are
//! STARKs over KoalaBear (degree-5 challenge extension) made by the backend
//! the settings name (`sigagg-prover`), whose tables are described in
//! [`air`]. The crate has the shape every aggregator has: [`statement`],
//! [`air`], [`trace`], [`aggregate`] and [`threshold`] (each with `prove`
//! and `verify`), [`proof`], [`security`], [`error`], and the named
//! settings ([`settings`], [`named`]).
//!
//! ```no_run
//! use sigagg_xmss_agg::{AggregateEntry, AggregateStatement, Named, Proof, aggregate, settings};
//! use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
//!
//! let message = [7u8; 32];
//! let (entries, signatures): (Vec<_>, Vec<_>) = (0..4)
//!     .map(|_| {
//!         let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), 9, &message).unwrap();
//!         (AggregateEntry { public_key: pk, epoch: 9, message }, sig)
//!     })
//!     .unzip();
//! let statement = AggregateStatement::new(entries).unwrap();
//! let fast = settings(Named::Fast);
//! let proof = aggregate::prove(&fast, &statement, &signatures).unwrap();
//! let bytes = proof.to_bytes();
//! aggregate::verify(&fast, &statement, &Proof::from_bytes(&bytes).unwrap()).unwrap();
//! ```

#![forbid(unsafe_code)]

pub mod aggregate;
pub mod air;
pub mod bus;
pub mod error;
pub mod layout;
pub mod leansig;
pub mod named;
pub mod proof;
pub mod scheme;
pub mod security;
pub mod statement;
pub mod system;
pub mod threshold;
pub mod trace;

/// The shared STARK machinery, at the paths this crate has always had.
pub use sigagg_prover::{codec, config, dft, merkle_hash, paired};

pub use crate::config::{Backend, Settings};
pub use crate::error::{ProveError, StatementError, VerifyError};
pub use crate::named::{Named, named, settings};
pub use crate::proof::{Proof, ProofKind};
pub use crate::scheme::AggScheme;
pub use crate::statement::{AggregateEntry, AggregateStatement, max_signatures};

/// What a verifier circuit reads of a statement: its tables in batch
/// order, their heights (log2) and its transcript's seed.
pub type VerifierView<A> = (Vec<A>, Vec<usize>, Vec<u8>);
pub use crate::threshold::{Disclosure, Signer, ThresholdStatement};
pub use sigagg_prover::fold_lookups;

/// The least collision resistance, in bits, of a Merkle hash an XMSS proof
/// may commit with: every XMSS setting claims more than 100 proven bits, so
/// SHA-256 (128 bits) and its 31-byte truncation (124) qualify, and the
/// 24-byte truncation (96) does not.
pub const MIN_COLLISION_BITS: usize = 100;
