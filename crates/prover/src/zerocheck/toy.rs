//! A toy AIR for the tests of this module and of [`crate::skip_stark`].

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};
use p3_matrix::dense::RowMajorMatrix;

use crate::config::Val;

/// Fibonacci columns `a, b` (`a = 1` on the first row), `c = a^3 + p`
/// with `p` periodic of period 4, `e = b q` with `q` of period 64: a
/// degree-3 AIR with next-row reads, a selector, and periodic columns
/// shorter and longer than a group.
pub(crate) struct TestAir {
    pub(crate) periodic: Vec<Vec<Val>>,
}

impl TestAir {
    pub(crate) fn new() -> Self {
        Self {
            periodic: vec![
                (0..4).map(|i| Val::from_u32(7 * i + 1)).collect(),
                (0..64).map(|i| Val::from_u32(i * i + 3)).collect(),
            ],
        }
    }

    pub(crate) fn trace(&self, log_height: usize) -> RowMajorMatrix<Val> {
        self.trace_from(log_height, Val::ONE, Val::ONE)
    }

    /// The trace from `a, b` on the first row (valid for `a = 1`).
    pub(crate) fn trace_from(&self, log_height: usize, a: Val, b: Val) -> RowMajorMatrix<Val> {
        let height = 1 << log_height;
        let (mut a, mut b) = (a, b);
        let mut values = Vec::with_capacity(4 * height);
        for row in 0..height {
            let p = self.periodic[0][row % 4];
            let q = self.periodic[1][row % 64];
            values.extend([a, b, a.cube() + p, b * q]);
            (a, b) = (b, a + b);
        }
        RowMajorMatrix::new(values, 4)
    }
}

impl BaseAir<Val> for TestAir {
    fn width(&self) -> usize {
        4
    }
    fn num_periodic_columns(&self) -> usize {
        2
    }
    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.periodic)
    }
    fn main_next_row_columns(&self) -> Vec<usize> {
        vec![0, 1]
    }
    fn max_constraint_degree(&self) -> Option<usize> {
        Some(3)
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for TestAir {
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let (local, next) = (main.current_slice().to_vec(), main.next_slice().to_vec());
        let [p, q] = [builder.periodic_values()[0].into(), builder.periodic_values()[1].into()];
        let (a, b): (AB::Expr, AB::Expr) = (local[0].into(), local[1].into());
        builder.when_first_row().assert_one(a.clone());
        builder.when_transition().assert_eq(next[0], b.clone());
        builder.when_transition().assert_eq(next[1], a.clone() + b.clone());
        builder.assert_eq(local[2], a.cube() + p.clone());
        builder.assert_eq(local[3], b.clone() * q);
        // Messages that balance on a valid trace: each row but the
        // last sends its `b`, which the next row receives as its `a`;
        // each row sends `a^3 + p` and receives `c`.
        let (first, transition) = (builder.is_first_row(), builder.is_transition());
        builder.push_interaction("fib", [b], Count::bounded(transition, 1));
        builder.push_interaction("fib", [a.clone()], Count::bounded(first - AB::Expr::ONE, 1));
        builder.push_interaction("cube", [a.cube() + p], Count::bounded(AB::Expr::ONE, 1));
        builder.push_interaction("cube", [local[2].into()], Count::bounded(-AB::Expr::ONE, 1));
    }
}

/// Four boolean columns; each row sends its column 0 on a bus, the
/// count declared bounded by `weight`, and receives it back: balanced
/// on any boolean trace, with a LogUp bound of `(weight + 1)` a row.
pub(crate) struct BoundedBus {
    pub(crate) weight: u32,
}

impl BoundedBus {
    /// A valid trace of `2^log_height` rows.
    pub(crate) fn trace(log_height: usize) -> RowMajorMatrix<Val> {
        RowMajorMatrix::new((0..4usize << log_height).map(|i| Val::from_bool(i % 3 == 0)).collect(), 4)
    }
}

impl BaseAir<Val> for BoundedBus {
    fn width(&self) -> usize {
        4
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for BoundedBus {
    fn eval(&self, builder: &mut AB) {
        let local = builder.main().current_slice().to_vec();
        for &x in &local {
            builder.assert_bool(x);
        }
        let x: AB::Expr = local[0].into();
        builder.push_interaction("bounded", [x.clone()], Count::bounded(AB::Expr::ONE, self.weight));
        builder.push_interaction("bounded", [x], Count::bounded(-AB::Expr::ONE, 1));
    }
}
