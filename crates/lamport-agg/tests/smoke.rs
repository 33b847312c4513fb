mod common;

use sigagg_lamport::{LamportPlus, LamportPlusMined};
use sigagg_lamport_agg::{Disclosure, Proof, ThresholdStatement, aggregate, config, threshold};

#[test]
fn aggregate_small() {
    for n in [1usize, 3] {
        let (st, sigs) = common::aggregate_batch::<LamportPlus>(1, n);
        let proof = aggregate::prove(&config::TEST, &st, &sigs).unwrap();
        let bytes = proof.to_bytes();
        eprintln!("n = {n}: {} bytes", bytes.len());
        aggregate::verify(&config::TEST, &st, &Proof::from_bytes(&bytes).unwrap()).unwrap();
    }
}

#[test]
fn threshold_small() {
    let (tree, pks, mut sks) = common::group::<LamportPlus>(2, 7);
    let msg = b"block 7";
    let signers = common::signers(&tree, &pks, &mut sks, &[1, 4, 6], msg);
    let st = ThresholdStatement::new(tree.key(), msg.to_vec(), 2).unwrap();
    let proof = threshold::prove(&config::TEST, &st, &signers, Disclosure::CountOnly).unwrap();
    threshold::verify(&config::TEST, &st, &proof).unwrap();
}

#[test]
fn threshold_small_mined() {
    let (tree, pks, mut sks) = common::group::<LamportPlusMined>(3, 5);
    let msg = b"block 8";
    let signers = common::signers(&tree, &pks, &mut sks, &[0, 2, 3, 4], msg);
    let st = ThresholdStatement::new(tree.key(), msg.to_vec(), 3).unwrap();
    let proof = threshold::prove(&config::TEST, &st, &signers, Disclosure::Bitmap).unwrap();
    threshold::verify(&config::TEST, &st, &proof).unwrap();
}
