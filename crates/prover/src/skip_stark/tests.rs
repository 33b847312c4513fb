//! Tests of the skip STARK: valid traces verify, and each link of the
//! protocol stops its own forgery.

use super::prover::{Witnesses, partial_evaluations};
use p3_field::PrimeCharacteristicRing;

use super::*;
use crate::config::{ValMmcs, WhirSettings, transcript, val_mmcs};
use crate::poly::lagrange;
use crate::zerocheck::ZerocheckPoint;
use crate::zerocheck::toy::TestAir;

fn settings() -> WhirSettings {
    WhirSettings { first_log_arity: 4, ..WhirSettings::WHIR }
}

fn stark(log_heights: &[usize], skip: usize) -> SkipStark<ValMmcs> {
    SkipStark::new(&settings(), log_heights, &vec![4; log_heights.len()], skip, val_mmcs(0)).unwrap()
}

fn prove(stark: &SkipStark<ValMmcs>, traces: &[RowMajorMatrix<Val>]) -> SkipStarkProof<ValMmcs> {
    let air = TestAir::new();
    let airs = vec![&air; traces.len()];
    stark.prove(&airs, traces.to_vec(), &mut transcript(b"skip stark test".to_vec())).unwrap()
}

fn verify(stark: &SkipStark<ValMmcs>, proof: &SkipStarkProof<ValMmcs>) -> Result<(), SkipStarkError> {
    let air = TestAir::new();
    let airs = vec![&air; proof.tables.len()];
    stark.verify(&airs, proof, &mut transcript(b"skip stark test".to_vec()))
}

/// The partial evaluations, Lagrange-weighted, are the zerocheck's
/// blends; at the reduction's point they are the multilinear
/// evaluations of the columns (the next-row ones repeat the last row).
#[test]
fn partial_evaluations_blend_to_the_openings() {
    let air = TestAir::new();
    let trace = air.trace(7);
    let point = ZerocheckPoint {
        skip: Challenge::from_u32(12345).exp_u64(7),
        rest: (0..4).map(|i| Challenge::from_u32(i * 77 + 5).exp_u64(3)).collect(),
    };
    let transposed = trace.transpose();
    let parts = partial_evaluations(&crate::columns::Columns::of_transposed(&transposed), &[0, 1], 3, &point.rest);
    let (local, next) = crate::zerocheck::column_evaluations(&trace, &[0, 1], 3, &point);
    let l = lagrange(3, point.skip);
    for (part, blend) in parts.iter().zip(local.iter().chain(&next)) {
        assert_eq!(part.iter().zip(&l).map(|(&p, &w)| p * w).sum::<Challenge>(), *blend);
    }
}

/// Valid traces verify, one table or several of different heights.
#[test]
fn valid_traces_verify() {
    let air = TestAir::new();
    for (heights, skip) in [(vec![6], 3), (vec![8, 6, 7], 5), (vec![5], 5)] {
        let stark = stark(&heights, skip);
        let traces: Vec<_> = heights.iter().map(|&h| air.trace(h)).collect();
        let proof = prove(&stark, &traces);
        verify(&stark, &proof).unwrap_or_else(|e| panic!("{heights:?}, skip {skip}: {e}"));
    }
}

/// A broken row in any column, forced past the prover (whose bus
/// argument refuses buses that do not balance: it runs on the valid
/// traces here, everything else on the broken ones), is rejected, the
/// last row included.
#[test]
fn a_broken_trace_is_rejected() {
    let air = TestAir::new();
    let stark = stark(&[6, 5], 3);
    let valid = vec![air.trace(6), air.trace(5)];
    for (table, row, col) in [(0, 0, 0), (0, 63, 1), (1, 17, 2), (1, 31, 3), (0, 40, 3)] {
        let mut broken = valid.clone();
        broken[table].values[row * 4 + col] += Val::ONE;
        let forged =
            Witnesses { committed: &broken, gkr: &valid, shares: &valid, zerochecked: &broken, reduced: &broken };
        let proof = stark.prove_forged(&[&air, &air], &forged, &mut transcript(b"skip stark test".to_vec())).unwrap();
        assert!(verify(&stark, &proof).is_err(), "table {table}, row {row}, column {col}");
    }
}

/// A witness whose buses do not balance is refused by the prover with
/// an error, not a panic; so is one of the wrong shape.
#[test]
fn the_prover_refuses_unbalanced_buses() {
    let air = TestAir::new();
    let stark = stark(&[6], 3);
    let mut trace = air.trace(6);
    trace.values[10 * 4 + 2] += Val::ONE;
    let refused = stark.prove(&[&air], vec![trace], &mut transcript(Vec::new())).err().unwrap();
    assert!(refused.contains("refused the witness"), "{refused}");
    assert!(stark.prove(&[&air], vec![air.trace(7)], &mut transcript(Vec::new())).is_err());
}

/// Every reduction value, the blends, the opened values and the
/// commitment, changed, make the proof fail; so do missing rounds and
/// tables, and a verifier expecting another height.
#[test]
fn tampered_proofs_are_rejected() {
    let air = TestAir::new();
    let stark = stark(&[6, 5], 3);
    let traces = vec![air.trace(6), air.trace(5)];
    let proof = prove(&stark, &traces);
    verify(&stark, &proof).unwrap();
    let bytes = postcard::to_allocvec(&proof).unwrap();
    let fresh = || postcard::from_bytes::<SkipStarkProof<ValMmcs>>(&bytes).unwrap();
    let bump = |v: &mut Challenge| *v += Challenge::ONE;
    let mut count = 0;
    let mut check = |p: SkipStarkProof<ValMmcs>, what: &str| {
        assert!(verify(&stark, &p).is_err(), "{what}");
        count += 1;
    };
    for table in 0..2 {
        for round in 0..3 {
            for j in 0..3 {
                let mut p = fresh();
                bump(&mut p.tables[table].reduction[round][j]);
                check(p, "a reduction value");
            }
        }
        let mut p = fresh();
        bump(&mut p.tables[table].zerocheck.local[2]);
        check(p, "a blend");
        let mut p = fresh();
        bump(&mut p.tables[table].zerocheck.next[0]);
        check(p, "a successor blend");
    }
    for batch in 0..2 {
        for i in 0..6 {
            let mut p = fresh();
            let mut values = p.opening.evals[batch].to_vec();
            bump(&mut values[i]);
            let (current, next) = values.split_at(4);
            p.opening.evals[batch] = OpeningBatch::new(current.to_vec(), next.to_vec());
            check(p, "an opened value");
        }
    }
    // The commitment leads the encoding: a length, then the root.
    let mut flipped = bytes.clone();
    flipped[3] ^= 1;
    check(postcard::from_bytes(&flipped).unwrap(), "the commitment");
    let mut p = fresh();
    let bus = p.bus.as_mut().unwrap();
    bus.shares[0] += Challenge::ONE;
    bus.shares[1] -= Challenge::ONE;
    check(p, "shares moved between tables");
    let mut p = fresh();
    p.bus.as_mut().unwrap().shares[1] += Challenge::ONE;
    check(p, "a share");
    let mut p = fresh();
    p.bus.as_mut().unwrap().gkr.layers[3].claims.n1 += Challenge::ONE;
    check(p, "a GKR claim");
    let mut p = fresh();
    p.bus.as_mut().unwrap().gkr.root_denominator += Challenge::ONE;
    check(p, "the GKR root");
    let mut p = fresh();
    p.bus = None;
    check(p, "a missing bus argument");
    let mut p = fresh();
    p.tables[1].reduction.pop();
    check(p, "a missing round");
    let mut p = fresh();
    p.tables.pop();
    check(p, "a missing table");
    assert_eq!(count, 2 * 11 + 12 + 3 + 5);
    let taller = SkipStark::new(&settings(), &[7, 5], &[4, 4], 3, val_mmcs(0)).unwrap();
    assert!(verify(&taller, &proof).is_err());
}

/// A prover committing one trace and proving another is caught: by
/// the final check when the zerocheck and the reduction both run on
/// the valid trace (the reduced claim then disagrees with the
/// commitment), by the reduction's first round when the reduction runs
/// on the committed one (its sums then disagree with the blends).
#[test]
fn a_proof_about_another_trace_is_rejected() {
    let air = TestAir::new();
    let stark = stark(&[6], 3);
    let valid = vec![air.trace(6)];
    let mut broken = valid.clone();
    broken[0].values[37 * 4 + 2] += Val::ONE;
    let airs = [&air];
    let forge = |zerochecked: &[RowMajorMatrix<Val>], reduced: &[RowMajorMatrix<Val>]| {
        let forged = Witnesses { committed: &broken, gkr: zerochecked, shares: zerochecked, zerochecked, reduced };
        stark.prove_forged(&airs, &forged, &mut transcript(b"skip stark test".to_vec())).unwrap()
    };
    assert!(matches!(verify(&stark, &forge(&valid, &valid)), Err(SkipStarkError::Openings(0))));
    assert!(matches!(verify(&stark, &forge(&valid, &broken)), Err(SkipStarkError::Reduction { table: 0, round: 0 })));
}

/// A fractional GKR over other balanced leaves than the committed
/// traces' (a Fibonacci trace from another start: its constraints fail,
/// its buses balance), with the shares, zerochecks and reductions of
/// the committed valid traces, is caught by the shares' sum alone.
#[test]
fn a_bus_argument_over_other_leaves_is_rejected() {
    let air = TestAir::new();
    let stark = stark(&[6, 5], 3);
    let valid = vec![air.trace(6), air.trace(5)];
    let other = vec![air.trace_from(6, Val::TWO, Val::from_u32(3)), air.trace(5)];
    let forged = Witnesses { committed: &valid, gkr: &other, shares: &valid, zerochecked: &valid, reduced: &valid };
    let proof = stark.prove_forged(&[&air, &air], &forged, &mut transcript(b"skip stark test".to_vec())).unwrap();
    assert!(matches!(verify(&stark, &proof), Err(SkipStarkError::Bus(LogUpError::Sum))));
}

/// A statement whose declared count bounds times its heights reach
/// `p` is refused by the prover before it commits, and by the
/// verifier, on the proof of a twin AIR declaring a bound of one (the
/// bounds are not in the transcript), with the LogUp bound's error.
#[test]
fn the_multiplicity_bound_is_enforced() {
    use crate::zerocheck::toy::BoundedBus;
    // 64 rows x (2^25 + 1) >= p.
    let (light, heavy) = (BoundedBus { weight: 1 }, BoundedBus { weight: 1 << 25 });
    let stark = stark(&[6], 3);
    let seed = || transcript(b"bound".to_vec());
    let traces = [BoundedBus::trace(6)];
    let refused = stark.prove(&[&heavy], traces.to_vec(), &mut seed()).err().unwrap();
    assert!(refused.contains("count bounds"), "{refused}");
    let proof = stark.prove(&[&light], traces.to_vec(), &mut seed()).unwrap();
    stark.verify(&[&light], &proof, &mut seed()).unwrap();
    let outcome = stark.verify(&[&heavy], &proof, &mut seed());
    assert!(matches!(outcome, Err(SkipStarkError::Bus(LogUpError::MultiplicityBound(_)))), "{outcome:?}");
}

/// The stated security counts WHIR's terms and both field terms per table.
#[test]
fn security_names_every_term() {
    let air = TestAir::new();
    let stark = stark(&[6, 5], 3);
    let (bits, terms) = stark.security(&[&air, &air]).unwrap();
    assert!(bits > 0.0 && bits < 155.0);
    assert_eq!(terms.iter().filter(|t| t.label.starts_with("skip")).count(), 4);
    for label in ["logup fingerprint", "fractional gkr", "bus shares"] {
        assert_eq!(terms.iter().filter(|t| t.label == label).count(), 1, "{label}");
    }
}

/// Profiles computed beforehand (a verifying key's) decide as the
/// verifier's own: the valid proof verifies and a tampered one does not,
/// the stated security is the same, and profiles of another number of
/// AIRs or of other AIRs are refused.
#[test]
fn profiles_computed_beforehand_decide_alike() {
    use crate::zerocheck::toy::BoundedBus;
    let air = TestAir::new();
    let stark = stark(&[6, 5], 3);
    let proof = prove(&stark, &[air.trace(6), air.trace(5)]);
    let airs = [&air, &air];
    let profiles = Profiles::of(&airs).unwrap();
    let seed = || transcript(b"skip stark test".to_vec());
    stark.verify_profiled(&airs, &profiles, &proof, &mut seed()).unwrap();
    assert_eq!(stark.security(&airs).unwrap().0, stark.security_profiled(&airs, &profiles).unwrap().0);

    let bytes = postcard::to_allocvec(&proof).unwrap();
    let mut tampered = postcard::from_bytes::<SkipStarkProof<ValMmcs>>(&bytes).unwrap();
    tampered.tables[1].zerocheck.local[0] += Challenge::ONE;
    assert!(stark.verify_profiled(&airs, &profiles, &tampered, &mut seed()).is_err());

    let one = Profiles::of(&[&air]).unwrap();
    let outcome = stark.verify_profiled(&airs, &one, &proof, &mut seed());
    assert!(matches!(outcome, Err(SkipStarkError::Shape(_))), "{outcome:?}");
    assert!(stark.security_profiled(&airs, &one).is_err());
    let bounded = BoundedBus { weight: 1 };
    let others = Profiles::of(&[&bounded, &bounded]).unwrap();
    assert!(stark.verify_profiled(&airs, &others, &proof, &mut seed()).is_err());
}

/// Column-major traces prove as their row-major forms do: the same
/// zerochecks and reductions, and a proof that verifies.
#[test]
fn column_major_traces_give_the_same_proof() {
    let air = TestAir::new();
    let heights = [8, 6, 7];
    let stark = stark(&heights, 5);
    let traces: Vec<_> = heights.iter().map(|&h| air.trace(h)).collect();
    let rows = prove(&stark, &traces);
    let columns: Vec<_> = traces.iter().map(RowMajorMatrix::transpose).collect();
    let airs = vec![&air; traces.len()];
    let proof = stark.prove_column_major(&airs, columns.clone(), &mut transcript(b"skip stark test".to_vec())).unwrap();
    assert_eq!(proof.tables, rows.tables);
    verify(&stark, &proof).unwrap();
    // A column-major trace given as rows (or the reverse) is refused by shape.
    assert!(stark.prove_column_major(&airs, traces, &mut transcript(Vec::new())).is_err());
}
