//! The tables of a circuit, and their traces.
//!
//! * [`WitnessAir`]: one row per extension wire, numbered by a counter
//!   from 0: the wire's value (five base-field limbs) and how many times
//!   rows read it. It **provides** `(wire, value)` on the `wire` bus that
//!   many times. Fixed wires (constants, inputs) equal their value, a
//!   periodic column the verifier fills from the circuit and the
//!   statement.
//! * [`BaseWitnessAir`]: the same for the wires that hold base-field
//!   values by construction (permutation and path outputs, limbs, bits,
//!   siblings), one limb each, its counter starting at the extension
//!   table's height: it provides `(wire, value, 0, 0, 0, 0)`.
//! * [`ArithAir`]: one row per circuit row `a ∘ b = c`, the three values
//!   committed, the relation and the three wire numbers periodic columns
//!   (the circuit fixes them; the prover chooses none of them). It checks
//!   `a + b = c` or `a · b = c` in the extension (the product reduced by
//!   `X^5 = 1 − X^2`, Plonky3's own formula) and **reads** each of its
//!   three `(wire, value)` pairs once from the bus.
//!
//! * [`PermAir`]: one row per permutation: Plonky3's default width-16
//!   Poseidon2 as `sigagg-prover`'s paired Poseidon block (every second
//!   full round committed, degree 9), reading its 16 input and 16 output
//!   wires as `(wire, value, 0, 0, 0, 0)`: so each is a base-field value.
//!   A padding row permutes zeros and reads nothing.
//! * [`PathAir`]: one row per Merkle level of the circuit's paths: one
//!   permutation of `left ‖ right` (the paired block, the first 8 output
//!   lanes kept), the running node placed in the half its bit says
//!   (`sigagg_prover::gadgets::merkle::place_node`), the node of the next
//!   level the output, the bit and the other half (the sibling) read from
//!   their wires, the first level's node read from the leaf's wires, the
//!   last level's output from the root's.
//!
//! Why this is sound: the counters give the two witness tables exactly
//! one row per wire number between them (the extension table's ids are
//! `0..2^h`, the base table's start at `2^h`, `2^h` its height), so
//! LogUp's balance (every read matched by the provided multiplicities, at
//! most `60 · 2^24 < p` reads: 3 per arithmetic row, 32 per permutation,
//! 25 per path level) forces every read of wire `w` to carry that row's
//! value: each wire has one value,
//! every circuit row and permutation holds on those values, and fixed wires
//! hold the statement's. A padding row of the arithmetic table has both relation
//! flags zero: it checks and reads nothing.

use std::borrow::Cow;
use std::sync::Arc;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_field::PackedValue;
use p3_field::extension::trinomial_quintic_mul;
use p3_field::{BasedVectorSpace, PrimeCharacteristicRing};
use p3_lookup::{Count, InteractionBuilder};
use p3_matrix::dense::RowMajorMatrix;
use p3_maybe_rayon::prelude::*;
use sigagg_koalabear::poseidon2::{PARTIAL_16, default_constants16};
use sigagg_prover::config::{PackedVal, Val};
use sigagg_prover::gadgets::bus::once;
use sigagg_prover::paired::Poseidon2Block;
use sigagg_prover::{Table, air_enum, typed_row};

use crate::Ext;
use crate::circuit::{Circuit, DIGEST, PERM_WIDTH, Relation};
use crate::merkle::compress_values;

/// Limbs of one [`Ext`] value.
pub const D: usize = 5;
/// The bus of `(wire, value)` pairs.
const BUS: &str = "wire";

/// The permutation's layout: the paired Poseidon2 block over Plonky3's
/// default constants, inputs at column 0.
fn perm_block() -> Poseidon2Block<PERM_WIDTH, PARTIAL_16> {
    Poseidon2Block::paired(default_constants16().clone())
}

typed_row! {
    /// The committed columns of the witness table.
    pub struct WitnessCols<T> {
        /// The wire's number: 0 on the first row, one more on each next.
        pub id: T,
        /// Its value.
        pub value: [T; D],
        /// How many times the arithmetic table reads it.
        pub mult: T,
    }
}

typed_row! {
    /// The periodic columns of the witness table (one period: the table).
    pub struct WitnessFixed<T> {
        /// 1 on the rows of fixed wires.
        pub fixed: T,
        /// Their values (zero elsewhere).
        pub value: [T; D],
    }
}

typed_row! {
    /// The committed columns of the arithmetic table.
    pub struct ArithCols<T> {
        /// The left operand's value.
        pub a: [T; D],
        /// The right operand's value.
        pub b: [T; D],
        /// The result's value.
        pub c: [T; D],
    }
}

typed_row! {
    /// The periodic columns of the arithmetic table (one period: the table).
    pub struct ArithFixed<T> {
        /// 1 on the rows that check `a + b = c`.
        pub is_add: T,
        /// 1 on the rows that check `a · b = c`.
        pub is_mul: T,
        /// The wire numbers of `a`, `b`, `c`.
        pub ids: [T; 3],
    }
}

/// Column-major periodic data of `rows` rows, written row by row.
fn periodic<const W: usize>(rows: usize, mut row: impl FnMut(usize) -> [Val; W]) -> Vec<Vec<Val>> {
    let mut columns = vec![vec![Val::ZERO; rows]; W];
    for r in 0..rows {
        for (column, value) in columns.iter_mut().zip(row(r)) {
            column[r] = value;
        }
    }
    columns
}

/// The limbs of `value`.
fn limbs(value: &Ext) -> [Val; D] {
    core::array::from_fn(|k| value.as_basis_coefficients_slice()[k])
}

/// Reads the base-field `value` of wire `id` once on the rows `flag`
/// selects: the message `(id, value, 0, 0, 0, 0)`, so the wire's value
/// must lie in the base field.
fn read_base<AB: InteractionBuilder<F = Val>>(builder: &mut AB, id: AB::Expr, value: AB::Expr, flag: &AB::Expr) {
    let message: Vec<AB::Expr> = [id, value].into_iter().chain((1..D).map(|_| AB::Expr::ZERO)).collect();
    builder.push_interaction(BUS, message, -once(flag.clone()));
}

/// `rows` permutations written by `block`'s witness writer into a table of
/// `2^log_height` rows of `width` columns (the block's at their places),
/// a SIMD group at a time; the rows past `inputs` permute zeros.
fn write_permutations(
    block: &Poseidon2Block<PERM_WIDTH, PARTIAL_16>,
    width: usize,
    mut inputs: Vec<[Val; PERM_WIDTH]>,
    log_height: usize,
) -> RowMajorMatrix<Val> {
    inputs.resize(1 << log_height, [Val::ZERO; PERM_WIDTH]);
    let mut trace = RowMajorMatrix::new(vec![Val::ZERO; width << log_height], width);
    let lanes = PackedVal::WIDTH;
    for (cells, inputs) in trace.values.chunks_mut(width * lanes).zip(inputs.chunks(lanes)) {
        let mut rows: Vec<&mut [Val]> = cells.chunks_mut(width).collect();
        block.write(&mut rows, inputs);
    }
    trace
}

/// The witness table of a circuit under a statement's inputs.
#[derive(Clone, Debug)]
pub struct WitnessAir {
    fixed: Arc<[Vec<Val>]>,
}

impl WitnessAir {
    /// The table of `circuit`'s wires under `inputs` (as many as the
    /// circuit's), `2^log_height` rows.
    pub fn new(circuit: &Circuit, inputs: &[Ext], log_height: usize) -> Self {
        let fixed: Vec<_> = circuit.fixed().collect();
        let fixed = periodic::<{ WitnessFixed::<u8>::WIDTH }>(1 << log_height, |r| {
            let mut row = [Val::ZERO; WitnessFixed::<u8>::WIDTH];
            if let Some(Some(f)) = fixed.get(r) {
                row[0] = Val::ONE;
                row[1..].copy_from_slice(&limbs(&Circuit::fixed_value(*f, inputs)));
            }
            row
        });
        Self { fixed: fixed.into() }
    }

    /// This table with input `i`'s value `inputs[i]` written on row
    /// `rows[i]` (where [`WitnessAir::new`] wrote it): the table of the same
    /// circuit under other inputs, without the circuit
    /// ([`crate::key::VerifyingKey`]).
    pub(crate) fn with_inputs(&self, rows: &[usize], inputs: &[Ext]) -> Self {
        let mut fixed = self.fixed.to_vec();
        for (&row, value) in rows.iter().zip(inputs) {
            for (column, limb) in fixed[1..].iter_mut().zip(limbs(value)) {
                column[row] = limb;
            }
        }
        Self { fixed: fixed.into() }
    }
}

impl BaseAir<Val> for WitnessAir {
    fn width(&self) -> usize {
        WitnessCols::<u8>::WIDTH
    }

    fn num_periodic_columns(&self) -> usize {
        WitnessFixed::<u8>::WIDTH
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.fixed)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        vec![core::mem::offset_of!(WitnessCols<u8>, id)]
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for WitnessAir {
    /// The counter, the fixed values, then the provided pairs.
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let row: Vec<AB::Expr> = main.current_slice().iter().map(|&v| v.into()).collect();
        let next_id: AB::Expr = main.next(core::mem::offset_of!(WitnessCols<u8>, id)).expect("the id column").into();
        let loc = WitnessCols::from_slice(&row);
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let fixed = WitnessFixed::from_slice(&periodic);

        builder.when_first_row().assert_zero(loc.id.clone());
        builder.when_transition().assert_eq(next_id, loc.id.clone() + AB::Expr::ONE);
        for (value, fixed_value) in loc.value.iter().zip(fixed.value) {
            builder.assert_zero(fixed.fixed.clone() * (value.clone() - fixed_value));
        }
        let message: Vec<AB::Expr> = core::iter::once(loc.id).chain(loc.value).collect();
        builder.push_interaction(BUS, message, Count::provided(loc.mult));
    }
}

typed_row! {
    /// The committed columns of the base witness table.
    pub struct BaseWitnessCols<T> {
        /// The wire's bus id: the extension table's height on the first
        /// row, one more on each next.
        pub id: T,
        /// Its value, a base-field element.
        pub value: T,
        /// How many times rows read it.
        pub mult: T,
    }
}

typed_row! {
    /// The periodic columns of the base witness table (one period: the
    /// table).
    pub struct BaseWitnessFixed<T> {
        /// 1 on the rows of constants.
        pub fixed: T,
        /// Their values (zero elsewhere).
        pub value: T,
    }
}

/// The witness table of the base wires: it **provides**
/// `(id, value, 0, 0, 0, 0)`, so every read of such a wire reads a
/// base-field value; its constants equal their value, a periodic column.
#[derive(Clone, Debug)]
pub struct BaseWitnessAir {
    /// The first row's id: the extension table's height, so that the two
    /// tables' ids never meet.
    first_id: usize,
    fixed: Arc<[Vec<Val>]>,
}

impl BaseWitnessAir {
    /// The table of `circuit`'s base wires, `2^log_height` rows, whose ids
    /// start at `first_id`.
    pub fn new(circuit: &Circuit, first_id: usize, log_height: usize) -> Self {
        let fixed: Vec<_> = circuit.base_fixed().collect();
        let fixed = periodic::<{ BaseWitnessFixed::<u8>::WIDTH }>(1 << log_height, |r| match fixed.get(r) {
            Some(Some(f)) => [Val::ONE, limbs(&Circuit::fixed_value(*f, &[]))[0]],
            _ => [Val::ZERO; 2],
        });
        Self { first_id, fixed: fixed.into() }
    }
}

impl BaseAir<Val> for BaseWitnessAir {
    fn width(&self) -> usize {
        BaseWitnessCols::<u8>::WIDTH
    }

    fn num_periodic_columns(&self) -> usize {
        BaseWitnessFixed::<u8>::WIDTH
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.fixed)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        vec![core::mem::offset_of!(BaseWitnessCols<u8>, id)]
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for BaseWitnessAir {
    /// The counter from the first id, the constants, then the provided
    /// pairs.
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let row: Vec<AB::Expr> = main.current_slice().iter().map(|&v| v.into()).collect();
        let next_id: AB::Expr =
            main.next(core::mem::offset_of!(BaseWitnessCols<u8>, id)).expect("the id column").into();
        let loc = BaseWitnessCols::from_slice(&row);
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let fixed = BaseWitnessFixed::from_slice(&periodic);
        builder.when_first_row().assert_eq(loc.id.clone(), AB::Expr::from_usize(self.first_id));
        builder.assert_zero(fixed.fixed * (loc.value.clone() - fixed.value));
        builder.when_transition().assert_eq(next_id, loc.id.clone() + AB::Expr::ONE);
        let message: Vec<AB::Expr> = [loc.id, loc.value].into_iter().chain((1..D).map(|_| AB::Expr::ZERO)).collect();
        builder.push_interaction(BUS, message, Count::provided(loc.mult));
    }
}

/// The arithmetic table of a circuit.
#[derive(Clone, Debug)]
pub struct ArithAir {
    fixed: Arc<[Vec<Val>]>,
}

impl ArithAir {
    /// The table of `circuit`'s rows, `2^log_height` rows.
    pub fn new(circuit: &Circuit, log_height: usize) -> Self {
        let rows = circuit.rows();
        let fixed = periodic::<{ ArithFixed::<u8>::WIDTH }>(1 << log_height, |r| match rows.get(r) {
            Some(row) => {
                let (add, mul) = match row.relation {
                    Relation::Add => (Val::ONE, Val::ZERO),
                    Relation::Mul => (Val::ZERO, Val::ONE),
                };
                [
                    add,
                    mul,
                    Val::from_usize(circuit.id(row.a)),
                    Val::from_usize(circuit.id(row.b)),
                    Val::from_usize(circuit.id(row.c)),
                ]
            }
            None => [Val::ZERO; ArithFixed::<u8>::WIDTH],
        });
        Self { fixed: fixed.into() }
    }
}

impl BaseAir<Val> for ArithAir {
    fn width(&self) -> usize {
        ArithCols::<u8>::WIDTH
    }

    fn num_periodic_columns(&self) -> usize {
        ArithFixed::<u8>::WIDTH
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.fixed)
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for ArithAir {
    /// The sum, the product, then the three reads.
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let row: Vec<AB::Expr> = main.current_slice().iter().map(|&v| v.into()).collect();
        let loc = ArithCols::from_slice(&row);
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let fixed = ArithFixed::from_slice(&periodic);

        for k in 0..D {
            let sum = loc.a[k].clone() + loc.b[k].clone() - loc.c[k].clone();
            builder.assert_zero(fixed.is_add.clone() * sum);
        }
        let mut product: [AB::Expr; D] = core::array::from_fn(|_| AB::Expr::ZERO);
        trinomial_quintic_mul(&loc.a, &loc.b, &mut product);
        for (p, c) in product.into_iter().zip(&loc.c) {
            builder.assert_zero(fixed.is_mul.clone() * (p - c.clone()));
        }
        let live = fixed.is_add + fixed.is_mul;
        for (id, value) in fixed.ids.into_iter().zip([loc.a, loc.b, loc.c]) {
            let message: Vec<AB::Expr> = core::iter::once(id).chain(value).collect();
            builder.push_interaction(BUS, message, -once(live.clone()));
        }
    }
}

/// The permutation table's columns of input and output lane `j`: for
/// soundness tests that forge a permutation's values.
pub fn perm_columns(j: usize) -> (usize, usize) {
    let block = perm_block();
    (block.input(j), block.output(j))
}

/// Periodic columns of the permutation table, per row: `live`, the 16
/// input wires' ids, the 16 outputs' ids, and per output whether it is
/// read (an output nothing else reads has no wire row, and the table does
/// not read it).
const PERM_FIXED: usize = 1 + 3 * PERM_WIDTH;

/// The permutation table of a circuit.
#[derive(Clone, Debug)]
pub struct PermAir {
    block: Poseidon2Block<PERM_WIDTH, PARTIAL_16>,
    /// [`PERM_FIXED`] columns.
    fixed: Arc<[Vec<Val>]>,
}

impl PermAir {
    /// The table of `circuit`'s permutations, `2^log_height` rows.
    pub fn new(circuit: &Circuit, log_height: usize) -> Self {
        let perms = circuit.perms();
        let fixed = periodic::<PERM_FIXED>(1 << log_height, |r| {
            let mut row = [Val::ZERO; PERM_FIXED];
            if let Some(perm) = perms.get(r) {
                row[0] = Val::ONE;
                for (j, wire) in perm.inputs.iter().enumerate() {
                    row[1 + j] = Val::from_usize(circuit.id(*wire));
                }
                for (j, wire) in perm.outputs.iter().enumerate() {
                    if let Some(id) = circuit.tabled_id(*wire) {
                        row[1 + PERM_WIDTH + j] = Val::from_usize(id);
                        row[1 + 2 * PERM_WIDTH + j] = Val::ONE;
                    }
                }
            }
            row
        });
        Self { block: perm_block(), fixed: fixed.into() }
    }
}

impl BaseAir<Val> for PermAir {
    fn width(&self) -> usize {
        BaseAir::<Val>::width(&self.block)
    }

    fn num_periodic_columns(&self) -> usize {
        PERM_FIXED
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.fixed)
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for PermAir {
    /// The permutation, then its reads: the 16 inputs on live rows, each
    /// output where it is read, in lane order.
    fn eval(&self, builder: &mut AB) {
        self.block.eval(builder);
        let main = builder.main();
        let row: Vec<AB::Expr> = main.current_slice().iter().map(|&v| v.into()).collect();
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let live = periodic[0].clone();
        for j in 0..PERM_WIDTH {
            read_base(builder, periodic[1 + j].clone(), row[self.block.input(j)].clone(), &live);
        }
        for j in 0..PERM_WIDTH {
            let (id, flag) = (periodic[1 + PERM_WIDTH + j].clone(), &periodic[1 + 2 * PERM_WIDTH + j]);
            read_base(builder, id, row[self.block.output(j)].clone(), flag);
        }
    }
}

/// The path table's layout: the paired block keeping output lanes 0..8,
/// then the node's 8 columns, then the bit: `(block, node, bit)`.
fn path_columns() -> (Poseidon2Block<PERM_WIDTH, PARTIAL_16>, usize, usize) {
    let block = perm_block().with_outputs(0..DIGEST);
    let node = BaseAir::<Val>::width(&block);
    (block, node, node + DIGEST)
}

/// Periodic columns of the path table, per row: `live`, `first`, `last`,
/// `continues` (the next row is the next level of the same path), the
/// bit's wire, the sibling's 8, the leaf's 8, the root's 8.
const PATH_FIXED: usize = 5 + 3 * DIGEST;

/// The Merkle path table of a circuit.
#[derive(Clone, Debug)]
pub struct PathAir {
    /// The permutation ([`path_columns`]).
    block: Poseidon2Block<PERM_WIDTH, PARTIAL_16>,
    /// The first of the node's 8 columns.
    node_at: usize,
    /// The bit's column.
    bit_at: usize,
    fixed: Arc<[Vec<Val>]>,
}

impl PathAir {
    /// The table of `circuit`'s paths, `2^log_height` rows (one per level).
    pub fn new(circuit: &Circuit, log_height: usize) -> Self {
        let levels: Vec<(usize, usize)> = circuit
            .paths()
            .iter()
            .enumerate()
            .flat_map(|(p, path)| (0..path.bits.len()).map(move |l| (p, l)))
            .collect();
        let fixed = periodic::<PATH_FIXED>(1 << log_height, |r| {
            let mut row = [Val::ZERO; PATH_FIXED];
            if let Some(&(p, l)) = levels.get(r) {
                let path = &circuit.paths()[p];
                let depth = path.bits.len();
                let id = |w: &crate::Wire| Val::from_usize(circuit.id(*w));
                row[0] = Val::ONE;
                row[1] = Val::from_bool(l == 0);
                row[2] = Val::from_bool(l + 1 == depth);
                row[3] = Val::from_bool(l + 1 < depth);
                row[4] = id(&path.bits[l]);
                for k in 0..DIGEST {
                    row[5 + k] = id(&path.siblings[l][k]);
                    row[5 + DIGEST + k] = id(&path.leaf[k]);
                    row[5 + 2 * DIGEST + k] = id(&path.root[k]);
                }
            }
            row
        });
        let (block, node_at, bit_at) = path_columns();
        Self { block, node_at, bit_at, fixed: fixed.into() }
    }
}

impl BaseAir<Val> for PathAir {
    fn width(&self) -> usize {
        self.bit_at + 1
    }

    fn num_periodic_columns(&self) -> usize {
        PATH_FIXED
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.fixed)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        (self.node_at..self.bit_at).collect()
    }
}

impl<AB: InteractionBuilder<F = Val>> Air<AB> for PathAir {
    /// The permutation, the bit, the node's place, the chain to the next
    /// level, then the reads: the bit, the sibling, the leaf (first
    /// level), the root (last level).
    fn eval(&self, builder: &mut AB) {
        let (block, node_at, bit_at) = (&self.block, self.node_at, self.bit_at);
        block.eval(builder);
        let main = builder.main();
        let (cur, next) = (main.current_slice(), main.next_slice());
        let col = |row: &[AB::Var], c: usize| -> AB::Expr { row[c].into() };
        let periodic: Vec<AB::Expr> = builder.periodic_values().iter().map(|&v| v.into()).collect();
        let (live, first, last, continues) =
            (periodic[0].clone(), periodic[1].clone(), periodic[2].clone(), periodic[3].clone());
        let bit = col(cur, bit_at);
        let node: Vec<AB::Expr> = (0..DIGEST).map(|k| col(cur, node_at + k)).collect();
        let left: Vec<AB::Expr> = (0..DIGEST).map(|k| col(cur, block.input(k))).collect();
        let right: Vec<AB::Expr> = (0..DIGEST).map(|k| col(cur, block.input(DIGEST + k))).collect();
        let out: Vec<AB::Expr> = (0..DIGEST).map(|k| col(cur, block.output(k))).collect();

        builder.assert_bool(bit.clone());
        sigagg_prover::gadgets::merkle::place_node(builder, &live, &bit, &node, &left, &right);
        for (k, o) in out.iter().enumerate() {
            builder.assert_zero(continues.clone() * (col(next, node_at + k) - o.clone()));
        }

        read_base(builder, periodic[4].clone(), bit.clone(), &live);
        for k in 0..DIGEST {
            let sibling = right[k].clone() + bit.clone() * (left[k].clone() - right[k].clone());
            read_base(builder, periodic[5 + k].clone(), sibling, &live);
        }
        for k in 0..DIGEST {
            read_base(builder, periodic[5 + DIGEST + k].clone(), node[k].clone(), &first);
        }
        for k in 0..DIGEST {
            read_base(builder, periodic[5 + 2 * DIGEST + k].clone(), out[k].clone(), &last);
        }
    }
}

air_enum! {
    /// One table of a circuit's proof.
    #[derive(Clone, Debug)]
    pub enum CircuitAir {
        /// The wires.
        Witness(WitnessAir),
        /// The rows.
        Arith(ArithAir),
        /// The permutations.
        Perm(PermAir),
        /// The Merkle paths.
        Path(PathAir),
        /// The base-field wires.
        BaseWitness(BaseWitnessAir),
    }
}

impl CircuitAir {
    /// The largest constraint degree: 2 for the witness table (a fixed
    /// flag times a value), 3 for the arithmetic one (a flag times a
    /// product), 9 for the permutations (two full rounds per committed
    /// state).
    pub fn degree(&self) -> usize {
        match self {
            CircuitAir::Witness(_) => 2,
            CircuitAir::Arith(_) => 3,
            CircuitAir::Perm(p) => p.block.degree(),
            CircuitAir::Path(p) => p.block.degree(),
            CircuitAir::BaseWitness(_) => 2,
        }
    }
}

impl Table for CircuitAir {
    const BUS_WIDTH: usize = 1 + D;

    fn degree(&self) -> usize {
        CircuitAir::degree(self)
    }
}

/// The five traces of `circuit` with wire values `values` (the witness,
/// or a forgery in soundness tests), at `2^log_heights[i]` rows: the
/// extension witness table (ids, values, read counts), the arithmetic
/// table (the values each row reads), the permutation table, the path
/// table and the base witness table (a value outside the base field
/// enters these three as its first limb).
pub fn traces(circuit: &Circuit, values: &[Ext], log_heights: [usize; 5]) -> Vec<RowMajorMatrix<Val>> {
    let mut reads = vec![0u32; circuit.num_wires()];
    let perm_wires = circuit
        .perms()
        .iter()
        .flat_map(|p| p.inputs.iter().chain(p.outputs.iter().filter(|w| circuit.tabled_id(**w).is_some())));
    let path_wires = circuit
        .paths()
        .iter()
        .flat_map(|p| p.bits.iter().chain(p.siblings.iter().flatten()).chain(&p.leaf).chain(&p.root).copied());
    for wire in circuit.rows().iter().flat_map(|r| [r.a, r.b, r.c]).chain(perm_wires.copied()).chain(path_wires) {
        reads[wire.index()] += 1;
    }
    // The five tables are independent: filled side by side, the large
    // ones a block of rows per task.
    let witness = || {
        let width = WitnessCols::<u8>::WIDTH;
        let mut witness = RowMajorMatrix::new(vec![Val::ZERO; width << log_heights[0]], width);
        witness.values.par_chunks_mut(width).enumerate().for_each(|(r, cells)| {
            let wire = circuit.ext_wires().get(r);
            let value = wire.map_or([Val::ZERO; D], |w| limbs(&values[w.index()]));
            let mult = wire.map_or(0, |w| reads[w.index()]);
            WitnessCols { id: Val::from_usize(r), value, mult: Val::from_u32(mult) }.write_to(cells);
        });
        witness
    };
    let base_witness = || {
        let width = BaseWitnessCols::<u8>::WIDTH;
        let mut base_witness = RowMajorMatrix::new(vec![Val::ZERO; width << log_heights[4]], width);
        base_witness.values.par_chunks_mut(width).enumerate().for_each(|(r, cells)| {
            let wire = circuit.base_wires().get(r);
            let value = wire.map_or(Val::ZERO, |w| first_limb(&values[w.index()]));
            let mult = wire.map_or(0, |w| reads[w.index()]);
            let id = Val::from_usize((1 << log_heights[0]) + r);
            BaseWitnessCols { id, value, mult: Val::from_u32(mult) }.write_to(cells);
        });
        base_witness
    };
    let arith = || {
        let width = ArithCols::<u8>::WIDTH;
        let mut arith = RowMajorMatrix::new(vec![Val::ZERO; width << log_heights[1]], width);
        arith.values.par_chunks_mut(width).zip(circuit.rows().par_iter()).for_each(|(cells, row)| {
            let [a, b, c] = [row.a, row.b, row.c].map(|w| limbs(&values[w.index()]));
            ArithCols { a, b, c }.write_to(cells);
        });
        arith
    };
    let ((witness, base_witness), (arith, (perm, path))) = join(
        || join(witness, base_witness),
        || {
            join(arith, || {
                join(|| perm_trace(circuit, values, log_heights[2]), || path_trace(circuit, values, log_heights[3]))
            })
        },
    );
    vec![witness, arith, perm, path, base_witness]
}

/// The first limb of `value`: what a base-field column holds of it.
fn first_limb(value: &Ext) -> Val {
    value.as_basis_coefficients_slice()[0]
}

/// The path table: per level, the permutation of the node and sibling in
/// the bit's order, then the node (the leaf's values on a path's first
/// level, the previous level's output after) and the bit; padding rows
/// permute zeros.
fn path_trace(circuit: &Circuit, values: &[Ext], log_height: usize) -> RowMajorMatrix<Val> {
    let value = |w: &crate::Wire| first_limb(&values[w.index()]);
    let mut levels: Vec<([Val; PERM_WIDTH], [Val; DIGEST], Val)> = Vec::new();
    for path in circuit.paths() {
        let mut node: [Val; DIGEST] = path.leaf.map(|w| value(&w));
        for (bit, sibling) in path.bits.iter().zip(&path.siblings) {
            let (bit, sibling) = (value(bit), sibling.map(|w| value(&w)));
            let (left, right) = if bit == Val::ZERO { (node, sibling) } else { (sibling, node) };
            let mut input = [Val::ZERO; PERM_WIDTH];
            input[..DIGEST].copy_from_slice(&left);
            input[DIGEST..].copy_from_slice(&right);
            levels.push((input, node, bit));
            node = compress_values(&left, &right);
        }
    }
    let (block, node_at, bit_at) = path_columns();
    let width = bit_at + 1;
    let mut trace = write_permutations(&block, width, levels.iter().map(|l| l.0).collect(), log_height);
    for ((_, node, bit), row) in levels.iter().zip(trace.values.chunks_mut(width)) {
        row[node_at..bit_at].copy_from_slice(node);
        row[bit_at] = *bit;
    }
    trace
}

/// The permutation table: each row's input values (their first limbs),
/// permuted by the block's witness writer; padding rows permute zeros.
fn perm_trace(circuit: &Circuit, values: &[Ext], log_height: usize) -> RowMajorMatrix<Val> {
    let block = perm_block();
    let inputs = circuit.perms().iter().map(|perm| perm.inputs.map(|w| first_limb(&values[w.index()]))).collect();
    write_permutations(&block, BaseAir::<Val>::width(&block), inputs, log_height)
}
