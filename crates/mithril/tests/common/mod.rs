//! The same parties, registration and signatures built with sigagg-mithril
//! and with mithril-stm 0.13.0, side by side.

#![allow(dead_code)]

use mithril_stm_013 as stm;
use sigagg_mithril::{
    AggregateSignature, AggregateVerificationKey, ClosedRegistration, KeyRegistration, Parameters, Signer, SigningKey,
    SingleSignature,
};

/// mithril-stm's membership digest (Blake2b-256).
pub type D = stm::MithrilMembershipDigest;

/// A rand_core 0.6 RNG that hands out fixed key material: mithril-stm's
/// `Initializer::new` draws exactly 32 bytes, its IKM, so this fixes the
/// key both sides derive.
pub struct IkmRng {
    bytes: [u8; 32],
    at: usize,
}

impl IkmRng {
    pub fn new(bytes: [u8; 32]) -> IkmRng {
        IkmRng { bytes, at: 0 }
    }
}

impl rand_core_06::RngCore for IkmRng {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for d in dest {
            *d = self.bytes[self.at % 32];
            self.at += 1;
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core_06::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl rand_core_06::CryptoRng for IkmRng {}

/// Key material of party `i` in world `seed`.
pub fn ikm(seed: u64, i: usize) -> [u8; 32] {
    let mut b = [0xa5u8; 32];
    b[..8].copy_from_slice(&seed.to_be_bytes());
    b[8..16].copy_from_slice(&(i as u64).to_be_bytes());
    b
}

pub fn stm_params(p: &Parameters) -> stm::Parameters {
    stm::Parameters { m: p.m, k: p.k, phi_f: p.phi_f }
}

/// n parties registered on both sides.
pub struct World {
    pub params: Parameters,
    pub stakes: Vec<u64>,
    pub keys: Vec<SigningKey>,
    pub ours: ClosedRegistration,
    pub theirs: stm::ClosedKeyRegistration,
    pub inits: Vec<stm::Initializer>,
}

impl World {
    pub fn new(seed: u64, params: Parameters, stakes: &[u64]) -> World {
        let keys: Vec<SigningKey> =
            (0..stakes.len()).map(|i| SigningKey::from_key_material(&ikm(seed, i)).unwrap()).collect();
        let inits: Vec<stm::Initializer> = stakes
            .iter()
            .enumerate()
            .map(|(i, &s)| stm::Initializer::new(stm_params(&params), s, &mut IkmRng::new(ikm(seed, i))))
            .collect();
        let mut reg = KeyRegistration::new();
        let mut their_reg = stm::KeyRegistration::initialize();
        for (i, &s) in stakes.iter().enumerate() {
            reg.register(s, &keys[i].verification_key_pop()).unwrap();
            their_reg.register(s, &inits[i].get_verification_key_proof_of_possession_for_concatenation()).unwrap();
        }
        World {
            params,
            stakes: stakes.to_vec(),
            keys,
            ours: reg.close().unwrap(),
            theirs: their_reg.close_registration(&stm_params(&params)).unwrap(),
            inits,
        }
    }

    pub fn avk(&self) -> AggregateVerificationKey {
        self.ours.aggregate_verification_key()
    }

    pub fn their_avk(&self) -> stm::AggregateVerificationKey<D> {
        stm::AggregateVerificationKey::<D>::from(&self.theirs)
    }

    pub fn signer(&self, i: usize) -> Signer {
        Signer::new(self.keys[i].clone(), self.stakes[i], &self.ours, self.params).unwrap()
    }

    pub fn their_signer(&self, i: usize) -> stm::Signer<D> {
        self.inits[i].clone().try_create_signer::<D>(&self.theirs).unwrap()
    }

    /// Both sides' single signatures of every party that wins an index.
    pub fn sign_all(&self, msg: &[u8]) -> (Vec<SingleSignature>, Vec<stm::SingleSignature>) {
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for i in 0..self.keys.len() {
            let a = self.signer(i).sign(msg);
            let b = self.their_signer(i).create_single_signature(msg);
            assert_eq!(a.is_ok(), b.is_ok(), "party {i}: one side won an index, the other none");
            if let (Ok(a), Ok(b)) = (a, b) {
                ours.push(a);
                theirs.push(b);
            }
        }
        (ours, theirs)
    }

    pub fn their_clerk(&self) -> stm::Clerk<D> {
        stm::Clerk::<D>::new_clerk_from_closed_key_registration(&stm_params(&self.params), &self.theirs)
    }

    pub fn their_aggregate(
        &self,
        sigs: &[stm::SingleSignature],
        msg: &[u8],
    ) -> Result<stm::AggregateSignature<D>, String> {
        self.their_clerk()
            .aggregate_signatures_with_type(
                sigs,
                msg,
                stm::AggregateSignatureType::Concatenation,
                stm::AncillaryProofInput::new(None, stm::AncillaryGenesisData::new()),
            )
            .map(|(a, _)| a)
            .map_err(|e| format!("{e:#}"))
    }

    /// mithril-stm's verdict on certificate bytes (decode and verify).
    pub fn their_verify_bytes(&self, bytes: &[u8], msg: &[u8]) -> Result<(), String> {
        let sig = stm::AggregateSignature::<D>::from_bytes(bytes).map_err(|e| format!("{e:#}"))?;
        sig.verify(msg, &self.their_avk(), &stm_params(&self.params), None, None).map_err(|e| format!("{e:#}"))
    }

    /// sigagg's verdict on certificate bytes (decode and verify).
    pub fn our_verify_bytes(&self, bytes: &[u8], msg: &[u8]) -> Result<(), sigagg_mithril::MithrilError> {
        AggregateSignature::from_bytes(bytes)?.verify(msg, &self.avk(), &self.params)
    }
}

/// mithril-stm's single signature as sigagg reads it.
pub fn ours_from_theirs(s: &stm::SingleSignature) -> SingleSignature {
    SingleSignature::from_bytes(&s.to_bytes().unwrap()).unwrap()
}

/// sigagg's single signature as mithril-stm reads it.
pub fn theirs_from_ours(s: &SingleSignature) -> stm::SingleSignature {
    stm::SingleSignature::from_bytes::<D>(&s.to_bytes()).unwrap()
}

pub fn their_vk(w: &World, i: usize) -> stm::VerificationKeyForConcatenation {
    stm::VerificationKeyForConcatenation::from_canonical_bytes(&w.keys[i].verification_key().to_bytes()).unwrap()
}
