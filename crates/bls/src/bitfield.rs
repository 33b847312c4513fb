//! Fixed-length bitfields (SSZ `Bitvector`): which members of a committee
//! signed. Horn's subcommittee (512 bits) and committee (2^15 bits)
//! aggregates carry them, and so do the succinct certificates of
//! `sigagg-bls-cert`.
//!
//! Bit `i` is bit `i % 8` of byte `i / 8` (little-endian bit order, as SSZ).
//! Internally the bits live in `u64` words so that counting and walking the
//! set or unset bits of a 2^15-bit field costs 512 word operations.

use thiserror::Error;

/// Why a bitfield (or a vector of counts) is malformed or a bit index is bad.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BitfieldError {
    /// An encoding of the wrong size (or two fields of different lengths).
    #[error("bitfield of {expected_bits} bits cannot be {got_bytes} bytes")]
    Length { expected_bits: usize, got_bytes: usize },
    /// Nonzero bits past the end of a bitfield.
    #[error("bits set past the end of the bitfield")]
    Padding,
    /// A bit index past the end.
    #[error("bit {index} out of range ({len} bits)")]
    OutOfRange { index: usize, len: usize },
}

/// A bitfield of a fixed number of bits.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Bitfield {
    len: usize,
    words: Vec<u64>,
}

impl Bitfield {
    /// All bits clear.
    pub fn new(len: usize) -> Bitfield {
        Bitfield { len, words: vec![0; len.div_ceil(64)] }
    }

    /// All bits set.
    pub fn full(len: usize) -> Bitfield {
        let mut b = Bitfield { len, words: vec![u64::MAX; len.div_ceil(64)] };
        b.clear_padding();
        b
    }

    fn clear_padding(&mut self) {
        let rem = self.len % 64;
        if rem != 0
            && let Some(last) = self.words.last_mut()
        {
            *last &= (1u64 << rem) - 1;
        }
    }

    /// Number of bytes of the encoding of a `len`-bit field.
    pub fn byte_len(len: usize) -> usize {
        len.div_ceil(8)
    }

    /// Decodes `ceil(len / 8)` bytes; bits past `len` in the last byte must be zero
    /// (one encoding per bitfield).
    pub fn from_bytes(bytes: &[u8], len: usize) -> Result<Bitfield, BitfieldError> {
        let expected = Bitfield::byte_len(len);
        if bytes.len() != expected {
            return Err(BitfieldError::Length { expected_bits: len, got_bytes: bytes.len() });
        }
        let mut words = vec![0u64; len.div_ceil(64)];
        for (w, chunk) in words.iter_mut().zip(bytes.chunks(8)) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            *w = u64::from_le_bytes(buf);
        }
        let b = Bitfield { len, words };
        let mut clean = b.clone();
        clean.clear_padding();
        if clean != b {
            return Err(BitfieldError::Padding);
        }
        Ok(b)
    }

    /// The `ceil(len / 8)`-byte encoding.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        out.truncate(Bitfield::byte_len(self.len));
        out
    }

    /// Number of bits.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the field has zero bits (not whether no bit is set; see [`Bitfield::none`]).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit `i`; an index past the end is an error, not a panic.
    pub fn get(&self, i: usize) -> Result<bool, BitfieldError> {
        if i >= self.len {
            return Err(BitfieldError::OutOfRange { index: i, len: self.len });
        }
        Ok(self.words[i / 64] >> (i % 64) & 1 == 1)
    }

    /// Sets bit `i`.
    pub fn set(&mut self, i: usize) -> Result<(), BitfieldError> {
        if i >= self.len {
            return Err(BitfieldError::OutOfRange { index: i, len: self.len });
        }
        self.words[i / 64] |= 1 << (i % 64);
        Ok(())
    }

    /// Number of set bits.
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Number of clear bits.
    pub fn count_zeros(&self) -> usize {
        self.len - self.count_ones()
    }

    /// Whether no bit is set.
    pub fn none(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Whether every bit is set.
    pub fn all(&self) -> bool {
        self.count_ones() == self.len
    }

    /// Indices of the set bits, ascending.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| BitIter { word: w, base: k * 64 })
    }

    /// Indices of the clear bits, ascending.
    pub fn zeros(&self) -> impl Iterator<Item = usize> + '_ {
        let len = self.len;
        self.words.iter().enumerate().flat_map(move |(k, &w)| {
            let base = k * 64;
            let valid = if base + 64 <= len { u64::MAX } else { (1u64 << (len - base)) - 1 };
            BitIter { word: !w & valid, base }
        })
    }

    /// `self |= other` (same length required).
    pub fn or_assign(&mut self, other: &Bitfield) -> Result<(), BitfieldError> {
        if other.len != self.len {
            return Err(BitfieldError::Length { expected_bits: self.len, got_bytes: Bitfield::byte_len(other.len) });
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
        Ok(())
    }

    /// Indices set in `self` and clear in `other` (same length assumed;
    /// extra words are ignored).
    pub fn ones_not_in<'a>(&'a self, other: &'a Bitfield) -> impl Iterator<Item = usize> + 'a {
        self.words.iter().zip(&other.words).enumerate().flat_map(|(k, (&a, &b))| BitIter { word: a & !b, base: k * 64 })
    }

    /// Number of indices set in `self` and clear in `other`.
    pub fn count_ones_not_in(&self, other: &Bitfield) -> usize {
        self.words.iter().zip(&other.words).map(|(a, b)| (a & !b).count_ones() as usize).sum()
    }

    /// Copies `other` into bits `offset .. offset + other.len()`; `offset`
    /// must be a multiple of 64 (Horn's subcommittees are 512 bits).
    pub fn write_at(&mut self, offset: usize, other: &Bitfield) -> Result<(), BitfieldError> {
        if !offset.is_multiple_of(64) || offset + other.len > self.len {
            return Err(BitfieldError::OutOfRange { index: offset + other.len, len: self.len });
        }
        let start = offset / 64;
        for (i, w) in other.words.iter().enumerate() {
            self.words[start + i] |= w;
        }
        Ok(())
    }
}

impl std::fmt::Debug for Bitfield {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bitfield({}/{} set)", self.count_ones(), self.len)
    }
}

struct BitIter {
    word: u64,
    base: usize,
}

impl Iterator for BitIter {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.word == 0 {
            return None;
        }
        let tz = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(self.base + tz)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trip_and_bit_order() {
        let mut b = Bitfield::new(20);
        b.set(0).unwrap();
        b.set(9).unwrap();
        b.set(19).unwrap();
        assert_eq!(b.to_bytes(), vec![0x01, 0x02, 0x08]);
        assert_eq!(Bitfield::from_bytes(&b.to_bytes(), 20).unwrap(), b);
        assert_eq!(b.ones().collect::<Vec<_>>(), vec![0, 9, 19]);
        assert_eq!(b.zeros().count(), 17);
        assert_eq!(b.count_ones(), 3);
        assert!(b.get(9).unwrap());
        assert!(!b.get(10).unwrap());
    }

    #[test]
    fn malformed_encodings_are_rejected() {
        assert!(matches!(Bitfield::from_bytes(&[0; 2], 20), Err(BitfieldError::Length { .. })));
        assert!(matches!(Bitfield::from_bytes(&[0; 4], 20), Err(BitfieldError::Length { .. })));
        // Bit 20 is past the end.
        assert_eq!(Bitfield::from_bytes(&[0, 0, 0x10], 20), Err(BitfieldError::Padding));
        let mut b = Bitfield::new(20);
        assert!(matches!(b.set(20), Err(BitfieldError::OutOfRange { index: 20, len: 20 })));
        assert!(matches!(b.get(99), Err(BitfieldError::OutOfRange { .. })));
    }

    #[test]
    fn full_empty_and_large_fields() {
        let full = Bitfield::full(1 << 15);
        assert!(full.all());
        assert_eq!(full.zeros().count(), 0);
        assert_eq!(Bitfield::from_bytes(&full.to_bytes(), 1 << 15).unwrap(), full);
        let empty = Bitfield::new(1 << 15);
        assert!(empty.none());
        assert_eq!(empty.zeros().count(), 1 << 15);
        let odd = Bitfield::full(70);
        assert_eq!(odd.count_ones(), 70);
        assert_eq!(odd.to_bytes().len(), 9);
        assert_eq!(Bitfield::from_bytes(&odd.to_bytes(), 70).unwrap(), odd);
    }

    #[test]
    fn write_and_slice_subfields() {
        let mut sub = Bitfield::new(128);
        sub.set(3).unwrap();
        sub.set(127).unwrap();
        let mut big = Bitfield::new(512);
        big.write_at(256, &sub).unwrap();
        assert_eq!(big.ones().collect::<Vec<_>>(), vec![259, 383]);
        assert!(big.write_at(450, &sub).is_err());
        assert!(big.write_at(448, &sub).is_err());
        let mut other = Bitfield::new(512);
        other.set(259).unwrap();
        other.set(5).unwrap();
        assert_eq!(big.ones_not_in(&other).collect::<Vec<_>>(), vec![383]);
        assert_eq!(big.count_ones_not_in(&other), 1);
        big.or_assign(&other).unwrap();
        assert_eq!(big.ones().collect::<Vec<_>>(), vec![5, 259, 383]);
        assert!(big.or_assign(&Bitfield::new(64)).is_err());
    }
}
