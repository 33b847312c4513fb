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
#[derive(Clone, Default)]
pub struct KeyRegistry {
    keys: Vec<PublicKey>,
    index: HashMap<[u8; PUBLIC_KEY_BYTES], usize>,
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
            return Err(BlsError::DuplicateKey {
                first,
                second: self.keys.len(),
            });
        }
        pop.verify(&key)
            .map_err(|_| BlsError::InvalidProofOfPossession {
                index: self.keys.len(),
            })?;
        self.index.insert(bytes, self.keys.len());
        self.keys.push(key);
        Ok(self.keys.len() - 1)
    }

    /// Registers many keys, checking the proofs in parallel. Fails on the
    /// first (lowest-index) invalid proof or duplicate key.
    pub fn from_keys_with_proofs(
        entries: &[(PublicKey, ProofOfPossession)],
    ) -> Result<KeyRegistry, BlsError> {
        let bad = entries
            .par_iter()
            .enumerate()
            .filter(|(_, (k, p))| p.verify(k).is_err())
            .map(|(i, _)| i)
            .min();
        if let Some(index) = bad {
            return Err(BlsError::InvalidProofOfPossession { index });
        }
        KeyRegistry::from_proven_keys(entries.iter().map(|(k, _)| *k).collect())
    }

    /// Builds a registry from keys whose possession was established before
    /// (for example when they were deposited, or because this process made
    /// them from their secret keys). Only duplicates are checked here.
    pub fn from_proven_keys(keys: Vec<PublicKey>) -> Result<KeyRegistry, BlsError> {
        let mut index = HashMap::with_capacity(keys.len());
        for (i, k) in keys.iter().enumerate() {
            if let Some(first) = index.insert(k.to_bytes(), i) {
                return Err(BlsError::DuplicateKey { first, second: i });
            }
        }
        Ok(KeyRegistry { keys, index })
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
        self.keys.get(index).ok_or(BlsError::IndexOutOfRange {
            index,
            len: self.keys.len(),
        })
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
        assert_eq!(
            reg.register(a.public_key(), &a.prove_possession()).unwrap(),
            0
        );
        // Rogue: b's key with a's proof.
        assert_eq!(
            reg.register(b.public_key(), &a.prove_possession()),
            Err(BlsError::InvalidProofOfPossession { index: 1 })
        );
        assert_eq!(
            reg.register(b.public_key(), &b.prove_possession()).unwrap(),
            1
        );
        assert_eq!(
            reg.register(a.public_key(), &a.prove_possession()),
            Err(BlsError::DuplicateKey {
                first: 0,
                second: 2
            })
        );
        assert_eq!(reg.position(&b.public_key()), Some(1));
        assert!(matches!(
            reg.get(5),
            Err(BlsError::IndexOutOfRange { index: 5, len: 2 })
        ));
    }

    #[test]
    fn bulk_registration_reports_the_first_bad_proof() {
        let sks: Vec<SecretKey> = (1..6).map(sk).collect();
        let mut entries: Vec<(PublicKey, ProofOfPossession)> = sks
            .iter()
            .map(|s| (s.public_key(), s.prove_possession()))
            .collect();
        let reg = KeyRegistry::from_keys_with_proofs(&entries).unwrap();
        assert_eq!(reg.len(), 5);
        entries[3].1 = entries[2].1;
        entries[4].1 = entries[2].1;
        assert!(matches!(
            KeyRegistry::from_keys_with_proofs(&entries),
            Err(BlsError::InvalidProofOfPossession { index: 3 })
        ));
        let dup = vec![
            sks[0].public_key(),
            sks[1].public_key(),
            sks[0].public_key(),
        ];
        assert!(matches!(
            KeyRegistry::from_proven_keys(dup),
            Err(BlsError::DuplicateKey {
                first: 0,
                second: 2
            })
        ));
    }
}
