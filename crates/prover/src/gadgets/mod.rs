//! Constraint gadgets the aggregators' tables share: starting and chaining
//! a sponge ([`sponge`]), a Merkle path step and its root ([`merkle`]),
//! bits, limbs and range lookups ([`range`]), and flagged or mutually
//! exclusive bus messages ([`bus`]).
//!
//! Each gadget is a short function over Plonky3's `AirBuilder` (the bus
//! gadgets over `p3_lookup::InteractionBuilder`) that a table's `eval`
//! calls with its own cells: a gadget knows no layout. A gadget emits its
//! constraints in a documented order and nothing else, because the order
//! of a table's constraints and messages fixes the proof's bytes. Where a
//! gadget is gated by a selector, the selector must be 0 or 1 on every row
//! (a periodic column, or a committed cell asserted boolean): the gated
//! equation is only enforced where it is 1.

pub mod bus;
pub mod merkle;
pub mod range;
pub mod sponge;

#[cfg(test)]
pub(crate) mod testing {
    //! Row-by-row checks of a gadget on a small trace, through Plonky3's
    //! `check_constraints`, and a builder that records the bus messages of
    //! an empty row.

    use p3_air::{Air, AirBuilder, BaseAir, DebugConstraintBuilder, RowWindow, check_constraints};
    use p3_field::PrimeCharacteristicRing;
    use p3_lookup::{Count, InteractionBuilder};
    use p3_matrix::dense::RowMajorMatrix;

    use crate::config::Val;

    type Eval = dyn for<'a, 'b> Fn(&'b mut DebugConstraintBuilder<'a, Val>) + Sync;

    /// A table of `width` columns whose only constraints are `eval`'s.
    struct GadgetAir<'e> {
        width: usize,
        eval: &'e Eval,
    }

    impl BaseAir<Val> for GadgetAir<'_> {
        fn width(&self) -> usize {
            self.width
        }
    }

    impl<'a> Air<DebugConstraintBuilder<'a, Val>> for GadgetAir<'_> {
        fn eval(&self, builder: &mut DebugConstraintBuilder<'a, Val>) {
            (self.eval)(builder);
        }
    }

    /// Whether the rows (all of one width, read cyclically: the last row's
    /// next row is the first) satisfy `eval`'s constraints.
    pub(crate) fn holds(rows: &[Vec<u32>], eval: &Eval) -> bool {
        let width = rows[0].len();
        let values = rows.iter().flatten().map(|&v| Val::from_u32(v)).collect();
        let air = GadgetAir { width, eval };
        let matrix = RowMajorMatrix::new(values, width);
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_constraints(&air, &matrix, &[]))).is_ok()
    }

    /// One recorded bus message.
    pub(crate) struct Message {
        pub(crate) bus: String,
        pub(crate) fields: Vec<Val>,
        pub(crate) count: Val,
        pub(crate) bound: u32,
    }

    /// Records the bus messages and exclusive groups pushed to it; the
    /// window is empty, so it only runs gadgets fed with constants.
    pub(crate) struct Recorder {
        pub(crate) messages: Vec<Message>,
        pub(crate) exclusive_groups: usize,
        empty: RowWindow<'static, Val>,
    }

    impl Default for Recorder {
        fn default() -> Self {
            Self { messages: Vec::new(), exclusive_groups: 0, empty: RowWindow::from_two_rows(&[], &[]) }
        }
    }

    impl AirBuilder for Recorder {
        type F = Val;
        type Expr = Val;
        type Var = Val;
        type PreprocessedWindow = RowWindow<'static, Val>;
        type MainWindow = RowWindow<'static, Val>;
        type PublicVar = Val;
        type PeriodicVar = Val;

        fn main(&self) -> Self::MainWindow {
            self.empty
        }

        fn preprocessed(&self) -> &Self::PreprocessedWindow {
            &self.empty
        }

        fn is_first_row(&self) -> Val {
            Val::ONE
        }

        fn is_last_row(&self) -> Val {
            Val::ZERO
        }

        fn is_transition(&self) -> Val {
            Val::ONE
        }

        fn assert_zero<I: Into<Val>>(&mut self, x: I) {
            assert_eq!(x.into(), Val::ZERO);
        }

        fn periodic_values(&self) -> &[Val] {
            &[]
        }
    }

    impl InteractionBuilder for Recorder {
        fn push_interaction<E: Into<Val>>(
            &mut self,
            bus: &str,
            fields: impl IntoIterator<Item = E>,
            count: impl Into<Count<Val>>,
        ) {
            let (count, bound) = count.into().into_parts();
            let fields = fields.into_iter().map(Into::into).collect();
            self.messages.push(Message { bus: bus.into(), fields, count, bound });
        }

        fn push_local_interaction(&mut self, _tuples: impl IntoIterator<Item = (Vec<Val>, Count<Val>)>) {}

        fn push_exclusive_interaction(
            &mut self,
            _bus: &str,
            branches: impl IntoIterator<Item = (Val, Count<Val>, Vec<Val>)>,
        ) {
            branches.into_iter().for_each(drop);
            self.exclusive_groups += 1;
        }
    }
}
