//! Which next-row cells an AIR reads, checked against what it declares.
//!
//! `BaseAir::main_next_row_columns` tells both backends which columns to
//! open at the next row as well (Plonky3's default: all of them). Every
//! column left out saves an opened value in every proof, but a column the
//! constraints or bus messages do read at the next row and that is left out
//! would leave those reads unbound: Plonky3 warns of "a soundness gap".
//! [`undeclared_next_row_reads`] finds such columns from the AIR's symbolic
//! constraints and messages, so each aggregator can test its declarations.

use std::collections::BTreeSet;

use foldhash::HashMap;

use p3_air::symbolic::AirLayout;
use p3_air::{Air, BaseAir, BaseEntry, BaseLeaf, SymbolicExpr, SymbolicExpression};
use p3_lookup::InteractionSymbolicBuilder;

use crate::config::{Challenge, Val};

/// The main-trace columns whose next row `air` reads in a constraint or a
/// bus message (count, flag or field) but does not list in
/// `main_next_row_columns`, in increasing order: empty when the
/// declaration covers every read.
///
/// # Panics
/// If the AIR has extension-field constraints of its own (no aggregator
/// AIR has: only the lookup argument adds them, after this builder).
pub fn undeclared_next_row_reads<A>(air: &A) -> Vec<usize>
where
    A: BaseAir<Val> + Air<InteractionSymbolicBuilder<Val, Challenge>>,
{
    let declared: BTreeSet<usize> = air.main_next_row_columns().into_iter().collect();
    next_row_reads(air).into_iter().filter(|c| !declared.contains(c)).collect()
}

/// Every main-trace column whose next row `air` reads, in a constraint or
/// in a bus message (count, flag or field).
///
/// # Panics
/// As [`undeclared_next_row_reads`].
pub fn next_row_reads<A>(air: &A) -> BTreeSet<usize>
where
    A: BaseAir<Val> + Air<InteractionSymbolicBuilder<Val, Challenge>>,
{
    let layout = AirLayout {
        main_width: BaseAir::<Val>::width(air),
        num_periodic_columns: air.num_periodic_columns(),
        ..Default::default()
    };
    let builder = InteractionSymbolicBuilder::<Val, Challenge>::from_air(air, layout);
    assert!(builder.extension_constraints().is_empty(), "an AIR with extension-field constraints");
    reads_of(&builder.base_constraints(), &builder)
}

/// [`next_row_reads`] from an AIR's symbolic evaluation: `constraints`
/// its base constraints, borrowed so that every expression the walk
/// remembers by address stays alive until the walk ends
/// (`base_constraints` returns a copy).
fn reads_of(
    constraints: &[SymbolicExpression<Val>],
    builder: &InteractionSymbolicBuilder<Val, Challenge>,
) -> BTreeSet<usize> {
    let interactions = builder.global_interactions();
    let exclusive = builder.exclusive_interactions();
    let messages = interactions.iter().flat_map(|i| i.fields.iter().chain([&i.count]));
    let branches = exclusive.iter().flat_map(|g| &g.branches);
    let mut walk = Walk::default();
    for e in constraints.iter().chain(messages).chain(branches.flat_map(|b| b.fields.iter().chain([&b.flag, &b.count])))
    {
        walk.degree(e);
    }
    walk.next
}

/// A walk over shared expression graphs (Poseidon constraints chain one
/// round's expression into the next, so each shared node is visited once,
/// remembered by address): each node's degree as a multilinear polynomial
/// (every column, periodic column and selector counts one, constants
/// nothing), and the columns whose next row is read. The skip zerocheck's
/// profile takes both from one walk.
#[derive(Default)]
pub(crate) struct Walk {
    memo: HashMap<*const SymbolicExpression<Val>, usize>,
    /// The main-trace columns read at the next row so far.
    pub(crate) next: BTreeSet<usize>,
}

impl Walk {
    /// The degree of `e`, its next-row reads recorded.
    pub(crate) fn degree(&mut self, e: &SymbolicExpression<Val>) -> usize {
        if let Some(&d) = self.memo.get(&(e as *const _)) {
            return d;
        }
        let d = match e {
            SymbolicExpr::Leaf(BaseLeaf::Constant(_)) => 0,
            SymbolicExpr::Leaf(BaseLeaf::Variable(v)) => {
                if let BaseEntry::Main { offset } = v.entry
                    && offset > 0
                {
                    self.next.insert(v.index);
                }
                1
            }
            SymbolicExpr::Leaf(_) => 1,
            SymbolicExpr::Add { x, y, .. } | SymbolicExpr::Sub { x, y, .. } => self.degree(x).max(self.degree(y)),
            SymbolicExpr::Mul { x, y, .. } => self.degree(x) + self.degree(y),
            SymbolicExpr::Neg { x, .. } => self.degree(x),
        };
        self.memo.insert(e as *const _, d);
        d
    }
}

#[cfg(test)]
mod tests {
    use p3_air::{AirBuilder, WindowAccess};
    use p3_lookup::{Count, InteractionBuilder};

    use super::*;

    /// Reads column 1 at the next row in a constraint and column 2 in a
    /// message; declares `declared`.
    #[derive(Clone)]
    struct Reader {
        declared: Vec<usize>,
    }

    impl BaseAir<Val> for Reader {
        fn width(&self) -> usize {
            3
        }
        fn main_next_row_columns(&self) -> Vec<usize> {
            self.declared.clone()
        }
    }

    impl<AB: InteractionBuilder<F = Val>> Air<AB> for Reader {
        fn eval(&self, builder: &mut AB) {
            let main = builder.main();
            let (loc, nxt) = (main.current_slice(), main.next_slice());
            let (a, b, c): (AB::Expr, AB::Expr, AB::Expr) = (loc[0].into(), nxt[1].into(), nxt[2].into());
            builder.when_transition().assert_eq(b, a.clone());
            builder.push_interaction("bus", [c], Count::bounded(a, 1));
        }
    }

    #[test]
    fn finds_reads_the_declaration_misses() {
        let undeclared = |declared: Vec<usize>| undeclared_next_row_reads(&Reader { declared });
        assert_eq!(undeclared(vec![]), vec![1, 2]);
        assert_eq!(undeclared(vec![1]), vec![2]);
        assert_eq!(undeclared(vec![0, 1, 2]), Vec::<usize>::new());
    }
}
