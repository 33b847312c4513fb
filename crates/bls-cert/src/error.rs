//! Typed errors: every way an input can be wrong has its own variant, so a
//! caller (and a test) can tell a malformed encoding from a threshold that
//! is not met, from a proof that does not verify.

use sigagg_bls::BlsError;
use thiserror::Error;

/// Which encoded object a decoding error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoded {
    /// A KZG setup (powers of tau) file.
    Setup,
    /// A committee key (the verifier's part).
    CommitteeKey,
    /// A committee (the prover's part: the key and the member keys).
    Committee,
    /// A certificate.
    Certificate,
}

impl std::fmt::Display for Encoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Encoded::Setup => "setup",
            Encoded::CommitteeKey => "committee key",
            Encoded::Committee => "committee",
            Encoded::Certificate => "certificate",
        })
    }
}

/// Errors of committees, certificates and their encodings.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CertError {
    /// The bytes do not start with the object's magic.
    #[error("{what}: not a sigagg {what} (wrong magic bytes)")]
    BadMagic { what: Encoded },
    /// A version this build does not read.
    #[error("{what}: unsupported encoding version {version}")]
    UnsupportedVersion { what: Encoded, version: u8 },
    /// The encoding is shorter or longer than its header says.
    #[error("{what}: expected {expected} bytes, got {got}")]
    WrongLength { what: Encoded, expected: usize, got: usize },
    /// A header field has a value no encoder writes.
    #[error("{what}: malformed {field}")]
    Malformed { what: Encoded, field: &'static str },
    /// A curve point that is not canonical, not on the curve or not in the
    /// prime-order subgroup.
    #[error("{what}: invalid {field} point")]
    BadPoint { what: Encoded, field: &'static str },
    /// A field element that is not a canonical encoding (not below `q`).
    #[error("{what}: invalid {field} field element")]
    BadFieldElement { what: Encoded, field: &'static str },
    /// A BLS key or signature failed to decode or validate.
    #[error(transparent)]
    Bls(#[from] BlsError),
    /// Errors of the setup and its ceremony.
    #[error(transparent)]
    Setup(#[from] SetupError),

    /// A committee needs at least one key.
    #[error("a committee needs at least one key")]
    EmptyCommittee,
    /// More keys than the largest evaluation domain holds.
    #[error("a committee has at most {max} keys, got {n}")]
    CommitteeTooLarge { n: usize, max: usize },
    /// Weights given, but not one per key.
    #[error("{keys} keys but {weights} weights")]
    WeightsLength { keys: usize, weights: usize },
    /// The weights sum past `u64::MAX`.
    #[error("the total stake does not fit in 64 bits")]
    StakeOverflow,
    /// The setup has fewer powers than the committee's domain needs.
    #[error("the setup has {available} powers, the committee needs {needed}")]
    SetupTooSmall { needed: usize, available: usize },
    /// The committee key was made with another setup than the one given.
    #[error("the committee key was made with another setup")]
    SetupMismatch,
    /// A committee from keys whose proofs of possession were not checked
    /// (a registry made with `KeyRegistry::from_keys_unchecked`): a rogue
    /// key among them could sign for the whole committee.
    #[error("a committee needs every key's proof of possession checked (the registry holds unchecked keys)")]
    UncheckedKeys,
    /// A committee key made with the insecure development setup, given to
    /// a verifier that did not opt in to it: anyone can forge its
    /// certificates.
    #[error(
        "the committee key was made with the INSECURE development setup: its certificates prove nothing (opt in only for tests and demos)"
    )]
    InsecureSetup,
    /// The committee key was made with a setup other than the one the
    /// caller expects (its recorded setup digest differs).
    #[error("the committee key was made with the setup whose digest is {found}, not the expected {expected}")]
    SetupDigestMismatch { expected: String, found: String },
    /// The committee's stored key does not match its member keys.
    #[error("the committee key does not match the committee's keys")]
    CommitteeKeyMismatch,

    /// A signer whose key is not in the committee.
    #[error("signer key {key} is not in the committee")]
    UnknownSigner { key: String },
    /// The same committee member given twice.
    #[error("committee member #{index} signed twice")]
    DuplicateSigner { index: usize },
    /// No signatures, or an empty bitfield.
    #[error("no signers")]
    NoSigners,
    /// An individual signature that does not verify (position in the input).
    #[error("signature #{position} does not verify")]
    InvalidSignature { position: usize },
    /// An aggregate signature that does not verify under its signers' keys.
    #[error("the aggregate signature does not verify under the signers' aggregate key")]
    InvalidAggregateSignature,
    /// A bitfield of the wrong length for the committee.
    #[error("the bitfield has {got} bits, the committee {expected} keys")]
    BitfieldLength { expected: usize, got: usize },

    /// The certificate names another committee size or weighting.
    #[error("certificate is for another committee: {0}")]
    CommitteeMismatch(&'static str),
    /// Fewer signers than the threshold.
    #[error("{count} signers, below the threshold of {threshold}")]
    BelowThreshold { count: u64, threshold: u64 },
    /// Less stake than the stake threshold.
    #[error("stake {stake} is below the threshold of {threshold}")]
    StakeBelowThreshold { stake: u64, threshold: u64 },
    /// A stake threshold for a committee without weights.
    #[error("the committee has no stake weights")]
    NoStake,
    /// An accountable certificate whose count is not its bitfield's.
    #[error("the certificate counts {count} signers but its bitfield has {bitfield}")]
    CountMismatch { count: u64, bitfield: u64 },
    /// The aggregate key is the identity (it would accept the identity
    /// signature on any message).
    #[error("the aggregate key is the identity")]
    IdentityAggregateKey,
    /// The succinct proof does not verify: the aggregate key, count or stake
    /// is not what the committed keys and some bitfield give.
    #[error("the certificate's proof does not verify")]
    ProofRejected,
    /// The aggregate signature does not verify under the aggregate key.
    #[error("the aggregate signature does not verify on this message")]
    SignatureRejected,
}

/// Errors of the KZG setup: its file, its ceremony and its use.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// The deterministic development setup, whose trapdoor is public.
    #[error(
        "this is the INSECURE development setup: its trapdoor is public, so certificates made with it prove nothing"
    )]
    InsecureDevelopmentSetup,
    /// A ceremony file with no contribution: its trapdoor is 1.
    #[error("the ceremony has no contribution yet")]
    NoContributions,
    /// The first powers are not the standard generators.
    #[error("the setup does not start from the standard generators of BW6-767")]
    NotStandardGenerators,
    /// A point of the setup is not in the prime-order subgroup, or is the
    /// identity where that is not allowed.
    #[error("setup point {what} #{index} is invalid")]
    BadPoint { what: &'static str, index: usize },
    /// A contribution's proof of knowledge does not verify.
    #[error("contribution #{index}: the proof of knowledge of its secret does not verify")]
    BadProofOfKnowledge { index: usize },
    /// A contribution does not extend the previous trapdoor by its secret.
    #[error("contribution #{index} does not build on the previous one")]
    DoesNotExtend { index: usize },
    /// The header's `τ·g2` is not the last contribution's.
    #[error("the setup's tau does not match its last contribution")]
    FinalTauMismatch,
    /// The ceremony's final `τ` is public: 1 (the ceremony's start, or
    /// contributions whose secrets cancel) or the development setup's.
    #[error("the setup's tau is publicly known (1 or the development setup's): anyone can forge certificates under it")]
    KnownTrapdoor,
    /// The G1 powers are not the powers of the setup's `τ`.
    #[error("the G1 powers are not successive powers of tau")]
    PowersInconsistent,
    /// The file's checksum does not match its contents.
    #[error("the setup file is corrupted (checksum mismatch)")]
    ChecksumMismatch,
    /// A ceremony cannot build on the development setup.
    #[error("cannot contribute to the insecure development setup")]
    ContributeToInsecure,
    /// Too few or too many powers.
    #[error("a setup has between 2 and {max} G1 powers, got {got}")]
    BadSize { got: usize, max: usize },
}
