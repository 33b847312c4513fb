//! The main-trace columns a table's lookups read, kept apart from the trace.
//!
//! The LogUp columns are built from the main trace after it is committed
//! (their challenges come from the commitment), and only from the columns
//! the lookups' tuples, multiplicities and flags name: a few dozen of the
//! chain table's 324. Copying those columns out before the commitment lets
//! the trace itself be handed to the PCS by value, where it becomes the
//! low-degree extension in place, instead of a second copy of every table
//! being kept alive for the lookup phase.
//!
//! [`LookupColumns::of`] copies the columns and rewrites the lookups to read
//! the narrow matrix; every other part of a lookup (its bus, weight, slot)
//! is unchanged, so the LogUp gadget computes from it exactly the columns
//! and terminal it would compute from the whole trace.

use std::collections::BTreeMap;
use std::sync::Arc;

use p3_air::symbolic::{BaseEntry, BaseLeaf, SymbolicExpr, SymbolicExpression, SymbolicVariable};
use p3_field::Field;
use p3_lookup::Lookup;
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_maybe_rayon::prelude::*;

/// A narrow copy of the main-trace columns some lookups read, and those
/// lookups rewritten to read it.
#[derive(Debug)]
pub struct LookupColumns<F: Field> {
    /// The columns, in increasing order of their index in the trace.
    pub trace: RowMajorMatrix<F>,
    /// The lookups, with every main-trace variable renumbered into `trace`.
    pub lookups: Vec<Lookup<F>>,
}

impl<F: Field> LookupColumns<F> {
    /// The columns of `trace` that `lookups` read, and the lookups renumbered.
    pub fn of(trace: &RowMajorMatrix<F>, lookups: &[Lookup<F>]) -> Self {
        let mut used = BTreeMap::new();
        for expr in expressions(lookups) {
            collect_main_columns(expr, &mut used);
        }
        for (new, old_to_new) in used.values_mut().enumerate() {
            *old_to_new = new;
        }
        let columns: Vec<usize> = used.keys().copied().collect();
        let narrow = select_columns(trace, &columns);
        let lookups = lookups.iter().map(|lookup| renumber_lookup(lookup, &used)).collect();
        Self { trace: narrow, lookups }
    }
}

/// Every expression of `lookups`: tuple entries, multiplicities and flags.
fn expressions<F: Field>(lookups: &[Lookup<F>]) -> impl Iterator<Item = &SymbolicExpression<F>> {
    lookups.iter().flat_map(|lookup| {
        lookup.elements.iter().flatten().chain(&lookup.multiplicities).chain(lookup.flags.iter().flatten())
    })
}

/// Adds to `used` every main-trace column `expr` reads (valued 0 for now).
fn collect_main_columns<F: Field>(expr: &SymbolicExpression<F>, used: &mut BTreeMap<usize, usize>) {
    match expr {
        SymbolicExpr::Leaf(BaseLeaf::Variable(v)) if matches!(v.entry, BaseEntry::Main { .. }) => {
            used.insert(v.index, 0);
        }
        SymbolicExpr::Leaf(_) => {}
        SymbolicExpr::Add { x, y, .. } | SymbolicExpr::Sub { x, y, .. } | SymbolicExpr::Mul { x, y, .. } => {
            collect_main_columns(x, used);
            collect_main_columns(y, used);
        }
        SymbolicExpr::Neg { x, .. } => collect_main_columns(x, used),
    }
}

/// The matrix of `trace`'s `columns`, in that order.
fn select_columns<F: Field>(trace: &RowMajorMatrix<F>, columns: &[usize]) -> RowMajorMatrix<F> {
    // A lookup that reads no column still needs the trace's height: one
    // zero column keeps it.
    let (width, narrow_width) = (trace.width(), columns.len().max(1));
    let mut values = F::zero_vec(trace.height() * narrow_width);
    if !columns.is_empty() {
        values.par_chunks_mut(narrow_width).zip(trace.values.par_chunks(width)).for_each(|(out, row)| {
            for (o, &c) in out.iter_mut().zip(columns) {
                *o = row[c];
            }
        });
    }
    RowMajorMatrix::new(values, narrow_width)
}

/// `lookup` with its main-trace variables renumbered by `new_index`.
fn renumber_lookup<F: Field>(lookup: &Lookup<F>, new_index: &BTreeMap<usize, usize>) -> Lookup<F> {
    let renumber = |expr: &SymbolicExpression<F>| renumber(expr, new_index);
    Lookup {
        kind: lookup.kind.clone(),
        elements: lookup.elements.iter().map(|tuple| tuple.iter().map(renumber).collect()).collect(),
        multiplicities: lookup.multiplicities.iter().map(renumber).collect(),
        count_weight: lookup.count_weight,
        column: lookup.column,
        flags: lookup.flags.as_ref().map(|flags| flags.iter().map(renumber).collect()),
    }
}

/// `expr` with every main-trace column `c` read as column `new_index[c]`.
fn renumber<F: Field>(expr: &SymbolicExpression<F>, new_index: &BTreeMap<usize, usize>) -> SymbolicExpression<F> {
    let go = |e: &Arc<SymbolicExpression<F>>| Arc::new(renumber(e, new_index));
    match expr {
        SymbolicExpr::Leaf(BaseLeaf::Variable(v)) if matches!(v.entry, BaseEntry::Main { .. }) => {
            SymbolicExpr::Leaf(BaseLeaf::Variable(SymbolicVariable::new(v.entry, new_index[&v.index])))
        }
        SymbolicExpr::Leaf(_) => expr.clone(),
        SymbolicExpr::Add { x, y, degree_multiple } => {
            SymbolicExpr::Add { x: go(x), y: go(y), degree_multiple: *degree_multiple }
        }
        SymbolicExpr::Sub { x, y, degree_multiple } => {
            SymbolicExpr::Sub { x: go(x), y: go(y), degree_multiple: *degree_multiple }
        }
        SymbolicExpr::Mul { x, y, degree_multiple } => {
            SymbolicExpr::Mul { x: go(x), y: go(y), degree_multiple: *degree_multiple }
        }
        SymbolicExpr::Neg { x, degree_multiple } => SymbolicExpr::Neg { x: go(x), degree_multiple: *degree_multiple },
    }
}

#[cfg(test)]
mod tests {
    use p3_field::PrimeCharacteristicRing;
    use p3_lookup::logup::LogUpGadget;
    use p3_lookup::{Kind, LookupProtocol};

    use super::*;
    use crate::config::{Challenge, Val};

    fn main(offset: usize, index: usize) -> SymbolicExpression<Val> {
        SymbolicVariable::new(BaseEntry::Main { offset }, index).into()
    }

    /// Two lookups over a 5-column trace that read columns 3 and 1 (one on
    /// the next row), with a multiplicity from column 4 and a constant.
    fn lookups() -> Vec<Lookup<Val>> {
        let sends = Lookup {
            kind: Kind::Global("bus".into()),
            elements: vec![vec![main(0, 3), main(1, 1) * main(0, 3)]],
            multiplicities: vec![main(0, 4)],
            count_weight: 1,
            column: 0,
            flags: None,
        };
        let receives = Lookup {
            kind: Kind::Global("bus".into()),
            elements: vec![vec![main(0, 1), SymbolicExpression::from(Val::TWO)]],
            multiplicities: vec![-main(0, 4)],
            count_weight: 1,
            column: 1,
            flags: None,
        };
        vec![sends, receives]
    }

    fn trace() -> RowMajorMatrix<Val> {
        RowMajorMatrix::new((0..5 * 8u32).map(|v| Val::from_u32(v * v + 7)).collect(), 5)
    }

    #[test]
    fn keeps_only_the_columns_the_lookups_read() {
        let columns = LookupColumns::of(&trace(), &lookups());
        assert_eq!((columns.trace.width(), columns.trace.height()), (3, 8));
        for r in 0..8 {
            let row = trace().row_slice(r).unwrap().to_vec();
            assert_eq!(columns.trace.row_slice(r).unwrap().to_vec(), vec![row[1], row[3], row[4]]);
        }
    }

    /// The LogUp columns and terminal built from the narrow copy are those
    /// built from the whole trace; a lookup reading another column would
    /// change them (so the comparison can fail).
    #[test]
    fn renumbered_lookups_give_the_same_logup_columns() {
        let gadget = LogUpGadget::new();
        let challenges: Vec<Challenge> = (0..4).map(|i| Challenge::from(Val::from_u32(1000 + i))).collect();
        let build = |trace: &RowMajorMatrix<Val>, lookups: &[Lookup<Val>]| {
            let (columns, terminal) =
                gadget.generate_permutation::<Val, Challenge>(trace, &None, &[], lookups, &challenges);
            (columns.values, terminal.map(|t| t.0))
        };
        let columns = LookupColumns::of(&trace(), &lookups());
        let whole = build(&trace(), &lookups());
        assert_eq!(build(&columns.trace, &columns.lookups), whole);
        let mut moved = lookups();
        moved[1].elements[0][0] = main(0, 0);
        assert_ne!(build(&trace(), &moved), whole);
    }
}
