//! The range table: its first column counts `0, 1, ..., 2^16 - 1` (pinned by
//! a first-row and a transition constraint, and by the verifier checking the
//! table's height), its second holds how often each value was looked up.

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};

use crate::bus;
use crate::config::Val;
use core::mem::offset_of;
use sigagg_prover::typed_row;

typed_row! {
    /// The committed columns of one row.
    pub struct RangeCols<T> {
        /// The counter.
        pub value: T,
        /// How often the value was looked up.
        pub mult: T,
    }
}

/// Column of the counter.
pub const VALUE: usize = offset_of!(RangeCols<u8>, value);
/// Column of the multiplicities.
pub const MULT: usize = offset_of!(RangeCols<u8>, mult);

/// The range table's AIR.
#[derive(Clone, Copy, Debug, Default)]
pub struct RangeAir;

impl BaseAir<Val> for RangeAir {
    fn width(&self) -> usize {
        RangeCols::<Val>::WIDTH
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        vec![VALUE]
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for RangeAir {
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row.iter().map(|&v| v.into()).collect() };
        let loc = RangeCols::from_slice(&exprs(main.current_slice()));
        let next = RangeCols::from_slice(&exprs(main.next_slice()));
        builder.when_first_row().assert_zero(loc.value.clone());
        builder.when_transition().assert_eq(next.value, loc.value.clone() + AB::Expr::ONE);
        builder.push_interaction(bus::RANGE, [loc.value], Count::provided(loc.mult));
    }
}
