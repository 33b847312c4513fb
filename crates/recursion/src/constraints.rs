//! An AIR's constraints at an opened point, as a circuit: the symbolic
//! constraints Plonky3 records from the AIR (`InteractionSymbolicBuilder`,
//! as the provers read them) lowered node by node to circuit rows, shared
//! sub-expressions once. This is how a verifier circuit evaluates a child
//! table's constraints at the zerocheck's point: the opened values, the
//! periodic columns and the selectors there are wires, and each
//! constraint's value is a wire.

use foldhash::{HashMap, HashMapExt};

use p3_air::symbolic::{AirLayout, BaseEntry, BaseLeaf, SymbolicExpr, SymbolicExpression};
use p3_air::{Air, BaseAir};
use p3_lookup::InteractionSymbolicBuilder;
use sigagg_prover::config::Val;

use crate::Ext;
use crate::circuit::{CircuitBuilder, Wire};
use crate::error::CircuitError;

/// The values a row's constraints read, as wires: the row (`local`), the
/// next row (`next`, every column; those the AIR does not read at the next
/// row are ignored), the periodic columns and the three selectors.
#[derive(Clone, Copy, Debug)]
pub struct OpenedRow<'a> {
    /// The row's columns.
    pub local: &'a [Wire],
    /// The next row's columns.
    pub next: &'a [Wire],
    /// The periodic columns' values.
    pub periodic: &'a [Wire],
    /// The first-row selector.
    pub first: Wire,
    /// The last-row selector.
    pub last: Wire,
    /// The transition selector.
    pub transition: Wire,
}

/// One bus message at the point: its fields and its signed count.
#[derive(Clone, Debug)]
pub struct MessageWires {
    /// The fields, in order.
    pub fields: Vec<Wire>,
    /// The count (positive: sent).
    pub count: Wire,
}

/// Each of `air`'s constraints at `at`, in the order the AIR asserts them
/// (its bus messages: [`lower_with_messages`]).
///
/// # Errors
/// As [`lower_with_messages`].
pub fn lower<A>(b: &mut CircuitBuilder, air: &A, at: &OpenedRow<'_>) -> Result<Vec<Wire>, CircuitError>
where
    A: BaseAir<Val> + Air<InteractionSymbolicBuilder<Val, Ext>>,
{
    lower_with_messages(b, air, at).map(|(constraints, _)| constraints)
}

/// Each of `air`'s constraints at `at`, in the order the AIR asserts them,
/// and each of its bus messages, in the order it sends them (shared
/// sub-expressions lowered once for both).
///
/// # Errors
/// [`CircuitError::Unsupported`] for an AIR with extension-field
/// constraints, preprocessed columns or public values (no sigagg table
/// has them), or whose widths are not `at`'s.
pub fn lower_with_messages<A>(
    b: &mut CircuitBuilder,
    air: &A,
    at: &OpenedRow<'_>,
) -> Result<(Vec<Wire>, Vec<MessageWires>), CircuitError>
where
    A: BaseAir<Val> + Air<InteractionSymbolicBuilder<Val, Ext>>,
{
    let width = BaseAir::<Val>::width(air);
    if at.local.len() != width || at.next.len() != width || at.periodic.len() != air.num_periodic_columns() {
        return Err(CircuitError::Unsupported("opened values of another width than the AIR's"));
    }
    let layout =
        AirLayout { main_width: width, num_periodic_columns: air.num_periodic_columns(), ..Default::default() };
    let symbolic = InteractionSymbolicBuilder::<Val, Ext>::from_air(air, layout);
    if !symbolic.extension_constraints().is_empty() {
        return Err(CircuitError::Unsupported("extension-field constraints"));
    }
    if !symbolic.local_interactions().is_empty() || !symbolic.exclusive_interactions().is_empty() {
        return Err(CircuitError::Unsupported("local or exclusive bus interactions"));
    }
    let mut lowering = Lowering { at, nodes: HashMap::new(), constants: HashMap::new() };
    let constraints = symbolic.base_constraints();
    let constraints = constraints.iter().map(|c| lowering.lower(b, c)).collect::<Result<Vec<_>, _>>()?;
    let messages = symbolic
        .global_interactions()
        .iter()
        .map(|m| {
            let fields = m.fields.iter().map(|f| lowering.lower(b, f)).collect::<Result<Vec<_>, _>>()?;
            Ok(MessageWires { fields, count: lowering.lower(b, &m.count)? })
        })
        .collect::<Result<Vec<_>, CircuitError>>()?;
    Ok((constraints, messages))
}

/// The lowering's memory: each node already lowered (by address: the
/// symbolic constraints share sub-expressions through `Arc`s, which stay
/// put while the constraints live) and each constant's wire.
struct Lowering<'a> {
    at: &'a OpenedRow<'a>,
    nodes: HashMap<usize, Wire>,
    constants: HashMap<Val, Wire>,
}

impl Lowering<'_> {
    fn lower(&mut self, b: &mut CircuitBuilder, expr: &SymbolicExpression<Val>) -> Result<Wire, CircuitError> {
        let key = expr as *const SymbolicExpression<Val> as usize;
        if let Some(&w) = self.nodes.get(&key) {
            return Ok(w);
        }
        let wire = match expr {
            SymbolicExpr::Leaf(leaf) => self.leaf(b, leaf)?,
            SymbolicExpr::Add { x, y, .. } => {
                let (x, y) = (self.lower(b, x)?, self.lower(b, y)?);
                b.add(x, y)
            }
            SymbolicExpr::Sub { x, y, .. } => {
                let (x, y) = (self.lower(b, x)?, self.lower(b, y)?);
                b.sub(x, y)
            }
            SymbolicExpr::Neg { x, .. } => {
                let (zero, x) = (b.zero(), self.lower(b, x)?);
                b.sub(zero, x)
            }
            SymbolicExpr::Mul { x, y, .. } => {
                let (x, y) = (self.lower(b, x)?, self.lower(b, y)?);
                b.mul(x, y)
            }
        };
        self.nodes.insert(key, wire);
        Ok(wire)
    }

    fn leaf(&mut self, b: &mut CircuitBuilder, leaf: &BaseLeaf<Val>) -> Result<Wire, CircuitError> {
        let at = self.at;
        Ok(match leaf {
            BaseLeaf::Variable(v) => match v.entry {
                BaseEntry::Main { offset: 0 } => at.local[v.index],
                BaseEntry::Main { offset: 1 } => at.next[v.index],
                BaseEntry::Periodic => at.periodic[v.index],
                _ => return Err(CircuitError::Unsupported("preprocessed columns, public values or a far row")),
            },
            BaseLeaf::IsFirstRow => at.first,
            BaseLeaf::IsLastRow => at.last,
            BaseLeaf::IsTransition => at.transition,
            BaseLeaf::Constant(c) => *self.constants.entry(*c).or_insert_with(|| b.constant(Ext::from(*c))),
        })
    }
}
