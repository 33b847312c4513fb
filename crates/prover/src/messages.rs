//! An AIR's bus messages, compiled once into a list of operations and
//! evaluated row by row without the constraints.
//!
//! The bus argument needs every row's messages (the LogUp leaves of
//! [`crate::logup`]), and the skip zerocheck needs them alone on the
//! subgroup `H`, where the constraints of a valid trace vanish. Running the
//! whole AIR for these computes every constraint too: for a Poseidon2
//! table, all of its rounds. The messages are a few small expressions of
//! the row, so this module lowers them, from the AIR's symbolic
//! evaluation, to a topologically ordered list of operations (shared
//! sub-expressions once) and evaluates that list on any algebra over the
//! base field: scalars, packed rows, extension values.

use std::collections::HashMap;

use p3_air::{BaseEntry, BaseLeaf, SymbolicExpr, SymbolicExpression};
use p3_field::Algebra;

use crate::config::Val;
use crate::zerocheck::{SkipAir, ZerocheckError, symbolic};

/// One operation; operands are indices of earlier operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Constant(Val),
    Read(Input),
    /// One minus the last-row selector.
    Transition,
    Add(usize, usize),
    Sub(usize, usize),
    Neg(usize),
    Mul(usize, usize),
}

/// An input a program reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The row's column.
    Local(usize),
    /// The successor row's column.
    Next(usize),
    /// A periodic column.
    Periodic(usize),
    /// The first-row selector.
    First,
    /// The last-row selector.
    Last,
}

/// One row's inputs: the row, its successor (repeat-last), the periodic
/// columns' values and the first- and last-row selectors.
#[derive(Clone, Copy, Debug)]
pub struct RowInputs<'a, V> {
    /// The row's columns.
    pub local: &'a [V],
    /// The successor row's columns.
    pub next: &'a [V],
    /// The periodic columns' values at the row.
    pub periodic: &'a [V],
    /// One on the first row.
    pub first: V,
    /// One on the last row.
    pub last: V,
}

/// An AIR's bus messages as operations ([`MessageProgram::new`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageProgram {
    ops: Vec<Op>,
    /// Per message, in the AIR's order: the count's operation, then each
    /// field's.
    messages: Vec<(usize, Vec<usize>)>,
}

impl MessageProgram {
    /// Compiles `air`'s messages.
    ///
    /// # Errors
    /// An AIR the zerocheck refuses, or messages that read public values
    /// or preprocessed columns (which no AIR of this prover has).
    pub fn new<A: SkipAir>(air: &A) -> Result<Self, ZerocheckError> {
        let builder = symbolic(air)?;
        let mut lowering = Lowering { ops: Vec::new(), seen: HashMap::new() };
        let messages = builder
            .global_interactions()
            .iter()
            .map(|i| {
                let count = lowering.lower(&i.count)?;
                let fields = i.fields.iter().map(|f| lowering.lower(f)).collect::<Result<_, _>>()?;
                Ok((count, fields))
            })
            .collect::<Result<_, ZerocheckError>>()?;
        Ok(Self { ops: lowering.ops, messages })
    }

    /// The number of messages.
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// Whether the AIR sends no message.
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }

    /// Evaluates every operation on `row` into `values` (cleared first);
    /// read the results with [`MessageProgram::message`].
    pub fn eval<V: Algebra<Val> + Copy>(&self, row: &RowInputs<'_, V>, values: &mut Vec<V>) {
        self.eval_with(
            |input| match input {
                Input::Local(i) => row.local[i],
                Input::Next(i) => row.next[i],
                Input::Periodic(i) => row.periodic[i],
                Input::First => row.first,
                Input::Last => row.last,
            },
            values,
        );
    }

    /// [`MessageProgram::eval`] reading each input the program uses
    /// through `input`, when gathering a whole row would cost more (a
    /// wide table's packed rows).
    pub fn eval_with<V: Algebra<Val> + Copy>(&self, input: impl Fn(Input) -> V, values: &mut Vec<V>) {
        run(&self.ops, input, values);
    }

    /// Message `j`'s count and fields, from the values
    /// [`MessageProgram::eval`] left.
    pub fn message<'a, V: Copy>(&'a self, j: usize, values: &'a [V]) -> (V, impl Iterator<Item = V> + 'a) {
        let (count, fields) = &self.messages[j];
        (values[*count], fields.iter().map(move |&f| values[f]))
    }
}

/// Evaluates `ops` in order into `values` (cleared first), reading inputs
/// through `input`.
fn run<V: Algebra<Val> + Copy>(ops: &[Op], input: impl Fn(Input) -> V, values: &mut Vec<V>) {
    values.clear();
    for op in ops {
        let v = match *op {
            Op::Constant(c) => V::from(c),
            Op::Read(at) => input(at),
            Op::Transition => V::ONE - input(Input::Last),
            Op::Add(x, y) => values[x] + values[y],
            Op::Sub(x, y) => values[x] - values[y],
            Op::Neg(x) => -values[x],
            Op::Mul(x, y) => values[x] * values[y],
        };
        values.push(v);
    }
}

/// One LogUp column's inputs as operation indices of a
/// [`LookupProgram`]: Plonky3's `Lookup`, compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledLookup {
    /// The lookup's fraction column (after the accumulator).
    pub column: usize,
    /// Each message's fields.
    pub elements: Vec<Vec<usize>>,
    /// Each message's count.
    pub multiplicities: Vec<usize>,
    /// An exclusive column's branch flags.
    pub flags: Option<Vec<usize>>,
}

/// A table's folded lookups (Plonky3's `Lookup`s, the form its LogUp
/// constraints take) compiled to operations, for evaluating those
/// constraints without walking the expression trees at every row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookupProgram {
    ops: Vec<Op>,
    /// The lookups, in order.
    pub lookups: Vec<CompiledLookup>,
}

impl LookupProgram {
    /// Compiles `lookups`, or `None` where a field or count reads what the
    /// operations cannot (public values, preprocessed columns) or the
    /// transition selector, whose value off the trace domain is not
    /// `1 - last`, or where a lookup's counts or flags do not match its
    /// messages one to one.
    pub fn new(lookups: &[p3_lookup::Lookup<Val>]) -> Option<Self> {
        let mut lowering = Lowering { ops: Vec::new(), seen: HashMap::new() };
        let mut lower_all =
            |es: &[SymbolicExpression<Val>]| es.iter().map(|e| lowering.lower(e).ok()).collect::<Option<Vec<_>>>();
        let compiled = lookups
            .iter()
            .map(|l| {
                // Malformed lookups stay with Plonky3's gadget, which refuses them.
                let branches = l.flags.as_ref().map_or(l.elements.len(), Vec::len);
                if l.multiplicities.len() != l.elements.len()
                    || branches != l.elements.len()
                    || l.flags.as_ref().is_some_and(Vec::is_empty)
                {
                    return None;
                }
                Some(CompiledLookup {
                    column: l.column,
                    elements: l.elements.iter().map(|fields| lower_all(fields)).collect::<Option<_>>()?,
                    multiplicities: lower_all(&l.multiplicities)?,
                    flags: match &l.flags {
                        Some(flags) => Some(lower_all(flags)?),
                        None => None,
                    },
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let ops = lowering.ops;
        (!ops.contains(&Op::Transition)).then_some(Self { ops, lookups: compiled })
    }

    /// Evaluates every operation into `values` (cleared first), reading
    /// inputs through `input`; index `values` with a [`CompiledLookup`]'s
    /// operation indices.
    pub fn eval_with<V: Algebra<Val> + Copy>(&self, input: impl Fn(Input) -> V, values: &mut Vec<V>) {
        run(&self.ops, input, values);
    }
}

/// Lowers shared expression trees to operations, each node once.
struct Lowering {
    ops: Vec<Op>,
    /// Already lowered nodes, by address: the trees are borrowed for the
    /// whole lowering, so addresses stay unique.
    seen: HashMap<*const SymbolicExpression<Val>, usize>,
}

impl Lowering {
    fn lower(&mut self, e: &SymbolicExpression<Val>) -> Result<usize, ZerocheckError> {
        if let Some(&i) = self.seen.get(&(e as *const _)) {
            return Ok(i);
        }
        let op = match e {
            SymbolicExpr::Leaf(leaf) => match leaf {
                BaseLeaf::Constant(c) => Op::Constant(*c),
                BaseLeaf::IsFirstRow => Op::Read(Input::First),
                BaseLeaf::IsLastRow => Op::Read(Input::Last),
                BaseLeaf::IsTransition => Op::Transition,
                BaseLeaf::Variable(v) => match v.entry {
                    BaseEntry::Main { offset: 0 } => Op::Read(Input::Local(v.index)),
                    BaseEntry::Main { offset: 1 } => Op::Read(Input::Next(v.index)),
                    BaseEntry::Periodic => Op::Read(Input::Periodic(v.index)),
                    _ => return Err(ZerocheckError::Shape("bus messages may read the main and periodic columns only")),
                },
            },
            SymbolicExpr::Add { x, y, .. } => Op::Add(self.lower(x)?, self.lower(y)?),
            SymbolicExpr::Sub { x, y, .. } => Op::Sub(self.lower(x)?, self.lower(y)?),
            SymbolicExpr::Mul { x, y, .. } => Op::Mul(self.lower(x)?, self.lower(y)?),
            SymbolicExpr::Neg { x, .. } => Op::Neg(self.lower(x)?),
        };
        self.ops.push(op);
        let index = self.ops.len() - 1;
        self.seen.insert(e as *const _, index);
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use p3_air::{AirBuilder, RowWindow};
    use p3_field::PrimeCharacteristicRing;
    use p3_lookup::{Count, InteractionBuilder};
    use p3_matrix::Matrix;

    use super::*;
    use crate::poly::row_at;
    use crate::zerocheck::toy::TestAir;

    /// The reference: collects one row's bus messages, `(count, fields)` in
    /// the AIR's order, by running the AIR and ignoring its constraints.
    struct MessageCollector<'a> {
        window: RowWindow<'a, Val>,
        periodic: &'a [Val],
        preprocessed: RowWindow<'a, Val>,
        first: bool,
        last: bool,
        messages: Vec<(Val, Vec<Val>)>,
    }

    impl<'a> MessageCollector<'a> {
        fn new(local: &'a [Val], next: &'a [Val], periodic: &'a [Val], first: bool, last: bool) -> Self {
            Self {
                window: RowWindow::from_two_rows(local, next),
                periodic,
                preprocessed: RowWindow::from_two_rows(&[], &[]),
                first,
                last,
                messages: Vec::new(),
            }
        }
    }

    impl<'a> AirBuilder for MessageCollector<'a> {
        type F = Val;
        type Expr = Val;
        type Var = Val;
        type PreprocessedWindow = RowWindow<'a, Val>;
        type MainWindow = RowWindow<'a, Val>;
        type PublicVar = Val;
        type PeriodicVar = Val;

        fn main(&self) -> Self::MainWindow {
            self.window
        }

        fn preprocessed(&self) -> &Self::PreprocessedWindow {
            &self.preprocessed
        }

        fn is_first_row(&self) -> Val {
            Val::from_bool(self.first)
        }

        fn is_last_row(&self) -> Val {
            Val::from_bool(self.last)
        }

        fn is_transition(&self) -> Val {
            Val::from_bool(!self.last)
        }

        fn assert_zero<I: Into<Val>>(&mut self, _x: I) {}

        fn periodic_values(&self) -> &[Val] {
            self.periodic
        }
    }

    impl InteractionBuilder for MessageCollector<'_> {
        fn push_interaction<E: Into<Val>>(
            &mut self,
            _bus: &str,
            fields: impl IntoIterator<Item = E>,
            count: impl Into<Count<Val>>,
        ) {
            let (count, _) = count.into().into_parts();
            self.messages.push((count, fields.into_iter().map(Into::into).collect()));
        }

        fn push_local_interaction(&mut self, _tuples: impl IntoIterator<Item = (Vec<Val>, Count<Val>)>) {}
    }

    /// The program gives every row's messages exactly as running the AIR
    /// does, first and last rows included.
    #[test]
    fn the_program_matches_the_air() {
        let air = TestAir::new();
        let trace = air.trace(6);
        let program = MessageProgram::new(&air).unwrap();
        assert!(!program.is_empty());
        let periodic = p3_air::BaseAir::<Val>::periodic_columns(&air);
        let (height, width) = (trace.height(), trace.width);
        let mut values = Vec::new();
        for r in 0..height {
            let local = &trace.values[r * width..(r + 1) * width];
            let n = row_at(r, 1, height);
            let next = &trace.values[n * width..(n + 1) * width];
            let per: Vec<Val> = periodic.iter().map(|c| c[r % c.len()]).collect();
            let mut collector = MessageCollector::new(local, next, &per, r == 0, r == height - 1);
            p3_air::Air::eval(&air, &mut collector);
            let row = RowInputs {
                local,
                next,
                periodic: &per,
                first: Val::from_bool(r == 0),
                last: Val::from_bool(r == height - 1),
            };
            program.eval(&row, &mut values);
            assert_eq!(program.len(), collector.messages.len());
            for (j, (count, fields)) in collector.messages.iter().enumerate() {
                let (c, f) = program.message(j, &values);
                assert_eq!((c, f.collect::<Vec<_>>()), (*count, fields.clone()), "row {r}, message {j}");
            }
        }
    }

    /// Lookups compile, unless one reads the transition selector (whose
    /// value off the trace domain the operations would get wrong), as the
    /// toy's count `is_transition` does: then the quotient takes Plonky3's
    /// own evaluation.
    #[test]
    fn lookup_programs_refuse_the_transition_selector() {
        let folded = p3_lookup::Lookups::<Val>::from_air::<crate::config::Challenge, _>(&TestAir::new());
        let mut lookups: Vec<p3_lookup::Lookup<Val>> = folded.iter().cloned().collect();
        assert_eq!(LookupProgram::new(&lookups), None, "the toy counts with the transition selector");
        for lookup in &mut lookups {
            lookup.multiplicities.fill(SymbolicExpr::Leaf(BaseLeaf::Constant(Val::ONE)));
        }
        let program = LookupProgram::new(&lookups).expect("constant counts compile");
        assert_eq!(program.lookups.len(), lookups.len());
        assert!(program.lookups.iter().zip(&lookups).all(|(p, l)| p.elements.len() == l.elements.len()));
        lookups[0].multiplicities[0] = SymbolicExpr::Leaf(BaseLeaf::IsTransition);
        assert_eq!(LookupProgram::new(&lookups), None);
    }
}
