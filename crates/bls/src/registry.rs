//! The key registry: public keys whose proof of possession has been checked
//! once, at registration, and is never re-checked.
//!
//! Aggregation (Horn collections, ATMS aggregate keys, fast aggregate
//! verification) is only safe over keys that proved possession; taking keys
//! from a [`KeyRegistry`] makes that explicit and lets the expensive check
//! (one pairing per key) be paid once instead of per aggregate.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::error::BlsError;
use crate::keys::{PUBLIC_KEY_BYTES, PublicKey};
use crate::pop::ProofOfPossession;

/// An ordered list of distinct public keys with proven possession; a key's
/// position is its validator index.
///
/// A registry is made from `(key, proof of possession)` pairs, each proof
/// checked ([`KeyRegistry::register`], [`KeyRegistry::from_keys_with_proofs`]),
/// and then keeps the proofs, so that whatever is built on it (a BLS
/// certificate committee) can write them out and a reader can check them
/// again. [`KeyRegistry::from_keys_unchecked`] is the one exception: its
/// registry holds no proofs ([`KeyRegistry::proofs`] is `None`), and a
/// certificate committee refuses it.
#[derive(Clone)]
pub struct KeyRegistry {
    keys: Vec<PublicKey>,
    /// One checked proof per key; `None` once an unchecked key is in.
    proofs: Option<Vec<ProofOfPossession>>,
    index: HashMap<[u8; PUBLIC_KEY_BYTES], usize>,
}

impl Default for KeyRegistry {
    fn default() -> KeyRegistry {
        KeyRegistry { keys: Vec::new(), proofs: Some(Vec::new()), index: HashMap::new() }
    }
}

impl KeyRegistry {
    /// An empty registry.
    pub fn new() -> KeyRegistry {
        KeyRegistry::default()
    }

    /// Registers one key after checking its proof of possession; returns its index.
    /// A key without a valid proof (a possible rogue key) or a key already
    /// registered is refused.
    pub fn register(&mut self, key: PublicKey, pop: &ProofOfPossession) -> Result<usize, BlsError> {
        let bytes = key.to_bytes();
        if let Some(&first) = self.index.get(&bytes) {
            return Err(BlsError::DuplicateKey { first, second: self.keys.len() });
        }
        pop.verify(&key).map_err(|_| BlsError::InvalidProofOfPossession { index: self.keys.len() })?;
        self.index.insert(bytes, self.keys.len());
        self.keys.push(key);
        if let Some(proofs) = &mut self.proofs {
            proofs.push(*pop);
        }
        Ok(self.keys.len() - 1)
    }

    /// Registers many keys, checking the proofs in parallel. Fails on the
    /// first (lowest-index) invalid proof or duplicate key.
    pub fn from_keys_with_proofs(entries: &[(PublicKey, ProofOfPossession)]) -> Result<KeyRegistry, BlsError> {
        let bad = entries.par_iter().enumerate().filter(|(_, (k, p))| p.verify(k).is_err()).map(|(i, _)| i).min();
        if let Some(index) = bad {
            return Err(BlsError::InvalidProofOfPossession { index });
        }
        let mut registry = KeyRegistry::from_keys_unchecked(entries.iter().map(|(k, _)| *k).collect())?;
        registry.proofs = Some(entries.iter().map(|(_, p)| *p).collect());
        Ok(registry)
    }

    /// Builds a registry **without checking possession**: only duplicates
    /// are refused. For keys whose possession this process established
    /// itself (it made them from their secret keys, or checked their proofs
    /// before, as Ethereum does once at deposit). Never for keys read from
    /// a file or from bytes of unknown origin: a key chosen as
    /// `a·g1 - (sum of the others)` lets its author sign for everyone.
    /// The registry holds no proofs, and certificate committees refuse it.
    pub fn from_keys_unchecked(keys: Vec<PublicKey>) -> Result<KeyRegistry, BlsError> {
        let mut index = HashMap::with_capacity(keys.len());
        for (i, k) in keys.iter().enumerate() {
            if let Some(first) = index.insert(k.to_bytes(), i) {
                return Err(BlsError::DuplicateKey { first, second: i });
            }
        }
        Ok(KeyRegistry { keys, proofs: None, index })
    }

    /// The checked proofs of possession, by index; `None` for a registry
    /// with unchecked keys ([`KeyRegistry::from_keys_unchecked`]).
    pub fn proofs(&self) -> Option<&[ProofOfPossession]> {
        self.proofs.as_deref()
    }

    /// All keys, by index.
    pub fn keys(&self) -> &[PublicKey] {
        &self.keys
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the registry is empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The key at `index`.
    pub fn get(&self, index: usize) -> Result<&PublicKey, BlsError> {
        self.keys.get(index).ok_or(BlsError::IndexOutOfRange { index, len: self.keys.len() })
    }

    /// The index of `key`, if registered.
    pub fn position(&self, key: &PublicKey) -> Option<usize> {
        self.index.get(&key.to_bytes()).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::SecretKey;

    fn sk(i: u8) -> SecretKey {
        SecretKey::from_key_material(&[i; 32]).unwrap()
    }

    #[test]
    fn registers_proven_keys_and_refuses_rogue_and_duplicate_keys() {
        let mut reg = KeyRegistry::new();
        let a = sk(1);
        let b = sk(2);
        assert_eq!(reg.register(a.public_key(), &a.prove_possession()).unwrap(), 0);
        // Rogue: b's key with a's proof.
        assert_eq!(
            reg.register(b.public_key(), &a.prove_possession()),
            Err(BlsError::InvalidProofOfPossession { index: 1 })
        );
        assert_eq!(reg.register(b.public_key(), &b.prove_possession()).unwrap(), 1);
        assert_eq!(
            reg.register(a.public_key(), &a.prove_possession()),
            Err(BlsError::DuplicateKey { first: 0, second: 2 })
        );
        assert_eq!(reg.position(&b.public_key()), Some(1));
        assert_eq!(reg.proofs().unwrap(), &[a.prove_possession(), b.prove_possession()]);
        assert!(matches!(reg.get(5), Err(BlsError::IndexOutOfRange { index: 5, len: 2 })));
    }

    #[test]
    fn bulk_registration_reports_the_first_bad_proof() {
        let sks: Vec<SecretKey> = (1..6).map(sk).collect();
        let mut entries: Vec<(PublicKey, ProofOfPossession)> =
            sks.iter().map(|s| (s.public_key(), s.prove_possession())).collect();
        let reg = KeyRegistry::from_keys_with_proofs(&entries).unwrap();
        assert_eq!(reg.len(), 5);
        assert_eq!(reg.proofs().unwrap(), &entries.iter().map(|(_, p)| *p).collect::<Vec<_>>()[..]);
        let unchecked = KeyRegistry::from_keys_unchecked(reg.keys().to_vec()).unwrap();
        assert!(unchecked.proofs().is_none(), "an unchecked registry holds no proofs");
        entries[3].1 = entries[2].1;
        entries[4].1 = entries[2].1;
        assert!(matches!(
            KeyRegistry::from_keys_with_proofs(&entries),
            Err(BlsError::InvalidProofOfPossession { index: 3 })
        ));
        let dup = vec![sks[0].public_key(), sks[1].public_key(), sks[0].public_key()];
        assert!(matches!(KeyRegistry::from_keys_unchecked(dup), Err(BlsError::DuplicateKey { first: 0, second: 2 })));
    }
}
