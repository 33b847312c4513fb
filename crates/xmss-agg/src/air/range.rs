//! The range table: its first column counts `0, 1, ..., 2^16 - 1` (pinned by
//! a first-row and a transition constraint, and by the verifier checking the
//! table's height), its second holds how often each value was looked up.

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};

use crate::bus;
use crate::config::Val;

/// Column of the counter.
pub const VALUE: usize = 0;
/// Column of the multiplicities.
pub const MULT: usize = 1;

/// The range table's AIR.
#[derive(Clone, Copy, Debug, Default)]
pub struct RangeAir;

impl BaseAir<Val> for RangeAir {
    fn width(&self) -> usize {
        2
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        vec![VALUE]
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for RangeAir {
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let value: AB::Expr = main.current(VALUE).expect("column").into();
        let next: AB::Expr = main.next(VALUE).expect("column").into();
        let mult: AB::Expr = main.current(MULT).expect("column").into();
        builder.when_first_row().assert_zero(value.clone());
        builder.when_transition().assert_eq(next, value.clone() + AB::Expr::ONE);
        builder.push_interaction(bus::RANGE, [value], Count::provided(mult));
    }
}
