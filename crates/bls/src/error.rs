//! Errors of the signature layer, shared by every scheme of the crate.
//!
//! Each way an input can be wrong has its own variant so that callers (and
//! tests) can tell a malformed encoding from a point outside the subgroup or
//! from a signature that simply does not verify.

use thiserror::Error;

use crate::curve::PointError;

/// What kind of object a byte string was supposed to encode; used in error
/// messages so that "bad point" says which point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Object {
    /// A BLS public key (G1, 48 bytes compressed) in the Ethereum suite.
    PublicKey,
    /// A BLS signature (G2, 96 bytes compressed) in the Ethereum suite.
    Signature,
    /// A proof of possession (G2, 96 bytes compressed).
    ProofOfPossession,
    /// An MSP.B verification key (G2, 96 bytes compressed).
    MspVerificationKey,
    /// An MSP.B signature (G1, 48 bytes compressed).
    MspSignature,
    /// An MSP.B proof of possession (G1, 48 bytes compressed).
    MspProofOfPossession,
    /// A secret key (32 bytes big-endian scalar).
    SecretKey,
}

impl std::fmt::Display for Object {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Object::PublicKey => "public key",
            Object::Signature => "signature",
            Object::ProofOfPossession => "proof of possession",
            Object::MspVerificationKey => "MSP verification key",
            Object::MspSignature => "MSP signature",
            Object::MspProofOfPossession => "MSP proof of possession",
            Object::SecretKey => "secret key",
        })
    }
}

/// Errors of BLS key, signature and aggregation operations.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BlsError {
    /// The byte string has the wrong length for this object.
    #[error("{what}: expected {expected} bytes, got {got}")]
    WrongLength { what: Object, expected: usize, got: usize },
    /// Flag bits are wrong or a coordinate is not below the field modulus.
    #[error("{what}: malformed point encoding")]
    BadEncoding { what: Object },
    /// The encoded coordinates are not a point of the curve.
    #[error("{what}: point is not on the curve")]
    NotOnCurve { what: Object },
    /// The point is on the curve but not in the prime-order subgroup.
    #[error("{what}: point is not in the prime-order subgroup")]
    NotInSubgroup { what: Object },
    /// The identity point where it is not allowed (public keys, aggregate keys).
    #[error("{what}: the identity point is not allowed")]
    Identity { what: Object },
    /// A secret key that is zero or not below the group order.
    #[error("secret key is zero or not below the group order")]
    InvalidSecretKey,
    /// Input key material shorter than the 32 bytes KeyGen requires.
    #[error("key material must be at least 32 bytes, got {0}")]
    ShortKeyMaterial(usize),
    /// A signature (or aggregate, or batch) that does not verify.
    #[error("signature does not verify")]
    VerificationFailed,
    /// A proof of possession that does not verify: a possible rogue key.
    #[error("proof of possession does not verify for key #{index}")]
    InvalidProofOfPossession { index: usize },
    /// Nothing to aggregate or verify.
    #[error("empty input: {0}")]
    Empty(&'static str),
    /// Parallel inputs of different lengths.
    #[error("length mismatch: {left} {left_what} but {right} {right_what}")]
    LengthMismatch { left_what: &'static str, left: usize, right_what: &'static str, right: usize },
    /// The same public key registered twice.
    #[error("duplicate public key at positions {first} and {second}")]
    DuplicateKey { first: usize, second: usize },
    /// An index beyond the key list.
    #[error("index {index} out of range (only {len} keys)")]
    IndexOutOfRange { index: usize, len: usize },
    /// The aggregate of the selected public keys is the identity, which would
    /// accept the identity signature on any message.
    #[error("aggregate public key is the identity")]
    IdentityAggregateKey,
}

impl BlsError {
    /// Maps a low-level point decoding failure to the error for `what`.
    pub(crate) fn from_point(what: Object, e: PointError) -> BlsError {
        match e {
            PointError::Length { expected, got } => BlsError::WrongLength { what, expected, got },
            PointError::Encoding => BlsError::BadEncoding { what },
            PointError::NotOnCurve => BlsError::NotOnCurve { what },
            PointError::NotInSubgroup => BlsError::NotInSubgroup { what },
        }
    }
}
