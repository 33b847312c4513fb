//! # sigagg-merge: merged aggregates (issue 42, item 3, in progress)
//!
//! One proof that several child aggregates verify: whoever holds the
//! aggregates of several subnets proves them once more as one, without
//! the signatures. Type 1 (one message and epoch, leanMultisig's): the
//! children are aggregate proofs (Seed001 or leanSig production) under the
//! recursion setting (`whir-skip-poseidon2`, [`CHILD_SETTINGS`]), or merged
//! proofs made under it, of disjoint signers of one message at one epoch
//! ([`MergeStatement`], a tree of [`Child`]ren up to [`MAX_DEPTH`]
//! levels); [`merge`] verifies each natively and proves that they verify,
//! as `sigagg-recursion`'s verifier circuit with each proof as advice;
//! [`verify`] rebuilds that circuit from the statement alone and checks
//! the proof.
//!
//! Binding: the circuit takes every child's transcript seed (which ends
//! with a digest of its statement) as public inputs, and the merged
//! proof's transcript binds the circuit and its inputs: another list of
//! children is another circuit or other inputs. No periodic column of a
//! child (its keys and messages, linear in the signers) is evaluated in
//! the circuit: the merged proof carries each one's value at the child's
//! zerocheck point as a claim (`MergedProof::claims`, the circuit's other
//! inputs, the point bound to the transcript's), and [`verify`] checks
//! them natively (`sigagg_recursion::deferred`).
//!
//! **Merged children** ([`Child::Merged`]). A merged proof is a proof of
//! its circuit on its claims (the circuit's inputs): the parent's circuit
//! verifies it like an aggregate, the child's circuit rebuilt from its
//! statement and claims (its seed and short columns constants, its long
//! columns deferred again). No circuit checks the child's own claims, so
//! they are **carried up**: the parent proof holds each merged child's
//! claims ([`ChildHeader::Merged`]), and [`verify`] checks every level's
//! natively. Soundness by induction: each level's proof is sound for its
//! circuit on its claims, and each claim is checked. The price: [`verify`]
//! rebuilds every merged circuit of the tree (tens of milliseconds each).
//!
//! **Verifying keys** ([`MergeKey`], [`verify_with_key`]): the circuit is
//! the same for every statement of one shape of children, so a verifier
//! builds it once, from a proof's headers alone, as a key, and verifies
//! each proof of that shape without any circuit rebuilt, at any depth
//! (2 × 64 Seed001 children: 25 ms against 65-70 ms, BENCHMARKS.md).
//!
//! **Raw signatures** beside the children ([`merge_signed`]) are
//! aggregated first into one more child, then merged: one proof results.
//!
//! **Threshold certificates** ([`Child::Threshold`]): a t-of-n threshold
//! proof of the same message and epoch is a child too, its count and
//! disclosed signers carried in the header ([`ChildHeader::Threshold`],
//! bound by its seed). Its signers are not listed, so the merge proves
//! each certificate, not that its signers differ from the other
//! children's. A verifier names each certificate's committee
//! ([`MergeStatement::split_with`]); so do the front ends.
//!
//! **Several messages** (type 2, [`Messages::Several`],
//! [`MergeStatement::of_messages`]): each signer and certificate its own
//! message and epoch, each signer once per message and epoch; a block's
//! attestations of several votes merge into one proof. The circuit is the
//! same (each child's proof is verified against its own statement), and a
//! verifier rebuilds the statement from each signer's key, message and
//! epoch ([`MergeStatement::split_entries`]).
//!
//! **Split** ([`split`]): a merged proof shown to a verifier who knows
//! only some children; the others are withheld ([`Withheld`]: an
//! aggregate's signer count or a merge's table heights, and its
//! statement's digest). The circuit defers every periodic column of every
//! child, so its part for a child reads nothing of the child's statement
//! but its tables' shape and its transcript's seed: the verifier builds a
//! withheld child's part from the header alone and leaves its claims
//! unchecked. The kept children stay sound (their parts and claims are
//! what the verifier builds and checks from their statements); nothing is
//! proven about a withheld one. No proof is made: the split proof is the
//! merged proof with other headers, as long and as costly to verify, and a
//! child of further merges like any merged proof. Unlike leanMultisig's
//! split, which proves a new, shorter proof of the kept part.
//!
//! **Not yet:** a committed verifying key (the key's tables committed
//! once and opened in the proof), which would make verification
//! independent of the circuit's size, and a split proof shorter.
//!
//! ```no_run
//! use sigagg_merge::{Child, ChildProof, MergeStatement, merge, verify};
//! # fn children() -> (Vec<sigagg_xmss_agg::AggregateStatement>, Vec<sigagg_xmss_agg::Proof>) { unimplemented!() }
//! # fn another() -> (sigagg_xmss_agg::AggregateStatement, sigagg_xmss_agg::Proof) { unimplemented!() }
//! let (statements, proofs) = children(); // aggregates under CHILD_SETTINGS
//! let statement = MergeStatement::new(statements)?;
//! let settings = sigagg_merge::CHILD_SETTINGS;
//! let proofs: Vec<ChildProof> = proofs.into_iter().map(ChildProof::from).collect();
//! let merged = merge(&settings, &statement, &proofs)?;
//! verify(&settings, &statement, &merged)?;
//!
//! // The merged proof is a child again, beside another aggregate.
//! let (third, third_proof) = another();
//! let deeper = MergeStatement::of(vec![Child::Merged(statement), Child::Aggregate(third)])?;
//! let root = merge(&settings, &deeper, &[merged.into(), third_proof.into()])?;
//! verify(&settings, &deeper, &root)?;
//!
//! // One key for the shape, built once; every proof of it verified with it.
//! let key = sigagg_merge::MergeKey::new(&root.children)?;
//! sigagg_merge::verify_with_key(&key, &settings, &deeper, &root)?;
//! # Ok::<(), sigagg_merge::MergeError>(())
//! ```

#![forbid(unsafe_code)]

mod error;
mod key;
mod merge;
mod scheme;
mod statement;

pub use error::MergeError;
pub use key::{MergeKey, verify_with_key};
pub use merge::{
    CHILD_SETTINGS, ChildHeader, ChildProof, MergedProof, merge, merge_signed, security_level, split, verifier_circuit,
    verify, verify_level,
};
pub use scheme::MergeScheme;
pub use statement::{Child, MAX_CHILDREN, MAX_DEPTH, MergeStatement, Messages, Shape, Withheld};
