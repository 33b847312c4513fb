//! Typed errors of the STM: one variant per reason mithril-stm refuses an
//! input, so that callers and tests can tell a lost lottery from a bad
//! Merkle path or a malformed encoding.

use sigagg_bls::BlsError;
use thiserror::Error;

/// Which object a byte string or JSON text was supposed to encode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// [`crate::Parameters`].
    Parameters,
    /// A signing key (32 bytes).
    SigningKey,
    /// A verification key `mvk` (96-byte compressed G2 point).
    VerificationKey,
    /// A proof of possession (`k1 ‖ k2`, two compressed G1 points).
    ProofOfPossession,
    /// A verification key with its proof of possession.
    VerificationKeyPop,
    /// A BLS signature σ (48-byte compressed G1 point).
    Signature,
    /// A [`crate::SingleSignature`].
    SingleSignature,
    /// A [`crate::RegistrationEntry`].
    RegistrationEntry,
    /// A [`crate::SignedEntry`].
    SignedEntry,
    /// A [`crate::BatchPath`].
    BatchPath,
    /// An [`crate::AggregateVerificationKey`].
    AggregateVerificationKey,
    /// A [`crate::ConcatenationProof`].
    ConcatenationProof,
    /// An [`crate::AggregateSignature`].
    AggregateSignature,
}

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

/// Why bytes (or JSON) are not an acceptable encoding.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// The leading version byte is not `0x01` (CBOR v1), or there is none.
    /// mithril-stm would try its legacy big-endian layout here; sigagg reads
    /// only the CBOR that mithril-stm 0.13 writes.
    #[error("unsupported version byte {0:?} (expected 0x01)")]
    Version(Option<u8>),
    /// The CBOR does not parse into the expected shape.
    #[error("CBOR: {0}")]
    Cbor(String),
    /// The CBOR parses but is not the exact bytes the encoder writes
    /// (another integer width, a tag, a definite map where an indefinite one
    /// belongs, trailing bytes, ...): every object has exactly one encoding.
    #[error("not the canonical encoding")]
    NotCanonical,
    /// The JSON does not parse into the expected shape.
    #[error("JSON: {0}")]
    Json(String),
    /// A field has an impossible value (a point off the curve, a key that is
    /// the identity, a number that does not fit).
    #[error("invalid value: {0}")]
    Value(String),
}

/// Errors of registration, signing, aggregation and verification.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MithrilError {
    /// An encoding could not be read.
    #[error("{what}: {reason}")]
    Decode {
        /// What the bytes should have encoded.
        what: Item,
        /// Why they do not.
        reason: DecodeError,
    },
    /// Key material, a key or a point was refused by the BLS layer.
    #[error("{what}: {source}")]
    Bls {
        /// Which object.
        what: Item,
        /// The BLS layer's reason.
        source: BlsError,
    },
    /// `phi_f` is not in `(0, 1]` (mithril-stm's `PhiFValueOutOfRange`).
    #[error("phi_f = {0} is not in (0, 1]")]
    PhiFOutOfRange(f64),
    /// The registered stakes sum to zero (`ZeroTotalStake`).
    #[error("the total stake is zero")]
    ZeroTotalStake,
    /// The registered stakes overflow a `u64` (`TotalStakeOverflow`).
    #[error("the total stake overflows a u64")]
    TotalStakeOverflow,
    /// A proof of possession that does not verify for its key
    /// (`ConcatenationKeyInvalid`): a possible rogue key.
    #[error("the proof of possession does not verify")]
    InvalidProofOfPossession,
    /// A stake above the total stake: no registration has one (mithril-stm
    /// would run its lottery series on it, slowly, and refuse it later).
    #[error("stake {stake} is above the total stake {total_stake}")]
    StakeAboveTotal {
        /// The stake.
        stake: u64,
        /// The total stake.
        total_stake: u64,
    },
    /// The key is already registered (`EntryAlreadyRegistered`).
    #[error("the verification key is already registered")]
    AlreadyRegistered,
    /// The key and stake are not in the closed registration (`UnregisteredInitializer`).
    #[error("the key and stake are not registered")]
    NotRegistered,
    /// A signer index beyond the registration (`UnregisteredIndex`).
    #[error("signer index {0} is not registered")]
    UnregisteredIndex(u64),
    /// The signer won no lottery index (`LotteryLost` when signing).
    #[error("the signer won no lottery index")]
    NoIndexWon,
    /// A claimed index was not won by this signer (`LotteryLost`).
    #[error("lottery index {0} was not won")]
    LotteryLost(u64),
    /// A claimed index at or above `m` (mithril-stm's `IndexBoundFailed`
    /// refuses only indices above `m`; see the crate docs).
    #[error("lottery index {index} is not below m = {m}")]
    IndexOutOfBound {
        /// The index.
        index: u64,
        /// The parameter `m`.
        m: u64,
    },
    /// A single signature claims no index at all.
    #[error("a signature claims no lottery index")]
    NoIndex,
    /// The same lottery index twice (`IndexNotUnique`).
    #[error("a lottery index is claimed twice")]
    IndexNotUnique,
    /// Fewer than `k` indices (`NotEnoughSignatures`).
    #[error("{got} lottery indices, {k} needed")]
    NotEnoughSignatures {
        /// Indices available.
        got: u64,
        /// The parameter `k`.
        k: u64,
    },
    /// σ does not verify on `msg ‖ root` under the key (`SignatureInvalid`).
    #[error("the signature does not verify")]
    SignatureInvalid,
    /// The batch Merkle path does not lead to the committed root (`BatchPathInvalid`).
    #[error("the batch Merkle path is invalid")]
    BatchPathInvalid,
    /// A signature's `signer_index` is not the leaf its entry is proven at
    /// (mithril-stm does not look at `signer_index` in a certificate).
    #[error("a signer index does not match its Merkle leaf")]
    SignerIndexMismatch,
    /// The MSP.B aggregate of the certificate does not verify
    /// (`AggregateSignatureInvalid` / `SignatureInvalid(mu)`).
    #[error("the aggregate signature does not verify")]
    AggregateInvalid,
    /// A certificate with no signature.
    #[error("the certificate holds no signature")]
    EmptyCertificate,
    /// Poseidon parameters the generator cannot use (a value too wide for
    /// the Grain seed, an odd `R_F`, `t < 2`, `α < 3`), or a state of the wrong width.
    #[error("Poseidon: {0}")]
    PoseidonParameters(&'static str),
    /// `phi_f` for which the 64-bit quantised lottery is not defined: it
    /// must satisfy `0 < phi_f` and `−ln(1 − phi_f) < 2` (so `phi_f < 0.8646`),
    /// the range where the exact series decides `φ` against every 64-bit
    /// threshold; `phi_f = 1` (always win) has no 64-bit target.
    #[error("phi_f = {0} cannot be quantised (need 0 < phi_f and -ln(1 - phi_f) < 2)")]
    PhiFUnquantisable(f64),
}

impl MithrilError {
    /// A decoding error for `what`.
    pub(crate) fn decode(what: Item, reason: DecodeError) -> MithrilError {
        MithrilError::Decode { what, reason }
    }

    /// A decoding error for `what` with an invalid value.
    pub(crate) fn value(what: Item, why: impl std::fmt::Display) -> MithrilError {
        MithrilError::Decode { what, reason: DecodeError::Value(why.to_string()) }
    }
}
