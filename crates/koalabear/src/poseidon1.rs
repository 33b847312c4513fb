//! Plonky3's default Poseidon1 on KoalaBear, widths 16 and 24: the
//! permutations of leanSig's parameter sets, and their raw constants (for
//! the circuits to prove the same permutations).
//!
//! The round counts are those of KoalaBear Poseidon2 of the same widths
//! (`crate::poseidon2::{HALF_FULL, PARTIAL_16, PARTIAL_24}`): 4 + 4 full
//! rounds, 20 or 23 partial ones, the degree-3 S-box.

use std::sync::OnceLock;

use p3_koala_bear::{
    KOALABEAR_POSEIDON_HALF_FULL_ROUNDS, KOALABEAR_POSEIDON_PARTIAL_ROUNDS_16, KOALABEAR_POSEIDON_PARTIAL_ROUNDS_24,
    KOALABEAR_POSEIDON1_RC_16, KOALABEAR_POSEIDON1_RC_24, MDSKoalaBearData, Poseidon1KoalaBear,
    default_koalabear_poseidon1_16, default_koalabear_poseidon1_24,
};
use p3_monty_31::MDSUtils;
use p3_poseidon1::Poseidon1Constants;

use crate::field::F;

/// Plonky3's default width-16 Poseidon1 (leanSig's chain hash), built once.
pub fn default16() -> &'static Poseidon1KoalaBear<16> {
    static PERM: OnceLock<Poseidon1KoalaBear<16>> = OnceLock::new();
    PERM.get_or_init(default_koalabear_poseidon1_16)
}

/// Plonky3's default width-24 Poseidon1 (leanSig's tree, leaf and message hash), built once.
pub fn default24() -> &'static Poseidon1KoalaBear<24> {
    static PERM: OnceLock<Poseidon1KoalaBear<24>> = OnceLock::new();
    PERM.get_or_init(default_koalabear_poseidon1_24)
}

/// The raw constants [`default16`] is built from (Plonky3's published
/// `KOALABEAR_POSEIDON1_RC_16` and circulant MDS column), from which an
/// AIR derives its sparse partial rounds (`Poseidon1Constants::to_optimized`).
pub fn default_constants16() -> &'static Poseidon1Constants<F, 16> {
    static C: OnceLock<Poseidon1Constants<F, 16>> = OnceLock::new();
    C.get_or_init(|| Poseidon1Constants {
        rounds_f: 2 * KOALABEAR_POSEIDON_HALF_FULL_ROUNDS,
        rounds_p: KOALABEAR_POSEIDON_PARTIAL_ROUNDS_16,
        mds_circ_col: MDSKoalaBearData::MATRIX_CIRC_MDS_16_COL,
        round_constants: KOALABEAR_POSEIDON1_RC_16.to_vec(),
    })
}

/// The raw constants [`default24`] is built from (see [`default_constants16`]).
pub fn default_constants24() -> &'static Poseidon1Constants<F, 24> {
    static C: OnceLock<Poseidon1Constants<F, 24>> = OnceLock::new();
    C.get_or_init(|| Poseidon1Constants {
        rounds_f: 2 * KOALABEAR_POSEIDON_HALF_FULL_ROUNDS,
        rounds_p: KOALABEAR_POSEIDON_PARTIAL_ROUNDS_24,
        mds_circ_col: MDSKoalaBearData::MATRIX_CIRC_MDS_24_COL,
        round_constants: KOALABEAR_POSEIDON1_RC_24.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_poseidon1::Poseidon1;
    use p3_symmetric::Permutation;

    /// The raw constants build the same permutations as Plonky3's defaults.
    #[test]
    fn constants_build_the_default_permutations() {
        let p16: Poseidon1KoalaBear<16> = Poseidon1::new(default_constants16());
        let p24: Poseidon1KoalaBear<24> = Poseidon1::new(default_constants24());
        let x16: [F; 16] = core::array::from_fn(|i| F::new(i as u32 * 11 + 3));
        let x24: [F; 24] = core::array::from_fn(|i| F::new(i as u32 * 13 + 5));
        assert_eq!(p16.permute(x16), default16().permute(x16));
        assert_eq!(p24.permute(x24), default24().permute(x24));
        assert_eq!(default_constants16().rounds_p, crate::poseidon2::PARTIAL_16);
        assert_eq!(default_constants24().rounds_p, crate::poseidon2::PARTIAL_24);
    }
}
