//! Typed errors. Every failure on untrusted input is one of these, never a panic.

use thiserror::Error;

/// Why signing refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SignError {
    /// The key already signed a message with another representative.
    /// Signing it would reveal sub-keys for a second codeword, after which
    /// anyone could forge: a Lamport+ key signs once.
    #[error("this one-time key already signed a different message")]
    KeyAlreadyUsed,
    /// A counter handed to [`crate::SecretKey::sign_with_counter`] is out
    /// of range or does not meet the mining condition for this message.
    #[error("mining counter {counter} is not admissible for this message")]
    InvalidCounter { counter: u32 },
    /// No counter up to the set's maximum met the mining condition
    /// (probability about e^-64 per message).
    #[error("no admissible mining counter up to {max_counter}")]
    MiningExhausted { max_counter: u32 },
}

/// Why a signature was rejected.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum VerifyError {
    /// The counter exceeds the set's maximum (0 for sets without mining).
    #[error("mining counter {counter} exceeds the maximum {max}")]
    CounterOutOfRange { counter: u32, max: u32 },
    /// The representative under this counter lacks the required zero bits.
    #[error("mining condition not met: {found} leading zero bits, {required} required")]
    InsufficientWork { required: usize, found: usize },
    /// The public key recomputed from the signature differs from the given one.
    #[error("public key mismatch")]
    PublicKeyMismatch,
}

/// Why bytes could not be decoded.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DecodeError {
    /// The input has the wrong length.
    #[error("{what}: expected {expected} bytes, got {actual}")]
    InvalidLength { what: &'static str, expected: usize, actual: usize },
    /// A field element is not in canonical form (its value is not below p).
    #[error("{what}: non-canonical field element at byte {offset}")]
    NonCanonicalFieldElement { what: &'static str, offset: usize },
    /// A signature's mining counter exceeds the set's maximum.
    #[error("mining counter {counter} exceeds the maximum {max}")]
    CounterOutOfRange { counter: u32, max: u32 },
    /// A file header is not what this crate writes.
    #[error("not a sigagg {what} (bad magic or version)")]
    BadHeader { what: &'static str },
    /// The bytes belong to another parameter set.
    #[error("parameter set mismatch: expected id {expected}, found {actual}")]
    WrongParameterSet { expected: u8, actual: u8 },
    /// The bytes are well-formed but describe an impossible value.
    #[error("inconsistent {0}")]
    Inconsistent(&'static str),
}

/// Why a group (a Merkle-committed set of public keys) could not be built
/// or a membership proof was rejected.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GroupError {
    /// A group needs at least one member.
    #[error("a group needs at least one public key")]
    EmptySet,
    /// Groups are limited to 2^31 members (indices are field elements).
    #[error("a group holds at most {max} keys, got {actual}")]
    TooLarge { max: usize, actual: usize },
    /// The same public key appears twice: one signer could be counted twice.
    #[error("public key at index {second} duplicates the one at index {first}")]
    DuplicateKey { first: usize, second: usize },
    /// A member equals the all-zero digest that pads the tree.
    #[error("public key at index {index} is the reserved padding value")]
    PaddingKey { index: usize },
    /// The index is not a member position.
    #[error("index {index} is outside the group of {size} keys")]
    IndexOutOfRange { index: u64, size: u64 },
    /// The path has the wrong number of siblings for the group's depth.
    #[error("membership path has {actual} siblings, the group needs {expected}")]
    PathLength { expected: usize, actual: usize },
    /// The path does not lead from the key to the group root.
    #[error("the key is not the group member at index {index}")]
    NotAMember { index: u64 },
}

/// Why a batch operation ([`crate::batch`]) failed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum BatchError {
    /// The argument slices have different lengths.
    #[error("batch length mismatch: {left} versus {right}")]
    LengthMismatch { left: usize, right: usize },
    /// Signing failed for the item at `index` (the smallest failing index).
    #[error("item {index}: {error}")]
    Sign { index: usize, error: SignError },
    /// Verification failed for the item at `index` (the smallest failing index).
    #[error("item {index}: {error}")]
    Verify { index: usize, error: VerifyError },
    /// Two seeds are equal: they would give two copies of one one-time key.
    #[error("seeds {first} and {second} are equal (one one-time key twice)")]
    DuplicateSeed { first: usize, second: usize },
}
