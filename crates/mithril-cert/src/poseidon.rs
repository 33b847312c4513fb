//! The Poseidon permutation of the SNARK lottery as PIOP constraints.
//!
//! The instance is `sigagg_mithril::poseidon::bls12_381_fq()`: width 3,
//! S-box `x^5`, 4 full, 56 partial, 4 full rounds; each round adds three
//! round constants, applies the S-box (to every cell in a full round, to
//! cell 0 in a partial one) and multiplies by the MDS matrix `M`.
//!
//! ## Layout: one block of [`BLOCK`] = 66 rows per permutation
//! Row `r < 64` of a block holds the state **before** round `r`; row 64
//! holds the output; row 65 is spare (a copy of the output, constrained
//! only by the squares). `66 = 2·3·11` divides the domain sizes of
//! `sigagg-bls-cert` that hold enough blocks (`N = 66·1081`, `66·3243`);
//! a power of two would not (`F*` has two-adicity 1).
//!
//! | column | kind | row `r` of a block |
//! |---|---|---|
//! | `s0, s1, s2` | witness | the state before round `r` (`r < 64`), the output (`r = 64`) |
//! | `q0, q1, q2` | witness | `(s_k + c_k)²` |
//! | `c0, c1, c2` | periodic | round `r`'s constants (`r < 64`), 0 on rows 64-65 |
//! | `full` | periodic | 1 on rows 0-3 and 60-63 |
//! | `partial` | periodic | 1 on rows 4-59 |
//! | `start` | periodic | 1 on row 0 |
//! | `end` | periodic | 1 on row 64 |
//! | `in0, in1, in2` | public (sparse) | the permutation's input on row 0, else 0 |
//! | `out` | public (sparse) | the output's cell 1 (the lottery value) on row 64, else 0 |
//!
//! In the certificate the public columns become other columns of the block
//! (`in0 = TAG·2^64 + j`, `in1 = prefix`, `in2 = σx`, `out = ev`); here they
//! are sparse public columns the verifier evaluates in `O(blocks)`
//! ([`crate::periodic::sparse_column_at`]).
//!
//! ## Constraints (each vanishes on every row of `H`)
//! With `a_k = s_k + c_k` and `on = full + partial` (1 on the 64 round rows):
//! 1-3. **Squares:** `q_k − a_k² = 0`, on every row (no selector needed:
//!   the honest prover fills `q` everywhere). Degree 2.
//! 4-6. **Round:** `on·s_k(ωX) − Σ_j M_kj·S_j = 0` with
//!   `S_0 = on·q_0²·a_0` and `S_j = full·q_j²·a_j + partial·a_j` (`j = 1, 2`).
//!   On a round row, with 1-3, `q_j²·a_j = a_j^5`: `S` is the S-box layer of
//!   the round (all cells in a full round, cell 0 in a partial one, the
//!   identity on cells 1-2 there), so the next row is exactly
//!   `M·S(s + c)`: one round of the permutation. On rows 64-65 every term
//!   is 0 (`on = full = partial = 0`): no transition out of the output row,
//!   and none from the last row of the domain (row 65 of the last block)
//!   around to row 0. Degree 4 (`full·q²·a`), so the quotient has degree
//!   below `3N` and fits `sigagg-bls-cert`'s three chunks.
//! 7-9. **Input:** `start·s_k − in_k = 0`. On row 0 of each block the state is
//!   the public input; elsewhere both terms are 0.
//! 10. **Output:** `end·s1 − out = 0`. On row 64, cell 1 of the state (the
//!   first rate cell, `ev`) is the public output.
//!
//! Soundness: on a block, 7-9 fix row 0 to the input; 1-6 on rows 0..63
//! determine row `r + 1` uniquely from row `r` as round `r` of the
//! permutation (64 rounds, the round constants being row `r`'s `c`); so row
//! 64 is the permutation of the input and 10 makes the claimed output that
//! value. No constraint relates two blocks. All ten hold on `H` iff each
//! block is an honest permutation with the claimed input and output
//! (tests: [`check_on_domain`] on honest and corrupted traces).

use ark_ff::{AdditiveGroup, Field};
use sigagg_bls_cert::domain::Domain;
use sigagg_mithril::poseidon::{FQ_FULL_ROUNDS, FQ_PARTIAL_ROUNDS, FQ_WIDTH, bls12_381_fq};

use crate::periodic::{Periodic, sparse_column_at};
use crate::quotient::{Quotient, check_identity, quotient};
use crate::{F, McertError};

/// Rows per permutation.
pub const BLOCK: usize = 66;
/// Rounds per permutation.
pub const ROUNDS: usize = FQ_FULL_ROUNDS + FQ_PARTIAL_ROUNDS;
/// The row of a block holding the output.
pub const OUTPUT_ROW: usize = ROUNDS;
/// Number of constraints.
pub const CONSTRAINTS: usize = 10;
/// Width of the state.
pub const WIDTH: usize = FQ_WIDTH;

/// Witness columns, in [`Columns`] order: `s0, s1, s2, q0, q1, q2`.
pub const WITNESS_COLUMNS: usize = 6;
/// Periodic columns: `c0, c1, c2, full, partial, start, end`.
pub const PERIODIC_COLUMNS: usize = 7;
/// Public columns: `in0, in1, in2, out`.
pub const PUBLIC_COLUMNS: usize = 4;
/// All columns a row of the constraints reads.
pub const ALL_COLUMNS: usize = WITNESS_COLUMNS + PERIODIC_COLUMNS + PUBLIC_COLUMNS;

const _: () = assert!(OUTPUT_ROW + 2 == BLOCK && WIDTH == 3);

/// The MDS matrix of the pinned instance.
pub fn mds() -> [[F; WIDTH]; WIDTH] {
    let m = bls12_381_fq().mds();
    std::array::from_fn(|i| std::array::from_fn(|j| m[i][j]))
}

/// The periodic columns, in order `c0, c1, c2, full, partial, start, end`.
pub fn periodic_columns() -> [Periodic; PERIODIC_COLUMNS] {
    let constants = bls12_381_fq().round_constants();
    let half = FQ_FULL_ROUNDS / 2;
    let per_row = |f: &dyn Fn(usize) -> F| -> Periodic {
        match Periodic::new((0..BLOCK).map(f).collect()) {
            Ok(p) => p,
            Err(e) => unreachable!("BLOCK > 0: {e}"),
        }
    };
    let is_full = |r: usize| r < half || (half + FQ_PARTIAL_ROUNDS..ROUNDS).contains(&r);
    let is_partial = |r: usize| (half..half + FQ_PARTIAL_ROUNDS).contains(&r);
    let constant = |k: usize| per_row(&move |r: usize| if r < ROUNDS { constants[r * WIDTH + k] } else { F::ZERO });
    [
        constant(0),
        constant(1),
        constant(2),
        per_row(&|r| F::from(is_full(r))),
        per_row(&|r| F::from(is_partial(r))),
        per_row(&|r| F::from(r == 0)),
        per_row(&|r| F::from(r == OUTPUT_ROW)),
    ]
}

/// The values one row of the constraints reads: the columns at `x` in
/// [`ALL_COLUMNS`] order and the state at `ωx`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Witness, periodic and public columns at `x`.
    pub columns: [F; ALL_COLUMNS],
    /// `s0, s1, s2` at `ωx`.
    pub next_state: [F; WIDTH],
}

/// The ten constraints at one row (see the module documentation).
pub fn constraints(mds: &[[F; WIDTH]; WIDTH], row: &Row) -> [F; CONSTRAINTS] {
    let c = &row.columns;
    let s = [c[0], c[1], c[2]];
    let q = [c[3], c[4], c[5]];
    let rc = [c[6], c[7], c[8]];
    let (full, partial, start, end) = (c[9], c[10], c[11], c[12]);
    let input = [c[13], c[14], c[15]];
    let output = c[16];
    let on = full + partial;
    let a: [F; WIDTH] = std::array::from_fn(|k| s[k] + rc[k]);
    let sbox = [
        on * q[0].square() * a[0],
        full * q[1].square() * a[1] + partial * a[1],
        full * q[2].square() * a[2] + partial * a[2],
    ];
    let mut out = [F::ZERO; CONSTRAINTS];
    for k in 0..WIDTH {
        out[k] = q[k] - a[k].square();
        let mixed: F = (0..WIDTH).map(|j| mds[k][j] * sbox[j]).sum();
        out[WIDTH + k] = on * row.next_state[k] - mixed;
        out[2 * WIDTH + k] = start * s[k] - input[k];
    }
    out[3 * WIDTH] = end * s[1] - output;
    out
}

/// `Σ_k α_k C_k` at one row.
pub fn combined(mds: &[[F; WIDTH]; WIDTH], row: &Row, alphas: &[F]) -> F {
    constraints(mds, row).iter().zip(alphas).map(|(c, a)| *c * a).sum()
}

/// One permutation's input and claimed output (cell 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Io {
    /// The input state.
    pub input: [F; WIDTH],
    /// The output's cell 1.
    pub output: F,
}

/// All columns over the domain, in [`ALL_COLUMNS`] order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns {
    /// `N` values per column.
    pub values: Vec<Vec<F>>,
}

impl Columns {
    /// The row `i` of the constraints (the next row wraps around).
    pub fn row(&self, i: usize) -> Row {
        let n = self.values[0].len();
        let next = (i + 1) % n;
        Row {
            columns: std::array::from_fn(|k| self.values[k][i]),
            next_state: std::array::from_fn(|k| self.values[k][next]),
        }
    }
}

/// The honest trace of one permutation: the state before each round, then
/// the output, then the output again (spare row).
pub fn block_states(input: [F; WIDTH]) -> Vec<[F; WIDTH]> {
    let constants = bls12_381_fq().round_constants();
    let mds = mds();
    let half = FQ_FULL_ROUNDS / 2;
    let mut state = input;
    let mut rows = Vec::with_capacity(BLOCK);
    for r in 0..ROUNDS {
        rows.push(state);
        let a: [F; WIDTH] = std::array::from_fn(|k| state[k] + constants[r * WIDTH + k]);
        let full = r < half || r >= half + FQ_PARTIAL_ROUNDS;
        let fifth = |x: F| x.square().square() * x;
        let sboxed: [F; WIDTH] = std::array::from_fn(|k| if full || k == 0 { fifth(a[k]) } else { a[k] });
        state = std::array::from_fn(|k| (0..WIDTH).map(|j| mds[k][j] * sboxed[j]).sum());
    }
    rows.push(state);
    rows.push(state);
    rows
}

/// The honest columns for one permutation per block: `inputs.len()` must be
/// the number of blocks `N/66` of the domain. Returns the columns and the
/// public input/output of each block.
pub fn honest_columns(domain: &Domain, inputs: &[[F; WIDTH]]) -> Result<(Columns, Vec<Io>), McertError> {
    let n = domain.size();
    let blocks = n / BLOCK;
    if !n.is_multiple_of(BLOCK) || inputs.len() != blocks {
        return Err(McertError::BlockCount { given: inputs.len(), blocks });
    }
    let periodic = periodic_columns();
    let mut values = vec![vec![F::ZERO; n]; ALL_COLUMNS];
    for (k, p) in periodic.iter().enumerate() {
        values[WITNESS_COLUMNS + k] = p.column(domain)?;
    }
    let mut ios = Vec::with_capacity(blocks);
    for (b, input) in inputs.iter().enumerate() {
        let states = block_states(*input);
        for (r, state) in states.iter().enumerate() {
            let i = b * BLOCK + r;
            for k in 0..WIDTH {
                values[k][i] = state[k];
                let a = state[k] + periodic[k].value(r);
                values[WIDTH + k][i] = a.square();
            }
        }
        let output = states[OUTPUT_ROW][1];
        let public = WITNESS_COLUMNS + PERIODIC_COLUMNS;
        for k in 0..WIDTH {
            values[public + k][b * BLOCK] = input[k];
        }
        values[public + WIDTH][b * BLOCK + OUTPUT_ROW] = output;
        ios.push(Io { input: *input, output });
    }
    Ok((Columns { values }, ios))
}

/// Checks every constraint on every row of `H`; the first failure is the
/// error.
pub fn check_on_domain(columns: &Columns) -> Result<(), McertError> {
    if columns.values.len() != ALL_COLUMNS {
        return Err(McertError::ColumnCount { got: columns.values.len(), expected: ALL_COLUMNS });
    }
    let n = columns.values[0].len();
    if let Some(bad) = columns.values.iter().find(|c| c.len() != n) {
        return Err(McertError::ColumnLength { len: bad.len(), size: n });
    }
    let mds = mds();
    for i in 0..n {
        if let Some(k) = constraints(&mds, &columns.row(i)).iter().position(|c| *c != F::ZERO) {
            return Err(McertError::Unsatisfied { row: i, constraint: k });
        }
    }
    Ok(())
}

/// The verifier's values of the periodic and public columns at `z ∉ H`
/// (`O(66)` per periodic column, `O(blocks)` per public one), in
/// [`ALL_COLUMNS`] order after the witness columns.
pub fn verifier_columns_at(
    domain: &Domain,
    ios: &[Io],
    z: F,
) -> Result<[F; PERIODIC_COLUMNS + PUBLIC_COLUMNS], McertError> {
    let mut out = [F::ZERO; PERIODIC_COLUMNS + PUBLIC_COLUMNS];
    for (o, p) in out.iter_mut().zip(periodic_columns().iter()) {
        *o = p.evaluate(domain, z)?;
    }
    for k in 0..WIDTH {
        let entries: Vec<(usize, F)> = ios.iter().enumerate().map(|(b, io)| (b * BLOCK, io.input[k])).collect();
        out[PERIODIC_COLUMNS + k] = sparse_column_at(domain, &entries, z)?;
    }
    let entries: Vec<(usize, F)> = ios.iter().enumerate().map(|(b, io)| (b * BLOCK + OUTPUT_ROW, io.output)).collect();
    out[PERIODIC_COLUMNS + WIDTH] = sparse_column_at(domain, &entries, z)?;
    Ok(out)
}

/// The prover's side of the quotient identity, in the clear: all columns
/// (the periodic and public ones included, as the prover sees them) and the
/// quotient of `Σ α_k C_k` by `Z_H`.
pub fn prove_in_clear(domain: &Domain, columns: &Columns, alphas: &[F]) -> Result<Quotient, McertError> {
    let mds = mds();
    quotient(domain, &columns.values, |cur, next| {
        let row = Row { columns: std::array::from_fn(|k| cur[k]), next_state: std::array::from_fn(|k| next[k]) };
        combined(&mds, &row, alphas)
    })
}

/// What a verifier receives about the witness at `ζ`: the witness columns
/// there, the state at `ζω`, and the quotient there. (With KZG these would
/// be openings of commitments; here they are taken on trust, which is what
/// the tests tamper with.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Openings {
    /// `s0, s1, s2, q0, q1, q2` at `ζ`.
    pub witness: [F; WITNESS_COLUMNS],
    /// `s0, s1, s2` at `ζω`.
    pub next_state: [F; WIDTH],
    /// `Q(ζ)`.
    pub quotient: F,
}

/// The prover's openings at `ζ`.
pub fn open_in_clear(domain: &Domain, quotient: &Quotient, zeta: F) -> Openings {
    let (at, at_shifted) = quotient.columns_at(domain, zeta);
    Openings {
        witness: std::array::from_fn(|k| at[k]),
        next_state: std::array::from_fn(|k| at_shifted[k]),
        quotient: quotient.at(domain, zeta),
    }
}

/// The verifier's side: the periodic and public columns from its own data
/// (the pinned instance and the claimed inputs and outputs), the witness
/// from the openings, then `C(ζ) = Q(ζ)·Z_H(ζ)`.
pub fn verify_in_clear(
    domain: &Domain,
    ios: &[Io],
    alphas: &[F],
    zeta: F,
    openings: &Openings,
) -> Result<(), McertError> {
    let blocks = domain.size() / BLOCK;
    if !domain.size().is_multiple_of(BLOCK) || ios.len() != blocks {
        return Err(McertError::BlockCount { given: ios.len(), blocks });
    }
    let known = verifier_columns_at(domain, ios, zeta)?;
    let mut columns = [F::ZERO; ALL_COLUMNS];
    columns[..WITNESS_COLUMNS].copy_from_slice(&openings.witness);
    columns[WITNESS_COLUMNS..].copy_from_slice(&known);
    let row = Row { columns, next_state: openings.next_state };
    check_identity(domain, zeta, combined(&mds(), &row, alphas), openings.quotient)
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // cell-by-cell arithmetic reads as the formulas
mod tests {
    use super::*;
    use sigagg_bls_cert::piop::prover::horner;
    use sigagg_mithril::snark_lottery;

    fn inputs(count: usize) -> Vec<[F; WIDTH]> {
        (0..count as u64).map(|j| [snark_lottery::capacity(j), F::from(1000 + j), F::from(7 * j + 3)]).collect()
    }

    fn honest(blocks: usize) -> (Columns, Vec<Io>) {
        let domain = Domain::new(BLOCK * blocks).unwrap();
        honest_columns(&domain, &inputs(blocks)).unwrap()
    }

    #[test]
    fn the_trace_ends_in_the_native_permutation_and_the_lottery_value() {
        for input in inputs(3) {
            let mut native = input;
            bls12_381_fq().permute(&mut native).unwrap();
            assert_eq!(block_states(input)[OUTPUT_ROW], native);
            let j = (0..3u64).find(|j| snark_lottery::capacity(*j) == input[0]).unwrap();
            assert_eq!(native[1], snark_lottery::ev(input[1], input[2], j));
        }
    }

    #[test]
    fn an_honest_trace_satisfies_every_constraint_on_the_domain() {
        for blocks in [1, 3] {
            let (columns, ios) = honest(blocks);
            assert_eq!(ios.len(), blocks);
            check_on_domain(&columns).unwrap();
        }
    }

    fn expect_failure(columns: &Columns, constraint: usize, row: usize) {
        match check_on_domain(columns) {
            Err(McertError::Unsatisfied { row: r, constraint: k }) => {
                assert_eq!((r, k), (row, constraint), "first failure");
            }
            other => panic!("expected constraint {constraint} to fail on row {row}, got {other:?}"),
        }
    }

    #[test]
    fn a_wrong_square_is_caught() {
        let (mut columns, _) = honest(3);
        // Block 1, a full round (row 2): cell 1's square.
        columns.values[WIDTH + 1][BLOCK + 2] += F::ONE;
        expect_failure(&columns, 1, BLOCK + 2);
    }

    #[test]
    fn a_wrong_sbox_output_in_a_partial_round_is_caught() {
        let (mut columns, _) = honest(3);
        // Cell 0 after partial round 30 of block 2: the transition into row 31.
        let row = 2 * BLOCK + 30;
        columns.values[0][row + 1] += F::ONE;
        expect_failure(&columns, WIDTH, row);
    }

    #[test]
    fn a_consistent_but_wrong_square_and_state_is_still_caught() {
        // Change s0 on a row and recompute its square honestly: the square
        // constraint holds, the round into that row does not.
        let (mut columns, _) = honest(1);
        let row = 40;
        columns.values[0][row] += F::ONE;
        let a = columns.values[0][row] + columns.values[WITNESS_COLUMNS][row];
        columns.values[WIDTH][row] = a.square();
        expect_failure(&columns, WIDTH, row - 1);
    }

    #[test]
    fn a_wrong_round_constant_is_caught() {
        // A prover using another constant in round 5 (cell 2, partial round:
        // no S-box on cell 2) computes a different next state.
        let (mut columns, _) = honest(1);
        let row = 5;
        let c = &mut columns.values[WITNESS_COLUMNS + 2];
        c[row] += F::ONE;
        // Recompute the rest of the block with the wrong constant, honestly.
        let mds = mds();
        for r in row..ROUNDS {
            let s: [F; WIDTH] = std::array::from_fn(|k| columns.values[k][r]);
            let a: [F; WIDTH] = std::array::from_fn(|k| s[k] + columns.values[WITNESS_COLUMNS + k][r]);
            for k in 0..WIDTH {
                columns.values[WIDTH + k][r] = a[k].square();
            }
            let full = columns.values[WITNESS_COLUMNS + WIDTH][r] == F::ONE;
            let fifth = |x: F| x.square().square() * x;
            let sb: [F; WIDTH] = std::array::from_fn(|k| if full || k == 0 { fifth(a[k]) } else { a[k] });
            for k in 0..WIDTH {
                columns.values[k][r + 1] = (0..WIDTH).map(|j| mds[k][j] * sb[j]).sum();
            }
        }
        // The output and spare rows, and the claimed output, follow.
        for r in [OUTPUT_ROW, OUTPUT_ROW + 1] {
            for k in 0..WIDTH {
                columns.values[k][r] = columns.values[k][OUTPUT_ROW];
                columns.values[WIDTH + k][r] = columns.values[k][r].square();
            }
        }
        // The claimed output is the tampered permutation's.
        columns.values[WITNESS_COLUMNS + PERIODIC_COLUMNS + WIDTH][OUTPUT_ROW] = columns.values[1][OUTPUT_ROW];
        // The trace is consistent with the tampered constant ...
        check_on_domain(&columns).unwrap();
        // ... but the constants are the verifier's periodic column, not the
        // prover's: against the true constant, round 5's square fails.
        columns.values[WITNESS_COLUMNS + 2][row] -= F::ONE;
        expect_failure(&columns, 2, row);
    }

    #[test]
    fn a_wrong_mds_mix_of_one_row_is_caught() {
        // Row 61 (full round): the next state mixed with the transposed matrix.
        let (mut columns, _) = honest(1);
        let mds = mds();
        let row = 61;
        let a: [F; WIDTH] = std::array::from_fn(|k| columns.values[k][row] + columns.values[WITNESS_COLUMNS + k][row]);
        let sb: [F; WIDTH] = a.map(|x| x.square().square() * x);
        for k in 0..WIDTH {
            columns.values[k][row + 1] = (0..WIDTH).map(|j| mds[j][k] * sb[j]).sum();
        }
        assert_ne!(mds[0][1], mds[1][0], "the test needs a non-symmetric matrix");
        expect_failure(&columns, WIDTH, row);
    }

    #[test]
    fn a_wrong_input_or_output_binding_is_caught() {
        let (columns, _) = honest(3);
        let public = WITNESS_COLUMNS + PERIODIC_COLUMNS;
        // Another σx for block 1 (the public input differs from the trace).
        let mut wrong_input = columns.clone();
        wrong_input.values[public + 2][BLOCK] += F::ONE;
        expect_failure(&wrong_input, 2 * WIDTH + 2, BLOCK);
        // Another claimed lottery value for block 2.
        let mut wrong_output = columns.clone();
        wrong_output.values[public + WIDTH][2 * BLOCK + OUTPUT_ROW] += F::ONE;
        expect_failure(&wrong_output, 3 * WIDTH, 2 * BLOCK + OUTPUT_ROW);
        // A claimed output on a row other than the output row.
        let mut misplaced = columns;
        misplaced.values[public + WIDTH][OUTPUT_ROW - 1] = F::ONE;
        expect_failure(&misplaced, 3 * WIDTH, OUTPUT_ROW - 1);
    }

    #[test]
    fn a_block_count_that_is_not_the_domains_is_refused() {
        let domain = Domain::new(198).unwrap();
        assert_eq!(honest_columns(&domain, &inputs(2)), Err(McertError::BlockCount { given: 2, blocks: 3 }));
    }

    mod in_clear {
        use super::*;
        use ark_ff::UniformRand;
        use ark_std::test_rng;

        fn challenges(rng: &mut impl ark_std::rand::Rng) -> (Vec<F>, F) {
            ((0..CONSTRAINTS).map(|_| F::rand(rng)).collect(), F::rand(rng))
        }

        fn run(domain: &Domain, columns: &Columns, ios: &[Io]) -> Result<(), McertError> {
            let rng = &mut test_rng();
            let (alphas, zeta) = challenges(rng);
            let q = prove_in_clear(domain, columns, &alphas)?;
            verify_in_clear(domain, ios, &alphas, zeta, &open_in_clear(domain, &q, zeta))
        }

        #[test]
        fn the_verifiers_columns_at_zeta_are_the_interpolated_ones() {
            let domain = Domain::new(3 * BLOCK).unwrap();
            let (columns, ios) = honest_columns(&domain, &super::inputs(3)).unwrap();
            let z = F::rand(&mut test_rng());
            let fft = domain.fft();
            let known = verifier_columns_at(&domain, &ios, z).unwrap();
            for (k, v) in known.iter().enumerate() {
                let coeffs = fft.interpolate(&columns.values[WITNESS_COLUMNS + k]);
                assert_eq!(*v, horner(&coeffs, z), "column {k}");
            }
        }

        #[test]
        fn an_honest_batch_passes_the_quotient_identity() {
            for blocks in [1, 3] {
                let domain = Domain::new(blocks * BLOCK).unwrap();
                let (columns, ios) = honest_columns(&domain, &super::inputs(blocks)).unwrap();
                run(&domain, &columns, &ios).unwrap();
            }
        }

        #[test]
        fn corrupted_traces_fail_the_quotient_identity() {
            let domain = Domain::new(3 * BLOCK).unwrap();
            let (honest, ios) = honest_columns(&domain, &super::inputs(3)).unwrap();
            let corruptions: [(&str, usize, usize); 5] = [
                ("an S-box output (s0 after partial round 30, block 2)", 0, 2 * BLOCK + 31),
                ("a square in a full round", WIDTH + 1, BLOCK + 2),
                ("cell 2 after the last round", 2, OUTPUT_ROW),
                ("the spare row's square", WIDTH, BLOCK - 1),
                ("the prover's own copy of the round constants", WITNESS_COLUMNS + 1, 7),
            ];
            for (what, column, row) in corruptions {
                let mut columns = honest.clone();
                columns.values[column][row] += F::ONE;
                assert_eq!(run(&domain, &columns, &ios), Err(McertError::QuotientIdentity), "{what}");
            }
        }

        #[test]
        fn another_statement_fails_the_quotient_identity() {
            let domain = Domain::new(3 * BLOCK).unwrap();
            let (columns, ios) = honest_columns(&domain, &super::inputs(3)).unwrap();
            // An honest trace, checked against a claimed lottery value or an
            // input (σx) that is not the trace's.
            let mut claims = ios.clone();
            claims[1].output += F::ONE;
            assert_eq!(run(&domain, &columns, &claims), Err(McertError::QuotientIdentity));
            let mut claims = ios.clone();
            claims[2].input[2] += F::ONE;
            assert_eq!(run(&domain, &columns, &claims), Err(McertError::QuotientIdentity));
            assert_eq!(run(&domain, &columns, &ios[..2]), Err(McertError::BlockCount { given: 2, blocks: 3 }));
        }

        #[test]
        fn tampered_openings_fail() {
            let rng = &mut test_rng();
            let domain = Domain::new(BLOCK).unwrap();
            let (columns, ios) = honest_columns(&domain, &super::inputs(1)).unwrap();
            let (alphas, zeta) = challenges(rng);
            let q = prove_in_clear(&domain, &columns, &alphas).unwrap();
            let honest = open_in_clear(&domain, &q, zeta);
            verify_in_clear(&domain, &ios, &alphas, zeta, &honest).unwrap();
            for k in 0..WITNESS_COLUMNS {
                let mut o = honest;
                o.witness[k] += F::ONE;
                assert!(verify_in_clear(&domain, &ios, &alphas, zeta, &o).is_err(), "witness {k}");
            }
            for k in 0..WIDTH {
                let mut o = honest;
                o.next_state[k] += F::ONE;
                assert!(verify_in_clear(&domain, &ios, &alphas, zeta, &o).is_err(), "next state {k}");
            }
            let mut o = honest;
            o.quotient += F::ONE;
            assert!(verify_in_clear(&domain, &ios, &alphas, zeta, &o).is_err());
        }
    }
}
