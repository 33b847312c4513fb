//! Fixtures shared by the integration tests: deterministic keys, committees
//! and signatures over a verified one-contribution ceremony.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::Mutex;

use rayon::prelude::*;
use sigagg_bls::bitfield::Bitfield;
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

/// A one-contribution ceremony (deterministic test entropy), just large
/// enough for `n` keys; made and verified once per size and process.
pub fn setup_for(n: usize) -> Setup {
    static SETUPS: Mutex<BTreeMap<usize, Setup>> = Mutex::new(BTreeMap::new());
    let powers = Domain::with_at_least(n + 1).unwrap().size();
    let mut setups = SETUPS.lock().unwrap();
    setups
        .entry(powers)
        .or_insert_with(|| {
            let mut setup = Setup::ceremony_start(powers).unwrap();
            setup.contribute(&[0x5e; 64]).unwrap();
            setup.check_for_committees().unwrap();
            setup
        })
        .clone()
}

/// The insecure development setup, just large enough for `n` keys.
pub fn development_setup_for(n: usize) -> Setup {
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
