//! The tables for the leanSig family of parameter sets
//! ([`sigagg_xmss::LeanSigProd`], the small [`sigagg_xmss::Test`]):
//! Poseidon1, 8-element digests, chains of length 8, the capacity-first
//! replacement sponge and the aborting hypercube message hash
//! ([`layout::LeanFamily`]).
//!
//! Status (issue 41 item 1, in progress): the geometry ([`layout`]), the
//! bus messages ([`bus`]) and the slot values ([`slot`]) are fixed; the
//! tables are being built against them.

pub mod aggregate;
pub mod air;
pub mod bus;
pub mod layout;
pub mod slot;
pub mod system;

#[cfg(test)]
#[allow(dead_code)] // used by the tables' tests as they land
pub(crate) mod testing;
