//! Times `sigagg_prover::zerocheck` (a zerocheck whose first `k` row
//! variables are a univariate skip, evaluated on packed base-field values)
//! against `p3-multi-stark`'s own zerocheck, on the chain and width-24
//! tables of N Seed001 signatures in the WHIR layout (issue 21 §2; results
//! in BENCHMARKS.md). Both sides drop the tables' bus messages, so both
//! prove the constraints alone; the module's proof is verified.
//!
//! ```sh
//! RAYON_NUM_THREADS=2 cargo run --release -p sigagg-xmss-agg --example zerocheck_skip -- 8192 5
//! ```

use std::time::Instant;

#[path = "common/no_bus.rs"]
mod no_bus;

use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_multi_stark::zerocheck::AirZerocheck;
use p3_sumcheck::layout::Table;
use sigagg_prover::config::{Challenge, Val, transcript};
use sigagg_prover::zerocheck::{SkipZerocheck, multilinear_degree};
use sigagg_xmss_agg::air::AggAir;

use no_bus::{NoBus, tables};

#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

/// `p3-multi-stark`'s zerocheck of the table, in seconds.
fn p3_zerocheck(air: &AggAir, trace: &RowMajorMatrix<Val>) -> f64 {
    let table = Table::new(trace.clone().transpose());
    let wrapped = NoBus(air);
    let airs = [&wrapped];
    let mut challenger = transcript(b"p3".to_vec());
    let t = Instant::now();
    let _ = AirZerocheck::new(&airs, 0).prove::<Val, Challenge, _>(&[None], &[&table], &[&[]], &mut challenger);
    t.elapsed().as_secs_f64()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(1024, |a| a.parse().expect("N"));
    let skip: usize = args.next().map_or(5, |a| a.parse().expect("k"));
    for (name, air, trace) in tables(n) {
        let zc = SkipZerocheck::new(skip);
        let seed = || transcript(b"skip".to_vec());
        let t = Instant::now();
        let (proof, point) = zc.prove(&air, &trace, None, &mut seed()).unwrap();
        let prove_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        assert_eq!(zc.verify(&air, trace.height().trailing_zeros() as usize, &proof, None, &mut seed()), Ok(point));
        let verify_ms = t.elapsed().as_secs_f64() * 1e3;
        let p3_s = p3_zerocheck(&air, &trace);
        println!(
            "RESULT table={name} n={n} rows={} width={} degree={} k={skip} prove_s={prove_s:.3} verify_ms={verify_ms:.2} p3_zerocheck_s={p3_s:.3} ratio={:.2}",
            trace.height(),
            trace.width,
            multilinear_degree(&air).unwrap(),
            p3_s / prove_s
        );
    }
}
