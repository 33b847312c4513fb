//! Strict byte encodings shared by the setup, committee and certificate
//! formats: fixed layouts, little-endian integers, arkworks point and field
//! encodings checked for canonicity (decode, re-encode, compare), so every
//! value has exactly one accepted spelling.

use ark_ff::Zero;
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};

use crate::error::{CertError, Encoded};
use crate::field::F;

/// Bytes of a compressed BW6-767 point (G1 or G2): 767 bits plus two flags.
pub const POINT_BYTES: usize = 97;
/// Bytes of an uncompressed BW6-767 point.
pub const POINT_BYTES_UNCOMPRESSED: usize = 193;
/// Bytes of a field element of `F`.
pub const FIELD_BYTES: usize = 48;

/// Appends values to a byte buffer.
#[derive(Default)]
pub struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    /// An empty buffer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Writer {
        Writer { bytes: Vec::with_capacity(capacity) }
    }

    /// Raw bytes.
    pub fn bytes(&mut self, data: &[u8]) {
        self.bytes.extend_from_slice(data);
    }

    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// A little-endian `u64`.
    pub fn u64(&mut self, v: u64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// An arkworks value, compressed or not.
    pub fn value(&mut self, v: &impl CanonicalSerialize, compress: Compress) {
        v.serialize_with_mode(&mut self.bytes, compress).expect("writing to a Vec cannot fail");
    }

    /// A field element (48 bytes, little-endian).
    pub fn field(&mut self, v: &F) {
        self.value(v, Compress::Yes);
    }

    /// The bytes written.
    pub fn finish(self) -> Vec<u8> {
        self.bytes
    }
}

/// Reads a fixed layout from a byte slice, failing with typed errors.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    what: Encoded,
}

impl<'a> Reader<'a> {
    /// Checks `bytes` is exactly `expected` long and starts with `magic`
    /// followed by `version`; returns a reader positioned after them.
    pub fn open(bytes: &'a [u8], what: Encoded, magic: &[u8], version: u8) -> Result<Reader<'a>, CertError> {
        if bytes.len() < magic.len() + 1 || &bytes[..magic.len()] != magic {
            return Err(CertError::BadMagic { what });
        }
        let found = bytes[magic.len()];
        if found != version {
            return Err(CertError::UnsupportedVersion { what, version: found });
        }
        Ok(Reader { bytes, pos: magic.len() + 1, what })
    }

    /// The object being read (for errors).
    pub fn what(&self) -> Encoded {
        self.what
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// Fails unless exactly `n` more bytes remain; called once the variable
    /// parts of the header are known, so a short or long input is reported
    /// with its expected length.
    pub fn expect_remaining(&self, n: usize) -> Result<(), CertError> {
        if self.remaining() != n {
            return Err(CertError::WrongLength { what: self.what, expected: self.pos + n, got: self.bytes.len() });
        }
        Ok(())
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], CertError> {
        if self.remaining() < n {
            return Err(CertError::WrongLength { what: self.what, expected: self.pos + n, got: self.bytes.len() });
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, CertError> {
        Ok(self.take(1)?[0])
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self) -> Result<u32, CertError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    /// A little-endian `u64`.
    pub fn u64(&mut self) -> Result<u64, CertError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    /// A field element: 48 little-endian bytes below `q`.
    pub fn field(&mut self, field: &'static str) -> Result<F, CertError> {
        let what = self.what;
        let bytes = self.take(FIELD_BYTES)?;
        decode_canonical(bytes, Compress::Yes, Validate::Yes).ok_or(CertError::BadFieldElement { what, field })
    }

    /// A compressed point, on the curve and in the prime-order subgroup (the
    /// identity is allowed: a commitment to the zero polynomial).
    pub fn point<P: CanonicalSerialize + CanonicalDeserialize>(&mut self, field: &'static str) -> Result<P, CertError> {
        let what = self.what;
        let bytes = self.take(POINT_BYTES)?;
        decode_canonical(bytes, Compress::Yes, Validate::Yes).ok_or(CertError::BadPoint { what, field })
    }

    /// Fails on bytes left over.
    pub fn finish(self) -> Result<(), CertError> {
        self.expect_remaining(0)
    }
}

/// Decodes an arkworks value and accepts it only if it re-encodes to the
/// same bytes (no second spelling: unused flag bits, non-reduced values).
pub fn decode_canonical<T: CanonicalSerialize + CanonicalDeserialize>(
    bytes: &[u8],
    compress: Compress,
    validate: Validate,
) -> Option<T> {
    let value = T::deserialize_with_mode(bytes, compress, validate).ok()?;
    let mut again = Vec::with_capacity(bytes.len());
    value.serialize_with_mode(&mut again, compress).ok()?;
    (again == bytes).then_some(value)
}

/// Decodes a compressed BW6-767 G1 point and accepts it only if it is
/// canonical and in the prime-order subgroup (the identity included). The
/// same checks as arkworks' `Validate::Yes`, with the faster subgroup test
/// of [`crate::msm::times_group_order`]: decompression puts the point on
/// the curve.
pub fn decode_g1(bytes: &[u8]) -> Option<crate::field::G1> {
    let p: crate::field::G1 = decode_canonical(bytes, Compress::Yes, Validate::No)?;
    (p.is_on_curve() && crate::msm::times_group_order(&p).is_zero()).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::G1;
    use ark_ec::AffineRepr;
    use ark_ff::PrimeField;

    #[test]
    fn sizes_match_arkworks() {
        let g = G1::generator();
        assert_eq!(g.compressed_size(), POINT_BYTES);
        assert_eq!(g.uncompressed_size(), POINT_BYTES_UNCOMPRESSED);
        assert_eq!(F::from(3u64).compressed_size(), FIELD_BYTES);
    }

    #[test]
    fn non_canonical_field_elements_and_points_are_refused() {
        // q itself (not reduced) encodes the same value as 0.
        let q = F::MODULUS.0;
        let mut bytes = Vec::new();
        for limb in q {
            bytes.extend_from_slice(&limb.to_le_bytes());
        }
        assert!(decode_canonical::<F>(&bytes, Compress::Yes, Validate::Yes).is_none());
        let mut w = Writer::default();
        w.value(&G1::generator(), Compress::Yes);
        let mut point = w.finish();
        assert!(decode_canonical::<G1>(&point, Compress::Yes, Validate::Yes).is_some());
        point[5] ^= 1;
        assert!(decode_canonical::<G1>(&point, Compress::Yes, Validate::Yes).is_none(), "off the curve");
    }
}
