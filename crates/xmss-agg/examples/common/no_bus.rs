//! What the examples comparing our multilinear prover with
//! `p3-multi-stark` share: the Seed001 Poseidon2 tables of N signatures,
//! and AIRs with their bus messages dropped.

use p3_air::{Air, AirBuilder, BaseAir};
use p3_lookup::{Count, InteractionBuilder};
use p3_matrix::dense::RowMajorMatrix;
use rayon::prelude::*;
use sigagg_prover::config::Val;
use sigagg_xmss::{Seed001, Signature, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::testing;
use sigagg_xmss_agg::air::AggAir;
use sigagg_xmss_agg::{AggregateEntry as Entry, AggregateStatement as Statement, Settings};

/// An AIR with its bus messages dropped, for `p3-multi-stark`'s zerocheck
/// (which would otherwise expect the lookup argument's claims).
pub struct NoBus<'a>(pub &'a AggAir);

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

/// A statement of `n` Seed001 signatures of one message, and the signatures.
pub fn statement(n: usize) -> (Statement, Vec<Signature<Seed001>>) {
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
    (Statement::new(entries).unwrap(), signatures)
}

/// The chain and width-24 tables of `n` signatures (WHIR layout).
pub fn tables(n: usize) -> Vec<(&'static str, AggAir, RowMajorMatrix<Val>)> {
    let (statement, signatures) = statement(n);
    let [(chain, chain_trace), (hash, hash_trace)] = testing::poseidon_tables(&Settings::WHIR, &statement, &signatures);
    vec![("chain", chain, chain_trace), ("width-24", hash, hash_trace)]
}
