//! Poseidon2 on KoalaBear, widths 16 and 24, with two sets of round
//! constants, as permutations (to hash) and as the round constants of
//! Plonky3's `Poseidon2Air` format (for the circuits to prove the same
//! permutations).
//!
//! * **Plonky3's defaults** (`default_koalabear_poseidon2_16/24`): Lamport+.
//! * **hash-sig's order** of the same constants: XMSS `Seed001`. hash-sig
//!   was built against a Plonky3 revision that assigned the Poseidon2
//!   round-constant stream in the order *initial, terminal, internal*;
//!   current Plonky3 uses *initial, internal, terminal* for the same Grain
//!   LFSR stream. We rebuild the hash-sig permutation from today's
//!   constants by re-slicing that stream ([`hashsig_constants16`]), so
//!   signatures stay byte-compatible with hash-sig's.
//!
//! Both sets share the round counts of every KoalaBear Poseidon2 of these
//! widths: 8 full rounds, and 20 (width 16) or 23 (width 24) partial
//! rounds, with the degree-3 S-box.

use std::sync::OnceLock;

use p3_koala_bear::{
    KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL, KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
    KOALABEAR_POSEIDON2_RC_16_INTERNAL, KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
    KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL, KOALABEAR_POSEIDON2_RC_24_INTERNAL, Poseidon2KoalaBear,
    default_koalabear_poseidon2_16, default_koalabear_poseidon2_24,
};
use p3_poseidon2::{ExternalLayerConstants, Poseidon2};
use p3_poseidon2_air::RoundConstants;

use crate::field::F;

/// Half the number of full rounds.
pub const HALF_FULL: usize = 4;
/// Partial rounds of the width-16 permutation.
pub const PARTIAL_16: usize = 20;
/// Partial rounds of the width-24 permutation.
pub const PARTIAL_24: usize = 23;

/// Round constants of a width-16 permutation, in the AIR's format.
pub type Constants16 = RoundConstants<F, 16, HALF_FULL, PARTIAL_16>;
/// Round constants of a width-24 permutation, in the AIR's format.
pub type Constants24 = RoundConstants<F, 24, HALF_FULL, PARTIAL_24>;

/// Plonky3's default width-16 Poseidon2, built once.
pub fn default16() -> &'static Poseidon2KoalaBear<16> {
    static PERM: OnceLock<Poseidon2KoalaBear<16>> = OnceLock::new();
    PERM.get_or_init(default_koalabear_poseidon2_16)
}

/// Plonky3's default width-24 Poseidon2, built once.
pub fn default24() -> &'static Poseidon2KoalaBear<24> {
    static PERM: OnceLock<Poseidon2KoalaBear<24>> = OnceLock::new();
    PERM.get_or_init(default_koalabear_poseidon2_24)
}

/// Round constants of [`default16`] (Plonky3's published
/// `KOALABEAR_POSEIDON2_RC_16_*`).
pub fn default_constants16() -> &'static Constants16 {
    static C: OnceLock<Constants16> = OnceLock::new();
    C.get_or_init(|| {
        RoundConstants::new(
            KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
            KOALABEAR_POSEIDON2_RC_16_INTERNAL,
            KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
        )
    })
}

/// Round constants of [`default24`] (Plonky3's published
/// `KOALABEAR_POSEIDON2_RC_24_*`).
pub fn default_constants24() -> &'static Constants24 {
    static C: OnceLock<Constants24> = OnceLock::new();
    C.get_or_init(|| {
        RoundConstants::new(
            KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL,
            KOALABEAR_POSEIDON2_RC_24_INTERNAL,
            KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
        )
    })
}

/// Re-slices the Grain stream (initial ++ internal ++ terminal, as current
/// Plonky3 stores it) the way hash-sig's Plonky3 revision read it:
/// initial ++ terminal ++ internal.
fn hashsig_order<const W: usize, const P: usize>(
    initial: &[[F; W]; HALF_FULL],
    internal: &[F; P],
    terminal: &[[F; W]; HALF_FULL],
) -> RoundConstants<F, W, HALF_FULL, P> {
    let stream: Vec<F> = initial.iter().flatten().chain(internal).chain(terminal.iter().flatten()).copied().collect();
    let full = HALF_FULL * W;
    let row = |at: usize| -> [F; W] { stream[at..at + W].try_into().expect("one round's constants") };
    RoundConstants::new(
        core::array::from_fn(|r| row(r * W)),
        stream[2 * full..].try_into().expect("partial round count"),
        core::array::from_fn(|r| row(full + r * W)),
    )
}

/// Round constants of hash-sig's width-16 Poseidon2 (the chain hash of `Seed001`).
pub fn hashsig_constants16() -> &'static Constants16 {
    static C: OnceLock<Constants16> = OnceLock::new();
    C.get_or_init(|| {
        hashsig_order(
            &KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
            &KOALABEAR_POSEIDON2_RC_16_INTERNAL,
            &KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
        )
    })
}

/// Round constants of hash-sig's width-24 Poseidon2 (tree, leaf and message
/// hash of `Seed001`).
pub fn hashsig_constants24() -> &'static Constants24 {
    static C: OnceLock<Constants24> = OnceLock::new();
    C.get_or_init(|| {
        hashsig_order(
            &KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL,
            &KOALABEAR_POSEIDON2_RC_24_INTERNAL,
            &KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
        )
    })
}

/// The external (full-round) and internal (partial-round) constants of a
/// Plonky3 `Poseidon2`, from the AIR's format.
fn layers<const W: usize, const P: usize>(
    c: &RoundConstants<F, W, HALF_FULL, P>,
) -> (ExternalLayerConstants<F, W>, Vec<F>) {
    let external = ExternalLayerConstants::new(
        c.beginning_full_round_constants().to_vec(),
        c.ending_full_round_constants().to_vec(),
    );
    (external, c.partial_round_constants().to_vec())
}

/// hash-sig's width-16 Poseidon2 permutation, built once.
pub fn hashsig16() -> &'static Poseidon2KoalaBear<16> {
    static PERM: OnceLock<Poseidon2KoalaBear<16>> = OnceLock::new();
    PERM.get_or_init(|| {
        let (external, internal) = layers(hashsig_constants16());
        Poseidon2::new(external, internal)
    })
}

/// hash-sig's width-24 Poseidon2 permutation, built once.
pub fn hashsig24() -> &'static Poseidon2KoalaBear<24> {
    static PERM: OnceLock<Poseidon2KoalaBear<24>> = OnceLock::new();
    PERM.get_or_init(|| {
        let (external, internal) = layers(hashsig_constants24());
        Poseidon2::new(external, internal)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::PrimeCharacteristicRing;
    use p3_symmetric::Permutation;

    #[test]
    fn hashsig_constants_are_a_reslicing() {
        let c = hashsig_constants16();
        // The initial rounds agree with today's Plonky3 ordering.
        assert_eq!(c.beginning_full_round_constants()[0], KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL[0]);
        // The terminal rounds start with today's internal constants.
        assert_eq!(c.ending_full_round_constants()[0][..16], KOALABEAR_POSEIDON2_RC_16_INTERNAL[..16]);
        // The internal constants are the tail of today's terminal rounds.
        assert_eq!(c.partial_round_constants()[4..], KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL[3][..]);
    }

    /// The AIR-format constants of the default set describe Plonky3's own
    /// default permutations (the way the hash-sig permutations are built
    /// from theirs), and the two sets differ.
    #[test]
    fn default_constants_describe_the_default_permutations() {
        let x16: [F; 16] = core::array::from_fn(|i| F::from_u32(3 * i as u32 + 1));
        let (external, internal) = layers(default_constants16());
        let rebuilt: Poseidon2KoalaBear<16> = Poseidon2::new(external, internal);
        assert_eq!(rebuilt.permute(x16), default16().permute(x16));
        assert_ne!(hashsig16().permute(x16), default16().permute(x16));

        let x24: [F; 24] = core::array::from_fn(|i| F::from_u32(7 * i as u32 + 2));
        let (external, internal) = layers(default_constants24());
        let rebuilt: Poseidon2KoalaBear<24> = Poseidon2::new(external, internal);
        assert_eq!(rebuilt.permute(x24), default24().permute(x24));
        assert_ne!(hashsig24().permute(x24), default24().permute(x24));
    }
}
