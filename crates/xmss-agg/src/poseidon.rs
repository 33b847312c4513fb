//! The Poseidon2 permutations of Seed001: round constants in the AIR's
//! format, for the shared round counts and packed witness generator in
//! Plonky3's `Poseidon2Air` layout (`sigagg_prover::poseidon`, re-exported
//! here).
//!
//! The round constants are hash-sig's (see `sigagg_xmss::poseidon`), so the
//! circuit proves exactly the permutation that native verification runs;
//! the constraints are `sigagg_prover::paired::Poseidon2Block`'s, which
//! keeps the states of either every full round or every second one.

use std::sync::OnceLock;

use p3_poseidon2_air::RoundConstants;
use sigagg_xmss::poseidon::{Poseidon2Constants, hashsig_poseidon2_16_constants, hashsig_poseidon2_24_constants};

use crate::config::Val;

pub use sigagg_prover::poseidon::{COLS16, COLS24, HALF_FULL, PARTIAL_16, PARTIAL_24, write_packed};

fn round_constants<const W: usize, const P: usize>(c: Poseidon2Constants<W>) -> RoundConstants<Val, W, HALF_FULL, P> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::{PackedValue, PrimeCharacteristicRing};
    use p3_symmetric::Permutation;
    use sigagg_xmss::field::PackedF;
    use sigagg_xmss::poseidon::{hashsig_poseidon2_16, hashsig_poseidon2_24};

    #[test]
    fn packed_writer_matches_native_permutations() {
        let lanes = PackedF::WIDTH;
        let inputs16: Vec<[Val; 16]> =
            (0..lanes).map(|l| core::array::from_fn(|i| Val::from_u32((l * 100 + i) as u32))).collect();
        let mut buf = vec![Val::ZERO; lanes * (COLS16 + 3)];
        let mut rows: Vec<&mut [Val]> = buf.chunks_mut(COLS16 + 3).collect();
        let out = write_packed(&mut rows, &inputs16, constants16());
        for (l, o) in out.iter().enumerate() {
            assert_eq!(*o, hashsig_poseidon2_16().permute(inputs16[l]));
        }
        let inputs24: Vec<[Val; 24]> =
            (0..lanes).map(|l| core::array::from_fn(|i| Val::from_u32((l * 7 + i * 3) as u32))).collect();
        let mut buf = vec![Val::ZERO; lanes * COLS24];
        let mut rows: Vec<&mut [Val]> = buf.chunks_mut(COLS24).collect();
        let out = write_packed(&mut rows, &inputs24, constants24());
        for (l, o) in out.iter().enumerate() {
            assert_eq!(*o, hashsig_poseidon2_24().permute(inputs24[l]));
        }
    }
}
