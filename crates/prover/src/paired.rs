//! A Poseidon AIR block (Poseidon2 or Poseidon1 over KoalaBear) that
//! commits every full-round state, or every second or third: degree 3, 9
//! or 27 constraints, fewer columns the higher the degree, for proofs
//! whose rate leaves room for them (blowup 8 or more) or whose prover's
//! cost follows the columns more than the degree.
//!
//! Plonky3's `Poseidon2Air` with a degree-3 S-box commits the state after
//! every full round, so each constraint has degree 3 and the quotient fits a
//! rate-1/2 code. At rate 1/8 the quotient domain is as large as the
//! low-degree extension itself whether the constraints have degree 3 or 9,
//! so committing fewer states costs no extra extension: it only trades
//! columns (memory, Merkle hashing, the row every FRI query opens) for
//! higher-degree constraints.
//!
//! # Two permutations, one block
//!
//! [`PoseidonBlock`] is written once over [`PoseidonRounds`], which says
//! what the two permutations do differently (an initial linear layer or
//! none, the full rounds' layer, the partial rounds' form and constants;
//! see [`rounds`]). Everything else (the layout, the strides, kept outputs,
//! constant tails, the order of the constraints, the witness writer) is
//! shared: [`Poseidon2Block`] and [`Poseidon1Block`] are the block over
//! Plonky3's `RoundConstants` and over [`Poseidon1Rounds`], so a table can
//! be generic over the permutation. Both have 4 + 4 full rounds and 20
//! (width 16) or 23 (width 24) partial rounds on KoalaBear.
//!
//! # Why only full rounds are paired
//!
//! A full round's committed output resets the whole state to degree 1, so
//! an uncommitted full round (degree 3) followed by a committed one gives
//! degree `3 * 3 = 9`. A partial round changes only lane 0, and its S-box
//! output reaches every lane through the linear layer that follows
//! (Poseidon2's internal layer, Poseidon1's sparse matrix): skipping
//! one would leave a degree-3 term in all later rounds and push the next
//! committed constraint to degree 27. Partial rounds therefore keep one
//! committed column each, as in Plonky3's AIRs.
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
//! Inputs come first and the output last, as in Plonky3's layout;
//! [`PoseidonBlock::input`] and [`PoseidonBlock::output`] address either
//! layout. With stride 1 the layout is Plonky3's `Poseidon2Air` or
//! `Poseidon1Air` (no S-box registers) column for column.
//!
//! # Stride 3: degree 27, one state fewer
//!
//! For a prover whose cost grows with the constraint degree but not its
//! commitment (the multilinear backend's zerocheck), stride 3 commits
//! three full states instead of four: after initial full round 3 (degree
//! `3^3` from the inputs), after terminal full round 1, and the output
//! (three rounds after it, degree 27). Initial round 4 stays uncommitted:
//! its degree-3 state reaches every partial round's S-box input (through
//! affine maps only), so the partial rounds' constraints have degree 9,
//! and the state leaving them has degree 3, which terminal round 1 raises
//! to 9 before its commitment. The initial half counts its strides from
//! the first round, the terminal half back from the output, so the output
//! is committed in every stride.
//!
//! | columns | content (stride 3) |
//! |---|---|
//! | `0..W` | inputs |
//! | `W..2W` | state after initial full round 3 |
//! | `2W..2W+P` | S-box output of each partial round |
//! | `2W+P..4W+P` | state after terminal full rounds 1 and 4 (the output last) |
//!
//! # Truncated outputs
//!
//! In either stride a block may commit only the output lanes its table
//! reads ([`PoseidonBlock::with_outputs`]): a compression truncated to its
//! digest, or an overwrite sponge, never reads the rest, and nothing
//! follows the output, so the unread lanes' columns and constraints go
//! away without changing what the table proves. The kept lanes stay in
//! lane order at the end of the block.
//!
//! # Constant input tails
//!
//! Likewise the last input lanes may be constants
//! ([`PoseidonBlock::with_constant_tail`]: a domain tag, zero padding):
//! they get no columns and the constraints read the constants, which binds
//! every row to them as the lane-by-lane assertions they replace did.

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::{PackedValue, PrimeCharacteristicRing};
use p3_poseidon2_air::RoundConstants;

use crate::config::{PackedVal, Val};
use sigagg_koalabear::poseidon2::HALF_FULL;

pub mod rounds;

pub use rounds::{Poseidon1Rounds, PoseidonRounds};

/// Committed round columns (inputs excluded) when every `stride`-th full
/// round's state is committed (`stride` 1, 2 or 3; see the module docs for
/// which states stride 3 commits).
pub const fn round_cols(stride: usize, w: usize, p: usize) -> usize {
    (initial_commits(stride) + terminal_commits(stride)) * w + p
}

/// Committed states among the initial full rounds: every `stride`-th,
/// counted from the first round.
const fn initial_commits(stride: usize) -> usize {
    HALF_FULL / stride
}

/// Committed states among the terminal full rounds, the output included:
/// every `stride`-th, counted back from the output.
const fn terminal_commits(stride: usize) -> usize {
    HALF_FULL.div_ceil(stride)
}

/// Constraints of one Poseidon permutation (its rounds `R`, see
/// [`PoseidonRounds`]) whose inputs start at column `inputs` and whose
/// committed round states start at column `rounds`, committing every
/// `stride`-th full round (1: Plonky3's layout, degree 3; 2: the paired
/// layout of the module docs, degree 9; 3: degree 27). Inputs and rounds
/// may be apart, so a table can keep its own columns at fixed positions
/// between them whatever the stride.
#[derive(Clone, Debug)]
pub struct PoseidonBlock<R, const W: usize, const P: usize> {
    constants: R,
    stride: usize,
    inputs: usize,
    rounds: usize,
    /// Output lanes the last state commits (bit `j`: lane `j`).
    outputs: u32,
    /// Values of the last input lanes, which have no column.
    tail: Vec<Val>,
}

/// The Poseidon2 block, over Plonky3's `Poseidon2Air` round constants.
pub type Poseidon2Block<const W: usize, const P: usize> = PoseidonBlock<RoundConstants<Val, W, HALF_FULL, P>, W, P>;

/// The Poseidon1 block, over Plonky3's sparse form of its rounds.
pub type Poseidon1Block<const W: usize, const P: usize> = PoseidonBlock<Poseidon1Rounds<W>, W, P>;

impl<R: PoseidonRounds<W>, const W: usize, const P: usize> PoseidonBlock<R, W, P> {
    /// The block for the permutation with these rounds.
    ///
    /// # Panics
    /// If `stride` is not 1, 2 or 3, or the rounds are not `HALF_FULL`
    /// full, `P` partial and `HALF_FULL` full ones.
    pub fn new(constants: R, stride: usize, inputs: usize, rounds: usize) -> Self {
        assert!((1..=3).contains(&stride), "stride 1, 2 or 3");
        let counts =
            (constants.initial_constants().len(), constants.partial_rounds(), constants.terminal_constants().len());
        assert_eq!(counts, (HALF_FULL, P, HALF_FULL), "the block's round counts");
        Self { constants, stride, inputs, rounds, outputs: lanes_mask::<W>(0..W), tail: Vec::new() }
    }

    /// Commits only output lanes `lanes` of the last state; the other
    /// lanes lose their columns and their constraints.
    ///
    /// Why this is sound: a committed state is only a witness for the
    /// states that follow it, and nothing follows the output. The column
    /// of an output lane no constraint of the table reads (a compression's
    /// truncated lanes, an overwrite sponge's rate) would only be asserted
    /// equal to that lane, so dropping it changes no statement the table
    /// proves; every kept lane keeps its constraint. This workspace's
    /// tables drop 7 to 16 columns per permutation this way. A table that
    /// does read a dropped lane reads its expression
    /// ([`Self::eval_output`]), at a higher degree; with no lane kept, the
    /// last committed state is the one before the output.
    ///
    /// # Panics
    /// If a lane is not below `W`.
    pub fn with_outputs(mut self, lanes: impl IntoIterator<Item = usize>) -> Self {
        self.outputs = lanes_mask::<W>(lanes);
        self
    }

    /// Fixes the last `values.len()` input lanes to `values`: they get no
    /// columns, and the constraints read the constants instead. For
    /// permutations whose every input ends the same way (a domain tag, zero
    /// padding), which the table would otherwise have to assert lane by lane.
    /// Every row of the block then permutes such an input, padding rows
    /// included.
    ///
    /// # Panics
    /// If the tail is not shorter than `W`.
    pub fn with_constant_tail(mut self, values: &[Val]) -> Self {
        assert!(values.len() < W, "a constant tail shorter than the width");
        self.tail = values.to_vec();
        self
    }

    /// The constant tail's values.
    pub fn tail(&self) -> &[Val] {
        &self.tail
    }

    /// Input lanes with a column (those before the constant tail).
    pub fn input_cols(&self) -> usize {
        W - self.tail.len()
    }

    /// Number of committed output lanes.
    pub fn kept_outputs(&self) -> usize {
        self.outputs.count_ones() as usize
    }

    /// Whether output lane `j` is committed.
    pub fn keeps_output(&self, j: usize) -> bool {
        j < W && (self.outputs >> j) & 1 == 1
    }

    /// The paired layout, rounds right after the inputs at column 0.
    pub fn paired(constants: R) -> Self {
        Self::new(constants, 2, 0, W)
    }

    /// Every `stride`-th full round is committed.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Largest constraint degree: 3 with stride 1, 9 with stride 2, 27
    /// with stride 3.
    pub fn degree(&self) -> usize {
        3usize.pow(self.stride as u32)
    }

    /// Committed round columns (after [`Self::rounds_at`]).
    pub fn round_cols(&self) -> usize {
        round_cols(self.stride, W, P) - (W - self.kept_outputs())
    }

    /// First round column.
    pub fn rounds_at(&self) -> usize {
        self.rounds
    }

    /// Column of input lane `j`.
    ///
    /// # Panics
    /// If lane `j` is in the constant tail ([`Self::with_constant_tail`]).
    pub fn input(&self, j: usize) -> usize {
        assert!(j < self.input_cols(), "input lane {j} is a constant");
        self.inputs + j
    }

    /// Column of output lane `j` (the last committed state, kept lanes in
    /// order).
    ///
    /// # Panics
    /// If lane `j` is not committed ([`Self::with_outputs`]).
    pub fn output(&self, j: usize) -> usize {
        assert!(self.keeps_output(j), "output lane {j} is not committed");
        let rank = (self.outputs & ((1u32 << j) - 1)).count_ones() as usize;
        self.rounds + self.round_cols() - self.kept_outputs() + rank
    }

    /// The column of each committed lane of the last state.
    fn output_cols(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..W).filter(|&j| self.keeps_output(j)).map(|j| (j, self.output(j)))
    }

    /// Whether `round` (0-based, of 4) of the second half is the last one.
    fn is_last(round: usize) -> bool {
        round + 1 == HALF_FULL
    }

    /// Where the committed state after initial full round `round`
    /// (0-based, of 4) sits, if it is committed: every `stride`-th round,
    /// counted from the first.
    fn initial_at(&self, round: usize, base: usize) -> Option<usize> {
        (round + 1).is_multiple_of(self.stride).then(|| base + ((round + 1) / self.stride - 1) * W)
    }

    /// Where the committed state after terminal full round `round`
    /// (0-based, of 4) sits, if it is committed: every `stride`-th round,
    /// counted back from the output, so the output is always committed.
    fn terminal_at(&self, round: usize, base: usize) -> Option<usize> {
        let first = (HALF_FULL - 1) % self.stride;
        (round >= first && (round - first).is_multiple_of(self.stride))
            .then(|| base + (round - first) / self.stride * W)
    }

    fn halves(&self) -> (usize, usize, usize) {
        let partial = self.rounds + initial_commits(self.stride) * W;
        (self.rounds, partial, partial + P)
    }

    /// Asserts the permutation on the builder's current row.
    pub fn eval<AB: AirBuilder<F = Val>>(&self, builder: &mut AB) {
        self.eval_output(builder);
    }

    /// Asserts the permutation on the builder's current row and returns
    /// every output lane: a committed lane as its column (asserted equal
    /// to the lane), any other as an expression in the last committed
    /// state, of degree [`Self::degree`], which a table may constrain
    /// itself (a sponge's capacity against the next row's input, a bus
    /// message's field) without committing it.
    pub fn eval_output<AB: AirBuilder<F = Val>>(&self, builder: &mut AB) -> [AB::Expr; W] {
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
            c.full_layer(state);
            if let Some(at) = commit {
                for (i, s) in state.iter_mut().enumerate() {
                    builder.assert_eq(s.clone(), var(at + i));
                    *s = var(at + i);
                }
            }
        };

        let mut state: [AB::Expr; W] = core::array::from_fn(|j| match j.checked_sub(self.input_cols()) {
            None => var(self.input(j)),
            Some(t) => AB::Expr::from(self.tail[t]),
        });
        c.initial_layer(&mut state);
        for (round, rc) in c.initial_constants().iter().enumerate() {
            full(builder, &mut state, rc, self.initial_at(round, begin));
        }
        c.enter_partial(&mut state);
        for round in 0..P {
            let at = partial + round;
            let input = match c.partial_constant(round) {
                Some(rc) => state[0].clone() + AB::Expr::from(rc),
                None => state[0].clone(),
            };
            builder.assert_eq(input.cube(), var(at));
            state[0] = var(at);
            c.after_partial(round, &mut state);
        }
        for (round, rc) in c.terminal_constants().iter().enumerate() {
            if Self::is_last(round) {
                // The output: only its committed lanes are asserted.
                full(builder, &mut state, rc, None);
                for (j, col) in self.output_cols() {
                    builder.assert_eq(state[j].clone(), var(col));
                    state[j] = var(col);
                }
            } else {
                full(builder, &mut state, rc, self.terminal_at(round, end));
            }
        }
        state
    }

    /// Writes one permutation per row of `rows`, at most `PackedVal::WIDTH`
    /// of them (each row holding this block's columns at their
    /// positions), and returns the full outputs (every lane, committed or
    /// not). The arithmetic mirrors [`Self::eval`] step by step, in SIMD
    /// lanes (the lanes past the rows permute a copy of the first input);
    /// tests check it against the native permutation and against
    /// Plonky3's layout.
    pub fn write(&self, rows: &mut [&mut [Val]], inputs: &[[Val; W]]) -> Vec<[Val; W]> {
        let lanes = PackedVal::WIDTH;
        assert!((1..=lanes).contains(&rows.len()), "1 to {lanes} rows");
        assert_eq!(inputs.len(), rows.len(), "one input per row");
        let (begin, partial, end) = self.halves();
        let put = |rows: &mut [&mut [Val]], at: usize, state: &[PackedVal]| {
            for (lane, row) in rows.iter_mut().enumerate() {
                for (i, s) in state.iter().enumerate() {
                    row[at + i] = s.as_slice()[lane];
                }
            }
        };
        for (row, input) in rows.iter_mut().zip(inputs) {
            let (cols, tail) = input.split_at(self.input_cols());
            assert_eq!(tail, self.tail.as_slice(), "an input that does not end with the block's constant tail");
            row[self.inputs..self.inputs + cols.len()].copy_from_slice(cols);
        }
        let mut packed = inputs.to_vec();
        packed.resize(lanes, inputs[0]);
        let c = &self.constants;
        let mut state: [PackedVal; W] = PackedVal::pack_columns(&packed);
        c.initial_layer(&mut state);
        let full_round = |state: &mut [PackedVal; W], rc: &[Val; W]| {
            for (s, &r) in state.iter_mut().zip(rc) {
                *s += r;
                *s = s.cube();
            }
            c.full_layer(state);
        };
        for (round, rc) in c.initial_constants().iter().enumerate() {
            full_round(&mut state, rc);
            if let Some(at) = self.initial_at(round, begin) {
                put(rows, at, &state);
            }
        }
        c.enter_partial(&mut state);
        for round in 0..P {
            if let Some(rc) = c.partial_constant(round) {
                state[0] += rc;
            }
            state[0] = state[0].cube();
            put(rows, partial + round, &state[..1]);
            c.after_partial(round, &mut state);
        }
        for (round, rc) in c.terminal_constants().iter().enumerate() {
            full_round(&mut state, rc);
            if Self::is_last(round) {
                for (j, col) in self.output_cols() {
                    put(rows, col, &state[j..j + 1]);
                }
            } else if let Some(at) = self.terminal_at(round, end) {
                put(rows, at, &state);
            }
        }
        (0..rows.len()).map(|lane| core::array::from_fn(|i| state[i].as_slice()[lane])).collect()
    }
}

/// The bit mask of `lanes`, all below `W` (at most 24).
fn lanes_mask<const W: usize>(lanes: impl IntoIterator<Item = usize>) -> u32 {
    lanes.into_iter().fold(0u32, |m, j| {
        assert!(j < W, "output lane {j} is not below {W}");
        m | 1 << j
    })
}

impl<R: PoseidonRounds<W>, const W: usize, const P: usize> BaseAir<Val> for PoseidonBlock<R, W, P> {
    fn width(&self) -> usize {
        (self.inputs + self.input_cols()).max(self.rounds + self.round_cols())
    }
}

impl<AB: AirBuilder<F = Val>, R: PoseidonRounds<W>, const W: usize, const P: usize> Air<AB> for PoseidonBlock<R, W, P> {
    fn eval(&self, builder: &mut AB) {
        PoseidonBlock::eval(self, builder);
    }
}

#[cfg(test)]
mod poseidon1_tests;

#[cfg(test)]
mod proof_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poseidon::write_packed;
    use p3_air::check_constraints;
    use p3_air::symbolic::{AirLayout, get_symbolic_constraints};
    use p3_koala_bear::GenericPoseidon2LinearLayersKoalaBear as Linear;
    use p3_matrix::dense::RowMajorMatrix;
    use p3_poseidon2::GenericPoseidon2LinearLayers;
    use p3_poseidon2_air::num_cols;
    use p3_symmetric::Permutation;
    use sigagg_koalabear::poseidon2::{self, PARTIAL_16, PARTIAL_24};
    use sigagg_koalabear::poseidon2::{default_constants16 as constants16, default_constants24 as constants24};

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
    {
        let lanes = PackedVal::WIDTH;
        let width = paired_cols(W, P);
        let inputs: Vec<[Val; W]> =
            (0..lanes).map(|l| core::array::from_fn(|i| Val::from_u32(seed + (l * 31 + i * 7) as u32))).collect();
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
            assert_eq!(*o, poseidon2::default16().permute(*i));
            let w = paired_cols(16, PARTIAL_16);
            assert_eq!(&m16.values[l * w + w - 16..(l + 1) * w], o.as_slice());
        }
        let layout = AirLayout { main_width: paired_cols(16, PARTIAL_16), ..Default::default() };
        let degree = get_symbolic_constraints::<Val, _>(&air16, layout).iter().map(|c| c.degree_multiple()).max();
        assert_eq!(degree, Some(9));

        let (m24, in24, out24) = rows(constants24(), 5);
        check_constraints(&Poseidon2Block::paired(constants24().clone()), &m24, &[]);
        for (i, o) in in24.iter().zip(&out24) {
            assert_eq!(*o, poseidon2::default24().permute(*i));
        }
        assert_eq!(paired_cols(24, PARTIAL_24), 143);
    }

    /// Stride 1 with the rounds right after the inputs is Plonky3's layout;
    /// any stride with the rounds apart from the inputs (columns between
    /// them left to the table) satisfies its constraints too.
    #[test]
    fn other_strides_and_positions() {
        let lanes = PackedVal::WIDTH;
        let inputs: Vec<[Val; 16]> =
            (0..lanes).map(|l| core::array::from_fn(|i| Val::from_u32((l * 13 + i) as u32))).collect();
        let every = Poseidon2Block::new(constants16().clone(), 1, 0, 16);
        let ncols = num_cols::<16, 3, 0, HALF_FULL, PARTIAL_16>();
        assert_eq!(BaseAir::<Val>::width(&every), ncols);
        let (mut ours, mut theirs) = (Val::zero_vec(lanes * ncols), Val::zero_vec(lanes * ncols));
        let out_ours = every.write(&mut ours.chunks_mut(ncols).collect::<Vec<_>>(), &inputs);
        let out_theirs = write_packed(&mut theirs.chunks_mut(ncols).collect::<Vec<_>>(), &inputs, constants16());
        assert_eq!((ours, out_ours), (theirs, out_theirs));
        for stride in [1, 2, 3] {
            let block = Poseidon2Block::new(constants16().clone(), stride, 0, 16 + 5);
            let width = BaseAir::<Val>::width(&block);
            let mut values = Val::zero_vec(lanes * width);
            let outputs = block.write(&mut values.chunks_mut(width).collect::<Vec<_>>(), &inputs);
            let m = RowMajorMatrix::new(values, width);
            check_constraints(&block, &m, &[]);
            assert_eq!(m.values[block.output(3)], outputs[0][3]);
            assert_eq!(block.degree(), 3usize.pow(stride as u32));
            let layout = AirLayout { main_width: width, ..Default::default() };
            let degree = get_symbolic_constraints::<Val, _>(&block, layout).iter().map(|c| c.degree_multiple()).max();
            assert_eq!(degree, Some(block.degree()), "stride {stride}");
            assert_every_cell_constrained(&block, &m, (0..16).chain(21..width));
        }
    }

    /// Changing any single committed cell of a row breaks a constraint.
    #[test]
    fn every_committed_cell_is_constrained() {
        let (m, _, _) = rows(constants16(), 9);
        let air = Poseidon2Block::paired(constants16().clone());
        let width = paired_cols(16, PARTIAL_16);
        assert_every_cell_constrained(&air, &m, 0..width);
    }

    /// Adding one to any of `cells` of the first row breaks a constraint.
    pub(super) fn assert_every_cell_constrained<R: PoseidonRounds<W>, const W: usize, const P: usize>(
        air: &PoseidonBlock<R, W, P>,
        m: &RowMajorMatrix<Val>,
        cells: impl IntoIterator<Item = usize>,
    ) {
        for c in cells {
            let mut bad = m.clone();
            bad.values[c] += Val::ONE;
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_constraints(air, &bad, &[])));
            assert!(caught.is_err(), "column {c}");
        }
    }

    /// A block that keeps only some output lanes is narrower by the
    /// dropped lanes, writes the kept lanes of the native output where
    /// `output` says, satisfies its constraints in both strides, and still
    /// constrains every committed cell.
    #[test]
    fn truncated_outputs() {
        let lanes = PackedVal::WIDTH;
        let inputs: Vec<[Val; 24]> =
            (0..lanes).map(|l| core::array::from_fn(|i| Val::from_u32((l * 17 + i * 3 + 1) as u32))).collect();
        let kept: Vec<usize> = (0..8).chain(16..24).collect();
        for stride in [1, 2, 3] {
            let full = Poseidon2Block::new(constants24().clone(), stride, 0, 24 + 2);
            let block = full.clone().with_outputs(kept.iter().copied());
            assert_eq!(block.kept_outputs(), 16);
            assert_eq!(block.round_cols(), full.round_cols() - 8);
            let width = BaseAir::<Val>::width(&block);
            assert_eq!(width, BaseAir::<Val>::width(&full) - 8);
            let mut values = Val::zero_vec(lanes * width);
            let outputs = block.write(&mut values.chunks_mut(width).collect::<Vec<_>>(), &inputs);
            let m = RowMajorMatrix::new(values, width);
            check_constraints(&block, &m, &[]);
            for (l, (i, o)) in inputs.iter().zip(&outputs).enumerate() {
                assert_eq!(*o, poseidon2::default24().permute(*i), "all lanes are returned");
                for &j in &kept {
                    assert_eq!(m.values[l * width + block.output(j)], o[j], "lane {j}");
                }
            }
            assert!(!block.keeps_output(8) && block.keeps_output(16));
            assert_eq!(block.output(16), block.output(7) + 1);
            assert_eq!(block.output(23), width - 1);
            // Columns 24 and 25 lie between inputs and rounds: the table's.
            assert_every_cell_constrained(&block, &m, (0..24).chain(26..width));
        }
    }

    /// A block with a constant input tail has no columns for it, proves
    /// the permutation of inputs ending with the constants, and constrains
    /// every cell it still has.
    #[test]
    fn constant_tail() {
        let lanes = PackedVal::WIDTH;
        let tail = [Val::from_u32(7), Val::ZERO];
        let inputs: Vec<[Val; 16]> = (0..lanes)
            .map(|l| core::array::from_fn(|i| if i < 14 { Val::from_u32((l * 5 + i) as u32) } else { tail[i - 14] }))
            .collect();
        for stride in [1, 2, 3] {
            let block =
                Poseidon2Block::new(constants16().clone(), stride, 0, 14).with_constant_tail(&tail).with_outputs(0..8);
            let width = BaseAir::<Val>::width(&block);
            assert_eq!(width, 14 + round_cols(stride, 16, PARTIAL_16) - 8);
            let mut values = Val::zero_vec(lanes * width);
            let outputs = block.write(&mut values.chunks_mut(width).collect::<Vec<_>>(), &inputs);
            let m = RowMajorMatrix::new(values, width);
            check_constraints(&block, &m, &[]);
            for (i, o) in inputs.iter().zip(&outputs) {
                assert_eq!(*o, poseidon2::default16().permute(*i));
            }
            assert_every_cell_constrained(&block, &m, 0..width);
        }
    }

    /// A table that reads output lane 12 of a block that does not commit
    /// it, from `eval_output`, into its own last column.
    struct ReadsLane12<R>(PoseidonBlock<R, 16, PARTIAL_16>);

    impl<R: PoseidonRounds<16>> BaseAir<Val> for ReadsLane12<R> {
        fn width(&self) -> usize {
            BaseAir::<Val>::width(&self.0) + 1
        }
    }

    impl<AB: AirBuilder<F = Val>, R: PoseidonRounds<16>> Air<AB> for ReadsLane12<R> {
        fn eval(&self, builder: &mut AB) {
            let lane = self.0.eval_output(builder)[12].clone();
            let own = builder.main().current_slice()[BaseAir::<Val>::width(&self.0)];
            builder.assert_eq(lane, own);
        }
    }

    /// `eval_output` gives the uncommitted lanes' true values in every
    /// stride, beside committed lanes or with none committed: a column
    /// holding the native output's lane satisfies the table's constraint,
    /// and any other value breaks it.
    pub(super) fn check_output_expressions<R: PoseidonRounds<16>>(rounds: &R, native: &impl Permutation<[Val; 16]>) {
        let lanes = PackedVal::WIDTH;
        let inputs: Vec<[Val; 16]> =
            (0..lanes).map(|l| core::array::from_fn(|i| Val::from_u32((l * 19 + i * 5 + 2) as u32))).collect();
        for (stride, kept) in [(1, 0..8), (2, 0..8), (3, 0..8), (1, 0..0), (2, 0..0), (3, 0..0)] {
            let block =
                PoseidonBlock::<R, 16, PARTIAL_16>::new(rounds.clone(), stride, 0, 16).with_outputs(kept.clone());
            assert_eq!(block.round_cols(), round_cols(stride, 16, PARTIAL_16) - 16 + kept.len());
            let air = ReadsLane12(block);
            let width = BaseAir::<Val>::width(&air);
            let mut values = Val::zero_vec(lanes * width);
            let outputs =
                air.0.write(&mut values.chunks_mut(width).map(|r| &mut r[..width - 1]).collect::<Vec<_>>(), &inputs);
            for (row, o) in values.chunks_mut(width).zip(&outputs) {
                assert_eq!(*o, native.permute(*row[..16].first_chunk().unwrap()));
                row[width - 1] = o[12];
            }
            let m = RowMajorMatrix::new(values, width);
            check_constraints(&air, &m, &[]);
            let mut bad = m.clone();
            bad.values[width - 1] += Val::ONE;
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_constraints(&air, &bad, &[])));
            assert!(caught.is_err(), "stride {stride}, kept {kept:?}");
        }
    }

    #[test]
    fn output_expressions_reach_uncommitted_lanes() {
        check_output_expressions(constants16(), poseidon2::default16());
    }

    #[test]
    #[should_panic(expected = "does not end with the block's constant tail")]
    fn inputs_must_end_with_the_tail() {
        let block = Poseidon2Block::new(constants16().clone(), 2, 0, 15).with_constant_tail(&[Val::ONE]);
        let width = BaseAir::<Val>::width(&block);
        let mut values = Val::zero_vec(PackedVal::WIDTH * width);
        block.write(&mut values.chunks_mut(width).collect::<Vec<_>>(), &vec![[Val::ZERO; 16]; PackedVal::WIDTH]);
    }

    #[test]
    #[should_panic(expected = "is not committed")]
    fn dropped_lanes_have_no_column() {
        Poseidon2Block::paired(constants16().clone()).with_outputs(0..8).output(8);
    }
}
