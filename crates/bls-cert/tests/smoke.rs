use sigagg_bls::{KeyRegistry, SecretKey};
use sigagg_bls_cert::{Committee, Mode, Prover, Setup, Signed, Threshold, verify, Certificate};

#[test]
fn smoke() {
    let n = 5;
    let sks: Vec<SecretKey> = (0..n).map(|i| SecretKey::from_key_material(&[i as u8 + 1; 32]).unwrap()).collect();
    let entries: Vec<_> = sks.iter().map(|sk| (sk.public_key(), sk.prove_possession())).collect();
    let registry = KeyRegistry::from_keys_with_proofs(&entries).unwrap();
    let setup = Setup::insecure_development(64).unwrap();
    for weights in [None, Some(vec![10, 20, 30, 40, 50])] {
        let committee = Committee::new(&setup, registry.clone(), weights).unwrap();
        let prover = Prover::new(&setup, &committee).unwrap();
        let msg = b"hello";
        let sigs: Vec<_> = [0usize, 2, 3].iter().map(|&i| (sks[i].public_key(), sks[i].sign(msg))).collect();
        for mode in [Mode::Accountable, Mode::Counting] {
            let cert = prover.certify(msg, Signed::Signatures(&sigs), mode).unwrap();
            let bytes = cert.to_bytes();
            eprintln!("{mode:?} stake={} bytes={} proof={}", committee.weights().is_some(), bytes.len(), cert.proof_len());
            let back = Certificate::from_bytes(&bytes).unwrap();
            assert_eq!(back, cert);
            let v = verify(committee.key(), &back, msg, &Threshold::signers(3)).unwrap();
            assert_eq!(v.count, 3);
            assert!(verify(committee.key(), &back, b"other", &Threshold::signers(3)).is_err());
        }
    }
}
