//! # sigagg-horn: two-layer BLS aggregation for 2^20 validators
//!
//! Horn (design seed 003) aggregates the votes of 2^20 validators every slot
//! with the BLS signatures of [`sigagg_bls`] (Ethereum ciphersuite, keys in
//! G1), its key registry and its [`Bitfield`](sigagg_bls::bitfield::Bitfield)s.
//! This crate holds the aggregation layers, their wire encoding, a simulator
//! of full rounds ([`sim`]) and the benchmark behind `sigagg bench horn`
//! ([`bench`]). Key reconstruction and the simulator work on curve points
//! through [`sigagg_bls::curve`]; nothing here is `unsafe`.
//!
//! Validators are split into committees (32 of 2^15), each committee into
//! subcommittees (64 of 512). The layers:
//!
//! 1. **Aggregators** of a subcommittee gossip [`SubcommitteeAggregate`]s:
//!    an aggregate signature with a 512-bit bitfield.
//! 2. **Collectors** of a committee ([`Collector`]) keep the best aggregate
//!    per subcommittee and merge them (subcommittees are disjoint) into a
//!    [`Collection`]: one signature and a 2^15-bit bitfield. The global topic
//!    carries 512 collections (32 committees x 16 collectors).
//! 3. Every node verifies the 512 collections. The fast path
//!    ([`verify_collections`]) rebuilds each aggregate key by bulk addition
//!    of the present keys or by subtracting the absent ones from a
//!    precomputed committee key, whichever touches fewer points (the absences
//!    common to a committee's collections are subtracted once), in parallel,
//!    then checks all collections with one randomized batched pairing check.
//!
//! [`MultiplicityAggregate`]s (4-bit counts per validator) let collectors
//! merge overlapping aggregates too, at four times the bandwidth; their key is
//! a small-scalar multi-scalar multiplication.
//!
//! [`wire`] encodes all of it, with Snappy compression and size accounting;
//! [`sim`] builds a full round for benchmarks and tests.
//!
//! ## Threads
//! As in `sigagg-bls`, the functions that process many independent items use
//! rayon, so `RAYON_NUM_THREADS=1` gives a true one-core run.

#![forbid(unsafe_code)]

pub mod bench;
mod collection;
mod committee;
mod multiplicity;
mod reconstruct;
pub mod sim;
mod verify;
pub mod wire;

use thiserror::Error;

use sigagg_bls::BlsError;
use sigagg_bls::bitfield::BitfieldError;

pub use collection::{Collection, Collector, SubcommitteeAggregate};
pub use committee::{Committee, HornParams, HornValidators};
pub use multiplicity::{MAX_MULTIPLICITY, Multiplicities, MultiplicityAggregate};
pub use reconstruct::{
    Strategy, aggregate_key, aggregate_key_naive, aggregate_key_with, aggregate_keys, aggregate_keys_independent,
    aggregate_keys_with_strategies, multiplicity_key, multiplicity_key_naive,
};
pub use verify::{
    verify_collection, verify_collection_naive, verify_collections, verify_collections_naive,
    verify_collections_with_rng, verify_multiplicity_aggregate,
};

/// Errors of the Horn layer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HornError {
    /// A signature-layer error (bad point, failed verification, ...).
    #[error(transparent)]
    Bls(#[from] BlsError),
    /// Inconsistent committee / subcommittee sizes.
    #[error("invalid Horn parameters: {0}")]
    InvalidParams(&'static str),
    /// A committee index past the number of committees.
    #[error("committee {committee} out of range ({committees} committees)")]
    CommitteeOutOfRange { committee: u32, committees: usize },
    /// A subcommittee index past the number of subcommittees.
    #[error("subcommittee {subcommittee} out of range ({subcommittees} per committee)")]
    SubcommitteeOutOfRange { subcommittee: u32, subcommittees: usize },
    /// An aggregate offered to the collector of another committee.
    #[error("aggregate of committee {got} offered to a collector of committee {expected}")]
    WrongCommittee { expected: u32, got: u32 },
    /// A bitfield (or count vector) of the wrong size, with bits set past
    /// its end, or a bit index past its end.
    #[error(transparent)]
    Bitfield(#[from] BitfieldError),
    /// An aggregate or collection with no signer: its key would be the identity.
    #[error("empty bitfield: no signer")]
    EmptyBitfield,
    /// A collector with nothing to merge.
    #[error("collector received no aggregate")]
    NothingCollected,
    /// A merged multiplicity above 15 (it no longer fits in 4 bits).
    #[error("multiplicity of validator {position} would exceed 15")]
    CountOverflow { position: usize },
    /// A multiplicity value above 15 in an input.
    #[error("multiplicity {count} of validator {position} above 15")]
    CountTooLarge { position: usize, count: u8 },
    /// A validator index past the registry, or in two committees.
    #[error("bad committee assignment: {0}")]
    Assignment(String),
    /// Malformed or oversized wire data.
    #[error("wire: {0}")]
    Wire(#[from] wire::WireError),
}
