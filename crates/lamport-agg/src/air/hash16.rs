//! The overflow table: rows of free width-16 sub-key hashes, for the hashes
//! that did not fit in the main table (see [`crate::layout`]). Each row is a
//! width-16 permutation and an `active` bit; an active row sends its
//! `SubKey` claim on the bus, exactly like the main table's width-16 columns.

use p3_air::{Air, BaseAir};
use p3_lookup::InteractionBuilder;
use p3_uni_stark::SubAirBuilder;

use super::hash::{eval_sub_key_hash, send_sub_key};
use crate::config::Val;
use crate::poseidon::{Air16, COLS16, air16};

/// Column of the `active` bit (after the permutation's columns).
pub const ACTIVE: usize = COLS16;
/// Width of the table.
pub const WIDTH: usize = COLS16 + 1;

/// The overflow table's AIR.
#[derive(Clone)]
pub struct Hash16Air {
    perm: Air16,
}

impl core::fmt::Debug for Hash16Air {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Hash16Air")
    }
}

impl Default for Hash16Air {
    fn default() -> Self {
        Self { perm: air16() }
    }
}

impl BaseAir<Val> for Hash16Air {
    fn width(&self) -> usize {
        WIDTH
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for Hash16Air {
    fn eval(&self, builder: &mut AB) {
        {
            let mut sub = SubAirBuilder::<AB, Air16, AB::Var>::new(builder, 0..COLS16);
            self.perm.eval(&mut sub);
        }
        eval_sub_key_hash(builder, 0, ACTIVE);
        send_sub_key(builder, 0, ACTIVE);
    }
}
