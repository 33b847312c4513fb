//! Proofs of possession: the defence against rogue-key attacks.
//!
//! Aggregating public keys by addition lets an attacker publish
//! `pk* = x*G - sum(honest keys)` and then sign alone for the whole group.
//! A proof of possession (a signature of the key's own bytes under the
//! separate tag [`DST_POP`]) can only be made with the secret key, so a key
//! that comes with a valid proof is not such a combination.

use crate::error::{BlsError, Object};
use crate::keys::{PublicKey, SecretKey};
use crate::sig::{DST_POP, SIGNATURE_BYTES, Signature, core_verify};

/// A proof of possession of a secret key (a G2 point, 96 bytes compressed).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ProofOfPossession(Signature);

impl ProofOfPossession {
    /// `PopProve`: signs the compressed public key under [`DST_POP`].
    pub fn prove(sk: &SecretKey) -> ProofOfPossession {
        let pk = sk.public_key().to_bytes();
        ProofOfPossession(sk.sign_with_dst(&pk, DST_POP))
    }

    /// `PopVerify` for `pk`.
    pub fn verify(&self, pk: &PublicKey) -> Result<(), BlsError> {
        if core_verify(pk.point(), &pk.to_bytes(), DST_POP, self.0.point()) {
            Ok(())
        } else {
            Err(BlsError::InvalidProofOfPossession { index: 0 })
        }
    }

    /// Decodes 96 bytes with the curve and subgroup checks.
    pub fn from_bytes(bytes: &[u8]) -> Result<ProofOfPossession, BlsError> {
        Signature::from_bytes(bytes).map(ProofOfPossession).map_err(|e| match e {
            BlsError::WrongLength { expected, got, .. } => {
                BlsError::WrongLength { what: Object::ProofOfPossession, expected, got }
            }
            BlsError::BadEncoding { .. } => BlsError::BadEncoding { what: Object::ProofOfPossession },
            BlsError::NotOnCurve { .. } => BlsError::NotOnCurve { what: Object::ProofOfPossession },
            BlsError::NotInSubgroup { .. } => BlsError::NotInSubgroup { what: Object::ProofOfPossession },
            other => other,
        })
    }

    /// The 96-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; SIGNATURE_BYTES] {
        self.0.to_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::g1;
    use crate::sig::fast_aggregate_verify;

    #[test]
    fn pop_round_trip() {
        let sk = SecretKey::from_key_material(&[5u8; 32]).unwrap();
        let pop = sk.prove_possession();
        pop.verify(&sk.public_key()).unwrap();
        let decoded = ProofOfPossession::from_bytes(&pop.to_bytes()).unwrap();
        decoded.verify(&sk.public_key()).unwrap();
        let other = SecretKey::from_key_material(&[6u8; 32]).unwrap();
        assert!(matches!(pop.verify(&other.public_key()), Err(BlsError::InvalidProofOfPossession { .. })));
    }

    #[test]
    fn pop_uses_its_own_tag() {
        let sk = SecretKey::from_key_material(&[8u8; 32]).unwrap();
        let pk = sk.public_key();
        // A message signature on the key's bytes is not a proof of possession...
        let as_message = sk.sign(&pk.to_bytes());
        let fake = ProofOfPossession(as_message);
        assert!(fake.verify(&pk).is_err());
        // ...and a proof of possession is not a signature on the key's bytes.
        let pop = sk.prove_possession();
        assert!(Signature::from_bytes(&pop.to_bytes()).unwrap().verify(&pk, &pk.to_bytes()).is_err());
    }

    #[test]
    fn rogue_key_forges_without_pop_but_has_no_valid_proof() {
        // Honest key pk_h; attacker picks x and publishes pk* = x*G - pk_h.
        let honest = SecretKey::from_key_material(&[1u8; 32]).unwrap();
        let pk_h = honest.public_key();
        let x = SecretKey::from_key_material(&[2u8; 32]).unwrap();
        let mut rogue = g1::from_affine(x.public_key().point());
        g1::add_assign(&mut rogue, &g1::neg(&g1::from_affine(pk_h.point())));
        let rogue = PublicKey::from_affine_unchecked(g1::to_affine(&rogue)).unwrap();
        // Without PoP checks, the attacker alone "aggregates" for both keys.
        let forged = x.sign(b"transfer everything");
        fast_aggregate_verify(&[pk_h, rogue], b"transfer everything", &forged).unwrap();
        // The attacker cannot prove possession of pk*: its best try (a proof made
        // with x) does not verify for pk*.
        let attempt = ProofOfPossession::prove(&x);
        assert!(attempt.verify(&rogue).is_err());
    }
}
