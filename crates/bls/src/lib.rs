//! # sigagg-bls: BLS aggregation at consensus scale
//!
//! BLS12-381 signatures on [`blst`], in the Ethereum ciphersuite with proofs
//! of possession (`BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_`: public keys
//! in G1, signatures in G2), and two aggregation schemes built on them:
//!
//! * [`atms`]: ad-hoc threshold multisignatures (seed 000, section 1) with a
//!   Merkle commitment to the key list.
//! * [`msp`]: Mithril's weighted multisignature MSP.B (seed 002), byte
//!   compatible with `mithril-stm`, aggregated with multi-scalar
//!   multiplication.
//!
//! Horn, the two-layer aggregation for 2^20 validators (seed 003), builds on
//! this crate in `sigagg-horn`: it uses the signer [`bitfield::Bitfield`]s
//! (shared with the certificates of `sigagg-bls-cert`) and the raw point
//! operations of [`curve`].
//!
//! ## Validation policy
//! Every point decoded from bytes is checked to be on the curve and in the
//! prime-order subgroup ([`PublicKey::from_bytes`], [`Signature::from_bytes`]);
//! public keys additionally must not be the identity. Keys used in
//! aggregates must have proven possession once ([`KeyRegistry`]); the bulk
//! addition and MSM routines then trust them without re-checking.
//!
//! ## Threads
//! All curve work runs on the calling thread; the functions that process
//! many independent items use rayon, so `RAYON_NUM_THREADS=1` gives a true
//! one-core run.

pub mod atms;
pub mod bitfield;
pub mod curve;
mod error;
mod keys;
mod merkle;
pub mod msp;
mod pop;
mod registry;
mod sig;

pub use error::{BlsError, Object};
pub use keys::{PUBLIC_KEY_BYTES, PublicKey, SECRET_KEY_BYTES, SecretKey};
pub use merkle::{MerkleProof, MerkleTree};
pub use pop::ProofOfPossession;
pub use registry::KeyRegistry;
pub use sig::{
    BATCH_WEIGHT_BITS, DST_POP, DST_SIG, SIGNATURE_BYTES, Signature, SignatureSet, aggregate, aggregate_public_keys,
    aggregate_verify, batch_verify, batch_verify_with_rng, fast_aggregate_verify, hash_to_g2_coordinates,
};

/// First and last bytes of an encoding, for `Debug` output.
pub(crate) fn hex_short(bytes: &[u8]) -> String {
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    if bytes.len() <= 8 { hex(bytes) } else { format!("{}..{}", hex(&bytes[..4]), hex(&bytes[bytes.len() - 4..])) }
}
