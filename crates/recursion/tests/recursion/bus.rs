//! whir-skip's bus argument, verified in a circuit: the native prover
//! proves a small circuit's four tables' buses balance (fractional GKR and
//! shares) on Plonky3's transcript, the native verifier accepts, and the
//! circuit built from the proof's values derives the same claims for
//! every table and holds; over every single-value tampering of the proof
//! it refuses exactly what the native verifier refuses.

use p3_challenger::DuplexChallenger;
use p3_field::PrimeCharacteristicRing;
use p3_matrix::Matrix;
use sigagg_koalabear::poseidon2::default16;
use sigagg_prover::Settings;
use sigagg_prover::columns::Columns;
use sigagg_prover::config::Val;
use sigagg_prover::logup::{self, LogUpProof};
use sigagg_prover::zerocheck::{BusClaim, messages};
use sigagg_recursion::air::{ArithAir, BaseWitnessAir, PathAir, PermAir, WitnessAir};
use sigagg_recursion::bus::{GkrLayerWires, LogUpWires, verify as verify_in_circuit};
use sigagg_recursion::transcript::CircuitChallenger;
use sigagg_recursion::{Circuit, CircuitAir, CircuitBuilder, CircuitError, Ext, Wire, honest_traces, prove, verify};

use super::zerocheck::{child, push_claim};

/// The child's five tables and their heights.
fn tables() -> (Vec<CircuitAir>, Vec<p3_matrix::dense::RowMajorMatrix<Val>>, Vec<usize>) {
    let (circuit, inputs) = child();
    let traces = honest_traces(&circuit, &inputs).unwrap();
    let log_heights: Vec<usize> = traces.iter().map(|t| t.height().trailing_zeros() as usize).collect();
    let airs = vec![
        CircuitAir::Witness(WitnessAir::new(&circuit, &inputs, log_heights[0])),
        CircuitAir::Arith(ArithAir::new(&circuit, log_heights[1])),
        CircuitAir::Perm(PermAir::new(&circuit, log_heights[2])),
        CircuitAir::Path(PathAir::new(&circuit, log_heights[3])),
        CircuitAir::BaseWitness(BaseWitnessAir::new(&circuit, 1 << log_heights[0], log_heights[4])),
    ];
    (airs, traces, log_heights)
}

/// A fresh native transcript of the recursion setting.
fn challenger() -> impl p3_challenger::FieldChallenger<Val> {
    DuplexChallenger::<Val, _, 16, 8>::new(default16().clone())
}

/// The proof's values in order: root denominator, each layer's rounds and
/// claims, the shares.
fn proof_values(proof: &LogUpProof) -> Vec<Ext> {
    let mut v = vec![proof.gkr.root_denominator];
    for layer in &proof.gkr.layers {
        v.extend(layer.round_polys.iter().flatten());
        let c = &layer.claims;
        v.extend([c.n0, c.d0, c.n1, c.d1]);
    }
    v.extend(&proof.shares);
    v
}

/// `proof` with its value number `at` ([`proof_values`]' order) moved by one.
fn tampered(proof: &LogUpProof, at: usize) -> LogUpProof {
    let mut t = proof.clone();
    let mut cells: Vec<&mut Ext> = vec![&mut t.gkr.root_denominator];
    for layer in &mut t.gkr.layers {
        cells.extend(layer.round_polys.iter_mut().flatten());
        let c = &mut layer.claims;
        cells.extend([&mut c.n0, &mut c.d0, &mut c.n1, &mut c.d1]);
    }
    cells.extend(t.shares.iter_mut());
    *cells[at] += Ext::ONE;
    t
}

/// The claims' values as the circuit's last inputs list them: per table
/// with a claim, its point, each message's count, field and constant
/// weights, its value.
fn claim_values(claims: &[Option<BusClaim>]) -> Vec<Ext> {
    let mut v = Vec::new();
    claims.iter().flatten().for_each(|claim| push_claim(&mut v, claim));
    v
}

/// The verifier circuit of a bus argument of `proof`'s shape: its inputs
/// are the proof's values, then the claims it asserts it derives.
fn verifier(airs: &[CircuitAir], log_heights: &[usize], proof: &LogUpProof) -> Circuit {
    let mut b = CircuitBuilder::new();
    let wires = LogUpWires {
        root_denominator: b.input(),
        layers: proof
            .gkr
            .layers
            .iter()
            .map(|layer| GkrLayerWires {
                rounds: layer.round_polys.iter().map(|_| [b.input(), b.input(), b.input()]).collect(),
                claims: [b.input(), b.input(), b.input(), b.input()],
            })
            .collect(),
        shares: proof.shares.iter().map(|_| b.input()).collect(),
    };
    let profiles: Vec<_> = airs.iter().map(|air| messages(air).unwrap()).collect();
    let mut transcript = CircuitChallenger::new(&mut b);
    let claims = verify_in_circuit(&mut b, &mut transcript, &profiles, log_heights, &wires).unwrap();
    let expect = |b: &mut CircuitBuilder, w: Wire| {
        let e = b.input();
        b.assert_eq(w, e);
    };
    for claim in claims.iter().flatten() {
        for &p in &claim.point {
            expect(&mut b, p);
        }
        for (count, fields, constant) in &claim.messages {
            expect(&mut b, *count);
            fields.iter().for_each(|&f| expect(&mut b, f));
            expect(&mut b, *constant);
        }
        expect(&mut b, claim.value);
    }
    b.build()
}

#[test]
fn a_bus_argument_verifies_in_the_circuit_as_natively() {
    let (airs, traces, log_heights) = tables();
    let refs: Vec<&CircuitAir> = airs.iter().collect();
    let transposed: Vec<_> = traces.iter().map(|t| t.transpose()).collect();
    let columns: Vec<Columns<'_>> = transposed.iter().map(Columns::of_transposed).collect();
    let (proof, proven_claims) = logup::prove(&refs, &columns, &mut challenger()).unwrap().expect("messages");
    let native = |proof: &LogUpProof| logup::verify(&refs, &log_heights, Some(proof), &mut challenger());
    let claims = native(&proof).unwrap().expect("messages");
    assert_eq!(claims, proven_claims);
    assert!(claims.iter().all(Option::is_some), "every table of a circuit sends messages");

    let circuit = verifier(&airs, &log_heights, &proof);
    let values: Vec<Ext> = proof_values(&proof).into_iter().chain(claim_values(&claims)).collect();
    circuit.witness(&values).unwrap();
    let settings = Settings::INSECURE_TEST_SKIP;
    let outer = prove(&settings, &circuit, &values).unwrap();
    verify(&settings, &circuit, &values, &outer).unwrap();

    // Other claims than the native ones are refused.
    let mut other = values.clone();
    *other.last_mut().unwrap() += Ext::ONE;
    assert!(matches!(circuit.witness(&other), Err(CircuitError::Unsatisfied { .. })));
    assert!(prove(&settings, &circuit, &other).is_err());

    // Every value of the proof moved: refused natively, and in the circuit.
    let proof_len = proof_values(&proof).len();
    for at in 0..proof_len {
        let tampered = tampered(&proof, at);
        let natively = native(&tampered);
        let reached = match &natively {
            Ok(Some(c)) => claim_values(c),
            _ => claim_values(&claims),
        };
        let values: Vec<Ext> = proof_values(&tampered).into_iter().chain(reached).collect();
        let in_circuit = circuit.witness(&values);
        assert_eq!(natively.is_ok(), in_circuit.is_ok(), "value {at} of {proof_len}: {in_circuit:?}");
        assert!(natively.is_err(), "value {at}: the native verifier accepts a tampered bus argument");
    }
}

/// A statement the circuit cannot verify is a typed error, not a panic: a
/// proof of another shape, and tables without messages.
#[test]
fn a_bus_argument_of_another_shape_is_a_typed_error() {
    let (airs, _, log_heights) = tables();
    let profiles: Vec<_> = airs.iter().map(|air| messages(air).unwrap()).collect();
    let mut b = CircuitBuilder::new();
    let mut transcript = CircuitChallenger::new(&mut b);
    let short = LogUpWires { root_denominator: b.input(), layers: Vec::new(), shares: vec![b.input(); 4] };
    assert!(matches!(
        verify_in_circuit(&mut b, &mut transcript, &profiles, &log_heights, &short),
        Err(CircuitError::Unsupported(_))
    ));
    let silent = vec![Vec::new(); 4];
    assert!(matches!(
        verify_in_circuit(&mut b, &mut transcript, &silent, &log_heights, &short),
        Err(CircuitError::Unsupported(_))
    ));
}
