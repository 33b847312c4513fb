//! The transcript circuit derives Plonky3's `DuplexChallenger` challenges
//! (default width-16 Poseidon2, rate 8) for one script of observations and
//! samples: partial and full absorptions, an extension value absorbed,
//! base and extension samples, and an output buffer run dry.

use p3_challenger::{CanObserve, CanSample, DuplexChallenger, FieldChallenger};
use p3_field::PrimeCharacteristicRing;
use sigagg_koalabear::poseidon2::default16;
use sigagg_prover::Settings;
use sigagg_prover::config::Val;
use sigagg_recursion::transcript::CircuitChallenger;
use sigagg_recursion::{CircuitBuilder, CircuitError, Ext, Wire, prove, verify};

enum Op {
    Observe(usize),
    ObserveExt,
    Sample,
    SampleExt,
}

const SCRIPT: &[Op] = &[
    Op::Observe(3),
    Op::Sample,
    Op::Sample,
    Op::Observe(8),
    Op::SampleExt,
    Op::Observe(11),
    Op::ObserveExt,
    Op::SampleExt,
    Op::Sample,
    Op::Sample,
    Op::Sample,
    Op::Sample,
    Op::Sample,
    Op::Sample,
    Op::Sample,
    Op::Sample,
    Op::Sample,
];

fn ext(seed: u32) -> Ext {
    use p3_field::BasedVectorSpace;
    Ext::from_basis_coefficients_fn(|k| Val::from_u32(seed * 31 + k as u32))
}

/// The circuit of the script: its observed values are inputs, then each
/// sample is asserted equal to an input; and the native run's inputs.
fn script() -> (sigagg_recursion::Circuit, Vec<Ext>) {
    let mut native = DuplexChallenger::<Val, _, 16, 8>::new(default16().clone());
    let mut b = CircuitBuilder::new();
    let mut transcript = CircuitChallenger::new(&mut b);
    let (mut observed, mut samples): (Vec<Ext>, Vec<(Wire, Ext)>) = (Vec::new(), Vec::new());
    let mut next = 1u32;
    for op in SCRIPT {
        match *op {
            Op::Observe(n) => {
                for _ in 0..n {
                    let v = Val::from_u32(1000 + next);
                    next += 1;
                    native.observe(v);
                    let w = b.input();
                    observed.push(Ext::from(v));
                    transcript.observe(&mut b, w);
                }
            }
            Op::ObserveExt => {
                let e = ext(next);
                next += 1;
                native.observe_algebra_element(e);
                let w = b.input();
                observed.push(e);
                transcript.observe_ext(&mut b, w);
            }
            Op::Sample => {
                let v: Val = native.sample();
                samples.push((transcript.sample(&mut b), Ext::from(v)));
            }
            Op::SampleExt => {
                let e: Ext = native.sample_algebra_element();
                samples.push((transcript.sample_ext(&mut b), e));
            }
        }
    }
    let mut inputs = observed;
    for (wire, value) in samples {
        let expected = b.input();
        b.assert_eq(wire, expected);
        inputs.push(value);
    }
    (b.build(), inputs)
}

#[test]
fn the_circuit_samples_what_plonkys_challenger_samples() {
    let (circuit, inputs) = script();
    circuit.witness(&inputs).unwrap();
    let settings = Settings::INSECURE_TEST_SKIP;
    let proof = prove(&settings, &circuit, &inputs).unwrap();
    verify(&settings, &circuit, &inputs, &proof).unwrap();
    for at in [inputs.len() - 1, inputs.len() - 10, 0] {
        let mut wrong = inputs.clone();
        wrong[at] += Ext::ONE;
        assert!(matches!(circuit.witness(&wrong), Err(CircuitError::Unsatisfied { .. })), "input {at}");
        assert!(verify(&settings, &circuit, &wrong, &proof).is_err());
    }
}
