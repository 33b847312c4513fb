//! The overflow table: rows of free width-16 sub-key hashes, for the hashes
//! that did not fit in the main table (see [`crate::layout`]). Each row is a
//! width-16 permutation and an `active` bit; an active row sends its
//! `SubKey` claim on the bus, exactly like the main table's width-16 columns.

use p3_air::{Air, BaseAir};
use p3_lookup::InteractionBuilder;

use super::hash::{eval_sub_key_hash, send_sub_key};
use crate::config::Val;
use crate::poseidon::{Outputs, Perm16, Rounds, perm16};

/// The overflow table's AIR. Columns: the permutation's, then `active`.
#[derive(Clone)]
pub struct Hash16Air {
    perm: Perm16,
}

impl core::fmt::Debug for Hash16Air {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Hash16Air")
    }
}

impl Hash16Air {
    /// The table with permutations in layout `rounds`, committing the
    /// digest's output lanes if `outputs` says so
    /// ([`Outputs::for_sub_keys`]; else the sub-key message reads their
    /// expressions, `HashAir::with_outputs`).
    pub fn new(rounds: Rounds, outputs: Outputs) -> Self {
        Self { perm: perm16(rounds, outputs) }
    }

    /// The permutation.
    pub fn perm(&self) -> &Perm16 {
        &self.perm
    }

    /// Column of the `active` bit (after the permutation's columns).
    pub fn active(&self) -> usize {
        self.perm.cols()
    }
}

impl BaseAir<Val> for Hash16Air {
    fn width(&self) -> usize {
        self.active() + 1
    }

    /// None: a row's permutation and message read that row alone. (The
    /// default, every column, would open each column at the next row too:
    /// 1.8 KB more of a multilinear proof at n = 1024.)
    fn main_next_row_columns(&self) -> Vec<usize> {
        Vec::new()
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for Hash16Air {
    fn eval(&self, builder: &mut AB) {
        let output = self.perm.eval(builder, 0);
        eval_sub_key_hash(builder, self.active());
        send_sub_key(builder, 0, &output, self.active());
    }
}
