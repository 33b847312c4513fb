//! Aggregate and threshold proofs through the byte-level API, with the
//! insecure test settings: round trips, and every claim changed is refused
//! with the right kind. Run in release (`cargo test --release`): each proof
//! takes about a second there.

use sigagg_bytes::{
    AggregateStatement, ErrorKind, ProofSettings, Scheme, Signer, ThresholdStatement, aggregate, group, lamport,
    prove_threshold, verify_aggregate, verify_threshold, xmss,
};

const TEST: ProofSettings = ProofSettings::Test;

/// `n` key pairs of `scheme`, from fixed seeds.
fn keys(scheme: Scheme, n: u8) -> Vec<(Vec<u8>, Signing)> {
    (0..n)
        .map(|i| match scheme {
            Scheme::Seed001 => {
                let (pk, sk) = xmss::keygen(scheme, 0, 1, Some(&[i + 1; 32])).unwrap();
                (pk, Signing::Xmss(Box::new(sk)))
            }
            // A production key's prepared window takes seconds to make: a
            // key for one epoch, with its signature of `LEAN_MESSAGE`.
            Scheme::LeanSigProd => {
                use rand::SeedableRng;
                let mut rng = rand::rngs::StdRng::seed_from_u64(u64::from(i));
                let (pk, sig) = sigagg_xmss::single_epoch_key_and_signature::<sigagg_xmss::LeanSigProd, _>(
                    &mut rng,
                    EPOCH,
                    &LEAN_MESSAGE,
                )
                .unwrap();
                (pk.to_bytes(), Signing::Fixed(sig.to_bytes()))
            }
            _ => {
                let (pk, sk) = lamport::keygen(scheme, Some(&[i + 1; 32])).unwrap();
                (pk, Signing::Lamport(sk))
            }
        })
        .collect()
}

enum Signing {
    Xmss(Box<xmss::XmssSecretKey>),
    Lamport(lamport::LamportSecretKey),
    /// A signature of `LEAN_MESSAGE` at `EPOCH`, made with the key.
    Fixed(Vec<u8>),
}

const EPOCH: u32 = 5;
/// The message the threshold checks sign.
const LEAN_MESSAGE: [u8; 32] = [0x17; 32];

impl Signing {
    fn sign(&self, message: &[u8]) -> Vec<u8> {
        match self {
            Signing::Xmss(sk) => sk.sign(EPOCH, message).unwrap(),
            Signing::Lamport(sk) => sk.sign(message).unwrap(),
            Signing::Fixed(sig) => {
                assert_eq!(message, LEAN_MESSAGE, "a fixed signature signs one message");
                sig.clone()
            }
        }
    }
}

fn refs(v: &[Vec<u8>]) -> Vec<&[u8]> {
    v.iter().map(Vec::as_slice).collect()
}

fn kind<T: std::fmt::Debug>(r: sigagg_bytes::Result<T>) -> ErrorKind {
    r.unwrap_err().kind()
}

/// Seed001 signs one shared message; Lamport+ one message per signer.
fn messages(scheme: Scheme, n: usize) -> Vec<Vec<u8>> {
    match scheme {
        Scheme::Seed001 => vec![vec![0x42; 32]],
        _ => (0..n).map(|i| format!("block {i}").into_bytes()).collect(),
    }
}

fn check_aggregate(scheme: Scheme) {
    let pairs = keys(scheme, 3);
    let pks: Vec<Vec<u8>> = pairs.iter().map(|(pk, _)| pk.clone()).collect();
    let msgs = messages(scheme, 3);
    let sigs: Vec<Vec<u8>> = pairs.iter().enumerate().map(|(i, (_, sk))| sk.sign(&msgs[i % msgs.len()])).collect();
    let epochs: &[u32] = if scheme == Scheme::Seed001 { &[EPOCH] } else { &[] };
    let (pk_refs, msg_refs) = (refs(&pks), refs(&msgs));
    let statement = AggregateStatement { public_keys: &pk_refs, messages: &msg_refs, epochs };
    let proof = aggregate(scheme, TEST, &statement, &refs(&sigs)).unwrap();
    verify_aggregate(scheme, TEST, &statement, &proof).unwrap();

    // Another message, another key order, other settings, a flipped byte, a cut proof.
    let other: Vec<Vec<u8>> = msgs.iter().map(|m| [m.as_slice(), b"!"].concat()).collect();
    let other: Vec<Vec<u8>> =
        other.into_iter().map(|m| if scheme == Scheme::Seed001 { m[1..].to_vec() } else { m }).collect();
    let other_refs = refs(&other);
    let wrong_message = AggregateStatement { messages: &other_refs, ..statement };
    assert_eq!(kind(verify_aggregate(scheme, TEST, &wrong_message, &proof)), ErrorKind::Verify);
    let swapped: Vec<&[u8]> = vec![pk_refs[1], pk_refs[0], pk_refs[2]];
    let swapped_keys = AggregateStatement { public_keys: &swapped, ..statement };
    assert_eq!(kind(verify_aggregate(scheme, TEST, &swapped_keys, &proof)), ErrorKind::Verify);
    assert_eq!(kind(verify_aggregate(scheme, ProofSettings::Fast, &statement, &proof)), ErrorKind::Verify);
    let mut flipped = proof.clone();
    let at = flipped.len() / 2;
    flipped[at] ^= 1;
    assert!(matches!(
        kind(verify_aggregate(scheme, TEST, &statement, &flipped)),
        ErrorKind::Verify | ErrorKind::Decode
    ));
    assert_eq!(kind(verify_aggregate(scheme, TEST, &statement, &proof[..proof.len() - 1])), ErrorKind::Decode);

    // A signature on something else cannot be aggregated.
    let mut bad = sigs.clone();
    bad[1] = sigs[0].clone();
    assert_eq!(kind(aggregate(scheme, TEST, &statement, &refs(&bad))), ErrorKind::Prove);
    assert_eq!(kind(aggregate(scheme, TEST, &statement, &refs(&sigs[..2]))), ErrorKind::Argument);
}

#[test]
fn seed001_aggregate() {
    check_aggregate(Scheme::Seed001);
    // Epochs belong to Seed001 statements only, one for all or one each.
    let none = AggregateStatement { public_keys: &[], messages: &[], epochs: &[1, 2] };
    assert_eq!(kind(verify_aggregate(Scheme::LamportPlus, TEST, &none, b"")), ErrorKind::Argument);
    assert_eq!(kind(verify_aggregate(Scheme::Test, TEST, &none, b"")), ErrorKind::Argument);
}

#[test]
fn lamport_aggregate() {
    check_aggregate(Scheme::LamportPlus);
}

fn check_threshold(scheme: Scheme) {
    let pairs = keys(scheme, 4);
    let pks: Vec<Vec<u8>> = pairs.iter().map(|(pk, _)| pk.clone()).collect();
    let g = group(scheme, &refs(&pks)).unwrap();
    assert_eq!(g.paths.len(), 4);
    let message = LEAN_MESSAGE.to_vec();
    let epoch = matches!(scheme, Scheme::Seed001 | Scheme::LeanSigProd).then_some(EPOCH);
    let signing = [3usize, 0, 2];
    let sigs: Vec<Vec<u8>> = signing.iter().map(|&i| pairs[i].1.sign(&message)).collect();
    let signers: Vec<Signer<'_>> = signing
        .iter()
        .zip(&sigs)
        .map(|(&i, sig)| Signer { public_key: &pks[i], signature: sig, path: &g.paths[i] })
        .collect();
    let statement = ThresholdStatement { group_key: &g.key, threshold: 2, message: &message, epoch };
    let proof = prove_threshold(scheme, TEST, &statement, &signers, true).unwrap();
    let certificate = verify_threshold(scheme, TEST, &statement, &proof).unwrap();
    assert_eq!(certificate.count, 3);
    assert_eq!(certificate.signers, Some(vec![0, 2, 3]));
    let hidden = prove_threshold(scheme, TEST, &statement, &signers[..2], false).unwrap();
    let certificate = verify_threshold(scheme, TEST, &statement, &hidden).unwrap();
    assert_eq!((certificate.count, certificate.signers), (2, None));

    // A higher threshold, another message, another group.
    let higher = ThresholdStatement { threshold: 4, ..statement };
    assert_eq!(kind(verify_threshold(scheme, TEST, &higher, &proof)), ErrorKind::Verify);
    let other_message = vec![0x18; 32];
    let moved = ThresholdStatement { message: &other_message, ..statement };
    assert_eq!(kind(verify_threshold(scheme, TEST, &moved, &proof)), ErrorKind::Verify);
    let other_group = group(scheme, &refs(&pks[..3])).unwrap();
    let elsewhere = ThresholdStatement { group_key: &other_group.key, threshold: 2, ..statement };
    assert!(verify_threshold(scheme, TEST, &elsewhere, &proof).is_err());
    assert_eq!(kind(verify_threshold(scheme, TEST, &statement, &proof[1..])), ErrorKind::Decode);
    let bad_group = ThresholdStatement { group_key: &g.key[1..], ..statement };
    assert_eq!(kind(verify_threshold(scheme, TEST, &bad_group, &proof)), ErrorKind::Decode);

    // Too few signers, a member twice, a path of another member.
    let too_few = ThresholdStatement { threshold: 4, ..statement };
    assert_eq!(kind(prove_threshold(scheme, TEST, &too_few, &signers, false)), ErrorKind::Prove);
    let twice = [signers[0], signers[0]];
    assert_eq!(kind(prove_threshold(scheme, TEST, &statement, &twice, false)), ErrorKind::Prove);
    let wrong_path = [Signer { path: &g.paths[1], ..signers[0] }, signers[1]];
    assert_eq!(kind(prove_threshold(scheme, TEST, &statement, &wrong_path, false)), ErrorKind::Prove);
}

#[test]
fn seed001_threshold() {
    check_threshold(Scheme::Seed001);
    let g = group(Scheme::Seed001, &[&[0u8; 47]]).map(|_| ()).unwrap_err();
    assert_eq!(g.kind(), ErrorKind::Decode);
}

/// leanSig production keys (threshold certificates only: their aggregates
/// travel in leanSpec's container, `sigagg_bytes::lean`).
#[test]
fn lean_sig_prod_threshold() {
    check_threshold(Scheme::LeanSigProd);
    let one = group(Scheme::LeanSigProd, &refs(&[keys(Scheme::LeanSigProd, 1).remove(0).0])).unwrap();
    let info = sigagg_bytes::group_info(Scheme::LeanSigProd, &one.key).unwrap();
    assert_eq!((info.size, info.depth), (1, 1));
    let shape = sigagg_bytes::Shape::Threshold { signers: 1550, group_size: 1 << 20 };
    let level = sigagg_bytes::security(Scheme::LeanSigProd, ProofSettings::WhirSkip, shape).unwrap();
    assert!(level.proven_bits >= 120.0, "{level:?}");
}

#[test]
fn lamport_mined_threshold() {
    check_threshold(Scheme::LamportPlusMined);
}

#[test]
fn groups_refuse_empty_and_repeated_keys() {
    for scheme in [Scheme::Seed001, Scheme::LamportPlus] {
        let pairs = keys(scheme, 1);
        assert_eq!(kind(group(scheme, &[])), ErrorKind::Argument);
        assert_eq!(kind(group(scheme, &[&pairs[0].0, &pairs[0].0])), ErrorKind::Argument);
    }
    assert_eq!(kind(group(Scheme::LeanSigProd, &[])), ErrorKind::Argument);
}
