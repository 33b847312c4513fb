//! Negative and malformed-input tests for both parameter sets: every
//! single-field corruption of a signature or public key, wrong messages and
//! keys, tampered mining counters and reused keys are rejected; decoding
//! random, truncated or non-canonical bytes returns a typed error, never panics.

use p3_field::PrimeCharacteristicRing;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use sigagg_lamport::field::{F, P};
use sigagg_lamport::{
    DecodeError, Digest, LamportPlus, LamportPlusMined, ParameterSet, PublicKey, SecretKey, SignError, Signature,
    VerifyError, keygen_from_seed, representative, verify,
};

const MESSAGE: &[u8] = b"robustness tests sign this block root";

fn bump(d: &Digest, k: usize) -> Digest {
    let mut out = *d;
    out[k] += F::ONE;
    out
}

fn fixture<S: ParameterSet>(seed: u8) -> (PublicKey<S>, SecretKey<S>, Signature<S>) {
    let (pk, mut sk) = keygen_from_seed::<S>([seed; 32]);
    let sig = sk.sign(MESSAGE).unwrap();
    (pk, sk, sig)
}

fn round_trips<S: ParameterSet>() {
    let long = vec![0xa5u8; 10_000];
    for (i, msg) in [&b""[..], b"x", MESSAGE, &long[..]].into_iter().enumerate() {
        let (pk, mut sk) = keygen_from_seed::<S>([i as u8 + 40; 32]);
        let sig = sk.sign(msg).unwrap();
        assert_eq!(verify(&pk, msg, &sig), Ok(()));
        let bytes = sig.to_bytes();
        assert_eq!(bytes.len(), Signature::<S>::ENCODED_LEN);
        let back = Signature::<S>::from_bytes(&bytes).unwrap();
        assert_eq!(back, sig);
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(verify(&PublicKey::<S>::from_bytes(&pk.to_bytes()).unwrap(), msg, &back), Ok(()));
        assert_eq!(sigagg_lamport::recover_public_key(msg, &sig), Ok(pk));
    }
}

#[test]
fn round_trips_plain() {
    round_trips::<LamportPlus>();
}

#[test]
fn round_trips_mined() {
    round_trips::<LamportPlusMined>();
}

fn every_field_corruption_rejected<S: ParameterSet>() {
    let (pk, _, sig) = fixture::<S>(1);
    assert_eq!(verify(&pk, MESSAGE, &sig), Ok(()));
    let rebuild = |counter: u32, r: [F; 5], e: Vec<Digest>| Signature::<S>::from_parts(counter, r, e).unwrap();
    for n in 0..S::NUM_SUBKEYS {
        for k in 0..8 {
            let mut e = sig.elements().to_vec();
            e[n] = bump(&e[n], k);
            let bad = rebuild(sig.counter(), *sig.randomizer(), e);
            assert_eq!(verify(&pk, MESSAGE, &bad), Err(VerifyError::PublicKeyMismatch), "element {n} lane {k}");
        }
    }
    for k in 0..5 {
        let mut r = *sig.randomizer();
        r[k] += F::ONE;
        let bad = rebuild(sig.counter(), r, sig.elements().to_vec());
        assert_eq!(verify(&pk, MESSAGE, &bad), Err(VerifyError::PublicKeyMismatch), "randomizer {k}");
    }
    for k in 0..8 {
        let bad_pk = PublicKey::<S>::from_digest(bump(pk.digest(), k));
        assert_eq!(verify(&bad_pk, MESSAGE, &sig), Err(VerifyError::PublicKeyMismatch), "public key lane {k}");
    }
    // Swapping two elements whose codeword bits differ is also caught.
    let mut e = sig.elements().to_vec();
    e.swap(0, S::NUM_SUBKEYS - 1);
    assert!(verify(&pk, MESSAGE, &rebuild(sig.counter(), *sig.randomizer(), e)).is_err());
}

#[test]
fn every_field_corruption_rejected_plain() {
    every_field_corruption_rejected::<LamportPlus>();
}

#[test]
fn every_field_corruption_rejected_mined() {
    every_field_corruption_rejected::<LamportPlusMined>();
}

fn wrong_message_and_key_rejected<S: ParameterSet>() {
    let (pk, _, sig) = fixture::<S>(2);
    for byte in [0usize, 7, MESSAGE.len() - 1] {
        for bit in 0..8 {
            let mut m = MESSAGE.to_vec();
            m[byte] ^= 1 << bit;
            assert!(verify(&pk, &m, &sig).is_err(), "byte {byte} bit {bit}");
        }
    }
    assert!(verify(&pk, &MESSAGE[..MESSAGE.len() - 1], &sig).is_err());
    let mut longer = MESSAGE.to_vec();
    longer.push(0);
    assert!(verify(&pk, &longer, &sig).is_err());
    let (other_pk, _, other_sig) = fixture::<S>(3);
    assert_eq!(verify(&other_pk, MESSAGE, &sig), Err(VerifyError::PublicKeyMismatch));
    assert_eq!(verify(&pk, MESSAGE, &other_sig), Err(VerifyError::PublicKeyMismatch));
}

#[test]
fn wrong_message_and_key_rejected_plain() {
    wrong_message_and_key_rejected::<LamportPlus>();
}

#[test]
fn wrong_message_and_key_rejected_mined() {
    wrong_message_and_key_rejected::<LamportPlusMined>();
}

#[test]
fn mining_counter_tampering_rejected() {
    let (pk, _, sig) = fixture::<LamportPlusMined>(4);
    let c = sig.counter();
    assert!(representative::<LamportPlusMined>(MESSAGE, c).leading_zeros() >= 16);
    let with_counter =
        |counter| Signature::<LamportPlusMined>::from_parts(counter, *sig.randomizer(), sig.elements().to_vec());
    for other in [c.wrapping_sub(1), c + 1, c ^ 1, c ^ 0x100, 0, LamportPlusMined::MAX_COUNTER] {
        if other == c || other > LamportPlusMined::MAX_COUNTER {
            continue;
        }
        let bad = with_counter(other).unwrap();
        let err = verify(&pk, MESSAGE, &bad).unwrap_err();
        assert!(
            matches!(err, VerifyError::InsufficientWork { required: 16, .. } | VerifyError::PublicKeyMismatch),
            "counter {other}: {err:?}"
        );
    }
    // Past the maximum: refused by construction and by decoding.
    let max = LamportPlusMined::MAX_COUNTER;
    assert_eq!(with_counter(max + 1), Err(DecodeError::CounterOutOfRange { counter: max + 1, max }));
    let mut bytes = sig.to_bytes();
    bytes[..4].copy_from_slice(&(max + 1).to_le_bytes());
    assert_eq!(
        Signature::<LamportPlusMined>::from_bytes(&bytes),
        Err(DecodeError::CounterOutOfRange { counter: max + 1, max })
    );
    // In range but tampered in the encoding: decodes, then fails to verify.
    bytes[..4].copy_from_slice(&(c + 1).to_le_bytes());
    let tampered = Signature::<LamportPlusMined>::from_bytes(&bytes).unwrap();
    assert!(verify(&pk, MESSAGE, &tampered).is_err());

    // Without mining, any counter but 0 is malformed.
    let (_, _, plain) = fixture::<LamportPlus>(5);
    let mut bytes = plain.to_bytes();
    bytes[0] = 1;
    assert_eq!(
        Signature::<LamportPlus>::from_bytes(&bytes),
        Err(DecodeError::CounterOutOfRange { counter: 1, max: 0 })
    );
}

#[test]
fn honest_signers_of_one_message_share_the_codeword() {
    let sigs: Vec<Signature<LamportPlusMined>> = (10..14).map(|s| fixture::<LamportPlusMined>(s).2).collect();
    assert!(sigs.iter().all(|s| s.counter() == sigs[0].counter()));
}

fn one_time_reuse_refused<S: ParameterSet>() {
    let (pk, mut sk, sig) = fixture::<S>(6);
    // The same message again reproduces the same signature.
    assert_eq!(sk.sign(MESSAGE), Ok(sig.clone()));
    assert_eq!(sk.sign(b"another message"), Err(SignError::KeyAlreadyUsed));
    // The state survives encoding.
    let mut restored = SecretKey::<S>::from_bytes(&sk.to_bytes()).unwrap();
    assert_eq!(restored.sign(b"another message"), Err(SignError::KeyAlreadyUsed));
    assert_eq!(verify(&pk, MESSAGE, &restored.sign(MESSAGE).unwrap()), Ok(()));
}

#[test]
fn one_time_reuse_refused_plain() {
    one_time_reuse_refused::<LamportPlus>();
}

#[test]
fn one_time_reuse_refused_mined() {
    one_time_reuse_refused::<LamportPlusMined>();
}

fn decoding_never_panics<S: ParameterSet>() {
    let mut rng = StdRng::seed_from_u64(99);
    let (pk, sk, sig) = fixture::<S>(7);
    let encodings: [(&str, Vec<u8>); 3] = [("pk", pk.to_bytes()), ("sk", sk.to_bytes()), ("sig", sig.to_bytes())];
    let decode_all = |b: &[u8]| {
        let _ = PublicKey::<S>::from_bytes(b);
        let _ = SecretKey::<S>::from_bytes(b);
        let _ = Signature::<S>::from_bytes(b);
        let _ = sigagg_lamport::GroupKey::from_bytes(b);
        let _ = sigagg_lamport::MembershipProof::from_bytes(b);
    };
    for (name, bytes) in &encodings {
        // Every truncation and an extension are length errors.
        for n in 0..bytes.len() {
            decode_all(&bytes[..n]);
        }
        let mut longer = bytes.clone();
        longer.push(0);
        decode_all(&longer);
        // Random bytes of the exact length, and random flips of valid bytes.
        for _ in 0..200 {
            let random: Vec<u8> = (0..bytes.len()).map(|_| rng.random()).collect();
            decode_all(&random);
            let mut flipped = bytes.clone();
            let at = rng.random_range(0..flipped.len());
            flipped[at] ^= 1 << rng.random_range(0..8);
            decode_all(&flipped);
        }
        // Random lengths.
        for _ in 0..100 {
            let len = rng.random_range(0..2 * bytes.len());
            let random: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            decode_all(&random);
        }
        let _ = name;
    }
    for n in 0..Signature::<S>::ENCODED_LEN {
        if n != Signature::<S>::ENCODED_LEN {
            assert!(matches!(Signature::<S>::from_bytes(&sig.to_bytes()[..n]), Err(DecodeError::InvalidLength { .. })));
        }
    }
    for n in 0..SecretKey::<S>::ENCODED_LEN {
        assert!(SecretKey::<S>::from_bytes(&sk.to_bytes()[..n]).is_err());
    }
    for n in 0..32 {
        assert!(PublicKey::<S>::from_bytes(&pk.to_bytes()[..n]).is_err());
    }
}

#[test]
fn decoding_never_panics_plain() {
    decoding_never_panics::<LamportPlus>();
}

#[test]
fn decoding_never_panics_mined() {
    decoding_never_panics::<LamportPlusMined>();
}

fn non_canonical_elements_rejected<S: ParameterSet>() {
    let (pk, _, sig) = fixture::<S>(8);
    let bytes = sig.to_bytes();
    // Every field-element slot of the signature (after the 4-byte counter).
    for offset in (4..bytes.len()).step_by(4) {
        for bad in [P, u32::MAX, P + 12345] {
            let mut b = bytes.clone();
            b[offset..offset + 4].copy_from_slice(&bad.to_le_bytes());
            assert_eq!(
                Signature::<S>::from_bytes(&b),
                Err(DecodeError::NonCanonicalFieldElement { what: "signature", offset }),
                "offset {offset}"
            );
        }
        // p - 1 is canonical: it decodes (and re-encodes identically).
        let mut b = bytes.clone();
        b[offset..offset + 4].copy_from_slice(&(P - 1).to_le_bytes());
        assert_eq!(Signature::<S>::from_bytes(&b).unwrap().to_bytes(), b);
    }
    let pkb = pk.to_bytes();
    for offset in (0..32).step_by(4) {
        let mut b = pkb.clone();
        b[offset..offset + 4].copy_from_slice(&P.to_le_bytes());
        assert_eq!(
            PublicKey::<S>::from_bytes(&b),
            Err(DecodeError::NonCanonicalFieldElement { what: "public key", offset })
        );
    }
}

#[test]
fn non_canonical_elements_rejected_plain() {
    non_canonical_elements_rejected::<LamportPlus>();
}

#[test]
fn non_canonical_elements_rejected_mined() {
    non_canonical_elements_rejected::<LamportPlusMined>();
}

#[test]
fn malformed_secret_keys_rejected() {
    let (_, fresh, _) = fixture::<LamportPlusMined>(9);
    let (_, unused) = keygen_from_seed::<LamportPlusMined>([9; 32]);
    let used = fresh.to_bytes();
    let unused = unused.to_bytes();
    assert_eq!(used[41], 1);
    assert_eq!(unused[41], 0);
    let expect = |b: &[u8], want: DecodeError| assert_eq!(SecretKey::<LamportPlusMined>::from_bytes(b), Err(want));
    let mut b = used.clone();
    b[0] ^= 1;
    expect(&b, DecodeError::BadHeader { what: "secret key" });
    let mut b = used.clone();
    b[8] = 1;
    expect(&b, DecodeError::WrongParameterSet { expected: 2, actual: 1 });
    let mut b = used.clone();
    b[41] = 2;
    expect(&b, DecodeError::Inconsistent("secret key: used flag must be 0 or 1"));
    let mut b = unused.clone();
    b[50] = 1;
    expect(&b, DecodeError::Inconsistent("secret key: unused key with a representative"));
    // A used key whose representative lacks the mined zeros, or has bits past L.
    let mut b = used.clone();
    b[42] = 0x80;
    expect(&b, DecodeError::Inconsistent("secret key: impossible representative"));
    let mut b = used.clone();
    b[73] = 1;
    expect(&b, DecodeError::Inconsistent("secret key: impossible representative"));
    // A plain-set secret key is not a mined one, and vice versa.
    let (_, plain) = keygen_from_seed::<LamportPlus>([9; 32]);
    assert!(SecretKey::<LamportPlusMined>::from_bytes(&plain.to_bytes()).is_err());
    // Cross-set signatures have the wrong length.
    let (_, _, sig) = fixture::<LamportPlus>(9);
    assert!(matches!(
        Signature::<LamportPlusMined>::from_bytes(&sig.to_bytes()),
        Err(DecodeError::InvalidLength { .. })
    ));
}
