//! Keys, signatures and proofs of possession in mithril-stm's BLS
//! min-sig setting: keys `mvk` in G2 (96 bytes), signatures in G1
//! (48 bytes), hashing to G1 with blst's *empty* tag. The arithmetic is
//! `sigagg-bls`'s MSP.B ([`sigagg_bls::msp`]); this module adds Mithril's
//! proof of possession and the byte rules of mithril-stm.

use blst::{blst_fp12, blst_p1_affine};
use rand::CryptoRng;
use serde::{Deserialize, Serialize};
use sigagg_bls::curve::{g1, g2};
use sigagg_bls::msp::{DST_MITHRIL, MspSignature, MspSigningKey, MspVerificationKey};

use crate::codec::{self, Fixed};
use crate::error::{Item, MithrilError};

/// Bytes of a signing key.
pub const SIGNING_KEY_BYTES: usize = 32;
/// Bytes of a compressed verification key `mvk` (G2).
pub const VERIFICATION_KEY_BYTES: usize = 96;
/// Bytes of a compressed signature σ (G1).
pub const SIGNATURE_BYTES: usize = 48;
/// Bytes of a proof of possession `k1 ‖ k2`.
pub const POP_BYTES: usize = 96;
/// The message `k1` signs: mithril-stm signs these three bytes alone (its
/// doc comment says `H("PoP" ‖ mvk)`, its code does not append `mvk`; `k2`
/// is what binds the proof to the key).
pub const POP_MESSAGE: &[u8] = b"PoP";

/// A signing key: a nonzero scalar below the group order.
#[derive(Clone, Debug)]
pub struct SigningKey(MspSigningKey);

/// A verification key `mvk = sk·g2`, on the curve, in the subgroup, not the
/// identity (mithril-stm's `key_validate`). Ordered by its compressed bytes,
/// as mithril-stm orders keys.
#[derive(Clone, Copy, Debug)]
pub struct VerificationKey {
    bytes: [u8; VERIFICATION_KEY_BYTES],
    key: MspVerificationKey,
}

/// A BLS signature σ in G1: on the curve, in the subgroup, not the identity
/// (mithril-stm's `sig_validate`). Ordered by its compressed bytes, the
/// order the clerk uses to settle an index two signers claim.
#[derive(Clone, Copy, Debug)]
pub struct Signature {
    bytes: [u8; SIGNATURE_BYTES],
    sig: MspSignature,
}

/// Mithril's proof of possession: `k1 = sk·H("PoP")` (a signature on
/// [`POP_MESSAGE`]) and `k2 = sk·g1`, checked by `e(g1, mvk) = e(k2, g2)`
/// and `k1` verifying under `mvk`.
#[derive(Clone, Copy, Debug)]
pub struct ProofOfPossession {
    k1: MspSignature,
    k2: blst_p1_affine,
}

/// A verification key with its proof of possession: what a party submits
/// to register (mithril-stm's `VerificationKeyProofOfPossessionForConcatenation`).
#[derive(Clone, Copy, Debug)]
pub struct VerificationKeyPop {
    /// The key.
    pub vk: VerificationKey,
    /// Its proof of possession.
    pub pop: ProofOfPossession,
}

impl SigningKey {
    /// A fresh key: 32 bytes from `rng` as key material, as mithril-stm's
    /// `Initializer::new` draws them.
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> SigningKey {
        let mut ikm = [0u8; 32];
        rng.fill_bytes(&mut ikm);
        let key = SigningKey::from_key_material(&ikm);
        ikm.fill(0);
        match key {
            Ok(key) => key,
            Err(_) => unreachable!("32 bytes of key material always make a key"),
        }
    }

    /// IETF KeyGen (`key_gen(ikm, [])`) on at least 32 bytes of key material.
    pub fn from_key_material(ikm: &[u8]) -> Result<SigningKey, MithrilError> {
        MspSigningKey::from_key_material(ikm).map(SigningKey).map_err(|e| bls_error(Item::SigningKey, e))
    }

    /// Decodes the 32-byte big-endian scalar (zero and `≥ r` refused).
    pub fn from_bytes(bytes: &[u8]) -> Result<SigningKey, MithrilError> {
        MspSigningKey::from_bytes(bytes).map(SigningKey).map_err(|e| bls_error(Item::SigningKey, e))
    }

    /// The 32-byte big-endian scalar.
    pub fn to_bytes(&self) -> [u8; SIGNING_KEY_BYTES] {
        self.0.to_bytes()
    }

    /// `mvk = sk·g2`.
    pub fn verification_key(&self) -> VerificationKey {
        let key = self.0.verification_key();
        VerificationKey { bytes: key.to_bytes(), key }
    }

    /// The proof of possession `(k1, k2)`.
    pub fn proof_of_possession(&self) -> ProofOfPossession {
        let k1 = self.0.sign_with_dst(POP_MESSAGE, DST_MITHRIL);
        let mut le = self.0.to_bytes();
        le.reverse();
        let k2 = g1::to_affine(&g1::mul(&g1::affine_generator(), &le, 255));
        le.fill(0);
        ProofOfPossession { k1, k2 }
    }

    /// The key with its proof of possession, ready to register.
    pub fn verification_key_pop(&self) -> VerificationKeyPop {
        VerificationKeyPop { vk: self.verification_key(), pop: self.proof_of_possession() }
    }

    /// σ on `msg` with the empty tag.
    pub(crate) fn sign(&self, msg: &[u8]) -> Signature {
        let sig = self.0.sign_with_dst(msg, DST_MITHRIL);
        Signature { bytes: sig.to_bytes(), sig }
    }
}

impl VerificationKey {
    /// Decodes exactly 96 bytes: compressed, on the curve, in the subgroup,
    /// not the identity.
    pub fn from_bytes(bytes: &[u8]) -> Result<VerificationKey, MithrilError> {
        let key = MspVerificationKey::from_bytes(bytes).map_err(|e| bls_error(Item::VerificationKey, e))?;
        Ok(VerificationKey { bytes: key.to_bytes(), key })
    }

    /// The 96-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; VERIFICATION_KEY_BYTES] {
        self.bytes
    }

    /// The key as `sigagg-bls` MSP.B uses it.
    pub fn msp(&self) -> &MspVerificationKey {
        &self.key
    }
}

impl Signature {
    /// Decodes exactly 48 bytes: compressed, on the curve, in the subgroup,
    /// not the identity.
    pub fn from_bytes(bytes: &[u8]) -> Result<Signature, MithrilError> {
        if bytes.len() == SIGNATURE_BYTES && bytes[0] & 0x40 != 0 {
            return Err(MithrilError::value(Item::Signature, "the identity is not a signature"));
        }
        let sig = MspSignature::from_bytes(bytes).map_err(|e| bls_error(Item::Signature, e))?;
        Ok(Signature { bytes: sig.to_bytes(), sig })
    }

    /// The 48-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; SIGNATURE_BYTES] {
        self.bytes
    }

    /// The signature as `sigagg-bls` MSP.B uses it.
    pub fn msp(&self) -> &MspSignature {
        &self.sig
    }

    /// Checks σ on `msg` under `vk` with the empty tag.
    pub fn verify(&self, msg: &[u8], vk: &VerificationKey) -> Result<(), MithrilError> {
        self.sig.verify_with_dst(msg, DST_MITHRIL, &vk.key).map_err(|_| MithrilError::SignatureInvalid)
    }
}

impl ProofOfPossession {
    /// Decodes `k1 ‖ k2` (96 bytes). Both points must be compressed, on the
    /// curve and in the subgroup. mithril-stm is laxer here (it checks `k1`
    /// on the curve only and ignores a `k2` that does not decode, which then
    /// fails the pairing check at registration); such proofs are refused
    /// when read instead.
    pub fn from_bytes(bytes: &[u8]) -> Result<ProofOfPossession, MithrilError> {
        if bytes.len() != POP_BYTES {
            return Err(MithrilError::value(Item::ProofOfPossession, format!("{} bytes, not 96", bytes.len())));
        }
        let k1 = MspSignature::from_bytes(&bytes[..48]).map_err(|e| bls_error(Item::ProofOfPossession, e))?;
        let k2 = g1::decompress(&bytes[48..])
            .map_err(|e| MithrilError::value(Item::ProofOfPossession, format!("k2: {e:?}")))?;
        Ok(ProofOfPossession { k1, k2 })
    }

    /// `k1 ‖ k2`, each 48 compressed bytes.
    pub fn to_bytes(&self) -> [u8; POP_BYTES] {
        let mut out = [0u8; POP_BYTES];
        out[..48].copy_from_slice(&self.k1.to_bytes());
        out[48..].copy_from_slice(&g1::compress(&self.k2));
        out
    }

    /// Checks the proof for `vk`: `e(g1, mvk) = e(k2, g2)` and `k1` signs
    /// [`POP_MESSAGE`] under `mvk`.
    pub fn verify(&self, vk: &VerificationKey) -> Result<(), MithrilError> {
        let mvk = g2::decompress(&vk.bytes).map_err(|_| MithrilError::InvalidProofOfPossession)?;
        let left = blst_fp12::miller_loop(&mvk, &g1::affine_generator());
        let right = blst_fp12::miller_loop(&g2::affine_generator(), &self.k2);
        if g1::is_identity(&self.k2) || !blst_fp12::finalverify(&left, &right) {
            return Err(MithrilError::InvalidProofOfPossession);
        }
        self.k1.verify_with_dst(POP_MESSAGE, DST_MITHRIL, &vk.key).map_err(|_| MithrilError::InvalidProofOfPossession)
    }
}

impl VerificationKeyPop {
    /// `mvk ‖ k1 ‖ k2` (192 bytes), mithril-stm's `to_canonical_bytes`.
    pub fn to_bytes(&self) -> [u8; VERIFICATION_KEY_BYTES + POP_BYTES] {
        let mut out = [0u8; VERIFICATION_KEY_BYTES + POP_BYTES];
        out[..96].copy_from_slice(&self.vk.bytes);
        out[96..].copy_from_slice(&self.pop.to_bytes());
        out
    }

    /// Reads exactly 192 bytes of [`VerificationKeyPop::to_bytes`]; the proof is
    /// not checked here (registration checks it).
    pub fn from_bytes(bytes: &[u8]) -> Result<VerificationKeyPop, MithrilError> {
        if bytes.len() != VERIFICATION_KEY_BYTES + POP_BYTES {
            return Err(MithrilError::value(Item::VerificationKeyPop, format!("{} bytes, not 192", bytes.len())));
        }
        Ok(VerificationKeyPop {
            vk: VerificationKey::from_bytes(&bytes[..96])?,
            pop: ProofOfPossession::from_bytes(&bytes[96..])?,
        })
    }

    /// Checks the proof of possession for the key.
    pub fn verify(&self) -> Result<(), MithrilError> {
        self.pop.verify(&self.vk)
    }

    /// `{"vk":[96 integers],"pop":[96 integers]}`, mithril-stm's serde shape.
    pub fn to_json(&self) -> String {
        codec::to_json(&VkPopWire { vk: Fixed(self.vk.bytes), pop: Fixed(self.pop.to_bytes()) })
    }

    /// Reads the JSON shape of [`VerificationKeyPop::to_json`].
    pub fn from_json(json: &str) -> Result<VerificationKeyPop, MithrilError> {
        let w: VkPopWire = codec::from_json(json, Item::VerificationKeyPop)?;
        Ok(VerificationKeyPop {
            vk: VerificationKey::from_bytes(&w.vk.0)?,
            pop: ProofOfPossession::from_bytes(&w.pop.0)?,
        })
    }
}

#[derive(Serialize, Deserialize)]
struct VkPopWire {
    vk: Fixed<96>,
    pop: Fixed<96>,
}

fn bls_error(what: Item, e: sigagg_bls::msp::MspError) -> MithrilError {
    match e {
        sigagg_bls::msp::MspError::Bls(source) => MithrilError::Bls { what, source },
        other => MithrilError::value(what, other),
    }
}

macro_rules! ordered_by_bytes {
    ($t:ty) => {
        impl PartialEq for $t {
            fn eq(&self, other: &Self) -> bool {
                self.bytes == other.bytes
            }
        }
        impl Eq for $t {}
        impl PartialOrd for $t {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for $t {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.bytes.cmp(&other.bytes)
            }
        }
        impl std::hash::Hash for $t {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.bytes.hash(state)
            }
        }
    };
}

ordered_by_bytes!(VerificationKey);
ordered_by_bytes!(Signature);

impl PartialEq for ProofOfPossession {
    fn eq(&self, other: &Self) -> bool {
        self.to_bytes() == other.to_bytes()
    }
}

impl Eq for ProofOfPossession {}
