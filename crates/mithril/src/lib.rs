//! # sigagg-mithril: Mithril stake-based threshold signatures (STM)
//!
//! Mithril's concatenation system, natively and byte compatible with
//! `mithril-stm` 0.13.0 (the newest release on crates.io; its semantics
//! are unchanged since 0.9.5, only the encodings moved to CBOR):
//!
//! 1. parties make keys ([`SigningKey`]) and prove possession of them
//!    ([`ProofOfPossession`]: `k1` signs `"PoP"`, `k2 = sk·g1`);
//! 2. a [`KeyRegistration`] checks each proof, and once closed
//!    ([`ClosedRegistration`]) orders the parties by `(stake, key bytes)` and
//!    commits them in a Blake2b-256 Merkle tree of `mvk ‖ stake (u64 BE)`,
//!    whose root, leaf count and total stake form the
//!    [`AggregateVerificationKey`];
//! 3. a [`Signer`] signs `msgp = msg ‖ root` once (BLS min-sig, empty tag)
//!    and claims the indices `j < m` its σ wins in the [`lottery`];
//! 4. a [`Clerk`] settles indices claimed twice (the smallest σ keeps
//!    them), takes signers until `k` distinct indices are covered and
//!    builds the [`ConcatenationProof`]: the signatures with their entries
//!    and one [`BatchPath`];
//! 5. [`ConcatenationProof::verify`] checks, in mithril-stm's order, the
//!    indices, their uniqueness and number, the batch path, then one MSP.B
//!    aggregate ([`sigagg_bls::msp`]) of all σ's.
//!
//! ## What is byte compatible
//! * Keys (96 bytes), σ (48), proofs of possession (`k1 ‖ k2`, 96) and
//!   `mvk ‖ pop` (192): mithril-stm's canonical bytes.
//! * `to_bytes` of [`Parameters`], [`SingleSignature`], [`RegistrationEntry`],
//!   [`SignedEntry`], [`BatchPath`], [`AggregateVerificationKey`],
//!   [`ConcatenationProof`] and [`AggregateSignature`]: mithril-stm 0.13's
//!   `0x01 ‖ CBOR`, byte for byte (written with `ciborium` from the same serde
//!   shapes; see [`codec`] for the rules).
//! * `to_json` of the same objects where mithril-stm has a serde shape
//!   (the certificate, single signature, key with PoP, AVK, parameters):
//!   what mithril-common sends, hex-encoded, on the network.
//! * Certificates made by mithril-stm verify here and ours verify there;
//!   the same keys, registration, message and signatures give the same
//!   certificate bytes (the tests check all of this against mithril-stm 0.13.0).
//!
//! ## The lottery's boundary rule
//! A party with stake share `w` wins index `j` iff
//! `ev / 2^512 < 1 − (1 − phi_f)^w`, decided exactly as mithril-stm's
//! default backend decides it: `ln(1 − phi_f)` is the f64 value, everything
//! else exact rationals, a Taylor series with mithril-stm's error bound and
//! its 1000-term limit. The comparison is strict; equality cannot occur
//! for a nonzero stake. `phi_f` within `f64::EPSILON` of 1 wins every index.
//! Details in [`lottery`].
//!
//! ## The succinct certificate's lottery
//! [`snark_lottery`] defines the lottery of the (future) succinct
//! certificate: `ev = Poseidon(TAG·2^64 + j, prefix(msgp), x(σ))` over
//! BLS12-381's base field with the instance pinned in [`poseidon`]
//! (t = 3, x^5, R_F = 8, R_P = 56, Grain constants), won when
//! `floor(ev·2^64/q)` is below the signer's 64-bit target
//! `floor(φ(w)·2^64)`, which moves each index's win probability by less
//! than `2^-64`. It is not mithril-stm's lottery and does not replace
//! [`lottery`] in the native STM.
//!
//! ## Where sigagg is stricter than mithril-stm
//! Each of these refuses only inputs an honest mithril-stm never produces:
//! * decoding reads only the CBOR form 0.13 writes, and only its exact bytes
//!   (no legacy big-endian layouts, no 0.12 array-form `proof_bytes`, no
//!   trailing bytes); points must be in the subgroup when read, including
//!   the proof of possession's `k1` and `k2`;
//! * a stake above the total stake is refused before the lottery series
//!   (mithril-stm spends about a minute on it, see [`lottery`]);
//! * a claimed index must be below `m` (mithril-stm accepts `index = m`),
//!   and a single signature must claim at least one index, none twice;
//! * a batch path must have strictly increasing indices below the leaf
//!   count and no unused values, and each signature's `signer_index` must
//!   be the leaf index its entry is proven at;
//! * the clerk drops a second copy of the same signature from the same
//!   party instead of letting it strip the first copy of all its indices.

#![forbid(unsafe_code)]

mod clerk;
pub mod codec;
mod error;
mod keys;
pub mod lottery;
mod merkle;
mod params;
pub mod poseidon;
mod proof;
mod registration;
mod signature;
pub mod snark_lottery;

pub use clerk::Clerk;
pub use error::{DecodeError, Item, MithrilError};
pub use keys::{
    POP_BYTES, POP_MESSAGE, ProofOfPossession, SIGNATURE_BYTES, SIGNING_KEY_BYTES, Signature, SigningKey,
    VERIFICATION_KEY_BYTES, VerificationKey, VerificationKeyPop,
};
pub use merkle::{BatchPath, Hash, MerkleTree, leaf_hash};
pub use params::Parameters;
pub use proof::{AggregateSignature, ConcatenationProof};
pub use registration::{AggregateVerificationKey, ClosedRegistration, KeyRegistration, RegistrationEntry};
pub use signature::{SignedEntry, Signer, SingleSignature};
