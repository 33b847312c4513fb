mod common;

use sigagg_lamport::{LamportPlus, LamportPlusMined};
use sigagg_lamport_agg::{Disclosure, Proof, ThresholdStatement, aggregate, named, threshold};

#[test]
fn aggregate_small() {
    for n in [1usize, 3] {
        let (st, sigs) = common::aggregate_batch::<LamportPlus>(1, n);
        let proof = aggregate::prove(&named::TEST, &st, &sigs).unwrap();
        let bytes = proof.to_bytes();
        eprintln!("n = {n}: {} bytes", bytes.len());
        aggregate::verify(&named::TEST, &st, &Proof::from_bytes(&bytes).unwrap()).unwrap();
    }
}

#[test]
fn threshold_small() {
    let (tree, pks, mut sks) = common::group::<LamportPlus>(2, 7);
    let msg = b"block 7";
    let signers = common::signers(&tree, &pks, &mut sks, &[1, 4, 6], msg);
    let st = ThresholdStatement::new(tree.key(), msg.to_vec(), 2).unwrap();
    let proof = threshold::prove(&named::TEST, &st, &signers, Disclosure::CountOnly).unwrap();
    threshold::verify(&named::TEST, &st, &proof).unwrap();
}

#[test]
fn threshold_small_mined() {
    let (tree, pks, mut sks) = common::group::<LamportPlusMined>(3, 5);
    let msg = b"block 8";
    let signers = common::signers(&tree, &pks, &mut sks, &[0, 2, 3, 4], msg);
    let st = ThresholdStatement::new(tree.key(), msg.to_vec(), 3).unwrap();
    let proof = threshold::prove(&named::TEST, &st, &signers, Disclosure::Bitmap).unwrap();
    threshold::verify(&named::TEST, &st, &proof).unwrap();
}

/// The multilinear named settings prove the smallest statements (their
/// first folding shrinks to the 16-row slot table), with real grinding; a
/// proof does not verify against another statement, nor under the other
/// multilinear setting, whose transcript and WHIR schedule differ.
#[test]
fn multilinear_named_settings_prove_the_smallest_statements() {
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(14, 1);
    let (other, _) = common::aggregate_batch::<LamportPlus>(15, 1);
    let (tree, pks, mut sks) = common::group::<LamportPlus>(16, 1);
    let signers = common::signers(&tree, &pks, &mut sks, &[0], b"block 10");
    let tst = ThresholdStatement::new(tree.key(), b"block 10".to_vec(), 1).unwrap();
    for (settings, sibling) in [(named::WHIR, named::WHIR_COMPACT), (named::WHIR_COMPACT, named::WHIR)] {
        let proof = aggregate::prove(&settings, &st, &sigs).unwrap();
        aggregate::verify(&settings, &st, &proof).unwrap();
        assert!(aggregate::verify(&settings, &other, &proof).is_err());
        assert!(aggregate::verify(&sibling, &st, &proof).is_err());
        let proof = threshold::prove(&settings, &tst, &signers, Disclosure::CountOnly).unwrap();
        threshold::verify(&settings, &tst, &proof).unwrap();
        assert!(threshold::verify(&sibling, &tst, &proof).is_err());
    }
}

/// The named settings prove the smallest statements, whose 16-row slot
/// table shortens the final FRI polynomial to 2^3 (`Settings::fitted`),
/// and a 256-signature aggregate, whose tables all allow the settings'
/// full 2^7; a proof does not verify against another statement.
#[test]
fn named_settings_fit_the_final_polynomial() {
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(4, 1);
    let (other, _) = common::aggregate_batch::<LamportPlus>(5, 1);
    let (tree, pks, mut sks) = common::group::<LamportPlusMined>(6, 1);
    let signers = common::signers(&tree, &pks, &mut sks, &[0], b"block 9");
    let tst = ThresholdStatement::new(tree.key(), b"block 9".to_vec(), 1).unwrap();
    for settings in [named::FAST, named::COMPACT] {
        let fri = settings.fri().expect("FRI settings");
        assert_eq!(fri.fitted(4).log_final_poly_len, 3);
        assert_eq!(fri.fitted(8).log_final_poly_len, 7);
        let proof = aggregate::prove(&settings, &st, &sigs).unwrap();
        aggregate::verify(&settings, &st, &proof).unwrap();
        assert!(aggregate::verify(&settings, &other, &proof).is_err());
        let proof = threshold::prove(&settings, &tst, &signers, Disclosure::Bitmap).unwrap();
        threshold::verify(&settings, &tst, &proof).unwrap();
    }
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(7, 256);
    let proof = aggregate::prove(&named::FAST, &st, &sigs).unwrap();
    aggregate::verify(&named::FAST, &st, &proof).unwrap();
    let mut bytes = proof.to_bytes();
    let at = bytes.len() - 100;
    bytes[at] ^= 1;
    let rejected = Proof::from_bytes(&bytes).map_or(true, |p| aggregate::verify(&named::FAST, &st, &p).is_err());
    assert!(rejected, "a flipped bit near the end of the proof was accepted");
}

/// Prints a SHA3-256 of the bytes of small aggregate and threshold proofs
/// (plain set with a node table, mined set with in-block trees) under every
/// insecure test setting, so a refactoring that must not change the
/// constraint system can compare them before and after
/// (`cargo test --release --test smoke proof_fingerprints -- --ignored --nocapture`).
mod proof_bytes {
    use super::common;
    use sha3::{Digest, Sha3_256};
    use sigagg_lamport::{LamportPlus, LamportPlusMined};
    use sigagg_lamport_agg::{Disclosure, Named, ThresholdStatement, aggregate, settings, threshold};

    fn sha3(bytes: &[u8]) -> String {
        Sha3_256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    #[ignore = "prints proof fingerprints for refactorings; run by hand"]
    fn proof_fingerprints() {
        let (st, sigs) = common::aggregate_batch::<LamportPlus>(40, 2);
        let (tree, pks, mut sks) = common::group::<LamportPlus>(41, 5);
        let plain = common::signers(&tree, &pks, &mut sks, &[1, 4], b"block 40");
        let plain_st = ThresholdStatement::new(tree.key(), b"block 40".to_vec(), 2).unwrap();
        let (tree, pks, mut sks) = common::group::<LamportPlusMined>(42, 5);
        let mined = common::signers(&tree, &pks, &mut sks, &[0, 3, 4], b"block 41");
        let mined_st = ThresholdStatement::new(tree.key(), b"block 41".to_vec(), 2).unwrap();
        for name in [Named::Test, Named::TestCompact, Named::TestWhir, Named::TestWhirSkip] {
            let s = settings(name);
            let proof = aggregate::prove(&s, &st, &sigs).unwrap();
            println!("lamport aggregate {name}: {}", sha3(&proof.to_bytes()));
            let proof = threshold::prove(&s, &plain_st, &plain, Disclosure::CountOnly).unwrap();
            println!("lamport threshold plain {name}: {}", sha3(&proof.to_bytes()));
            let proof = threshold::prove(&s, &mined_st, &mined, Disclosure::Bitmap).unwrap();
            println!("lamport threshold mined {name}: {}", sha3(&proof.to_bytes()));
        }
    }
}
