//! The Poseidon2 permutations of Seed001: round constants in the AIR's
//! format and a packed witness generator in Plonky3's `Poseidon2Air`
//! layout (degree-3 S-box, no extra registers).
//!
//! The round constants are hash-sig's (see `sigagg_xmss::poseidon`), so the
//! circuit proves exactly the permutation that native verification runs;
//! the constraints are [`crate::paired::Poseidon2Block`]'s, which keeps the
//! states of either every full round or every second one.

use core::borrow::BorrowMut;
use std::sync::OnceLock;

use p3_field::{PackedValue, PrimeCharacteristicRing};
use p3_koala_bear::GenericPoseidon2LinearLayersKoalaBear as Linear;
use p3_poseidon2::GenericPoseidon2LinearLayers;
use p3_poseidon2_air::{Poseidon2Cols, RoundConstants, num_cols};
use sigagg_xmss::field::PackedF;
use sigagg_xmss::poseidon::{
    Poseidon2Constants, hashsig_poseidon2_16_constants, hashsig_poseidon2_24_constants,
};

use crate::config::Val;

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

fn round_constants<const W: usize, const P: usize>(
    c: Poseidon2Constants<W>,
) -> RoundConstants<Val, W, HALF_FULL, P> {
    RoundConstants::new(
        c.initial.try_into().expect("four initial rounds"),
        c.internal.try_into().expect("partial round count"),
        c.terminal.try_into().expect("four terminal rounds"),
    )
}

/// Round constants of hash-sig's width-16 Poseidon2.
pub fn constants16() -> &'static RoundConstants<Val, 16, HALF_FULL, PARTIAL_16> {
    static C: OnceLock<RoundConstants<Val, 16, HALF_FULL, PARTIAL_16>> = OnceLock::new();
    C.get_or_init(|| round_constants(hashsig_poseidon2_16_constants()))
}

/// Round constants of hash-sig's width-24 Poseidon2.
pub fn constants24() -> &'static RoundConstants<Val, 24, HALF_FULL, PARTIAL_24> {
    static C: OnceLock<RoundConstants<Val, 24, HALF_FULL, PARTIAL_24>> = OnceLock::new();
    C.get_or_init(|| round_constants(hashsig_poseidon2_24_constants()))
}


/// Writes the permutation columns of `PackedF::WIDTH` permutations, one per
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
    let lanes = PackedF::WIDTH;
    assert_eq!(rows.len(), lanes);
    assert_eq!(inputs.len(), lanes);
    let ncols = num_cols::<W, 3, 0, HALF_FULL, P>();
    let mut cols: Vec<&mut Poseidon2Cols<Val, W, 3, 0, HALF_FULL, P>> =
        rows.iter_mut().map(|r| r[..ncols].borrow_mut()).collect();

    for (c, input) in cols.iter_mut().zip(inputs) {
        c.inputs = *input;
    }
    let mut state: [PackedF; W] = PackedF::pack_columns(inputs);
    Linear::external_linear_layer(&mut state);

    let full_round = |state: &mut [PackedF; W], rc: &[Val; W]| {
        for (s, &r) in state.iter_mut().zip(rc) {
            *s += r;
            *s = s.cube();
        }
        Linear::external_linear_layer(state);
    };
    for (round, rc) in constants
        .beginning_full_round_constants()
        .iter()
        .enumerate()
    {
        full_round(&mut state, rc);
        for (lane, c) in cols.iter_mut().enumerate() {
            c.beginning_full_rounds[round].post =
                core::array::from_fn(|i| state[i].as_slice()[lane]);
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
    (0..lanes)
        .map(|lane| core::array::from_fn(|i| state[i].as_slice()[lane]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_symmetric::Permutation;
    use sigagg_xmss::poseidon::{hashsig_poseidon2_16, hashsig_poseidon2_24};

    #[test]
    fn packed_writer_matches_native_permutations() {
        let lanes = PackedF::WIDTH;
        let inputs16: Vec<[Val; 16]> = (0..lanes)
            .map(|l| core::array::from_fn(|i| Val::from_u32((l * 100 + i) as u32)))
            .collect();
        let mut buf = vec![Val::ZERO; lanes * (COLS16 + 3)];
        let mut rows: Vec<&mut [Val]> = buf.chunks_mut(COLS16 + 3).collect();
        let out = write_packed(&mut rows, &inputs16, constants16());
        for (l, o) in out.iter().enumerate() {
            assert_eq!(*o, hashsig_poseidon2_16().permute(inputs16[l]));
        }
        let inputs24: Vec<[Val; 24]> = (0..lanes)
            .map(|l| core::array::from_fn(|i| Val::from_u32((l * 7 + i * 3) as u32)))
            .collect();
        let mut buf = vec![Val::ZERO; lanes * COLS24];
        let mut rows: Vec<&mut [Val]> = buf.chunks_mut(COLS24).collect();
        let out = write_packed(&mut rows, &inputs24, constants24());
        for (l, o) in out.iter().enumerate() {
            assert_eq!(*o, hashsig_poseidon2_24().permute(inputs24[l]));
        }
    }
}
