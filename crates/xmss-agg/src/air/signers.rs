//! The statement table's threshold columns, shared by every set's
//! statement table: each slot's member index and the range-checked limbs
//! of the gap to the next signer's, and the member messages that tie the
//! slot's key to the membership table ([`super::group::GroupAir`]).
//!
//! Real signers have strictly increasing indices: the gap to the next one,
//! minus one, is an integer below 2^29 (limbs of 16 and 13 bits). The last
//! one is below the group size. Indices are below 2^29 (the membership
//! table's index bits), so a decreasing or equal pair wraps to at least
//! `p - 2^29 > 2^29` and fails the range check. Past the last signer the
//! gap is zero (padded slots repeat the last signer), so nobody counts
//! twice and `count` real slots are `count` distinct members.

use p3_air::AirBuilder;
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};
use sigagg_prover::gadgets::range::{lookup_below, recompose};
use sigagg_prover::typed_row;

use crate::bus;
use crate::config::Val;
use crate::layout::PARAM;

/// The public facts of a threshold proof that shape a statement table;
/// `P` is the set's slot values.
#[derive(Clone, Debug)]
pub struct ThresholdShape<'a, P> {
    /// Values every slot shares (the key fields are ignored).
    pub shared: P,
    /// Slots in the circuit.
    pub padded: usize,
    /// Real signers (the first `count` slots).
    pub count: usize,
    /// Group size.
    pub size: u32,
    /// The signers' member indices, when revealed.
    pub signers: Option<&'a [u32]>,
}

typed_row! {
    /// The committed threshold columns, after the statement values.
    pub struct ThresholdCols<T> {
        /// The member index.
        pub idx: T,
        /// Low (16-bit) and high (13-bit) limbs of the index gap.
        pub gap: [T; 2],
    }
}

typed_row! {
    /// The periodic threshold columns, after the statement values (the
    /// revealed member index follows when the signers are revealed).
    pub(crate) struct ThresholdPeriodic<T> {
        /// The next slot is a real signer too.
        pub next_real: T,
        /// The last real signer.
        pub is_last: T,
        /// The group size.
        pub size: T,
    }
}

impl ThresholdPeriodic<Val> {
    /// Slot `s`'s values for `count` real signers in a group of `size`.
    pub(crate) fn slot(s: usize, count: usize, size: u32) -> Self {
        Self {
            next_real: Val::from_bool(s + 1 < count),
            is_last: Val::from_bool(s + 1 == count),
            size: Val::from_u32(size),
        }
    }
}

impl ThresholdCols<Val> {
    /// The committed values of slot `s`: its index and the limbs of `gaps[s]`.
    pub fn slot(s: usize, indices: &[u32], gaps: &[u32]) -> Self {
        Self { idx: Val::from_u32(indices[s]), gap: [gaps[s] & 0xffff, gaps[s] >> 16].map(Val::from_u32) }
    }
}

/// The gap after each of `indices` (sorted real signers first, then the
/// padded slots): the next index minus this one minus one, the group size
/// minus one minus the last real index, zero past it. Wrapping: a tampered
/// witness (tests) gets a gap no range check accepts.
pub fn gaps(indices: &[u32], count: usize, size: u32) -> Vec<u32> {
    (0..indices.len())
        .map(|s| match s {
            s if s + 1 < count => indices[s + 1].wrapping_sub(indices[s]).wrapping_sub(1),
            s if s + 1 == count => size.wrapping_sub(1).wrapping_sub(indices[s]),
            _ => 0,
        })
        .collect()
}

/// The values the gap limbs look up in the 16-bit range table, per slot:
/// the low limb, the high limb and the high limb times 8 (below 2^13).
pub fn gap_range_values(gaps: &[u32]) -> impl Iterator<Item = u32> + '_ {
    gaps.iter().flat_map(|&g| [g & 0xffff, g >> 16, (g >> 16).wrapping_mul(8)])
}

/// Indices strictly increase over the real signers and stay below the
/// group size (module docs).
pub(crate) fn eval_gaps<AB: AirBuilder>(
    builder: &mut AB,
    th: &ThresholdCols<AB::Expr>,
    th_next: &ThresholdCols<AB::Expr>,
    p: &ThresholdPeriodic<AB::Expr>,
) {
    let (idx, [g0, g1]) = (th.idx.clone(), th.gap.clone());
    let gap = recompose([g0, g1], 16);
    let (next_real, is_last) = (p.next_real.clone(), p.is_last.clone());
    builder
        .when_transition()
        .assert_zero(next_real.clone() * (gap.clone() - (th_next.idx.clone() - idx.clone() - AB::Expr::ONE)));
    builder.assert_zero(is_last.clone() * (gap.clone() - (p.size.clone() - AB::Expr::ONE - idx)));
    builder.assert_zero((AB::Expr::ONE - next_real - is_last) * gap);
}

/// Sends the signer's key (`root`, `param`) and index to the membership
/// table, and the gap limbs to the range table (the high limb also times
/// 8: below 2^13).
pub(crate) fn send_member<AB: InteractionBuilder<F = Val>>(
    builder: &mut AB,
    sig: &AB::Expr,
    root: &[AB::Expr],
    param: &[AB::Expr; PARAM],
    th: &ThresholdCols<AB::Expr>,
) {
    builder.push_interaction(bus::MAIN, bus::member_a(sig.clone(), root.to_vec()), -1);
    builder.push_interaction(bus::MAIN, bus::member_b(sig.clone(), param.clone(), th.idx.clone()), -1);
    let [g0, g1] = th.gap.clone();
    lookup_below(builder, bus::RANGE, g0, 16, 16, Count::from(-1));
    lookup_below(builder, bus::RANGE, g1, 13, 16, Count::from(-1));
}
