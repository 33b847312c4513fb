//! A Poseidon2 AIR that commits every second full-round state: degree-9
//! constraints, 40% fewer columns, for proofs whose rate leaves room for
//! them (blowup 8 or more).
//!
//! Plonky3's `Poseidon2Air` with a degree-3 S-box commits the state after
//! every full round, so each constraint has degree 3 and the quotient fits a
//! rate-1/2 code. At rate 1/8 the quotient domain is as large as the
//! low-degree extension itself whether the constraints have degree 3 or 9,
//! so committing fewer states costs no extra extension: it only trades
//! columns (memory, Merkle hashing, the row every FRI query opens) for
//! higher-degree constraints.
//!
//! # Why only full rounds are paired
//!
//! A full round's committed output resets the whole state to degree 1, so
//! an uncommitted full round (degree 3) followed by a committed one gives
//! degree `3 * 3 = 9`. A partial round changes only lane 0, and its S-box
//! output stays in every lane through the internal linear layer: skipping
//! one would leave a degree-3 term in all later rounds and push the next
//! committed constraint to degree 27. Partial rounds therefore keep one
//! committed column each, as in Plonky3's AIR.
//!
//! # Layout (`W` lanes, `P` partial rounds, 4 + 4 full rounds)
//!
//! | columns | content |
//! |---|---|
//! | `0..W` | inputs |
//! | `W..3W` | state after initial full rounds 2 and 4 |
//! | `3W..3W+P` | S-box output of each partial round |
//! | `3W+P..5W+P` | state after terminal full rounds 2 and 4 (the output last) |
//!
//! Inputs come first and the output last, as in Plonky3's layout, so
//! `input_col` and `output_col` address both layouts alike.

use core::borrow::Borrow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::{PackedValue, PrimeCharacteristicRing};
use p3_koala_bear::GenericPoseidon2LinearLayersKoalaBear as Linear;
use p3_poseidon2::GenericPoseidon2LinearLayers;
use p3_poseidon2_air::{Poseidon2Cols, RoundConstants, num_cols};
use sigagg_xmss::field::PackedF;

use crate::config::Val;
use crate::poseidon::{HALF_FULL, write_packed};

/// Committed round columns (inputs excluded) when every `stride`-th full
/// round's state is committed (`stride` 1 or 2).
pub const fn round_cols(stride: usize, w: usize, p: usize) -> usize {
    2 * (HALF_FULL / stride) * w + p
}

/// Constraints of one Poseidon2 permutation whose inputs start at column
/// `inputs` and whose committed round states start at column `rounds`,
/// committing every `stride`-th full round (1: Plonky3's layout, degree 3;
/// 2: the paired layout of the module docs, degree 9). Inputs and rounds
/// may be apart, so a table can keep its own columns at fixed positions
/// between them whatever the stride.
#[derive(Clone, Debug)]
pub struct Poseidon2Block<const W: usize, const P: usize> {
    constants: RoundConstants<Val, W, HALF_FULL, P>,
    stride: usize,
    inputs: usize,
    rounds: usize,
}

impl<const W: usize, const P: usize> Poseidon2Block<W, P> {
    /// The block for the permutation with these round constants.
    ///
    /// # Panics
    /// If `stride` is not 1 or 2.
    pub fn new(constants: RoundConstants<Val, W, HALF_FULL, P>, stride: usize, inputs: usize, rounds: usize) -> Self {
        assert!(stride == 1 || stride == 2, "stride 1 or 2");
        Self { constants, stride, inputs, rounds }
    }

    /// The paired layout, rounds right after the inputs at column 0.
    pub fn paired(constants: RoundConstants<Val, W, HALF_FULL, P>) -> Self {
        Self::new(constants, 2, 0, W)
    }

    /// Every `stride`-th full round is committed.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Largest constraint degree: 3 per committed full round of stride 1,
    /// 9 of stride 2.
    pub fn degree(&self) -> usize {
        3usize.pow(self.stride as u32)
    }

    /// Committed round columns (after [`Self::rounds_at`]).
    pub fn round_cols(&self) -> usize {
        round_cols(self.stride, W, P)
    }

    /// First round column.
    pub fn rounds_at(&self) -> usize {
        self.rounds
    }

    /// Column of input lane `j`.
    pub fn input(&self, j: usize) -> usize {
        self.inputs + j
    }

    /// Column of output lane `j` (the last committed state).
    pub fn output(&self, j: usize) -> usize {
        self.rounds + self.round_cols() - W + j
    }

    /// Where the committed state after full round `round` (0-based, of 4)
    /// of the half starting at column `base` sits, if it is committed.
    fn committed_at(&self, round: usize, base: usize) -> Option<usize> {
        (round + 1).is_multiple_of(self.stride).then(|| base + (round / self.stride) * W)
    }

    fn halves(&self) -> (usize, usize, usize) {
        let partial = self.rounds + (HALF_FULL / self.stride) * W;
        (self.rounds, partial, partial + P)
    }

    /// Asserts the permutation on the builder's current row.
    pub fn eval<AB: AirBuilder<F = Val>>(&self, builder: &mut AB)
    where
        Linear: GenericPoseidon2LinearLayers<W>,
    {
        let main = builder.main();
        let row = main.current_slice();
        let var = |c: usize| -> AB::Expr { row[c].into() };
        let c = &self.constants;
        let (begin, partial, end) = self.halves();

        // One full round on a symbolic state: add constants, cube, mix.
        // Committing it resets the state to the committed variables.
        let full = |builder: &mut AB, state: &mut [AB::Expr; W], rc: &[Val; W], commit: Option<usize>| {
            for (s, &r) in state.iter_mut().zip(rc) {
                *s = (s.clone() + AB::Expr::from(r)).cube();
            }
            Linear::external_linear_layer(state);
            if let Some(at) = commit {
                for (i, s) in state.iter_mut().enumerate() {
                    builder.assert_eq(s.clone(), var(at + i));
                    *s = var(at + i);
                }
            }
        };

        let mut state: [AB::Expr; W] = core::array::from_fn(|j| var(self.input(j)));
        Linear::external_linear_layer(&mut state);
        for (round, rc) in c.beginning_full_round_constants().iter().enumerate() {
            full(builder, &mut state, rc, self.committed_at(round, begin));
        }
        for (round, &rc) in c.partial_round_constants().iter().enumerate() {
            let at = partial + round;
            builder.assert_eq((state[0].clone() + AB::Expr::from(rc)).cube(), var(at));
            state[0] = var(at);
            Linear::internal_linear_layer(&mut state);
        }
        for (round, rc) in c.ending_full_round_constants().iter().enumerate() {
            full(builder, &mut state, rc, self.committed_at(round, end));
        }
    }

    /// Copies this layout's columns out of a row in Plonky3's layout.
    fn select(&self, full: &Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>, out: &mut [Val]) {
        let (begin, partial, end) = self.halves();
        out[self.inputs..self.inputs + W].copy_from_slice(&full.inputs);
        for (half, rounds) in [(begin, &full.beginning_full_rounds), (end, &full.ending_full_rounds)] {
            for (round, r) in rounds.iter().enumerate() {
                if let Some(at) = self.committed_at(round, half) {
                    out[at..at + W].copy_from_slice(&r.post);
                }
            }
        }
        for (round, r) in full.partial_rounds.iter().enumerate() {
            out[partial + round] = r.post_sbox;
        }
    }

    /// Writes `PackedF::WIDTH` permutations, one per row of `rows` (each
    /// row holding this block's columns at their positions), and returns
    /// the outputs. Plonky3's own layout (stride 1, rounds right after the
    /// inputs) is written in place; any other runs Plonky3's packed writer
    /// into scratch rows and keeps the committed states.
    pub fn write(&self, rows: &mut [&mut [Val]], inputs: &[[Val; W]]) -> Vec<[Val; W]>
    where
        Linear: GenericPoseidon2LinearLayers<W>,
        [Val]: Borrow<Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>>
            + core::borrow::BorrowMut<Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>>,
    {
        // Plonky3's own layout: write in place.
        if self.stride == 1 && self.rounds == self.inputs + W {
            let mut at: Vec<&mut [Val]> = rows.iter_mut().map(|r| &mut r[self.inputs..]).collect();
            return write_packed(&mut at, inputs, &self.constants);
        }
        let ncols = num_cols::<W, 3, 0, HALF_FULL, P>();
        let mut scratch = Val::zero_vec(PackedF::WIDTH * ncols);
        let outputs = {
            let mut full_rows: Vec<&mut [Val]> = scratch.chunks_mut(ncols).collect();
            write_packed(&mut full_rows, inputs, &self.constants)
        };
        for (row, full) in rows.iter_mut().zip(scratch.chunks(ncols)) {
            self.select(full.borrow(), row);
        }
        outputs
    }
}

impl<const W: usize, const P: usize> BaseAir<Val> for Poseidon2Block<W, P> {
    fn width(&self) -> usize {
        (self.inputs + W).max(self.rounds + self.round_cols())
    }
}

impl<AB: AirBuilder<F = Val>, const W: usize, const P: usize> Air<AB> for Poseidon2Block<W, P>
where
    Linear: GenericPoseidon2LinearLayers<W>,
{
    fn eval(&self, builder: &mut AB) {
        Poseidon2Block::eval(self, builder);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poseidon::{PARTIAL_16, PARTIAL_24, constants16, constants24};
    use p3_air::check_constraints;
    use p3_matrix::dense::RowMajorMatrix;
    use p3_symmetric::Permutation;
    use p3_air::symbolic::{AirLayout, get_symbolic_constraints};
    use sigagg_xmss::poseidon::{hashsig_poseidon2_16, hashsig_poseidon2_24};

    /// Columns of a paired permutation, inputs included.
    const fn paired_cols(w: usize, p: usize) -> usize {
        w + round_cols(2, w, p)
    }

    fn rows<const W: usize, const P: usize>(
        constants: &RoundConstants<Val, W, HALF_FULL, P>,
        seed: u32,
    ) -> (RowMajorMatrix<Val>, Vec<[Val; W]>, Vec<[Val; W]>)
    where
        Linear: GenericPoseidon2LinearLayers<W>,
        [Val]: Borrow<Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>>
            + core::borrow::BorrowMut<Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>>,
    {
        let lanes = PackedF::WIDTH;
        let width = paired_cols(W, P);
        let inputs: Vec<[Val; W]> = (0..lanes)
            .map(|l| core::array::from_fn(|i| Val::from_u32(seed + (l * 31 + i * 7) as u32)))
            .collect();
        let mut values = Val::zero_vec(lanes * width);
        let outputs = {
            let mut rs: Vec<&mut [Val]> = values.chunks_mut(width).collect();
            Poseidon2Block::paired(constants.clone()).write(&mut rs, &inputs)
        };
        (RowMajorMatrix::new(values, width), inputs, outputs)
    }

    /// The rows the writer produces satisfy the constraints, hold the
    /// native permutation's output in the last `W` columns, and the
    /// constraints have degree 9.
    #[test]
    fn paired_rows_prove_the_native_permutations() {
        let (m16, in16, out16) = rows(constants16(), 1);
        let air16 = Poseidon2Block::paired(constants16().clone());
        check_constraints(&air16, &m16, &[]);
        for (l, (i, o)) in in16.iter().zip(&out16).enumerate() {
            assert_eq!(*o, hashsig_poseidon2_16().permute(*i));
            let w = paired_cols(16, PARTIAL_16);
            assert_eq!(&m16.values[l * w + w - 16..(l + 1) * w], o.as_slice());
        }
        let layout = AirLayout { main_width: paired_cols(16, PARTIAL_16), ..Default::default() };
        let degree = get_symbolic_constraints::<Val, _>(&air16, layout).iter().map(|c| c.degree_multiple()).max();
        assert_eq!(degree, Some(9));

        let (m24, in24, out24) = rows(constants24(), 5);
        check_constraints(&Poseidon2Block::paired(constants24().clone()), &m24, &[]);
        for (i, o) in in24.iter().zip(&out24) {
            assert_eq!(*o, hashsig_poseidon2_24().permute(*i));
        }
        assert_eq!(paired_cols(24, PARTIAL_24), 143);
    }

    /// Stride 1 with the rounds right after the inputs is Plonky3's layout;
    /// any stride with the rounds apart from the inputs (columns between
    /// them left to the table) satisfies its constraints too.
    #[test]
    fn other_strides_and_positions() {
        let lanes = PackedF::WIDTH;
        let inputs: Vec<[Val; 16]> =
            (0..lanes).map(|l| core::array::from_fn(|i| Val::from_u32((l * 13 + i) as u32))).collect();
        let every = Poseidon2Block::new(constants16().clone(), 1, 0, 16);
        let ncols = num_cols::<16, 3, 0, HALF_FULL, PARTIAL_16>();
        assert_eq!(BaseAir::<Val>::width(&every), ncols);
        let (mut ours, mut theirs) = (Val::zero_vec(lanes * ncols), Val::zero_vec(lanes * ncols));
        let out_ours = every.write(&mut ours.chunks_mut(ncols).collect::<Vec<_>>(), &inputs);
        let out_theirs = write_packed(&mut theirs.chunks_mut(ncols).collect::<Vec<_>>(), &inputs, constants16());
        assert_eq!((ours, out_ours), (theirs, out_theirs));
        for stride in [1, 2] {
            let block = Poseidon2Block::new(constants16().clone(), stride, 0, 16 + 5);
            let width = BaseAir::<Val>::width(&block);
            let mut values = Val::zero_vec(lanes * width);
            let outputs = block.write(&mut values.chunks_mut(width).collect::<Vec<_>>(), &inputs);
            let m = RowMajorMatrix::new(values, width);
            check_constraints(&block, &m, &[]);
            assert_eq!(m.values[block.output(3)], outputs[0][3]);
            assert_eq!(block.degree(), if stride == 1 { 3 } else { 9 });
        }
    }

    /// Changing any single committed cell of a row breaks a constraint.
    #[test]
    fn every_committed_cell_is_constrained() {
        let (m, _, _) = rows(constants16(), 9);
        let air = Poseidon2Block::paired(constants16().clone());
        let width = paired_cols(16, PARTIAL_16);
        for c in 0..width {
            let mut bad = m.clone();
            bad.values[c] += Val::ONE;
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_constraints(&air, &bad, &[])));
            assert!(caught.is_err(), "column {c}");
        }
    }
}
