//! Valid certificates at several committee sizes in both modes, with and
//! without stake, and every way a certificate or its inputs can be wrong,
//! each refused with its typed error.

mod common;

use common::*;
use sigagg_bls::SecretKey;
use sigagg_bls_cert::{CertError, Certificate, Committee, Mode, Prover, Signed, Threshold, verify};

const MODES: [Mode; 2] = [Mode::Accountable, Mode::Counting];

/// Certifies `members` of a committee of `n` in every mode and weighting,
/// round-trips the encoding, verifies, and checks what verification reports.
fn certify_and_verify(n: usize, members: &[usize]) {
    let sks = secret_keys(n, 1);
    let setup = setup_for(n);
    let aggregate = aggregate_of(&sks, members, MESSAGE);
    let signers = bitfield(n, members);
    for weighted in [false, true] {
        let committee = committee(&setup, &sks, weighted);
        let prover = Prover::new(&setup, &committee).unwrap();
        let stake: Option<u64> = weighted.then(|| members.iter().map(|&i| i as u64 + 1).sum());
        for mode in MODES {
            let cert =
                prover.certify(MESSAGE, Signed::Aggregate { signers: &signers, signature: &aggregate }, mode).unwrap();
            let bytes = cert.to_bytes();
            let cert = Certificate::from_bytes(&bytes).unwrap();
            assert_eq!(cert.to_bytes(), bytes, "deterministic encoding");
            let threshold = Threshold { signers: members.len() as u64, stake };
            let verified = verify(committee.key(), &cert, MESSAGE, &threshold).unwrap();
            assert_eq!(verified.count, members.len());
            assert_eq!(verified.stake, stake);
            assert_eq!(verified.mode, mode);
            assert_eq!(verified.signers.is_some(), mode == Mode::Accountable);
            if let Some(b) = verified.signers {
                assert_eq!(b, signers);
            }
            assert!(!verified.insecure_setup, "a verified ceremony is not the development setup");
            // The same statement one signer short of the threshold is refused.
            let higher = Threshold { signers: members.len() as u64 + 1, stake: None };
            assert!(matches!(verify(committee.key(), &cert, MESSAGE, &higher), Err(CertError::BelowThreshold { .. })));
        }
    }
}

#[test]
fn one_member_committee() {
    certify_and_verify(1, &[0]);
}

#[test]
fn three_member_committee() {
    certify_and_verify(3, &[0, 2]);
    certify_and_verify(3, &[0, 1, 2]);
}

#[test]
fn committee_of_2001_with_1602_signers() {
    // Every fifth member absent, 399 in all.
    let members: Vec<usize> = (0..2001).filter(|i| i % 5 != 3 || *i >= 1995).collect();
    assert_eq!(members.len(), 1602);
    certify_and_verify(2001, &members);
}

/// A committee of 5, a prover, and a certificate of members 0, 2, 3.
struct Fixture {
    sks: Vec<SecretKey>,
    setup: sigagg_bls_cert::Setup,
    committee: Committee,
}

fn fixture(weighted: bool) -> Fixture {
    let sks = secret_keys(5, 100);
    let setup = setup_for(8); // room for the 6-member committee of another_committee_is_refused
    let committee = committee(&setup, &sks, weighted);
    Fixture { sks, setup, committee }
}

const MEMBERS: [usize; 3] = [0, 2, 3];

impl Fixture {
    fn certificate(&self, mode: Mode) -> Certificate {
        let prover = Prover::new(&self.setup, &self.committee).unwrap();
        let sigs = signatures(&self.sks, &MEMBERS, MESSAGE);
        prover.certify(MESSAGE, Signed::Signatures(&sigs), mode).unwrap()
    }
}

#[test]
fn another_message_is_refused() {
    let f = fixture(false);
    for mode in MODES {
        let cert = f.certificate(mode);
        assert!(verify(f.committee.key(), &cert, MESSAGE, &Threshold::signers(3)).is_ok());
        // The message is bound in the proof's transcript, so the proof fails first.
        assert_eq!(
            verify(f.committee.key(), &cert, b"another message", &Threshold::signers(3)),
            Err(CertError::ProofRejected)
        );
    }
}

#[test]
fn another_committee_is_refused() {
    let f = fixture(false);
    let same_size = committee(&f.setup, &secret_keys(5, 999), false);
    let other_size = committee(&f.setup, &secret_keys(6, 100), false);
    let weighted = committee(&f.setup, &f.sks, true);
    for mode in MODES {
        let cert = f.certificate(mode);
        assert_eq!(verify(same_size.key(), &cert, MESSAGE, &Threshold::signers(1)), Err(CertError::ProofRejected));
        assert_eq!(
            verify(other_size.key(), &cert, MESSAGE, &Threshold::signers(1)),
            Err(CertError::CommitteeMismatch("committee size"))
        );
        assert_eq!(
            verify(weighted.key(), &cert, MESSAGE, &Threshold::signers(1)),
            Err(CertError::CommitteeMismatch("stake weights"))
        );
    }
}

#[test]
fn thresholds_are_enforced() {
    let f = fixture(true);
    for mode in MODES {
        let cert = f.certificate(mode);
        let stake = MEMBERS.iter().map(|i| *i as u64 + 1).sum::<u64>(); // 1 + 3 + 4
        assert!(verify(f.committee.key(), &cert, MESSAGE, &Threshold::with_stake(3, stake)).is_ok());
        assert_eq!(
            verify(f.committee.key(), &cert, MESSAGE, &Threshold::signers(4)),
            Err(CertError::BelowThreshold { count: 3, threshold: 4 })
        );
        assert_eq!(
            verify(f.committee.key(), &cert, MESSAGE, &Threshold::with_stake(1, stake + 1)),
            Err(CertError::StakeBelowThreshold { stake, threshold: stake + 1 })
        );
    }
    let unweighted = fixture(false);
    let cert = unweighted.certificate(Mode::Counting);
    assert_eq!(
        verify(unweighted.committee.key(), &cert, MESSAGE, &Threshold::with_stake(1, 1)),
        Err(CertError::NoStake)
    );
}

#[test]
fn a_forged_aggregate_key_is_refused() {
    let f = fixture(false);
    let prover = Prover::new(&f.setup, &f.committee).unwrap();
    let sigs = signatures(&f.sks, &MEMBERS, MESSAGE);
    let outsider = SecretKey::from_key_material(&[9; 32]).unwrap();
    for mode in MODES {
        // The statement names another key; the witness is the honest one.
        let mut draft = prover.draft(MESSAGE, Signed::Signatures(&sigs), mode).unwrap();
        draft.aggregate_key = outsider.public_key();
        draft.signature = outsider.sign(MESSAGE);
        let cert = prover.prove_draft(&draft, MESSAGE);
        assert_eq!(verify(f.committee.key(), &cert, MESSAGE, &Threshold::signers(1)), Err(CertError::ProofRejected));
        // An honest certificate whose key and signature are swapped afterwards.
        let honest = prover.certify(MESSAGE, Signed::Signatures(&sigs), mode).unwrap().to_bytes();
        let mut swapped = honest.clone();
        let layout = Certificate::from_bytes(&honest).unwrap().layout();
        let range = |name: &str| layout.iter().find(|(n, _)| *n == name).unwrap().1.clone();
        swapped[range("aggregate key")].copy_from_slice(&outsider.public_key().to_bytes());
        swapped[range("signature")].copy_from_slice(&outsider.sign(MESSAGE).to_bytes());
        let cert = Certificate::from_bytes(&swapped).unwrap();
        assert_eq!(verify(f.committee.key(), &cert, MESSAGE, &Threshold::signers(1)), Err(CertError::ProofRejected));
    }
}

#[test]
fn a_signature_not_matching_the_key_is_refused_by_the_pairing() {
    let f = fixture(false);
    let prover = Prover::new(&f.setup, &f.committee).unwrap();
    let sigs = signatures(&f.sks, &MEMBERS, MESSAGE);
    for mode in MODES {
        let mut draft = prover.draft(MESSAGE, Signed::Signatures(&sigs), mode).unwrap();
        draft.signature = f.sks[1].sign(MESSAGE); // member 1 did not sign: not the aggregate's signature
        let cert = prover.prove_draft(&draft, MESSAGE);
        assert_eq!(
            verify(f.committee.key(), &cert, MESSAGE, &Threshold::signers(1)),
            Err(CertError::SignatureRejected)
        );
    }
}

#[test]
fn a_bitfield_changed_after_proving_is_refused() {
    let f = fixture(false);
    let cert = f.certificate(Mode::Accountable);
    let bytes = cert.to_bytes();
    let range = cert.layout().into_iter().find(|(n, _)| *n == "bitfield").unwrap().1;
    // Members 0, 2, 3 = 0b01101. Add a signer (count mismatch), or move one (same count).
    for (new_bits, expected) in [
        (0b01111u8, CertError::CountMismatch { count: 3, bitfield: 4 }),
        (0b11001, CertError::ProofRejected),
        (0b00111, CertError::ProofRejected),
    ] {
        let mut tampered = bytes.clone();
        tampered[range.start] = new_bits;
        let cert = Certificate::from_bytes(&tampered).unwrap();
        assert_eq!(verify(f.committee.key(), &cert, MESSAGE, &Threshold::signers(1)), Err(expected));
    }
}

#[test]
fn every_byte_class_flipped_is_refused() {
    for weighted in [false, true] {
        let f = fixture(weighted);
        for mode in MODES {
            let cert = f.certificate(mode);
            let bytes = cert.to_bytes();
            for (name, range) in cert.layout() {
                for at in [range.start, range.start + range.len() / 2, range.end - 1] {
                    for bit in [0u8, 5] {
                        let mut tampered = bytes.clone();
                        tampered[at] ^= 1 << bit;
                        let outcome = Certificate::from_bytes(&tampered)
                            .and_then(|c| verify(f.committee.key(), &c, MESSAGE, &Threshold::signers(1)));
                        assert!(
                            outcome.is_err(),
                            "{mode:?} weighted={weighted}: flipping bit {bit} of byte {at} ({name}) was accepted"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn truncated_or_extended_encodings_are_refused() {
    let f = fixture(true);
    for mode in MODES {
        let bytes = f.certificate(mode).to_bytes();
        for len in [0, 5, 9, 30, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                matches!(
                    Certificate::from_bytes(&bytes[..len]),
                    Err(CertError::WrongLength { .. } | CertError::BadMagic { .. })
                ),
                "truncated to {len}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(Certificate::from_bytes(&longer), Err(CertError::WrongLength { .. })));
    }
    let key = f.committee.key().to_bytes();
    assert!(matches!(
        sigagg_bls_cert::CommitteeKey::from_bytes(&key[..key.len() - 1]),
        Err(CertError::WrongLength { .. })
    ));
    let committee = f.committee.to_bytes();
    assert!(matches!(Committee::from_bytes(&committee[..committee.len() - 3]), Err(CertError::WrongLength { .. })));
    let mut extended = committee.clone();
    extended.push(1);
    assert!(matches!(Committee::from_bytes(&extended), Err(CertError::WrongLength { .. })));
    // The verifier's reading of a committee file checks its length too.
    assert_eq!(Committee::key_from_bytes(&committee).unwrap(), *f.committee.key());
    assert!(matches!(Committee::key_from_bytes(&committee[..committee.len() - 3]), Err(CertError::WrongLength { .. })));
    assert!(matches!(Committee::key_from_bytes(&extended), Err(CertError::WrongLength { .. })));
}

#[test]
fn parameters_from_another_setup_are_refused() {
    let f = fixture(false);
    let mut other = sigagg_bls_cert::Setup::ceremony_start(f.setup.powers()).unwrap();
    other.contribute(b"another setup's entropy, thirty-two bytes or more").unwrap();
    // The prover refuses to use a setup the committee key was not made with.
    assert!(matches!(Prover::new(&other, &f.committee), Err(CertError::SetupMismatch)));
    assert_eq!(f.committee.key().check_setup(&other.key()), Err(CertError::SetupMismatch));
    // The same committee under the other setup does not accept the certificate.
    let registry = f.committee.registry().clone();
    let under_other = Committee::new(&other, registry, None).unwrap();
    assert!(!under_other.key().is_insecure());
    for mode in MODES {
        let cert = f.certificate(mode);
        assert_eq!(verify(under_other.key(), &cert, MESSAGE, &Threshold::signers(1)), Err(CertError::ProofRejected));
    }
    // A committee's stored key checked against the keys under each setup.
    assert!(under_other.check_key(&other).is_ok());
    assert_eq!(f.committee.check_key(&other), Err(CertError::CommitteeKeyMismatch));
}

#[test]
fn the_prover_refuses_bad_inputs() {
    let f = fixture(false);
    let prover = Prover::new(&f.setup, &f.committee).unwrap();
    let outsider = SecretKey::from_key_material(&[0xee; 32]).unwrap();
    let mut sigs = signatures(&f.sks, &[0, 1], MESSAGE);
    sigs.push((outsider.public_key(), outsider.sign(MESSAGE)));
    let key = hex::encode(outsider.public_key().to_bytes());
    assert_eq!(
        prover.certify(MESSAGE, Signed::Signatures(&sigs), Mode::Counting),
        Err(CertError::UnknownSigner { key })
    );

    let mut twice = signatures(&f.sks, &[0, 1], MESSAGE);
    twice.push(twice[1]);
    assert_eq!(
        prover.certify(MESSAGE, Signed::Signatures(&twice), Mode::Counting),
        Err(CertError::DuplicateSigner { index: 1 })
    );

    assert_eq!(prover.certify(MESSAGE, Signed::Signatures(&[]), Mode::Counting), Err(CertError::NoSigners));

    let mut forged = signatures(&f.sks, &[0, 1, 4], MESSAGE);
    forged[2].1 = f.sks[4].sign(b"something else");
    assert_eq!(
        prover.certify(MESSAGE, Signed::Signatures(&forged), Mode::Counting),
        Err(CertError::InvalidSignature { position: 2 })
    );

    let aggregate = aggregate_of(&f.sks, &[0, 1], MESSAGE);
    let wrong_signers = bitfield(5, &[0, 2]);
    assert_eq!(
        prover.certify(
            MESSAGE,
            Signed::Aggregate { signers: &wrong_signers, signature: &aggregate },
            Mode::Accountable
        ),
        Err(CertError::InvalidAggregateSignature)
    );
    let short = bitfield(4, &[0, 1]);
    assert_eq!(
        prover.certify(MESSAGE, Signed::Aggregate { signers: &short, signature: &aggregate }, Mode::Accountable),
        Err(CertError::BitfieldLength { expected: 5, got: 4 })
    );
    let nobody = bitfield(5, &[]);
    assert_eq!(
        prover.certify(MESSAGE, Signed::Aggregate { signers: &nobody, signature: &aggregate }, Mode::Accountable),
        Err(CertError::NoSigners)
    );
}

#[test]
fn committee_inputs_are_checked() {
    let setup = setup_for(5);
    let sks = secret_keys(5, 7);
    assert_eq!(
        Committee::new(&setup, registry(&sks), Some(vec![1, 2])).unwrap_err(),
        CertError::WeightsLength { keys: 5, weights: 2 }
    );
    assert_eq!(
        Committee::new(&setup, registry(&sks), Some(vec![u64::MAX, 1, 0, 0, 0])).unwrap_err(),
        CertError::StakeOverflow
    );
    assert_eq!(Committee::new(&setup, sigagg_bls::KeyRegistry::new(), None).unwrap_err(), CertError::EmptyCommittee);
    let small = sigagg_bls_cert::Setup::insecure_development(4).unwrap();
    assert!(matches!(Committee::new(&small, registry(&sks), None), Err(CertError::SetupTooSmall { .. })));
    // Committee files and keys round-trip.
    let c = committee(&setup, &sks, true);
    let back = Committee::from_bytes(&c.to_bytes()).unwrap();
    assert_eq!(back.key(), c.key());
    assert_eq!(back.weights(), c.weights());
    assert!(back.check_key(&setup).is_ok());
    assert_eq!(sigagg_bls_cert::CommitteeKey::from_bytes(&c.key().to_bytes()).unwrap(), *c.key());
    assert_eq!(c.key().setup_digest(), setup.digest(), "the key records the setup file's digest");
}

#[test]
fn development_setup_certificates_need_the_callers_opt_in() {
    let sks = secret_keys(3, 60);
    let setup = development_setup_for(3);
    let committee = committee(&setup, &sks, false);
    assert!(committee.key().is_insecure());
    let sigs = signatures(&sks, &[0, 2], MESSAGE);
    let cert =
        Prover::new(&setup, &committee).unwrap().certify(MESSAGE, Signed::Signatures(&sigs), Mode::Counting).unwrap();
    let threshold = Threshold::signers(2);
    assert_eq!(verify(committee.key(), &cert, MESSAGE, &threshold), Err(CertError::InsecureSetup));
    let verified =
        sigagg_bls_cert::verify_allowing_insecure_setup(committee.key(), &cert, MESSAGE, &threshold).unwrap();
    assert!(verified.insecure_setup && verified.count == 2);
}
