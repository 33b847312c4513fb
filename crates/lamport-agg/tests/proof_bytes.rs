//! Prints a SHA3-256 of the bytes of small aggregate and threshold proofs
//! (plain set with a node table, mined set with in-block trees) under every
//! insecure test setting, so a refactoring that must not change the
//! constraint system can compare them before and after
//! (`cargo test --release --test proof_bytes -- --ignored --nocapture`).

mod common;

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
