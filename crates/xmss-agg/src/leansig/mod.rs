//! The tables for the leanSig family of parameter sets
//! ([`sigagg_xmss::LeanSigProd`], the small [`sigagg_xmss::Test`]):
//! Poseidon1, 8-element digests, chains of length 8, the capacity-first
//! replacement sponge and the aborting hypercube message hash
//! ([`layout::LeanFamily`]).
//!
//! Aggregate proofs ([`aggregate::prove`], [`aggregate::verify`]) come
//! from five tables ([`air`]) with the roles of Seed001's: the statement,
//! the hypercube digits, the chain steps, the width-24 hashes and the
//! range table. [`layout`] sizes their blocks per set, [`bus`] defines
//! every message between them (and the 32-bit chain-tweak argument),
//! [`slot`] computes each slot's values with `sigagg_xmss`'s native
//! functions. Threshold proofs ([`threshold::prove`],
//! [`threshold::verify`]) add Seed001's membership table over a group of
//! the set's keys ([`sigagg_xmss::group::GroupTree`]).

pub mod aggregate;
pub mod air;
pub mod bus;
pub mod layout;
pub mod leanspec;
pub mod slot;
pub mod system;
pub mod threshold;

#[cfg(test)]
#[allow(dead_code)] // used by the tables' tests as they land
pub(crate) mod testing;
