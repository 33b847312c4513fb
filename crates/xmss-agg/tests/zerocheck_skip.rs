//! The univariate-skip zerocheck of `sigagg_prover::zerocheck` on the two
//! Poseidon2 tables of a real aggregate (the WHIR layout: degree 9, next-row
//! reads, periodic columns): valid traces verify at every skip, and a cell
//! changed in a permutation's rounds is rejected. The tables' bus messages
//! are not part of this check.

use p3_air::BaseAir;
use p3_field::PrimeCharacteristicRing;
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use sigagg_prover::config::transcript;
use sigagg_prover::zerocheck::{SkipZerocheck, column_evaluations};
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::testing;
use sigagg_xmss_agg::air::{AggAir, chain, hash24};
use sigagg_xmss_agg::config::Val;
use sigagg_xmss_agg::{AggregateEntry as Entry, AggregateStatement as Statement, Settings};

/// The chain and width-24 tables of 16 signatures, with their AIRs.
fn tables() -> Vec<(AggAir, RowMajorMatrix<Val>, usize)> {
    let mut rng = StdRng::seed_from_u64(21);
    let message: [u8; 32] = rng.random();
    let (entries, sigs): (Vec<_>, Vec<_>) = (0..16)
        .map(|i| {
            let epoch = 100 + i;
            let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rng, epoch, &message).unwrap();
            (Entry { public_key: pk, epoch, message }, sig)
        })
        .unzip();
    let statement = Statement::new(entries).unwrap();
    let [(chain_air, chain_trace), (hash_air, hash_trace)] =
        testing::poseidon_tables(&Settings::WHIR, &statement, &sigs);
    vec![(chain_air, chain_trace, chain::col::WIDTH + 20), (hash_air, hash_trace, hash24::col::WIDTH + 30)]
}

fn seed() -> sigagg_prover::config::Challenger {
    transcript(b"skip zerocheck on the Poseidon2 tables".to_vec())
}

#[test]
fn poseidon2_tables_pass_and_a_changed_round_fails() {
    for (air, trace, round_column) in tables() {
        assert_eq!(air.degree(), 9);
        let log_height = trace.height().trailing_zeros() as usize;
        for skip in [3, 5] {
            let zc = SkipZerocheck::new(skip);
            let (proof, point) = zc.prove(&air, &trace, None, &mut seed()).unwrap();
            assert_eq!(zc.verify(&air, log_height, &proof, None, &mut seed()), Ok(point.clone()));
            let next = BaseAir::<Val>::main_next_row_columns(&air);
            assert_eq!(column_evaluations(&trace, &next, skip, &point), (proof.local.clone(), proof.next.clone()));

            for (row, col) in [(5, round_column), (37, trace.width - 1)] {
                let mut bad = trace.clone();
                bad.values[row * bad.width + col] += Val::ONE;
                let (proof, _) = zc.prove(&air, &bad, None, &mut seed()).unwrap();
                assert!(zc.verify(&air, log_height, &proof, None, &mut seed()).is_err(), "row {row}, column {col}");
            }
        }
    }
}
