//! The crate's integration tests, one binary (each test binary would
//! compile the prover's generic code again in release builds).

mod bus;
mod circuit_proofs;
mod constraints;
mod merkle_openings;
mod stark;
mod sumcheck;
mod transcript;
mod zerocheck;
