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

use crate::bus;
use crate::config::Val;
use crate::layout::{DEPTH, DIGEST, MSG, PARAM};
use crate::statement::{AggregateStatement, SlotPublic};

/// Periodic column indices (statement values, in the order of the committed copies).
mod pc {
    use super::*;
    pub const PARAM_: usize = 0;
    pub const MTWEAK: usize = PARAM_ + PARAM;
    pub const MSG_: usize = MTWEAK + 2;
    pub const LEAF_TWEAK: usize = MSG_ + MSG;
    pub const A: usize = LEAF_TWEAK + 2;
    pub const B: usize = A + 1;
    pub const BETA: usize = B + 1;
    pub const ROOT: usize = BETA + 3;
    pub const LEVELS: usize = ROOT + DIGEST;
    pub const WIDTH: usize = LEVELS + 3 * DEPTH;
    // Threshold mode only, after the statement values:
    /// The next slot is a real signer too.
    pub const NEXT_REAL: usize = WIDTH;
    /// The last real signer.
    pub const IS_LAST: usize = WIDTH + 1;
    /// The group size.
    pub const SIZE: usize = WIDTH + 2;
    /// The revealed member indices (only when the signers are revealed).
    pub const INDEX: usize = WIDTH + 3;
}

/// Column of the slot counter; the public values follow it, in periodic order.
pub const SIG: usize = 0;
/// First committed copy of a statement value.
pub const PUBLIC: usize = 1;
/// Threshold mode: the member index.
pub const IDX: usize = PUBLIC + pc::WIDTH;
/// Threshold mode: low and high 16-bit limbs of the index gap.
pub const GAP: usize = IDX + 1;

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

/// The statement values of one slot, in periodic-column order (also the
/// committed copies in the trace).
pub fn public_values(p: &SlotPublic) -> Vec<Val> {
    let mut row = vec![Val::default(); pc::WIDTH];
    row[pc::PARAM_..pc::PARAM_ + PARAM].copy_from_slice(&p.param);
    row[pc::MTWEAK..pc::MTWEAK + 2].copy_from_slice(&p.mtweak);
    row[pc::MSG_..pc::MSG_ + MSG].copy_from_slice(&p.msg);
    row[pc::LEAF_TWEAK..pc::LEAF_TWEAK + 2].copy_from_slice(&p.leaf_tweak);
    row[pc::A] = p.a;
    row[pc::B] = p.b;
    row[pc::BETA..pc::BETA + 3].copy_from_slice(&p.beta);
    row[pc::ROOT..pc::ROOT + DIGEST].copy_from_slice(&p.root);
    for (l, level) in p.levels.iter().enumerate() {
        row[pc::LEVELS + 3 * l..pc::LEVELS + 3 * l + 3].copy_from_slice(level);
    }
    row
}

fn statement_columns(publics: &[SlotPublic], extra: usize) -> Vec<Vec<Val>> {
    super::periodic_table(publics.len(), pc::WIDTH + extra, |r, row| {
        row[..pc::WIDTH].copy_from_slice(&public_values(&publics[r]));
    })
}

/// The public facts of a threshold proof that shape the statement table.
#[derive(Clone, Debug)]
pub struct ThresholdShape<'a> {
    /// Shared public values of every slot (the key fields are ignored).
    pub shared: SlotPublic,
    /// Slots in the circuit.
    pub padded: usize,
    /// Real signers (the first `count` slots).
    pub count: usize,
    /// Group size.
    pub size: u32,
    /// The signers' member indices, when revealed.
    pub signers: Option<&'a [u32]>,
}

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
        let extra = 3 + usize::from(reveal);
        let mut columns = statement_columns(&vec![shape.shared; shape.padded], extra);
        for s in 0..shape.padded {
            columns[pc::NEXT_REAL][s] = Val::from_bool(s + 1 < shape.count);
            columns[pc::IS_LAST][s] = Val::from_bool(s + 1 == shape.count);
            columns[pc::SIZE][s] = Val::from_u32(shape.size);
            if let Some(signers) = shape.signers {
                columns[pc::INDEX][s] = Val::from_u32(signers[s.min(shape.count - 1)]);
            }
        }
        Self { columns, mode: Mode::Threshold { reveal } }
    }

    /// An aggregation AIR of the same shape for `n` slots with all-zero
    /// public values: for computing the constraint system's shape (security
    /// level), never for proving.
    pub fn placeholder(n: usize) -> Self {
        Self { columns: vec![vec![Val::default(); n]; pc::WIDTH], mode: Mode::Aggregate }
    }

    /// The committed copies of the statement values, as trace rows.
    pub fn public_rows(&self) -> impl Iterator<Item = Vec<Val>> + '_ {
        let n = self.columns.first().map_or(0, Vec::len);
        (0..n).map(move |r| self.columns[..pc::WIDTH].iter().map(|c| c[r]).collect())
    }

    fn is_threshold(&self) -> bool {
        matches!(self.mode, Mode::Threshold { .. })
    }
}

impl BaseAir<Val> for SigAir {
    fn width(&self) -> usize {
        if self.is_threshold() { GAP + 2 } else { PUBLIC + pc::WIDTH }
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
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let (loc, nxt) = (main.current_slice(), main.next_slice());
        let sig: AB::Expr = loc[SIG].into();
        builder.when_first_row().assert_zero(sig.clone());
        builder.when_transition().assert_eq(nxt[SIG], sig.clone() + AB::Expr::ONE);

        // Pin the committed statement values to the verifier's periodic
        // columns; in threshold mode the key fields are the signer's witness.
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let p: Vec<AB::Expr> = loc[PUBLIC..PUBLIC + pc::WIDTH].iter().map(|&v| v.into()).collect();
        let is_key =
            |c: usize| (pc::PARAM_..pc::PARAM_ + PARAM).contains(&c) || (pc::ROOT..pc::ROOT + DIGEST).contains(&c);
        for (c, (value, want)) in p.iter().zip(&periodic).enumerate() {
            if !(self.is_threshold() && is_key(c)) {
                builder.assert_eq(value.clone(), want.clone());
            }
        }
        let arr = |start: usize| -> [AB::Expr; PARAM] { core::array::from_fn(|i| p[start + i].clone()) };
        let param = arr(pc::PARAM_);
        let two = |start: usize| -> [AB::Expr; 2] { [p[start].clone(), p[start + 1].clone()] };
        let msg: [AB::Expr; MSG] = core::array::from_fn(|i| p[pc::MSG_ + i].clone());
        let root: [AB::Expr; DIGEST] = core::array::from_fn(|i| p[pc::ROOT + i].clone());
        let leaf_tweak = two(pc::LEAF_TWEAK);
        let first_end: [AB::Expr; DIGEST] =
            core::array::from_fn(|i| if i < PARAM { param[i].clone() } else { leaf_tweak[i - PARAM].clone() });
        let beta = [p[pc::BETA].clone(), p[pc::BETA + 1].clone(), p[pc::BETA + 2].clone()];

        let send = |builder: &mut AB, msg: Vec<AB::Expr>| builder.push_interaction(bus::MAIN, msg, -1);
        send(builder, bus::statement_a(sig.clone(), param.clone(), two(pc::MTWEAK)));
        send(builder, bus::statement_b(sig.clone(), msg));
        send(builder, bus::end(sig.clone(), AB::Expr::ZERO, first_end));
        send(builder, bus::context(sig.clone(), param.clone(), p[pc::A].clone(), p[pc::B].clone(), beta));
        send(builder, bus::root(sig.clone(), root.clone()));
        for l in 0..DEPTH {
            let at = pc::LEVELS + 3 * l;
            let level = AB::Expr::from_u32(l as u32 + 1);
            send(
                builder,
                bus::level(sig.clone(), level, p[at].clone(), p[at + 1].clone(), p[at + 2].clone(), param.clone()),
            );
        }

        if let Mode::Threshold { reveal } = self.mode {
            let idx: AB::Expr = loc[IDX].into();
            let next_idx: AB::Expr = nxt[IDX].into();
            let (g0, g1): (AB::Expr, AB::Expr) = (loc[GAP].into(), loc[GAP + 1].into());
            let gap = g0.clone() + g1.clone() * AB::Expr::from_u32(1 << 16);
            let next_real = periodic[pc::NEXT_REAL].clone();
            let is_last = periodic[pc::IS_LAST].clone();
            // Real signers have strictly increasing indices: the gap to the
            // next one, minus one, is an integer below 2^29 (limbs of 16 and
            // 13 bits). The last one is below the group size. Indices are
            // below 2^29 (membership bits), so a decreasing or equal pair
            // wraps to at least p - 2^29 > 2^29 and fails the range check.
            builder
                .when_transition()
                .assert_zero(next_real.clone() * (gap.clone() - (next_idx - idx.clone() - AB::Expr::ONE)));
            builder.assert_zero(
                is_last.clone() * (gap.clone() - (periodic[pc::SIZE].clone() - AB::Expr::ONE - idx.clone())),
            );
            builder.assert_zero((AB::Expr::ONE - next_real - is_last) * gap);
            if reveal {
                builder.assert_eq(idx.clone(), periodic[pc::INDEX].clone());
            }
            send(builder, bus::member_a(sig.clone(), root));
            send(builder, bus::member_b(sig, param, idx));
            builder.push_interaction(bus::RANGE, [g0], -1);
            builder.push_interaction(bus::RANGE, [g1.clone()], -1);
            builder.push_interaction(bus::RANGE, [g1 * AB::Expr::from_u32(8)], -1);
        }
    }
}
