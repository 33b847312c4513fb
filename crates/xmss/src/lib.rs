//! Generalized XMSS signatures over the KoalaBear field.
//!
//! A stateful hash-based signature scheme: each key signs at most once per
//! *epoch*. A signature reveals, for every Winternitz hash chain, the value at
//! the position given by a target-sum codeword of the message, plus the
//! Merkle path from the epoch's leaf (the hash of all chain ends) to the
//! public root. Three [parameter sets](params) ship, two of them
//! byte-compatible with the reference implementations (hash-sig and
//! leanSig), which the tests check against their known-answer vectors.
//! [`group`] commits a validator set of Seed001 keys to a Merkle root, the
//! group key of threshold proofs.
//!
//! ```
//! use sigagg_xmss::{Test, keygen, verify};
//!
//! let mut rng = rand::rng();
//! let (pk, mut sk) = keygen::<Test, _>(&mut rng, 0, 64).unwrap();
//! let message = [42u8; 32];
//! let sig = sk.sign(3, &message).unwrap();
//! assert!(verify(&pk, 3, &message, &sig).is_ok());
//! assert!(sk.sign(3, &message).is_err()); // an epoch is never signed twice
//! let bytes = sig.to_bytes();
//! assert_eq!(sigagg_xmss::Signature::<Test>::from_bytes(&bytes).unwrap(), sig);
//! ```

#![forbid(unsafe_code)]

pub mod aggregated;
pub mod error;
pub mod group;
pub mod hash;
pub mod keys;
pub mod params;
pub mod prf;
pub mod signature;
pub mod ssz;
mod tree;
pub mod tweak;

/// The field, its element arrays and encodings, shared with every other
/// scheme and aggregator (`sigagg-koalabear`); re-exported because keys,
/// signatures and the bindings name their elements `sigagg_xmss::field::F`.
pub use sigagg_koalabear::field;

pub use aggregated::{AggregatedSignatureProof, ContainerError, Participants};
pub use error::{DecodeError, EncodingError, KeygenError, SignError, VerifyError};
pub use hash::MESSAGE_LEN;
pub use keys::{PublicKey, SecretKey, keygen};
pub use params::{LeanSigProd, ParameterSet, Seed001, Test};
pub use signature::{Signature, single_epoch_key_and_signature, verify};
