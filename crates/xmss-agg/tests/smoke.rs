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
