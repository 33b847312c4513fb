//! The width-24 table against the slot values: honest traces of two slots
//! hold and send exactly the messages `bus.rs` gives for them; targeted
//! corruptions break a constraint or change the messages.

use std::collections::HashMap;

use p3_air::check_all_constraints;
use p3_matrix::dense::RowMajorMatrix;
use sigagg_xmss::{LeanSigProd, Test};

use super::*;
use crate::leansig::slot::tests::signed;
use crate::leansig::testing::{expected, holds, messages};

type Messages = HashMap<(String, Vec<u32>), i64>;

/// The witnesses of `(seed, epoch)` signatures under `S`.
fn witnesses<S: LeanFamily>(slots: &[(u64, u32)]) -> Vec<SlotWitness> {
    slots
        .iter()
        .map(|&(seed, epoch)| {
            let (entry, sig) = signed::<S>(seed, epoch);
            SlotWitness::new(&entry, &sig).expect("a valid signature")
        })
        .collect()
}

/// The table of `ws`, slot `at`'s block filled with `edit`.
fn trace_with(
    air: &HashAir,
    ws: &[SlotWitness],
    at: usize,
    mut edit: impl FnMut(usize, &mut HashCols<Val>),
) -> RowMajorMatrix<Val> {
    let width = BaseAir::<Val>::width(air);
    let block = air.shape().hash_block * width;
    let mut values = Val::zero_vec(ws.len() * block);
    for (s, (rows, w)) in values.chunks_mut(block).zip(ws).enumerate() {
        if s == at {
            air.fill_with(s, w, rows, &mut edit);
        } else {
            air.fill(s, w, rows);
        }
    }
    RowMajorMatrix::new(values, width)
}

/// The honest table of `ws`.
fn trace(air: &HashAir, ws: &[SlotWitness]) -> RowMajorMatrix<Val> {
    trace_with(air, ws, usize::MAX, |_, _| {})
}

/// The messages `bus.rs` says the table sends and receives for `ws`.
fn expected_messages(shape: &Shape, ws: &[SlotWitness]) -> Messages {
    let mut list = Vec::new();
    for (s, w) in ws.iter().enumerate() {
        let (sig, pb) = (Val::from_usize(s), &w.public);
        list.push((MAIN, bus::statement_a(sig, pb.param, pb.mtweak), 1));
        list.push((MAIN, bus::statement_b(sig, pb.msg), 1));
        list.push((MAIN, bus::message_hash(sig, w.outputs.iter().copied()), -1));
        list.push((MAIN, bus::end(sig, Val::ZERO, pb.end0()), 1));
        for (i, (&digit, end)) in w.digits.iter().zip(&w.ends).enumerate() {
            if usize::from(digit) != BASE - 1 {
                list.push((MAIN, bus::end(sig, Val::from_usize(i + 1), *end), 1));
            }
        }
        for (l, &[t0, t1, bit]) in (1..).zip(&pb.levels) {
            list.push((MAIN, bus::level(sig, Val::from_usize(l), t0, t1, bit, pb.param), 1));
        }
        list.push((MAIN, bus::root(sig, pb.root), 1));
    }
    assert_eq!(ws[0].outputs.len(), shape.outputs);
    expected(list)
}

/// One set's table, the slots' witnesses and the messages they should send.
struct Case {
    air: HashAir,
    ws: Vec<SlotWitness>,
    want: Messages,
}

impl Case {
    fn new<S: LeanFamily>(stride: usize, exclusive: bool, slots: &[(u64, u32)]) -> Self {
        let air = HashAir::new::<S>(stride, exclusive);
        let ws = witnesses::<S>(slots);
        let want = expected_messages(air.shape(), &ws);
        Self { air, ws, want }
    }

    fn shape(&self) -> Shape {
        *self.air.shape()
    }

    /// Slot 1's block edited by `edit` breaks a constraint of the table's
    /// own (not the permutation's: the edited rows' permutations are
    /// recomputed, as a deviating prover would), on slot 1's rows.
    fn breaks(&self, what: &str, edit: impl FnMut(usize, &mut HashCols<Val>)) {
        let t = trace_with(&self.air, &self.ws, 1, edit);
        assert!(!holds(&self.air, &t), "{what}: the constraints still hold");
        let report = check_all_constraints(&self.air, &t, &[], None);
        let (perm, block) = (perm_constraints(&self.air, &t), self.shape().hash_block);
        for failure in &report.failures {
            assert!(failure.constraint >= perm, "{what}: the permutation fails ({failure} on row {})", failure.row);
            assert!((block - 1..2 * block).contains(&failure.row), "{what}: row {} fails", failure.row);
        }
    }

    /// Slot 1's block edited by `edit` still holds, but its messages are
    /// not the expected ones (the bus would not balance).
    fn moves(&self, what: &str, edit: impl FnMut(usize, &mut HashCols<Val>)) {
        let t = trace_with(&self.air, &self.ws, 1, edit);
        assert!(holds(&self.air, &t), "{what}: expected the constraints to hold");
        assert_ne!(messages(&self.air, &t), self.want, "{what}: the messages did not change");
    }

    /// The honest table with cell `(row of slot 1's block, col)` moved by one.
    fn breaks_cell(&self, what: &str, row: usize, col: usize) {
        let mut t = trace(&self.air, &self.ws);
        let at = (self.shape().hash_block + row) * t.width + col;
        t.values[at] += Val::ONE;
        assert!(!holds(&self.air, &t), "{what}: the constraints still hold");
    }
}

/// Constraints per row of the permutation alone (the table asserts them first).
fn perm_constraints(air: &HashAir, t: &RowMajorMatrix<Val>) -> usize {
    let n = check_all_constraints(air.perm(), t, &[], Some(1)).total_constraints_per_row;
    assert!(n > 24, "the permutation's constraints");
    n
}

/// Honest traces hold and send exactly the expected messages.
fn honest(case: &Case) {
    let t = trace(&case.air, &case.ws);
    assert_eq!(t.values.len(), 2 * case.shape().hash_block * t.width);
    assert!(holds(&case.air, &t), "the honest trace");
    assert_eq!(messages(&case.air, &t), case.want);
}

#[test]
fn test_set_honest_traces_hold_and_send_the_expected_messages() {
    for stride in [1, 2] {
        for exclusive in [true, false] {
            honest(&Case::new::<Test>(stride, exclusive, &[(1, 3), (2, 200)]));
        }
    }
}

#[test]
fn lean_sig_prod_honest_traces_hold_and_send_the_expected_messages() {
    let case = Case::new::<LeanSigProd>(2, true, &[(1, 5), (2, u32::MAX - 1)]);
    // The free-slot path is exercised: some chain has digit 7.
    assert!(case.ws.iter().any(|w| w.digits.iter().any(|&d| usize::from(d) == BASE - 1)));
    honest(&case);
    honest(&Case::new::<LeanSigProd>(1, false, &[(1, 5), (2, u32::MAX - 1)]));
}

/// The first (chunk, slot) that receives a chain end (not end 0) and is
/// not free in slot 1's witness.
fn received_slot(case: &Case) -> (usize, usize) {
    let shape = case.shape();
    let w = &case.ws[1];
    (0..shape.chunks)
        .flat_map(|k| (0..SLOTS).map(move |s| (k, s)))
        .find(|&(k, s)| {
            let v = Shape::window(k).0 + s;
            shape.receives(k, s) && v > 0 && usize::from(w.digits[v - 1]) != BASE - 1
        })
        .expect("a received chain end")
}

/// The first (chunk, slot) copied from the previous window.
fn copied_slot(shape: &Shape) -> (usize, usize) {
    (1..shape.chunks)
        .flat_map(|k| (0..SLOTS).map(move |s| (k, s)))
        .find(|&(k, s)| shape.is_real_slot(k, s) && !shape.receives(k, s))
        .expect("a copied slot")
}

/// Moves window element `i` of `c` by one, and the rate lane that reads
/// it (if the chunk reads it), so that only the window rules can object.
fn bump_window(c: &mut HashCols<Val>, k: usize, i: usize) {
    c.w[i] += Val::ONE;
    let e0 = Shape::window(k).1;
    if (e0..e0 + RATE).contains(&i) {
        c.input[CAPACITY + i - e0] += Val::ONE;
    }
}

fn corruptions(case: &Case) {
    let shape = case.shape();
    let (tree, last_chunk) = (shape.tree_row(), SPONGE_ROW + shape.chunks - 1);
    let sponge = |k: usize| SPONGE_ROW + k;

    // Window and chunk.
    case.breaks("a chunk element in the window, alone", |r, c| {
        if r == sponge(0) {
            c.w[Shape::window(0).1 + 3] += Val::ONE;
        }
    });
    case.breaks("a rate lane, alone", |r, c| {
        if r == sponge(1) {
            c.input[CAPACITY + 4] += Val::ONE;
        }
    });
    let (k, s) = copied_slot(&shape);
    case.breaks("a copied window slot (and its rate lane)", |r, c| {
        if r == sponge(k) {
            bump_window(c, k, DIGEST * s + 2);
        }
    });
    case.breaks("a padding slot made nonzero (and its rate lane)", |r, c| {
        if r == last_chunk {
            bump_window(c, shape.chunks - 1, DIGEST * (SLOTS - 1));
        }
    });
    let (rk, rs) = received_slot(case);
    // The received end changed in every window holding it (so the copies agree).
    let v = Shape::window(rk).0 + rs;
    case.moves("a received end (in every window and rate lane reading it)", |r, c| {
        if let Role::Sponge(k) = role(&shape, r) {
            let v0 = Shape::window(k).0;
            if (v0..v0 + SLOTS).contains(&v) {
                bump_window(c, k, DIGEST * (v - v0) + 5);
            }
        }
    });

    // Capacity.
    case.breaks("the first chunk's capacity constant", |r, c| {
        if r == sponge(0) {
            c.input[0] += Val::ONE;
        }
    });
    case.breaks("a capacity lane between sponge rows", |r, c| {
        if r == sponge(1) {
            c.input[CAPACITY - 1] += Val::ONE;
        }
    });

    // Free flags.
    case.moves("a free flag set on a received slot", |r, c| {
        if r == sponge(rk) {
            c.free[rs] = Val::ONE;
        }
    });
    case.breaks("a free flag on end 0", |r, c| {
        if r == sponge(0) {
            c.free[0] = Val::ONE;
        }
    });
    case.breaks("a free flag cleared on a copied slot", |r, c| {
        if r == sponge(k) {
            c.free[s] = Val::ZERO;
        }
    });
    case.breaks("a free flag of 2", |r, c| {
        if r == sponge(rk) {
            c.free[rs] = Val::TWO;
        }
    });

    // Message hash.
    case.moves("rho changed", |r, c| {
        if r == MSG_ROW {
            c.input[MSG + PARAM + 2] += Val::ONE;
        }
    });
    case.moves("the message changed", |r, c| {
        if r == MSG_ROW {
            c.input[0] += Val::ONE;
        }
    });
    case.breaks("the message row's lane 23", |r, c| {
        if r == MSG_ROW {
            c.input[23] = Val::ONE;
        }
    });

    // Tree.
    case.breaks("the tree bit flipped, alone", |r, c| {
        if r == tree + 2 {
            c.bit = Val::ONE - c.bit;
        }
    });
    case.moves("the tree bit flipped with the children swapped", |r, c| {
        if r == tree + 2 {
            c.bit = Val::ONE - c.bit;
            let mut t = TreeInput::from_slice(&c.input);
            core::mem::swap(&mut t.left, &mut t.right);
            t.write_to(&mut c.input);
        }
    });
    case.moves("a sibling changed", |r, c| {
        if r == tree + 1 {
            let sibling = if c.bit == Val::ZERO { PARAM + 2 + DIGEST } else { PARAM + 2 };
            c.input[sibling + 3] += Val::ONE;
        }
    });
    case.breaks("the leaf not placed in level 1", |r, c| {
        if r == tree {
            let node = if c.bit == Val::ZERO { PARAM + 2 } else { PARAM + 2 + DIGEST };
            c.input[node] += Val::ONE;
        }
    });
    case.breaks("a level's node not the previous digest", |r, c| {
        if r == tree + 3 {
            let node = if c.bit == Val::ZERO { PARAM + 2 } else { PARAM + 2 + DIGEST };
            c.input[node + 7] += Val::ONE;
        }
    });
    case.breaks("a tree row's lane 23", |r, c| {
        if r == tree + 1 {
            c.input[23] = Val::ONE;
        }
    });
    case.moves("a level's tweak changed", |r, c| {
        if r == tree + 4 {
            c.input[PARAM] += Val::ONE;
        }
    });

    // Slot counter and mirrors.
    case.breaks_cell("the slot counter", 3, col::SIG);
    case.breaks("the message mirror", |r, c| {
        if r == tree {
            c.is_msg = Val::ONE;
        }
    });
    case.breaks("the sponge mirror", |r, c| {
        if r == shape.hash_block - 1 {
            c.is_sponge = Val::ONE;
        }
    });
    case.breaks("the tree mirror", |r, c| {
        if r == sponge(0) {
            c.is_tree = Val::ONE;
        }
    });
    case.breaks("the top mirror", |r, c| {
        if r == tree {
            c.is_top = Val::ONE;
        }
    });
    case.breaks("the position mirror", |r, c| {
        if r == sponge(1) {
            c.pos += Val::ONE;
        }
    });

    // The permutation's own columns.
    let rounds = case.air.perm().rounds_at();
    case.breaks_cell("a round column of a sponge row", sponge(1), rounds + 30);
    case.breaks_cell("an output column of a tree row", tree + 1, case.air.perm().output(2));
}

#[test]
fn test_set_corruptions_break_a_constraint_or_move_a_message() {
    for stride in [2, 1] {
        corruptions(&Case::new::<Test>(stride, true, &[(1, 3), (2, 200)]));
    }
}

#[test]
fn lean_sig_prod_corruptions_break_a_constraint_or_move_a_message() {
    corruptions(&Case::new::<LeanSigProd>(2, true, &[(1, 5), (2, u32::MAX - 1)]));
}

/// The roles and periodic flags follow the shape.
#[test]
fn roles_follow_the_shape() {
    for air in [HashAir::new::<Test>(2, true), HashAir::new::<LeanSigProd>(2, true)] {
        let shape = *air.shape();
        let count = |f: &dyn Fn(Role) -> bool| (0..shape.hash_block).filter(|&r| f(role(&shape, r))).count();
        assert_eq!(count(&|x| x == Role::Message), 1);
        assert_eq!(count(&|x| matches!(x, Role::Sponge(_))), shape.chunks);
        assert_eq!(count(&|x| matches!(x, Role::Tree(_))), shape.depth);
        assert_eq!(role(&shape, shape.tree_row() + shape.depth - 1), Role::Tree(shape.depth));
        // The last row never links to the next block.
        let last = air.periodic_row(shape.hash_block - 1);
        assert_eq!((last.adv1, last.adv2, last.leaf_next, last.climb), (Val::ZERO, Val::ZERO, Val::ZERO, Val::ZERO));
        assert_eq!(last.block_end, Val::ONE);
        assert!(role(&shape, shape.hash_block - 1) == Role::Pad);
    }
}

/// The column budget: 58 own columns (24 inputs, counter, 24-cell window,
/// 3 free flags, bit, 5 mirrors) and the permutation's rounds with only
/// output lanes `0..17` kept; the input layouts are 24 lanes each.
#[test]
fn widths() {
    assert_eq!((col::SIG, col::W, col::FREE, col::BIT, col::WIDTH), (24, 25, 49, 52, 58));
    assert_eq!((MsgInput::<u8>::WIDTH, SpongeInput::<u8>::WIDTH, TreeInput::<u8>::WIDTH), (24, 24, 24));
    let width = |stride| BaseAir::<Val>::width(&HashAir::new::<LeanSigProd>(stride, true));
    assert_eq!((width(1), width(2)), (58 + 8 * 24 + 23 - 7, 58 + 4 * 24 + 23 - 7));
}

/// With stride 1 every constraint has degree at most 3 (the module docs'
/// claim), the permutation's included.
#[test]
fn stride_one_has_degree_three() {
    use p3_air::symbolic::AirLayout;
    use p3_lookup::symbolic::InteractionSymbolicBuilder;
    let air = HashAir::new::<LeanSigProd>(1, true);
    let layout = AirLayout {
        main_width: BaseAir::<Val>::width(&air),
        num_periodic_columns: HashPeriodic::<Val>::WIDTH,
        ..Default::default()
    };
    let builder = InteractionSymbolicBuilder::<Val>::from_air(&air, layout);
    let degree = builder.base_constraints().iter().map(|c| c.degree_multiple()).max();
    assert_eq!(degree, Some(3));
}
