//! Lamport+ one-time signatures over KoalaBear with Poseidon2 (seed 004,
//! section 3), with optional message mining (section 3.1) and Merkle group
//! keys for threshold certificates.
//!
//! Lamport+ is Winternitz with `w = 2` plus a zero-count checksum: a message
//! maps to an `n`-bit codeword; the signature reveals secret sub-key `i`
//! where bit `i` is 1 and the sub-public-key `G(sub-key i)` where it is 0.
//! The verifier hashes the revealed sub-keys and absorbs all `n`
//! sub-public-keys into a sponge whose output must equal the public key.
//! Its verification is a fixed, short sequence of permutations, which makes
//! it cheap to prove in a STARK: the exact permutation inputs are public
//! ([`hash`], [`signature::verification_inputs`], [`group::node_input`]).
//!
//! Two [parameter sets](params): [`LamportPlus`] (n = 256) and
//! [`LamportPlusMined`] (n = 224, 16 mined zero bits), both at 124 bits of
//! classical security.
//!
//! ```
//! use sigagg_lamport::{LamportPlus, SignError, keygen_from_seed, verify};
//!
//! let (pk, mut sk) = keygen_from_seed::<LamportPlus>([7; 32]);
//! let sig = sk.sign(b"block 42").unwrap();
//! assert!(verify(&pk, b"block 42", &sig).is_ok());
//! assert!(verify(&pk, b"block 43", &sig).is_err());
//! // One-time: a second, different message is refused.
//! assert_eq!(sk.sign(b"block 43"), Err(SignError::KeyAlreadyUsed));
//! let bytes = sig.to_bytes();
//! assert_eq!(sigagg_lamport::Signature::<LamportPlus>::from_bytes(&bytes).unwrap(), sig);
//! ```

#![forbid(unsafe_code)]

pub mod batch;
pub mod codeword;
pub mod encoding;
pub mod error;
pub mod field;
pub mod group;
pub mod hash;
pub mod keys;
pub mod params;
pub mod prf;
mod shake;
pub mod signature;

pub use batch::{KeyPair, keygen_from_seeds, keygen_many, sign_all, sign_many, verify_many};
pub use codeword::{Codeword, Representative, codeword, mine, representative};
pub use error::{BatchError, DecodeError, GroupError, SignError, VerifyError};
pub use field::{DIGEST_LEN, Digest, F};
pub use group::{GroupKey, GroupTree, MembershipProof, verify_membership};
pub use keys::{PublicKey, SecretKey, keygen, keygen_from_seed, sign};
pub use params::{LamportPlus, LamportPlusMined, ParameterSet};
pub use prf::{Randomizer, SEED_LEN, Seed};
pub use signature::{Signature, VerificationInputs, recover_public_key, verification_inputs, verify};
