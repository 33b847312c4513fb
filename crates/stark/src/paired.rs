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

/// Committed columns of one paired permutation of width `w` with `p`
/// partial rounds.
pub const fn paired_cols(w: usize, p: usize) -> usize {
    5 * w + p
}

/// Constraints of one Poseidon2 permutation committing every second full
/// round (see the module documentation).
#[derive(Clone, Debug)]
pub struct PairedPoseidon2Air<const W: usize, const P: usize> {
    constants: RoundConstants<Val, W, HALF_FULL, P>,
}

impl<const W: usize, const P: usize> PairedPoseidon2Air<W, P> {
    /// The AIR for the permutation with these round constants.
    pub fn new(constants: RoundConstants<Val, W, HALF_FULL, P>) -> Self {
        Self { constants }
    }
}

impl<const W: usize, const P: usize> BaseAir<Val> for PairedPoseidon2Air<W, P> {
    fn width(&self) -> usize {
        paired_cols(W, P)
    }
}

/// Where the committed state after full round `round` (0-based, of 4) of
/// one half sits, if it is committed: `base` is the half's first column.
const fn committed_at(round: usize, base: usize, w: usize) -> Option<usize> {
    if round % 2 == 1 { Some(base + (round / 2) * w) } else { None }
}

impl<AB: AirBuilder<F = Val>, const W: usize, const P: usize> Air<AB> for PairedPoseidon2Air<W, P>
where
    Linear: GenericPoseidon2LinearLayers<W>,
{
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let row = main.current_slice();
        let var = |c: usize| -> AB::Expr { row[c].into() };
        let c = &self.constants;

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

        let mut state: [AB::Expr; W] = core::array::from_fn(&var);
        Linear::external_linear_layer(&mut state);
        for (round, rc) in c.beginning_full_round_constants().iter().enumerate() {
            full(builder, &mut state, rc, committed_at(round, W, W));
        }
        for (round, &rc) in c.partial_round_constants().iter().enumerate() {
            let at = 3 * W + round;
            builder.assert_eq((state[0].clone() + AB::Expr::from(rc)).cube(), var(at));
            state[0] = var(at);
            Linear::internal_linear_layer(&mut state);
        }
        for (round, rc) in c.ending_full_round_constants().iter().enumerate() {
            full(builder, &mut state, rc, committed_at(round, 3 * W + P, W));
        }
    }
}

/// Copies the paired layout's columns out of a row in Plonky3's layout.
fn select<const W: usize, const P: usize>(full: &Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>, out: &mut [Val]) {
    out[..W].copy_from_slice(&full.inputs);
    for (half, rounds) in [(W, &full.beginning_full_rounds), (3 * W + P, &full.ending_full_rounds)] {
        for (round, r) in rounds.iter().enumerate() {
            if let Some(at) = committed_at(round, half, W) {
                out[at..at + W].copy_from_slice(&r.post);
            }
        }
    }
    for (round, r) in full.partial_rounds.iter().enumerate() {
        out[3 * W + round] = r.post_sbox;
    }
}

/// Writes the paired columns of `PackedF::WIDTH` permutations, one per
/// lane, into the first [`paired_cols`] entries of each row in `rows`, and
/// returns the outputs. It runs the packed writer of the full layout into
/// scratch rows and keeps the committed states.
pub fn write_packed_paired<const W: usize, const P: usize>(
    rows: &mut [&mut [Val]],
    inputs: &[[Val; W]],
    constants: &RoundConstants<Val, W, HALF_FULL, P>,
) -> Vec<[Val; W]>
where
    Linear: GenericPoseidon2LinearLayers<W>,
    [Val]: Borrow<Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>>
        + core::borrow::BorrowMut<Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>>,
{
    let ncols = num_cols::<W, 3, 0, HALF_FULL, P>();
    let mut scratch = Val::zero_vec(PackedF::WIDTH * ncols);
    let outputs = {
        let mut full_rows: Vec<&mut [Val]> = scratch.chunks_mut(ncols).collect();
        write_packed(&mut full_rows, inputs, constants)
    };
    for (row, full) in rows.iter_mut().zip(scratch.chunks(ncols)) {
        select::<W, P>(full.borrow(), &mut row[..paired_cols(W, P)]);
    }
    outputs
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
            write_packed_paired(&mut rs, &inputs, constants)
        };
        (RowMajorMatrix::new(values, width), inputs, outputs)
    }

    /// The rows the writer produces satisfy the constraints, hold the
    /// native permutation's output in the last `W` columns, and the
    /// constraints have degree 9.
    #[test]
    fn paired_rows_prove_the_native_permutations() {
        let (m16, in16, out16) = rows(constants16(), 1);
        let air16 = PairedPoseidon2Air::new(constants16().clone());
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
        check_constraints(&PairedPoseidon2Air::new(constants24().clone()), &m24, &[]);
        for (i, o) in in24.iter().zip(&out24) {
            assert_eq!(*o, hashsig_poseidon2_24().permute(*i));
        }
        assert_eq!(paired_cols(24, PARTIAL_24), 143);
    }

    /// Changing any single committed cell of a row breaks a constraint.
    #[test]
    fn every_committed_cell_is_constrained() {
        let (m, _, _) = rows(constants16(), 9);
        let air = PairedPoseidon2Air::new(constants16().clone());
        let width = paired_cols(16, PARTIAL_16);
        for c in 0..width {
            let mut bad = m.clone();
            bad.values[c] += Val::ONE;
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_constraints(&air, &bad, &[])));
            assert!(caught.is_err(), "column {c}");
        }
    }
}
