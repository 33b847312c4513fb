//! The modes the schemes' hashes build from a permutation: compression
//! (permute, feed forward, truncate) and two sponge variants.
//!
//! Generic over the ring so that the same code hashes one input (`F`) or one
//! input per SIMD lane (`PackedF`), and over the permutation so that every
//! Poseidon instance of [`crate::poseidon1`] and [`crate::poseidon2`] fits.

use p3_field::PrimeCharacteristicRing;
use p3_symmetric::Permutation;

/// Compression mode: `Perm(x) + x`, whole width. Callers keep the prefix
/// they need (the truncation of `Truncate(Perm(x) + x)`). The feed-forward
/// makes the map non-invertible, which one-way chain steps, sub-key hashes
/// and tree nodes need.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::F;
    use crate::poseidon2;

    #[test]
    fn compress_feeds_forward() {
        let x: [F; 16] = core::array::from_fn(|i| F::from_u32(i as u32));
        let y = poseidon2::default16().permute(x);
        assert_eq!(compress(poseidon2::default16(), &x), core::array::from_fn(|i| y[i] + x[i]));
    }

    #[test]
    fn sponge_modes_differ() {
        let perm = poseidon2::hashsig24();
        let cap = [F::ONE; 9];
        let input: Vec<F> = (0..40).map(F::from_u32).collect();
        let (mut a, mut b) = ([F::ZERO; 7], [F::ZERO; 7]);
        sponge::<_, _, 24>(perm, SpongeMode::AdditiveCapacityLast, &cap, &input, &mut a);
        sponge::<_, _, 24>(perm, SpongeMode::ReplaceCapacityFirst, &cap, &input, &mut b);
        assert_ne!(a, b);
    }
}
