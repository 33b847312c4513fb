use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;

use super::air::{check_counts, profile};
use super::kernels::{Layout, Round, SkipRound, round_sums, round_sums_scalar, skip_round_packed, skip_round_scalar};
use super::toy::TestAir;
use super::*;
use crate::config::transcript;
use crate::messages::MessageProgram;
use crate::poly::eq_table;

fn prove(air: &TestAir, trace: &RowMajorMatrix<Val>, skip: usize) -> (ZerocheckProof, ZerocheckPoint) {
    SkipZerocheck::new(skip).prove(air, trace, None, &mut transcript(b"zerocheck test".to_vec())).unwrap()
}

fn verify(
    air: &TestAir,
    log_height: usize,
    skip: usize,
    proof: &ZerocheckProof,
) -> Result<ZerocheckPoint, ZerocheckError> {
    SkipZerocheck::new(skip).verify(air, log_height, proof, None, &mut transcript(b"zerocheck test".to_vec()))
}

/// Valid traces verify, at the prover's point, for every skip and for
/// tables from one group to many (the packed kernel from 16 groups),
/// and the openings are the columns' values there.
#[test]
fn valid_traces_verify_at_the_columns_values() {
    let air = TestAir::new();
    for skip in 1..=4 {
        for log_height in [skip, skip + 1, skip + 4, 10] {
            let trace = air.trace(log_height);
            let (proof, point) = prove(&air, &trace, skip);
            assert_eq!(verify(&air, log_height, skip, &proof), Ok(point.clone()), "skip {skip}, 2^{log_height} rows");
            let (local, next) = column_evaluations(&trace, &[0, 1], skip, &point);
            assert_eq!((local, next), (proof.local.clone(), proof.next.clone()));
        }
    }
}

/// The packed skip round computes what the scalar reference does,
/// with and without weighted bus messages (which alone it evaluates
/// on `H`).
#[test]
fn packed_skip_round_matches_the_reference() {
    let air = TestAir::new();
    let program = MessageProgram::new(&air).unwrap();
    let profile = profile(&air).unwrap();
    let weight = |i: usize| Challenge::from_usize(7 * i + 3).exp_u64(3);
    let messages: Vec<MessageWeights<Challenge>> = profile
        .messages
        .iter()
        .enumerate()
        .map(|(j, m)| MessageWeights {
            count: weight(10 * j),
            fields: (0..m.fields).map(|i| weight(10 * j + i + 1)).collect(),
            constant: weight(10 * j + 9),
        })
        .collect();
    for skip in [1, 3, 5] {
        let transposed = air.trace(skip + 6).transpose();
        let trace = crate::columns::Columns::of_transposed(&transposed);
        let eq: Vec<Challenge> = (0..64u32).map(|i| Challenge::from_u32(i * 31 + 2).exp_u64(5)).collect();
        for messages in [Vec::new(), messages.clone()] {
            let weights =
                Weights { constraints: Challenge::from_u32(99).powers().take(profile.constraints).collect(), messages };
            let round =
                SkipRound { air: &air, program: &program, trace: &trace, skip, degree: 3, eq: &eq, weights: &weights };
            assert_eq!(skip_round_packed(&round), skip_round_scalar(&round), "skip {skip}");
        }
    }
}

/// The packed ordinary-round kernel computes what the scalar one does.
#[test]
fn packed_round_sums_match_the_reference() {
    let air = TestAir::new();
    let trace = air.trace(8);
    let layout = Layout { width: 4, next: vec![0, 1], periodic: 2 };
    let x = |i: usize| Challenge::from_u32(i as u32 * 17 + 5).exp_u64(3);
    // Any extension-field columns (the kernel does not assume a valid
    // trace): the trace's, the next rows', periodic and selector ones.
    let columns: Vec<Vec<Challenge>> = (0..10)
        .map(|c| {
            (0..64)
                .map(|r| x(c * 64 + r) + Challenge::from(trace.values[(r * 4 + c % 4) % trace.values.len()]))
                .collect()
        })
        .collect();
    let suffix: Vec<Challenge> = (0..32).map(|i| x(1000 + i)).collect();
    let weights =
        Weights { constraints: x(7).powers().take(profile(&air).unwrap().constraints).collect(), messages: Vec::new() };
    for omit_one in [false, true] {
        let round = Round {
            air: &air,
            layout: &layout,
            columns: &columns,
            suffix: &suffix,
            degree: 3,
            weights: &weights,
            omit_one,
        };
        assert_eq!(round_sums(&round), round_sums_scalar(&round));
    }
}

/// The symbolic degree counts periodic columns and selectors as one,
/// and the symbolic count of constraints is the folders' (the powers
/// of alpha are drawn for it).
#[test]
fn the_profile_is_the_multilinear_one() {
    let air = TestAir::new();
    assert_eq!(multilinear_degree(&air), Some(3));
    let zeros = vec![Challenge::ZERO; 4];
    let none = Weights { constraints: Vec::new(), messages: Vec::new() };
    let mut folder = ExtFolder::new(&zeros, &zeros, &zeros[..2], Challenge::ZERO, Challenge::ZERO, &none);
    air.eval(&mut folder);
    let profile = profile(&air).unwrap();
    assert_eq!((profile.degree, profile.constraints), (3, folder.constraints));
    assert_eq!(profile.messages.len(), 4);
    assert_eq!(folder.constraints, 5);
}

/// A trace breaking one constraint at one row, in any column, first
/// row or last included, is rejected.
#[test]
fn a_broken_row_is_rejected() {
    let air = TestAir::new();
    for (skip, log_height) in [(2, 3), (3, 9)] {
        let height = 1 << log_height;
        for row in [0, 1, height / 2 + 3, height - 1] {
            for col in 0..4 {
                let mut trace = air.trace(log_height);
                trace.values[row * 4 + col] += Val::ONE;
                let (proof, _) = prove(&air, &trace, skip);
                assert!(verify(&air, log_height, skip, &proof).is_err(), "row {row}, column {col}");
            }
        }
    }
}

/// Weights of the toy AIR's two messages, and the value their terms'
/// weighted sum has at `point` on `trace`.
fn bus_claim(trace: &RowMajorMatrix<Val>, point: Vec<Challenge>) -> BusClaim {
    let x = |i: u32| Challenge::from_u32(i * 13 + 1).exp_u64(5);
    let messages: Vec<MessageWeights<Challenge>> = (0..4)
        .map(|m| MessageWeights { count: x(3 * m), fields: vec![x(3 * m + 1)], constant: x(3 * m + 2) })
        .collect();
    let eq = eq_table(&point);
    let (height, periodic) = (trace.height(), &TestAir::new().periodic[0]);
    let value = trace
        .rows()
        .zip(&eq)
        .enumerate()
        .map(|(i, (row, &e))| {
            let r: Vec<Val> = row.collect();
            let first = Val::from_bool(i == 0);
            let transition = Val::from_bool(i != height - 1);
            let terms = [
                (transition, r[1]),
                (first - Val::ONE, r[0]),
                (Val::ONE, r[0].cube() + periodic[i % 4]),
                (-Val::ONE, r[2]),
            ];
            let sum: Challenge = messages
                .iter()
                .zip(terms)
                .map(|(m, (count, field))| m.constant + m.count * count + m.fields[0] * field)
                .sum();
            e * sum
        })
        .sum();
    BusClaim { point, messages, value }
}

/// With a bus claim, the zerocheck proves the constraints and the
/// claimed sum of the message terms together, at the claim's point:
/// the right value verifies (packed and scalar kernels), a wrong one,
/// or a wrong weight, does not.
#[test]
fn bus_terms_are_proven_with_the_constraints() {
    let air = TestAir::new();
    for (skip, log_height) in [(3, 10), (2, 4)] {
        let trace = air.trace(log_height);
        let point: Vec<Challenge> = (0..log_height as u32).map(|i| Challenge::from_u32(i + 40).exp_u64(3)).collect();
        let claim = bus_claim(&trace, point.clone());
        let zc = SkipZerocheck::new(skip);
        let seed = || transcript(b"bus".to_vec());
        let (proof, at) = zc.prove(&air, &trace, Some(&claim), &mut seed()).unwrap();
        assert_eq!(zc.verify(&air, log_height, &proof, Some(&claim), &mut seed()), Ok(at));
        let mut wrong = claim.clone();
        wrong.value += Challenge::ONE;
        assert_eq!(zc.verify(&air, log_height, &proof, Some(&wrong), &mut seed()), Err(ZerocheckError::Skip));
        let mut wrong = claim.clone();
        wrong.messages[1].fields[0] += Challenge::ONE;
        let (proof, _) = zc.prove(&air, &trace, Some(&wrong), &mut seed()).unwrap();
        assert!(zc.verify(&air, log_height, &proof, Some(&wrong), &mut seed()).is_err());
        let mut short = claim.clone();
        short.point.pop();
        assert!(zc.prove(&air, &trace, Some(&short), &mut seed()).is_err());
    }
}

/// Every part of a valid proof, changed, makes it fail; so do the wrong
/// height and lengths.
#[test]
fn tampered_proofs_are_rejected() {
    let air = TestAir::new();
    let log_height = 8;
    let (proof, _) = prove(&air, &air.trace(log_height), 3);
    let bump = |v: &mut Challenge| *v += Challenge::ONE;
    let mut cases: Vec<ZerocheckProof> = Vec::new();
    for i in 0..proof.skip_values.len() {
        let mut p = proof.clone();
        bump(&mut p.skip_values[i]);
        cases.push(p);
    }
    for r in 0..proof.rounds.len() {
        for j in 0..proof.rounds[r].len() {
            let mut p = proof.clone();
            bump(&mut p.rounds[r][j]);
            cases.push(p);
        }
    }
    for i in 0..proof.local.len() {
        let mut p = proof.clone();
        bump(&mut p.local[i]);
        cases.push(p);
    }
    for i in 0..proof.next.len() {
        let mut p = proof.clone();
        bump(&mut p.next[i]);
        cases.push(p);
    }
    for p in &cases {
        assert!(verify(&air, log_height, 3, p).is_err());
    }
    let mut short = proof.clone();
    short.rounds.pop();
    assert_eq!(verify(&air, log_height, 3, &short), Err(ZerocheckError::Shape("lengths")));
    assert!(verify(&air, log_height + 1, 3, &proof).is_err());
    assert!(verify(&air, 2, 3, &proof).is_err());
}

/// "Column 0 equals its successor", declaring the next-row columns
/// `declared`.
struct Constant {
    declared: Vec<usize>,
}

impl BaseAir<Val> for Constant {
    fn width(&self) -> usize {
        2
    }
    fn main_next_row_columns(&self) -> Vec<usize> {
        self.declared.clone()
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for Constant {
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let (local, next) = (main.current_slice()[0], main.next_slice()[0]);
        builder.when_transition().assert_eq(next, local);
    }
}

/// An AIR reading a next row it does not declare is refused by prover
/// and verifier alike, with the columns, before any proof is made or
/// read: undeclared, the read would be zero on both sides, and a
/// trace the AIR rejects (column 0 changing) would pass. Declared, the
/// same trace is caught; so is a declaration past the trace.
#[test]
fn undeclared_next_row_reads_are_refused() {
    let (skip, log_height) = (2, 4);
    let zc = SkipZerocheck::new(skip);
    let seed = || transcript(b"next row".to_vec());
    let trace = RowMajorMatrix::new((0..2u32 << log_height).map(|i| Val::from_u32(i / 2)).collect(), 2);
    let undeclared = Constant { declared: Vec::new() };
    let refused = Err(ZerocheckError::UndeclaredNextRow(vec![0]));
    assert_eq!(zc.prove(&undeclared, &trace, None, &mut seed()).map(|_| ()), refused);
    let declared = Constant { declared: vec![0] };
    let (proof, _) = zc.prove(&declared, &trace, None, &mut seed()).unwrap();
    assert!(zc.verify(&declared, log_height, &proof, None, &mut seed()).is_err());
    assert_eq!(zc.verify(&undeclared, log_height, &proof, None, &mut seed()).map(|_| ()), refused);
    let past = Constant { declared: vec![0, 2] };
    assert!(matches!(zc.prove(&past, &trace, None, &mut seed()), Err(ZerocheckError::Shape(_))));
}

/// `x0 = x1` and a message of `x0`; evaluated on values (not
/// symbolically), also `x0 = 0` where `constraint` and a second
/// message where `message`: an AIR whose concrete evaluation emits
/// more than its symbolic one, whose extra constraint would go
/// unweighted.
struct Sneaky {
    constraint: bool,
    message: bool,
}

impl BaseAir<Val> for Sneaky {
    fn width(&self) -> usize {
        2
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for Sneaky {
    fn eval(&self, builder: &mut AB) {
        let local = builder.main().current_slice().to_vec();
        let concrete = !std::any::type_name::<AB>().contains("Symbolic");
        builder.assert_eq(local[0], local[1]);
        builder.push_interaction("sneaky", [local[0]], Count::bounded(AB::Expr::ONE, 1));
        if concrete && self.constraint {
            builder.assert_zero(local[0]);
        }
        if concrete && self.message {
            builder.push_interaction("sneaky", [local[1]], Count::bounded(AB::Expr::ONE, 1));
        }
    }
}

/// An AIR emitting, on values, another number of constraints or
/// messages than symbolically is refused by the prover, and by the
/// verifier at the opened values (on the proof of an honest twin,
/// whose transcript is the same), with both counts; the honest twin
/// verifies, its messages dropped for want of a bus claim.
#[test]
fn constraint_and_message_counts_are_checked() {
    let (skip, log_height) = (2, 5);
    let zc = SkipZerocheck::new(skip);
    let seed = || transcript(b"counts".to_vec());
    let trace = RowMajorMatrix::new((0..2u32 << log_height).map(|i| Val::from_u32(i / 2 + 1)).collect(), 2);
    let honest = Sneaky { constraint: false, message: false };
    let (proof, point) = zc.prove(&honest, &trace, None, &mut seed()).unwrap();
    assert_eq!(zc.verify(&honest, log_height, &proof, None, &mut seed()), Ok(point));
    for (constraint, message) in [(true, false), (false, true), (true, true)] {
        let sneaky = Sneaky { constraint, message };
        let refused = Err(ZerocheckError::Count {
            constraints: 1 + usize::from(constraint),
            messages: 1 + usize::from(message),
            expected_constraints: 1,
            expected_messages: 1,
        });
        assert_eq!(zc.prove(&sneaky, &trace, None, &mut seed()).map(|_| ()), refused);
        assert_eq!(zc.verify(&sneaky, log_height, &proof, None, &mut seed()).map(|_| ()), refused);
    }
}

/// The check of the counts, alone: equal counts pass, a constraint or
/// message more or less is refused.
#[test]
fn counts_must_equal_the_profile() {
    let profile = profile(&TestAir::new()).unwrap();
    assert_eq!(check_counts(&profile, 5, 4), Ok(()));
    for (c, m) in [(4, 4), (6, 4), (5, 3), (5, 5)] {
        assert!(
            matches!(check_counts(&profile, c, m), Err(ZerocheckError::Count { .. })),
            "{c} constraints, {m} messages"
        );
    }
}

/// The profile's messages carry their counts' declared bounds.
#[test]
fn messages_carry_their_bounds() {
    let weights: Vec<u32> = messages(&super::toy::BoundedBus { weight: 7 }).unwrap().iter().map(|m| m.weight).collect();
    assert_eq!(weights, vec![7, 1]);
}

/// A periodic column's value at the zerocheck's point is its definition:
/// the column repeated down the table, row `i` weighted by
/// `L_{i mod |H|}(r0) · eq(i / |H|, rest)`, for every period from one
/// row to the table, dense and sparse (the packed, group-skipping sum).
#[test]
fn periodic_columns_evaluate_to_their_definition() {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let mut rng = StdRng::seed_from_u64(7);
    for skip in [1, 3, 5] {
        for log_height in [skip, skip + 2, 11] {
            for log_period in 0..=log_height {
                for sparse in [false, true] {
                    let column: Vec<Val> = (0..1usize << log_period)
                        .map(|i| if sparse && i % 37 != 3 { Val::ZERO } else { rng.random() })
                        .collect();
                    let r0: Challenge = rng.random();
                    let rest: Vec<Challenge> = (0..log_height - skip).map(|_| rng.random()).collect();
                    let (l, eq) = (crate::poly::lagrange(skip, r0), eq_table(&rest));
                    let expected: Challenge = (0..1usize << log_height)
                        .map(|row| l[row % (1 << skip)] * eq[row >> skip] * column[row % column.len()])
                        .sum();
                    assert_eq!(
                        periodic_at(&column, skip, r0, &rest),
                        expected,
                        "skip {skip}, 2^{log_period} of 2^{log_height}"
                    );
                }
            }
        }
    }
}
