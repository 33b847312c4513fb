//! MSP.B, Mithril's weighted BLS multisignature (seed 002), byte compatible
//! with `mithril-stm`.
//!
//! Mithril uses the *minimal-signature-size* variant: signatures in G1
//! (48 bytes), verification keys in G2 (96 bytes). Given signatures
//! `sigma_1..sigma_n` (in the signers' order) and their keys `mvk_i`:
//!
//! * `e_sigma = H(sigma_1 || ... || sigma_n)` and
//!   `e_i = H(sigma_1 || ... || sigma_n || i)`, where `H` is Blake2b with a
//!   16-byte output, the signatures are compressed and `i` is the 0-based
//!   position as a big-endian `u64` (Mithril appends it to a clone of the
//!   running hash state, so `e_i` extends the input of `e_sigma`);
//! * the 16 bytes of `e_i` are a little-endian 128-bit scalar;
//! * `ivk = sum e_i * mvk_i` (G2) and `mu = sum e_i * sigma_i` (G1), each
//!   one Pippenger multi-scalar multiplication instead of `n` scalar
//!   multiplications;
//! * `mu` verifies under `ivk` with one pairing check.
//!
//! As in Mithril, a single signature is returned unweighted
//! (`ivk = mvk_1`, `mu = sigma_1`). The weights stop an attacker from
//! choosing signatures that cancel in a plain sum; keys still need a proof
//! of possession ([`MspProofOfPossession`]).
//!
//! Mithril hashes to G1 with blst's *empty* domain-separation tag
//! ([`DST_MITHRIL`]); the default here is a proper RFC 9380 tag
//! ([`DST_MSP`]). The weighting does not depend on the tag.

use blake2::Blake2b;
use blake2::digest::{Digest, consts::U16};
use blst::{blst_p1, blst_p1_affine, blst_p2, blst_p2_affine};
use rand::CryptoRng;
use thiserror::Error;

use crate::curve::{self, g1, g2};
use crate::error::{BlsError, Object};

/// Default signing tag of this crate's MSP.B (hash to G1, PoP scheme).
pub const DST_MSP: &[u8] = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_POP_";
/// Tag of MSP.B proofs of possession.
pub const DST_MSP_POP: &[u8] = b"BLS_POP_BLS12381G1_XMD:SHA-256_SSWU_RO_POP_";
/// The tag `mithril-stm` signs with (blst's empty tag), for interoperability.
pub const DST_MITHRIL: &[u8] = b"";
/// Bytes of a compressed MSP signature (G1).
pub const MSP_SIGNATURE_BYTES: usize = 48;
/// Bytes of a compressed MSP verification key (G2).
pub const MSP_VERIFICATION_KEY_BYTES: usize = 96;
/// Bits of each weight `e_i`.
pub const WEIGHT_BITS: usize = 128;

/// Errors of MSP.B.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MspError {
    /// A signature-layer error (bad point, failed pairing check, ...).
    #[error(transparent)]
    Bls(#[from] BlsError),
    /// No signature to aggregate.
    #[error("nothing to aggregate")]
    Empty,
    /// Keys and signatures of different counts.
    #[error("{keys} keys for {signatures} signatures")]
    LengthMismatch { keys: usize, signatures: usize },
}

/// An MSP signing key (a nonzero scalar below `r`).
#[derive(Clone)]
pub struct MspSigningKey(blst::min_sig::SecretKey);

impl std::fmt::Debug for MspSigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MspSigningKey(..)")
    }
}

/// A validated MSP verification key: a G2 point in the subgroup, not the identity.
#[derive(Clone, Copy, Debug)]
pub struct MspVerificationKey(blst_p2_affine);

/// An MSP signature: a G1 point, curve- and subgroup-checked when decoded.
#[derive(Clone, Copy, Debug)]
pub struct MspSignature(blst_p1_affine);

/// A proof of possession of an MSP key: the key's bytes signed under [`DST_MSP_POP`].
#[derive(Clone, Copy, Debug)]
pub struct MspProofOfPossession(blst_p1_affine);

impl MspSigningKey {
    /// A fresh key from the given cryptographic RNG (IETF KeyGen on 32 random bytes).
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> MspSigningKey {
        let mut ikm = [0u8; 32];
        rng.fill_bytes(&mut ikm);
        let sk = MspSigningKey::from_key_material(&ikm).expect("32 bytes suffice");
        ikm.fill(0);
        sk
    }

    /// IETF KeyGen from at least 32 bytes of key material (as Mithril's `generate`).
    pub fn from_key_material(ikm: &[u8]) -> Result<MspSigningKey, MspError> {
        if ikm.len() < 32 {
            return Err(BlsError::ShortKeyMaterial(ikm.len()).into());
        }
        blst::min_sig::SecretKey::key_gen(ikm, &[])
            .map(MspSigningKey)
            .map_err(|_| BlsError::ShortKeyMaterial(ikm.len()).into())
    }

    /// Decodes a 32-byte big-endian scalar (zero and `>= r` refused).
    pub fn from_bytes(bytes: &[u8]) -> Result<MspSigningKey, MspError> {
        if bytes.len() != 32 {
            return Err(BlsError::WrongLength { what: Object::SecretKey, expected: 32, got: bytes.len() }.into());
        }
        blst::min_sig::SecretKey::from_bytes(bytes).map(MspSigningKey).map_err(|_| BlsError::InvalidSecretKey.into())
    }

    /// The 32-byte big-endian encoding.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.to_bytes()
    }

    /// `sk * G2`.
    pub fn verification_key(&self) -> MspVerificationKey {
        MspVerificationKey(self.0.sk_to_pk().into())
    }

    /// Signs under [`DST_MSP`].
    pub fn sign(&self, msg: &[u8]) -> MspSignature {
        self.sign_with_dst(msg, DST_MSP)
    }

    /// Signs under an explicit tag (e.g. [`DST_MITHRIL`]).
    pub fn sign_with_dst(&self, msg: &[u8], dst: &[u8]) -> MspSignature {
        MspSignature(self.0.sign(msg, dst, &[]).into())
    }

    /// A proof of possession of this key.
    pub fn prove_possession(&self) -> MspProofOfPossession {
        let vk = self.verification_key().to_bytes();
        MspProofOfPossession(self.0.sign(&vk, DST_MSP_POP, &[]).into())
    }
}

impl MspVerificationKey {
    /// Decodes 96 bytes: on the curve, in the subgroup, not the identity.
    pub fn from_bytes(bytes: &[u8]) -> Result<MspVerificationKey, MspError> {
        let what = Object::MspVerificationKey;
        let p = g2::decompress(bytes).map_err(|e| BlsError::from_point(what, e))?;
        if g2::is_identity(&p) {
            return Err(BlsError::Identity { what }.into());
        }
        Ok(MspVerificationKey(p))
    }

    /// The 96-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; MSP_VERIFICATION_KEY_BYTES] {
        g2::compress(&self.0)
    }
}

impl PartialEq for MspVerificationKey {
    fn eq(&self, other: &Self) -> bool {
        g2::eq(&self.0, &other.0)
    }
}

impl Eq for MspVerificationKey {}

impl MspSignature {
    /// Decodes 48 bytes: on the curve and in the subgroup.
    pub fn from_bytes(bytes: &[u8]) -> Result<MspSignature, MspError> {
        g1::decompress(bytes).map(MspSignature).map_err(|e| BlsError::from_point(Object::MspSignature, e).into())
    }

    /// The 48-byte compressed encoding (what the weights hash).
    pub fn to_bytes(&self) -> [u8; MSP_SIGNATURE_BYTES] {
        g1::compress(&self.0)
    }

    /// Verifies under [`DST_MSP`].
    pub fn verify(&self, msg: &[u8], vk: &MspVerificationKey) -> Result<(), MspError> {
        self.verify_with_dst(msg, DST_MSP, vk)
    }

    /// `e(sigma, G2) == e(H(msg), vk)` with hash-to-G1 under `dst`.
    pub fn verify_with_dst(&self, msg: &[u8], dst: &[u8], vk: &MspVerificationKey) -> Result<(), MspError> {
        let h = curve::hash_to_g1(msg, dst);
        let neg_g2 = g2::to_affine(&g2::neg(&g2::generator()));
        if curve::pairing_product_is_one(&[(h, vk.0), (self.0, neg_g2)]) {
            Ok(())
        } else {
            Err(BlsError::VerificationFailed.into())
        }
    }
}

impl PartialEq for MspSignature {
    fn eq(&self, other: &Self) -> bool {
        g1::eq(&self.0, &other.0)
    }
}

impl Eq for MspSignature {}

impl MspProofOfPossession {
    /// Checks the proof for `vk`.
    pub fn verify(&self, vk: &MspVerificationKey) -> Result<(), MspError> {
        MspSignature(self.0)
            .verify_with_dst(&vk.to_bytes(), DST_MSP_POP, vk)
            .map_err(|_| BlsError::InvalidProofOfPossession { index: 0 }.into())
    }

    /// Decodes 48 bytes with the curve and subgroup checks.
    pub fn from_bytes(bytes: &[u8]) -> Result<MspProofOfPossession, MspError> {
        g1::decompress(bytes)
            .map(MspProofOfPossession)
            .map_err(|e| BlsError::from_point(Object::MspProofOfPossession, e).into())
    }

    /// The 48-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; MSP_SIGNATURE_BYTES] {
        g1::compress(&self.0)
    }
}

/// The weights `e_i` exactly as Mithril derives them (see the module docs).
pub fn weights(signatures: &[MspSignature]) -> Vec<[u8; 16]> {
    let mut e_sigma = Blake2b::<U16>::new();
    for s in signatures {
        e_sigma.update(s.to_bytes());
    }
    (0..signatures.len())
        .map(|i| {
            let mut h = e_sigma.clone();
            h.update((i as u64).to_be_bytes());
            h.finalize().into()
        })
        .collect()
}

fn check_inputs(vks: &[MspVerificationKey], sigs: &[MspSignature]) -> Result<(), MspError> {
    if vks.len() != sigs.len() {
        return Err(MspError::LengthMismatch { keys: vks.len(), signatures: sigs.len() });
    }
    if sigs.is_empty() {
        return Err(MspError::Empty);
    }
    Ok(())
}

fn wrap(ivk: &blst_p2, mu: &blst_p1) -> Result<(MspVerificationKey, MspSignature), MspError> {
    let ivk = g2::to_affine(ivk);
    if g2::is_identity(&ivk) {
        return Err(BlsError::IdentityAggregateKey.into());
    }
    Ok((MspVerificationKey(ivk), MspSignature(g1::to_affine(mu))))
}

/// `MSP.BKey` and `MSP.BSig` together: `(ivk, mu)` with two Pippenger
/// multi-scalar multiplications (single-threaded blst calls).
pub fn aggregate(
    vks: &[MspVerificationKey],
    sigs: &[MspSignature],
) -> Result<(MspVerificationKey, MspSignature), MspError> {
    check_inputs(vks, sigs)?;
    if sigs.len() == 1 {
        return Ok((vks[0], sigs[0]));
    }
    let scalars: Vec<u8> = weights(sigs).concat();
    let vk_points: Vec<&blst_p2_affine> = vks.iter().map(|v| &v.0).collect();
    let sig_points: Vec<&blst_p1_affine> = sigs.iter().map(|s| &s.0).collect();
    let ivk = g2::msm_refs(&vk_points, &scalars, WEIGHT_BITS);
    let mu = g1::msm_refs(&sig_points, &scalars, WEIGHT_BITS);
    wrap(&ivk, &mu)
}

/// The same `(ivk, mu)` with one scalar multiplication per point and a sum,
/// the implementation the seed started from (kept for the benchmark).
pub fn aggregate_per_point(
    vks: &[MspVerificationKey],
    sigs: &[MspSignature],
) -> Result<(MspVerificationKey, MspSignature), MspError> {
    check_inputs(vks, sigs)?;
    if sigs.len() == 1 {
        return Ok((vks[0], sigs[0]));
    }
    let mut ivk = blst_p2::default();
    let mut mu = blst_p1::default();
    for ((vk, s), e) in vks.iter().zip(sigs).zip(weights(sigs)) {
        g2::add_assign(&mut ivk, &g2::mul(&vk.0, &e, WEIGHT_BITS));
        g1::add_assign(&mut mu, &g1::mul(&s.0, &e, WEIGHT_BITS));
    }
    wrap(&ivk, &mu)
}

/// Verifies an aggregated pair `(ivk, mu)` on `msg` under `dst`.
pub fn verify_aggregated(msg: &[u8], dst: &[u8], ivk: &MspVerificationKey, mu: &MspSignature) -> Result<(), MspError> {
    mu.verify_with_dst(msg, dst, ivk)
}

/// Aggregates and verifies signatures made under [`DST_MSP`].
pub fn verify_aggregate(msg: &[u8], vks: &[MspVerificationKey], sigs: &[MspSignature]) -> Result<(), MspError> {
    verify_aggregate_with_dst(msg, DST_MSP, vks, sigs)
}

/// Aggregates and verifies signatures made under `dst` (as Mithril's
/// `verify_aggregate` with [`DST_MITHRIL`]).
pub fn verify_aggregate_with_dst(
    msg: &[u8],
    dst: &[u8],
    vks: &[MspVerificationKey],
    sigs: &[MspSignature],
) -> Result<(), MspError> {
    let (ivk, mu) = aggregate(vks, sigs)?;
    verify_aggregated(msg, dst, &ivk, &mu)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(n: usize) -> Vec<MspSigningKey> {
        (0..n)
            .map(|i| {
                let mut ikm = [0u8; 32];
                ikm[..8].copy_from_slice(&(i as u64).to_le_bytes());
                MspSigningKey::from_key_material(&ikm).unwrap()
            })
            .collect()
    }

    #[test]
    fn aggregate_round_trip_and_per_point_agreement() {
        let sks = keys(12);
        let vks: Vec<_> = sks.iter().map(MspSigningKey::verification_key).collect();
        let sigs: Vec<_> = sks.iter().map(|s| s.sign(b"checkpoint")).collect();
        for s in &sigs {
            assert_eq!(MspSignature::from_bytes(&s.to_bytes()).unwrap(), *s);
        }
        let (ivk, mu) = aggregate(&vks, &sigs).unwrap();
        assert_eq!(aggregate_per_point(&vks, &sigs).unwrap(), (ivk, mu));
        verify_aggregated(b"checkpoint", DST_MSP, &ivk, &mu).unwrap();
        verify_aggregate(b"checkpoint", &vks, &sigs).unwrap();
        assert!(verify_aggregate(b"other", &vks, &sigs).is_err());
        // The weights depend on the order: swapping two signatures (and keys)
        // changes (ivk, mu) but still verifies.
        let (mut v2, mut s2) = (vks.clone(), sigs.clone());
        v2.swap(0, 1);
        s2.swap(0, 1);
        assert_ne!(aggregate(&v2, &s2).unwrap().1, mu);
        verify_aggregate(b"checkpoint", &v2, &s2).unwrap();
        // Keys and signatures out of step do not verify.
        let mut v3 = vks.clone();
        v3.swap(0, 1);
        assert!(verify_aggregate(b"checkpoint", &v3, &sigs).is_err());
        assert_eq!(aggregate(&[], &[]), Err(MspError::Empty));
        assert_eq!(aggregate(&vks[..2], &sigs[..3]), Err(MspError::LengthMismatch { keys: 2, signatures: 3 }));
        // A single signature is returned unweighted (as in Mithril).
        assert_eq!(aggregate(&vks[..1], &sigs[..1]).unwrap(), (vks[0], sigs[0]));
    }

    #[test]
    fn weights_defeat_cancelling_signatures() {
        // sigma_0 + D and sigma_1 - D pass an unweighted sum check but not MSP.B.
        let sks = keys(3);
        let vks: Vec<_> = sks.iter().map(MspSigningKey::verification_key).collect();
        let mut sigs: Vec<_> = sks.iter().map(|s| s.sign(b"m")).collect();
        let d = g1::from_affine(&keys(4)[3].sign(b"x").0);
        let mut a = g1::from_affine(&sigs[0].0);
        g1::add_assign(&mut a, &d);
        let mut b = g1::from_affine(&sigs[1].0);
        g1::add_assign(&mut b, &g1::neg(&d));
        sigs[0] = MspSignature(g1::to_affine(&a));
        sigs[1] = MspSignature(g1::to_affine(&b));
        assert!(matches!(verify_aggregate(b"m", &vks, &sigs), Err(MspError::Bls(BlsError::VerificationFailed))));
    }

    #[test]
    fn proofs_of_possession_and_malformed_encodings() {
        let sks = keys(2);
        let vk = sks[0].verification_key();
        sks[0].prove_possession().verify(&vk).unwrap();
        assert!(sks[1].prove_possession().verify(&vk).is_err());
        let pop = MspProofOfPossession::from_bytes(&sks[0].prove_possession().to_bytes()).unwrap();
        pop.verify(&vk).unwrap();
        // A PoP is not a signature on the key bytes under the message tag.
        assert!(sks[0].sign(&vk.to_bytes()).verify(&vk.to_bytes(), &vk).is_ok());
        assert!(MspProofOfPossession(sks[0].sign(&vk.to_bytes()).0).verify(&vk).is_err());
        assert_eq!(MspVerificationKey::from_bytes(&vk.to_bytes()).unwrap(), vk);
        let mut inf = [0u8; 96];
        inf[0] = 0xc0;
        assert!(matches!(MspVerificationKey::from_bytes(&inf), Err(MspError::Bls(BlsError::Identity { .. }))));
        assert!(matches!(MspVerificationKey::from_bytes(&inf[..95]), Err(MspError::Bls(BlsError::WrongLength { .. }))));
        let mut bad = sks[0].sign(b"m").to_bytes();
        bad[0] &= 0x7f;
        assert!(matches!(MspSignature::from_bytes(&bad), Err(MspError::Bls(BlsError::BadEncoding { .. }))));
        assert!(MspSigningKey::from_bytes(&[0u8; 32]).is_err());
        assert_eq!(
            MspSigningKey::from_bytes(&sks[1].to_bytes()).unwrap().verification_key(),
            sks[1].verification_key()
        );
    }
}
