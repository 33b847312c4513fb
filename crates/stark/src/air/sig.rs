//! The statement table: one row per signature slot. Its columns are the
//! slot counter and the slot's public values, each pinned to a periodic
//! column that the verifier computes from the statement (the lookup trace
//! generator cannot read periodic columns, so the values the bus carries are
//! committed copies). Every value is sent on the bus exactly once per slot:
//! the message-hash inputs, the leaf's first virtual end, the chain-tweak
//! context, the root and the 20 tree levels.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::InteractionBuilder;

use crate::bus;
use crate::config::Val;
use crate::layout::{DEPTH, DIGEST, MSG, PARAM};
use crate::statement::{SlotPublic, Statement};

/// Periodic column indices.
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
}

/// The statement table's AIR; it carries the statement's periodic columns.
#[derive(Clone, Debug)]
pub struct SigAir {
    columns: Vec<Vec<Val>>,
    digest: [u8; 32],
}

impl SigAir {
    /// Builds the periodic columns for every (padded) slot of `statement`.
    pub fn new(statement: &Statement) -> Self {
        let n = statement.padded_len();
        let publics: Vec<SlotPublic> = (0..n).map(|s| SlotPublic::new(statement.slot(s))).collect();
        let columns = super::periodic_table(n, pc::WIDTH, |r, row| {
            let p = &publics[r];
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
        });
        Self { columns, digest: statement.digest() }
    }

    /// An AIR of the same shape for `n` slots with all-zero public values:
    /// for computing the constraint system's shape (security level), never
    /// for proving.
    pub fn placeholder(n: usize) -> Self {
        Self { columns: vec![vec![Val::default(); n]; pc::WIDTH], digest: [0; 32] }
    }
}

/// Column of the slot counter; the public values follow it, in periodic order.
pub const SIG: usize = 0;
/// First committed copy of a periodic column.
pub const PUBLIC: usize = 1;

impl SigAir {
    /// The committed copies of the periodic columns, as trace rows.
    pub fn public_rows(&self) -> impl Iterator<Item = Vec<Val>> + '_ {
        let n = self.columns.first().map_or(0, Vec::len);
        (0..n).map(move |r| self.columns.iter().map(|c| c[r]).collect())
    }
}

impl BaseAir<Val> for SigAir {
    fn width(&self) -> usize {
        PUBLIC + pc::WIDTH
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        vec![SIG]
    }

    fn num_periodic_columns(&self) -> usize {
        pc::WIDTH
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }

    /// The columns are a function of the statement: binding its digest
    /// binds them, at 32 bytes instead of 90 values per signature.
    fn periodic_statement(&self) -> Vec<u8> {
        let mut bytes = b"sigagg/sig-table/v1:".to_vec();
        bytes.extend_from_slice(&self.digest);
        bytes
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for SigAir {
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let sig: AB::Expr = main.current(SIG).expect("column").into();
        let next: AB::Expr = main.next(SIG).expect("column").into();
        builder.when_first_row().assert_zero(sig.clone());
        builder.when_transition().assert_eq(next, sig.clone() + AB::Expr::ONE);

        // Pin the committed public values to the verifier's periodic columns.
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let p: Vec<AB::Expr> = main.current_slice()[PUBLIC..].iter().map(|&v| v.into()).collect();
        for (c, want) in p.iter().zip(periodic) {
            builder.assert_eq(c.clone(), want);
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
        send(builder, bus::root(sig.clone(), root));
        for l in 0..DEPTH {
            let at = pc::LEVELS + 3 * l;
            let level = AB::Expr::from_u32(l as u32 + 1);
            send(
                builder,
                bus::level(sig.clone(), level, p[at].clone(), p[at + 1].clone(), p[at + 2].clone(), param.clone()),
            );
        }
    }
}
