//! whir-skip's zerocheck, verified in a circuit: the native prover proves
//! a table (the arithmetic table of a small circuit, its bus left aside)
//! on Plonky3's transcript, the native verifier accepts, and the circuit
//! built from the proof's values reaches the same point and holds; a
//! proof with any value changed, or of a broken trace, does not.

use p3_challenger::DuplexChallenger;
use p3_field::PrimeCharacteristicRing;
use p3_matrix::Matrix;
use sigagg_koalabear::poseidon2::default16;
use sigagg_prover::Settings;
use sigagg_prover::config::Val;
use sigagg_prover::zerocheck::{BusClaim, SkipZerocheck, ZerocheckPoint, ZerocheckProof, round_degree};
use sigagg_recursion::air::ArithAir;
use sigagg_recursion::transcript::CircuitChallenger;
use sigagg_recursion::zerocheck::{BusClaimWires, ZerocheckWires, verify as verify_in_circuit};
use sigagg_recursion::{Circuit, CircuitBuilder, CircuitError, Ext, Wire, honest_traces, prove, verify};

const SKIP: usize = 3;

/// A circuit of 40 rows (a table of 64 rows: three ordinary rounds).
pub(crate) fn child() -> (Circuit, Vec<Ext>) {
    let mut b = CircuitBuilder::new();
    let x = b.input();
    let mut acc = x;
    for _ in 0..20 {
        let sq = b.mul(acc, acc);
        acc = b.add(sq, x);
    }
    let circuit = b.build();
    (circuit, vec![Ext::from(Val::from_u32(3))])
}

/// The verifier circuit of a proof of `proof`'s shape for `air`, against
/// a bus claim of `claim`'s shape if there is one: its inputs are the
/// proof's values, the claim's, then the point, which the circuit asserts
/// it reaches ([`circuit_values`]).
fn verifier<A>(air: &A, log_height: usize, proof: &ZerocheckProof, claim: Option<&BusClaim>) -> Circuit
where
    A: sigagg_prover::zerocheck::SkipAir,
{
    let mut b = CircuitBuilder::new();
    let inputs = |b: &mut CircuitBuilder, n: usize| -> Vec<Wire> { (0..n).map(|_| b.input()).collect() };
    let wires = ZerocheckWires {
        skip_values: inputs(&mut b, proof.skip_values.len()),
        rounds: proof.rounds.iter().map(|r| inputs(&mut b, r.len())).collect(),
        local: inputs(&mut b, proof.local.len()),
        next: inputs(&mut b, proof.next.len()),
    };
    let claim = claim.map(|claim| BusClaimWires {
        point: inputs(&mut b, claim.point.len()),
        messages: claim
            .messages
            .iter()
            .map(|m| {
                let count = b.input();
                let fields = inputs(&mut b, m.fields.len());
                (count, fields, b.input())
            })
            .collect(),
        value: b.input(),
    });
    let mut transcript = CircuitChallenger::new(&mut b);
    let reached = verify_in_circuit(
        &mut b,
        &mut transcript,
        air,
        (SKIP, log_height, round_degree(air).unwrap()),
        &wires,
        claim.as_ref(),
    )
    .unwrap();
    for r in core::iter::once(reached.skip).chain(reached.rest) {
        let expected = b.input();
        b.assert_eq(r, expected);
    }
    b.build()
}

/// The inputs of [`verifier`]'s circuit: the proof's values, the claim's
/// (point, each message's count, field and constant weights, value), the
/// point.
fn circuit_values(proof: &ZerocheckProof, claim: Option<&BusClaim>, point: &[Ext]) -> Vec<Ext> {
    let mut v: Vec<Ext> = proof
        .skip_values
        .iter()
        .chain(proof.rounds.iter().flatten())
        .chain(&proof.local)
        .chain(&proof.next)
        .copied()
        .collect();
    if let Some(claim) = claim {
        push_claim(&mut v, claim);
    }
    v.extend(point);
    v
}

/// A bus claim's values as circuits' inputs list them: its point, each
/// message's count, field and constant weights, its value.
pub(crate) fn push_claim(v: &mut Vec<Ext>, claim: &BusClaim) {
    v.extend(&claim.point);
    for m in &claim.messages {
        v.push(m.count);
        v.extend(&m.fields);
        v.push(m.constant);
    }
    v.push(claim.value);
}

/// A zerocheck point as the circuit's inputs list it.
fn point_values(point: &ZerocheckPoint) -> Vec<Ext> {
    core::iter::once(point.skip).chain(point.rest.iter().copied()).collect()
}

/// `proof` with its value number `at` (skip values, rounds, local, next in
/// order) moved by one.
fn tampered(proof: &ZerocheckProof, at: usize) -> ZerocheckProof {
    let mut tampered = proof.clone();
    let mut cells: Vec<&mut Ext> = tampered
        .skip_values
        .iter_mut()
        .chain(tampered.rounds.iter_mut().flatten())
        .chain(tampered.local.iter_mut())
        .chain(tampered.next.iter_mut())
        .collect();
    *cells[at] += Ext::ONE;
    tampered
}

#[test]
fn a_zerocheck_verifies_in_the_circuit_as_natively() {
    let (circuit, inputs) = child();
    let trace = honest_traces(&circuit, &inputs).unwrap().swap_remove(1);
    let log_height = trace.height().trailing_zeros() as usize;
    let air = ArithAir::new(&circuit, log_height);
    let zerocheck = SkipZerocheck::new(SKIP);
    let mut native = DuplexChallenger::<Val, _, 16, 8>::new(default16().clone());
    let (proof, point) = zerocheck.prove(&air, &trace, None, &mut native).unwrap();
    let mut check = DuplexChallenger::<Val, _, 16, 8>::new(default16().clone());
    assert_eq!(zerocheck.verify(&air, log_height, &proof, None, &mut check).unwrap(), point);
    assert_eq!(proof.rounds.len(), log_height - SKIP);

    let native_point = point_values(&point);
    let verifier_circuit = verifier(&air, log_height, &proof, None);
    let values = circuit_values(&proof, None, &native_point);
    verifier_circuit.witness(&values).unwrap();
    let settings = Settings::INSECURE_TEST_SKIP;
    let outer = prove(&settings, &verifier_circuit, &values).unwrap();
    verify(&settings, &verifier_circuit, &values, &outer).unwrap();

    // Every value of the proof changed: the circuit refuses exactly what
    // the native verifier refuses (the next-row values no constraint of
    // this table reads bind nothing here, natively or in the circuit:
    // the commitment's opening checks them).
    let proof_len = values.len() - native_point.len();
    let mut refused = 0;
    for at in 0..proof_len {
        let tampered = tampered(&proof, at);
        let mut check = DuplexChallenger::<Val, _, 16, 8>::new(default16().clone());
        let natively = zerocheck.verify(&air, log_height, &tampered, None, &mut check);
        let reached = natively.as_ref().map_or(native_point.clone(), point_values);
        let in_circuit = verifier_circuit.witness(&circuit_values(&tampered, None, &reached));
        assert_eq!(natively.is_ok(), in_circuit.is_ok(), "value {at} of {proof_len}: {in_circuit:?}");
        refused += usize::from(natively.is_err());
    }
    assert!(refused >= proof_len - proof.next.len(), "{refused} of {proof_len} refused");
}

#[test]
fn a_broken_trace_fails_the_circuits_final_check() {
    let (circuit, inputs) = child();
    let mut trace = honest_traces(&circuit, &inputs).unwrap().swap_remove(1);
    let log_height = trace.height().trailing_zeros() as usize;
    let width = trace.width();
    trace.values[5 * width + 12] += Val::ONE; // a product's result, row 5
    let air = ArithAir::new(&circuit, log_height);
    let zerocheck = SkipZerocheck::new(SKIP);
    let mut native = DuplexChallenger::<Val, _, 16, 8>::new(default16().clone());
    let Ok(Ok((proof, point))) =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| zerocheck.prove(&air, &trace, None, &mut native)))
    else {
        if cfg!(debug_assertions) {
            return; // a debug prover may stop on the broken constraint
        }
        panic!("a release prover refused the broken trace");
    };
    let mut check = DuplexChallenger::<Val, _, 16, 8>::new(default16().clone());
    assert!(zerocheck.verify(&air, log_height, &proof, None, &mut check).is_err());
    let values = circuit_values(&proof, None, &point_values(&point));
    assert!(matches!(verifier(&air, log_height, &proof, None).witness(&values), Err(CircuitError::Unsatisfied { .. })));
}

/// With a bus claim: the native bus argument (fractional GKR) over the
/// child's five tables gives the arithmetic table's claim; the native
/// zerocheck proves the table against it (both sides from a fresh
/// transcript); the circuit, given the claim, reaches the native point,
/// and over every single-value tampering of the proof, and of the claim's
/// value, refuses exactly what the native verifier refuses.
#[test]
fn a_zerocheck_with_a_bus_claim_verifies_in_the_circuit_as_natively() {
    use sigagg_prover::columns::Columns;
    use sigagg_prover::logup;
    use sigagg_recursion::CircuitAir;

    let (circuit, inputs) = child();
    let traces = honest_traces(&circuit, &inputs).unwrap();
    let log = |t: &p3_matrix::dense::RowMajorMatrix<Val>| t.height().trailing_zeros() as usize;
    let airs = sigagg_recursion::statement_view(&Settings::INSECURE_TEST_SKIP, &circuit, &inputs).unwrap().airs;
    let refs: Vec<&CircuitAir> = airs.iter().collect();
    let transposed: Vec<_> = traces.iter().map(|t| t.transpose()).collect();
    let columns: Vec<Columns<'_>> = transposed.iter().map(Columns::of_transposed).collect();
    let mut gkr = DuplexChallenger::<Val, _, 16, 8>::new(default16().clone());
    let (_, claims) = logup::prove(&refs, &columns, &mut gkr).unwrap().expect("the tables send messages");
    let claim: BusClaim = claims[1].clone().expect("the arithmetic table's claim");

    let (air, log_height) = (&airs[1], log(&traces[1]));
    let zerocheck = SkipZerocheck::new(SKIP);
    let mut native = DuplexChallenger::<Val, _, 16, 8>::new(default16().clone());
    let (proof, point) = zerocheck.prove(air, &traces[1], Some(&claim), &mut native).unwrap();
    let native_verify = |proof: &ZerocheckProof, claim: &BusClaim| {
        let mut check = DuplexChallenger::<Val, _, 16, 8>::new(default16().clone());
        zerocheck.verify(air, log_height, proof, Some(claim), &mut check)
    };
    assert_eq!(native_verify(&proof, &claim).unwrap(), point);

    let verifier_circuit = verifier(air, log_height, &proof, Some(&claim));
    let native_point = point_values(&point);
    verifier_circuit.witness(&circuit_values(&proof, Some(&claim), &native_point)).unwrap();

    let cells = proof.skip_values.len() + proof.rounds.iter().map(Vec::len).sum::<usize>() + proof.local.len();
    let mut refused = 0;
    for at in 0..=cells + proof.next.len() {
        let mut tampered_claim = claim.clone();
        let tampered = if at < cells + proof.next.len() {
            tampered(&proof, at)
        } else {
            tampered_claim.value += Ext::ONE;
            proof.clone()
        };
        let natively = native_verify(&tampered, &tampered_claim);
        let reached = natively.as_ref().map_or(native_point.clone(), point_values);
        let in_circuit = verifier_circuit.witness(&circuit_values(&tampered, Some(&tampered_claim), &reached));
        assert_eq!(natively.is_ok(), in_circuit.is_ok(), "value {at}: {in_circuit:?}");
        refused += usize::from(natively.is_err());
    }
    assert!(refused > cells, "{refused} of {} refused", cells + proof.next.len() + 1);
}
