//! The Poseidon1 block: its witness against Plonky3's native permutations
//! and `Poseidon1Air`, its constraints against targeted corruptions.

use p3_air::check_constraints;
use p3_air::symbolic::{AirLayout, get_symbolic_constraints};
use p3_matrix::dense::RowMajorMatrix;
use p3_poseidon1_air::{Poseidon1Air, generate_trace_rows, num_cols};
use p3_symmetric::Permutation;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use sigagg_koalabear::poseidon1;
use sigagg_koalabear::poseidon2::{PARTIAL_16, PARTIAL_24};

use super::tests::assert_every_cell_constrained;
use super::*;

/// `PackedVal::WIDTH` random inputs ending with `tail`.
fn inputs<const W: usize>(seed: u64, tail: &[Val]) -> Vec<[Val; W]> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut random = |_| -> [Val; W] {
        let mut x: [Val; W] = rng.random();
        x[W - tail.len()..].copy_from_slice(tail);
        x
    };
    (0..PackedVal::WIDTH).map(&mut random).collect()
}

/// The rows `block` writes for `inputs` (one a row) and the outputs it returns.
fn rows<const W: usize, const P: usize>(
    block: &Poseidon1Block<W, P>,
    inputs: &[[Val; W]],
) -> (RowMajorMatrix<Val>, Vec<[Val; W]>) {
    let width = BaseAir::<Val>::width(block);
    let mut values = Val::zero_vec(inputs.len() * width);
    let outputs = block.write(&mut values.chunks_mut(width).collect::<Vec<_>>(), inputs);
    (RowMajorMatrix::new(values, width), outputs)
}

/// Whether some constraint of `block` fails on `m`.
fn violated<const W: usize, const P: usize>(block: &Poseidon1Block<W, P>, m: &RowMajorMatrix<Val>) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_constraints(block, m, &[]))).is_err()
}

/// The largest degree of `block`'s constraints, from their symbolic form.
fn symbolic_degree<const W: usize, const P: usize>(block: &Poseidon1Block<W, P>) -> Option<usize> {
    let layout = AirLayout { main_width: BaseAir::<Val>::width(block), ..Default::default() };
    get_symbolic_constraints::<Val, _>(block, layout).iter().map(|c| c.degree_multiple()).max()
}

/// In every stride, with the rounds apart from the inputs (columns left
/// to a table between them): the rows satisfy every constraint, hold the
/// native permutation's output where [`PoseidonBlock::output`] says, the
/// returned outputs are the native ones, the constraints have the
/// stride's degree, and every committed cell is constrained.
fn check_native<const W: usize, const P: usize>(rounds: &Poseidon1Rounds<W>, native: &impl Permutation<[Val; W]>) {
    for stride in [1, 2, 3] {
        let block = Poseidon1Block::<W, P>::new(rounds.clone(), stride, 0, W + 3);
        let xs = inputs::<W>(stride as u64, &[]);
        let (m, outputs) = rows(&block, &xs);
        check_constraints(&block, &m, &[]);
        for (l, (x, o)) in xs.iter().zip(&outputs).enumerate() {
            assert_eq!(*o, native.permute(*x), "width {W}, stride {stride}");
            let row = &m.values[l * m.width..];
            assert!((0..W).all(|j| row[block.output(j)] == o[j]));
        }
        assert_eq!(block.degree(), 3usize.pow(stride as u32));
        assert_eq!(symbolic_degree(&block), Some(block.degree()), "width {W}, stride {stride}");
        assert_every_cell_constrained(&block, &m, (0..W).chain(W + 3..m.width));
    }
}

#[test]
fn rows_prove_the_native_permutations() {
    check_native::<16, PARTIAL_16>(Poseidon1Rounds::default16(), poseidon1::default16());
    check_native::<24, PARTIAL_24>(Poseidon1Rounds::default24(), poseidon1::default24());
}

/// Stride 1 with the rounds after the inputs is Plonky3's `Poseidon1Air`
/// layout (degree-3 S-box, no registers) cell for cell, and Plonky3's
/// constraints accept the rows.
fn check_plonky3_layout<const W: usize, const P: usize>(raw: &p3_poseidon1::Poseidon1Constants<Val, W>) {
    let block = Poseidon1Block::<W, P>::new(Poseidon1Rounds::new(raw), 1, 0, W);
    let ncols = num_cols::<W, 3, 0, HALF_FULL, P>();
    assert_eq!(BaseAir::<Val>::width(&block), ncols);
    let xs = inputs::<W>(7, &[]);
    let (ours, _) = rows(&block, &xs);
    let (full, partial) = raw.to_optimized();
    let theirs = generate_trace_rows::<Val, W, 3, 0, HALF_FULL, P>(xs, &full, &partial, 0);
    assert_eq!(ours.values, theirs.values);
    check_constraints(&Poseidon1Air::<Val, W, 3, 0, HALF_FULL, P>::new(full, partial), &ours, &[]);
}

#[test]
fn stride_one_is_plonky3s_layout() {
    check_plonky3_layout::<16, PARTIAL_16>(poseidon1::default_constants16());
    check_plonky3_layout::<24, PARTIAL_24>(poseidon1::default_constants24());
}

/// One S-box output of a partial round, one cell of a committed
/// full-round state, one output lane and the constant tail, each changed
/// alone, break a constraint, in every stride; the honest rows do not.
fn check_corruptions<const W: usize, const P: usize>(rounds: &Poseidon1Rounds<W>) {
    let tail = [Val::from_u32(7), Val::ZERO];
    for stride in [1, 2, 3] {
        let block =
            Poseidon1Block::<W, P>::new(rounds.clone(), stride, 0, W - 2).with_constant_tail(&tail).with_outputs(0..8);
        let (m, _) = rows(&block, &inputs::<W>(11 + stride as u64, &tail));
        assert!(!violated(&block, &m));
        let (_, partial, _) = block.halves();
        let cells = [
            ("a partial round's S-box output", partial + P / 2),
            ("a full-round state cell", block.rounds_at() + 5),
            ("an output lane", block.output(3)),
        ];
        for (what, col) in cells {
            let mut bad = m.clone();
            bad.values[m.width + col] += Val::ONE;
            assert!(violated(&block, &bad), "{what}, width {W}, stride {stride}");
        }
        let other = Poseidon1Block::<W, P>::new(rounds.clone(), stride, 0, W - 2)
            .with_constant_tail(&[Val::from_u32(7), Val::ONE])
            .with_outputs(0..8);
        assert!(violated(&other, &m), "another constant tail, width {W}, stride {stride}");
    }
}

#[test]
fn targeted_corruptions_break_a_constraint() {
    check_corruptions::<16, PARTIAL_16>(Poseidon1Rounds::default16());
    check_corruptions::<24, PARTIAL_24>(Poseidon1Rounds::default24());
}

/// Truncated outputs and a constant tail narrow the block as they do
/// Poseidon2's, and the outputs stay the native ones.
#[test]
fn truncated_outputs_and_constant_tail() {
    let tail = [Val::ZERO; 4];
    for stride in [1, 2, 3] {
        let block = Poseidon1Block::<24, PARTIAL_24>::new(Poseidon1Rounds::default24().clone(), stride, 0, 20)
            .with_constant_tail(&tail)
            .with_outputs((0..8).chain(16..24));
        assert_eq!(BaseAir::<Val>::width(&block), 20 + round_cols(stride, 24, PARTIAL_24) - 8);
        let xs = inputs::<24>(3, &tail);
        let (m, outputs) = rows(&block, &xs);
        check_constraints(&block, &m, &[]);
        for (x, o) in xs.iter().zip(&outputs) {
            assert_eq!(*o, poseidon1::default24().permute(*x));
        }
        assert_every_cell_constrained(&block, &m, 0..m.width);
    }
}

#[test]
#[should_panic(expected = "the block's round counts")]
fn partial_rounds_must_match() {
    Poseidon1Block::<16, PARTIAL_24>::paired(Poseidon1Rounds::default16().clone());
}

#[test]
fn output_expressions_reach_uncommitted_lanes() {
    super::tests::check_output_expressions(Poseidon1Rounds::default16(), poseidon1::default16());
}
