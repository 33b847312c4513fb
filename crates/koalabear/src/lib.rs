//! The KoalaBear primitives every sigagg scheme and aggregator shares.
//!
//! * [`field`]: the field, its SIMD packing, the canonical byte encoding of
//!   its elements and the base-`p` integer encodings;
//! * [`poseidon2`]: Poseidon2 of widths 16 and 24, both with Plonky3's
//!   default constants (Lamport+) and with hash-sig's order of the same
//!   constants (XMSS Seed001), as permutations and as the round constants
//!   the AIRs take;
//! * [`poseidon1`]: Plonky3's default Poseidon1 of widths 16 and 24
//!   (leanSig's parameter sets);
//! * [`mode`]: the compression and sponge modes built on a permutation.
//!
//! Why one crate: a signature scheme and the STARK that aggregates its
//! signatures must hash with exactly the same permutation, and the byte
//! encodings of their keys, signatures and statements must agree. Holding
//! the field, the permutations and their round constants once means the
//! native verifier, the witness generator and the circuit cannot drift
//! apart. The permutations come from Plonky3 (`p3-koala-bear`), never
//! hand-written; scheme-specific inputs (tweaks, tags, domain separators,
//! digest lengths) stay in the scheme crates.

#![forbid(unsafe_code)]

pub mod field;
pub mod mode;
pub mod poseidon1;
pub mod poseidon2;

pub use field::{F, FE_BYTES, P, PackedF};
