//! Regression tests for the two forgery paths an audit found, each
//! reproduced and then shown refused with a typed error.
//!
//! **A prover that knows the setup's trapdoor `τ`.** The verifier's last
//! step is one pairing check `e(A, g2) = e(B, τ·g2)`, `A = P + r·Q + ζ·W1 +
//! r·ζω·W2`, `B = W1 + r·W2`, where `P` (the batched opening at `ζ`) and `Q`
//! (the linearization's opening at `ζω`) are fixed before the batching
//! challenge `r`. Whoever knows `τ` picks any commitments and any claimed
//! evaluations, replays the transcript, and sets `W1 = P/(τ-ζ)`,
//! `W2 = Q/(τ-ζω)`: the check holds for every `r`. [`forge`] does this and
//! certifies all four members of a committee from one member's signature.
//! * `the_development_trapdoor_forges_*`: on the development setup the
//!   forgery is accepted by `verify_allowing_insecure_setup` (the attack is
//!   real and the forger right) and refused by `verify` (`InsecureSetup`);
//! * `the_forger_needs_the_trapdoor`: with a wrong `τ`, or against a
//!   ceremony committee, the same forger is refused (`ProofRejected`);
//! * `clearing_a_committee_keys_insecure_flag_*`: the key is still insecure
//!   (its `τ·g2` is the development one) and `verify` still refuses;
//! * `a_development_setup_file_with_its_flag_cleared_*`: the file decodes,
//!   but makes no committee (`NoContributions`);
//! * `tau_one_*`: the ceremony's start (`τ = 1`) makes no committee, and a
//!   committee key whose `τ·g2` is `g2` does not decode (`KnownTrapdoor`);
//!   one whose `τ·g2` is the development one decodes as insecure;
//! * `g1_powers_of_a_known_tau_*`: a verified ceremony whose G1 powers were
//!   swapped for those of a known `τ'` makes no committee
//!   (`PowersInconsistent`).
//!
//! **A rogue key.** `pk_r = a·g1 - Σ honest keys` makes the committee's
//! aggregate key `a·g1`, so `a·H(m)` passes as everyone's signature.
//! * `a_rogue_key_signs_for_everyone_in_a_fast_aggregate`: the attack;
//! * `unchecked_keys_make_no_committee`: `KeyRegistry::from_keys_unchecked`
//!   → `Committee::new` refuses (`UncheckedKeys`);
//! * `a_rogue_key_has_no_valid_proof_of_possession`: registration refuses it;
//! * `a_committee_file_with_a_rogue_key_is_refused`: `Committee::from_bytes`
//!   re-checks the proofs (`InvalidProofOfPossession`).

mod common;

use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{Field, PrimeField};
use ark_serialize::CanonicalSerialize;
use common::*;
use sha2::{Digest, Sha256, Sha512};
use sigagg_bls::{
    BlsError, KeyRegistry, PublicKey, SecretKey, Signature, aggregate_public_keys, fast_aggregate_verify,
};
use sigagg_bls_cert::codec::Writer;
use sigagg_bls_cert::field::{F, G1, G1Projective, G2, KeyPoint, key_point};
use sigagg_bls_cert::piop::proof::{ColumnCommitments, Proof};
use sigagg_bls_cert::piop::{
    Boundary, ColumnEvaluations, Shape, combined_main, linearization_coefficients, split_constraints,
};
use sigagg_bls_cert::transcript::Transcript;
use sigagg_bls_cert::{
    CertError, Certificate, Committee, CommitteeKey, Mode, Setup, SetupError, Threshold, powers_for_committee, verify,
    verify_allowing_insecure_setup,
};

/// Committee size: the forger certifies all of it from one signature.
const N: usize = 4;

// ---------------------------------------------------------------------------
// The forger.

/// What a forged certificate claims.
#[derive(Clone, Copy, Debug)]
struct Claim {
    mode: Mode,
    count: usize,
    stake: Option<u64>,
}

/// The development setup's trapdoor, recomputed from its public seed
/// (`setup.rs`: `development_tau`, `INSECURE_TAU_SEED`).
fn development_tau() -> F {
    F::from_be_bytes_mod_order(&Sha512::digest(b"sigagg-bls-cert/v1/INSECURE-development-setup"))
}

/// The certificate's statement in its encoding (`certificate.rs`): magic,
/// version, mode, flags, committee size, count, stake, apk, σ, bitfield.
/// In accountable mode the signers are the first `count` rows.
fn statement_bytes(key: &CommitteeKey, claim: Claim, apk: &PublicKey, signature: &Signature) -> Vec<u8> {
    let mut bytes = b"SGBLSCRT".to_vec();
    bytes.push(1);
    bytes.push(match claim.mode {
        Mode::Accountable => 0,
        Mode::Counting => 1,
    });
    bytes.push(u8::from(claim.stake.is_some()));
    bytes.extend((key.size() as u32).to_le_bytes());
    bytes.extend((claim.count as u32).to_le_bytes());
    if let Some(stake) = claim.stake {
        bytes.extend(stake.to_le_bytes());
    }
    bytes.extend(apk.to_bytes());
    bytes.extend(signature.to_bytes());
    if claim.mode == Mode::Accountable {
        let rows: Vec<usize> = (0..claim.count).collect();
        bytes.extend(bitfield(key.size(), &rows).to_bytes());
    }
    bytes
}

fn g1_times(k: u64) -> G1 {
    (G1::generator() * F::from(k)).into_affine()
}

/// A certificate for `claim` with aggregate key `apk` and signature `σ`
/// (one member's key and signature: the BLS check passes), made by a
/// prover who knows the setup's trapdoor `tau` and nothing else: its
/// column and quotient commitments are small multiples of `g1`, its
/// evaluations are arbitrary numbers, and its two opening proofs are
/// solved for with `τ` so that the verifier's pairing check holds.
fn forge(
    key: &CommitteeKey,
    tau: F,
    message: &[u8],
    apk: &PublicKey,
    signature: &Signature,
    claim: Claim,
) -> Certificate {
    let shape = Shape { counting: claim.mode == Mode::Counting, stake: claim.stake.is_some() };
    let statement = statement_bytes(key, claim, apk, signature);
    let mut t = Transcript::new(b"bls-threshold-certificate");
    t.absorb(b"committee", &key.to_bytes());
    t.absorb(b"statement", &statement);
    t.absorb(b"message", message);

    // Any commitments.
    let columns = ColumnCommitments {
        bits: shape.counting.then(|| g1_times(2)),
        acc_x: g1_times(3),
        acc_y: g1_times(5),
        sum: shape.has_sum().then(|| g1_times(7)),
    };
    for c in columns.to_vec() {
        t.absorb_value(b"column", &c);
    }
    let alphas = t.challenges(b"alpha", shape.constraints());
    let quotient = [g1_times(11), g1_times(13), g1_times(17)];
    for q in &quotient {
        t.absorb_value(b"quotient", q);
    }
    let zeta = t.challenge(b"zeta");
    let domain = key.domain();
    let at_zeta = domain.evaluate_at(zeta).expect("ζ lies outside H but with negligible probability");

    // Any evaluations; the quotient's value at ζ follows from them, as the
    // verifier computes it.
    let f = |k: u64| F::from(k);
    let evaluations = ColumnEvaluations {
        key_x: f(19),
        key_y: f(23),
        selector: shape.counting.then(|| f(29)),
        weight: shape.stake.then(|| f(31)),
        bits: shape.counting.then(|| f(37)),
        acc_x: f(41),
        acc_y: f(43),
        sum: shape.has_sum().then(|| f(47)),
    };
    let lin_at_shifted = f(53);
    let bits_at_zeta = match evaluations.bits {
        Some(bits) => bits,
        None => domain.indicator_at(0..claim.count, zeta),
    };
    let boundary = Boundary::new(&key_point(apk), claim.count as u64, claim.stake.unwrap_or(0));
    let split = split_constraints(shape, &evaluations.row_at(bits_at_zeta, &at_zeta), &boundary);
    let [cx, cy, ct] = linearization_coefficients(&split, &alphas);
    let quotient_at_zeta = (combined_main(&split, &alphas) + lin_at_shifted) * at_zeta.vanishing_inv;
    let values = evaluations.to_vec();
    for v in &values {
        t.absorb_value(b"evaluation", v);
    }
    t.absorb_value(b"linearization", &lin_at_shifted);
    let nus = t.challenges(b"nu", values.len() + 1);
    let nu_q = nus[values.len()];

    // P: the batched commitments opened at ζ minus their batched value.
    let fixed = key.commitments();
    let mut opened = vec![fixed.key_x, fixed.key_y];
    if shape.counting {
        opened.push(fixed.selector);
    }
    opened.extend(fixed.weight);
    opened.extend(columns.to_vec());
    let g1 = G1::generator();
    let opened_value: F = values.iter().zip(&nus).map(|(v, nu)| *v * nu).sum::<F>() + nu_q * quotient_at_zeta;
    let z_n = at_zeta.z_n;
    let mut p: G1Projective = opened.iter().zip(&nus).map(|(c, nu)| *c * nu).sum();
    p += quotient[0] * nu_q + quotient[1] * (nu_q * z_n) + quotient[2] * (nu_q * z_n * z_n);
    p -= g1 * opened_value;
    // Q: the linearization's commitment minus its value at ζω.
    let mut q = columns.acc_x * cx + columns.acc_y * cy - g1 * lin_at_shifted;
    if let Some(sum) = columns.sum {
        q += sum * ct;
    }
    // τ·W = C - y·g1 + x·W, solved for W.
    let opening_at_zeta = (p * (tau - zeta).inverse().expect("τ ≠ ζ")).into_affine();
    let opening_at_shifted = (q * (tau - zeta * domain.omega()).inverse().expect("τ ≠ ζω")).into_affine();

    let proof = Proof { columns, quotient, evaluations, lin_at_shifted, opening_at_zeta, opening_at_shifted };
    let mut w = Writer::default();
    proof.write(&mut w);
    let bytes = [statement, w.finish()].concat();
    let cert = Certificate::from_bytes(&bytes).expect("the forgery is a well-formed certificate");
    assert_eq!(cert.to_bytes(), bytes, "the forger writes the encoding the decoder reads");
    cert
}

// ---------------------------------------------------------------------------
// Fixtures.

/// A committee of `N` keys with proofs of possession on `setup`, and member
/// 0's key and signature on [`MESSAGE`].
fn committee_on(setup: &Setup, weighted: bool) -> (Committee, PublicKey, Signature) {
    let sks = secret_keys(N, 900);
    let committee = committee(setup, &sks, weighted);
    (committee, sks[0].public_key(), sks[0].sign(MESSAGE))
}

/// All `N` members, in `mode`, with the whole stake if weighted.
fn everyone(key: &CommitteeKey, mode: Mode) -> Claim {
    Claim { mode, count: N, stake: key.total_stake() }
}

fn development_setup() -> Setup {
    Setup::insecure_development(powers_for_committee(N).unwrap()).unwrap()
}

/// A setup file with its checksum (its last 32 bytes) recomputed, as
/// anyone who edits it does.
fn reseal(mut file: Vec<u8>) -> Vec<u8> {
    let body = file.len() - 32;
    let checksum = Sha256::digest(&file[..body]);
    file[body..].copy_from_slice(&checksum);
    file
}

fn compressed(value: &impl CanonicalSerialize) -> Vec<u8> {
    let mut bytes = Vec::new();
    value.serialize_compressed(&mut bytes).unwrap();
    bytes
}

/// Committee key encoding: magic (8) · version · flags · `u32 n` · `u32 N`
/// · `g1`, `g2`, `τ·g2` (97 bytes each, compressed) · …
const KEY_FLAGS: usize = 9;
const KEY_FLAG_INSECURE: u8 = 2;
const KEY_G2: std::ops::Range<usize> = 18 + 97..18 + 2 * 97;
const KEY_TAU_G2: std::ops::Range<usize> = 18 + 2 * 97..18 + 3 * 97;

/// Setup file: header (20 bytes) · `g2`, `τ·g2` · the G1 powers (193 bytes
/// each, uncompressed) · contributions · checksum; flags at offset 9.
const SETUP_FLAGS: usize = 9;
const SETUP_G1_POWERS: usize = 20 + 2 * 193;

// ---------------------------------------------------------------------------
// A prover that knows τ.

#[test]
fn the_development_trapdoor_forges_a_certificate_for_every_member() {
    let setup = development_setup();
    let tau = development_tau();
    assert_eq!((G2::generator() * tau).into_affine(), setup.key().tau_g2, "the forger's τ is the setup's");
    for weighted in [false, true] {
        let (committee, signer, signature) = committee_on(&setup, weighted);
        let key = committee.key();
        assert!(key.is_insecure());
        for mode in [Mode::Counting, Mode::Accountable] {
            let claim = everyone(key, mode);
            let cert = forge(key, tau, MESSAGE, &signer, &signature, claim);
            let threshold = Threshold { signers: N as u64, stake: claim.stake };
            // The attack is real: one signature, certified as all four.
            let verified = verify_allowing_insecure_setup(key, &cert, MESSAGE, &threshold)
                .unwrap_or_else(|e| panic!("forgery {claim:?} refused: {e}"));
            assert_eq!(verified.count, N);
            assert_eq!(verified.stake, claim.stake);
            assert!(verified.insecure_setup);
            // … and `verify` does not let it through.
            assert_eq!(verify(key, &cert, MESSAGE, &threshold), Err(CertError::InsecureSetup));
        }
    }
}

#[test]
fn the_forger_needs_the_trapdoor() {
    let tau = development_tau();
    // A wrong τ against the development committee.
    let (committee, signer, signature) = committee_on(&development_setup(), false);
    let key = committee.key();
    for mode in [Mode::Counting, Mode::Accountable] {
        let cert = forge(key, tau + F::ONE, MESSAGE, &signer, &signature, everyone(key, mode));
        assert_eq!(
            verify_allowing_insecure_setup(key, &cert, MESSAGE, &Threshold::signers(N as u64)),
            Err(CertError::ProofRejected)
        );
    }
    // The development τ against a ceremony committee, whose τ nobody knows.
    let (committee, signer, signature) = committee_on(&setup_for(N), false);
    let key = committee.key();
    assert!(!key.is_insecure());
    for mode in [Mode::Counting, Mode::Accountable] {
        let cert = forge(key, tau, MESSAGE, &signer, &signature, everyone(key, mode));
        assert_eq!(verify(key, &cert, MESSAGE, &Threshold::signers(N as u64)), Err(CertError::ProofRejected));
    }
}

#[test]
fn clearing_a_committee_keys_insecure_flag_does_not_make_it_secure() {
    let (committee, signer, signature) = committee_on(&development_setup(), false);
    let mut bytes = committee.key().to_bytes();
    assert_eq!(bytes[KEY_FLAGS], KEY_FLAG_INSECURE, "no stake, insecure");
    bytes[KEY_FLAGS] &= !KEY_FLAG_INSECURE;
    let key = CommitteeKey::from_bytes(&bytes).unwrap();
    assert!(key.is_insecure(), "its τ·g2 is the development setup's");
    assert!(key.setup().insecure);
    assert_eq!(&key, committee.key());

    let cert = forge(&key, development_tau(), MESSAGE, &signer, &signature, everyone(&key, Mode::Counting));
    let threshold = Threshold::signers(N as u64);
    assert_eq!(verify_allowing_insecure_setup(&key, &cert, MESSAGE, &threshold).unwrap().count, N);
    assert_eq!(verify(&key, &cert, MESSAGE, &threshold), Err(CertError::InsecureSetup));
}

#[test]
fn a_development_setup_file_with_its_flag_cleared_makes_no_committee() {
    let mut file = development_setup().to_bytes();
    assert_eq!(file[SETUP_FLAGS], 1, "the insecure flag");
    file[SETUP_FLAGS] = 0;
    assert_eq!(Setup::from_bytes(&file).unwrap_err(), SetupError::ChecksumMismatch.into());
    let setup = Setup::from_bytes(&reseal(file)).unwrap();
    assert!(setup.is_insecure(), "its τ is the development one whatever the flag says");
    assert!(setup.contributions().is_empty());
    assert_eq!(setup.check_for_committees(), Err(SetupError::NoContributions));
    let sks = secret_keys(N, 900);
    assert_eq!(
        Committee::new(&setup, registry(&sks), None).unwrap_err(),
        CertError::Setup(SetupError::NoContributions)
    );
}

#[test]
fn tau_one_setups_and_committee_keys_are_refused() {
    // The ceremony's start: every power is the generator.
    let start = Setup::ceremony_start(powers_for_committee(N).unwrap()).unwrap();
    assert_eq!(start.key().tau_g2, start.key().g2);
    let sks = secret_keys(N, 900);
    assert_eq!(
        Committee::new(&start, registry(&sks), None).unwrap_err(),
        CertError::Setup(SetupError::NoContributions)
    );

    // A ceremony committee key whose τ·g2 is overwritten with g2.
    let (committee, _, _) = committee_on(&setup_for(N), false);
    let bytes = committee.key().to_bytes();
    assert_eq!(bytes[KEY_G2], compressed(&G2::generator())[..], "the offsets of the encoding");
    assert_eq!(bytes[KEY_TAU_G2], compressed(&committee.key().setup().tau_g2)[..]);
    let mut tau_one = bytes.clone();
    tau_one.copy_within(KEY_G2, KEY_TAU_G2.start);
    assert_eq!(CommitteeKey::from_bytes(&tau_one).unwrap_err(), CertError::Setup(SetupError::KnownTrapdoor));

    // … or with the development τ·g2, its insecure flag clear: insecure.
    let mut development = bytes;
    development[KEY_TAU_G2].copy_from_slice(&compressed(&development_setup().key().tau_g2));
    assert_eq!(development[KEY_FLAGS] & KEY_FLAG_INSECURE, 0);
    let key = CommitteeKey::from_bytes(&development).unwrap();
    assert!(key.is_insecure());
    let (signer, signature) = (sks[0].public_key(), sks[0].sign(MESSAGE));
    let cert = forge(&key, development_tau(), MESSAGE, &signer, &signature, everyone(&key, Mode::Counting));
    assert_eq!(verify(&key, &cert, MESSAGE, &Threshold::signers(1)), Err(CertError::InsecureSetup));
}

#[test]
fn g1_powers_of_a_known_tau_beside_a_genuine_tau_g2_make_no_committee() {
    let powers = powers_for_committee(N).unwrap();
    let mut ceremony = Setup::ceremony_start(powers).unwrap();
    ceremony.contribute(&[0x42; 64]).unwrap();
    ceremony.check_for_committees().unwrap();
    let known = Setup::insecure_development(powers).unwrap().to_bytes();

    let mut file = ceremony.to_bytes();
    let g1_powers = SETUP_G1_POWERS..SETUP_G1_POWERS + powers * 193;
    file[g1_powers.clone()].copy_from_slice(&known[g1_powers]);
    let spliced = Setup::from_bytes(&reseal(file)).unwrap();
    assert_eq!(spliced.powers_g1(), development_setup().powers_g1(), "G1 powers of the development τ");
    assert_eq!(spliced.key().tau_g2, ceremony.key().tau_g2, "beside the ceremony's τ·g2");
    assert_eq!(spliced.contributions(), ceremony.contributions());
    assert!(!spliced.is_insecure());

    let sks = secret_keys(N, 900);
    let refused = Committee::new(&spliced, registry(&sks), None).unwrap_err();
    assert_eq!(refused, CertError::Setup(SetupError::PowersInconsistent));
}

// ---------------------------------------------------------------------------
// A rogue key.

/// Three honest keys, the rogue author's secret `a`, and the rogue key
/// `pk_r = a·g1 - Σ honest keys`.
struct Rogue {
    honest: Vec<SecretKey>,
    author: SecretKey,
    key: PublicKey,
}

fn rogue(honest: Vec<SecretKey>) -> Rogue {
    let author = SecretKey::from_key_material(&[0x66; 32]).unwrap();
    let point =
        honest.iter().fold(key_point(&author.public_key()).into_group(), |acc, sk| acc - key_point(&sk.public_key()));
    let point: KeyPoint = point.into_affine();
    let key = PublicKey::from_bytes(&compressed(&point)).unwrap();
    Rogue { honest, author, key }
}

impl Rogue {
    /// The honest keys then the rogue one.
    fn keys(&self) -> Vec<PublicKey> {
        self.honest.iter().map(SecretKey::public_key).chain([self.key]).collect()
    }
}

#[test]
fn a_rogue_key_signs_for_everyone_in_a_fast_aggregate() {
    let r = rogue(secret_keys(N - 1, 700));
    let keys = r.keys();
    assert_eq!(aggregate_public_keys(&keys).unwrap(), r.author.public_key(), "Σ of all four keys is a·g1");
    let forged = r.author.sign(MESSAGE);
    assert_eq!(fast_aggregate_verify(&keys, MESSAGE, &forged), Ok(()), "a·H(m) passes as all four signatures");
}

#[test]
fn unchecked_keys_make_no_committee() {
    let r = rogue(secret_keys(N - 1, 700));
    let registry = KeyRegistry::from_keys_unchecked(r.keys()).unwrap();
    assert!(registry.proofs().is_none());
    for setup in [setup_for(N), development_setup()] {
        assert_eq!(Committee::new(&setup, registry.clone(), None).unwrap_err(), CertError::UncheckedKeys);
    }
}

#[test]
fn a_rogue_key_has_no_valid_proof_of_possession() {
    let r = rogue(secret_keys(N - 1, 700));
    let mut entries: Vec<_> = r.honest.iter().map(|sk| (sk.public_key(), sk.prove_possession())).collect();
    // Its author can prove possession of a, not of a - Σ honest.
    entries.push((r.key, r.author.prove_possession()));
    assert_eq!(
        KeyRegistry::from_keys_with_proofs(&entries).err(),
        Some(BlsError::InvalidProofOfPossession { index: N - 1 })
    );
    // Nor does another key's valid proof vouch for it.
    entries[N - 1].1 = r.honest[0].prove_possession();
    assert_eq!(
        KeyRegistry::from_keys_with_proofs(&entries).err(),
        Some(BlsError::InvalidProofOfPossession { index: N - 1 })
    );
}

#[test]
fn a_committee_file_with_a_rogue_key_is_refused() {
    let sks = secret_keys(N, 700);
    let committee = committee(&setup_for(N), &sks, false);
    let file = committee.to_bytes();
    assert!(Committee::from_bytes(&file).is_ok());
    // Version 2: magic (8) · version · u32 key length · key · n keys (48
    // bytes) · n proofs (96 bytes).
    let key_len = u32::from_le_bytes(file[9..13].try_into().unwrap()) as usize;
    let key_at = |i: usize| 13 + key_len + 48 * i..13 + key_len + 48 * (i + 1);
    let proof_at = |i: usize| 13 + key_len + 48 * N + 96 * i..13 + key_len + 48 * N + 96 * (i + 1);
    assert_eq!(file.len(), proof_at(N - 1).end);
    assert_eq!(file[key_at(N - 1)], sks[N - 1].public_key().to_bytes());

    // The last key becomes the rogue key against the first three.
    let r = rogue(sks[..N - 1].to_vec());
    let mut forged = file.clone();
    forged[key_at(N - 1)].copy_from_slice(&r.key.to_bytes());
    let expected = CertError::Bls(BlsError::InvalidProofOfPossession { index: N - 1 });
    assert_eq!(Committee::from_bytes(&forged).unwrap_err(), expected, "with the replaced key's proof");
    forged[proof_at(N - 1)].copy_from_slice(&r.author.prove_possession().to_bytes());
    assert_eq!(Committee::from_bytes(&forged).unwrap_err(), expected, "with the rogue author's own proof");
    // The committee key part alone still decodes: the keys are what is checked.
    assert_eq!(&Committee::key_from_bytes(&forged).unwrap(), committee.key());
}
