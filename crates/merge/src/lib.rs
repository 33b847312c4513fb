//! # sigagg-merge: merged aggregates (issue 42, item 3, in progress)
//!
//! One proof that several child aggregates verify: whoever holds the
//! aggregates of several subnets proves them once more as one, without
//! the signatures. Type 1 (one message and epoch, leanMultisig's): the
//! children are Seed001 aggregate proofs under the recursion setting
//! (`whir-skip-poseidon2`, [`CHILD_SETTINGS`]) of disjoint signers of one
//! message at one epoch ([`MergeStatement`]); [`merge`] verifies each
//! natively and proves that they verify, as `sigagg-recursion`'s verifier
//! circuit with each proof as advice; [`verify`] rebuilds that circuit
//! from the statement alone and checks the proof.
//!
//! Binding: the circuit carries every child's statement (its transcript
//! seed, a digest of its entries, and its tables' short periodic columns)
//! as constants, and the merged proof's transcript binds the circuit:
//! another list of children is another circuit. Periodic columns longer
//! than 16 rows (the keys and messages, linear in the signers) are not
//! evaluated in the circuit: the merged proof carries each one's value at
//! the child's zerocheck point as a claim (`MergedProof::claims`, the
//! circuit's inputs, the point bound to the transcript's), and [`verify`]
//! checks them natively (`sigagg_recursion::deferred`).
//!
//! **Not yet:** raw signatures beside the children, the split form over
//! several messages (type 2), leanSig's sets, and a merged proof as a
//! child (its verifier reads the circuit's periodic columns in linear
//! time: depth 2 needs them committed, and its deferred claims carried up).
//!
//! ```no_run
//! use sigagg_merge::{MergeStatement, merge, verify};
//! # fn children() -> (Vec<sigagg_xmss_agg::AggregateStatement>, Vec<sigagg_xmss_agg::Proof>) { unimplemented!() }
//! let (statements, proofs) = children(); // aggregates under CHILD_SETTINGS
//! let statement = MergeStatement::new(statements)?;
//! let settings = sigagg_merge::CHILD_SETTINGS;
//! let merged = merge(&settings, &statement, &proofs)?;
//! verify(&settings, &statement, &merged)?;
//! # Ok::<(), sigagg_merge::MergeError>(())
//! ```

#![forbid(unsafe_code)]

mod error;
mod merge;
mod scheme;
mod statement;

pub use error::MergeError;
pub use merge::{CHILD_SETTINGS, MergedProof, merge, security_level, verifier_circuit, verify};
pub use scheme::MergeScheme;
pub use statement::{MAX_CHILDREN, MergeStatement};
