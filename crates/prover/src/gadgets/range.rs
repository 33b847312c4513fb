//! Integers in field cells: bits, little-endian limbs, and range checks by
//! lookup into a table of `0 .. 2^k`.
//!
//! A field equation is an integer equation only while no side can reach
//! `p`; these gadgets are how a table makes sure of it. Every limb must be
//! range-checked (booleanity for bits, a lookup for wider limbs) before
//! [`recompose`] means what it says, and the recomposed value must stay
//! below `p`.

use p3_air::AirBuilder;
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};

/// `sum_i limbs[i] 2^(bits i)`: the integer with little-endian limbs of
/// `bits` bits each.
///
/// No constraint: it is an expression. It is the integer only if every
/// limb is below `2^bits` (checked by the caller: [`bits`],
/// [`lookup_below`]) and the sum stays below `p`; otherwise other limbs
/// reach the same field element.
pub fn recompose<E: PrimeCharacteristicRing>(limbs: impl IntoIterator<Item = E>, bits: u32) -> E {
    let mut limbs = limbs.into_iter();
    let Some(first) = limbs.next() else { return E::ZERO };
    limbs.zip(1u32..).fold(first, |sum, (limb, i)| sum + limb * E::from_u64(1 << (bits * i)))
}

/// Asserts that every cell of `bits` is 0 or 1 (one constraint
/// `b (b - 1)` each, in order) and returns `sum_i bits[i] 2^i`.
///
/// Without booleanity a "bit" is any field element, and the recomposed
/// value any element too: a decomposition proves a range only with it.
pub fn bits<AB: AirBuilder>(builder: &mut AB, bits: impl IntoIterator<Item = AB::Expr>) -> AB::Expr {
    let bits: Vec<AB::Expr> = bits.into_iter().collect();
    for bit in &bits {
        builder.assert_bool(bit.clone());
    }
    recompose(bits, 1)
}

/// Proves `value < 2^bits` by lookups into a table holding `0 .. 2^table`
/// (`bits <= table`), each with `count`: `value` itself, and when the
/// range is narrower than the table, also `value * 2^(table - bits)`.
///
/// One lookup bounds the value by the table; the scaled copy is in the
/// table only if the value is below `2^bits` (a larger value scales past
/// `2^table`, and wraps modulo `p` only from `p / 2^(table - bits)` on,
/// which the first lookup excludes while `2^(2 table - bits) < p`).
///
/// # Panics
/// If `bits > table` or `table >= 31`: a table layout bug.
pub fn lookup_below<AB: InteractionBuilder>(
    builder: &mut AB,
    bus: &str,
    value: AB::Expr,
    bits: u32,
    table: u32,
    count: Count<AB::Expr>,
) {
    assert!(bits <= table && table < 31, "a {bits}-bit range in a {table}-bit table");
    builder.push_interaction(bus, [value.clone()], count.clone());
    if bits < table {
        builder.push_interaction(bus, [value * AB::Expr::from_u32(1 << (table - bits))], count);
    }
}

#[cfg(test)]
mod tests {
    use p3_air::{DebugConstraintBuilder, WindowAccess};
    use p3_field::PrimeField32;

    use super::*;
    use crate::config::Val;
    use crate::gadgets::bus::once;
    use crate::gadgets::testing::{Recorder, holds};

    type B<'a> = DebugConstraintBuilder<'a, Val>;

    #[test]
    fn limbs_recompose_little_endian() {
        let v = |x: u32| Val::from_u32(x);
        assert_eq!(recompose([v(3), v(1), v(2)], 12), v(3 + (1 << 12) + (2 << 24)));
        assert_eq!(recompose([v(1), v(0), v(1)], 1), v(5));
        assert_eq!(recompose(core::iter::empty::<Val>(), 4), Val::ZERO);
    }

    /// Rows `[bits (3) | value]`: the bits are bits and spell the value.
    #[test]
    fn bits_are_boolean_and_spell_the_value() {
        let eval = |b: &mut B<'_>| {
            let loc = b.main().current_slice().to_vec();
            let value = bits(b, loc[..3].iter().copied());
            b.assert_eq(value, loc[3]);
        };
        assert!(holds(&[vec![1, 0, 1, 5]], &eval));
        assert!(!holds(&[vec![1, 0, 1, 4]], &eval), "another value");
        // 5 = 3 + 2 * 1: limbs that recompose right but are not bits.
        assert!(!holds(&[vec![3, 1, 0, 5]], &eval), "a non-boolean bit");
    }

    /// A 13-bit range in a 16-bit table looks up the value and 8 times
    /// it: 2^13 - 1 passes both lookups, 2^13 only the first, and 2^16 - 1
    /// (which a lone lookup would pass) not the second; a full-width range
    /// is one lookup.
    #[test]
    fn the_scaled_copy_narrows_the_range() {
        let lookups = |value: u32, bits: u32| -> Vec<(String, Val, Val)> {
            let mut recorder = Recorder::default();
            lookup_below(&mut recorder, "range", Val::from_u32(value), bits, 16, -once(Val::ONE));
            recorder.messages.into_iter().map(|m| (m.bus, m.fields[0], m.count)).collect()
        };
        let in_table = |looked: Vec<(String, Val, Val)>| {
            looked.iter().all(|(bus, x, count)| bus == "range" && x.as_canonical_u32() < 1 << 16 && *count == -Val::ONE)
        };
        assert_eq!(lookups(5, 13).iter().map(|l| l.1).collect::<Vec<_>>(), [Val::from_u32(5), Val::from_u32(40)]);
        assert!(in_table(lookups((1 << 13) - 1, 13)));
        assert!(!in_table(lookups(1 << 13, 13)));
        assert!(!in_table(lookups((1 << 16) - 1, 13)));
        assert_eq!(lookups((1 << 16) - 1, 16).len(), 1);
    }
}
