//! The Poseidon permutations used by the parameter sets, and the three modes
//! the tweakable hashes build from them: compression (permute, feed forward,
//! truncate) and two sponge variants.
//!
//! The permutations come from Plonky3 (`p3-koala-bear`), never hand-written.
//! One subtlety: hash-sig (and so [`Seed001`](crate::Seed001)) was built
//! against a Plonky3 revision that assigned the Poseidon2 round-constant
//! stream in the order *initial, terminal, internal*; current Plonky3 uses
//! *initial, internal, terminal* for the same Grain LFSR stream. We rebuild the
//! hash-sig permutation from today's constants by re-slicing that stream, so
//! signatures stay byte-compatible with hash-sig's.

use std::sync::OnceLock;

use p3_field::PrimeCharacteristicRing;
use p3_koala_bear::{
    KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL, KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
    KOALABEAR_POSEIDON2_RC_16_INTERNAL, KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
    KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL, KOALABEAR_POSEIDON2_RC_24_INTERNAL, Poseidon1KoalaBear,
    Poseidon2KoalaBear, default_koalabear_poseidon1_16, default_koalabear_poseidon1_24,
};
use p3_poseidon2::{ExternalLayerConstants, Poseidon2};
use p3_symmetric::Permutation;

use crate::field::{F, base_p_digits};

/// Round constants of a Poseidon2 permutation, in the order they are applied.
#[derive(Clone, Debug)]
pub struct Poseidon2Constants<const W: usize> {
    /// Constants of the first half of the full rounds.
    pub initial: Vec<[F; W]>,
    /// One constant per partial round.
    pub internal: Vec<F>,
    /// Constants of the second half of the full rounds.
    pub terminal: Vec<[F; W]>,
}

impl<const W: usize> Poseidon2Constants<W> {
    /// Re-slices the Grain stream (initial ++ internal ++ terminal, as current
    /// Plonky3 stores it) the way hash-sig's Plonky3 revision read it.
    fn hashsig_order(initial: &[[F; W]], internal: &[F], terminal: &[[F; W]]) -> Self {
        let stream: Vec<F> =
            initial.iter().flatten().chain(internal).chain(terminal.iter().flatten()).copied().collect();
        let full = initial.len() * W;
        let rows = |s: &[F]| s.chunks_exact(W).map(|c| c.try_into().unwrap()).collect();
        Self {
            initial: rows(&stream[..full]),
            terminal: rows(&stream[full..2 * full]),
            internal: stream[2 * full..].to_vec(),
        }
    }
}

/// Round constants of hash-sig's width-16 Poseidon2 (the chain hash of `Seed001`).
pub fn hashsig_poseidon2_16_constants() -> Poseidon2Constants<16> {
    Poseidon2Constants::hashsig_order(
        &KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
        &KOALABEAR_POSEIDON2_RC_16_INTERNAL,
        &KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
    )
}

/// Round constants of hash-sig's width-24 Poseidon2 (tree, leaf and message hash of `Seed001`).
pub fn hashsig_poseidon2_24_constants() -> Poseidon2Constants<24> {
    Poseidon2Constants::hashsig_order(
        &KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL,
        &KOALABEAR_POSEIDON2_RC_24_INTERNAL,
        &KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
    )
}

/// hash-sig's width-16 Poseidon2 permutation, built once.
pub fn hashsig_poseidon2_16() -> &'static Poseidon2KoalaBear<16> {
    static PERM: OnceLock<Poseidon2KoalaBear<16>> = OnceLock::new();
    PERM.get_or_init(|| {
        let c = hashsig_poseidon2_16_constants();
        Poseidon2::new(ExternalLayerConstants::new(c.initial, c.terminal), c.internal)
    })
}

/// hash-sig's width-24 Poseidon2 permutation, built once.
pub fn hashsig_poseidon2_24() -> &'static Poseidon2KoalaBear<24> {
    static PERM: OnceLock<Poseidon2KoalaBear<24>> = OnceLock::new();
    PERM.get_or_init(|| {
        let c = hashsig_poseidon2_24_constants();
        Poseidon2::new(ExternalLayerConstants::new(c.initial, c.terminal), c.internal)
    })
}

/// Plonky3's default width-16 Poseidon1 (leanSig's chain hash), built once.
pub fn poseidon1_16() -> &'static Poseidon1KoalaBear<16> {
    static PERM: OnceLock<Poseidon1KoalaBear<16>> = OnceLock::new();
    PERM.get_or_init(default_koalabear_poseidon1_16)
}

/// Plonky3's default width-24 Poseidon1 (leanSig's tree, leaf and message hash), built once.
pub fn poseidon1_24() -> &'static Poseidon1KoalaBear<24> {
    static PERM: OnceLock<Poseidon1KoalaBear<24>> = OnceLock::new();
    PERM.get_or_init(default_koalabear_poseidon1_24)
}

/// Compression mode: `Perm(x) + x`. Callers keep the prefix they need
/// (the truncation of `Truncate(Perm(x) + x)`).
///
/// Generic over the ring so the same code hashes one input (`F`) or one
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

/// Where a sponge keeps its capacity and how it absorbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpongeMode {
    /// hash-sig: capacity in the last lanes, input chunks are *added* to the
    /// first `rate` lanes, output read from the first lanes.
    AdditiveCapacityLast,
    /// leanSig: capacity in the first lanes, input chunks *replace* the last
    /// `rate` lanes, output read from the rate part.
    ReplaceCapacityFirst,
}

/// A width-`W` sponge over `input`, zero-padded to a multiple of the rate,
/// with `capacity` as initial capacity value (a domain separator that encodes
/// the input lengths, which is what makes zero padding safe here). Fills `out`.
pub fn sponge<R, Pm, const W: usize>(perm: &Pm, mode: SpongeMode, capacity: &[R], input: &[R], out: &mut [R])
where
    R: PrimeCharacteristicRing + Copy,
    Pm: Permutation<[R; W]>,
{
    let cap = capacity.len();
    let rate = W - cap;
    let (rate_start, cap_start) = match mode {
        SpongeMode::AdditiveCapacityLast => (0, rate),
        SpongeMode::ReplaceCapacityFirst => (cap, 0),
    };
    let mut state = [R::ZERO; W];
    state[cap_start..cap_start + cap].copy_from_slice(capacity);
    for chunk in input.chunks(rate) {
        for (i, lane) in state[rate_start..rate_start + rate].iter_mut().enumerate() {
            let x = chunk.get(i).copied().unwrap_or(R::ZERO);
            match mode {
                SpongeMode::AdditiveCapacityLast => *lane += x,
                SpongeMode::ReplaceCapacityFirst => *lane = x,
            }
        }
        perm.permute_mut(&mut state);
    }
    let mut filled = 0;
    loop {
        let take = (out.len() - filled).min(rate);
        out[filled..filled + take].copy_from_slice(&state[rate_start..rate_start + take]);
        filled += take;
        if filled == out.len() {
            return;
        }
        perm.permute_mut(&mut state);
    }
}

/// The sponge's capacity value: a width-24 compression of the four lengths
/// `[parameter, tweak, number of chains, digest]` read as one 128-bit
/// big-endian integer written in base `p`.
pub fn domain_separator<Pm, const CAP: usize>(perm: &Pm, lengths: [u32; 4]) -> [F; CAP]
where
    Pm: Permutation<[F; 24]>,
{
    let acc = lengths.iter().fold(0u128, |acc, &l| (acc << 32) | u128::from(l));
    let input: [F; 24] = base_p_digits(acc);
    let out = compress(perm, &input);
    core::array::from_fn(|i| out[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashsig_constants_are_a_reslicing() {
        let c = hashsig_poseidon2_16_constants();
        assert_eq!(c.initial.len(), 4);
        assert_eq!(c.terminal.len(), 4);
        assert_eq!(c.internal.len(), 20);
        // The initial rounds agree with today's Plonky3 ordering.
        assert_eq!(c.initial[0], KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL[0]);
        // The terminal rounds start with today's internal constants.
        assert_eq!(c.terminal[0][..16], KOALABEAR_POSEIDON2_RC_16_INTERNAL[..16]);
        // The internal constants are the tail of today's terminal rounds.
        assert_eq!(c.internal[4..], KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL[3][..]);
    }

    #[test]
    fn sponge_modes_differ() {
        let perm = hashsig_poseidon2_24();
        let cap = [F::ONE; 9];
        let input: Vec<F> = (0..40).map(F::from_u32).collect();
        let (mut a, mut b) = ([F::ZERO; 7], [F::ZERO; 7]);
        sponge::<_, _, 24>(perm, SpongeMode::AdditiveCapacityLast, &cap, &input, &mut a);
        sponge::<_, _, 24>(perm, SpongeMode::ReplaceCapacityFirst, &cap, &input, &mut b);
        assert_ne!(a, b);
    }
}
