//! A Merkle path, one level per row: the row's compression hashes the
//! running node with its sibling, in the order the level's direction bit
//! says, and the next level's running node is the digest.
//!
//! Two layouts read the same step. [`place_node`] puts a node that the
//! table already holds (the previous row's digest) straight into the
//! input's left or right half: two constraints per lane, no extra column.
//! [`select_node`] commits the running node in its own columns and
//! selects it from the two halves: one constraint per lane. Either way the
//! other half is the free sibling, and the top digest must be the root
//! ([`root`]).

use p3_air::AirBuilder;
use p3_field::PrimeCharacteristicRing;

/// On the rows `flag` selects, `node` is the input's `left` half when `bit`
/// is 0 and its `right` half when `bit` is 1.
///
/// Without it the row could hash any two children and the path would
/// prove nothing about `node`. `bit` must be boolean (asserted by the
/// caller, e.g. [`crate::gadgets::range::bits`]): with any other value
/// both constraints could hold with `node` in neither half. Per lane, in
/// lane order: `flag (1 - bit) (left - node)`, then `flag bit (right -
/// node)` (degree 3).
pub fn place_node<AB: AirBuilder>(
    builder: &mut AB,
    flag: &AB::Expr,
    bit: &AB::Expr,
    node: &[AB::Expr],
    left: &[AB::Expr],
    right: &[AB::Expr],
) {
    for ((node, left), right) in node.iter().zip(left).zip(right) {
        builder.assert_zero(flag.clone() * (AB::Expr::ONE - bit.clone()) * (left.clone() - node.clone()));
        builder.assert_zero(flag.clone() * bit.clone() * (right.clone() - node.clone()));
    }
}

/// On the rows `flag` selects, the committed running node `node` is the
/// half of the input that `bit` selects: `left + bit (right - left)`.
///
/// The same step as [`place_node`] for a table that commits the running
/// node: without it the node climbing the tree need not be either child.
/// `bit` must be boolean, or the selection is a blend of both halves. One
/// constraint `flag (node - left - bit (right - left))` per lane, in lane
/// order (degree 3).
pub fn select_node<AB: AirBuilder>(
    builder: &mut AB,
    flag: &AB::Expr,
    bit: &AB::Expr,
    node: &[AB::Expr],
    left: &[AB::Expr],
    right: &[AB::Expr],
) {
    for ((node, left), right) in node.iter().zip(left).zip(right) {
        let chosen = left.clone() + bit.clone() * (right.clone() - left.clone());
        builder.assert_zero(flag.clone() * (node.clone() - chosen));
    }
}

/// On the rows `flag` selects (the top level), the digest is `root`.
///
/// Without it a path may end at any value, so membership would be in a
/// tree of the prover's choosing. One constraint `flag (digest - root)`
/// per lane, in lane order.
pub fn root<AB: AirBuilder>(
    builder: &mut AB,
    flag: &AB::Expr,
    digest: &[AB::Expr],
    root: impl IntoIterator<Item = AB::Expr>,
) {
    for (digest, root) in digest.iter().zip(root) {
        builder.assert_zero(flag.clone() * (digest.clone() - root));
    }
}

#[cfg(test)]
mod tests {
    use p3_air::{DebugConstraintBuilder, WindowAccess};

    use super::*;
    use crate::config::Val;
    use crate::gadgets::testing::holds;

    type B<'a> = DebugConstraintBuilder<'a, Val>;

    /// Rows `[flag | bit | node (2) | left (2) | right (2)]`.
    fn step(b: &mut B<'_>, place: bool) {
        let loc = b.main().current_slice().to_vec();
        let (flag, bit) = (loc[0], loc[1]);
        let (node, left, right) = (&loc[2..4], &loc[4..6], &loc[6..8]);
        if place {
            place_node(b, &flag, &bit, node, left, right);
        } else {
            select_node(b, &flag, &bit, node, left, right);
        }
    }

    #[test]
    fn the_bit_places_the_node_on_its_side() {
        for place in [true, false] {
            let eval = move |b: &mut B<'_>| step(b, place);
            assert!(holds(&[vec![1, 0, 3, 4, 3, 4, 8, 9]], &eval), "left");
            assert!(holds(&[vec![1, 1, 3, 4, 8, 9, 3, 4]], &eval), "right");
            assert!(!holds(&[vec![1, 1, 3, 4, 3, 4, 8, 9]], &eval), "left, but the bit says right");
            assert!(!holds(&[vec![1, 0, 3, 4, 3, 5, 8, 9]], &eval), "one lane off");
            assert!(holds(&[vec![0, 0, 3, 4, 5, 6, 8, 9]], &eval), "unflagged");
        }
    }

    #[test]
    fn the_top_digest_is_the_root() {
        let eval = |b: &mut B<'_>| {
            let loc = b.main().current_slice().to_vec();
            root(b, &loc[0], &loc[1..3], [Val::from_u32(7), Val::from_u32(8)]);
        };
        assert!(holds(&[vec![1, 7, 8]], &eval));
        assert!(!holds(&[vec![1, 7, 9]], &eval));
        assert!(holds(&[vec![0, 7, 9]], &eval));
    }
}
