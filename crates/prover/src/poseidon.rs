//! Poseidon2 over KoalaBear as both aggregators arithmetize it: the column
//! count of Plonky3's `Poseidon2Air` layout (degree-3 S-box, no extra
//! registers) and its packed witness generator.
//!
//! The round counts and both sets of round constants (Seed001 uses
//! hash-sig's, Lamport+ Plonky3's defaults) are `sigagg_koalabear::poseidon2`'s,
//! the same values the schemes hash with. The constraints are
//! [`crate::paired::Poseidon2Block`]'s, which keeps the states of either
//! every full round or every second one.

use core::borrow::BorrowMut;

use p3_field::{PackedValue, PrimeCharacteristicRing};
use p3_koala_bear::GenericPoseidon2LinearLayersKoalaBear as Linear;
use p3_poseidon2::GenericPoseidon2LinearLayers;
use p3_poseidon2_air::{Poseidon2Cols, RoundConstants, num_cols};
use sigagg_koalabear::poseidon2::{HALF_FULL, PARTIAL_16, PARTIAL_24};

use crate::config::{PackedVal, Val};

/// Columns of one width-16 permutation.
pub const COLS16: usize = num_cols::<16, 3, 0, HALF_FULL, PARTIAL_16>();
/// Columns of one width-24 permutation.
pub const COLS24: usize = num_cols::<24, 3, 0, HALF_FULL, PARTIAL_24>();

/// Writes the permutation columns of `PackedVal::WIDTH` permutations, one per
/// lane, into the first `num_cols` entries of each row in `rows`, and
/// returns the permutations' outputs.
///
/// The arithmetic mirrors `Poseidon2Air`'s constraints step by step (initial
/// linear layer, full rounds writing `post`, partial rounds writing
/// `post_sbox` before the internal layer); the proof tests check that the
/// two agree.
pub fn write_packed<const W: usize, const P: usize>(
    rows: &mut [&mut [Val]],
    inputs: &[[Val; W]],
    constants: &RoundConstants<Val, W, HALF_FULL, P>,
) -> Vec<[Val; W]>
where
    Linear: GenericPoseidon2LinearLayers<W>,
    [Val]: BorrowMut<Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>>,
{
    let lanes = PackedVal::WIDTH;
    assert_eq!(rows.len(), lanes);
    assert_eq!(inputs.len(), lanes);
    let ncols = num_cols::<W, 3, 0, HALF_FULL, P>();
    let mut cols: Vec<&mut Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>> =
        rows.iter_mut().map(|r| r[..ncols].borrow_mut()).collect();

    for (c, input) in cols.iter_mut().zip(inputs) {
        c.inputs = *input;
    }
    let mut state: [PackedVal; W] = PackedVal::pack_columns(inputs);
    Linear::external_linear_layer(&mut state);

    let full_round = |state: &mut [PackedVal; W], rc: &[Val; W]| {
        for (s, &r) in state.iter_mut().zip(rc) {
            *s += r;
            *s = s.cube();
        }
        Linear::external_linear_layer(state);
    };
    for (round, rc) in constants.beginning_full_round_constants().iter().enumerate() {
        full_round(&mut state, rc);
        for (lane, c) in cols.iter_mut().enumerate() {
            c.beginning_full_rounds[round].post = core::array::from_fn(|i| state[i].as_slice()[lane]);
        }
    }
    for (round, &rc) in constants.partial_round_constants().iter().enumerate() {
        state[0] += rc;
        state[0] = state[0].cube();
        for (lane, c) in cols.iter_mut().enumerate() {
            c.partial_rounds[round].post_sbox = state[0].as_slice()[lane];
        }
        Linear::internal_linear_layer(&mut state);
    }
    for (round, rc) in constants.ending_full_round_constants().iter().enumerate() {
        full_round(&mut state, rc);
        for (lane, c) in cols.iter_mut().enumerate() {
            c.ending_full_rounds[round].post = core::array::from_fn(|i| state[i].as_slice()[lane]);
        }
    }
    (0..lanes).map(|lane| core::array::from_fn(|i| state[i].as_slice()[lane])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_symmetric::Permutation;
    use sigagg_koalabear::poseidon2;

    /// Runs the packed writer on one input per lane, in rows `extra`
    /// columns wider than the layout, and checks every output against the
    /// native permutation, and that the inputs open a row and the last
    /// state closes the layout's columns.
    fn check<const W: usize, const P: usize>(
        constants: &RoundConstants<Val, W, HALF_FULL, P>,
        native: &impl Permutation<[Val; W]>,
        seed: usize,
        extra: usize,
    ) where
        Linear: GenericPoseidon2LinearLayers<W>,
        [Val]: BorrowMut<Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>>,
    {
        let lanes = PackedVal::WIDTH;
        let ncols = num_cols::<W, 3, 0, HALF_FULL, P>();
        let width = ncols + extra;
        let inputs: Vec<[Val; W]> =
            (0..lanes).map(|l| core::array::from_fn(|i| Val::from_u32((l * 100 + i * seed + 1) as u32))).collect();
        let mut buf = vec![Val::ZERO; lanes * width];
        let mut rows: Vec<&mut [Val]> = buf.chunks_mut(width).collect();
        let out = write_packed(&mut rows, &inputs, constants);
        for (l, o) in out.iter().enumerate() {
            assert_eq!(*o, native.permute(inputs[l]));
            let row = &buf[l * width..(l + 1) * width];
            assert_eq!(row[..W], inputs[l]);
            assert_eq!(row[ncols - W..ncols], o[..]);
        }
    }

    /// With either constant set, the packed writer computes the
    /// permutations the schemes hash with (hash-sig's for Seed001,
    /// Plonky3's defaults for Lamport+).
    #[test]
    fn packed_writer_matches_native_permutations() {
        check(poseidon2::hashsig_constants16(), poseidon2::hashsig16(), 1, 3);
        check(poseidon2::hashsig_constants24(), poseidon2::hashsig24(), 3, 0);
        check(poseidon2::default_constants16(), poseidon2::default16(), 7, 0);
        check(poseidon2::default_constants24(), poseidon2::default24(), 3, 0);
    }
}
