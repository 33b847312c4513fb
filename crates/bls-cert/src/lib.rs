//! # sigagg-bls-cert: succinct BLS threshold certificates
//!
//! One small proof that at least `t` members of a committed BLS12-381
//! validator set signed a message (seed 000 §2, "SNARK-based ATMS",
//! without its expensive parts: no Merkle paths and no pairing inside the
//! proof). A light client, a bridge or a contract holding the committee's
//! key checks a certificate in milliseconds, whatever the committee's size.
//!
//! * A [`Committee`] commits the member keys (proofs of possession checked,
//!   through [`sigagg_bls::KeyRegistry`]) and optional stake weights as KZG
//!   commitments on BW6-767, whose scalar field is BLS12-381's base field:
//!   key coordinates are native field elements. Its [`CommitteeKey`] (about
//!   600 bytes) is all a verifier needs.
//! * A [`Certificate`] carries the aggregate signature `σ`, the aggregate
//!   key `apk`, the signer count (and stake), and a proof that
//!   `apk = Σ b_i pk_i`, `count = Σ b_i`, `stake = Σ b_i w_i` for a boolean
//!   `b` over the committed keys ([`piop`]). [`verify`] checks the
//!   threshold, the proof, then `e(apk, H(m)) = e(g1, σ)` with `blst`.
//! * [`Mode::Accountable`] publishes the bitfield (the verifier learns who
//!   signed); [`Mode::Counting`] keeps it inside the proof, so size and
//!   verification cost do not depend on the committee.
//! * The KZG [`Setup`] comes from a multi-party ceremony
//!   ([`Setup::contribute`], [`Setup::verify_ceremony`]); the deterministic
//!   [`Setup::insecure_development`] is for tests and demos and is marked
//!   as such in every file and key made from it; [`verify`] refuses its
//!   keys unless the caller opts in ([`verify_allowing_insecure_setup`]).
//!   A committee is built only on the development setup or on a ceremony
//!   that verifies ([`Setup::check_for_committees`]), and only from keys
//!   whose proofs of possession were checked; its key records the setup
//!   file's digest ([`CommitteeKey::setup_digest`]).
//!
//! Security: [`security`]. Performance: BENCHMARKS.md at the repository's
//! root (`sigagg bench cert`).
//!
//! ```
//! use sigagg_bls::{KeyRegistry, SecretKey};
//! use sigagg_bls_cert::{Committee, Mode, Prover, Setup, Signed, Threshold, powers_for_committee, verify};
//!
//! let sks: Vec<SecretKey> = (1..=4u8).map(|i| SecretKey::from_key_material(&[i; 32]).unwrap()).collect();
//! let entries: Vec<_> = sks.iter().map(|sk| (sk.public_key(), sk.prove_possession())).collect();
//! let registry = KeyRegistry::from_keys_with_proofs(&entries).unwrap();
//!
//! // A one-party ceremony (real committees run one with many participants).
//! let mut setup = Setup::ceremony_start(powers_for_committee(4).unwrap()).unwrap();
//! setup.contribute(b"64 bytes from the operating system's generator, in real use").unwrap();
//! setup.verify_ceremony().unwrap();
//!
//! let committee = Committee::new(&setup, registry, None).unwrap();
//! let message = b"block 0x0badc0de";
//! let signed: Vec<_> = sks[..3].iter().map(|sk| (sk.public_key(), sk.sign(message))).collect();
//! let cert = Prover::new(&setup, &committee).unwrap()
//!     .certify(message, Signed::Signatures(&signed), Mode::Counting)
//!     .unwrap();
//!
//! // The verifier holds only the committee key.
//! let verified = verify(committee.key(), &cert, message, &Threshold::signers(3)).unwrap();
//! assert_eq!(verified.count, 3);
//! assert!(verify(committee.key(), &cert, message, &Threshold::signers(4)).is_err());
//! ```

#![forbid(unsafe_code)]

pub mod certificate;
pub mod codec;
pub mod committee;
pub mod domain;
pub mod error;
pub mod field;
pub mod msm;
pub mod piop;
pub mod security;
pub mod setup;
pub mod transcript;

pub use certificate::{
    Certificate, Draft, Mode, Prover, Signed, Threshold, Verified, Witness, verify, verify_allowing_insecure_setup,
};
pub use committee::{Committee, CommitteeKey, MAX_COMMITTEE_SIZE, powers_for_committee};
pub use error::{CertError, Encoded, SetupError};
pub use setup::{CeremonyReport, Contribution, Setup, SetupKey};
