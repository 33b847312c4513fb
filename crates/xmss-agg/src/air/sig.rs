//! The statement table: one row per signature slot. Its columns are the
//! slot counter and the slot's public values; every value is sent on the bus
//! exactly once per slot: the message-hash inputs, the leaf's first virtual
//! end, the chain-tweak context, the key's root and the 20 tree levels.
//!
//! * **Aggregation**: every value is pinned to a periodic column the verifier
//!   computes from the statement (the lookup trace generator cannot read
//!   periodic columns, so the bus carries committed copies).
//! * **Threshold**: the epoch and message are shared and public, so their
//!   values are pinned the same way, but each slot's key (root, parameter)
//!   is a witness, tied to the group by the member messages it sends to the
//!   membership table. Three more columns hold the member index and the
//!   range-checked limbs proving that indices strictly increase over the
//!   `count` real slots (so no signer counts twice) and stay below the group
//!   size.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::InteractionBuilder;

use super::signers::{ThresholdCols, ThresholdPeriodic, eval_gaps, send_member};
use crate::bus;
use crate::config::Val;
use crate::layout::{DEPTH, DIGEST, MSG, PARAM};
use crate::statement::{AggregateStatement, SlotPublic};
use core::mem::offset_of;
use sigagg_prover::typed_row;

typed_row! {
    /// The statement values of one slot: the periodic columns, and their
    /// committed copies after the slot counter, in this order.
    pub struct SlotValues<T> {
        /// Hash parameter.
        pub param: [T; PARAM],
        /// Message-hash tweak.
        pub mtweak: [T; 2],
        /// The message as base-p digits.
        pub msg: [T; MSG],
        /// Leaf tweak.
        pub leaf_tweak: [T; 2],
        /// Chain-tweak part `a` (see `statement::chain_tweak_parts`).
        pub a: T,
        /// Chain-tweak part `b`.
        pub b: T,
        /// Chain-tweak borrow bits.
        pub beta: [T; 3],
        /// The key's Merkle root.
        pub root: [T; DIGEST],
        /// Per tree level: tweak digits and the direction bit.
        pub levels: [[T; 3]; DEPTH],
    }
}

typed_row! {
    /// The committed columns of a row; in threshold mode [`ThresholdCols`]
    /// follow.
    pub struct SigCols<T> {
        /// Slot counter.
        pub sig: T,
        /// Committed copies of the slot's [`SlotValues`].
        pub public: [T; SlotValues::<u8>::WIDTH],
    }
}

/// Column of the slot counter; the public values follow it, in periodic order.
pub const SIG: usize = offset_of!(SigCols<u8>, sig);
/// First committed copy of a statement value.
pub const PUBLIC: usize = offset_of!(SigCols<u8>, public);
/// Threshold mode: the member index.
pub const IDX: usize = SigCols::<u8>::WIDTH + offset_of!(ThresholdCols<u8>, idx);
/// Threshold mode: low and high 16-bit limbs of the index gap.
pub const GAP: usize = SigCols::<u8>::WIDTH + offset_of!(ThresholdCols<u8>, gap);

/// Threshold mode: periodic column of the revealed member index.
const REVEALED_INDEX: usize = SlotValues::<u8>::WIDTH + ThresholdPeriodic::<u8>::WIDTH;

/// How the table is used.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Mode {
    Aggregate,
    Threshold { reveal: bool },
}

/// The statement table's AIR; it carries the statement's periodic columns.
///
/// Plonky3 0.9 absorbs neither periodic columns nor AIR constants into its
/// transcript (`BaseAir::periodic_statement` exists but no prover or
/// verifier calls it), so these values are bound by the transcript seed
/// instead: the statement's digest ([`crate::transcript_seed`]).
#[derive(Clone, Debug)]
pub struct SigAir {
    columns: Vec<Vec<Val>>,
    mode: Mode,
}

impl From<&SlotPublic> for SlotValues<Val> {
    fn from(p: &SlotPublic) -> Self {
        Self {
            param: p.param,
            mtweak: p.mtweak,
            msg: p.msg,
            leaf_tweak: p.leaf_tweak,
            a: p.a,
            b: p.b,
            beta: p.beta,
            root: p.root,
            levels: p.levels,
        }
    }
}

impl SigCols<Val> {
    /// The row of slot `s`: its counter and the committed copies of its
    /// statement values `p`.
    pub fn slot(s: usize, p: &SlotPublic) -> Self {
        let mut public = [Val::ZERO; SlotValues::<u8>::WIDTH];
        SlotValues::from(p).write_to(&mut public);
        Self { sig: Val::from_usize(s), public }
    }
}

fn statement_columns(publics: &[SlotPublic], extra: usize) -> Vec<Vec<Val>> {
    super::periodic_table(publics.len(), SlotValues::<Val>::WIDTH + extra, |r, row| {
        SlotValues::from(&publics[r]).write_to(row);
    })
}

/// The public facts of a threshold proof that shape this statement table.
pub type ThresholdShape<'a> = crate::air::signers::ThresholdShape<'a, crate::statement::SlotPublic>;

impl SigAir {
    /// Aggregation: periodic columns for every (padded) slot of `statement`.
    pub fn new(statement: &AggregateStatement) -> Self {
        let n = statement.padded_len();
        let publics: Vec<SlotPublic> = (0..n).map(|s| SlotPublic::new(statement.slot(s))).collect();
        Self { columns: statement_columns(&publics, 0), mode: Mode::Aggregate }
    }

    /// Threshold: shared statement values on every slot, real-signer pattern,
    /// group size and (optionally) the revealed indices.
    pub fn threshold(shape: &ThresholdShape<'_>) -> Self {
        let reveal = shape.signers.is_some();
        let extra = ThresholdPeriodic::<Val>::WIDTH + usize::from(reveal);
        let shared = SlotValues::from(&shape.shared);
        let columns = super::periodic_table(shape.padded, SlotValues::<Val>::WIDTH + extra, |s, row| {
            shared.write_to(row);
            let rest = &mut row[SlotValues::<Val>::WIDTH..];
            ThresholdPeriodic::slot(s, shape.count, shape.size).write_to(rest);
            if let Some(signers) = shape.signers {
                row[REVEALED_INDEX] = Val::from_u32(signers[s.min(shape.count - 1)]);
            }
        });
        Self { columns, mode: Mode::Threshold { reveal } }
    }

    /// An aggregation AIR of the same shape for `n` slots with all-zero
    /// public values: for computing the constraint system's shape (security
    /// level), never for proving.
    pub fn placeholder(n: usize) -> Self {
        Self { columns: vec![vec![Val::default(); n]; SlotValues::<Val>::WIDTH], mode: Mode::Aggregate }
    }

    /// The trace rows of an aggregation: each slot's counter and the
    /// committed copies of its statement values.
    pub fn rows(&self) -> impl Iterator<Item = SigCols<Val>> + '_ {
        let n = self.columns.first().map_or(0, Vec::len);
        (0..n).map(move |r| {
            let mut public = [Val::ZERO; SlotValues::<u8>::WIDTH];
            for (value, column) in public.iter_mut().zip(&self.columns) {
                *value = column[r];
            }
            SigCols { sig: Val::from_usize(r), public }
        })
    }

    fn is_threshold(&self) -> bool {
        matches!(self.mode, Mode::Threshold { .. })
    }
}

impl BaseAir<Val> for SigAir {
    fn width(&self) -> usize {
        if self.is_threshold() { SigCols::<Val>::WIDTH + ThresholdCols::<Val>::WIDTH } else { SigCols::<Val>::WIDTH }
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        if self.is_threshold() { vec![SIG, IDX] } else { vec![SIG] }
    }

    fn num_periodic_columns(&self) -> usize {
        self.columns.len()
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for SigAir {
    /// The gadgets below, in this order (the order fixes the constraints'
    /// and messages' positions, hence the proof bytes).
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row.iter().map(|&v| v.into()).collect() };
        let (cur, next) = (exprs(main.current_slice()), exprs(main.next_slice()));
        let (loc, nxt) = (SigCols::from_slice(&cur), SigCols::from_slice(&next));
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();

        eval_counter(builder, &loc, &nxt);
        self.pin_values(builder, &loc, &periodic);
        let values = SlotValues::from_slice(&loc.public);
        send_statement(builder, &loc.sig, &values);
        if let Mode::Threshold { reveal } = self.mode {
            let width = SigCols::<AB::Expr>::WIDTH;
            let (th, th_next) = (ThresholdCols::from_slice(&cur[width..]), ThresholdCols::from_slice(&next[width..]));
            let p = ThresholdPeriodic::from_slice(&periodic[SlotValues::<AB::Expr>::WIDTH..]);
            eval_gaps(builder, &th, &th_next, &p);
            if reveal {
                builder.assert_eq(th.idx.clone(), periodic[REVEALED_INDEX].clone());
            }
            send_member(builder, &loc.sig, &values.root, &values.param, &th);
        }
    }
}

impl SigAir {
    /// The committed statement values equal the verifier's periodic
    /// columns; in threshold mode the key fields (parameter and root) are
    /// the signer's witness, tied to the group by the member messages.
    fn pin_values<AB: AirBuilder>(&self, builder: &mut AB, loc: &SigCols<AB::Expr>, periodic: &[AB::Expr]) {
        let param = offset_of!(SlotValues<u8>, param);
        let root = offset_of!(SlotValues<u8>, root);
        let is_key = |c: usize| (param..param + PARAM).contains(&c) || (root..root + DIGEST).contains(&c);
        for (c, (value, want)) in loc.public.iter().zip(periodic).enumerate() {
            if !(self.is_threshold() && is_key(c)) {
                builder.assert_eq(value.clone(), want.clone());
            }
        }
    }
}

/// The slot counter starts at 0 and steps by one per row.
fn eval_counter<AB: AirBuilder>(builder: &mut AB, loc: &SigCols<AB::Expr>, nxt: &SigCols<AB::Expr>) {
    builder.when_first_row().assert_zero(loc.sig.clone());
    builder.when_transition().assert_eq(nxt.sig.clone(), loc.sig.clone() + AB::Expr::ONE);
}

/// Sends every statement value once per slot: the message-hash inputs,
/// the leaf's first virtual end `[param | leaf tweak]`, the chain-tweak
/// context, the key's root and the tree levels.
fn send_statement<AB: InteractionBuilder<F = Val>>(builder: &mut AB, sig: &AB::Expr, v: &SlotValues<AB::Expr>) {
    let first_end: [AB::Expr; DIGEST] =
        core::array::from_fn(|i| if i < PARAM { v.param[i].clone() } else { v.leaf_tweak[i - PARAM].clone() });
    let send = |builder: &mut AB, msg: Vec<AB::Expr>| builder.push_interaction(bus::MAIN, msg, -1);
    send(builder, bus::statement_a(sig.clone(), v.param.clone(), v.mtweak.clone()));
    send(builder, bus::statement_b(sig.clone(), v.msg.clone()));
    send(builder, bus::end(sig.clone(), AB::Expr::ZERO, first_end));
    send(builder, bus::context(sig.clone(), v.param.clone(), v.a.clone(), v.b.clone(), v.beta.clone()));
    send(builder, bus::root(sig.clone(), v.root.clone()));
    for (l, [t0, t1, bit]) in v.levels.iter().cloned().enumerate() {
        let level = AB::Expr::from_u32(l as u32 + 1);
        send(builder, bus::level(sig.clone(), level, t0, t1, bit, v.param.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed rows keep the offsets the integer modules had.
    #[test]
    fn typed_rows_keep_the_former_offsets() {
        let iota: Vec<usize> = (0..SlotValues::<usize>::WIDTH).collect();
        let v = SlotValues::from_slice(&iota);
        assert_eq!((v.param[0], v.mtweak[0], v.msg[0], v.leaf_tweak[0]), (0, PARAM, PARAM + 2, PARAM + 2 + MSG));
        let a = PARAM + 4 + MSG;
        assert_eq!((v.a, v.b, v.beta[0], v.root[0], v.levels[0][0]), (a, a + 1, a + 2, a + 5, a + 5 + DIGEST));
        let width = a + 5 + DIGEST + 3 * DEPTH;
        assert_eq!((v.levels[1][0], SlotValues::<usize>::WIDTH), (a + 8 + DIGEST, width));
        assert_eq!((SIG, PUBLIC, IDX, GAP, REVEALED_INDEX), (0, 1, 1 + width, 2 + width, width + 3));
    }
}
