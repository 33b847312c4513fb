//! The KoalaBear field, the 8-element digest every hash of this crate
//! outputs, and the canonical byte encoding of field elements.

use p3_field::{Field, PrimeCharacteristicRing, PrimeField32};
use p3_koala_bear::KoalaBear;

/// The base field: KoalaBear, p = 2^31 - 2^24 + 1.
pub type F = KoalaBear;

/// The widest SIMD vector of field elements this machine supports (16 lanes
/// with AVX-512): sub-key hashes are computed that many at a time.
pub type PackedF = <F as Field>::Packing;

/// The field modulus.
pub const P: u32 = 0x7f00_0001;

/// Bytes of one field element on the wire: its canonical value as a
/// little-endian `u32`.
pub const FE_BYTES: usize = 4;

/// Field elements per digest. Eight elements carry 8 * log2(p) ≈ 247.9 bits,
/// so generic preimage search costs 2^248 classically and 2^124 with Grover.
pub const DIGEST_LEN: usize = 8;

/// Bytes of an encoded digest.
pub const DIGEST_BYTES: usize = DIGEST_LEN * FE_BYTES;

/// A hash output: sub-keys, sub-public-keys, public keys and group-tree nodes.
pub type Digest = [F; DIGEST_LEN];

/// The all-zero digest. It pads the group tree; no honest public key equals it.
pub const ZERO_DIGEST: Digest = [F::ZERO; DIGEST_LEN];

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

/// The canonical encoding of a digest (32 bytes).
pub fn digest_to_bytes(d: &Digest) -> [u8; DIGEST_BYTES] {
    let mut out = [0u8; DIGEST_BYTES];
    for (chunk, fe) in out.chunks_exact_mut(FE_BYTES).zip(d) {
        chunk.copy_from_slice(&fe.as_canonical_u32().to_le_bytes());
    }
    out
}

/// Decodes a canonical digest; on failure returns the byte offset of the
/// first non-canonical element.
pub fn digest_from_bytes(bytes: &[u8; DIGEST_BYTES]) -> Result<Digest, usize> {
    let mut out = ZERO_DIGEST;
    for (i, chunk) in bytes.chunks_exact(FE_BYTES).enumerate() {
        out[i] = fe_from_le_bytes(chunk.try_into().expect("4-byte chunk")).ok_or(i * FE_BYTES)?;
    }
    Ok(out)
}

/// A field element from a small integer that is known to be below `p`
/// (indices, lengths and tags of this crate).
pub(crate) fn small(v: usize) -> F {
    debug_assert!(v < P as usize);
    F::from_u32(v as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::PrimeField64;

    #[test]
    fn modulus_matches_field() {
        assert_eq!(u64::from(P), F::ORDER_U64);
    }

    #[test]
    fn non_canonical_bytes_rejected() {
        assert!(fe_from_le_bytes(P.to_le_bytes()).is_none());
        assert!(fe_from_le_bytes(u32::MAX.to_le_bytes()).is_none());
        assert_eq!(fe_from_le_bytes((P - 1).to_le_bytes()), Some(F::NEG_ONE));
        assert_eq!(fe_from_le_bytes([0; 4]), Some(F::ZERO));
    }

    #[test]
    fn digest_round_trip_and_offset_of_bad_element() {
        let d: Digest = core::array::from_fn(|i| F::from_u32(1 + 1000 * i as u32));
        let bytes = digest_to_bytes(&d);
        assert_eq!(digest_from_bytes(&bytes), Ok(d));
        let mut bad = bytes;
        bad[12..16].copy_from_slice(&P.to_le_bytes());
        assert_eq!(digest_from_bytes(&bad), Err(12));
    }
}
