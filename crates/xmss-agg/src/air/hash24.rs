//! The width-24 table: one 64-row block per signature slot.
//!
//! | rows | role | permutation input |
//! |---|---|---|
//! | 0 | message hash (compression) | `[rho | param | tweak | message | 0 0]` |
//! | 1..38 | leaf sponge chunk k = row - 1 | `prev_out + chunk` on the rate, `prev_out` (or the domain separator) on the capacity |
//! | 38..58 | tree level l = row - 37 (compression) | `[param | tweak | left | right | 0 0 0]` |
//! | 58..64 | padding | unconstrained |
//!
//! Sponge chunk k absorbs stream elements `15k .. 15k+15` of
//! `[param | leaf tweak] ++ end_0 ++ ... ++ end_77` (seven elements per
//! virtual end). Those lie in the three consecutive virtual ends of the
//! row's *window* `W = (A, B, C)`, starting at offset `e0 = k mod 7`, so
//! `chunk_t = W[e0 + t]` selected by a periodic one-hot. Each window slot is
//! received from the bus unless its flag says the chain end was already at
//! the top of its chain (digit 3): then it is the signature's own value.

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};
use sigagg_koalabear::poseidon2::{PARTIAL_24, hashsig_constants24};
use sigagg_xmss::{ParameterSet, Seed001};

use crate::bus;
use crate::config::Val;
use crate::layout::{
    CAPACITY, CHUNKS, DEPTH, DIGEST, MSG, MSG_HASH, MSG_ROW, P24_BLOCK, PARAM, RATE, RHO, SPONGE_ROW, TREE_ROW,
    receiving_slots, shares_first_slot, window,
};
use crate::paired::Poseidon2Block;

/// Committed columns after the permutation's 24 inputs; the permutation's
/// round columns follow [`col::WIDTH`] (their number depends on the stride,
/// see [`crate::paired`]).
pub mod col {
    use super::*;
    pub const SIG: usize = 24;
    /// Window of three virtual ends (21 elements).
    pub const W: usize = SIG + 1;
    /// "Not received" flags of the three window slots.
    pub const FLAGS: usize = W + 3 * DIGEST;
    /// Digest: permutation output, plus the input for compressions.
    pub const DIG: usize = FLAGS + 3;
    /// Tree direction bit.
    pub const BIT: usize = DIG + DIGEST;
    /// Committed copies of the periodic values the bus needs.
    pub const IS_MSG: usize = BIT + 1;
    pub const IS_SPONGE: usize = IS_MSG + 1;
    pub const IS_TREE: usize = IS_SPONGE + 1;
    pub const IS_TOP: usize = IS_TREE + 1;
    pub const V0: usize = IS_TOP + 1;
    pub const LEVEL: usize = V0 + 1;
    /// Whether each window slot is received (copies of periodic columns).
    pub const RECV_A: usize = LEVEL + 1;
    pub const HAS_C: usize = RECV_A + 1;
    pub const WIDTH: usize = HAS_C + 1;
}

/// Pairs (committed column, periodic column) that must agree on every row.
pub const MIRRORS: [(usize, usize); 8] = [
    (col::IS_MSG, pc::IS_MSG),
    (col::IS_SPONGE, pc::IS_SPONGE),
    (col::IS_TREE, pc::IS_TREE),
    (col::IS_TOP, pc::IS_TOP),
    (col::V0, pc::V0),
    (col::LEVEL, pc::LEVEL),
    (col::RECV_A, pc::RECV_A),
    (col::HAS_C, pc::HAS_C),
];

/// Input offsets of the message-hash row.
pub mod msg_in {
    use super::*;
    pub const RHO_: usize = 0;
    pub const PARAM_: usize = RHO;
    pub const TWEAK: usize = PARAM_ + PARAM;
    pub const MSG_: usize = TWEAK + 2;
    pub const END: usize = MSG_ + MSG;
}

/// Input offsets of a tree row.
pub mod tree_in {
    use super::*;
    pub const TWEAK: usize = PARAM;
    pub const LEFT: usize = PARAM + 2;
    pub const RIGHT: usize = LEFT + DIGEST;
    pub const END: usize = RIGHT + DIGEST;
}

pub(crate) mod pc {
    pub const IS_MSG: usize = 0;
    pub const IS_SPONGE: usize = 1;
    pub const IS_SPONGE_FIRST: usize = 2;
    pub const IS_LAST_CHUNK: usize = 3;
    pub const SEL: usize = 4;
    pub const V0: usize = SEL + 7;
    pub const HAS_C: usize = V0 + 1;
    pub const NEXT_CONT: usize = HAS_C + 1;
    pub const NSEL: usize = NEXT_CONT + 1;
    pub const IS_TREE: usize = NSEL + 7;
    pub const LEVEL: usize = IS_TREE + 1;
    pub const IS_TOP: usize = LEVEL + 1;
    pub const BEFORE_TREE: usize = IS_TOP + 1;
    pub const IS_COMPRESS: usize = BEFORE_TREE + 1;
    pub const IS_BLOCK_END: usize = IS_COMPRESS + 1;
    pub const RECV_A: usize = IS_BLOCK_END + 1;
    /// The next chunk's first slot is this chunk's third.
    pub const SHARE_NEXT: usize = RECV_A + 1;
    pub const WIDTH: usize = SHARE_NEXT + 1;
}

/// What row `r` of a block does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The message hash.
    Message,
    /// Leaf-sponge chunk `k`.
    Sponge(usize),
    /// Tree level `l` (1-based).
    Tree(usize),
    /// Padding.
    Pad,
}

/// The role of row `r` (taken modulo the block size).
pub fn role(r: usize) -> Role {
    match r % P24_BLOCK {
        MSG_ROW => Role::Message,
        r if (SPONGE_ROW..SPONGE_ROW + CHUNKS).contains(&r) => Role::Sponge(r - SPONGE_ROW),
        r if (TREE_ROW..TREE_ROW + DEPTH).contains(&r) => Role::Tree(r - TREE_ROW + 1),
        _ => Role::Pad,
    }
}

/// The width-24 table's AIR.
#[derive(Clone)]
pub struct HashAir {
    perm: Poseidon2Block<24, PARTIAL_24>,
    columns: Vec<Vec<Val>>,
    /// Whether the bus groups go out as exclusive interactions
    /// (`Settings::exclusive_buses`).
    exclusive: bool,
}

impl core::fmt::Debug for HashAir {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("HashAir")
    }
}

impl HashAir {
    /// Builds the AIR (round constants and block-structure columns),
    /// committing every `stride`-th full round of the permutation, its
    /// bus groups exclusive where the backend takes them.
    pub fn new(stride: usize, exclusive: bool) -> Self {
        let columns = super::periodic_table(P24_BLOCK, pc::WIDTH, |r, row| {
            let here = role(r);
            let next = role(r + 1);
            row[pc::IS_MSG] = Val::from_bool(here == Role::Message);
            if let Role::Sponge(k) = here {
                row[pc::IS_SPONGE] = Val::ONE;
                row[pc::IS_SPONGE_FIRST] = Val::from_bool(k == 0);
                row[pc::IS_LAST_CHUNK] = Val::from_bool(k == CHUNKS - 1);
                let (v0, e0) = window(k);
                row[pc::SEL + e0] = Val::ONE;
                row[pc::V0] = Val::from_usize(v0);
                let [recv_a, _, has_c] = receiving_slots(k);
                row[pc::RECV_A] = Val::from_bool(recv_a);
                row[pc::HAS_C] = Val::from_bool(has_c);
            }
            if let Role::Sponge(k) = next
                && k > 0
            {
                row[pc::NEXT_CONT] = Val::ONE;
                row[pc::NSEL + window(k).1] = Val::ONE;
                row[pc::SHARE_NEXT] = Val::from_bool(shares_first_slot(k));
            }
            if let Role::Tree(l) = here {
                row[pc::IS_TREE] = Val::ONE;
                row[pc::LEVEL] = Val::from_usize(l);
                row[pc::IS_TOP] = Val::from_bool(l == DEPTH);
            }
            row[pc::BEFORE_TREE] = Val::from_bool(matches!(next, Role::Tree(_)));
            row[pc::IS_COMPRESS] = Val::from_bool(matches!(here, Role::Message | Role::Tree(_)));
            row[pc::IS_BLOCK_END] = Val::from_bool(r == P24_BLOCK - 1);
        });
        Self { perm: Poseidon2Block::new(hashsig_constants24().clone(), stride, 0, col::WIDTH), columns, exclusive }
    }
}

impl HashAir {
    /// Value of periodic column `c` at row `r`.
    pub(crate) fn periodic(&self, c: usize, r: usize) -> Val {
        self.columns[c][r % P24_BLOCK]
    }
}

impl HashAir {
    /// The permutation's columns.
    pub fn perm(&self) -> &Poseidon2Block<24, PARTIAL_24> {
        &self.perm
    }
}

impl HashAir {
    /// Whether the bus groups go out as exclusive interactions.
    pub fn exclusive(&self) -> bool {
        self.exclusive
    }
}

impl BaseAir<Val> for HashAir {
    fn width(&self) -> usize {
        col::WIDTH + self.perm.round_cols()
    }

    fn num_periodic_columns(&self) -> usize {
        pc::WIDTH
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.columns)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        let mut cols: Vec<usize> = (0..24).collect();
        cols.push(col::SIG);
        cols.extend(col::W..col::W + 3 * DIGEST);
        cols.push(col::BIT);
        cols
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for HashAir {
    fn eval(&self, builder: &mut AB) {
        self.perm.eval(builder);
        let main = builder.main();
        let (loc, nxt) = (main.current_slice(), main.next_slice());
        let l = |c: usize| -> AB::Expr { loc[c].into() };
        let n = |c: usize| -> AB::Expr { nxt[c].into() };
        let out = |j: usize| -> AB::Expr { loc[self.perm.output(j)].into() };
        let p: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let one = AB::Expr::ONE;

        // Digest: raw output for the sponge, feed-forward for compressions.
        for j in 0..DIGEST {
            builder.assert_eq(l(col::DIG + j), out(j) + p[pc::IS_COMPRESS].clone() * l(j));
        }
        builder.assert_bools([l(col::FLAGS), l(col::FLAGS + 1), l(col::FLAGS + 2), l(col::BIT)]);
        builder.when_first_row().assert_zero(l(col::SIG));

        // Message hash: zero tail.
        for j in msg_in::END..24 {
            builder.assert_zero(p[pc::IS_MSG].clone() * l(j));
        }

        // Leaf sponge: chunk from the window, domain separator on the first chunk.
        let chunk = |get: &dyn Fn(usize) -> AB::Expr, sel: usize, t: usize| -> AB::Expr {
            (0..7).map(|e| p[sel + e].clone() * get(col::W + e + t)).sum()
        };
        let capacity = Seed001::leaf_capacity();
        for t in 0..RATE {
            builder.assert_zero(p[pc::IS_SPONGE_FIRST].clone() * (l(t) - chunk(&l, pc::SEL, t)));
        }
        for (j, &c) in capacity.iter().enumerate().take(CAPACITY) {
            builder.assert_zero(p[pc::IS_SPONGE_FIRST].clone() * (l(RATE + j) - AB::Expr::from(c)));
        }
        for j in 2 * DIGEST..3 * DIGEST {
            builder.assert_zero(p[pc::IS_LAST_CHUNK].clone() * l(col::W + j));
        }

        // Tree: zero tail.
        for j in tree_in::END..24 {
            builder.assert_zero(p[pc::IS_TREE].clone() * l(j));
        }

        let mut t = builder.when_transition();
        t.assert_eq(n(col::SIG), l(col::SIG) + p[pc::IS_BLOCK_END].clone());
        // Sponge chaining: absorb the next chunk on the rate, keep the capacity.
        for j in 0..RATE {
            t.assert_zero(p[pc::NEXT_CONT].clone() * (n(j) - out(j) - chunk(&n, pc::NSEL, j)));
        }
        for j in RATE..24 {
            t.assert_zero(p[pc::NEXT_CONT].clone() * (n(j) - out(j)));
        }
        // A shared window slot carries over: every end is received once.
        for j in 0..DIGEST {
            t.assert_zero(p[pc::SHARE_NEXT].clone() * (n(col::W + j) - l(col::W + 2 * DIGEST + j)));
        }
        // Tree: the running node (leaf, then each level's digest) is the left
        // child when the next level's bit is 0, the right child when it is 1.
        for j in 0..DIGEST {
            let node = l(col::DIG + j);
            t.assert_zero(
                p[pc::BEFORE_TREE].clone() * (one.clone() - n(col::BIT)) * (n(tree_in::LEFT + j) - node.clone()),
            );
            t.assert_zero(p[pc::BEFORE_TREE].clone() * n(col::BIT) * (n(tree_in::RIGHT + j) - node));
        }

        // Committed copies of the periodic values the bus reads.
        for (c, pcol) in MIRRORS {
            builder.assert_eq(l(c), p[pcol].clone());
        }

        // Bus.
        let sig = l(col::SIG);
        let slot = |s: usize| -> [AB::Expr; DIGEST] { core::array::from_fn(|j| l(col::W + DIGEST * s + j)) };
        let not_flag = |s: usize| one.clone() - l(col::FLAGS + s);
        let v0 = l(col::V0);
        let param_at = |start: usize| -> [AB::Expr; PARAM] { core::array::from_fn(|j| l(start + j)) };
        let digest: [AB::Expr; DIGEST] = core::array::from_fn(|j| l(col::DIG + j));
        // Three auxiliary columns; on every row at most one branch of each is live.
        sigagg_prover::bus::push_branches(
            builder,
            self.exclusive,
            bus::MAIN,
            [
                (
                    l(col::IS_MSG),
                    Count::from(1),
                    bus::statement_a(sig.clone(), param_at(msg_in::PARAM_), [l(msg_in::TWEAK), l(msg_in::TWEAK + 1)]),
                ),
                (
                    l(col::IS_SPONGE),
                    Count::bounded(l(col::RECV_A) * not_flag(0), 1),
                    bus::end(sig.clone(), v0.clone(), slot(0)),
                ),
                (
                    l(col::IS_TREE),
                    Count::from(1),
                    bus::level(
                        sig.clone(),
                        l(col::LEVEL),
                        l(tree_in::TWEAK),
                        l(tree_in::TWEAK + 1),
                        l(col::BIT),
                        param_at(0),
                    ),
                ),
            ],
        );
        sigagg_prover::bus::push_branches(
            builder,
            self.exclusive,
            bus::MAIN,
            [
                (
                    l(col::IS_MSG),
                    Count::from(1),
                    bus::statement_b(sig.clone(), core::array::from_fn(|j| l(msg_in::MSG_ + j))),
                ),
                (
                    l(col::IS_SPONGE),
                    Count::bounded(not_flag(1), 1),
                    bus::end(sig.clone(), v0.clone() + one.clone(), slot(1)),
                ),
                (l(col::IS_TOP), Count::from(1), bus::root(sig.clone(), digest)),
            ],
        );
        sigagg_prover::bus::push_branches(
            builder,
            self.exclusive,
            bus::MAIN,
            [
                (
                    l(col::IS_MSG),
                    Count::from(-1),
                    bus::message_hash(sig.clone(), core::array::from_fn::<_, MSG_HASH, _>(|j| l(col::DIG + j))),
                ),
                (
                    l(col::IS_SPONGE),
                    Count::bounded(l(col::HAS_C) * not_flag(2), 1),
                    bus::end(sig, v0 + AB::Expr::TWO, slot(2)),
                ),
            ],
        );
    }
}
