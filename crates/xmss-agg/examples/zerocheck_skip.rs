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

use p3_air::{Air, AirBuilder, BaseAir};
use p3_lookup::{Count, InteractionBuilder};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_multi_stark::zerocheck::AirZerocheck;
use p3_sumcheck::layout::Table;
use rayon::prelude::*;
use sigagg_prover::config::{Challenge, Val, transcript};
use sigagg_prover::zerocheck::{SkipZerocheck, multilinear_degree};
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::air::AggAir;
use sigagg_xmss_agg::{Entry, Settings, Statement, testing};

#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

/// An AIR with its bus messages dropped, for `p3-multi-stark`'s zerocheck
/// (which would otherwise expect the lookup argument's claims).
struct NoBus<'a>(&'a AggAir);

impl BaseAir<Val> for NoBus<'_> {
    fn width(&self) -> usize {
        BaseAir::<Val>::width(self.0)
    }
    fn num_periodic_columns(&self) -> usize {
        BaseAir::<Val>::num_periodic_columns(self.0)
    }
    fn periodic_columns(&self) -> std::borrow::Cow<'_, [Vec<Val>]> {
        BaseAir::<Val>::periodic_columns(self.0)
    }
    fn main_next_row_columns(&self) -> Vec<usize> {
        BaseAir::<Val>::main_next_row_columns(self.0)
    }
}

impl<AB: AirBuilder<F = Val>> Air<AB> for NoBus<'_> {
    fn eval(&self, builder: &mut AB) {
        self.0.eval(&mut DropBus(builder));
    }
}

/// Forwards every constraint, drops every bus message.
struct DropBus<'a, AB>(&'a mut AB);

impl<AB: AirBuilder> AirBuilder for DropBus<'_, AB> {
    type F = AB::F;
    type Expr = AB::Expr;
    type Var = AB::Var;
    type PreprocessedWindow = AB::PreprocessedWindow;
    type MainWindow = AB::MainWindow;
    type PublicVar = AB::PublicVar;
    type PeriodicVar = AB::PeriodicVar;
    fn main(&self) -> Self::MainWindow {
        self.0.main()
    }
    fn preprocessed(&self) -> &Self::PreprocessedWindow {
        self.0.preprocessed()
    }
    fn is_first_row(&self) -> Self::Expr {
        self.0.is_first_row()
    }
    fn is_last_row(&self) -> Self::Expr {
        self.0.is_last_row()
    }
    fn is_transition(&self) -> Self::Expr {
        self.0.is_transition()
    }
    fn assert_zero<I: Into<Self::Expr>>(&mut self, x: I) {
        self.0.assert_zero(x);
    }
    fn public_values(&self) -> &[Self::PublicVar] {
        self.0.public_values()
    }
    fn periodic_values(&self) -> &[Self::PeriodicVar] {
        self.0.periodic_values()
    }
}

impl<AB: AirBuilder> InteractionBuilder for DropBus<'_, AB> {
    fn push_interaction<E: Into<Self::Expr>>(
        &mut self,
        _bus: &str,
        _fields: impl IntoIterator<Item = E>,
        _count: impl Into<Count<Self::Expr>>,
    ) {
    }
    fn push_local_interaction(&mut self, _tuples: impl IntoIterator<Item = (Vec<Self::Expr>, Count<Self::Expr>)>) {}
}

/// The chain and width-24 tables of `n` signatures (WHIR layout).
fn tables(n: usize) -> Vec<(&'static str, AggAir, RowMajorMatrix<Val>)> {
    let message = *b"consensus message signed by all!";
    let epoch = 1234;
    let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
        .into_par_iter()
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), epoch, &message).unwrap();
            (Entry { public_key: pk, epoch, message }, sig)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .unzip();
    let statement = Statement::new(entries).unwrap();
    let [(chain, chain_trace), (hash, hash_trace)] = testing::poseidon_tables(&Settings::WHIR, &statement, &signatures);
    vec![("chain", chain, chain_trace), ("width-24", hash, hash_trace)]
}

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
        let (proof, point) = zc.prove(&air, &trace, &mut seed()).unwrap();
        let prove_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        assert_eq!(zc.verify(&air, trace.height().trailing_zeros() as usize, &proof, &mut seed()), Ok(point));
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
