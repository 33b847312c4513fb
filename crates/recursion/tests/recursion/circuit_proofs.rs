//! Circuit proofs end to end: honest proofs verify under each backend and
//! survive their encoding; another statement, flipped bytes and forged
//! witnesses, forced past the prover's checks, are refused.

use std::panic::{AssertUnwindSafe, catch_unwind};

use p3_field::{BasedVectorSpace, PrimeCharacteristicRing};
use p3_matrix::dense::RowMajorMatrix;
use p3_symmetric::Permutation;
use sigagg_prover::Settings;
use sigagg_prover::config::Val;
use sigagg_recursion::air::{ArithCols, BaseWitnessCols, WitnessCols, perm_columns};
use sigagg_recursion::{
    Circuit, CircuitBuilder, CircuitError, CircuitProof, Ext, PERM_WIDTH, Wire, honest_traces, prove, prove_traces,
    verify,
};

fn ext(seed: u32) -> Ext {
    Ext::from_basis_coefficients_fn(|k| Val::from_u32(seed.wrapping_mul(2_654_435_761).wrapping_add(k as u32) >> 2))
}

/// The test statement: for public `c0..c3`, `x`, `d` and `y`,
/// `y = (c0 + c1 x + c2 x² + c3 x³ − d) / x`, with `x²` computed once more
/// on its own so that the witness table has padding rows (17 wires).
/// Returns the circuit, honest inputs, and the wires of `x` (an input)
/// and of the polynomial's value (an intermediate wire).
fn statement() -> (Circuit, Vec<Ext>, Wire, Wire) {
    let mut b = CircuitBuilder::new();
    let c: Vec<Wire> = (0..4).map(|_| b.input()).collect();
    let (x, d, y) = (b.input(), b.input(), b.input());
    let _square = b.mul(x, x);
    // One more extension wire than a power of two: the extension witness
    // table has padding rows (a test forges one).
    let _sum = b.add(c[0], c[1]);
    let value = b.horner(&c, x).expect("four coefficients");
    let shifted = b.sub(value, d);
    let quotient = b.div(shifted, x);
    b.assert_eq(quotient, y);
    let circuit = b.build();
    let (cs, vx, vd) = ([ext(1), ext(2), ext(3), ext(4)], ext(5), ext(6));
    let poly = cs[0] + cs[1] * vx + cs[2] * vx * vx + cs[3] * vx * vx * vx;
    let inputs = vec![cs[0], cs[1], cs[2], cs[3], vx, vd, (poly - vd) / vx];
    (circuit, inputs, x, value)
}

/// whir-skip over SHA-256 (insecure, for speed) and over Poseidon2 (the
/// recursion setting).
const SETTINGS: [Settings; 2] = [Settings::INSECURE_TEST_SKIP, Settings::WHIR_SKIP_POSEIDON2];

#[test]
fn honest_proofs_verify_under_each_backend_and_their_encoding() {
    let (circuit, inputs, _, _) = statement();
    for settings in SETTINGS {
        let proof = prove(&settings, &circuit, &inputs).unwrap();
        verify(&settings, &circuit, &inputs, &proof).unwrap();
        let bytes = proof.to_bytes();
        verify(&settings, &circuit, &inputs, &CircuitProof::from_bytes(&bytes).unwrap()).unwrap();
        let other = if settings == SETTINGS[0] { SETTINGS[1] } else { SETTINGS[0] };
        assert!(verify(&other, &circuit, &inputs, &proof).is_err(), "{settings:?} verified as {other:?}");
    }
    for other in [Settings::INSECURE_TEST, Settings::INSECURE_TEST_WHIR] {
        let refused = Err(CircuitError::Backend(other.backend()));
        assert_eq!(prove(&other, &circuit, &inputs).map(|_| ()), refused);
        let proof = prove(&SETTINGS[0], &circuit, &inputs).unwrap();
        assert_eq!(verify(&other, &circuit, &inputs, &proof), refused);
    }
}

#[test]
fn another_statement_is_refused() {
    let (circuit, inputs, _, _) = statement();
    let settings = SETTINGS[0];
    let proof = prove(&settings, &circuit, &inputs).unwrap();
    for i in 0..inputs.len() {
        let mut wrong = inputs.clone();
        wrong[i] += Ext::ONE;
        assert!(matches!(verify(&settings, &circuit, &wrong, &proof), Err(CircuitError::Verify(_))), "input {i}");
        assert!(prove(&settings, &circuit, &wrong).is_err(), "the prover accepted input {i} changed");
    }
    assert_eq!(
        verify(&settings, &circuit, &inputs[1..], &proof),
        Err(CircuitError::InputCount { expected: 7, found: 6 })
    );
    // The same inputs, another circuit (the last equality against c0).
    let mut b = CircuitBuilder::new();
    let c: Vec<Wire> = (0..4).map(|_| b.input()).collect();
    let (x, d, y) = (b.input(), b.input(), b.input());
    let value = b.horner(&c, x).expect("four coefficients");
    let shifted = b.sub(value, d);
    let quotient = b.div(shifted, x);
    b.assert_eq(quotient, y);
    let _ = b.add(c[0], y);
    assert!(verify(&settings, &b.build(), &inputs, &proof).is_err());
}

#[test]
fn flipped_bytes_are_refused() {
    let (circuit, inputs, _, _) = statement();
    let settings = SETTINGS[0];
    let bytes = prove(&settings, &circuit, &inputs).unwrap().to_bytes();
    let mut decoded = 0;
    for at in (7..bytes.len()).step_by((bytes.len() / 80).max(1)) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x08;
        if let Ok(proof) = CircuitProof::from_bytes(&flipped) {
            decoded += 1;
            assert!(verify(&settings, &circuit, &inputs, &proof).is_err(), "flip at {at} accepted");
        }
    }
    assert!(decoded > 20, "only {decoded} flipped proofs decoded");
    assert!(matches!(CircuitProof::from_bytes(&bytes[..bytes.len() - 1]), Err(CircuitError::Decode(_))));
}

/// Proves forged traces past every check of the prover; the verifier must
/// refuse whatever proof comes out. A debug build's prover may stop on a
/// broken constraint instead; a release build proves anything.
fn assert_refused(
    settings: &Settings,
    circuit: &Circuit,
    inputs: &[Ext],
    traces: Vec<RowMajorMatrix<Val>>,
    what: &str,
) {
    match catch_unwind(AssertUnwindSafe(|| prove_traces(settings, circuit, inputs, traces))) {
        Ok(Ok(proof)) => assert!(verify(settings, circuit, inputs, &proof).is_err(), "{what}: accepted"),
        Ok(Err(_)) => {}
        Err(_) if cfg!(debug_assertions) => {}
        Err(_) => panic!("{what}: a release prover panicked"),
    }
}

/// A cell of the witness table: `(row, column)`.
fn witness_cell(traces: &mut [RowMajorMatrix<Val>], row: usize, column: usize) -> &mut Val {
    let width = WitnessCols::<u8>::WIDTH;
    &mut traces[0].values[row * width + column]
}

/// Every arithmetic cell that reads `wire`, in the honest traces.
fn reads_of(circuit: &Circuit, wire: Wire) -> Vec<(usize, usize)> {
    let (a, b, c) = (
        core::mem::offset_of!(ArithCols<u8>, a),
        core::mem::offset_of!(ArithCols<u8>, b),
        core::mem::offset_of!(ArithCols<u8>, c),
    );
    let mut cells = Vec::new();
    for (r, row) in circuit.rows().iter().enumerate() {
        for (w, offset) in [(row.a, a), (row.b, b), (row.c, c)] {
            if w == wire {
                cells.push((r, offset));
            }
        }
    }
    cells
}

/// Adds `delta` to limb 0 of `wire`'s value in the witness table and, with
/// `consistently`, in every arithmetic cell that reads it.
fn shift_wire(circuit: &Circuit, traces: &mut [RowMajorMatrix<Val>], wire: Wire, consistently: bool) {
    let value = core::mem::offset_of!(WitnessCols<u8>, value);
    *witness_cell(traces, circuit.id(wire), value) += Val::ONE;
    if consistently {
        let width = ArithCols::<u8>::WIDTH;
        for (r, offset) in reads_of(circuit, wire) {
            traces[1].values[r * width + offset] += Val::ONE;
        }
    }
}

#[test]
fn forged_witnesses_are_refused_under_each_backend() {
    let (circuit, inputs, x, value) = statement();
    let honest = honest_traces(&circuit, &inputs).unwrap();
    let (id, mult) = (core::mem::offset_of!(WitnessCols<u8>, id), core::mem::offset_of!(WitnessCols<u8>, mult));
    for settings in SETTINGS {
        // The honest traces prove through the same path.
        let proof = prove_traces(&settings, &circuit, &inputs, honest.clone()).unwrap();
        verify(&settings, &circuit, &inputs, &proof).unwrap();

        // An intermediate wire's value changed in the witness table only:
        // its reads no longer balance.
        let mut t = honest.clone();
        shift_wire(&circuit, &mut t, value, false);
        assert_refused(&settings, &circuit, &inputs, t, "a wire the reads disagree with");

        // Changed everywhere it is read: the bus balances, the row that
        // made it does not hold.
        let mut t = honest.clone();
        shift_wire(&circuit, &mut t, value, true);
        assert_refused(&settings, &circuit, &inputs, t, "a wire no row computes");

        // x² changed where it is read, by its own product row alone: only
        // that product fails.
        let mut t = honest.clone();
        shift_wire(&circuit, &mut t, circuit.rows()[0].c, true);
        assert_refused(&settings, &circuit, &inputs, t, "a product that is not one");

        // An input changed everywhere: the fixed value is not the statement's.
        let mut t = honest.clone();
        shift_wire(&circuit, &mut t, x, true);
        assert_refused(&settings, &circuit, &inputs, t, "an input that is not the statement's");

        // The honest witness offered for a false statement (another y):
        // every row holds, but the fixed wire is not the statement's.
        let mut false_inputs = inputs.clone();
        false_inputs[6] += Ext::ONE;
        assert_refused(&settings, &circuit, &false_inputs, honest.clone(), "the witness of other inputs");

        // One read too many provided.
        let mut t = honest.clone();
        *witness_cell(&mut t, value.index(), mult) += Val::ONE;
        assert_refused(&settings, &circuit, &inputs, t, "a multiplicity");

        // Two rows claiming the same wire number (the counter broken).
        let mut t = honest.clone();
        *witness_cell(&mut t, 3, id) = Val::from_u32(2);
        assert_refused(&settings, &circuit, &inputs, t, "a repeated wire number");

        // An arithmetic read of another value (the witness unchanged).
        let mut t = honest.clone();
        t[1].values[ArithCols::<u8>::WIDTH + 2] += Val::ONE;
        assert_refused(&settings, &circuit, &inputs, t, "a read of another value");
    }
}

/// A false statement (`y + ε`) through one wire given two values: the
/// quotient keeps its value where the division reads it and is `q + ε`
/// where the final equality reads it, from a padding row of the witness
/// table that claims the quotient's number. Every row holds and the bus
/// balances; only the counter (one row per wire number) refuses it.
#[test]
fn a_wire_with_two_values_is_refused() {
    let (circuit, inputs, _, _) = statement();
    let settings = SETTINGS[0];
    let eps = ext(99);
    let mut false_inputs = inputs.clone();
    false_inputs[6] += eps;
    let assert_row = circuit.rows().len() - 1;
    let last = circuit.rows()[assert_row];
    let (q, y) = (last.a, last.c);
    let mut t = honest_traces(&circuit, &inputs).unwrap();
    let (id, value, mult) = (
        core::mem::offset_of!(WitnessCols<u8>, id),
        core::mem::offset_of!(WitnessCols<u8>, value),
        core::mem::offset_of!(WitnessCols<u8>, mult),
    );
    let limbs = |e: Ext| -> Vec<Val> { e.as_basis_coefficients_slice().to_vec() };
    // y's row holds the false input; the equality reads q + ε and y + ε.
    let honest_y = inputs[6];
    for (k, limb) in limbs(honest_y + eps).into_iter().enumerate() {
        *witness_cell(&mut t, circuit.id(y), value + k) = limb;
    }
    let width = ArithCols::<u8>::WIDTH;
    let (a, c) = (core::mem::offset_of!(ArithCols<u8>, a), core::mem::offset_of!(ArithCols<u8>, c));
    let honest_q = honest_y;
    for (k, limb) in limbs(honest_q + eps).into_iter().enumerate() {
        t[1].values[assert_row * width + a + k] = limb;
    }
    for (k, limb) in limbs(honest_y + eps).into_iter().enumerate() {
        t[1].values[assert_row * width + c + k] = limb;
    }
    // A padding row provides (q, q + ε) once; q's own row one read fewer.
    let pad = circuit.ext_wires().len();
    assert!(pad < t[0].values.len() / WitnessCols::<u8>::WIDTH, "the witness table has a padding row");
    *witness_cell(&mut t, pad, id) = Val::from_usize(circuit.id(q));
    for (k, limb) in limbs(honest_q + eps).into_iter().enumerate() {
        *witness_cell(&mut t, pad, value + k) = limb;
    }
    *witness_cell(&mut t, pad, mult) = Val::ONE;
    *witness_cell(&mut t, circuit.id(q), mult) -= Val::ONE;
    assert_refused(&settings, &circuit, &false_inputs, t, "a wire with two values");
}

#[test]
fn oversize_and_malformed_statements_are_typed_errors() {
    let (circuit, inputs, _, _) = statement();
    let settings = SETTINGS[0];
    assert_eq!(
        prove(&settings, &circuit, &inputs[..2]).err(),
        Some(CircuitError::InputCount { expected: 7, found: 2 })
    );
    let mut b = CircuitBuilder::new();
    let (x, zero) = (b.input(), b.input());
    let _ = b.div(x, zero);
    assert_eq!(
        prove(&settings, &b.build(), &[Ext::ONE, Ext::ZERO]).err(),
        Some(CircuitError::DivisionByZero { wire: 2 })
    );
}

/// A Merkle compression as the recursion setting's trees make it: the
/// first 8 lanes of Poseidon2(left ‖ right) equal a public digest.
/// Returns the circuit and honest inputs (left, right, digest).
fn compression() -> (Circuit, Vec<Ext>) {
    let mut b = CircuitBuilder::new();
    let state: [Wire; PERM_WIDTH] = core::array::from_fn(|_| b.input());
    let digest: Vec<Wire> = (0..8).map(|_| b.input()).collect();
    let out = b.poseidon2(state);
    for (o, d) in out.iter().zip(&digest) {
        b.assert_eq(*o, *d);
    }
    let children: [Val; PERM_WIDTH] = core::array::from_fn(|i| Val::from_u32(1000 + 37 * i as u32));
    let node = sigagg_koalabear::poseidon2::default16().permute(children);
    let inputs = children.iter().chain(&node[..8]).map(|&v| Ext::from(v)).collect();
    (b.build(), inputs)
}

#[test]
fn a_compression_proves_and_a_false_digest_is_refused() {
    let (circuit, inputs) = compression();
    // Lanes 8..16 of the output are read by nothing: they have no wire
    // row, and the permutation table does not read them.
    let outputs = circuit.perms()[0].outputs;
    assert!(outputs[..8].iter().all(|w| circuit.tabled_id(*w).is_some()));
    assert!(outputs[8..].iter().all(|w| circuit.tabled_id(*w).is_none()));
    for settings in SETTINGS {
        let proof = prove(&settings, &circuit, &inputs).unwrap();
        verify(&settings, &circuit, &inputs, &proof).unwrap();
        let mut wrong = inputs.clone();
        wrong[PERM_WIDTH + 3] += Ext::ONE;
        assert!(verify(&settings, &circuit, &wrong, &proof).is_err());
        assert_eq!(prove(&settings, &circuit, &wrong).err(), Some(CircuitError::Unsatisfied { row: 3 }));

        // The false digest with every wire consistent: the witness, the
        // equality's reads and the permutation table's output cell all
        // say digest + 1; only the permutation's constraints refuse it.
        let mut t = honest_traces(&circuit, &inputs).unwrap();
        // The output is a base wire (the base witness table, ids from
        // the extension table's height on), the digest input an
        // extension wire.
        let out = circuit.id(circuit.perms()[0].outputs[3]) - t[0].values.len() / WitnessCols::<u8>::WIDTH;
        t[4].values[out * BaseWitnessCols::<u8>::WIDTH + core::mem::offset_of!(BaseWitnessCols<u8>, value)] += Val::ONE;
        let input_wire = PERM_WIDTH + 3;
        t[0].values[input_wire * WitnessCols::<u8>::WIDTH + core::mem::offset_of!(WitnessCols<u8>, value)] += Val::ONE;
        let width = ArithCols::<u8>::WIDTH;
        for cell in [core::mem::offset_of!(ArithCols<u8>, a), core::mem::offset_of!(ArithCols<u8>, c)] {
            t[1].values[3 * width + cell] += Val::ONE;
        }
        let perm_width = t[2].width;
        t[2].values[perm_columns(3).1] += Val::ONE;
        assert!(perm_width > 2 * PERM_WIDTH);
        assert_refused(&settings, &circuit, &wrong, t, "a permutation output that is not Poseidon2's");
    }
    let mut wide = inputs.clone();
    wide[5] = Ext::from_basis_coefficients_fn(|k| Val::from_u32(k as u32 + 1));
    assert_eq!(prove(&SETTINGS[0], &circuit, &wide).err(), Some(CircuitError::NotBase { wire: 5 }));
}

/// The base witness table, forged past the prover: its counter moved to
/// the extension table's ids (row 0 claiming id 0, a wire the extension
/// table already numbers), a permutation output changed there only (its
/// reads disagree), and a base constant (the shared zero) changed there
/// and in every read of it, are each refused.
#[test]
fn forged_base_wires_are_refused() {
    let (circuit, inputs) = compression();
    let settings = SETTINGS[0];
    let honest = honest_traces(&circuit, &inputs).unwrap();
    let width = BaseWitnessCols::<u8>::WIDTH;
    let (id, value) =
        (core::mem::offset_of!(BaseWitnessCols<u8>, id), core::mem::offset_of!(BaseWitnessCols<u8>, value));
    let ext_height = honest[0].values.len() / WitnessCols::<u8>::WIDTH;
    let row_of = |w: Wire| circuit.id(w) - ext_height;

    let mut t = honest.clone();
    t[4].values[id] = Val::ZERO;
    assert_refused(&settings, &circuit, &inputs, t, "a base row numbered as an extension wire");

    let mut t = honest.clone();
    t[4].values[row_of(circuit.perms()[0].outputs[0]) * width + value] += Val::ONE;
    assert_refused(&settings, &circuit, &inputs, t, "a permutation output its reads disagree with");

    let zero = circuit.rows()[0].b;
    assert!(circuit.id(zero) >= ext_height, "the shared zero is a base wire");
    let mut t = honest.clone();
    t[4].values[row_of(zero) * width + value] += Val::ONE;
    let arith = ArithCols::<u8>::WIDTH;
    for (r, offset) in reads_of(&circuit, zero) {
        t[1].values[r * arith + offset] += Val::ONE;
    }
    assert_refused(&settings, &circuit, &inputs, t, "a constant that is not its value");
}

/// A placeholder view (a withheld proof's statement) keeps the heights it
/// is given and one row per fixed column, however tall the tables claim to
/// be; other than five heights, or one past the tallest table, is refused;
/// its seed ends with the digest.
#[test]
fn placeholder_views_cost_nothing_for_tall_claims() {
    let settings = Settings::WHIR_SKIP_POSEIDON2;
    let tallest = [sigagg_recursion::MAX_LOG_HEIGHT; 5];
    let view = sigagg_recursion::placeholder_view(&settings, &tallest, [9; 32]).unwrap();
    assert_eq!(view.log_heights, tallest);
    assert!(view.seed.ends_with(&[9; 32]));
    for air in &view.airs {
        assert!(p3_air::BaseAir::<Val>::periodic_columns(air).iter().all(|c| c.len() == 1));
    }
    for heights in [&[10; 4][..], &[10, 10, 10, 10, 25]] {
        assert!(sigagg_recursion::placeholder_view(&settings, heights, [9; 32]).is_err(), "{heights:?}");
    }
}

/// `y = c·x + p` for inputs `c`, `x`, `y` and a public `p` built with the
/// value `p`: inputs `c, x, p, y` in that order.
fn with_public(p: u32) -> Circuit {
    let mut b = CircuitBuilder::new();
    let (c, x) = (b.input(), b.input());
    let p = b.public(Ext::from_u32(p));
    let y = b.input();
    let cx = b.mul(c, x);
    let value = b.add(cx, p);
    b.assert_eq(value, y);
    b.build()
}

/// A verifying key built from a circuit with one public value verifies a
/// proof of the circuit built with another exactly as that circuit does:
/// its statement (digest, seed, tables) under the inputs is the circuit's,
/// bit for bit; other inputs, another count, another circuit's proof and
/// another setting are refused.
#[test]
fn a_verifying_key_decides_as_the_circuit_does() {
    use p3_air::BaseAir;
    use sigagg_recursion::{VerifyingKey, statement_view, verify_level};

    let key = VerifyingKey::new(&with_public(1)).unwrap();
    let circuit = with_public(5);
    let settings = Settings::INSECURE_TEST_SKIP;
    let inputs: Vec<Ext> = [3, 4, 5, 17].map(Ext::from_u32).to_vec();
    let claims: Vec<Ext> = [3, 4, 17].map(Ext::from_u32).to_vec();
    assert_eq!(circuit.inputs_with(&claims).unwrap(), inputs);
    assert_eq!(circuit.claims_of(&inputs), claims);
    assert!(circuit.inputs_with(&claims[..2]).is_err());
    assert_eq!((key.num_inputs(), key.publics()), (4, &[2][..]));

    let view = key.view(&settings, &inputs).unwrap();
    let built = statement_view(&settings, &circuit, &inputs).unwrap();
    assert_eq!((view.digest, &view.seed, &view.log_heights), (built.digest, &built.seed, &built.log_heights));
    for (ours, theirs) in view.airs.iter().zip(&built.airs) {
        assert_eq!(ours.periodic_columns(), theirs.periodic_columns());
    }
    let proof = prove(&settings, &circuit, &inputs).unwrap();
    let level = verify_level(&settings, &circuit, &inputs, &proof).unwrap();
    assert_eq!(key.verify(&settings, &inputs, &proof).unwrap().proven_bits, level.proven_bits);

    // Another public value (the statement still holds), another claim.
    let other: Vec<Ext> = [3, 4, 6, 18].map(Ext::from_u32).to_vec();
    assert!(key.verify(&settings, &other, &proof).is_err());
    let mut wrong = inputs.clone();
    wrong[3] += Ext::ONE;
    assert!(key.verify(&settings, &wrong, &proof).is_err());
    assert!(matches!(key.verify(&settings, &inputs[..3], &proof), Err(CircuitError::InputCount { .. })));
    // Another circuit's proof, another setting.
    let (other_circuit, other_inputs, _, _) = statement();
    let other_proof = prove(&settings, &other_circuit, &other_inputs).unwrap();
    assert!(key.verify(&settings, &inputs, &other_proof).is_err());
    assert!(key.verify(&Settings::FAST, &inputs, &proof).is_err());
}
