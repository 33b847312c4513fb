//! Bus messages under selectors: a message live on the rows a boolean
//! flag selects ([`once`]), and a group of such messages whose flags
//! exclude each other ([`push_branches`]). How messages are laid out is
//! [`crate::bus`]'s; which direction is a send is each aggregator's
//! convention (the sign of the count).

use p3_lookup::{Count, InteractionBuilder};

/// A bus message live on the rows its flag selects: `(flag, count,
/// message)`, sent `flag * count` times.
pub type Branch<E> = (E, Count<E>, Vec<E>);

/// The count of a message sent once on the rows a boolean `flag` selects
/// and never elsewhere: the flag itself, with per-row bound 1 (negate it
/// for the other direction).
///
/// The LogUp multiplicity bound sums per-row bounds over the table's
/// height, so the bound must hold: `flag` must be 0 or 1 on every row (a
/// committed cell asserted boolean, a committed copy of a 0/1 periodic
/// column, or an expression such as `1 - a b` of bits). Otherwise one row
/// could send a message `p - 1` times, a hidden receive.
pub fn once<E>(flag: E) -> Count<E> {
    Count::bounded(flag, 1)
}

/// Sends a group of bus messages whose flags are boolean and mutually
/// exclusive (at most one fires per row), each `(flag, count, message)`.
///
/// With `exclusive`, the group is one exclusive interaction: the FRI
/// backend multiplexes it into one LogUp column. Otherwise every branch is
/// its own interaction of count `flag * count`, for backends that commit
/// no LogUp columns (the multilinear backend's fractional GKR, which does
/// not take exclusive groups). The two send the same messages with the
/// same multiplicities on every row where the flags are boolean and
/// exclusive, which the caller's AIR must enforce either way: with two
/// flags live on one row, the exclusive column would carry only one of
/// their messages.
pub fn push_branches<AB: InteractionBuilder>(
    builder: &mut AB,
    exclusive: bool,
    bus: &str,
    branches: impl IntoIterator<Item = Branch<AB::Expr>>,
) {
    if exclusive {
        builder.push_exclusive_interaction(bus, branches);
    } else {
        for (flag, count, message) in branches {
            let (count, weight) = count.into_parts();
            builder.push_interaction(bus, message, Count::bounded(flag * count, weight));
        }
    }
}

#[cfg(test)]
mod tests {
    use p3_field::PrimeCharacteristicRing;

    use super::*;
    use crate::config::Val;
    use crate::gadgets::testing::Recorder;

    fn v(x: u32) -> Val {
        Val::from_u32(x)
    }

    /// On a row where the second of three branches fires, the plain
    /// interactions send exactly its message, as many times as its count,
    /// and every bound is the branch's own.
    #[test]
    fn plain_branches_send_the_live_message() {
        let branches = || -> Vec<Branch<Val>> {
            vec![
                (v(0), Count::bounded(v(1), 1), vec![v(10)]),
                (v(1), -Count::bounded(v(1), 1), vec![v(20)]),
                (v(0), Count::from(2), vec![v(30)]),
            ]
        };
        let mut recorder = Recorder::default();
        push_branches(&mut recorder, false, "bus", branches());
        let live: Vec<_> = recorder.messages.iter().filter(|m| m.count != Val::ZERO).collect();
        assert_eq!(live.len(), 1);
        assert_eq!((live[0].count, live[0].fields.clone()), (-Val::ONE, vec![v(20)]));
        assert_eq!(recorder.messages.iter().map(|m| m.bound).collect::<Vec<_>>(), [1, 1, 2]);
        let mut exclusive = Recorder::default();
        push_branches(&mut exclusive, true, "bus", branches());
        assert_eq!((exclusive.messages.len(), exclusive.exclusive_groups), (0, 1));
    }

    /// `once` counts the flag, bounded by 1, in either direction.
    #[test]
    fn once_is_the_flag_bounded_by_one() {
        let (count, bound) = once(v(1)).into_parts();
        assert_eq!((count, bound), (Val::ONE, 1));
        let (count, bound) = (-once(v(1))).into_parts();
        assert_eq!((count, bound), (-Val::ONE, 1));
        assert_eq!(once(v(0)).into_parts().0, Val::ZERO);
    }
}
