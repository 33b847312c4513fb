//! The AIR tables of the aggregation proof and the enum that lets one batch
//! proof hold all of them.
//!
//! | table | rows | proves |
//! |---|---|---|
//! | [`sig::SigAir`] | 1 per signature | nothing by itself: sends every statement-derived value (periodic columns) on the bus |
//! | [`digits::DigitAir`] | 16 per signature | the message hash's base-4 digits (big-integer decomposition), the target sum, chain starts |
//! | [`chain::ChainAir`] | 128 per signature, 64 with two signatures to a row ([`lanes`]) | the 117 Winternitz chain steps (width-16 Poseidon2) |
//! | [`hash24::HashAir`] | 64 per signature | message hash, 37-chunk leaf sponge, 20 tree levels (width-24 Poseidon2) |
//! | [`range::RangeAir`] | 2^16 | a 16-bit range table |
//! | [`group::GroupAir`] | `next_pow2(depth + 1)` per signer (threshold proofs only) | the signer's key is a leaf of the group tree at its index |
//!
//! The tables talk over the buses of [`crate::bus`]. Every constraint has
//! degree at most 3, so the quotient has two chunks at any blowup.

pub mod chain;
pub mod digits;
pub mod group;
pub mod hash24;
pub mod range;
pub mod sig;
pub mod signers;

use std::sync::OnceLock;

use p3_lookup::Lookups;
use sigagg_prover::{Table, fold_lookups};

use crate::config::Val;

pub use sigagg_prover::periodic_table;

use crate::config::{Backend, Settings};

/// Slots to a row of the chain table under `settings` ([`chain::ChainAir`]
/// places that many side by side): two for the FRI backend, whose per-row
/// work (quotient chunks, opening denominators, transposes of tall
/// matrices) halves with the rows for the same cells; one for the
/// multilinear backend, whose cost follows the cells. Measured in
/// BENCHMARKS.md, with the width-24 table in two lanes too (faster still,
/// but its wider rows cost the fast proof 0.26 MB and the verifier 17 ms).
pub fn lanes(settings: &Settings) -> usize {
    match settings.backend() {
        Backend::Fri => 2,
        Backend::Whir | Backend::Skip => 1,
    }
}

/// Padded aggregates of at least this many slots commit every round of the
/// width-24 table under WHIR ([`hash_stride`]).
pub const WHIR_HASH_ROUNDS_FROM: usize = 1024;

/// Every how many full rounds the width-24 table commits its Poseidon2
/// state ([`crate::paired`]): as the settings' stride, except in WHIR
/// aggregates of at least [`WHIR_HASH_ROUNDS_FROM`] padded slots
/// (`aggregate_slots`; `None` for a threshold proof), which commit every
/// round (degree 3). The multilinear zerocheck evaluates each table at one
/// node per degree a round, and the table's 96 extra columns cost less
/// than the six nodes they save: faster at N = 8192 for more memory
/// (BENCHMARKS.md). Smaller statements and thresholds keep the paired
/// layout, where the extra columns would double the stacked commitment
/// (larger and heavier threshold proofs, BENCHMARKS.md); a test checks the
/// aggregates that switch keep their commitment's size. The chain table always stays
/// paired under WHIR for the same reason.
pub fn hash_stride(settings: &Settings, aggregate_slots: Option<usize>) -> usize {
    match (settings.backend(), aggregate_slots) {
        (backend, Some(slots)) if backend.is_multilinear() && slots >= WHIR_HASH_ROUNDS_FROM => 1,
        _ => settings.stride(),
    }
}

/// The chain and width-24 tables' AIRs under `settings`, laid out by
/// [`lanes`] and [`hash_stride`] (`aggregate_slots`: the padded slots of an
/// aggregate, `None` for a threshold proof). The one place their layout is
/// chosen: the AIR lists and the trace generators both call it, so the
/// witness always has the columns the verifier expects.
pub fn poseidon_airs(settings: &Settings, aggregate_slots: Option<usize>) -> (chain::ChainAir, hash24::HashAir) {
    (
        chain::ChainAir::new(settings.stride(), lanes(settings)),
        hash24::HashAir::new(hash_stride(settings, aggregate_slots), settings.exclusive_buses()),
    )
}

sigagg_prover::air_enum! {
    /// One AIR of the batch.
    #[derive(Clone, Debug)]
    pub enum AggAir {
        /// Statement table.
        Sig(sig::SigAir),
        /// Digit table.
        Digits(digits::DigitAir),
        /// Chain-step table.
        Chain(chain::ChainAir),
        /// Width-24 hash table.
        Hash(hash24::HashAir),
        /// Range table.
        Range(range::RangeAir),
        /// Membership table (threshold proofs).
        Group(group::GroupAir),
    }
}

impl AggAir {
    /// The largest constraint degree: 3, or 9 for the Poseidon2 tables when
    /// they commit every second full round (`Settings::stride` 2,
    /// [`hash_stride`]).
    pub fn degree(&self) -> usize {
        match self {
            AggAir::Chain(a) => a.perm().degree(),
            AggAir::Hash(a) => a.perm().degree(),
            AggAir::Group(a) => a.perm().degree(),
            _ => 3,
        }
    }
}

impl Table for AggAir {
    const BUS_WIDTH: usize = crate::bus::WIDTH;

    fn degree(&self) -> usize {
        AggAir::degree(self)
    }

    /// The lookups do not depend on the statement's values, only on which
    /// tables the proof has (aggregation: five, threshold: six), the
    /// permutation stride and whether the hash table's bus groups are
    /// exclusive, so they are folded once per process and combination.
    fn lookups(airs: &[Self]) -> Vec<Lookups<Val>> {
        const fn empty() -> OnceLock<Vec<Lookups<Val>>> {
            OnceLock::new()
        }
        static CACHES: [OnceLock<Vec<Lookups<Val>>>; 8] =
            [empty(), empty(), empty(), empty(), empty(), empty(), empty(), empty()];
        let threshold = airs.iter().any(|a| matches!(a, AggAir::Group(_)));
        let paired = airs.iter().any(|a| a.degree() > 3);
        let exclusive = airs.iter().any(|a| matches!(a, AggAir::Hash(h) if h.exclusive()));
        let cache = &CACHES[usize::from(threshold) | usize::from(paired) << 1 | usize::from(exclusive) << 2];
        cache.get_or_init(|| fold_lookups(airs, AggAir::degree)).clone()
    }
}
