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

use p3_field::PrimeCharacteristicRing;
use p3_sumcheck::{OpeningBatch, SumcheckData};
use p3_symmetric::MerkleCap;
use p3_whir::QueryOpenings;
use sigagg_prover::config::{Val, ValMmcsPoseidon2};
use sigagg_prover::skip_stark::{SkipProof, SkipStarkProof};
use sigagg_prover::{Settings, StarkProof};
use sigagg_recursion::child::{self, ChildStatement, ProofShape, ProofWires};
use sigagg_recursion::whir::{self, PathOracle, native_paths};
use sigagg_recursion::{
    Circuit, CircuitAir, CircuitBuilder, CircuitError, CircuitProof, DIGEST, Ext, StatementView, prove, prove_traces,
    statement_view, traces_of, verify,
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

/// The verifier circuit of proofs of `view`'s statement, the proof's
/// values its inputs (or advice from `advice`), its query paths from
/// `paths`.
fn verifier(view: &StatementView, paths: &PathOracle, advice: Option<Option<Arc<Vec<Ext>>>>) -> Circuit {
    let Settings::Skip(settings) = Settings::WHIR_SKIP_POSEIDON2 else { unreachable!() };
    let airs: Vec<&CircuitAir> = view.airs.iter().collect();
    let statement = ChildStatement {
        airs: &airs,
        log_heights: &view.log_heights,
        skip: view.skip,
        seed: &view.seed,
        settings: &settings,
    };
    let shape = ProofShape::of(&statement).unwrap();
    let mut b = CircuitBuilder::new();
    let wires = match advice {
        None => ProofWires::inputs(&mut b, &shape),
        Some(values) => ProofWires::advice(&mut b, &shape, values),
    };
    child::verify(&mut b, &statement, &wires, paths).unwrap();
    b.build()
}

/// The honest proof's paths; an index the honest proof does not open (a
/// tampered transcript's) gets zero siblings, so that a tampering is
/// refused by the circuit's rows, not by a failing hint.
fn lenient_paths(proof: &CircuitProof) -> PathOracle {
    let honest = native_paths(&body(proof).opening);
    Arc::new(move |site, log_rows, indices| {
        honest(site, log_rows, indices).or_else(|_| Ok(vec![vec![[Val::ZERO; DIGEST]; log_rows]; indices.len()]))
    })
}

#[test]
fn a_whir_skip_proof_verifies_whole_in_the_circuit() {
    let (circuit, inputs) = child();
    let settings = Settings::WHIR_SKIP_POSEIDON2;
    let proof = prove(&settings, &circuit, &inputs).unwrap();
    verify(&settings, &circuit, &inputs, &proof).unwrap();
    let view = statement_view(&settings, &circuit, &inputs).unwrap();
    let paths = lenient_paths(&proof);
    let (honest, rows) = values(&proof);
    assert_eq!(honest, child::values(body(&proof)));
    let verifier_circuit = verifier(&view, &paths, None);
    // The proof's values as inputs, then the seed's (public).
    let with_seed = |values: &[Ext]| verifier_circuit.inputs_with(values).unwrap();
    verifier_circuit.witness(&with_seed(&honest)).unwrap();
    let outer_settings = Settings::INSECURE_TEST_SKIP;
    let outer = prove(&outer_settings, &verifier_circuit, &with_seed(&honest)).unwrap();
    verify(&outer_settings, &verifier_circuit, &with_seed(&honest), &outer).unwrap();

    let bytes = proof.to_bytes();
    let mut tried = 0;
    for at in (0..honest.len()).filter(|&at| !rows[at] || at % 61 == 0) {
        let mut tampered = CircuitProof::from_bytes(&bytes).unwrap();
        tamper(body_mut(&mut tampered), at);
        assert!(verify(&settings, &circuit, &inputs, &tampered).is_err(), "value {at}: natively accepted");
        let in_circuit = verifier_circuit.witness(&with_seed(&child::values(body(&tampered))));
        assert!(
            matches!(in_circuit, Err(CircuitError::Unsatisfied { .. } | CircuitError::NotBase { .. })),
            "value {at} of {}: {in_circuit:?}",
            honest.len()
        );
        tried += 1;
    }
    assert!(tried > 1000, "{tried} tamperings");
}

/// The proof as advice (a merge's form): the circuit has no inputs but
/// the public seed's, its
/// prover's build holds the proof's values and a verifier's build, made
/// from the statement alone, verifies its outer proof; advice from a
/// tampered proof gives no witness.
#[test]
fn a_proof_given_as_advice_verifies_and_a_verifiers_build_checks_it() {
    let (circuit, inputs) = child();
    let settings = Settings::WHIR_SKIP_POSEIDON2;
    let proof = prove(&settings, &circuit, &inputs).unwrap();
    let view = statement_view(&settings, &circuit, &inputs).unwrap();
    let paths = lenient_paths(&proof);
    let honest = Arc::new(child::values(body(&proof)));
    let prover_build = verifier(&view, &paths, Some(Some(honest.clone())));
    assert_eq!(prover_build.num_inputs(), prover_build.publics().len());
    let seed = prover_build.inputs_with(&[]).unwrap();
    let outer_settings = Settings::INSECURE_TEST_SKIP;
    let outer = prove(&outer_settings, &prover_build, &seed).unwrap();
    let verifier_build = verifier(&view, &whir::no_paths(), Some(None));
    verify(&outer_settings, &verifier_build, &seed, &outer).unwrap();
    assert!(matches!(verifier_build.witness(&seed), Err(CircuitError::Hint { .. })));

    let mut tampered = (*honest).clone();
    tampered[20] += Ext::ONE;
    let forged = verifier(&view, &paths, Some(Some(Arc::new(tampered))));
    assert!(matches!(forged.witness(&seed), Err(CircuitError::Unsatisfied { .. })));
    assert!(prove(&outer_settings, &forged, &seed).is_err());
}

/// Cheating witnesses of a verifier circuit, forced past the prover's
/// checks: a wrong Merkle sibling (the path hint lies about one sibling of
/// the first query) and a wrong sumcheck round (the last value of the
/// advice, the final sumcheck's last `h(∞)`, moved). Each breaks a row of
/// the circuit, and its traces, proven anyway, are refused.
#[test]
fn cheating_witnesses_of_the_verifier_circuit_are_refused() {
    let (circuit, inputs) = child();
    let settings = Settings::WHIR_SKIP_POSEIDON2;
    let proof = prove(&settings, &circuit, &inputs).unwrap();
    let view = statement_view(&settings, &circuit, &inputs).unwrap();
    let honest_paths = native_paths(&body(&proof).opening);
    let honest = Arc::new(child::values(body(&proof)));
    let outer_settings = Settings::INSECURE_TEST_SKIP;

    let lying: PathOracle = Arc::new(move |site, log_rows, indices| {
        let mut paths = honest_paths(site, log_rows, indices)?;
        if site == 0 {
            paths[0][0][0] += Val::ONE;
        }
        Ok(paths)
    });
    let mut wrong_round = (*honest).clone();
    *wrong_round.last_mut().unwrap() += Ext::ONE;
    let cheats = [
        ("a wrong Merkle sibling", verifier(&view, &lying, Some(Some(honest.clone())))),
        ("a wrong sumcheck round", verifier(&view, &lenient_paths(&proof), Some(Some(Arc::new(wrong_round))))),
    ];
    let verifier_build = verifier(&view, &whir::no_paths(), Some(None));
    let seed = verifier_build.inputs_with(&[]).unwrap();
    for (what, cheat) in cheats {
        assert!(matches!(cheat.witness(&seed), Err(CircuitError::Unsatisfied { .. })), "{what}");
        let values = cheat.witness_unchecked(&seed).unwrap();
        let traces = traces_of(&cheat, &values).unwrap();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            prove_traces(&outer_settings, &cheat, &seed, traces)
        })) {
            Ok(Ok(forged)) => {
                assert!(verify(&outer_settings, &verifier_build, &seed, &forged).is_err(), "{what}: accepted")
            }
            Ok(Err(_)) => {}
            Err(_) if cfg!(debug_assertions) => {}
            Err(_) => panic!("{what}: a release prover panicked"),
        }
    }
}

/// A child statement the native verifier would refuse before any proof
/// (another hash, another skip than its heights give) is a typed error.
#[test]
fn a_child_statement_the_native_verifier_refuses_is_a_typed_error() {
    let (circuit, inputs) = child();
    let view = statement_view(&Settings::WHIR_SKIP_POSEIDON2, &circuit, &inputs).unwrap();
    let airs: Vec<&CircuitAir> = view.airs.iter().collect();
    let (Settings::Skip(poseidon2), Settings::Skip(sha256)) = (Settings::WHIR_SKIP_POSEIDON2, Settings::WHIR_SKIP)
    else {
        unreachable!()
    };
    let statement = |settings, skip| ChildStatement {
        airs: &airs,
        log_heights: &view.log_heights,
        skip,
        seed: &view.seed,
        settings,
    };
    assert!(ProofShape::of(&statement(&poseidon2, view.skip)).is_ok());
    for bad in [statement(&sha256, view.skip), statement(&poseidon2, view.skip + 1), statement(&poseidon2, 0)] {
        assert!(matches!(ProofShape::of(&bad), Err(CircuitError::Unsupported(_))));
    }
}
