//! Byte encodings. All are fixed-layout SSZ-style containers (a field
//! element is its canonical `u32`, little-endian; integers are little-endian):
//!
//! | value | layout | bytes |
//! |---|---|---|
//! | [`PublicKey`] | `digest` | 32 |
//! | [`Signature`] | `counter: u32 ‖ randomizer: 5 fe ‖ elements: n × 8 fe` | 24 + 32n |
//! | [`SecretKey`] | `"SGLMPSK1" ‖ set id: u8 ‖ seed: 32 ‖ used: u8 ‖ representative: 32` | 74 |
//! | [`GroupKey`] | `root ‖ size: u32` | 36 |
//! | [`MembershipProof`] | `index: u32 ‖ siblings: depth × 8 fe` | 4 + 32·depth |
//!
//! Decoding is strict: exact lengths, field elements below `p`, counters in
//! range, flags 0 or 1, unused bytes zero. So `decode(encode(x)) == x` and
//! `encode(decode(b)) == b` whenever decoding succeeds, and no input panics.

use crate::codeword::{REPRESENTATIVE_BYTES, Representative};
use crate::error::DecodeError;
use crate::field::{DIGEST_BYTES, DIGEST_LEN, Digest, F, FE_BYTES, digest_to_bytes, fe_from_le_bytes, put_fes};
use crate::group::{GroupKey, MembershipProof};
use crate::keys::{PublicKey, SecretKey};
use crate::params::ParameterSet;
use crate::prf::{RANDOMIZER_LEN, Randomizer, SEED_LEN};
use crate::signature::Signature;

/// A cursor over untrusted bytes; every read is bounds-checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    /// A reader that first checks the exact total length.
    fn exact(bytes: &'a [u8], expected: usize, what: &'static str) -> Result<Self, DecodeError> {
        if bytes.len() != expected {
            return Err(DecodeError::InvalidLength { what, expected, actual: bytes.len() });
        }
        Ok(Self { bytes, at: 0, what })
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let chunk = self.bytes.get(self.at..self.at + N).ok_or(DecodeError::InvalidLength {
            what: self.what,
            expected: self.at + N,
            actual: self.bytes.len(),
        })?;
        self.at += N;
        Ok(chunk.try_into().expect("slice of length N"))
    }

    fn u32(&mut self) -> Result<u32, DecodeError> {
        self.take::<4>().map(u32::from_le_bytes)
    }

    fn fes<const N: usize>(&mut self) -> Result<[F; N], DecodeError> {
        let mut out = [F::default(); N];
        for fe in &mut out {
            let offset = self.at;
            *fe = fe_from_le_bytes(self.take::<FE_BYTES>()?)
                .ok_or(DecodeError::NonCanonicalFieldElement { what: self.what, offset })?;
        }
        Ok(out)
    }

    fn digest(&mut self) -> Result<Digest, DecodeError> {
        self.fes::<DIGEST_LEN>()
    }
}

impl<S: ParameterSet> PublicKey<S> {
    /// Bytes of the encoding.
    pub const ENCODED_LEN: usize = DIGEST_BYTES;

    /// The canonical encoding of the digest.
    pub fn to_bytes(&self) -> Vec<u8> {
        digest_to_bytes(self.digest()).to_vec()
    }

    /// Decodes a public key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::exact(bytes, Self::ENCODED_LEN, "public key")?;
        Ok(Self::from_digest(r.digest()?))
    }
}

impl<S: ParameterSet> Signature<S> {
    /// Bytes of the encoding: `4 + 20 + 32 n`.
    pub const ENCODED_LEN: usize = 4 + RANDOMIZER_LEN * FE_BYTES + S::NUM_SUBKEYS * DIGEST_BYTES;

    /// `counter ‖ randomizer ‖ elements`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::ENCODED_LEN);
        out.extend_from_slice(&self.counter().to_le_bytes());
        put_fes(&mut out, self.randomizer());
        for e in self.elements() {
            put_fes(&mut out, e);
        }
        out
    }

    /// Decodes a signature; rejects a wrong length, non-canonical elements
    /// and a counter above the set's maximum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::exact(bytes, Self::ENCODED_LEN, "signature")?;
        let counter = r.u32()?;
        if counter > S::MAX_COUNTER {
            return Err(DecodeError::CounterOutOfRange { counter, max: S::MAX_COUNTER });
        }
        let randomizer: Randomizer = r.fes()?;
        let elements = (0..S::NUM_SUBKEYS).map(|_| r.digest()).collect::<Result<Vec<_>, _>>()?;
        Self::from_parts(counter, randomizer, elements)
    }
}

const SK_MAGIC: &[u8; 8] = b"SGLMPSK1";

impl<S: ParameterSet> SecretKey<S> {
    /// Bytes of the encoding.
    pub const ENCODED_LEN: usize = SK_MAGIC.len() + 1 + SEED_LEN + 1 + REPRESENTATIVE_BYTES;

    /// `"SGLMPSK1" ‖ set id ‖ seed ‖ used (0/1) ‖ signed representative
    /// (zero when unused)`. Contains the seed: protect it like the key.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::ENCODED_LEN);
        out.extend_from_slice(SK_MAGIC);
        out.push(S::ID);
        out.extend_from_slice(self.seed());
        match self.signed_representative() {
            None => {
                out.push(0);
                out.extend_from_slice(&[0; REPRESENTATIVE_BYTES]);
            }
            Some(rep) => {
                out.push(1);
                out.extend_from_slice(rep.as_bytes());
            }
        }
        out
    }

    /// Decodes a secret key with its one-time state. Rejects another set's
    /// key, a flag other than 0/1, a nonzero representative on an unused key
    /// and a representative no signer could have produced (bits beyond `L`,
    /// or fewer than `k` leading zeros).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::exact(bytes, Self::ENCODED_LEN, "secret key")?;
        if &r.take::<8>()? != SK_MAGIC {
            return Err(DecodeError::BadHeader { what: "secret key" });
        }
        let [id] = r.take::<1>()?;
        if id != S::ID {
            return Err(DecodeError::WrongParameterSet { expected: S::ID, actual: id });
        }
        let seed = r.take::<SEED_LEN>()?;
        let [flag] = r.take::<1>()?;
        let rep_bytes = r.take::<REPRESENTATIVE_BYTES>()?;
        let signed = match flag {
            0 if rep_bytes == [0; REPRESENTATIVE_BYTES] => None,
            0 => return Err(DecodeError::Inconsistent("secret key: unused key with a representative")),
            1 => {
                let rep = Representative::<S>::from_bytes(rep_bytes)
                    .filter(Representative::is_admissible)
                    .ok_or(DecodeError::Inconsistent("secret key: impossible representative"))?;
                Some(rep)
            }
            _ => return Err(DecodeError::Inconsistent("secret key: used flag must be 0 or 1")),
        };
        Ok(Self::with_state(seed, signed))
    }
}

impl GroupKey {
    /// Bytes of the encoding.
    pub const ENCODED_LEN: usize = DIGEST_BYTES + 4;

    /// `root ‖ size`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = digest_to_bytes(self.root()).to_vec();
        out.extend_from_slice(&self.size().to_le_bytes());
        out
    }

    /// Decodes a group key; the size must be in `1..=MAX_GROUP_SIZE`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::exact(bytes, Self::ENCODED_LEN, "group key")?;
        let root = r.digest()?;
        let size = r.u32()?;
        Self::new(root, size).map_err(|_| DecodeError::Inconsistent("group key: size out of range"))
    }
}

impl MembershipProof {
    /// `index ‖ siblings`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.index().to_le_bytes().to_vec();
        for s in self.siblings() {
            put_fes(&mut out, s);
        }
        out
    }

    /// Decodes a path of any depth up to 31 (its depth is checked against
    /// the group key on verification).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DecodeError> {
        let depth = bytes.len().saturating_sub(4) / DIGEST_BYTES;
        if depth > 31 {
            return Err(DecodeError::Inconsistent("membership proof: deeper than 31 levels"));
        }
        let mut r = Reader::exact(bytes, 4 + depth * DIGEST_BYTES, "membership proof")?;
        let index = r.u32()?;
        let siblings = (0..depth).map(|_| r.digest()).collect::<Result<Vec<_>, _>>()?;
        Ok(Self::new(index, siblings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::keygen_from_seed;
    use crate::params::{LamportPlus, LamportPlusMined};

    #[test]
    fn sizes() {
        assert_eq!(Signature::<LamportPlus>::ENCODED_LEN, 8216);
        assert_eq!(Signature::<LamportPlusMined>::ENCODED_LEN, 7192);
        assert_eq!(SecretKey::<LamportPlus>::ENCODED_LEN, 74);
        assert_eq!(PublicKey::<LamportPlus>::ENCODED_LEN, 32);
    }

    #[test]
    fn secret_key_round_trip_keeps_the_state() {
        let (_, mut sk) = keygen_from_seed::<LamportPlusMined>([9; 32]);
        let fresh = sk.to_bytes();
        assert_eq!(SecretKey::<LamportPlusMined>::from_bytes(&fresh).unwrap(), sk);
        sk.sign(b"state").unwrap();
        let used = sk.to_bytes();
        assert_ne!(fresh, used);
        let mut back = SecretKey::<LamportPlusMined>::from_bytes(&used).unwrap();
        assert_eq!(back, sk);
        assert_eq!(back.sign(b"other"), Err(crate::SignError::KeyAlreadyUsed));
        assert!(matches!(
            SecretKey::<LamportPlus>::from_bytes(&used),
            Err(DecodeError::WrongParameterSet { expected: 1, actual: 2 })
        ));
    }

    #[test]
    fn membership_proof_length_rules() {
        assert!(MembershipProof::from_bytes(&[0; 3]).is_err());
        assert_eq!(MembershipProof::from_bytes(&[0; 4]).unwrap().siblings().len(), 0);
        assert!(MembershipProof::from_bytes(&[0; 5]).is_err());
        assert!(MembershipProof::from_bytes(&[0; 4 + 32 + 1]).is_err());
        assert!(MembershipProof::from_bytes(&vec![0; 4 + 32 * 32]).is_err());
    }
}
