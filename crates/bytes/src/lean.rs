//! leanSpec's aggregation API on bytes, for what lean Ethereum validators
//! sign: leanSig production signatures (`LeanSigProd`), one 32-byte message
//! and one slot (the signing epoch) shared by every signer.
//!
//! leanSpec (`subspecs/xmss/aggregation.py`) calls two functions of its
//! prover library and wraps their bytes in its SSZ container
//! `AggregatedSignatureProof { participants: Bitlist, proof_data: ByteList[2^20] }`:
//!
//! ```text
//! aggregate_signatures(public_keys, signatures, message, slot) -> proof_data
//! verify_aggregated_signatures(public_keys, message, proof_data, slot)
//! ```
//!
//! [`aggregate_signatures`] and [`verify_aggregated_signatures`] are those
//! two on bytes; [`aggregate`] and [`verify`] also build and check the
//! container (its SSZ bytes in, its SSZ bytes out). Keys and signatures
//! are leanSig's SSZ (`sigagg-xmss`); `proof_data` is a set-tagged
//! `sigagg-xmss-agg` proof (`SGXAGS...`). The Rust core is
//! [`sigagg_xmss_agg::leansig::leanspec`]; this module chooses the settings
//! by name and maps its [`LeanApiError`] onto [`Error`], keeping the input
//! at fault in the message ("public key 2: ...", "signature 0: ...",
//! "invalid signature at index 1: ...").
//!
//! ```no_run
//! use sigagg_bytes::{ProofSettings, lean};
//! # let (pks, sigs): (Vec<&[u8]>, Vec<&[u8]>) = (vec![], vec![]);
//! let message = [7u8; 32];
//! let container = lean::aggregate(ProofSettings::WhirSkip, None, &pks, &sigs, &message, 9).unwrap();
//! lean::verify(ProofSettings::WhirSkip, &container, &pks, &message, 9).unwrap();
//! ```

use sigagg_xmss::{AggregatedSignatureProof, LeanSigProd, ParameterSet, Participants};
use sigagg_xmss_agg::leansig::aggregate::security_level;
use sigagg_xmss_agg::leansig::leanspec::{self as core, LeanApiError};

use crate::error::{Error, ErrorKind, Result};
use crate::input::decode;
use crate::proof::Security;
use crate::scheme::ProofSettings;
use crate::xmss::message32;

/// The settings leanSpec's calls get when they name none: our multilinear
/// prover (`whir-skip`, at least 120 proven bits).
pub const DEFAULT_SETTINGS: ProofSettings = ProofSettings::WhirSkip;

/// The aggregator's parameters of `named`.
fn settings(named: ProofSettings) -> sigagg_xmss_agg::Settings {
    sigagg_xmss_agg::settings(named)
}

/// Proves that every `signatures[i]` (leanSig SSZ) is `public_keys[i]`'s
/// (leanSig SSZ) signature of the 32-byte `message` at `slot`; returns the
/// proof's bytes, leanSpec's `proof_data` (at most 2^20 bytes).
///
/// Every signature is checked first: an invalid one is an
/// [`ErrorKind::Prove`] error naming its index. Lists of different lengths,
/// no keys or a message that is not 32 bytes are [`ErrorKind::Argument`]
/// errors, a key or signature that does not decode an
/// [`ErrorKind::Decode`] error naming its index.
pub fn aggregate_signatures(
    settings_name: ProofSettings,
    public_keys: &[&[u8]],
    signatures: &[&[u8]],
    message: &[u8],
    slot: u32,
) -> Result<Vec<u8>> {
    let message = message32(message)?;
    core::aggregate_signatures(&settings(settings_name), public_keys, signatures, &message, slot).map_err(proving)
}

/// Verifies `proof_data` (from [`aggregate_signatures`] with the same
/// settings) for `public_keys` signing the 32-byte `message` at `slot`.
///
/// A proof that does not decode is an [`ErrorKind::Decode`] error, one
/// that decodes but does not prove this statement (another message, slot,
/// key or number of keys) an [`ErrorKind::Verify`] error.
pub fn verify_aggregated_signatures(
    settings_name: ProofSettings,
    public_keys: &[&[u8]],
    message: &[u8],
    proof_data: &[u8],
    slot: u32,
) -> Result<()> {
    let message = message32(message)?;
    core::verify_aggregated_signatures(&settings(settings_name), public_keys, &message, proof_data, slot)
        .map_err(verifying)
}

/// [`aggregate_signatures`], wrapped in leanSpec's SSZ container
/// `AggregatedSignatureProof`, whose bytes are returned.
///
/// `participants` is the container's SSZ bitlist (leanSpec's
/// `AggregationBits`): one bit set per key, the keys given in the order of
/// the set bits. `None` stands for every one of the keys (as many bits as
/// keys, all set). A bitlist that does not decode is an
/// [`ErrorKind::Decode`] error; one whose set bits do not count the keys
/// an [`ErrorKind::Argument`] error.
pub fn aggregate(
    settings_name: ProofSettings,
    participants: Option<&[u8]>,
    public_keys: &[&[u8]],
    signatures: &[&[u8]],
    message: &[u8],
    slot: u32,
) -> Result<Vec<u8>> {
    let participants = match participants {
        Some(bytes) => decode(bytes, Participants::from_bytes).map_err(|e| e.context("participants"))?,
        None => Participants::new(vec![true; public_keys.len()]).map_err(|e| Error::from(e).context("participants"))?,
    };
    let message = message32(message)?;
    let container = core::aggregate(&settings(settings_name), participants, public_keys, signatures, &message, slot)
        .map_err(proving)?;
    Ok(container.to_bytes())
}

/// Verifies leanSpec's container `proof` (SSZ `AggregatedSignatureProof`,
/// from [`aggregate`] with the same settings) against the participants'
/// keys (one per bit set, in order) signing the 32-byte `message` at
/// `slot`.
///
/// A container or proof that does not decode is an [`ErrorKind::Decode`]
/// error; one whose participants do not count the keys, or whose proof
/// does not prove this statement, an [`ErrorKind::Verify`] error.
pub fn verify(
    settings_name: ProofSettings,
    proof: &[u8],
    public_keys: &[&[u8]],
    message: &[u8],
    slot: u32,
) -> Result<()> {
    let container = decode_container(proof)?;
    let message = message32(message)?;
    core::verify(&settings(settings_name), &container, public_keys, &message, slot).map_err(verifying)
}

/// What a container says about itself, before any verification: none of
/// it is trusted until the proof verifies (under [`LeanProofInfo::settings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeanProofInfo {
    /// The indices of the participants' bits, ascending: the order of the
    /// keys [`verify`] takes.
    pub participants: Vec<u64>,
    /// The length of the participants bitlist.
    pub bits: usize,
    /// The number of signatures the proof claims.
    pub count: u32,
    /// The named settings the proof was made with; `None` when no name
    /// gives them.
    pub settings: Option<ProofSettings>,
}

/// Decodes the container `proof` and its `proof_data` far enough to say
/// what they claim. Bytes that are no container, or a proof that is not an
/// aggregate of leanSig production signatures, are an
/// [`ErrorKind::Decode`] error.
pub fn inspect(proof: &[u8]) -> Result<LeanProofInfo> {
    let container = decode_container(proof)?;
    let p = decode(container.proof_data(), sigagg_xmss_agg::Proof::from_bytes).map_err(|e| e.context("proof_data"))?;
    if p.set != LeanSigProd::ID || p.kind != sigagg_xmss_agg::ProofKind::Aggregate {
        return Err(Error::new(ErrorKind::Decode, "proof_data: not an aggregate of leanSig production signatures"));
    }
    let participants = container.participants();
    Ok(LeanProofInfo {
        participants: participants.indices(),
        bits: participants.len(),
        count: p.count,
        settings: sigagg_xmss_agg::named(&p.settings),
    })
}

/// The SSZ participants bitlist of the validators `indices` (leanSpec's
/// `AggregationBits.from_validator_indices`): `max + 1` bits, those of
/// `indices` set. The indices must be strictly ascending, the order of the
/// keys [`aggregate`] and [`verify`] take, and below leanSpec's
/// `VALIDATOR_REGISTRY_LIMIT` (2^12); otherwise an
/// [`ErrorKind::Argument`] error.
pub fn participants(indices: &[u64]) -> Result<Vec<u8>> {
    if let Some(i) = indices.windows(2).position(|w| w[0] >= w[1]) {
        return Err(Error::argument(format!(
            "participants: validator indices must be strictly ascending (the keys' order), {} then {}",
            indices[i],
            indices[i + 1]
        )));
    }
    Ok(Participants::from_indices(indices).map_err(|e| Error::from(e).context("participants"))?.to_bytes())
}

/// The security of proofs made with `settings_name` for aggregates of
/// `signatures` leanSig production signatures, computed from their tables.
pub fn security(settings_name: ProofSettings, signatures: usize) -> Security {
    let level = security_level::<LeanSigProd>(&settings(settings_name), signatures);
    Security::from(&level)
}

/// The container of `bytes`; any failure is an [`ErrorKind::Decode`] error.
fn decode_container(bytes: &[u8]) -> Result<AggregatedSignatureProof> {
    decode(bytes, AggregatedSignatureProof::from_bytes).map_err(|e| e.context("aggregated signature proof"))
}

/// The error of a failed aggregation: a proof that would not fit leanSpec's
/// container is the prover's failure, not the caller's bytes.
fn proving(e: LeanApiError) -> Error {
    let too_large = matches!(
        e,
        LeanApiError::TooLarge(_) | LeanApiError::Container(sigagg_xmss::ContainerError::ProofTooLong { .. })
    );
    let error = Error::from(e);
    if too_large { error.with_kind(ErrorKind::Prove) } else { error }
}

/// The error of a failed verification: participants that do not count the
/// keys are the container's false claim about this statement.
fn verifying(e: LeanApiError) -> Error {
    let mismatch = matches!(e, LeanApiError::ParticipantsMismatch { .. });
    let error = Error::from(e);
    if mismatch { error.with_kind(ErrorKind::Verify) } else { error }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use sigagg_xmss::{LeanSigProd, single_epoch_key_and_signature};

    use super::*;

    /// The cheapest valid settings (insecure, tests only).
    const SETTINGS: ProofSettings = ProofSettings::TestWhirSkip;
    const MESSAGE: [u8; 32] = [0x42; 32];
    const SLOT: u32 = 77;

    /// `n` genuine LeanSigProd keys and their signatures of `MESSAGE` at
    /// `SLOT` (one-leaf keys: a leaf's cost each), SSZ.
    fn signers(seed: u64, n: usize) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let (pk, sig) = single_epoch_key_and_signature::<LeanSigProd, _>(&mut rng, SLOT, &MESSAGE).unwrap();
                (pk.to_bytes(), sig.to_bytes())
            })
            .unzip()
    }

    fn views(items: &[Vec<u8>]) -> Vec<&[u8]> {
        items.iter().map(Vec::as_slice).collect()
    }

    fn kind<T: std::fmt::Debug>(r: Result<T>) -> (ErrorKind, String) {
        let e = r.unwrap_err();
        (e.kind(), e.message().to_owned())
    }

    #[test]
    fn containers_aggregate_verify_and_refuse_wrong_statements() {
        let (pks, sigs) = signers(1, 2);
        let (pks, sigs) = (views(&pks), views(&sigs));
        let container = aggregate(SETTINGS, None, &pks, &sigs, &MESSAGE, SLOT).unwrap();
        let decoded = AggregatedSignatureProof::from_bytes(&container).unwrap();
        assert_eq!(decoded.participants().bits(), [true, true]);
        verify(SETTINGS, &container, &pks, &MESSAGE, SLOT).unwrap();
        let info = inspect(&container).unwrap();
        assert_eq!(info, LeanProofInfo { participants: vec![0, 1], bits: 2, count: 2, settings: Some(SETTINGS) });
        // The bare proof_data verifies alone, as leanSpec checks it.
        verify_aggregated_signatures(SETTINGS, &pks, &MESSAGE, decoded.proof_data(), SLOT).unwrap();

        // Another message, slot, key, key order: the proof is refused.
        let mut wrong_message = MESSAGE;
        wrong_message[31] ^= 1;
        assert_eq!(kind(verify(SETTINGS, &container, &pks, &wrong_message, SLOT)).0, ErrorKind::Verify);
        assert_eq!(kind(verify(SETTINGS, &container, &pks, &MESSAGE, SLOT + 1)).0, ErrorKind::Verify);
        let (other, _) = signers(2, 1);
        assert_eq!(kind(verify(SETTINGS, &container, &[pks[0], &other[0]], &MESSAGE, SLOT)).0, ErrorKind::Verify);
        assert_eq!(kind(verify(SETTINGS, &container, &[pks[1], pks[0]], &MESSAGE, SLOT)).0, ErrorKind::Verify);
        // Other settings than the proof's: refused, not accepted.
        assert!(verify(ProofSettings::Test, &container, &pks, &MESSAGE, SLOT).is_err());

        // A flipped participant bit: the container no longer counts the keys.
        let mut flipped = container.clone();
        flipped[8] ^= 0b10; // bit 1 of the bitlist
        let (k, m) = kind(verify(SETTINGS, &flipped, &pks, &MESSAGE, SLOT));
        assert_eq!(k, ErrorKind::Verify, "{m}");
        assert!(m.contains("1 participants for 2 public keys"), "{m}");
        // Fewer keys than participants.
        assert_eq!(kind(verify(SETTINGS, &container, &pks[..1], &MESSAGE, SLOT)).0, ErrorKind::Verify);

        // Truncated or tampered container bytes: typed errors, never accepted.
        for n in [0, 4, 7, 9, container.len() / 2, container.len() - 1] {
            let k = kind(verify(SETTINGS, &container[..n], &pks, &MESSAGE, SLOT)).0;
            assert!(matches!(k, ErrorKind::Decode | ErrorKind::Verify), "truncated to {n}: {k:?}");
        }
        let mut offset = container.clone();
        offset[0] = 9;
        assert_eq!(kind(verify(SETTINGS, &offset, &pks, &MESSAGE, SLOT)).0, ErrorKind::Decode);
        for at in [10, 20, container.len() / 2, container.len() - 1] {
            let mut tampered = container.clone();
            tampered[at] ^= 0x10;
            let k = kind(verify(SETTINGS, &tampered, &pks, &MESSAGE, SLOT)).0;
            assert!(matches!(k, ErrorKind::Decode | ErrorKind::Verify), "byte {at}: {k:?}");
        }
        assert_eq!(kind(inspect(&container[..9])).0, ErrorKind::Decode);
    }

    #[test]
    fn caller_participants_are_kept_and_checked() {
        let (pks, sigs) = signers(3, 1);
        let (pks, sigs) = (views(&pks), views(&sigs));
        // Validator 5 of a 6-bit list: bit 5 set, the delimiter at bit 6.
        let bits = participants(&[5]).unwrap();
        assert_eq!(bits, [0b110_0000]);
        let container = aggregate(SETTINGS, Some(&bits), &pks, &sigs, &MESSAGE, SLOT).unwrap();
        assert_eq!(inspect(&container).unwrap().participants, vec![5]);
        verify(SETTINGS, &container, &pks, &MESSAGE, SLOT).unwrap();

        // Two participants for one key, and a bitlist without its delimiter.
        let two = Participants::from_indices(&[0, 5]).unwrap().to_bytes();
        let (k, m) = kind(aggregate(SETTINGS, Some(&two), &pks, &sigs, &MESSAGE, SLOT));
        assert_eq!(k, ErrorKind::Argument, "{m}");
        let (k, m) = kind(aggregate(SETTINGS, Some(&[0]), &pks, &sigs, &MESSAGE, SLOT));
        assert_eq!(k, ErrorKind::Decode);
        assert!(m.starts_with("participants: "), "{m}");
    }

    #[test]
    fn bad_inputs_are_typed_errors_naming_the_input() {
        let (pks, sigs) = signers(4, 2);
        let (pks, sigs) = (views(&pks), views(&sigs));
        // Count mismatch.
        let (k, m) = kind(aggregate_signatures(SETTINGS, &pks, &sigs[..1], &MESSAGE, SLOT));
        assert_eq!(k, ErrorKind::Argument);
        assert!(m.contains("2 public keys for 1 signatures"), "{m}");
        assert_eq!(kind(aggregate(SETTINGS, None, &pks, &sigs[..1], &MESSAGE, SLOT)).0, ErrorKind::Argument);
        // No keys at all.
        assert_eq!(kind(aggregate_signatures(SETTINGS, &[], &[], &MESSAGE, SLOT)).0, ErrorKind::Argument);
        // A message that is not 32 bytes.
        assert_eq!(kind(aggregate_signatures(SETTINGS, &pks, &sigs, &MESSAGE[..31], SLOT)).0, ErrorKind::Argument);
        assert_eq!(kind(verify_aggregated_signatures(SETTINGS, &pks, &[], &[], SLOT)).0, ErrorKind::Argument);
        // A key and a signature that do not decode name their index.
        let (k, m) = kind(aggregate_signatures(SETTINGS, &[pks[0], &pks[1][1..]], &sigs, &MESSAGE, SLOT));
        assert_eq!((k, m.starts_with("public key 1: ")), (ErrorKind::Decode, true), "{m}");
        let (k, m) = kind(aggregate_signatures(SETTINGS, &pks, &[sigs[0], &[1, 2, 3]], &MESSAGE, SLOT));
        assert_eq!((k, m.starts_with("signature 1: ")), (ErrorKind::Decode, true), "{m}");
        // A swapped key: the signature no longer verifies, and says which.
        let (k, m) = kind(aggregate_signatures(SETTINGS, &[pks[1], pks[0]], &sigs, &MESSAGE, SLOT));
        assert_eq!(k, ErrorKind::Prove, "{m}");
        assert!(m.contains("index 0") || m.contains("signature 0"), "{m}");
        // A wrong message or slot: every signature is invalid.
        assert_eq!(kind(aggregate_signatures(SETTINGS, &pks, &sigs, &[0; 32], SLOT)).0, ErrorKind::Prove);
        assert_eq!(kind(aggregate_signatures(SETTINGS, &pks, &sigs, &MESSAGE, SLOT - 1)).0, ErrorKind::Prove);
        // proof_data that is no proof, or past leanSpec's limit.
        assert_eq!(kind(verify_aggregated_signatures(SETTINGS, &pks, &MESSAGE, b"junk", SLOT)).0, ErrorKind::Decode);
        let huge = vec![0u8; (1 << 20) + 1];
        assert_eq!(kind(verify_aggregated_signatures(SETTINGS, &pks, &MESSAGE, &huge, SLOT)).0, ErrorKind::Decode);
    }

    #[test]
    fn participants_follow_leanspec_and_refuse_bad_indices() {
        assert_eq!(participants(&[0, 3, 9]).unwrap(), [0b0000_1001, 0b0000_0110]);
        assert_eq!(participants(&[]).unwrap(), [1]);
        for bad in [&[3, 3][..], &[4, 2], &[1 << 12]] {
            assert_eq!(kind(participants(bad)).0, ErrorKind::Argument, "{bad:?}");
        }
    }

    #[test]
    fn named_settings_state_their_security() {
        let secure = security(DEFAULT_SETTINGS, 1024);
        assert!(secure.proven_bits >= 100.0, "{secure:?}");
        assert!(security(SETTINGS, 2).proven_bits < 80.0);
    }
}
