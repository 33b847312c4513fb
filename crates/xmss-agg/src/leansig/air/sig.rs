//! The statement table: one row per slot, sending every statement-derived
//! value on the bus once: the message-hash inputs, the sponge stream's
//! virtual end 0, the chain-tweak context, the key's root and one message
//! per tree level.
//!
//! Every value is pinned to a periodic column the verifier computes from
//! the statement ([`SlotPublic`]); the bus carries committed copies (the
//! lookup trace generator cannot read periodic columns). Periodic columns
//! are not absorbed by Plonky3's transcript, so the statement's digest
//! seeds it instead ([`crate::system::transcript_seed`]).

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::InteractionBuilder;
use sigagg_prover::typed_row;

use crate::air::signers::{ThresholdCols, ThresholdPeriodic, eval_gaps, send_member};
use crate::config::Val;
use crate::leansig::bus;
use crate::leansig::layout::{DIGEST, LeanFamily, MSG, PARAM, Shape};
use crate::leansig::slot::SlotPublic;
use crate::statement::AggregateStatement;

typed_row! {
    /// The statement values of a slot other than its tree levels, which
    /// follow them (`3 depth` cells: tweak digits and direction bit).
    pub struct SlotValues<T> {
        /// Hash parameter.
        pub param: [T; PARAM],
        /// Message-hash tweak.
        pub mtweak: [T; 2],
        /// The message as base-p digits.
        pub msg: [T; MSG],
        /// Leaf tweak.
        pub leaf_tweak: [T; 2],
        /// Chain-tweak part `cb`.
        pub cb: T,
        /// Chain-tweak part `a`.
        pub a: T,
        /// Chain-tweak part `ts`.
        pub ts: T,
        /// The key's Merkle root.
        pub root: [T; DIGEST],
    }
}

/// Column of the slot counter; the committed copies of the statement
/// values follow it, in the periodic columns' order.
pub const SIG: usize = 0;

/// The statement values of `p`, levels last, as one row.
fn values(p: &SlotPublic) -> Vec<Val> {
    let mut row = vec![Val::ZERO; SlotValues::<Val>::WIDTH];
    SlotValues {
        param: p.param,
        mtweak: p.mtweak,
        msg: p.msg,
        leaf_tweak: p.leaf_tweak,
        cb: p.cb,
        a: p.a,
        ts: p.ts,
        root: p.root,
    }
    .write_to(&mut row);
    row.extend(p.levels.iter().flatten());
    row
}

/// How the table is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Every value pinned to the statement.
    Aggregate,
    /// The key fields (parameter and root) are each signer's witness, tied
    /// to the group by the member messages; the threshold columns follow
    /// ([`crate::air::signers`]).
    Threshold { reveal: bool },
}

/// The statement table's AIR; it carries the statement's periodic columns.
#[derive(Clone, Debug)]
pub struct SigAir {
    depth: usize,
    columns: Vec<Vec<Val>>,
    mode: Mode,
}

/// The public facts of a threshold proof that shape this statement table.
pub type ThresholdShape<'a> = crate::air::signers::ThresholdShape<'a, SlotPublic>;

impl SigAir {
    /// Periodic columns for every (padded) slot of `statement`.
    pub fn new<S: LeanFamily>(statement: &AggregateStatement<S>) -> Self {
        let publics = SlotPublic::of_slots(statement);
        Self::from_publics(Shape::of::<S>().depth, &publics)
    }

    /// An AIR of the same shape for `n` slots with zero public values: for
    /// the security calculator, never for proving.
    pub fn placeholder(shape: &Shape, n: usize) -> Self {
        let columns = vec![vec![Val::ZERO; n]; SlotValues::<Val>::WIDTH + 3 * shape.depth];
        Self { depth: shape.depth, columns, mode: Mode::Aggregate }
    }

    fn from_publics(depth: usize, publics: &[SlotPublic]) -> Self {
        let width = SlotValues::<Val>::WIDTH + 3 * depth;
        let columns = sigagg_prover::periodic_table(publics.len(), width, |r, row| {
            row.copy_from_slice(&values(&publics[r]));
        });
        Self { depth, columns, mode: Mode::Aggregate }
    }

    /// Threshold: the shared statement values on every slot, the
    /// real-signer pattern, the group size and (optionally) the revealed
    /// indices.
    pub fn threshold(shape: &ThresholdShape<'_>) -> Self {
        let depth = shape.shared.levels.len();
        let statement = SlotValues::<Val>::WIDTH + 3 * depth;
        let reveal = shape.signers.is_some();
        let shared = values(&shape.shared);
        let width = statement + ThresholdPeriodic::<Val>::WIDTH + usize::from(reveal);
        let columns = sigagg_prover::periodic_table(shape.padded, width, |s, row| {
            row[..statement].copy_from_slice(&shared);
            ThresholdPeriodic::slot(s, shape.count, shape.size).write_to(&mut row[statement..]);
            if let Some(signers) = shape.signers {
                row[width - 1] = Val::from_u32(signers[s.min(shape.count - 1)]);
            }
        });
        Self { depth, columns, mode: Mode::Threshold { reveal } }
    }

    /// Periodic columns of the statement values (the threshold ones follow).
    fn statement_width(&self) -> usize {
        SlotValues::<Val>::WIDTH + 3 * self.depth
    }

    /// The trace of an aggregation: each slot's counter and the committed
    /// copies of its values.
    pub fn trace(&self) -> p3_matrix::dense::RowMajorMatrix<Val> {
        let n = self.columns.first().map_or(0, Vec::len);
        let width = BaseAir::<Val>::width(self);
        let mut values = Vec::with_capacity(n * width);
        for r in 0..n {
            values.push(Val::from_usize(r));
            values.extend(self.columns.iter().map(|c| c[r]));
        }
        p3_matrix::dense::RowMajorMatrix::new(values, width)
    }

    /// The trace of a threshold proof: each slot's counter, its values
    /// (the signer's key with the shared values), its member index and
    /// gap limbs (`gaps`, [`crate::air::signers::gaps`]).
    pub fn threshold_trace(
        &self,
        publics: &[&SlotPublic],
        indices: &[u32],
        gaps: &[u32],
    ) -> p3_matrix::dense::RowMajorMatrix<Val> {
        let width = BaseAir::<Val>::width(self);
        let mut values = Vec::with_capacity(publics.len() * width);
        for (s, p) in publics.iter().enumerate() {
            values.push(Val::from_usize(s));
            values.extend(self::values(p));
            let mut th = [Val::ZERO; ThresholdCols::<u8>::WIDTH];
            ThresholdCols::slot(s, indices, gaps).write_to(&mut th);
            values.extend(th);
        }
        p3_matrix::dense::RowMajorMatrix::new(values, width)
    }
}

/// Threshold mode: the first threshold column (after the counter and the
/// statement values of a set of tree depth `depth`).
pub fn threshold_column(depth: usize) -> usize {
    1 + SlotValues::<u8>::WIDTH + 3 * depth
}

impl BaseAir<Val> for SigAir {
    fn width(&self) -> usize {
        match self.mode {
            Mode::Aggregate => 1 + self.columns.len(),
            Mode::Threshold { .. } => 1 + self.statement_width() + ThresholdCols::<u8>::WIDTH,
        }
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        match self.mode {
            Mode::Aggregate => vec![SIG],
            Mode::Threshold { .. } => vec![SIG, threshold_column(self.depth)],
        }
    }

    fn num_periodic_columns(&self) -> usize {
        self.columns.len()
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for SigAir {
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let exprs = |row: &[AB::Var]| -> Vec<AB::Expr> { row.iter().map(|&v| v.into()).collect() };
        let (cur, next) = (exprs(main.current_slice()), exprs(main.next_slice()));
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let statement = self.statement_width();
        eval_counter(builder, &cur[SIG], &next[SIG]);
        let threshold = matches!(self.mode, Mode::Threshold { .. });
        pin_values(builder, &cur[SIG + 1..=statement], &periodic[..statement], threshold);
        let values = SlotValues::from_slice(&cur[SIG + 1..]);
        let levels = &cur[SIG + 1 + SlotValues::<AB::Expr>::WIDTH..=statement];
        send_statement(builder, &cur[SIG], &values, levels, self.depth);
        if let Mode::Threshold { reveal } = self.mode {
            let at = threshold_column(self.depth);
            let (th, th_next) = (ThresholdCols::from_slice(&cur[at..]), ThresholdCols::from_slice(&next[at..]));
            let p = ThresholdPeriodic::from_slice(&periodic[statement..]);
            eval_gaps(builder, &th, &th_next, &p);
            if reveal {
                builder.assert_eq(th.idx.clone(), periodic[periodic.len() - 1].clone());
            }
            send_member(builder, &cur[SIG], &values.root, &values.param, &th);
        }
    }
}

/// The slot counter starts at 0 and steps by one per row, so each row's
/// messages name its own slot.
fn eval_counter<AB: AirBuilder>(builder: &mut AB, sig: &AB::Expr, next: &AB::Expr) {
    builder.when_first_row().assert_zero(sig.clone());
    builder.when_transition().assert_eq(next.clone(), sig.clone() + AB::Expr::ONE);
}

/// The committed copies equal the verifier's periodic columns: without
/// this the prover would choose the statement. In threshold mode the key
/// fields (parameter and root) are the signer's witness instead.
fn pin_values<AB: AirBuilder>(builder: &mut AB, copies: &[AB::Expr], periodic: &[AB::Expr], threshold: bool) {
    let param = core::mem::offset_of!(SlotValues<u8>, param);
    let root = core::mem::offset_of!(SlotValues<u8>, root);
    let is_key = |c: usize| (param..param + PARAM).contains(&c) || (root..root + DIGEST).contains(&c);
    for (c, (value, want)) in copies.iter().zip(periodic).enumerate() {
        if !(threshold && is_key(c)) {
            builder.assert_eq(value.clone(), want.clone());
        }
    }
}

/// Sends (count -1) every statement value of the slot once, in this order:
/// the message-hash inputs, virtual end 0 `[0 | param | leaf tweak]`, the
/// chain-tweak context, the root and the levels `1..=depth`.
fn send_statement<AB: InteractionBuilder<F = Val>>(
    builder: &mut AB,
    sig: &AB::Expr,
    v: &SlotValues<AB::Expr>,
    levels: &[AB::Expr],
    depth: usize,
) {
    let end0: [AB::Expr; DIGEST] = core::array::from_fn(|i| match i {
        0 => AB::Expr::ZERO,
        i if i <= PARAM => v.param[i - 1].clone(),
        i => v.leaf_tweak[i - 1 - PARAM].clone(),
    });
    let send = |builder: &mut AB, msg: Vec<AB::Expr>| builder.push_interaction(crate::bus::MAIN, msg, -1);
    send(builder, bus::statement_a(sig.clone(), v.param.clone(), v.mtweak.clone()));
    send(builder, bus::statement_b(sig.clone(), v.msg.clone()));
    send(builder, bus::end(sig.clone(), AB::Expr::ZERO, end0));
    send(builder, bus::context(sig.clone(), v.param.clone(), v.cb.clone(), v.a.clone(), v.ts.clone()));
    send(builder, bus::root(sig.clone(), v.root.clone()));
    for l in 0..depth {
        let [t0, t1, bit] = core::array::from_fn(|j| levels[3 * l + j].clone());
        let level = AB::Expr::from_usize(l + 1);
        send(builder, bus::level(sig.clone(), level, t0, t1, bit, v.param.clone()));
    }
}

#[cfg(test)]
mod tests {
    use sigagg_xmss::{LeanSigProd, Test};

    use super::*;
    use crate::leansig::slot::tests::signed;
    use crate::leansig::testing::{expected, holds, messages};

    fn statement<S: LeanFamily>(epochs: &[u32]) -> AggregateStatement<S> {
        let entries = epochs.iter().enumerate().map(|(k, &e)| signed::<S>(k as u64, e).0).collect();
        AggregateStatement::from_entries(entries).unwrap()
    }

    fn check<S: LeanFamily>(epochs: &[u32]) {
        let st = statement::<S>(epochs);
        let air = SigAir::new(&st);
        let trace = air.trace();
        assert!(holds(&air, &trace));
        let mut want = Vec::new();
        for s in 0..st.padded_len() {
            let p = SlotPublic::new(st.slot(s));
            let sig = Val::from_usize(s);
            let main = crate::bus::MAIN;
            want.push((main, bus::statement_a(sig, p.param, p.mtweak), -1));
            want.push((main, bus::statement_b(sig, p.msg), -1));
            want.push((main, bus::end(sig, Val::ZERO, p.end0()), -1));
            want.push((main, bus::context(sig, p.param, p.cb, p.a, p.ts), -1));
            want.push((main, bus::root(sig, p.root), -1));
            for (l, [t0, t1, bit]) in p.levels.iter().copied().enumerate() {
                want.push((main, bus::level(sig, Val::from_usize(l + 1), t0, t1, bit, p.param), -1));
            }
        }
        assert_eq!(messages(&air, &trace), expected(want));
        // A copy that differs from the statement fails; so does a counter
        // that names another slot.
        for column in [1, 1 + PARAM, BaseAir::<Val>::width(&air) - 1] {
            let mut bad = trace.clone();
            bad.values[column] += Val::ONE;
            assert!(!holds(&air, &bad), "column {column}");
        }
        let mut bad = trace.clone();
        bad.values[BaseAir::<Val>::width(&air) + SIG] = Val::from_u32(7);
        assert!(!holds(&air, &bad));
    }

    #[test]
    fn statement_table_sends_the_statement() {
        check::<Test>(&[3, 200]);
        check::<LeanSigProd>(&[5, u32::MAX - 1]);
    }
}
