//! Negative and malformed-input tests for every parameter set: every
//! single-field corruption of a signature or key, wrong messages, epochs and
//! keys are rejected; decoding random or truncated bytes never panics.

use p3_field::PrimeCharacteristicRing;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use sigagg_xmss::field::{F, FeArray};
use sigagg_xmss::{
    DecodeError, LeanSigProd, ParameterSet, PublicKey, Seed001, Signature, Test, VerifyError,
    single_epoch_key_and_signature, verify,
};

const MESSAGE: [u8; 32] = *b"robustness tests sign this root.";

fn bump<T: FeArray>(x: &T, i: usize) -> T {
    T::generate(|k| if k == i { x.as_slice()[k] + F::ONE } else { x.as_slice()[k] })
}

fn fixture<S: ParameterSet>(seed: u64, epoch: u32) -> (PublicKey<S>, Signature<S>) {
    let mut rng = StdRng::seed_from_u64(seed);
    single_epoch_key_and_signature::<S, _>(&mut rng, epoch, &MESSAGE).unwrap()
}

fn every_field_corruption_rejected<S: ParameterSet>() {
    let epoch = (1234 % S::lifetime()) as u32;
    let (pk, sig) = fixture::<S>(1, epoch);
    assert_eq!(verify(&pk, epoch, &MESSAGE, &sig), Ok(()));
    let rejected = |s: &Signature<S>| verify(&pk, epoch, &MESSAGE, s).is_err();

    for (n, node) in sig.co_path().iter().enumerate() {
        for i in 0..S::Digest::LEN {
            let mut path = sig.co_path().to_vec();
            path[n] = bump(node, i);
            let bad = Signature::from_parts(path, *sig.rho(), sig.hashes().to_vec()).unwrap();
            assert!(rejected(&bad), "co_path[{n}][{i}]");
        }
    }
    for i in 0..S::Rho::LEN {
        let bad = Signature::from_parts(sig.co_path().to_vec(), bump(sig.rho(), i), sig.hashes().to_vec()).unwrap();
        assert!(rejected(&bad), "rho[{i}]");
    }
    for (n, h) in sig.hashes().iter().enumerate() {
        for i in 0..S::Digest::LEN {
            let mut hashes = sig.hashes().to_vec();
            hashes[n] = bump(h, i);
            let bad = Signature::from_parts(sig.co_path().to_vec(), *sig.rho(), hashes).unwrap();
            assert!(rejected(&bad), "hashes[{n}][{i}]");
        }
    }
    for i in 0..S::Digest::LEN {
        let bad_pk = PublicKey::<S> { root: bump(&pk.root, i), parameter: pk.parameter };
        assert!(verify(&bad_pk, epoch, &MESSAGE, &sig).is_err(), "root[{i}]");
    }
    for i in 0..S::Parameter::LEN {
        let bad_pk = PublicKey::<S> { root: pk.root, parameter: bump(&pk.parameter, i) };
        assert!(verify(&bad_pk, epoch, &MESSAGE, &sig).is_err(), "parameter[{i}]");
    }
}

fn wrong_message_epoch_and_key_rejected<S: ParameterSet>() {
    let epoch = (77 % S::lifetime()) as u32;
    let (pk, sig) = fixture::<S>(2, epoch);
    for byte in [0usize, 13, 31] {
        for bit in 0..8 {
            let mut m = MESSAGE;
            m[byte] ^= 1 << bit;
            assert!(verify(&pk, epoch, &m, &sig).is_err(), "message byte {byte} bit {bit}");
        }
    }
    for e in [epoch.wrapping_sub(1), epoch + 1, epoch ^ 0x10] {
        if u64::from(e) < S::lifetime() {
            assert!(verify(&pk, e, &MESSAGE, &sig).is_err(), "epoch {e}");
        }
    }
    let (other_pk, _) = fixture::<S>(3, epoch);
    assert!(verify(&other_pk, epoch, &MESSAGE, &sig).is_err());
    if S::lifetime() < 1 << 32 {
        let beyond = S::lifetime() as u32;
        assert!(matches!(verify(&pk, beyond, &MESSAGE, &sig), Err(VerifyError::EpochOutOfRange { .. })));
    }
}

fn decoding_never_panics<S: ParameterSet>() {
    let (pk, sig) = fixture::<S>(4, 5);
    let bytes = sig.to_bytes();
    assert_eq!(bytes.len(), Signature::<S>::SSZ_LEN);
    assert_eq!(Signature::<S>::from_bytes(&bytes).unwrap(), sig);
    assert_eq!(PublicKey::<S>::from_bytes(&pk.to_bytes()).unwrap(), pk);

    for n in 0..bytes.len() {
        assert!(matches!(Signature::<S>::from_bytes(&bytes[..n]), Err(DecodeError::InvalidLength { .. })));
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(Signature::<S>::from_bytes(&long).is_err());
    for n in 0..PublicKey::<S>::SSZ_LEN {
        assert!(PublicKey::<S>::from_bytes(&pk.to_bytes()[..n]).is_err());
    }

    // Each of the three offsets, changed, is refused.
    let offset_positions = [0, 4 + <S::Rho as FeArray>::BYTES, 8 + <S::Rho as FeArray>::BYTES];
    for at in offset_positions {
        let mut bad = bytes.clone();
        bad[at] ^= 4;
        assert!(matches!(Signature::<S>::from_bytes(&bad), Err(DecodeError::InvalidOffset { .. })), "offset {at}");
    }
    // A field element equal to p (non-canonical) is refused, not reduced.
    let mut bad = bytes.clone();
    bad[4..8].copy_from_slice(&0x7f00_0001u32.to_le_bytes());
    assert_eq!(Signature::<S>::from_bytes(&bad), Err(DecodeError::NonCanonicalFieldElement { offset: 4 }));
    let mut bad_pk = pk.to_bytes();
    bad_pk[..4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(PublicKey::<S>::from_bytes(&bad_pk), Err(DecodeError::NonCanonicalFieldElement { .. })));

    // Random bytes of random and of exact lengths: errors or (rarely) a
    // well-formed signature that does not verify; never a panic.
    let mut rng = StdRng::seed_from_u64(99);
    for round in 0..300 {
        let len =
            if round % 2 == 0 { Signature::<S>::SSZ_LEN } else { rng.random_range(0..2 * Signature::<S>::SSZ_LEN) };
        let mut junk: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        if round % 3 == 0 && len == bytes.len() {
            // Keep the valid header so decoding reaches the field elements.
            junk[..12 + <S::Rho as FeArray>::BYTES].copy_from_slice(&bytes[..12 + <S::Rho as FeArray>::BYTES]);
        }
        if let Ok(s) = Signature::<S>::from_bytes(&junk) {
            assert!(verify(&pk, 5, &MESSAGE, &s).is_err());
        }
        let _ = PublicKey::<S>::from_bytes(&junk);
    }
    // Random single-byte flips of a valid signature never verify.
    for _ in 0..200 {
        let mut flipped = bytes.clone();
        let at = rng.random_range(0..flipped.len());
        flipped[at] ^= 1 << rng.random_range(0..8);
        let accepted = Signature::<S>::from_bytes(&flipped).is_ok_and(|s| verify(&pk, 5, &MESSAGE, &s).is_ok());
        assert!(!accepted, "flip at {at} accepted");
    }
}

macro_rules! suite {
    ($($name:ident: $S:ty),*) => {$(
        mod $name {
            use super::*;
            #[test]
            fn every_field_corruption() { every_field_corruption_rejected::<$S>(); }
            #[test]
            fn wrong_message_epoch_key() { wrong_message_epoch_and_key_rejected::<$S>(); }
            #[test]
            fn decoding() { decoding_never_panics::<$S>(); }
        }
    )*};
}

suite!(seed001: Seed001, lean_sig_prod: LeanSigProd, test_set: Test);

/// A full round trip through real key generation for the small set, at
/// every epoch of two bottom trees, including preparation sliding.
#[test]
fn full_keys_sign_every_epoch() {
    let mut rng = StdRng::seed_from_u64(5);
    let (pk, mut sk) = sigagg_xmss::keygen::<Test, _>(&mut rng, 0, 64).unwrap();
    for epoch in 0..64u32 {
        assert!(sk.prepare_for(u64::from(epoch)));
        let sig = sk.sign(epoch, &MESSAGE).unwrap();
        let decoded = Signature::<Test>::from_bytes(&sig.to_bytes()).unwrap();
        assert_eq!(verify(&pk, epoch, &MESSAGE, &decoded), Ok(()));
    }
}

/// Seed001 real keys (2048 epochs) round-trip too.
#[test]
fn seed001_full_key_round_trip() {
    let mut rng = StdRng::seed_from_u64(6);
    let (pk, mut sk) = sigagg_xmss::keygen::<Seed001, _>(&mut rng, 1000, 10).unwrap();
    assert_eq!(sk.activation_interval(), 0..2048);
    for epoch in [1000u32, 1023, 1024, 2047] {
        let sig = sk.sign(epoch, &MESSAGE).unwrap();
        assert_eq!(verify(&pk, epoch, &MESSAGE, &sig), Ok(()));
    }
}
