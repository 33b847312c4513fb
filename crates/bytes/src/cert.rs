//! Succinct BLS threshold certificates (`sigagg-bls-cert`) on bytes: the
//! KZG setup and its ceremony, committees, certificates.
//!
//! A committee commits BLS keys (each with its proof of possession) once;
//! its committee key (about 600 bytes) is all a verifier holds. A
//! certificate proves that at least `t` members signed a message, in about
//! 1.4 KB and 14 ms of verification whatever the committee's size.
//! [`development_setup`] is **insecure** (its trapdoor is public): real
//! committees run a ceremony ([`ceremony_start`], [`contribute`] by every
//! participant, [`verify_ceremony`]).

use sigagg_bls::bitfield::Bitfield;
use sigagg_bls::{KeyRegistry, PublicKey, Signature};
use sigagg_bls_cert::{
    Certificate, Committee, CommitteeKey, Mode, Prover, Setup, Signed, Threshold, powers_for_committee,
};

use crate::bls::with_proofs;
use crate::error::{Error, Result};
use crate::input::{decode, decode_each, same_length};

/// The deterministic **insecure** development setup for committees of up
/// to `max_committee` keys: anyone can forge certificates under it. For
/// tests and demos; committee keys made with it say so.
pub fn development_setup(max_committee: usize) -> Result<Vec<u8>> {
    Ok(Setup::insecure_development(powers_for_committee(max_committee)?)?.to_bytes())
}

/// The start of a setup ceremony for committees of up to `max_committee`
/// keys (no contribution yet: not usable until someone contributes).
pub fn ceremony_start(max_committee: usize) -> Result<Vec<u8>> {
    Ok(Setup::ceremony_start(powers_for_committee(max_committee)?)?.to_bytes())
}

/// Adds a contribution whose secret is derived from `entropy` (at least 32
/// bytes from a cryptographic source, erased by the caller) and returns
/// the extended ceremony.
pub fn contribute(setup: &[u8], entropy: &[u8]) -> Result<Vec<u8>> {
    if entropy.len() < 32 {
        return Err(Error::argument(format!("entropy must be at least 32 bytes, got {}", entropy.len())));
    }
    let mut setup = decode(setup, Setup::from_bytes)?;
    setup.contribute(entropy)?;
    Ok(setup.to_bytes())
}

/// Checks every contribution of a ceremony with pairings; returns the
/// number of contributions. The development setup, a ceremony without
/// contributions and one whose final trapdoor is public are refused.
pub fn verify_ceremony(setup: &[u8]) -> Result<usize> {
    let setup = decode(setup, Setup::from_bytes)?;
    Ok(setup.verify_ceremony()?.contributions)
}

/// A committee's two encodings: the prover's (with the member keys) and the
/// verifier's committee key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitteeFiles {
    /// The committee, for provers.
    pub committee: Vec<u8>,
    /// The committee key, for verifiers.
    pub key: Vec<u8>,
}

/// Commits the keys `public_keys` (in order; `pops[i]` is key `i`'s proof of
/// possession, checked here) with optional stake weights (one per key).
/// The setup must be the development setup or a ceremony that verifies
/// (checked here too): committees on unverified setups are refused.
pub fn committee(
    setup: &[u8],
    public_keys: &[&[u8]],
    pops: &[&[u8]],
    weights: Option<&[u64]>,
) -> Result<CommitteeFiles> {
    let setup = decode(setup, Setup::from_bytes)?;
    let keys = decode_each(public_keys, "public key", PublicKey::from_bytes)?;
    let registry = KeyRegistry::from_keys_with_proofs(&with_proofs(keys, pops)?)?;
    let committee = Committee::new(&setup, registry, weights.map(<[u64]>::to_vec))?;
    Ok(CommitteeFiles { key: committee.key().to_bytes(), committee: committee.to_bytes() })
}

/// Certifies that the members at `signer_indices` (positions in the
/// committee; `signatures[j]` is signer `j`'s) signed `message`.
/// `accountable` publishes the signers' bitfield in the certificate.
pub fn certify(
    setup: &[u8],
    committee: &[u8],
    message: &[u8],
    signer_indices: &[u32],
    signatures: &[&[u8]],
    accountable: bool,
) -> Result<Vec<u8>> {
    same_length(("signer indices", signer_indices.len()), ("signatures", signatures.len()))?;
    let (setup, committee) = (decode(setup, Setup::from_bytes)?, decode(committee, Committee::from_bytes)?);
    let sigs = decode_each(signatures, "signature", Signature::from_bytes)?;
    let keys = committee.keys();
    let signed = signer_indices
        .iter()
        .zip(sigs)
        .enumerate()
        .map(|(j, (&i, sig))| {
            let key = keys
                .get(i as usize)
                .ok_or_else(|| Error::argument(format!("signer {j}: index {i} is past the {} members", keys.len())))?;
            Ok((*key, sig))
        })
        .collect::<Result<Vec<_>>>()?;
    let prover = Prover::new(&setup, &committee)?;
    Ok(prover.certify(message, Signed::Signatures(&signed), mode(accountable))?.to_bytes())
}

/// Certifies from an aggregate signature and the bitfield of its signers
/// (SSZ bit order, one bit per member, padding bits zero).
pub fn certify_aggregate(
    setup: &[u8],
    committee: &[u8],
    message: &[u8],
    bitfield: &[u8],
    aggregate_signature: &[u8],
    accountable: bool,
) -> Result<Vec<u8>> {
    let (setup, committee) = (decode(setup, Setup::from_bytes)?, decode(committee, Committee::from_bytes)?);
    let signers = Bitfield::from_bytes(bitfield, committee.keys().len())
        .map_err(|e| Error::argument(format!("bitfield: {e}")))?;
    let signature = decode(aggregate_signature, Signature::from_bytes)?;
    let prover = Prover::new(&setup, &committee)?;
    let signed = Signed::Aggregate { signers: &signers, signature: &signature };
    Ok(prover.certify(message, signed, mode(accountable))?.to_bytes())
}

fn mode(accountable: bool) -> Mode {
    if accountable { Mode::Accountable } else { Mode::Counting }
}

/// What a verified certificate establishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertificateInfo {
    /// Distinct members that signed.
    pub count: u64,
    /// Their stake (weighted committees).
    pub stake: Option<u64>,
    /// The signers' bitfield (accountable certificates).
    pub signers: Option<Vec<u8>>,
    /// Whether the committee key comes from the insecure development setup
    /// (only with `allow_insecure_setup`).
    pub insecure_setup: bool,
    /// SHA-256 of the setup file the committee key was made with: compare
    /// it with the published ceremony file's.
    pub setup_digest: [u8; 32],
}

/// Verifies `certificate` on `message` against a committee key (or a
/// committee's encoding) and a threshold of `threshold` signers (and
/// `stake_threshold` stake for a weighted committee). A committee key of
/// the insecure development setup is refused unless `allow_insecure_setup`
/// (tests and demos only: anyone can forge its certificates).
pub fn verify_certificate(
    committee_key: &[u8],
    certificate: &[u8],
    message: &[u8],
    threshold: u64,
    stake_threshold: Option<u64>,
    allow_insecure_setup: bool,
) -> Result<CertificateInfo> {
    let key = decode(committee_key, |b| {
        CommitteeKey::from_bytes(b).or_else(|e| Committee::key_from_bytes(b).map_err(|_| e))
    })?;
    let cert = decode(certificate, Certificate::from_bytes)?;
    let threshold = Threshold { signers: threshold, stake: stake_threshold };
    let verified = if allow_insecure_setup {
        sigagg_bls_cert::verify_allowing_insecure_setup(&key, &cert, message, &threshold)?
    } else {
        sigagg_bls_cert::verify(&key, &cert, message, &threshold)?
    };
    Ok(CertificateInfo {
        count: verified.count as u64,
        stake: verified.stake,
        signers: verified.signers.map(|b| b.to_bytes()),
        insecure_setup: verified.insecure_setup,
        setup_digest: key.setup_digest(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use sigagg_bls::SecretKey;

    #[test]
    fn a_committee_certificate_round_trip_on_bytes() {
        let sks: Vec<SecretKey> = (1..=4u8).map(|i| SecretKey::from_key_material(&[i; 32]).unwrap()).collect();
        let pks: Vec<[u8; 48]> = sks.iter().map(|s| s.public_key().to_bytes()).collect();
        let pops: Vec<[u8; 96]> = sks.iter().map(|s| s.prove_possession().to_bytes()).collect();
        let setup = ceremony_start(4).unwrap();
        assert_eq!(verify_ceremony(&setup).unwrap_err().kind(), ErrorKind::Verify);
        assert_eq!(contribute(&setup, &[1; 16]).unwrap_err().kind(), ErrorKind::Argument);
        let setup = contribute(&setup, &[7; 64]).unwrap();
        assert_eq!(verify_ceremony(&setup).unwrap(), 1);
        let pk_refs: Vec<&[u8]> = pks.iter().map(|x| x.as_slice()).collect();
        let pop_refs: Vec<&[u8]> = pops.iter().map(|x| x.as_slice()).collect();
        let files = committee(&setup, &pk_refs, &pop_refs, Some(&[5, 6, 7, 8])).unwrap();
        let msg = b"checkpoint";
        let sigs: Vec<[u8; 96]> = [0usize, 2, 3].iter().map(|&i| sks[i].sign(msg).to_bytes()).collect();
        let sig_refs: Vec<&[u8]> = sigs.iter().map(|x| x.as_slice()).collect();
        let cert = certify(&setup, &files.committee, msg, &[0, 2, 3], &sig_refs, true).unwrap();
        let info = verify_certificate(&files.key, &cert, msg, 3, Some(20), false).unwrap();
        assert_eq!(
            (info.count, info.stake, info.signers, info.insecure_setup),
            (3, Some(20), Some(vec![0b1101]), false)
        );
        assert_eq!(
            info.setup_digest,
            <[u8; 32]>::from(<sha2::Sha256 as sha2::Digest>::digest(&setup)),
            "the setup file's SHA-256"
        );
        // Refusals keep their kinds.
        assert_eq!(verify_certificate(&files.key, &cert, msg, 4, None, false).unwrap_err().kind(), ErrorKind::Verify);
        assert_eq!(
            verify_certificate(&files.key, &cert, b"other", 3, None, false).unwrap_err().kind(),
            ErrorKind::Verify
        );
        assert_eq!(
            verify_certificate(&files.key, &cert[1..], msg, 3, None, false).unwrap_err().kind(),
            ErrorKind::Decode
        );
        let outsider = SecretKey::from_key_material(&[9; 32]).unwrap().sign(msg).to_bytes();
        let e = certify(&setup, &files.committee, msg, &[1], &[&outsider], false).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Prove);
        assert_eq!(
            certify(&setup, &files.committee, msg, &[9], &[&outsider], false).unwrap_err().kind(),
            ErrorKind::Argument
        );
        // From an aggregate and its bitfield, counting mode.
        let agg = sigagg_bls::aggregate(&[0usize, 2, 3].map(|i| sks[i].sign(msg))).unwrap().to_bytes();
        let cert = certify_aggregate(&setup, &files.committee, msg, &[0b1101], &agg, false).unwrap();
        let info = verify_certificate(&files.committee, &cert, msg, 3, None, false).unwrap();
        assert_eq!((info.count, info.signers), (3, None));
        // The development setup is refused unless the caller opts in, and
        // then marked.
        let dev = development_setup(4).unwrap();
        let dev_files = committee(&dev, &pk_refs, &pop_refs, None).unwrap();
        let cert = certify(&dev, &dev_files.committee, msg, &[0, 2, 3], &sig_refs, false).unwrap();
        assert_eq!(
            verify_certificate(&dev_files.key, &cert, msg, 3, None, false).unwrap_err().kind(),
            ErrorKind::Verify
        );
        assert!(verify_certificate(&dev_files.key, &cert, msg, 3, None, true).unwrap().insecure_setup);
        // No committee on a ceremony without contributions, or with a
        // wrong proof of possession.
        let start = ceremony_start(4).unwrap();
        assert_eq!(committee(&start, &pk_refs, &pop_refs, None).unwrap_err().kind(), ErrorKind::Verify);
        let swapped: Vec<&[u8]> = pop_refs.iter().rev().copied().collect();
        assert!(committee(&setup, &pk_refs, &swapped, None).is_err());
    }
}
