//! The two permutations of Lamport+ as AIR components.
//!
//! `sigagg-lamport` hashes with Plonky3's *default* KoalaBear Poseidon2
//! (`default_koalabear_poseidon2_16/24`); the circuit must prove exactly those
//! permutations, so the round constants here are the same published
//! constants (`KOALABEAR_POSEIDON2_RC_*`) fed to Plonky3's `Poseidon2Air`
//! (degree-3 S-box, no extra registers: every constraint has degree 3). A
//! unit test checks the packed witness writer against the native permutations.

use std::sync::OnceLock;

use p3_koala_bear::{
    GenericPoseidon2LinearLayersKoalaBear as Linear, KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
    KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL, KOALABEAR_POSEIDON2_RC_16_INTERNAL,
    KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL, KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL,
    KOALABEAR_POSEIDON2_RC_24_INTERNAL,
};
use p3_poseidon2_air::{Poseidon2Air, RoundConstants, num_cols};

use crate::config::Val;

/// Half the number of full rounds (both widths).
pub const HALF_FULL: usize = 4;
/// Partial rounds of the width-16 permutation.
pub const PARTIAL_16: usize = 20;
/// Partial rounds of the width-24 permutation.
pub const PARTIAL_24: usize = 23;

/// Constraints of the width-16 permutation (sub-key hash).
pub type Air16 = Poseidon2Air<Val, Linear, 16, 3, 0, HALF_FULL, PARTIAL_16>;
/// Constraints of the width-24 permutation (public-key sponge, group tree).
pub type Air24 = Poseidon2Air<Val, Linear, 24, 3, 0, HALF_FULL, PARTIAL_24>;
/// Committed columns of one width-16 permutation.
pub const COLS16: usize = num_cols::<16, 3, 0, HALF_FULL, PARTIAL_16>();
/// Committed columns of one width-24 permutation.
pub const COLS24: usize = num_cols::<24, 3, 0, HALF_FULL, PARTIAL_24>();

/// Column (relative to the permutation's first column) of input lane `j`:
/// `Poseidon2Cols` starts with the inputs.
pub const fn input_col(j: usize) -> usize {
    j
}

/// Column (relative to the permutation's first column) of output lane `j`
/// of a width-`w` permutation: the last full round's `post` state closes
/// `Poseidon2Cols`.
pub const fn output_col(cols: usize, w: usize, j: usize) -> usize {
    cols - w + j
}

/// Round constants of the default width-16 permutation.
pub fn constants16() -> &'static RoundConstants<Val, 16, HALF_FULL, PARTIAL_16> {
    static C: OnceLock<RoundConstants<Val, 16, HALF_FULL, PARTIAL_16>> = OnceLock::new();
    C.get_or_init(|| {
        RoundConstants::new(
            KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
            KOALABEAR_POSEIDON2_RC_16_INTERNAL,
            KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
        )
    })
}

/// Round constants of the default width-24 permutation.
pub fn constants24() -> &'static RoundConstants<Val, 24, HALF_FULL, PARTIAL_24> {
    static C: OnceLock<RoundConstants<Val, 24, HALF_FULL, PARTIAL_24>> = OnceLock::new();
    C.get_or_init(|| {
        RoundConstants::new(
            KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL,
            KOALABEAR_POSEIDON2_RC_24_INTERNAL,
            KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
        )
    })
}

/// The width-16 permutation AIR.
pub fn air16() -> Air16 {
    Air16::new(constants16().clone())
}

/// The width-24 permutation AIR.
pub fn air24() -> Air24 {
    Air24::new(constants24().clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::PrimeCharacteristicRing;
    use p3_field::PackedValue;
    use p3_symmetric::Permutation;
    use sigagg_lamport::field::PackedF;
    use sigagg_lamport::poseidon::{perm16, perm24};
    use sigagg_stark::poseidon::write_packed;

    /// The packed writer with these constants computes the same permutations
    /// as the native scheme, and the output columns are where `output_col` says.
    #[test]
    fn packed_writer_matches_the_native_permutations() {
        let lanes = PackedF::WIDTH;
        let inputs16: Vec<[Val; 16]> =
            (0..lanes).map(|l| core::array::from_fn(|i| Val::from_u32((l * 100 + i * 7) as u32))).collect();
        let mut buf = vec![Val::ZERO; lanes * COLS16];
        let mut rows: Vec<&mut [Val]> = buf.chunks_mut(COLS16).collect();
        let out = write_packed(&mut rows, &inputs16, constants16());
        for (l, o) in out.iter().enumerate() {
            assert_eq!(*o, perm16().permute(inputs16[l]));
            let row = &buf[l * COLS16..(l + 1) * COLS16];
            assert_eq!(row[input_col(3)], inputs16[l][3]);
            assert_eq!(row[output_col(COLS16, 16, 5)], o[5]);
        }
        let inputs24: Vec<[Val; 24]> =
            (0..lanes).map(|l| core::array::from_fn(|i| Val::from_u32((l * 13 + i * 3 + 1) as u32))).collect();
        let mut buf = vec![Val::ZERO; lanes * COLS24];
        let mut rows: Vec<&mut [Val]> = buf.chunks_mut(COLS24).collect();
        let out = write_packed(&mut rows, &inputs24, constants24());
        for (l, o) in out.iter().enumerate() {
            assert_eq!(*o, perm24().permute(inputs24[l]));
            assert_eq!(buf[l * COLS24 + output_col(COLS24, 24, 23)], o[23]);
        }
    }
}
