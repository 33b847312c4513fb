//! Plonky3's default Poseidon1 on KoalaBear, widths 16 and 24: the
//! permutations of leanSig's parameter sets.

use std::sync::OnceLock;

use p3_koala_bear::{Poseidon1KoalaBear, default_koalabear_poseidon1_16, default_koalabear_poseidon1_24};

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
