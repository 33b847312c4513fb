//! A whir-skip proof verified whole in a circuit: the native prover proves
//! a small circuit under the recursion setting (whir-skip-poseidon2), the
//! native verifier accepts, and the verifier circuit, given the proof's
//! values, replays the transcript and every check (the bus argument, the
//! zerochecks, the reductions, and WHIR's opening: sumchecks, grinding,
//! queries and their Merkle paths, the final polynomial and identity) and
//! holds; an outer proof of it verifies. Values of every part of the
//! proof moved one at a time (all of them outside the queried rows, a
//! spread of those) are refused natively and in the circuit.

use std::sync::Arc;

use p3_air::BaseAir;
use p3_field::PrimeCharacteristicRing;
use p3_sumcheck::{OpeningBatch, SumcheckData};
use p3_symmetric::MerkleCap;
use p3_whir::QueryOpenings;
use sigagg_prover::config::{Poseidon2Challenger, Val, ValMmcsPoseidon2};
use sigagg_prover::skip_stark::{SkipProof, SkipStarkProof};
use sigagg_prover::{Settings, StarkProof};
use sigagg_recursion::bus::{GkrLayerWires, LogUpWires};
use sigagg_recursion::stark::{StarkProofWires, TableProofWires, verify as verify_in_circuit};
use sigagg_recursion::transcript::CircuitChallenger;
use sigagg_recursion::whir::{self, OpenedTable, PathOracle, RoundWires, SumcheckWires, WhirProofWires, native_paths};
use sigagg_recursion::zerocheck::ZerocheckWires;
use sigagg_recursion::{
    Circuit, CircuitAir, CircuitBuilder, CircuitError, CircuitProof, DIGEST, Ext, StatementView, Wire, prove,
    statement_view, verify,
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

/// The visitor of [`walk`]: a value, and whether it is a queried row's.
type Visit<'a> = &'a mut dyn FnMut(&mut Ext, bool);

/// A base-field value visited as an extension value (a change by an
/// element of the base field keeps it there).
fn base_cell(v: &mut Val, f: Visit<'_>, row: bool) {
    let mut e = Ext::from(*v);
    f(&mut e, row);
    *v = p3_field::BasedVectorSpace::<Val>::as_basis_coefficients_slice(&e)[0];
}

fn root_cells(cap: &mut MerkleCap<Val, [Val; DIGEST]>, f: Visit<'_>) {
    let mut root = cap.roots()[0];
    root.iter_mut().for_each(|v| base_cell(v, f, false));
    *cap = MerkleCap::new(vec![root]);
}

fn sumcheck_cells(data: &mut SumcheckData<Val, Ext>, f: Visit<'_>) {
    data.polynomial_evaluations.iter_mut().flatten().for_each(|v| f(v, false));
    data.pow_witnesses.iter_mut().for_each(|v| base_cell(v, f, false));
}

fn rows_cells<P>(openings: &mut QueryOpenings<Val, Ext, P>, f: Visit<'_>) {
    match openings {
        QueryOpenings::Base(o) => o.rows.iter_mut().flatten().for_each(|v| base_cell(v, f, true)),
        QueryOpenings::Extension(o) => o.rows.iter_mut().flatten().for_each(|v| f(v, true)),
    }
}

/// Every value the circuit reads, in its inputs' order, through `f`.
fn walk(proof: &mut Proof, f: Visit<'_>) {
    root_cells(&mut proof.commitment, f);
    let each = |vs: &mut dyn Iterator<Item = &mut Ext>, f: Visit<'_>| vs.for_each(|v| f(v, false));
    if let Some(bus) = &mut proof.bus {
        f(&mut bus.gkr.root_denominator, false);
        for layer in &mut bus.gkr.layers {
            each(&mut layer.round_polys.iter_mut().flatten(), f);
            let c = &mut layer.claims;
            each(&mut [&mut c.n0, &mut c.d0, &mut c.n1, &mut c.d1].into_iter(), f);
        }
        each(&mut bus.shares.iter_mut(), f);
    }
    for t in &mut proof.tables {
        let z = &mut t.zerocheck;
        each(&mut z.skip_values.iter_mut().chain(z.rounds.iter_mut().flatten()), f);
        each(&mut z.local.iter_mut().chain(z.next.iter_mut()), f);
        each(&mut t.reduction.iter_mut().flatten(), f);
    }
    for batch in &mut proof.opening.evals {
        let (mut current, mut next) = (batch.current().to_vec(), batch.next().to_vec());
        each(&mut current.iter_mut().chain(next.iter_mut()), f);
        *batch = OpeningBatch::new(current, next);
    }
    let w = &mut proof.opening.whir;
    each(&mut w.initial_ood_answers.iter_mut(), f);
    sumcheck_cells(&mut w.initial_sumcheck, f);
    for round in &mut w.rounds {
        root_cells(round.commitment.as_mut().expect("a round commitment"), f);
        each(&mut round.ood_answers.iter_mut(), f);
        base_cell(&mut round.pow_witness, f, false);
        rows_cells(&mut round.openings, f);
        sumcheck_cells(&mut round.sumcheck, f);
    }
    each(&mut w.final_poly.as_mut().expect("a final polynomial").as_mut_slice().iter_mut(), f);
    base_cell(&mut w.final_pow_witness, f, false);
    rows_cells(&mut w.final_openings, f);
    if let Some(data) = &mut w.final_sumcheck {
        sumcheck_cells(data, f);
    }
}

/// A proof's values and, per value, whether it is a queried row's.
fn values(proof: &CircuitProof) -> (Vec<Ext>, Vec<bool>) {
    let mut copy = CircuitProof::from_bytes(&proof.to_bytes()).unwrap();
    let (mut out, mut rows) = (Vec::new(), Vec::new());
    walk(body_mut(&mut copy), &mut |v, row| {
        out.push(*v);
        rows.push(row);
    });
    (out, rows)
}

fn tamper(proof: &mut Proof, at: usize) {
    let mut i = 0;
    walk(proof, &mut |v, _| {
        if i == at {
            *v += Ext::ONE;
        }
        i += 1;
    });
}

fn sumcheck_wires(b: &mut CircuitBuilder, data: &SumcheckData<Val, Ext>) -> SumcheckWires {
    SumcheckWires {
        rounds: data.polynomial_evaluations.iter().map(|_| [b.input(), b.input()]).collect(),
        pow_witnesses: data.pow_witnesses.iter().map(|_| b.input()).collect(),
    }
}

fn rows_wires(b: &mut CircuitBuilder, openings: &QueryOpenings<Val, Ext, impl Sized>) -> Vec<Vec<Wire>> {
    let rows: Vec<usize> = match openings {
        QueryOpenings::Base(o) => o.rows.iter().map(Vec::len).collect(),
        QueryOpenings::Extension(o) => o.rows.iter().map(Vec::len).collect(),
    };
    rows.into_iter().map(|len| (0..len).map(|_| b.input()).collect()).collect()
}

/// The verifier circuit of proofs of `proof`'s shape for `view`, its
/// query paths from `paths`.
fn verifier(view: &StatementView, proof: &Proof, paths: &PathOracle) -> Circuit {
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
    let w = &proof.opening.whir;
    let initial_ood_answers = inputs(&mut b, w.initial_ood_answers.len());
    let initial_sumcheck = sumcheck_wires(&mut b, &w.initial_sumcheck);
    let rounds = w
        .rounds
        .iter()
        .map(|r| RoundWires {
            commitment: inputs(&mut b, DIGEST).try_into().unwrap(),
            ood_answers: inputs(&mut b, r.ood_answers.len()),
            pow_witness: b.input(),
            rows: rows_wires(&mut b, &r.openings),
            sumcheck: sumcheck_wires(&mut b, &r.sumcheck),
        })
        .collect();
    let final_poly = inputs(&mut b, w.final_poly.as_ref().unwrap().as_slice().len());
    let final_pow_witness = b.input();
    let final_rows = rows_wires(&mut b, &w.final_openings);
    let final_sumcheck = w.final_sumcheck.as_ref().map(|d| sumcheck_wires(&mut b, d));
    let whir_wires = WhirProofWires {
        initial_ood_answers,
        initial_sumcheck,
        rounds,
        final_poly,
        final_pow_witness,
        final_rows,
        final_sumcheck,
    };

    let wires = StarkProofWires { commitment, bus, tables };
    let mut transcript = CircuitChallenger::with_seed(&mut b, &view.seed);
    let airs: Vec<&CircuitAir> = view.airs.iter().collect();
    let claims =
        verify_in_circuit(&mut b, &mut transcript, (&airs, view.skip, &view.log_heights), &wires, &openings).unwrap();
    let opened: Vec<OpenedTable> = view
        .airs
        .iter()
        .zip(&view.log_heights)
        .map(|(air, &h)| OpenedTable {
            log_rows: h,
            width: BaseAir::<Val>::width(air),
            next: air.main_next_row_columns(),
        })
        .collect();
    let shapes: Vec<(usize, usize)> = opened.iter().map(|t| (t.log_rows, t.width)).collect();
    let Settings::Skip(settings) = Settings::WHIR_SKIP_POSEIDON2 else { unreachable!() };
    let (config, _) = sigagg_prover::whir::whir_config::<Poseidon2Challenger>(&settings, &shapes).unwrap();
    whir::verify(&mut b, &mut transcript, &config, &opened, (commitment, &claims), &whir_wires, paths).unwrap();
    b.build()
}

#[test]
fn a_whir_skip_proof_verifies_whole_in_the_circuit() {
    let (circuit, inputs) = child();
    let settings = Settings::WHIR_SKIP_POSEIDON2;
    let proof = prove(&settings, &circuit, &inputs).unwrap();
    verify(&settings, &circuit, &inputs, &proof).unwrap();
    let view = statement_view(&settings, &circuit, &inputs).unwrap();
    // The honest proof's paths; an index the honest proof does not open
    // (a tampered transcript's) gets zero siblings, so that a tampering
    // is refused by the circuit's rows, not by a failing hint.
    let honest_paths = native_paths(&body(&proof).opening);
    let paths: PathOracle = Arc::new(move |site, log_rows, indices| {
        honest_paths(site, log_rows, indices).or_else(|_| Ok(vec![vec![[Val::ZERO; DIGEST]; log_rows]; indices.len()]))
    });
    let (honest, rows) = values(&proof);
    let verifier_circuit = verifier(&view, body(&proof), &paths);
    verifier_circuit.witness(&honest).unwrap();
    let outer_settings = Settings::INSECURE_TEST_SKIP;
    let outer = prove(&outer_settings, &verifier_circuit, &honest).unwrap();
    verify(&outer_settings, &verifier_circuit, &honest, &outer).unwrap();

    let bytes = proof.to_bytes();
    let mut tried = 0;
    for at in (0..honest.len()).filter(|&at| !rows[at] || at % 61 == 0) {
        let mut tampered = CircuitProof::from_bytes(&bytes).unwrap();
        tamper(body_mut(&mut tampered), at);
        assert!(verify(&settings, &circuit, &inputs, &tampered).is_err(), "value {at}: natively accepted");
        let in_circuit = verifier_circuit.witness(&values(&tampered).0);
        assert!(
            matches!(in_circuit, Err(CircuitError::Unsatisfied { .. } | CircuitError::NotBase { .. })),
            "value {at} of {}: {in_circuit:?}",
            honest.len()
        );
        tried += 1;
    }
    assert!(tried > 1000, "{tried} tamperings");
}
