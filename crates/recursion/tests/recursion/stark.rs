//! A whir-skip proof verified in a circuit up to its opening: the native
//! prover proves a small circuit under the recursion setting
//! (whir-skip-poseidon2), the native verifier accepts, and the verifier
//! circuit, given the proof's values (the commitment's root, the bus
//! argument, each table's zerocheck and reduction, the opened values),
//! replays the transcript and every check but WHIR's and holds; an outer
//! proof of it verifies. Every single value of those parts moved is
//! refused natively and in the circuit.

use p3_field::PrimeCharacteristicRing;
use p3_sumcheck::OpeningBatch;
use p3_symmetric::MerkleCap;
use sigagg_prover::config::{Val, ValMmcsPoseidon2};
use sigagg_prover::skip_stark::{SkipProof, SkipStarkProof};
use sigagg_prover::{Settings, StarkProof};
use sigagg_recursion::bus::{GkrLayerWires, LogUpWires};
use sigagg_recursion::stark::{StarkProofWires, TableProofWires, verify as verify_in_circuit};
use sigagg_recursion::transcript::CircuitChallenger;
use sigagg_recursion::zerocheck::ZerocheckWires;
use sigagg_recursion::{
    Circuit, CircuitAir, CircuitBuilder, CircuitProof, DIGEST, Ext, StatementView, Wire, prove, statement_view, verify,
};

use super::zerocheck::child;

type Proof = SkipStarkProof<ValMmcsPoseidon2>;

fn body(proof: &CircuitProof) -> &Proof {
    match &proof.stark {
        StarkProof::Skip(SkipProof::Poseidon2(body)) => body.proof(),
        _ => panic!("a whir-skip-poseidon2 proof"),
    }
}

fn body_mut(proof: &mut CircuitProof) -> &mut Proof {
    match &mut proof.stark {
        StarkProof::Skip(SkipProof::Poseidon2(body)) => body.proof_mut(),
        _ => panic!("a whir-skip-poseidon2 proof"),
    }
}

/// Every value the circuit reads, in its inputs' order: the root, the
/// bus argument, each table's zerocheck and reduction, the opened values.
fn values(proof: &Proof) -> Vec<Ext> {
    let mut v: Vec<Ext> = proof.commitment.roots()[0].iter().map(|&x| Ext::from(x)).collect();
    if let Some(bus) = &proof.bus {
        v.push(bus.gkr.root_denominator);
        for layer in &bus.gkr.layers {
            v.extend(layer.round_polys.iter().flatten());
            let c = &layer.claims;
            v.extend([c.n0, c.d0, c.n1, c.d1]);
        }
        v.extend(&bus.shares);
    }
    for t in &proof.tables {
        let z = &t.zerocheck;
        v.extend(z.skip_values.iter().chain(z.rounds.iter().flatten()).chain(&z.local).chain(&z.next));
        v.extend(t.reduction.iter().flatten());
    }
    for batch in &proof.opening.evals {
        v.extend(batch.current().iter().chain(batch.next()));
    }
    v
}

/// Value number `at` of [`values`]' list moved (by one; a root's limb
/// within the base field).
fn tamper(proof: &mut Proof, at: usize) {
    let mut at = at;
    if at < DIGEST {
        let mut root = proof.commitment.roots()[0];
        root[at] += Val::ONE;
        proof.commitment = MerkleCap::new(vec![root]);
        return;
    }
    at -= DIGEST;
    let mut cells: Vec<&mut Ext> = Vec::new();
    if let Some(bus) = &mut proof.bus {
        cells.push(&mut bus.gkr.root_denominator);
        for layer in &mut bus.gkr.layers {
            cells.extend(layer.round_polys.iter_mut().flatten());
            let c = &mut layer.claims;
            cells.extend([&mut c.n0, &mut c.d0, &mut c.n1, &mut c.d1]);
        }
        cells.extend(bus.shares.iter_mut());
    }
    for t in &mut proof.tables {
        let z = &mut t.zerocheck;
        cells.extend(z.skip_values.iter_mut().chain(z.rounds.iter_mut().flatten()));
        cells.extend(z.local.iter_mut().chain(z.next.iter_mut()));
        cells.extend(t.reduction.iter_mut().flatten());
    }
    if at < cells.len() {
        *cells[at] += Ext::ONE;
        return;
    }
    at -= cells.len();
    for batch in &mut proof.opening.evals {
        let (mut current, mut next) = (batch.current().to_vec(), batch.next().to_vec());
        let len = current.len() + next.len();
        if at < len {
            if at < current.len() {
                current[at] += Ext::ONE;
            } else {
                next[at - current.len()] += Ext::ONE;
            }
            *batch = OpeningBatch::new(current, next);
            return;
        }
        at -= len;
    }
    panic!("no value {at}");
}

/// The verifier circuit of proofs of `proof`'s shape for `view`.
fn verifier(view: &StatementView, proof: &Proof) -> Circuit {
    let mut b = CircuitBuilder::new();
    let inputs = |b: &mut CircuitBuilder, n: usize| -> Vec<Wire> { (0..n).map(|_| b.input()).collect() };
    let commitment: [Wire; DIGEST] = inputs(&mut b, DIGEST).try_into().unwrap();
    let bus = proof.bus.as_ref().map(|bus| LogUpWires {
        root_denominator: b.input(),
        layers: bus
            .gkr
            .layers
            .iter()
            .map(|layer| GkrLayerWires {
                rounds: layer.round_polys.iter().map(|_| [b.input(), b.input(), b.input()]).collect(),
                claims: [b.input(), b.input(), b.input(), b.input()],
            })
            .collect(),
        shares: inputs(&mut b, bus.shares.len()),
    });
    let tables = proof
        .tables
        .iter()
        .map(|t| {
            let z = &t.zerocheck;
            TableProofWires {
                zerocheck: ZerocheckWires {
                    skip_values: inputs(&mut b, z.skip_values.len()),
                    rounds: z.rounds.iter().map(|r| inputs(&mut b, r.len())).collect(),
                    local: inputs(&mut b, z.local.len()),
                    next: inputs(&mut b, z.next.len()),
                },
                reduction: t.reduction.iter().map(|_| [b.input(), b.input(), b.input()]).collect(),
            }
        })
        .collect();
    let openings: Vec<Vec<Wire>> =
        proof.opening.evals.iter().map(|e| inputs(&mut b, e.current().len() + e.next().len())).collect();
    let wires = StarkProofWires { commitment, bus, tables };
    let mut transcript = CircuitChallenger::with_seed(&mut b, &view.seed);
    let airs: Vec<&CircuitAir> = view.airs.iter().collect();
    verify_in_circuit(&mut b, &mut transcript, (&airs, view.skip, &view.log_heights), &wires, &openings).unwrap();
    b.build()
}

#[test]
fn a_whir_skip_proof_verifies_in_the_circuit_up_to_its_opening() {
    let (circuit, inputs) = child();
    let settings = Settings::WHIR_SKIP_POSEIDON2;
    let proof = prove(&settings, &circuit, &inputs).unwrap();
    verify(&settings, &circuit, &inputs, &proof).unwrap();
    let view = statement_view(&settings, &circuit, &inputs).unwrap();
    let honest = values(body(&proof));
    let verifier_circuit = verifier(&view, body(&proof));
    verifier_circuit.witness(&honest).unwrap();
    let outer_settings = Settings::INSECURE_TEST_SKIP;
    let outer = prove(&outer_settings, &verifier_circuit, &honest).unwrap();
    verify(&outer_settings, &verifier_circuit, &honest, &outer).unwrap();

    let bytes = proof.to_bytes();
    for at in 0..honest.len() {
        let mut tampered = CircuitProof::from_bytes(&bytes).unwrap();
        tamper(body_mut(&mut tampered), at);
        assert!(verify(&settings, &circuit, &inputs, &tampered).is_err(), "value {at}: natively accepted");
        assert!(verifier_circuit.witness(&values(body(&tampered))).is_err(), "value {at} of {}", honest.len());
    }
}
