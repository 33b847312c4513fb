//! Test support for the family's tables, one table at a time: the
//! constraints of a block through Plonky3's `check_constraints`, and the
//! bus messages a trace sends, evaluated row by row ([`messages`]), so a
//! table's messages can be compared with the values its partners expect
//! before the tables are joined in a proof.

use std::collections::HashMap;

use p3_air::{Air, AirBuilder, BaseAir, RowWindow, check_constraints};
use p3_field::{PrimeCharacteristicRing, PrimeField32};
use p3_lookup::{Count, InteractionBuilder};
use p3_matrix::dense::RowMajorMatrix;

use crate::config::Val;

/// Whether `trace` (rows read cyclically) satisfies every constraint of `air`.
pub(crate) fn holds<A>(air: &A, trace: &RowMajorMatrix<Val>) -> bool
where
    A: for<'a> Air<p3_air::DebugConstraintBuilder<'a, Val>> + BaseAir<Val>,
{
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_constraints(air, trace, &[]))).is_ok()
}

/// Evaluates one row's interactions on concrete values.
pub(crate) struct RowRecorder<'a> {
    window: RowWindow<'a, Val>,
    periodic: Vec<Val>,
    first: bool,
    last: bool,
    messages: Vec<(String, Vec<Val>, Val)>,
}

impl<'a> AirBuilder for RowRecorder<'a> {
    type F = Val;
    type Expr = Val;
    type Var = Val;
    type PreprocessedWindow = RowWindow<'a, Val>;
    type MainWindow = RowWindow<'a, Val>;
    type PublicVar = Val;
    type PeriodicVar = Val;

    fn main(&self) -> Self::MainWindow {
        self.window
    }

    fn preprocessed(&self) -> &Self::PreprocessedWindow {
        &self.window
    }

    fn is_first_row(&self) -> Val {
        Val::from_bool(self.first)
    }

    fn is_last_row(&self) -> Val {
        Val::from_bool(self.last)
    }

    fn is_transition(&self) -> Val {
        Val::from_bool(!self.last)
    }

    /// Constraints are `holds`'s business.
    fn assert_zero<I: Into<Val>>(&mut self, _x: I) {}

    fn periodic_values(&self) -> &[Val] {
        &self.periodic
    }
}

impl InteractionBuilder for RowRecorder<'_> {
    fn push_interaction<E: Into<Val>>(
        &mut self,
        bus: &str,
        fields: impl IntoIterator<Item = E>,
        count: impl Into<Count<Val>>,
    ) {
        let (count, _) = count.into().into_parts();
        self.messages.push((bus.into(), fields.into_iter().map(Into::into).collect(), count));
    }

    fn push_local_interaction(&mut self, _tuples: impl IntoIterator<Item = (Vec<Val>, Count<Val>)>) {}

    fn push_exclusive_interaction(
        &mut self,
        bus: &str,
        branches: impl IntoIterator<Item = (Val, Count<Val>, Vec<Val>)>,
    ) {
        for (selector, count, fields) in branches {
            let (count, _) = count.into_parts();
            self.messages.push((bus.into(), fields, selector * count));
        }
    }
}

/// The net count of every message `air` sends or receives over `trace`
/// (sends negative, receives positive; zero totals dropped), keyed by bus
/// and canonical fields.
pub(crate) fn messages<A>(air: &A, trace: &RowMajorMatrix<Val>) -> HashMap<(String, Vec<u32>), i64>
where
    A: for<'a> Air<RowRecorder<'a>> + BaseAir<Val>,
{
    let (width, height) = (trace.width, trace.values.len() / trace.width);
    let periodic = air.periodic_columns();
    let mut net: HashMap<(String, Vec<u32>), i64> = HashMap::new();
    for r in 0..height {
        let row = |i: usize| &trace.values[(i % height) * width..(i % height + 1) * width];
        let mut rec = RowRecorder {
            window: RowWindow::from_two_rows(row(r), row(r + 1)),
            periodic: periodic.iter().map(|col| col[r % col.len()]).collect(),
            first: r == 0,
            last: r + 1 == height,
            messages: Vec::new(),
        };
        air.eval(&mut rec);
        for (bus, fields, count) in rec.messages {
            let c = count.as_canonical_u32();
            let signed = if c > Val::ORDER_U32 / 2 { i64::from(c) - i64::from(Val::ORDER_U32) } else { i64::from(c) };
            *net.entry((bus, fields.iter().map(|f| f.as_canonical_u32()).collect())).or_default() += signed;
        }
    }
    net.retain(|_, c| *c != 0);
    net
}

/// The same keyed form for expected messages.
pub(crate) fn expected(
    list: impl IntoIterator<Item = (&'static str, Vec<Val>, i64)>,
) -> HashMap<(String, Vec<u32>), i64> {
    let mut net: HashMap<(String, Vec<u32>), i64> = HashMap::new();
    for (bus, fields, count) in list {
        *net.entry((bus.into(), fields.iter().map(|f| f.as_canonical_u32()).collect())).or_default() += count;
    }
    net.retain(|_, c| *c != 0);
    net
}
