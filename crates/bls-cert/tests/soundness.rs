//! Cheating provers: witnesses and statements built without the prover's
//! checks, proven anyway with `Prover::prove_draft`, must fail verification.
//!
//! Each forgery is made consistent at the BLS level (its aggregate
//! signature verifies under its claimed aggregate key), so the only thing
//! standing between it and an inflated count or a foreign key is the
//! succinct proof: the constraint the test targets.

mod common;

use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{AdditiveGroup, Field};
use ark_serialize::CanonicalSerialize;
use common::*;
use sigagg_bls::{PublicKey, SecretKey, Signature, aggregate};
use sigagg_bls_cert::field::{F, KeyPoint, key_point, seed_point};
use sigagg_bls_cert::{CertError, Certificate, Draft, Mode, Prover, Signed, Threshold, Witness, verify};

const N: usize = 6;
const MEMBERS: [usize; 3] = [0, 2, 3];

struct Setup {
    sks: Vec<SecretKey>,
    setup: sigagg_bls_cert::Setup,
    committee: sigagg_bls_cert::Committee,
}

fn fixture(weighted: bool) -> Setup {
    let sks = secret_keys(N, 40);
    let setup = setup_for(N);
    let committee = committee(&setup, &sks, weighted);
    Setup { sks, setup, committee }
}

impl Setup {
    fn draft(&self, prover: &Prover<'_>, mode: Mode) -> Draft {
        let sigs = signatures(&self.sks, &MEMBERS, MESSAGE);
        prover.draft(MESSAGE, Signed::Signatures(&sigs), mode).unwrap()
    }

    fn check(&self, prover: &Prover<'_>, draft: &Draft) -> Result<sigagg_bls_cert::Verified, CertError> {
        let cert: Certificate = prover.prove_draft(draft, MESSAGE);
        let cert = Certificate::from_bytes(&cert.to_bytes()).unwrap();
        verify(self.committee.key(), &cert, MESSAGE, &Threshold::signers(1))
    }

    /// The point of each row: the member keys, then G1's generator.
    fn row_points(&self, rows: usize) -> Vec<KeyPoint> {
        let mut points: Vec<KeyPoint> = self.sks.iter().map(|sk| key_point(&sk.public_key())).collect();
        points.resize(rows, KeyPoint::generator());
        points
    }
}

/// The accumulator a cheater computes for arbitrary small integer bits:
/// `acc_{i+1} = acc_i + b_i·P_i`, from the seed.
fn accumulate(points: &[KeyPoint], bits: &[u64]) -> (Vec<F>, Vec<F>) {
    let mut acc = seed_point().into_group();
    let mut rows = vec![acc];
    for i in 0..bits.len() - 1 {
        acc += points[i] * ark_bls12_381::Fr::from(bits[i]);
        rows.push(acc);
    }
    ark_bls12_381::G1Projective::normalize_batch(&rows).iter().map(|p| p.xy().unwrap()).unzip()
}

fn running_sum(weights: &[F], bits: &[u64]) -> Vec<F> {
    let mut sum = vec![F::ZERO];
    for i in 0..bits.len() - 1 {
        let last = sum[i];
        sum.push(last + weights[i] * F::from(bits[i]));
    }
    sum
}

fn public_key(p: &KeyPoint) -> PublicKey {
    let mut bytes = Vec::new();
    p.serialize_compressed(&mut bytes).unwrap();
    PublicKey::from_bytes(&bytes).unwrap()
}

/// `H(m)`: the signature of the secret key 1, whose public key is G1's generator.
fn hash_of_message() -> Signature {
    let mut one = [0u8; 32];
    one[31] = 1;
    SecretKey::from_bytes(&one).unwrap().sign(MESSAGE)
}

/// A draft whose bits are the given integers (one per row), with the
/// accumulator, running sum, aggregate key and count a cheater derives.
fn cheating_draft(f: &Setup, prover: &Prover<'_>, bits: &[u64], signature: Signature) -> Draft {
    let mut draft = f.draft(prover, Mode::Counting);
    let rows = draft.witness.bits.len();
    let points = f.row_points(rows);
    let (acc_x, acc_y) = accumulate(&points, bits);
    let selector: Vec<F> = (0..rows).map(|i| F::from(u64::from(i < N))).collect();
    let apk = points
        .iter()
        .zip(bits)
        .fold(KeyPoint::zero().into_group(), |acc, (p, b)| acc + *p * ark_bls12_381::Fr::from(*b));
    draft.witness =
        Witness { bits: bits.iter().map(|b| F::from(*b)).collect(), acc_x, acc_y, sum: running_sum(&selector, bits) };
    draft.count = (0..N).map(|i| bits[i] as usize).sum();
    draft.aggregate_key = public_key(&apk.into_affine());
    draft.signature = signature;
    assert!(
        draft.signature.verify(&draft.aggregate_key, MESSAGE).is_ok(),
        "the forgery is consistent at the BLS level"
    );
    draft
}

fn honest_bits(rows: usize) -> Vec<u64> {
    let mut bits = vec![0u64; rows];
    for m in MEMBERS {
        bits[m] = 1;
    }
    bits
}

#[test]
fn the_harness_proves_honest_and_cheater_made_witnesses_alike() {
    // With the honest bits, the cheater's own recomputation of the witness is
    // the honest witness, and it verifies: the failures below are the
    // corruption's, not the harness's.
    let f = fixture(false);
    let prover = Prover::new(&f.setup, &f.committee).unwrap();
    let honest = f.draft(&prover, Mode::Counting);
    let rows = honest.witness.bits.len();
    let sig = aggregate_of(&f.sks, &MEMBERS, MESSAGE);
    let rebuilt = cheating_draft(&f, &prover, &honest_bits(rows), sig);
    assert_eq!(rebuilt.witness, honest.witness);
    assert!(f.check(&prover, &rebuilt).is_ok());
}

#[test]
fn a_non_boolean_bit_is_refused() {
    // Member 2's bit is 2: its key is added twice and counted twice, so
    // three signers claim a count of four.
    let f = fixture(false);
    let prover = Prover::new(&f.setup, &f.committee).unwrap();
    let rows = f.draft(&prover, Mode::Counting).witness.bits.len();
    let mut bits = honest_bits(rows);
    bits[2] = 2;
    let twice: Vec<Signature> = [0, 2, 2, 3].iter().map(|&i| f.sks[i].sign(MESSAGE)).collect();
    let draft = cheating_draft(&f, &prover, &bits, aggregate(&twice).unwrap());
    assert_eq!(draft.count, 4);
    assert_eq!(f.check(&prover, &draft), Err(CertError::ProofRejected));
}

#[test]
fn a_bit_on_a_padding_row_is_refused() {
    // Row N (past the committee) holds G1's generator, whose secret key is 1:
    // anyone can sign for it. Setting its bit would smuggle it into the
    // aggregate key; the selected booleanity b·(s - b) forbids it.
    let f = fixture(false);
    let prover = Prover::new(&f.setup, &f.committee).unwrap();
    let rows = f.draft(&prover, Mode::Counting).witness.bits.len();
    assert!(rows > N + 1);
    let mut bits = honest_bits(rows);
    bits[N] = 1;
    let sig = aggregate(&[aggregate_of(&f.sks, &MEMBERS, MESSAGE), hash_of_message()]).unwrap();
    let draft = cheating_draft(&f, &prover, &bits, sig);
    assert_eq!(draft.count, 3);
    assert_eq!(f.check(&prover, &draft), Err(CertError::ProofRejected));
}

#[test]
fn wrong_partial_sums_are_refused() {
    for (weighted, mode) in [(false, Mode::Counting), (true, Mode::Counting), (true, Mode::Accountable)] {
        let f = fixture(weighted);
        let prover = Prover::new(&f.setup, &f.committee).unwrap();
        // Every partial sum past row 1 one higher: a count of 4 (or with
        // stake, the packed sum's count digit) from three signers.
        let mut draft = f.draft(&prover, mode);
        for t in draft.witness.sum.iter_mut().skip(2) {
            *t += F::ONE;
        }
        draft.count += 1;
        if mode == Mode::Accountable {
            // The public bitfield must agree with the count: move the lie
            // into the stake digit instead.
            draft.count -= 1;
            for t in draft.witness.sum.iter_mut().skip(2) {
                *t += F::from(1u64 << 32) - F::ONE;
            }
            *draft.stake.as_mut().unwrap() += 1;
        }
        assert_eq!(f.check(&prover, &draft), Err(CertError::ProofRejected), "weighted={weighted} {mode:?}");
    }
}

#[test]
fn a_wrong_count_or_stake_is_refused() {
    for weighted in [false, true] {
        let f = fixture(weighted);
        let prover = Prover::new(&f.setup, &f.committee).unwrap();
        for mode in [Mode::Counting, Mode::Accountable] {
            let mut draft = f.draft(&prover, mode);
            draft.count += 1;
            let expected = if mode == Mode::Accountable {
                CertError::CountMismatch { count: 4, bitfield: 3 }
            } else {
                CertError::ProofRejected
            };
            assert_eq!(f.check(&prover, &draft), Err(expected), "weighted={weighted} {mode:?}");
            if weighted {
                let mut draft = f.draft(&prover, mode);
                *draft.stake.as_mut().unwrap() += 100;
                assert_eq!(f.check(&prover, &draft), Err(CertError::ProofRejected), "{mode:?} stake");
            }
        }
    }
}

#[test]
fn a_corrupted_accumulator_is_refused() {
    let f = fixture(false);
    let prover = Prover::new(&f.setup, &f.committee).unwrap();
    let g = KeyPoint::generator();
    for mode in [Mode::Counting, Mode::Accountable] {
        // One intermediate row moved to another curve point.
        let mut draft = f.draft(&prover, mode);
        let row = 2;
        let moved: KeyPoint = (KeyPoint::new_unchecked(draft.witness.acc_x[row], draft.witness.acc_y[row]) + g).into();
        let (x, y) = moved.xy().unwrap();
        draft.witness.acc_x[row] = x;
        draft.witness.acc_y[row] = y;
        assert_eq!(f.check(&prover, &draft), Err(CertError::ProofRejected), "{mode:?} moved row");

        // A signer's bit set but its key skipped: the aggregate key omits
        // member 3, whose signature is dropped too.
        let mut draft = f.draft(&prover, mode);
        let rows = draft.witness.bits.len();
        let points = f.row_points(rows);
        let mut skip = honest_bits(rows);
        skip[3] = 0;
        let (acc_x, acc_y) = accumulate(&points, &skip);
        draft.witness.acc_x = acc_x;
        draft.witness.acc_y = acc_y;
        draft.aggregate_key =
            sigagg_bls::aggregate_public_keys(&[f.sks[0].public_key(), f.sks[2].public_key()]).unwrap();
        draft.signature = aggregate_of(&f.sks, &[0, 2], MESSAGE);
        assert_eq!(f.check(&prover, &draft), Err(CertError::ProofRejected), "{mode:?} skipped key");

        // The accumulator started elsewhere than the seed, to shift the result.
        let mut draft = f.draft(&prover, mode);
        let shift: KeyPoint = (seed_point() + g).into();
        let mut acc = shift.into_group();
        let mut xs = vec![shift.x];
        let mut ys = vec![shift.y];
        for (point, bit) in points.iter().zip(honest_bits(rows)).take(rows - 1) {
            if bit == 1 {
                acc += point;
            }
            let p = acc.into_affine();
            xs.push(p.x);
            ys.push(p.y);
        }
        draft.witness.acc_x = xs;
        draft.witness.acc_y = ys;
        let apk_plus_g = (key_point(&draft.aggregate_key) + g).into_affine();
        draft.aggregate_key = public_key(&apk_plus_g);
        draft.signature = aggregate(&[draft.signature, hash_of_message()]).unwrap();
        assert_eq!(f.check(&prover, &draft), Err(CertError::ProofRejected), "{mode:?} shifted seed");
    }
}
