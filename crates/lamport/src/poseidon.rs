//! The two permutations (Plonky3's default KoalaBear Poseidon2 of width 16
//! and 24, never hand-written) and the compression mode built on them.

use std::sync::OnceLock;

use p3_field::PrimeCharacteristicRing;
use p3_koala_bear::{Poseidon2KoalaBear, default_koalabear_poseidon2_16, default_koalabear_poseidon2_24};
use p3_symmetric::Permutation;

/// Plonky3's default width-16 Poseidon2 on KoalaBear, built once.
pub fn perm16() -> &'static Poseidon2KoalaBear<16> {
    static PERM: OnceLock<Poseidon2KoalaBear<16>> = OnceLock::new();
    PERM.get_or_init(default_koalabear_poseidon2_16)
}

/// Plonky3's default width-24 Poseidon2 on KoalaBear, built once.
pub fn perm24() -> &'static Poseidon2KoalaBear<24> {
    static PERM: OnceLock<Poseidon2KoalaBear<24>> = OnceLock::new();
    PERM.get_or_init(default_koalabear_poseidon2_24)
}

/// Compression mode: `Perm(x) + x`, whole width; callers keep the first
/// eight elements (the truncation). The feed-forward makes the map
/// non-invertible, which the sub-key hash and the tree nodes need.
///
/// Generic over the ring so that the same code hashes one input (`F`) or one
/// input per SIMD lane (`PackedF`).
#[inline]
pub fn compress<R, Pm, const W: usize>(perm: &Pm, input: &[R; W]) -> [R; W]
where
    R: PrimeCharacteristicRing + Copy,
    Pm: Permutation<[R; W]>,
{
    let mut state = *input;
    perm.permute_mut(&mut state);
    core::array::from_fn(|i| state[i] + input[i])
}
