//! The constraints of the circuit tables themselves, lowered to a circuit
//! and evaluated on rows of honest traces (first, inner, last and padding
//! rows, with the selectors and periodic values there): every lowered
//! constraint is zero; a corrupted cell makes one nonzero.

use p3_air::BaseAir;
use p3_field::PrimeCharacteristicRing;
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use sigagg_prover::config::Val;
use sigagg_recursion::air::{ArithAir, PermAir, WitnessAir};
use sigagg_recursion::constraints::{OpenedRow, lower};
use sigagg_recursion::{Circuit, CircuitAir, CircuitBuilder, CircuitError, Ext, PERM_WIDTH, Wire, honest_traces};

/// A small circuit with every kind of row: a permutation, a product, a
/// sum, a quotient and an equality; honest inputs.
fn sample() -> (Circuit, Vec<Ext>) {
    use p3_symmetric::Permutation;
    let mut b = CircuitBuilder::new();
    let state: [Wire; PERM_WIDTH] = core::array::from_fn(|_| b.input());
    let out = b.poseidon2(state);
    let p = b.mul(out[0], out[1]);
    let s = b.add(p, state[2]);
    let q = b.div(s, out[3]);
    let expected = b.input();
    b.assert_eq(q, expected);
    let values: [Val; PERM_WIDTH] = core::array::from_fn(|i| Val::from_u32(5 * i as u32 + 2));
    let o = sigagg_koalabear::poseidon2::default16().permute(values).map(Ext::from);
    let mut inputs: Vec<Ext> = values.iter().map(|&v| Ext::from(v)).collect();
    inputs.push((o[0] * o[1] + Ext::from(values[2])) / o[3]);
    (b.build(), inputs)
}

/// Row `r` of `trace` under `air`, lowered: `Ok` if every constraint is 0.
fn check_row(air: &CircuitAir, trace: &RowMajorMatrix<Val>, r: usize) -> Result<(), CircuitError> {
    let (h, width) = (trace.height(), trace.width());
    let mut b = CircuitBuilder::new();
    let local: Vec<Wire> = (0..width).map(|_| b.input()).collect();
    let next: Vec<Wire> = (0..width).map(|_| b.input()).collect();
    let periodic_columns = air.periodic_columns();
    let periodic: Vec<Wire> = (0..periodic_columns.len()).map(|_| b.input()).collect();
    let (first, last, transition) = (b.input(), b.input(), b.input());
    let at = OpenedRow { local: &local, next: &next, periodic: &periodic, first, last, transition };
    let constraints = lower(&mut b, air, &at)?;
    assert!(!constraints.is_empty());
    let zero = b.zero();
    for c in constraints {
        b.assert_eq(c, zero);
    }
    let row = |i: usize| trace.values[i * width..(i + 1) * width].iter().map(|&v| Ext::from(v));
    let mut inputs: Vec<Ext> = row(r).chain(row((r + 1) % h)).collect();
    inputs.extend(periodic_columns.iter().map(|c| Ext::from(c[r % c.len()])));
    let is_last = r == h - 1;
    inputs.extend([r == 0, is_last, !is_last].map(|s| if s { Ext::ONE } else { Ext::ZERO }));
    b.build().witness(&inputs).map(|_| ())
}

#[test]
fn honest_rows_satisfy_the_lowered_constraints_and_corrupted_ones_do_not() {
    let (circuit, inputs) = sample();
    let traces = honest_traces(&circuit, &inputs).unwrap();
    let log = |t: &RowMajorMatrix<Val>| t.height().trailing_zeros() as usize;
    let airs = [
        CircuitAir::Witness(WitnessAir::new(&circuit, &inputs, log(&traces[0]))),
        CircuitAir::Arith(ArithAir::new(&circuit, log(&traces[1]))),
        CircuitAir::Perm(PermAir::new(&circuit, log(&traces[2]))),
    ];
    for (air, trace) in airs.iter().zip(&traces) {
        let h = trace.height();
        for r in [0, 1, circuit.rows().len(), h - 1] {
            check_row(air, trace, r).unwrap_or_else(|e| panic!("{air:?} row {r}: {e}"));
        }
    }
    // The witness table's counter, an arithmetic product and a permutation
    // round, each corrupted on a live row.
    let corrupt = |t: usize, r: usize, c: usize| {
        let mut trace = traces[t].clone();
        let width = trace.width();
        trace.values[r * width + c] += Val::ONE;
        check_row(&airs[t], &trace, r)
    };
    assert!(matches!(corrupt(0, 1, 0), Err(CircuitError::Unsatisfied { .. })), "the counter");
    assert!(matches!(corrupt(1, 0, 10), Err(CircuitError::Unsatisfied { .. })), "a product's result");
    let round_cell = traces[2].width() / 2;
    assert!(matches!(corrupt(2, 0, round_cell), Err(CircuitError::Unsatisfied { .. })), "a permutation round");
}
