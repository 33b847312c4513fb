//! Secret and public keys of the Ethereum ciphersuite
//! (`BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_`, minimal-pubkey-size:
//! public keys in G1, signatures in G2).

use std::hash::{Hash, Hasher};

use blst::blst_p1_affine;
use rand::CryptoRng;

use crate::curve::g1;
use crate::error::{BlsError, Object};
use crate::pop::ProofOfPossession;
use crate::sig::{DST_SIG, Signature};

/// Bytes in a secret key (big-endian scalar).
pub const SECRET_KEY_BYTES: usize = 32;
/// Bytes in a compressed public key.
pub const PUBLIC_KEY_BYTES: usize = 48;

/// A BLS secret key: a nonzero scalar below the group order `r`.
///
/// The key material is zeroized on drop by blst.
#[derive(Clone)]
pub struct SecretKey(blst::min_pk::SecretKey);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(..)")
    }
}

impl SecretKey {
    /// A fresh key from 32 bytes of the given cryptographic RNG, through the
    /// IETF KeyGen (HKDF-based, so a weak byte distribution is not fatal).
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> SecretKey {
        let mut ikm = [0u8; 32];
        rng.fill_bytes(&mut ikm);
        let sk = SecretKey::from_key_material(&ikm).expect("32 bytes of key material suffice");
        ikm.fill(0);
        sk
    }

    /// Deterministic IETF KeyGen from input key material of at least 32 bytes.
    pub fn from_key_material(ikm: &[u8]) -> Result<SecretKey, BlsError> {
        if ikm.len() < 32 {
            return Err(BlsError::ShortKeyMaterial(ikm.len()));
        }
        blst::min_pk::SecretKey::key_gen(ikm, &[]).map(SecretKey).map_err(|_| BlsError::ShortKeyMaterial(ikm.len()))
    }

    /// Decodes a 32-byte big-endian scalar; zero and values `>= r` are refused.
    pub fn from_bytes(bytes: &[u8]) -> Result<SecretKey, BlsError> {
        if bytes.len() != SECRET_KEY_BYTES {
            return Err(BlsError::WrongLength {
                what: Object::SecretKey,
                expected: SECRET_KEY_BYTES,
                got: bytes.len(),
            });
        }
        blst::min_pk::SecretKey::from_bytes(bytes).map(SecretKey).map_err(|_| BlsError::InvalidSecretKey)
    }

    /// The 32-byte big-endian encoding.
    pub fn to_bytes(&self) -> [u8; SECRET_KEY_BYTES] {
        self.0.to_bytes()
    }

    /// The matching public key `sk * G1`.
    pub fn public_key(&self) -> PublicKey {
        let pk: blst_p1_affine = self.0.sk_to_pk().into();
        // A nonzero scalar below r times the generator is never the identity.
        PublicKey::from_affine_unchecked(pk).expect("nonzero secret key gives a non-identity key")
    }

    /// Signs `msg` under the signature tag: `sk * H(msg)`.
    pub fn sign(&self, msg: &[u8]) -> Signature {
        self.sign_with_dst(msg, DST_SIG)
    }

    /// Signs under an explicit domain-separation tag (used for proofs of possession).
    pub(crate) fn sign_with_dst(&self, msg: &[u8], dst: &[u8]) -> Signature {
        let sig: blst::blst_p2_affine = self.0.sign(msg, dst, &[]).into();
        Signature::from_affine_unchecked(sig)
    }

    /// A proof of possession of this key (signature of the key's bytes under
    /// the PoP tag).
    pub fn prove_possession(&self) -> ProofOfPossession {
        ProofOfPossession::prove(self)
    }
}

/// A validated BLS public key: on the curve, in the prime-order subgroup of
/// G1, and not the identity (the checks of the IETF `KeyValidate`).
///
/// Holding a `PublicKey` does not prove possession of its secret key; for
/// aggregation, keys must come from a [`crate::KeyRegistry`] (or be checked
/// with [`ProofOfPossession::verify`]) to rule out rogue keys.
#[derive(Clone, Copy)]
pub struct PublicKey(pub(crate) blst_p1_affine);

impl PublicKey {
    /// Decodes a 48-byte compressed key and runs `KeyValidate`.
    pub fn from_bytes(bytes: &[u8]) -> Result<PublicKey, BlsError> {
        let p = g1::decompress(bytes).map_err(|e| BlsError::from_point(Object::PublicKey, e))?;
        PublicKey::from_affine_unchecked(p)
    }

    /// The 48-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; PUBLIC_KEY_BYTES] {
        g1::compress(&self.0)
    }

    /// Wraps a point computed from valid points (sums of keys, `sk * G`,
    /// here or in `sigagg-horn`); only the identity is refused. *Unchecked*:
    /// the point is not tested for the curve or the subgroup, which is the
    /// caller's invariant; points from anywhere else go through
    /// [`PublicKey::from_bytes`].
    pub fn from_affine_unchecked(p: blst_p1_affine) -> Result<PublicKey, BlsError> {
        if g1::is_identity(&p) {
            return Err(BlsError::Identity { what: Object::PublicKey });
        }
        Ok(PublicKey(p))
    }

    /// The affine coordinates `(x, y)` of the key, each a 48-byte big-endian
    /// element of BLS12-381's base field below the modulus. Proof systems
    /// whose field is that base field (the succinct certificates of
    /// `sigagg-bls-cert`) take keys as these native coordinates.
    pub fn affine_coordinates(&self) -> ([u8; 48], [u8; 48]) {
        crate::curve::g1_coordinates(&self.0).expect("a public key is never the identity")
    }

    /// The underlying affine point, for [`crate::curve`] arithmetic.
    pub fn point(&self) -> &blst_p1_affine {
        &self.0
    }
}

impl PartialEq for PublicKey {
    fn eq(&self, other: &Self) -> bool {
        g1::eq(&self.0, &other.0)
    }
}

impl Eq for PublicKey {}

impl Hash for PublicKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.to_bytes().hash(state);
    }
}

impl std::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PublicKey({})", crate::hex_short(&self.to_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_x_is_the_compressed_encoding_without_flags() {
        let pk = SecretKey::from_key_material(&[7; 32]).unwrap().public_key();
        let (x, y) = pk.affine_coordinates();
        let mut compressed = pk.to_bytes();
        compressed[0] &= 0x1f;
        assert_eq!(x, compressed, "x is the compressed encoding with the three flag bits cleared");
        assert_ne!(y, [0u8; 48]);
    }

    #[test]
    fn secret_key_encoding_round_trip_and_rejections() {
        let sk = SecretKey::from_key_material(&[7u8; 32]).unwrap();
        let again = SecretKey::from_bytes(&sk.to_bytes()).unwrap();
        assert_eq!(sk.public_key(), again.public_key());
        assert_eq!(SecretKey::from_bytes(&[0u8; 32]).unwrap_err(), BlsError::InvalidSecretKey);
        // r itself is not below r.
        assert_eq!(SecretKey::from_bytes(&crate::curve::R_BE).unwrap_err(), BlsError::InvalidSecretKey);
        assert!(matches!(SecretKey::from_bytes(&[1u8; 31]), Err(BlsError::WrongLength { .. })));
        assert_eq!(SecretKey::from_key_material(&[1u8; 31]).unwrap_err(), BlsError::ShortKeyMaterial(31));
    }

    #[test]
    fn public_key_round_trip_and_rejections() {
        let pk = SecretKey::from_key_material(&[9u8; 32]).unwrap().public_key();
        let bytes = pk.to_bytes();
        assert_eq!(PublicKey::from_bytes(&bytes).unwrap(), pk);
        let mut inf = [0u8; 48];
        inf[0] = 0xc0;
        assert_eq!(PublicKey::from_bytes(&inf).unwrap_err(), BlsError::Identity { what: Object::PublicKey });
        assert!(matches!(
            PublicKey::from_bytes(&bytes[..47]),
            Err(BlsError::WrongLength { expected: 48, got: 47, .. })
        ));
        // x = 0 is not on the curve (0^3 + 4 = 4 is a square, so try x = 1: 5 is a non-square).
        let mut off = [0u8; 48];
        off[0] = 0x80;
        off[47] = 1;
        assert!(matches!(
            PublicKey::from_bytes(&off),
            Err(BlsError::NotOnCurve { .. }) | Err(BlsError::NotInSubgroup { .. })
        ));
    }

    #[test]
    fn generate_uses_the_rng() {
        let mut rng = rand::rng();
        let a = SecretKey::generate(&mut rng);
        let b = SecretKey::generate(&mut rng);
        assert_ne!(a.public_key(), b.public_key());
    }
}
