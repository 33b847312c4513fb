//! Byte encodings.
//!
//! Public keys and signatures use SSZ exactly as leanSig does (a field
//! element is its canonical `u32`, little-endian):
//!
//! * public key (fixed size): `root || parameter`;
//! * signature (container `path, rho, hashes`): `u32 offset_path || rho ||
//!   u32 offset_hashes || path || hashes`, where `path` is itself a container
//!   `u32 offset (= 4) || co_path`.
//!
//! Decoding is strict: only the one canonical encoding of a value is
//! accepted (exact length and offsets, field elements below `p`), so
//! `decode(encode(x)) == x` and `encode(decode(b)) == b` whenever decoding succeeds.
//!
//! Secret keys use a versioned format of this crate (see [`SecretKey::to_bytes`]).

use crate::error::DecodeError;
use crate::field::{FE_BYTES, FeArray, put_fes};
use crate::keys::{PublicKey, SecretKey, bottom_tree};
use crate::params::ParameterSet;
use crate::signature::Signature;
use crate::tree::SubTree;
use zeroize::Zeroizing;

/// A cursor over untrusted bytes; every read is bounds-checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8], what: &'static str) -> Self {
        Self { bytes, at: 0, what }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(DecodeError::InvalidLength {
            what: self.what,
            expected: self.at.saturating_add(n),
            actual: self.bytes.len(),
        })?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("took 4 bytes")))
    }

    fn u64(&mut self) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("took 8 bytes")))
    }

    fn fes<T: FeArray>(&mut self) -> Result<T, DecodeError> {
        let start = self.at;
        T::from_le_bytes(self.take(T::BYTES)?)
            .map_err(|at| DecodeError::NonCanonicalFieldElement { offset: start + at })
    }

    fn many<T: FeArray>(&mut self, n: usize) -> Result<Vec<T>, DecodeError> {
        (0..n).map(|_| self.fes()).collect()
    }

    fn offset(&mut self, expected: usize) -> Result<(), DecodeError> {
        let actual = self.u32()? as usize;
        if actual != expected {
            return Err(DecodeError::InvalidOffset { what: self.what, expected, actual });
        }
        Ok(())
    }

    fn finish(self) -> Result<(), DecodeError> {
        if self.at != self.bytes.len() {
            return Err(DecodeError::InvalidLength { what: self.what, expected: self.at, actual: self.bytes.len() });
        }
        Ok(())
    }
}

impl<S: ParameterSet> PublicKey<S> {
    /// Size of the SSZ encoding.
    pub const SSZ_LEN: usize = <S::Digest as FeArray>::BYTES + <S::Parameter as FeArray>::BYTES;

    /// SSZ encoding: `root || parameter`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::SSZ_LEN);
        put_fes(&mut out, self.root.as_slice());
        put_fes(&mut out, self.parameter.as_slice());
        out
    }

    /// Decodes the SSZ encoding.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes, "public key");
        if bytes.len() != Self::SSZ_LEN {
            return Err(DecodeError::InvalidLength { what: r.what, expected: Self::SSZ_LEN, actual: bytes.len() });
        }
        let key = Self { root: r.fes()?, parameter: r.fes()? };
        r.finish()?;
        Ok(key)
    }
}

impl<S: ParameterSet> Signature<S> {
    const PATH_OFFSET: usize = 4 + <S::Rho as FeArray>::BYTES + 4;
    const PATH_LEN: usize = 4 + S::LOG_LIFETIME as usize * <S::Digest as FeArray>::BYTES;
    /// Size of the SSZ encoding (fixed for a parameter set).
    pub const SSZ_LEN: usize = Self::PATH_OFFSET + Self::PATH_LEN + S::NUM_CHAINS * <S::Digest as FeArray>::BYTES;

    /// SSZ encoding (see the [module docs](self)).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::SSZ_LEN);
        out.extend_from_slice(&(Self::PATH_OFFSET as u32).to_le_bytes());
        put_fes(&mut out, self.rho.as_slice());
        out.extend_from_slice(&((Self::PATH_OFFSET + Self::PATH_LEN) as u32).to_le_bytes());
        out.extend_from_slice(&4u32.to_le_bytes());
        for node in &self.co_path {
            put_fes(&mut out, node.as_slice());
        }
        for h in &self.hashes {
            put_fes(&mut out, h.as_slice());
        }
        out
    }

    /// Decodes the SSZ encoding; only the canonical encoding is accepted.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes, "signature");
        if bytes.len() != Self::SSZ_LEN {
            return Err(DecodeError::InvalidLength { what: r.what, expected: Self::SSZ_LEN, actual: bytes.len() });
        }
        r.offset(Self::PATH_OFFSET)?;
        let rho = r.fes()?;
        r.offset(Self::PATH_OFFSET + Self::PATH_LEN)?;
        r.offset(4)?;
        let co_path = r.many(S::LOG_LIFETIME as usize)?;
        let hashes = r.many(S::NUM_CHAINS)?;
        r.finish()?;
        Ok(Self { co_path, rho, hashes })
    }
}

const SK_MAGIC: &[u8; 8] = b"SGXMSSK1";

impl<S: ParameterSet> SecretKey<S> {
    /// Serializes the key in this crate's format:
    ///
    /// `"SGXMSSK1" || set id (u8) || prf key (32) || parameter || activation
    /// start, end || next epoch || left bottom-tree index` (u64 LE each), then
    /// the top tree (`u32 count || roots || u32 count || padding nodes`).
    /// Bottom trees are not stored: they are recomputed from the PRF key on
    /// load, and the top tree is checked against them.
    ///
    /// The encoding contains the secret PRF key: protect it like the key.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (_, roots) = self.top.lowest();
        let nodes = roots.len() + self.top.pads().len();
        let len = SK_MAGIC.len()
            + 1
            + self.prf_key.len()
            + FE_BYTES * (S::Parameter::LEN + nodes * S::Digest::LEN)
            + 4 * 8
            + 2 * 4;
        // Exactly the encoding's length, so the buffer never reallocates
        // and leaves no stray copy of the PRF key behind.
        let mut out = Vec::with_capacity(len);
        out.extend_from_slice(SK_MAGIC);
        out.push(S::ID);
        out.extend_from_slice(&self.prf_key);
        put_fes(&mut out, self.parameter.as_slice());
        for v in [self.activation.0, self.activation.1, self.next_epoch, self.left_index] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for list in [roots, self.top.pads()] {
            out.extend_from_slice(&(list.len() as u32).to_le_bytes());
            for node in list {
                put_fes(&mut out, node.as_slice());
            }
        }
        debug_assert_eq!(out.len(), len);
        out
    }

    /// Decodes and checks a key written by [`SecretKey::to_bytes`].
    ///
    /// Recomputes the two prepared bottom trees (the cost of two bottom
    /// trees of key generation) and rejects the key unless their roots are
    /// the top tree's.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes, "secret key");
        if r.take(SK_MAGIC.len())? != SK_MAGIC {
            return Err(DecodeError::BadHeader { what: "secret key" });
        }
        let id = r.take(1)?[0];
        if id != S::ID {
            return Err(DecodeError::WrongParameterSet { expected: S::ID, actual: id });
        }
        // Wiped on every return, the rejections included; the key keeps its own copy.
        let prf_key = Zeroizing::new(<[u8; 32]>::try_from(r.take(32)?).expect("took 32 bytes"));
        let parameter: S::Parameter = r.fes()?;
        let (start, end, next_epoch, left_index) = (r.u64()?, r.u64()?, r.u64()?, r.u64()?);

        let c = S::leaves_per_bottom_tree();
        let shape_ok = start % c == 0
            && end % c == 0
            && end <= S::lifetime()
            && start.checked_add(2 * c).is_some_and(|m| m <= end)
            && left_index >= start / c
            && left_index.checked_add(2).and_then(|i| i.checked_mul(c)).is_some_and(|e| e <= end)
            && next_epoch >= start
            && next_epoch <= end;
        if !shape_ok {
            return Err(DecodeError::Inconsistent("secret key windows"));
        }
        let n_roots = r.u32()? as usize;
        if n_roots as u64 != (end - start) / c {
            return Err(DecodeError::Inconsistent("secret key top tree"));
        }
        let roots = r.many::<S::Digest>(n_roots)?;
        let n_pads = r.u32()? as usize;
        if n_pads > 2 * (S::LOG_LIFETIME as usize + 1) {
            return Err(DecodeError::Inconsistent("secret key padding"));
        }
        let pads = r.many::<S::Digest>(n_pads)?;
        r.finish()?;

        let half = S::LOG_LIFETIME / 2;
        let top = SubTree::rebuild::<S>(&parameter, half, S::LOG_LIFETIME, start / c, roots, &pads)
            .ok_or(DecodeError::Inconsistent("secret key top tree"))?;
        let left = bottom_tree::<S>(&prf_key, &parameter, left_index);
        let right = bottom_tree::<S>(&prf_key, &parameter, left_index + 1);
        let (_, stored) = top.lowest();
        let at = (left_index - start / c) as usize;
        if stored[at] != left.root() || stored[at + 1] != right.root() {
            return Err(DecodeError::Inconsistent("secret key: bottom trees do not match the top tree"));
        }
        debug_assert_eq!(top.lowest_level(), half);
        Ok(Self { prf_key: *prf_key, parameter, activation: (start, end), next_epoch, top, left_index, left, right })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::keygen;
    use crate::params::{LeanSigProd, Seed001, Test};

    #[test]
    fn sizes_match_the_reference() {
        assert_eq!(PublicKey::<LeanSigProd>::SSZ_LEN, 52);
        assert_eq!(Signature::<LeanSigProd>::SSZ_LEN, 2536);
        assert_eq!(Signature::<Test>::SSZ_LEN, 424);
        assert_eq!(PublicKey::<Seed001>::SSZ_LEN, 48);
        assert_eq!(Signature::<Seed001>::SSZ_LEN, 36 - 4 + 4 + 20 * 28 + 78 * 28);
    }

    #[test]
    fn secret_key_round_trip_and_tamper() {
        let mut rng = rand::rng();
        let (_, mut sk) = keygen::<Test, _>(&mut rng, 16, 60).unwrap();
        sk.sign(20, &[1; 32]).unwrap();
        let bytes = sk.to_bytes();
        let back = SecretKey::<Test>::from_bytes(&bytes).unwrap();
        assert!(back == sk);
        assert_eq!(back.next_usable_epoch(), 21);
        // A flipped PRF key no longer matches the stored top tree.
        let mut bad = bytes.clone();
        bad[9] ^= 1;
        assert!(SecretKey::<Test>::from_bytes(&bad).is_err());
        // Every truncation is an error, never a panic.
        for n in 0..bytes.len() {
            assert!(SecretKey::<Test>::from_bytes(&bytes[..n]).is_err());
        }
        assert!(matches!(SecretKey::<Seed001>::from_bytes(&bytes), Err(DecodeError::WrongParameterSet { .. })));
        // A key whose top tree holds a wrong root for a later bottom tree
        // decodes (only the prepared trees are checked on load), but its
        // window does not advance onto that tree. Test's lifetime has
        // bottom trees of 16 leaves: the key covers trees 1..4, prepared 1
        // and 2, and roots start after the four u64s and the count.
        let roots_at = SK_MAGIC.len() + 1 + 32 + <<Test as ParameterSet>::Parameter as FeArray>::BYTES + 32 + 4;
        let mut bad = bytes.clone();
        bad[roots_at + 2 * <<Test as ParameterSet>::Digest as FeArray>::BYTES] ^= 1;
        let mut corrupt = SecretKey::<Test>::from_bytes(&bad).unwrap();
        assert!(!corrupt.advance_preparation());
        assert_eq!(corrupt.prepared_interval(), back.prepared_interval());
        let mut fine = SecretKey::<Test>::from_bytes(&bytes).unwrap();
        assert!(fine.advance_preparation());
        // Left bottom-tree indices whose window end overflows u64 are
        // inconsistent, not a panic (nor wrapped into range).
        let at = SK_MAGIC.len() + 1 + 32 + <<Test as ParameterSet>::Parameter as FeArray>::BYTES + 24;
        assert_eq!(bytes[at..at + 8], back.left_index.to_le_bytes());
        for huge in [1u64 << 60, u64::MAX - 1, u64::MAX] {
            let mut bad = bytes.clone();
            bad[at..at + 8].copy_from_slice(&huge.to_le_bytes());
            assert_eq!(
                SecretKey::<Test>::from_bytes(&bad).err(),
                Some(DecodeError::Inconsistent("secret key windows"))
            );
        }
    }
}
