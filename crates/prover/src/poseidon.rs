//! Poseidon2 over KoalaBear as both aggregators arithmetize it: the round
//! counts, the column count of Plonky3's `Poseidon2Air` layout (degree-3
//! S-box, no extra registers), its packed witness generator, and the round
//! constants of Plonky3's default permutations.
//!
//! The round counts are those of every KoalaBear Poseidon2 of widths 16 and
//! 24; the constants differ between schemes (Seed001 uses hash-sig's,
//! `sigagg-xmss-agg`'s `poseidon` module; Lamport+ Plonky3's defaults,
//! [`default_constants16`] and [`default_constants24`]). The constraints
//! are [`crate::paired::Poseidon2Block`]'s, which keeps the states of
//! either every full round or every second one.

use core::borrow::BorrowMut;
use std::sync::OnceLock;

use p3_field::{PackedValue, PrimeCharacteristicRing};
use p3_koala_bear::{
    GenericPoseidon2LinearLayersKoalaBear as Linear, KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
    KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL, KOALABEAR_POSEIDON2_RC_16_INTERNAL,
    KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL, KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL,
    KOALABEAR_POSEIDON2_RC_24_INTERNAL,
};
use p3_poseidon2::GenericPoseidon2LinearLayers;
use p3_poseidon2_air::{Poseidon2Cols, RoundConstants, num_cols};

use crate::config::{PackedVal, Val};

/// Half the number of full rounds.
pub const HALF_FULL: usize = 4;
/// Partial rounds of the width-16 permutation.
pub const PARTIAL_16: usize = 20;
/// Partial rounds of the width-24 permutation.
pub const PARTIAL_24: usize = 23;

/// Columns of one width-16 permutation.
pub const COLS16: usize = num_cols::<16, 3, 0, HALF_FULL, PARTIAL_16>();
/// Columns of one width-24 permutation.
pub const COLS24: usize = num_cols::<24, 3, 0, HALF_FULL, PARTIAL_24>();

/// Round constants of Plonky3's default width-16 permutation
/// (`default_koalabear_poseidon2_16`).
pub fn default_constants16() -> &'static RoundConstants<Val, 16, HALF_FULL, PARTIAL_16> {
    static C: OnceLock<RoundConstants<Val, 16, HALF_FULL, PARTIAL_16>> = OnceLock::new();
    C.get_or_init(|| {
        RoundConstants::new(
            KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
            KOALABEAR_POSEIDON2_RC_16_INTERNAL,
            KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
        )
    })
}

/// Round constants of Plonky3's default width-24 permutation
/// (`default_koalabear_poseidon2_24`).
pub fn default_constants24() -> &'static RoundConstants<Val, 24, HALF_FULL, PARTIAL_24> {
    static C: OnceLock<RoundConstants<Val, 24, HALF_FULL, PARTIAL_24>> = OnceLock::new();
    C.get_or_init(|| {
        RoundConstants::new(
            KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL,
            KOALABEAR_POSEIDON2_RC_24_INTERNAL,
            KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
        )
    })
}

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
