//! Sumcheck rounds in a circuit against a native run of the same rounds
//! (the zerocheck verifier's checks, Plonky3's transcript): the same
//! challenges and the same final claim; a round whose `p(0) + p(1)` is not
//! the claim is refused.

use p3_challenger::{DuplexChallenger, FieldChallenger};
use p3_field::{BasedVectorSpace, Field, PrimeCharacteristicRing};
use sigagg_koalabear::poseidon2::default16;
use sigagg_prover::Settings;
use sigagg_prover::config::Val;
use sigagg_recursion::transcript::CircuitChallenger;
use sigagg_recursion::{CircuitBuilder, CircuitError, Ext, Wire, prove, sumcheck, verify};

fn ext(seed: u64) -> Ext {
    Ext::from_basis_coefficients_fn(|k| Val::from_u64(seed.wrapping_mul(0x9e37_79b9) + 13 * k as u64))
}

/// Lagrange through the integer nodes, directly.
fn native_interpolate(values: &[Ext], x: Ext) -> Ext {
    let n = values.len();
    (0..n)
        .map(|i| {
            let num: Ext = (0..n).filter(|&j| j != i).map(|j| x - Ext::from_usize(j)).product();
            let den: Ext = (0..n).filter(|&j| j != i).map(|j| Ext::from_i64(i as i64 - j as i64)).product();
            values[i] * num * den.inverse()
        })
        .sum()
}

#[test]
fn interpolation_and_eq_match_native() {
    for n in 1..7 {
        let mut b = CircuitBuilder::new();
        let values: Vec<Wire> = (0..n).map(|_| b.input()).collect();
        let x = b.input();
        let out = b.interpolate_at_integers(&values, x);
        let circuit = b.build();
        let vs: Vec<Ext> = (0..n as u64).map(ext).collect();
        for point in [ext(77), Ext::from_usize(n - 1), Ext::ZERO] {
            let inputs: Vec<Ext> = vs.iter().copied().chain([point]).collect();
            let w = circuit.witness(&inputs).unwrap();
            assert_eq!(w[out.index()], native_interpolate(&vs, point), "n = {n}");
        }
    }
    let mut b = CircuitBuilder::new();
    let a: Vec<Wire> = (0..3).map(|_| b.input()).collect();
    let c: Vec<Wire> = (0..3).map(|_| b.input()).collect();
    let eq = b.eq_at(&a, &c);
    let (pa, pc) = ([ext(1), ext(2), ext(3)], [ext(4), ext(5), ext(6)]);
    let w = b.build().witness(&[pa, pc].concat()).unwrap();
    let expected: Ext = pa.iter().zip(&pc).map(|(&x, &y)| x * y + (Ext::ONE - x) * (Ext::ONE - y)).product();
    assert_eq!(w[eq.index()], expected);
}

/// `rounds` rounds of degree `d` (values at `0..=d+1`), honest for a
/// random first claim; returns the circuit (inputs: the claim, every
/// round's values, then the expected final claim and challenges) and its
/// inputs from a native run.
fn rounds(count: usize, d: usize) -> (sigagg_recursion::Circuit, Vec<Ext>) {
    let mut native = DuplexChallenger::<Val, _, 16, 8>::new(default16().clone());
    let mut claim = ext(1000);
    let mut inputs = vec![claim];
    let mut rs = Vec::new();
    for round in 0..count {
        let mut values: Vec<Ext> = (0..d + 2).map(|i| ext((round * 10 + i) as u64)).collect();
        values[0] = claim - values[1];
        values.iter().for_each(|&v| native.observe_algebra_element(v));
        let r: Ext = native.sample_algebra_element();
        claim = native_interpolate(&values, r);
        inputs.extend(values);
        rs.push(r);
    }
    inputs.push(claim);
    inputs.extend(rs);

    let mut b = CircuitBuilder::new();
    let mut transcript = CircuitChallenger::new(&mut b);
    let mut claim = b.input();
    let mut challenges = Vec::new();
    for _ in 0..count {
        let values: Vec<Wire> = (0..d + 2).map(|_| b.input()).collect();
        let (next, r) = sumcheck::round(&mut b, &mut transcript, claim, &values);
        claim = next;
        challenges.push(r);
    }
    let expected = b.input();
    b.assert_eq(claim, expected);
    for r in challenges {
        let expected = b.input();
        b.assert_eq(r, expected);
    }
    (b.build(), inputs)
}

#[test]
fn rounds_match_a_native_run_and_a_false_round_is_refused() {
    let (circuit, inputs) = rounds(4, 3);
    circuit.witness(&inputs).unwrap();
    let settings = Settings::INSECURE_TEST_SKIP;
    let proof = prove(&settings, &circuit, &inputs).unwrap();
    verify(&settings, &circuit, &inputs, &proof).unwrap();
    // Round 2's p(0) moved: its sum is no longer the claim.
    let at = 1 + 2 * 5;
    let mut wrong = inputs.clone();
    wrong[at] += Ext::ONE;
    assert!(matches!(circuit.witness(&wrong), Err(CircuitError::Unsatisfied { .. })));
    assert!(verify(&settings, &circuit, &wrong, &proof).is_err());
}
