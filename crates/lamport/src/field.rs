//! The 8-element digest every hash of this crate outputs, on top of the
//! KoalaBear field and its canonical byte encoding (`sigagg-koalabear`,
//! re-exported here so that the crate's types name one path).

use p3_field::PrimeCharacteristicRing;

pub use sigagg_koalabear::field::{F, FE_BYTES, P, PackedF, fe_from_le_bytes, put_fes};
use sigagg_koalabear::field::{fes_from_le_bytes, fes_to_le_bytes};

/// Field elements per digest. Eight elements carry 8 * log2(p) ≈ 247.9 bits,
/// so generic preimage search costs 2^248 classically and 2^124 with Grover.
pub const DIGEST_LEN: usize = 8;

/// Bytes of an encoded digest.
pub const DIGEST_BYTES: usize = DIGEST_LEN * FE_BYTES;

/// A hash output: sub-keys, sub-public-keys, public keys and group-tree nodes.
pub type Digest = [F; DIGEST_LEN];

/// The all-zero digest. It pads the group tree; no honest public key equals it.
pub const ZERO_DIGEST: Digest = [F::ZERO; DIGEST_LEN];

/// The canonical encoding of a digest (32 bytes).
pub fn digest_to_bytes(d: &Digest) -> [u8; DIGEST_BYTES] {
    fes_to_le_bytes(d)
}

/// Decodes a canonical digest; on failure returns the byte offset of the
/// first non-canonical element.
pub fn digest_from_bytes(bytes: &[u8; DIGEST_BYTES]) -> Result<Digest, usize> {
    fes_from_le_bytes(bytes)
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
