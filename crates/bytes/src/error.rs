//! The one error type of the byte-level API, and the mapping of every
//! scheme crate's typed errors onto it.
//!
//! Each binding turns an [`Error`] into its own form exactly once: Python
//! raises the exception class of its [`ErrorKind`], C returns the kind's
//! code and keeps the message for `sigagg_last_error`. The message is the
//! scheme crate's own (`Display` of its typed error), prefixed with the
//! input it concerns where a call takes lists ("public key 3: ...").

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What went wrong, coarsely: enough for a caller to decide what to do
/// (fix the call, drop the input, keep the key, report a bug).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The arguments do not fit together or are out of range: an unknown
    /// scheme or setting, lists of different lengths, a zero threshold, a
    /// message of the wrong length for the scheme.
    Argument,
    /// Bytes that do not decode as the object they should be: wrong
    /// length, bad header, non-canonical field element, point off the
    /// curve or outside the subgroup.
    Decode,
    /// Well-formed inputs whose claim is false: a signature, proof,
    /// proof of possession or aggregate key that does not verify.
    Verify,
    /// A stateful key refused to sign: an XMSS epoch already used or
    /// outside the key's window, a Lamport+ key that already signed.
    Sign,
    /// No proof can be made from the witness: an invalid signature, a
    /// signer that is not a member, too few signers.
    Prove,
    /// A bug: a panic caught at the boundary, or a key a panic left
    /// unusable. Never expected; please report it.
    Internal,
}

impl ErrorKind {
    /// Every kind, in code order.
    pub const ALL: [ErrorKind; 6] = [
        ErrorKind::Argument,
        ErrorKind::Decode,
        ErrorKind::Verify,
        ErrorKind::Sign,
        ErrorKind::Prove,
        ErrorKind::Internal,
    ];

    /// The kind's name, as the bindings spell it (`"decode"`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::Argument => "argument",
            ErrorKind::Decode => "decode",
            ErrorKind::Verify => "verify",
            ErrorKind::Sign => "sign",
            ErrorKind::Prove => "prove",
            ErrorKind::Internal => "internal",
        }
    }
}

/// An error of the byte-level API: its kind and a human-readable message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

/// The result of every fallible function of this crate.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl fmt::Display) -> Self {
        Self { kind, message: message.to_string() }
    }

    /// An [`ErrorKind::Argument`] error.
    pub fn argument(message: impl fmt::Display) -> Self {
        Self::new(ErrorKind::Argument, message)
    }

    /// What went wrong, coarsely.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message (the typed error's `Display`, with context).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error with `context` in front of its message, e.g.
    /// `"signature 3"`: lists say which item failed.
    pub fn context(self, context: impl fmt::Display) -> Self {
        Self { kind: self.kind, message: format!("{context}: {}", self.message) }
    }

    /// The same message under another kind, where the call site knows
    /// better than the typed error (a below-threshold error is a false
    /// claim when verifying, a bad argument when signing).
    pub fn with_kind(self, kind: ErrorKind) -> Self {
        Self { kind, message: self.message }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} error: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for Error {}

/// Runs `f`, turning a panic into an [`ErrorKind::Internal`] error.
///
/// # Why
///
/// No function here should panic on any input, but a panic must never
/// unwind into C (undefined behaviour) or surface in Python as
/// `PanicException`, which is not an `Exception` and escapes ordinary
/// `except` clauses. Both bindings run every call through this.
pub fn guarded<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(Error::new(ErrorKind::Internal, format!("panic caught at the boundary: {what}")))
    })
}

/// `impl From<$ty> for Error`, the kind chosen by `$kind(&error)`.
macro_rules! error_from {
    ($($ty:ty => $kind:expr;)*) => {$(
        impl From<$ty> for Error {
            fn from(e: $ty) -> Self {
                let kind: fn(&$ty) -> ErrorKind = $kind;
                Error::new(kind(&e), e)
            }
        }
    )*};
}

use ErrorKind::{Argument, Decode, Prove, Sign, Verify};

error_from! {
    sigagg_xmss::DecodeError => |_| Decode;
    sigagg_xmss::KeygenError => |_| Argument;
    sigagg_xmss::SignError => |_| Sign;
    sigagg_xmss::VerifyError => |_| Verify;
    sigagg_xmss::ContainerError => container_kind;
    sigagg_xmss_agg::leansig::leanspec::LeanApiError => lean_kind;
    sigagg_lamport::DecodeError => |_| Decode;
    sigagg_lamport::SignError => |_| Sign;
    sigagg_lamport::VerifyError => |_| Verify;
    sigagg_lamport::GroupError => |_| Argument;
    sigagg_xmss_agg::StatementError => |_| Argument;
    sigagg_xmss_agg::named::UnknownName => |_| Argument;
    sigagg_xmss_agg::ProveError => stark_prove_kind;
    sigagg_xmss_agg::VerifyError => stark_verify_kind;
    sigagg_xmss::group::GroupError => stark_group_kind;
    sigagg_lamport_agg::StatementError => |_| Argument;
    sigagg_lamport_agg::ProveError => lamport_prove_kind;
    sigagg_lamport_agg::VerifyError => lamport_verify_kind;
    sigagg_bls::BlsError => bls_kind;
    sigagg_bls::atms::AtmsError => atms_kind;
    sigagg_bls_cert::CertError => cert_kind;
    sigagg_bls_cert::SetupError => setup_kind;
    sigagg_mithril::MithrilError => mithril_kind;
    sigagg_merge::MergeError => crate::merge::merge_kind;
}

fn stark_prove_kind(e: &sigagg_xmss_agg::ProveError) -> ErrorKind {
    use sigagg_xmss_agg::ProveError as E;
    match e {
        E::Statement(_)
        | E::InvalidSettings(_)
        | E::CountMismatch { .. }
        | E::TooManyForSettings { .. }
        | E::UnsupportedMerkleHash(_) => Argument,
        E::InvalidSignature { .. }
        | E::NotAMember { .. }
        | E::DuplicateSigner { .. }
        | E::ThresholdNotReached { .. }
        | E::Prover(_) => Prove,
    }
}

fn stark_verify_kind(e: &sigagg_xmss_agg::VerifyError) -> ErrorKind {
    use sigagg_xmss_agg::VerifyError as E;
    match e {
        E::Statement(_) | E::InvalidSettings(_) | E::TooManyForSettings { .. } | E::UnsupportedMerkleHash(_) => {
            Argument
        }
        E::Malformed(_) => Decode,
        _ => Verify,
    }
}

/// leanSpec's container: too many participants is a bad argument (the
/// caller's list), bytes that do not decode are [`Decode`].
fn container_kind(e: &sigagg_xmss::ContainerError) -> ErrorKind {
    use sigagg_xmss::ContainerError as E;
    match e {
        E::TooManyParticipants { .. } | E::ProofTooLong { .. } => Argument,
        E::Decode(_) => Decode,
    }
}

/// leanSpec's aggregation API (`sigagg_xmss_agg::leansig::leanspec`): the
/// kind where nothing better is known at the call site (`lean.rs` calls a
/// participants mismatch [`Verify`] when verifying, an oversize proof
/// [`Prove`] when aggregating).
fn lean_kind(e: &sigagg_xmss_agg::leansig::leanspec::LeanApiError) -> ErrorKind {
    use sigagg_xmss_agg::leansig::leanspec::LeanApiError as E;
    match e {
        E::CountMismatch { .. } | E::Statement(_) | E::ParticipantsMismatch { .. } => Argument,
        E::PublicKey { .. } | E::Signature { .. } | E::TooLarge(_) => Decode,
        E::Prove(inner) => stark_prove_kind(inner),
        E::Verify(inner) => stark_verify_kind(inner),
        E::Container(inner) => container_kind(inner),
    }
}

fn stark_group_kind(e: &sigagg_xmss::group::GroupError) -> ErrorKind {
    use sigagg_xmss::group::GroupError as E;
    match e {
        E::Malformed(_) => Decode,
        _ => Argument,
    }
}

fn lamport_prove_kind(e: &sigagg_lamport_agg::ProveError) -> ErrorKind {
    use sigagg_lamport_agg::ProveError as E;
    match e {
        E::Statement(_) | E::InvalidSettings(_) | E::CountMismatch { .. } => Argument,
        _ => Prove,
    }
}

fn lamport_verify_kind(e: &sigagg_lamport_agg::VerifyError) -> ErrorKind {
    use sigagg_lamport_agg::VerifyError as E;
    match e {
        E::Statement(_) | E::InvalidSettings(_) => Argument,
        E::Malformed(_) => Decode,
        _ => Verify,
    }
}

fn bls_kind(e: &sigagg_bls::BlsError) -> ErrorKind {
    use sigagg_bls::BlsError as E;
    match e {
        E::WrongLength { .. }
        | E::BadEncoding { .. }
        | E::NotOnCurve { .. }
        | E::NotInSubgroup { .. }
        | E::Identity { .. }
        | E::InvalidSecretKey => Decode,
        E::VerificationFailed | E::InvalidProofOfPossession { .. } | E::IdentityAggregateKey => Verify,
        E::ShortKeyMaterial(_)
        | E::Empty(_)
        | E::LengthMismatch { .. }
        | E::DuplicateKey { .. }
        | E::IndexOutOfRange { .. } => Argument,
    }
}

fn atms_kind(e: &sigagg_bls::atms::AtmsError) -> ErrorKind {
    use sigagg_bls::atms::AtmsError as E;
    match e {
        E::Bls(inner) => bls_kind(inner),
        E::Encoding { .. } => Decode,
        E::InvalidThreshold
        | E::EmptyKeyList
        | E::DuplicateKey { .. }
        | E::UnknownSigner { .. }
        | E::DuplicateSigner { .. } => Argument,
        E::InvalidSignature { .. }
        | E::BelowThreshold { .. }
        | E::NonSignerProvenTwice { .. }
        | E::KeyNotInTree { .. }
        | E::MalformedProof { .. }
        | E::AggregateKeyMismatch => Verify,
    }
}

fn cert_kind(e: &sigagg_bls_cert::CertError) -> ErrorKind {
    use sigagg_bls_cert::CertError as E;
    match e {
        E::BadMagic { .. }
        | E::UnsupportedVersion { .. }
        | E::WrongLength { .. }
        | E::Malformed { .. }
        | E::BadPoint { .. }
        | E::BadFieldElement { .. } => Decode,
        E::Bls(inner) => bls_kind(inner),
        E::Setup(inner) => setup_kind(inner),
        E::EmptyCommittee
        | E::CommitteeTooLarge { .. }
        | E::WeightsLength { .. }
        | E::StakeOverflow
        | E::SetupTooSmall { .. }
        | E::SetupMismatch
        | E::UncheckedKeys
        | E::DuplicateSigner { .. }
        | E::BitfieldLength { .. }
        | E::NoStake => Argument,
        E::UnknownSigner { .. } | E::NoSigners | E::InvalidSignature { .. } | E::InvalidAggregateSignature => Prove,
        E::CommitteeKeyMismatch
        | E::CommitteeMismatch(_)
        | E::BelowThreshold { .. }
        | E::StakeBelowThreshold { .. }
        | E::CountMismatch { .. }
        | E::IdentityAggregateKey
        | E::ProofRejected
        | E::SignatureRejected
        | E::InsecureSetup
        | E::SetupDigestMismatch { .. } => Verify,
    }
}

fn setup_kind(e: &sigagg_bls_cert::SetupError) -> ErrorKind {
    use sigagg_bls_cert::SetupError as E;
    match e {
        E::ChecksumMismatch => Decode,
        E::ContributeToInsecure | E::BadSize { .. } => Argument,
        E::InsecureDevelopmentSetup
        | E::NoContributions
        | E::NotStandardGenerators
        | E::BadPoint { .. }
        | E::BadProofOfKnowledge { .. }
        | E::DoesNotExtend { .. }
        | E::FinalTauMismatch
        | E::KnownTrapdoor
        | E::PowersInconsistent => Verify,
    }
}

/// The kind of a Mithril STM error where nothing better is known at the
/// call site: the byte-level calls narrow it (every refusal of a
/// certificate is [`Verify`], every failure of the clerk [`Prove`]).
fn mithril_kind(e: &sigagg_mithril::MithrilError) -> ErrorKind {
    use sigagg_mithril::MithrilError as E;
    match e {
        E::Decode { .. } => Decode,
        E::Bls { source, .. } => bls_kind(source),
        E::PhiFOutOfRange(_)
        | E::ZeroTotalStake
        | E::TotalStakeOverflow
        | E::StakeAboveTotal { .. }
        | E::AlreadyRegistered
        | E::NotRegistered
        | E::PoseidonParameters(_)
        | E::PhiFUnquantisable(_) => Argument,
        E::NoIndexWon => Sign,
        E::InvalidProofOfPossession
        | E::UnregisteredIndex(_)
        | E::LotteryLost(_)
        | E::IndexOutOfBound { .. }
        | E::NoIndex
        | E::IndexNotUnique
        | E::NotEnoughSignatures { .. }
        | E::SignatureInvalid
        | E::BatchPathInvalid
        | E::SignerIndexMismatch
        | E::AggregateInvalid
        | E::EmptyCertificate => Verify,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error() {
        let e = guarded::<()>(|| panic!("boom")).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert!(e.message().contains("boom"), "{e}");
        let e = guarded::<()>(|| panic!("{}", String::from("formatted"))).unwrap_err();
        assert!(e.message().contains("formatted"), "{e}");
    }

    #[test]
    fn guarded_passes_results_through() {
        assert_eq!(guarded(|| Ok(7)), Ok(7));
        let e = Error::argument("x");
        assert_eq!(guarded::<()>(|| Err(e.clone())), Err(e));
    }

    #[test]
    fn context_and_kind_overrides_keep_the_message() {
        let e = Error::from(sigagg_xmss::VerifyError::RootMismatch).context("signature 3");
        assert_eq!(e.kind(), ErrorKind::Verify);
        assert_eq!(e.message(), "signature 3: Merkle root mismatch");
        assert_eq!(e.clone().with_kind(ErrorKind::Argument).message(), e.message());
        assert_eq!(e.to_string(), "verify error: signature 3: Merkle root mismatch");
    }

    #[test]
    fn typed_errors_map_to_their_kind() {
        use sigagg_bls::BlsError;
        assert_eq!(Error::from(BlsError::VerificationFailed).kind(), ErrorKind::Verify);
        assert_eq!(Error::from(BlsError::InvalidSecretKey).kind(), ErrorKind::Decode);
        assert_eq!(Error::from(BlsError::Empty("keys")).kind(), ErrorKind::Argument);
        let malformed = sigagg_xmss_agg::VerifyError::Malformed("short".into());
        assert_eq!(Error::from(malformed).kind(), ErrorKind::Decode);
        assert_eq!(Error::from(sigagg_lamport::SignError::KeyAlreadyUsed).kind(), ErrorKind::Sign);
        let atms = sigagg_bls::atms::AtmsError::Bls(BlsError::NotOnCurve { what: sigagg_bls::Object::PublicKey });
        assert_eq!(Error::from(atms).kind(), ErrorKind::Decode);
        use sigagg_mithril::MithrilError;
        assert_eq!(Error::from(MithrilError::PhiFOutOfRange(2.0)).kind(), ErrorKind::Argument);
        assert_eq!(Error::from(MithrilError::AggregateInvalid).kind(), ErrorKind::Verify);
        assert_eq!(Error::from(MithrilError::InvalidProofOfPossession).kind(), ErrorKind::Verify);
    }
}
