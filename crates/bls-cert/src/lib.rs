//! # sigagg-bls-cert: succinct BLS threshold certificates

pub mod certificate;
pub mod codec;
pub mod committee;
pub mod domain;
pub mod error;
pub mod field;
pub mod msm;
pub mod piop;
pub mod setup;
pub mod transcript;

pub use certificate::{Certificate, Draft, Mode, Prover, Signed, Threshold, Verified, Witness, verify};
pub use committee::{Committee, CommitteeKey, MAX_COMMITTEE_SIZE, powers_for_committee};
pub use error::{CertError, Encoded, SetupError};
pub use setup::{CeremonyReport, Contribution, Setup, SetupKey};
