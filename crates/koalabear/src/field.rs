//! The KoalaBear field, fixed-length arrays of its elements, and the integer
//! encodings (base-p digits, canonical little-endian bytes) that every scheme
//! and aggregator shares.
//!
//! A field element has exactly one byte encoding, its canonical value as a
//! little-endian `u32`: decoding rejects values not below `p` instead of
//! reducing them, so that keys, signatures and proofs have one encoding each.

use core::fmt::Debug;
use core::hash::Hash;

use p3_field::{Field, PrimeCharacteristicRing, PrimeField32};
use p3_koala_bear::KoalaBear;

/// The base field: KoalaBear, p = 2^31 - 2^24 + 1.
pub type F = KoalaBear;

/// The widest SIMD vector of field elements this machine supports (16 lanes
/// with AVX-512): hashes are computed that many at a time.
pub type PackedF = <F as Field>::Packing;

/// The field modulus.
pub const P: u32 = 0x7f00_0001;

/// Bytes of one field element on the wire (canonical `u32`, little-endian).
pub const FE_BYTES: usize = 4;

/// A fixed-length array of field elements: a digest, a hash parameter or
/// encoding randomness. Implemented for every `[F; N]`, so that parameter
/// sets can pick their lengths while generic code works on slices.
pub trait FeArray: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// Number of field elements.
    const LEN: usize;

    /// The elements as a slice.
    fn as_slice(&self) -> &[F];

    /// Builds an array element by element.
    fn generate(f: impl FnMut(usize) -> F) -> Self;

    /// Copies the first `LEN` elements of `src`; `None` if it is shorter.
    fn from_slice(src: &[F]) -> Option<Self> {
        (src.len() >= Self::LEN).then(|| Self::generate(|i| src[i]))
    }

    /// Decodes exactly [`Self::BYTES`] bytes of canonical elements
    /// ([`fes_from_le_bytes`]); on failure returns the byte offset of the
    /// first non-canonical element.
    ///
    /// # Panics
    /// If `bytes` is not [`Self::BYTES`] long.
    fn from_le_bytes(bytes: &[u8]) -> Result<Self, usize>;

    /// Bytes of the canonical encoding.
    const BYTES: usize = Self::LEN * FE_BYTES;
}

impl<const N: usize> FeArray for [F; N] {
    const LEN: usize = N;

    fn as_slice(&self) -> &[F] {
        self
    }

    fn generate(f: impl FnMut(usize) -> F) -> Self {
        core::array::from_fn(f)
    }

    fn from_le_bytes(bytes: &[u8]) -> Result<Self, usize> {
        fes_from_le_bytes(bytes)
    }
}

/// Writes the base-`p` digits of `value`, least significant first.
///
/// Used for tweaks and domain separators: an integer of up to 128 bits is
/// spread over `N` field elements. The caller guarantees `value < p^N`
/// (checked in debug builds) so that the encoding is injective.
pub fn base_p_digits<const N: usize>(value: u128) -> [F; N] {
    // Tweaks fit in 64 bits: use native 64-bit division (128-bit division is
    // a slow library call, and tweaks are computed for every chain step).
    if let Ok(mut v) = u64::try_from(value) {
        let p = u64::from(P);
        return core::array::from_fn(|_| {
            let digit = v % p;
            v /= p;
            F::from_u64(digit)
        });
    }
    let mut value = value;
    let digits = core::array::from_fn(|_| {
        let digit = (value % u128::from(P)) as u64;
        value /= u128::from(P);
        F::from_u64(digit)
    });
    debug_assert_eq!(value, 0, "value does not fit in {N} base-p digits");
    digits
}

/// Decodes one canonical little-endian field element; `None` if the value is
/// not below `p` (non-canonical encodings are rejected, never reduced, so
/// that every value has exactly one encoding).
pub fn fe_from_le_bytes(bytes: [u8; FE_BYTES]) -> Option<F> {
    let v = u32::from_le_bytes(bytes);
    (v < P).then(|| F::from_u32(v))
}

/// Appends the canonical little-endian encoding of each element.
pub fn put_fes(out: &mut Vec<u8>, fes: &[F]) {
    for fe in fes {
        out.extend_from_slice(&fe.as_canonical_u32().to_le_bytes());
    }
}

/// The canonical encoding of `N` elements as a fixed array of `B` bytes (a
/// digest's encoding).
///
/// # Panics
/// If `B != N * FE_BYTES` (a mistake in the caller's constants).
pub fn fes_to_le_bytes<const N: usize, const B: usize>(fes: &[F; N]) -> [u8; B] {
    assert_eq!(B, N * FE_BYTES, "{N} elements take {} bytes", N * FE_BYTES);
    let mut out = [0u8; B];
    for (chunk, fe) in out.chunks_exact_mut(FE_BYTES).zip(fes) {
        chunk.copy_from_slice(&fe.as_canonical_u32().to_le_bytes());
    }
    out
}

/// Decodes `N` canonical elements from exactly `N * FE_BYTES` bytes; on
/// failure returns the byte offset (within `bytes`) of the first
/// non-canonical element.
///
/// # Panics
/// If `bytes` is not `N * FE_BYTES` long (callers check lengths first and
/// report them in their own errors).
pub fn fes_from_le_bytes<const N: usize>(bytes: &[u8]) -> Result<[F; N], usize> {
    assert_eq!(bytes.len(), N * FE_BYTES, "{N} elements take {} bytes", N * FE_BYTES);
    let mut out = [F::ZERO; N];
    for (i, (fe, chunk)) in out.iter_mut().zip(bytes.chunks_exact(FE_BYTES)).enumerate() {
        *fe = fe_from_le_bytes(chunk.try_into().expect("4-byte chunk")).ok_or(i * FE_BYTES)?;
    }
    Ok(out)
}

/// Little-endian `u32` limbs of a non-negative integer: just enough
/// arithmetic for the message encodings (multiply-add and division by a
/// small number), so no big-integer dependency is needed.
#[derive(Clone, Debug, Default)]
struct Limbs(Vec<u32>);

impl Limbs {
    fn from_le_bytes(bytes: &[u8]) -> Self {
        Self(bytes.chunks(4).map(|c| c.iter().rev().fold(0u32, |acc, &b| (acc << 8) | u32::from(b))).collect())
    }

    /// `self = self * m + a`.
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let t = u64::from(*limb) * u64::from(m) + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// `self = self / d`, returning the remainder.
    fn div_rem(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.0.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / u64::from(d)) as u32;
            rem = cur % u64::from(d);
        }
        rem as u32
    }
}

/// A byte string read as a little-endian integer, written as `N` base-`p`
/// digits (least significant first). `N` digits must suffice: 9 digits hold
/// any 32-byte message.
pub fn bytes_to_base_p<const N: usize>(bytes: &[u8]) -> [F; N] {
    let mut n = Limbs::from_le_bytes(bytes);
    let digits = core::array::from_fn(|_| F::from_u32(n.div_rem(P)));
    debug_assert!(n.0.iter().all(|&l| l == 0), "{N} base-p digits are not enough");
    digits
}

/// Field elements read as one base-`p` integer, most significant first, and
/// written as `count` base-`base` digits, least significant first (the
/// high digits beyond `count` are dropped).
pub fn base_p_to_digits(fes: &[F], base: u32, count: usize) -> Vec<u8> {
    let mut n = Limbs::default();
    for fe in fes {
        n.mul_add(P, fe.as_canonical_u32());
    }
    (0..count).map(|_| n.div_rem(base) as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::PrimeField64;

    #[test]
    fn base_p_digits_round_trip() {
        let v: u128 = (123_456_789u128 << 40) | 0xab;
        let d: [F; 3] = base_p_digits(v);
        let back = d.iter().rev().fold(0u128, |acc, x| acc * u128::from(P) + u128::from(x.as_canonical_u32()));
        assert_eq!(back, v);
    }

    #[test]
    fn non_canonical_bytes_rejected() {
        assert!(fe_from_le_bytes(P.to_le_bytes()).is_none());
        assert!(fe_from_le_bytes(u32::MAX.to_le_bytes()).is_none());
        assert_eq!(fe_from_le_bytes((P - 1).to_le_bytes()), Some(F::NEG_ONE));
        assert_eq!(fe_from_le_bytes([0; 4]), Some(F::ZERO));
    }

    #[test]
    fn fixed_arrays_round_trip_and_offset_of_bad_element() {
        let d: [F; 8] = core::array::from_fn(|i| F::from_u32(1 + 1000 * i as u32));
        let bytes: [u8; 32] = fes_to_le_bytes(&d);
        let mut appended = Vec::new();
        put_fes(&mut appended, &d);
        assert_eq!(appended, bytes);
        assert_eq!(fes_from_le_bytes::<8>(&bytes), Ok(d));
        assert_eq!(<[F; 8] as FeArray>::from_le_bytes(&bytes), Ok(d));
        let mut bad = bytes;
        bad[12..16].copy_from_slice(&P.to_le_bytes());
        assert_eq!(fes_from_le_bytes::<8>(&bad), Err(12));
    }

    #[test]
    fn message_encoding_round_trip() {
        let bytes: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(1));
        let d: [F; 9] = bytes_to_base_p(&bytes);
        // Reassemble with the most significant digit first and compare.
        let rev: Vec<F> = d.iter().rev().copied().collect();
        let as_256 = base_p_to_digits(&rev, 256, 32);
        assert_eq!(as_256, bytes.to_vec());
    }

    #[test]
    fn modulus_matches_field() {
        assert_eq!(u64::from(P), F::ORDER_U64);
    }
}
