use rand::SeedableRng;
use rand::rngs::StdRng;
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::{prove as aggregate, verify};
use sigagg_xmss_agg::{AggregateEntry as Entry, AggregateStatement as Statement, Settings};

#[test]
fn one_signature_proves_and_verifies() {
    let mut rng = StdRng::seed_from_u64(1);
    let message = [3u8; 32];
    let epoch = 127 * 2000;
    let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rng, epoch, &message).unwrap();
    let statement = Statement::new(vec![Entry { public_key: pk, epoch, message }]).unwrap();
    let proof = aggregate(&Settings::INSECURE_TEST, &statement, &[sig]).unwrap();
    verify(&Settings::INSECURE_TEST, &statement, &proof).unwrap();
}

/// Prints a SHA-256 of the bytes of small aggregate and threshold proofs
/// under every insecure test setting, so a refactoring that must not change
/// the constraint system can compare them before and after
/// (`cargo test --release --test smoke proof_fingerprints -- --ignored --nocapture`).
mod proof_bytes {
    use p3_symmetric::CryptographicHasher;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use sigagg_xmss::group::GroupTree;
    use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
    use sigagg_xmss_agg::threshold::{Disclosure, Signer, ThresholdStatement};
    use sigagg_xmss_agg::{AggregateEntry, AggregateStatement, Named, aggregate, settings, threshold};

    fn sha256(bytes: &[u8]) -> String {
        let digest: [u8; 32] = p3_sha256::Sha256.hash_iter(bytes.iter().copied());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    #[ignore = "prints proof fingerprints for refactorings; run by hand"]
    fn proof_fingerprints() {
        let mut rng = StdRng::seed_from_u64(40);
        let epoch = 127 * 2000 + 3;
        let message = [7u8; 32];
        let (keys, sigs): (Vec<_>, Vec<_>) =
            (0..3).map(|_| single_epoch_key_and_signature::<Seed001, _>(&mut rng, epoch, &message).unwrap()).unzip();
        let entries = keys.iter().map(|pk| AggregateEntry { public_key: *pk, epoch, message }).collect();
        let statement = AggregateStatement::new(entries).unwrap();
        let tree = GroupTree::new(keys).unwrap();
        let group = ThresholdStatement::new(tree.key(), epoch, message, 2).unwrap();
        let signers: Vec<Signer> =
            [2u32, 0].iter().map(|&i| Signer::from_tree(&tree, i, sigs[i as usize].clone()).unwrap()).collect();
        for name in [Named::Test, Named::TestCompact, Named::TestWhir, Named::TestWhirSkip] {
            let s = settings(name);
            let proof = aggregate::prove(&s, &statement, &sigs).unwrap();
            println!("xmss aggregate {name}: {}", sha256(&proof.to_bytes()));
            for disclosure in [Disclosure::CountOnly, Disclosure::Signers] {
                let proof = threshold::prove(&s, &group, &signers, disclosure).unwrap();
                println!("xmss threshold {name} {disclosure:?}: {}", sha256(&proof.to_bytes()));
            }
        }
    }
}
