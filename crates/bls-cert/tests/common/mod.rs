//! Fixtures shared by the integration tests: deterministic keys, committees
//! and signatures over the insecure development setup.
#![allow(dead_code)]

use rayon::prelude::*;
use sigagg_bls::horn::Bitfield;
use sigagg_bls::{KeyRegistry, PublicKey, SecretKey, Signature, aggregate};
use sigagg_bls_cert::domain::Domain;
use sigagg_bls_cert::{Committee, Setup};

pub const MESSAGE: &[u8] = b"block root 0x0badc0de";

/// Deterministic secret keys `seed, seed+1, ...`.
pub fn secret_keys(n: usize, seed: u64) -> Vec<SecretKey> {
    (0..n as u64)
        .into_par_iter()
        .map(|i| {
            let mut ikm = [0u8; 32];
            ikm[..8].copy_from_slice(&(seed + i).to_le_bytes());
            ikm[8] = 0xa5;
            SecretKey::from_key_material(&ikm).unwrap()
        })
        .collect()
}

/// A registry of the keys, with their proofs of possession checked.
pub fn registry(sks: &[SecretKey]) -> KeyRegistry {
    let entries: Vec<_> = sks.par_iter().map(|sk| (sk.public_key(), sk.prove_possession())).collect();
    KeyRegistry::from_keys_with_proofs(&entries).unwrap()
}

/// The development setup, just large enough for `n` keys.
pub fn setup_for(n: usize) -> Setup {
    Setup::insecure_development(Domain::with_at_least(n + 1).unwrap().size()).unwrap()
}

/// Weights 1, 2, 3, ...
pub fn weights(n: usize) -> Vec<u64> {
    (1..=n as u64).collect()
}

/// A committee of `sks`, weighted or not.
pub fn committee(setup: &Setup, sks: &[SecretKey], weighted: bool) -> Committee {
    Committee::new(setup, registry(sks), weighted.then(|| weights(sks.len()))).unwrap()
}

/// The bitfield with the given members set.
pub fn bitfield(n: usize, members: &[usize]) -> Bitfield {
    let mut b = Bitfield::new(n);
    for &i in members {
        b.set(i).unwrap();
    }
    b
}

/// Each member's (key, signature) on `message`.
pub fn signatures(sks: &[SecretKey], members: &[usize], message: &[u8]) -> Vec<(PublicKey, Signature)> {
    members.par_iter().map(|&i| (sks[i].public_key(), sks[i].sign(message))).collect()
}

/// The aggregate signature of the members.
pub fn aggregate_of(sks: &[SecretKey], members: &[usize], message: &[u8]) -> Signature {
    let sigs: Vec<Signature> = signatures(sks, members, message).into_iter().map(|(_, s)| s).collect();
    aggregate(&sigs).unwrap()
}
