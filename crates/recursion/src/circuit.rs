//! Circuits over the challenge field: wires, the rows that constrain them,
//! and the witness that runs them.
//!
//! A [`CircuitBuilder`] records two things per operation: the **row** the
//! proof will check (`a + b = c` or `a · b = c` on three wires) and the
//! **step** that computes the new wire's value. They differ on purpose:
//! `a − b` is the new wire `d` with the row `d + b = a`, `a / b` the new
//! wire `q` with the row `q · b = a`, and an equality `a = b` is a row and
//! no step. So the proof only ever checks additions and products, and the
//! witness is computed in the order the builder was called.
//!
//! Some wires are **fixed**: constants of the circuit, and inputs whose
//! values the statement gives (a verifier circuit's inputs are its child's
//! commitments, claims and challenges). Every other wire's value is free
//! until a row constrains it; the builder only makes wires that some row
//! constrains.

use std::sync::Arc;

use p3_field::{BasedVectorSpace, Field, PrimeCharacteristicRing, PrimeField32};
use p3_symmetric::Permutation;
use sigagg_koalabear::poseidon2::default16;
use sigagg_prover::config::Val;

use crate::Ext;
use crate::error::CircuitError;
use crate::merkle::climb_values;

/// `value` as a base-field element, if it is one.
pub(crate) fn base(value: &Ext) -> Option<Val> {
    let limbs: &[Val] = value.as_basis_coefficients_slice();
    limbs[1..].iter().all(|l| *l == Val::ZERO).then_some(limbs[0])
}

/// The base-field value of `wire` under `values`, or
/// [`CircuitError::NotBase`].
fn base_of(values: &[Ext], wire: Wire) -> Result<Val, CircuitError> {
    base(&values[wire.0]).ok_or(CircuitError::NotBase { wire: wire.0 })
}

/// A wire: one value of [`Ext`], numbered in order of creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Wire(pub(crate) usize);

impl Wire {
    /// The wire's number (its row in the witness table).
    pub fn index(self) -> usize {
        self.0
    }
}

/// The relation a row checks between its three wires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `a + b = c`.
    Add,
    /// `a · b = c`.
    Mul,
}

/// One row of the arithmetic table: `a ∘ b = c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    /// What the row checks.
    pub relation: Relation,
    /// The left operand.
    pub a: Wire,
    /// The right operand.
    pub b: Wire,
    /// The result.
    pub c: Wire,
}

/// Where a fixed wire's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fixed {
    /// A constant of the circuit.
    Constant(Ext),
    /// The statement's input number `i`.
    Input(usize),
}

/// How the witness computes a wire that is not fixed.
#[derive(Clone, Copy, Debug)]
enum Step {
    Add(Wire, Wire),
    Sub(Wire, Wire),
    Mul(Wire, Wire),
    Div(Wire, Wire),
    /// Lane `.1` of permutation number `.0`'s output.
    PermOut(usize, usize),
    /// Limb `.1` (the coefficient of `X^.1`) of a wire's value.
    Limb(Wire, usize),
    /// Lane `.1` of Merkle path number `.0`'s root.
    PathOut(usize, usize),
    /// Value `.1` of hint number `.0`.
    Hint(usize, usize),
}

/// A native function of earlier wires' values ([`CircuitBuilder::hint`]).
pub type HintFn = Arc<dyn Fn(&[Ext]) -> Result<Vec<Ext>, String> + Send + Sync>;

/// Values the witness computes natively from earlier wires: advice, which
/// only the rows that use it constrain.
#[derive(Clone)]
struct Hint {
    inputs: Vec<Wire>,
    outputs: usize,
    compute: HintFn,
    /// Whether its values are base-field values (witness-table wires of
    /// the base table).
    base: bool,
}

impl core::fmt::Debug for Hint {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Hint").field("inputs", &self.inputs).field("outputs", &self.outputs).finish_non_exhaustive()
    }
}

/// Elements of a Merkle digest.
pub const DIGEST: usize = 8;

/// One Merkle path of the path table: from `leaf` up along `siblings`, the
/// running node the right child where its bit is 1, to `root`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PathRow {
    /// The leaf digest's wires.
    pub leaf: [Wire; DIGEST],
    /// One direction bit per level, lowest first.
    pub bits: Vec<Wire>,
    /// One sibling digest per level.
    pub siblings: Vec<[Wire; DIGEST]>,
    /// The root's wires (new wires).
    pub root: [Wire; DIGEST],
}

/// Lanes of the permutation: Plonky3's default KoalaBear Poseidon2 of
/// width 16, the hash of the recursion setting's trees and transcript.
pub const PERM_WIDTH: usize = 16;

/// One row of the permutation table: `outputs = Poseidon2(inputs)`, every
/// wire holding a base-field value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PermRow {
    /// The input lanes' wires.
    pub inputs: [Wire; PERM_WIDTH],
    /// The output lanes' wires.
    pub outputs: [Wire; PERM_WIDTH],
}

/// Records a circuit. Every method that makes a wire also records the row
/// that constrains it.
#[derive(Clone, Debug, Default)]
pub struct CircuitBuilder {
    /// Per wire: fixed, or computed by a step.
    wires: Vec<Source>,
    rows: Vec<Row>,
    perms: Vec<PermRow>,
    paths: Vec<PathRow>,
    hints: Vec<Hint>,
    inputs: usize,
    /// The public inputs' numbers and values ([`CircuitBuilder::public`]).
    publics: Vec<(usize, Ext)>,
    /// Each constant's wire: one per value (a fast hasher: the verifier
    /// records hundreds of thousands of constants).
    constants: foldhash::HashMap<Ext, Wire>,
    /// Periodic columns longer than this are deferred ([`crate::deferred`]).
    pub(crate) defer_above: Option<usize>,
    /// The deferred claims so far.
    pub(crate) deferred: Vec<crate::deferred::Deferred>,
}

#[derive(Clone, Copy, Debug)]
enum Source {
    Fixed(Fixed),
    Step(Step),
}

impl Source {
    /// Whether the wire holds a base-field value by construction, given
    /// which earlier wires do: a base constant, a permutation's or a
    /// path's output, a limb, a base hint's value, or a sum, difference,
    /// product or quotient of two such wires.
    fn is_base(&self, hints: &[Hint], earlier: &[bool]) -> bool {
        match self {
            Source::Fixed(Fixed::Constant(c)) => base(c).is_some(),
            Source::Fixed(Fixed::Input(_)) => false,
            Source::Step(Step::PermOut(..) | Step::PathOut(..) | Step::Limb(..)) => true,
            Source::Step(Step::Hint(h, _)) => hints[*h].base,
            Source::Step(Step::Add(a, b) | Step::Sub(a, b) | Step::Mul(a, b) | Step::Div(a, b)) => {
                earlier[a.0] && earlier[b.0]
            }
        }
    }
}

/// `inputs` inputs: public input `at[k]` is `publics[k]` (`at` ascending),
/// every other one the next of `claims`, in order.
///
/// # Errors
/// Another number of public values than `at` holds, or of claims than the
/// other inputs.
pub(crate) fn interleave(
    inputs: usize,
    at: &[usize],
    publics: &[Ext],
    claims: &[Ext],
) -> Result<Vec<Ext>, CircuitError> {
    if publics.len() != at.len() {
        return Err(CircuitError::InputCount { expected: at.len(), found: publics.len() });
    }
    let expected = inputs - at.len();
    if claims.len() != expected {
        return Err(CircuitError::InputCount { expected, found: claims.len() });
    }
    let mut out = Vec::with_capacity(inputs);
    let (mut publics, mut claims) = (at.iter().zip(publics).peekable(), claims.iter());
    for i in 0..inputs {
        match publics.next_if(|(p, _)| **p == i) {
            Some((_, &value)) => out.push(value),
            None => out.push(*claims.next().expect("counted above")),
        }
    }
    Ok(out)
}

/// The id of a wire no table holds (an unread permutation output).
const UNTABLED: u32 = u32::MAX;

/// The smallest table height any table of a circuit's proof has (log2).
pub(crate) const MIN_LOG_HEIGHT: usize = 3;

/// log2 of the height of a table of `count` rows: the next power of two,
/// at least `2^MIN_LOG_HEIGHT`.
pub(crate) fn table_log(count: usize) -> usize {
    (count.next_power_of_two().trailing_zeros() as usize).max(MIN_LOG_HEIGHT)
}

impl CircuitBuilder {
    /// An empty circuit.
    pub fn new() -> Self {
        Self::default()
    }

    fn wire(&mut self, source: Source) -> Wire {
        self.wires.push(source);
        Wire(self.wires.len() - 1)
    }

    fn row(&mut self, relation: Relation, a: Wire, b: Wire, c: Wire) {
        self.rows.push(Row { relation, a, b, c });
    }

    /// The statement's next input: its value is given when the circuit is
    /// proven or verified ([`Circuit::witness`]), in order of creation.
    pub fn input(&mut self) -> Wire {
        self.inputs += 1;
        self.wire(Source::Fixed(Fixed::Input(self.inputs - 1)))
    }

    /// An input whose value the statement gives, recorded with the value
    /// the builder knows: unlike a constant, it is no part of the
    /// circuit, so circuits that differ only in such values (a child's
    /// transcript seed, which its statement's digest ends) are one circuit,
    /// verified with one key ([`crate::key::VerifyingKey`]).
    pub fn public(&mut self, value: Ext) -> Wire {
        let wire = self.input();
        self.publics.push((self.inputs - 1, value));
        wire
    }

    /// A constant: one wire per value, however often it is asked for.
    pub fn constant(&mut self, value: Ext) -> Wire {
        if let Some(&wire) = self.constants.get(&value) {
            return wire;
        }
        let wire = self.wire(Source::Fixed(Fixed::Constant(value)));
        self.constants.insert(value, wire);
        wire
    }

    /// `a + b`.
    pub fn add(&mut self, a: Wire, b: Wire) -> Wire {
        let c = self.wire(Source::Step(Step::Add(a, b)));
        self.row(Relation::Add, a, b, c);
        c
    }

    /// `a − b`: the new wire `d` and the row `d + b = a`.
    pub fn sub(&mut self, a: Wire, b: Wire) -> Wire {
        let d = self.wire(Source::Step(Step::Sub(a, b)));
        self.row(Relation::Add, d, b, a);
        d
    }

    /// `a · b`.
    pub fn mul(&mut self, a: Wire, b: Wire) -> Wire {
        let c = self.wire(Source::Step(Step::Mul(a, b)));
        self.row(Relation::Mul, a, b, c);
        c
    }

    /// `a / b`: the new wire `q` and the row `q · b = a`. The witness
    /// refuses `b = 0` ([`CircuitError::DivisionByZero`]); the row alone
    /// would then hold for any `q` when `a = 0`, and for none otherwise.
    pub fn div(&mut self, a: Wire, b: Wire) -> Wire {
        let q = self.wire(Source::Step(Step::Div(a, b)));
        self.row(Relation::Mul, q, b, a);
        q
    }

    /// The shared zero constant.
    pub fn zero(&mut self) -> Wire {
        self.constant(Ext::ZERO)
    }

    /// Constrains `a = b`: the row `a + 0 = b` on the shared zero.
    pub fn assert_eq(&mut self, a: Wire, b: Wire) {
        let zero = self.zero();
        self.row(Relation::Add, a, zero, b);
    }

    /// Constrains `bit ∈ {0, 1}`: `bit · bit = bit`.
    pub fn assert_bool(&mut self, bit: Wire) {
        self.row(Relation::Mul, bit, bit, bit);
    }

    /// `a` when `bit` is 0, `b` when it is 1: [`Self::lerp`] (`bit` must
    /// be constrained boolean, or the result blends the two).
    pub fn select(&mut self, bit: Wire, a: Wire, b: Wire) -> Wire {
        self.lerp(bit, a, b)
    }

    /// The line through `a` at 0 and `b` at 1, at `t`: `a + t · (b − a)`.
    pub fn lerp(&mut self, t: Wire, a: Wire, b: Wire) -> Wire {
        let diff = self.sub(b, a);
        let scaled = self.mul(t, diff);
        self.add(a, scaled)
    }

    /// The Poseidon2 permutation of 16 wires (each must hold a base-field
    /// value: [`CircuitError::NotBase`] otherwise): one row of the
    /// permutation table, 16 new wires.
    pub fn poseidon2(&mut self, inputs: [Wire; PERM_WIDTH]) -> [Wire; PERM_WIDTH] {
        let perm = self.perms.len();
        let outputs = core::array::from_fn(|lane| self.wire(Source::Step(Step::PermOut(perm, lane))));
        self.perms.push(PermRow { inputs, outputs });
        outputs
    }

    /// The root of a Merkle path of the recursion setting's trees, as rows
    /// of the path table (one per level: the node placed by its bit, the
    /// sibling read from its wires, one permutation): from `leaf` along
    /// `siblings`, the running node the right child where its bit (lowest
    /// level first; each must be 0 or 1, [`CircuitError::NotBit`]) is 1.
    /// Every wire must hold a base-field value. A path of no level is its
    /// leaf.
    ///
    /// # Panics
    /// If `bits` and `siblings` differ in length.
    pub fn merkle_path(&mut self, leaf: [Wire; DIGEST], bits: &[Wire], siblings: &[[Wire; DIGEST]]) -> [Wire; DIGEST] {
        assert_eq!(bits.len(), siblings.len(), "one direction bit per level");
        if bits.is_empty() {
            return leaf;
        }
        let path = self.paths.len();
        let root = core::array::from_fn(|lane| self.wire(Source::Step(Step::PathOut(path, lane))));
        self.paths.push(PathRow { leaf, bits: bits.to_vec(), siblings: siblings.to_vec(), root });
        root
    }

    /// `outputs` new wires whose values the witness computes by `compute`
    /// from `inputs`' values: advice, constrained only by the rows that
    /// use it (a hint that fails, or gives another number of values, is
    /// [`CircuitError::Hint`] at witness time). A verifier never runs
    /// hints: a circuit built for verification may carry functions that
    /// fail.
    pub fn hint(&mut self, inputs: &[Wire], outputs: usize, compute: HintFn) -> Vec<Wire> {
        self.push_hint(inputs, outputs, compute, false)
    }

    /// [`Self::hint`] whose values are base-field values: its wires live
    /// in the base wires' table, which holds one limb per wire (a value
    /// outside the base field is [`CircuitError::NotBase`] at witness
    /// time, and cannot be committed).
    pub fn hint_base(&mut self, inputs: &[Wire], outputs: usize, compute: HintFn) -> Vec<Wire> {
        self.push_hint(inputs, outputs, compute, true)
    }

    fn push_hint(&mut self, inputs: &[Wire], outputs: usize, compute: HintFn, base: bool) -> Vec<Wire> {
        let hint = self.hints.len();
        self.hints.push(Hint { inputs: inputs.to_vec(), outputs, compute, base });
        (0..outputs).map(|k| self.wire(Source::Step(Step::Hint(hint, k)))).collect()
    }

    /// The low `n` bits of `value`'s base-field value (canonical, lowest
    /// first), each constrained to be a bit, their sum `Σ 2^i·bit_i`
    /// constrained to be `value`. For `n ≤ 30` the sum is below `p`, so
    /// the bits are `value`'s; with `n = 31` a value below `2^31 − p` has
    /// two decompositions, which the caller must tell apart.
    ///
    /// # Panics
    /// If `n` is 0 or above 31.
    pub fn bits(&mut self, value: Wire, n: usize) -> Vec<Wire> {
        assert!((1..=31).contains(&n), "1 to 31 bits");
        let compute: HintFn = Arc::new(move |v: &[Ext]| {
            let x = base(&v[0]).ok_or("not a base-field value")?.as_canonical_u32();
            Ok((0..n).map(|i| Ext::from_bool((x >> i) & 1 == 1)).collect())
        });
        let bits = self.hint_base(&[value], n, compute);
        bits.iter().for_each(|&bit| self.assert_bool(bit));
        let two = self.constant(Ext::TWO);
        let sum = self.horner(&bits, two).expect("at least one bit");
        self.assert_eq(sum, value);
        bits
    }

    /// The five limbs of `value` (its coefficients of `1, X, …, X^4`),
    /// constrained to recompose it: `value = Σ limb_k · X^k`. The limbs
    /// are not constrained to the base field here: a permutation that
    /// reads them does that (as the transcript's absorption does).
    pub fn limbs(&mut self, value: Wire) -> [Wire; 5] {
        let limbs: [Wire; 5] = core::array::from_fn(|k| self.wire(Source::Step(Step::Limb(value, k))));
        let recomposed = self.from_limbs(limbs);
        self.assert_eq(recomposed, value);
        limbs
    }

    /// `Σ limbs[k] · X^k`: the extension element of five base-field wires.
    pub fn from_limbs(&mut self, limbs: [Wire; 5]) -> Wire {
        let x = self.constant(Ext::from_basis_coefficients_fn(|k| if k == 1 { Val::ONE } else { Val::ZERO }));
        self.horner(&limbs, x).expect("five limbs")
    }

    /// `Σ coefficients[i] · x^i` by Horner's rule: one product and one sum
    /// per coefficient after the leading one.
    pub fn horner(&mut self, coefficients: &[Wire], x: Wire) -> Option<Wire> {
        let (&lead, rest) = coefficients.split_last()?;
        Some(rest.iter().rev().fold(lead, |acc, &c| {
            let scaled = self.mul(acc, x);
            self.add(scaled, c)
        }))
    }

    /// What is recorded so far: wires, arithmetic rows, permutations,
    /// Merkle path levels (for sizing a circuit part by part).
    pub fn counts(&self) -> [usize; 4] {
        [self.wires.len(), self.rows.len(), self.perms.len(), self.paths.iter().map(|p| p.bits.len()).sum()]
    }

    /// The circuit as recorded, each wire given its place in the witness
    /// tables ([`Circuit::id`]).
    pub fn build(self) -> Circuit {
        let mut is_base: Vec<bool> = Vec::with_capacity(self.wires.len());
        for source in &self.wires {
            let base = source.is_base(&self.hints, &is_base);
            is_base.push(base);
        }
        // A permutation output no row, permutation or path reads has no
        // row: the permutation table does not read it (a hint may still
        // use its value, which no table then needs).
        let mut read = vec![false; self.wires.len()];
        let perm_inputs = self.perms.iter().flat_map(|p| p.inputs.iter());
        let path_wires =
            self.paths.iter().flat_map(|p| p.leaf.iter().chain(&p.bits).chain(p.siblings.iter().flatten()));
        for w in self.rows.iter().flat_map(|r| [&r.a, &r.b, &r.c]).chain(perm_inputs).chain(path_wires) {
            read[w.0] = true;
        }
        let tabled = |w: usize| read[w] || !matches!(self.wires[w], Source::Step(Step::PermOut(..)));
        let ext_wires: Vec<Wire> = (0..self.wires.len()).filter(|&w| tabled(w) && !is_base[w]).map(Wire).collect();
        let base_wires: Vec<Wire> = (0..self.wires.len()).filter(|&w| tabled(w) && is_base[w]).map(Wire).collect();
        let base_start = 1 << table_log(ext_wires.len());
        let mut ids = vec![UNTABLED; self.wires.len()];
        for (r, w) in ext_wires.iter().enumerate() {
            ids[w.0] = r as u32;
        }
        for (r, w) in base_wires.iter().enumerate() {
            ids[w.0] = (base_start + r) as u32;
        }
        Circuit {
            wires: self.wires,
            rows: self.rows,
            perms: self.perms,
            paths: self.paths,
            hints: self.hints,
            inputs: self.inputs,
            publics: self.publics,
            ids,
            ext_wires,
            base_wires,
            deferred: self.deferred,
        }
    }
}

/// A recorded circuit: its wires, rows and number of inputs.
///
/// **Two witness tables.** Wires whose values are base-field values by
/// construction (base constants, permutation and path outputs, limbs,
/// base hints: bits, Merkle siblings, and arithmetic on such wires alone)
/// live in a table of one limb per wire, the others in a table of five; each wire's bus id ([`Circuit::id`]) is its row in its
/// table, the base table's rows numbered on from the extension table's
/// height so that no two rows share an id.
#[derive(Clone, Debug)]
pub struct Circuit {
    wires: Vec<Source>,
    /// Each wire's bus id.
    ids: Vec<u32>,
    /// The extension table's wires, by row.
    ext_wires: Vec<Wire>,
    /// The base table's wires, by row.
    base_wires: Vec<Wire>,
    /// Claims left to the verifier.
    deferred: Vec<crate::deferred::Deferred>,
    rows: Vec<Row>,
    perms: Vec<PermRow>,
    paths: Vec<PathRow>,
    hints: Vec<Hint>,
    inputs: usize,
    publics: Vec<(usize, Ext)>,
}

/// How many wires of each origin a circuit has, and how many of its rows
/// check each relation: where a circuit's size comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Constants and inputs.
    pub fixed: usize,
    /// Results of sums, differences, products and quotients.
    pub arithmetic: usize,
    /// Permutation outputs.
    pub permutation_outputs: usize,
    /// Limbs of extension values.
    pub limbs: usize,
    /// Merkle path roots.
    pub path_roots: usize,
    /// Advice (hints: bits, siblings, a proof's values).
    pub hints: usize,
    /// Rows checking `a + b = c` (sums, differences, equalities).
    pub add_rows: usize,
    /// Rows checking `a · b = c` (products, quotients, bit checks).
    pub mul_rows: usize,
}

impl Circuit {
    /// The wires by origin and the rows by relation.
    pub fn census(&self) -> Census {
        let mut c = Census::default();
        for source in &self.wires {
            let count = match source {
                Source::Fixed(_) => &mut c.fixed,
                Source::Step(Step::Add(..) | Step::Sub(..) | Step::Mul(..) | Step::Div(..)) => &mut c.arithmetic,
                Source::Step(Step::PermOut(..)) => &mut c.permutation_outputs,
                Source::Step(Step::Limb(..)) => &mut c.limbs,
                Source::Step(Step::PathOut(..)) => &mut c.path_roots,
                Source::Step(Step::Hint(..)) => &mut c.hints,
            };
            *count += 1;
        }
        for row in &self.rows {
            match row.relation {
                Relation::Add => c.add_rows += 1,
                Relation::Mul => c.mul_rows += 1,
            }
        }
        c
    }

    /// Number of wires.
    pub fn num_wires(&self) -> usize {
        self.wires.len()
    }

    /// The bus id of `wire`: its row in its witness table, the base
    /// table's rows numbered from the extension table's height on; `None`
    /// for a permutation output nothing reads, which has no row.
    pub fn tabled_id(&self, wire: Wire) -> Option<usize> {
        let id = self.ids[wire.0];
        (id != UNTABLED).then_some(id as usize)
    }

    /// [`Self::tabled_id`] of a wire that has a row.
    ///
    /// # Panics
    /// For an unread permutation output.
    pub fn id(&self, wire: Wire) -> usize {
        self.tabled_id(wire).expect("a wire with a row in a witness table")
    }

    /// The extension witness table's wires, by row.
    pub fn ext_wires(&self) -> &[Wire] {
        &self.ext_wires
    }

    /// The base witness table's wires, by row.
    pub fn base_wires(&self) -> &[Wire] {
        &self.base_wires
    }

    /// The rows, in order.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The permutation rows, in order.
    pub fn perms(&self) -> &[PermRow] {
        &self.perms
    }

    /// The Merkle paths, in order.
    pub fn paths(&self) -> &[PathRow] {
        &self.paths
    }

    /// Number of inputs.
    pub fn num_inputs(&self) -> usize {
        self.inputs
    }

    /// The public inputs ([`CircuitBuilder::public`]): their numbers and
    /// the values they were built with, in order.
    pub fn publics(&self) -> &[(usize, Ext)] {
        &self.publics
    }

    /// The circuit's inputs from its deferred claims' values, `claims`
    /// (every input that is not public, in order), and its public inputs'
    /// values as built.
    ///
    /// # Errors
    /// Another number of claims than the circuit has.
    pub fn inputs_with(&self, claims: &[Ext]) -> Result<Vec<Ext>, CircuitError> {
        let (at, values): (Vec<usize>, Vec<Ext>) = self.publics.iter().copied().unzip();
        interleave(self.inputs, &at, &values, claims)
    }

    /// The deferred claims' values of `inputs`: every input that is not
    /// public, in order ([`Circuit::inputs_with`]'s inverse).
    pub fn claims_of(&self, inputs: &[Ext]) -> Vec<Ext> {
        let mut publics = self.publics.iter().map(|(i, _)| *i).peekable();
        let mut claims = Vec::with_capacity(inputs.len().saturating_sub(self.publics.len()));
        for (i, &value) in inputs.iter().enumerate() {
            if publics.next_if_eq(&i).is_none() {
                claims.push(value);
            }
        }
        claims
    }

    /// The position among the deferred claims' values
    /// ([`Circuit::claims_of`]) of the input `wire` holds, if it is an
    /// input and not public.
    pub fn claim_index(&self, wire: Wire) -> Option<usize> {
        let input = self.input_index(wire)?;
        match self.publics.binary_search_by_key(&input, |(i, _)| *i) {
            Ok(_) => None,
            Err(before) => Some(input - before),
        }
    }

    /// The input number `wire` holds, if it is an input.
    pub fn input_index(&self, wire: Wire) -> Option<usize> {
        match self.wires.get(wire.0)? {
            Source::Fixed(Fixed::Input(i)) => Some(*i),
            _ => None,
        }
    }

    /// The claims the circuit leaves to its verifier
    /// ([`crate::deferred::check`]).
    pub fn deferred(&self) -> &[crate::deferred::Deferred] {
        &self.deferred
    }

    /// Per row of the extension witness table, its wire's source if it
    /// is fixed: a constant or an input.
    pub fn fixed(&self) -> impl Iterator<Item = Option<Fixed>> + '_ {
        self.ext_wires.iter().map(|w| self.fixed_source(*w))
    }

    /// Per row of the base witness table, its wire's constant if it is
    /// one (no input is a base wire).
    pub fn base_fixed(&self) -> impl Iterator<Item = Option<Fixed>> + '_ {
        self.base_wires.iter().map(|w| self.fixed_source(*w))
    }

    fn fixed_source(&self, wire: Wire) -> Option<Fixed> {
        match self.wires[wire.0] {
            Source::Fixed(f) => Some(f),
            Source::Step(_) => None,
        }
    }

    /// The value of a fixed wire under `inputs` (which must be as many as
    /// the circuit's).
    pub(crate) fn fixed_value(fixed: Fixed, inputs: &[Ext]) -> Ext {
        match fixed {
            Fixed::Constant(c) => c,
            Fixed::Input(i) => inputs[i],
        }
    }

    /// The permutation of `row`'s input values, each in the base field.
    fn permute(row: &PermRow, values: &[Ext]) -> Result<[Val; PERM_WIDTH], CircuitError> {
        let mut state = [Val::ZERO; PERM_WIDTH];
        for (lane, &wire) in state.iter_mut().zip(&row.inputs) {
            *lane = base_of(values, wire)?;
        }
        Ok(default16().permute(state))
    }

    /// The root `path` reaches on the wire values `values`.
    fn climb(path: &PathRow, values: &[Ext]) -> Result<[Val; DIGEST], CircuitError> {
        let digest = |ws: &[Wire; DIGEST]| -> Result<[Val; DIGEST], CircuitError> {
            let mut out = [Val::ZERO; DIGEST];
            for (o, &w) in out.iter_mut().zip(ws) {
                *o = base_of(values, w)?;
            }
            Ok(out)
        };
        let bits = path
            .bits
            .iter()
            .map(|&bit| match base_of(values, bit)? {
                b if b == Val::ZERO => Ok(false),
                b if b == Val::ONE => Ok(true),
                _ => Err(CircuitError::NotBit { wire: bit.0 }),
            })
            .collect::<Result<Vec<bool>, _>>()?;
        let siblings = path.siblings.iter().map(digest).collect::<Result<Vec<_>, _>>()?;
        Ok(climb_values(digest(&path.leaf)?, &bits, &siblings))
    }

    /// Hint number `hint`'s values on `values`.
    fn run_hint(&self, hint: usize, values: &[Ext]) -> Result<Vec<Ext>, CircuitError> {
        let h = &self.hints[hint];
        let inputs: Vec<Ext> = h.inputs.iter().map(|w| values[w.0]).collect();
        let out = (h.compute)(&inputs).map_err(|reason| CircuitError::Hint { hint, reason })?;
        if out.len() != h.outputs {
            return Err(CircuitError::Hint { hint, reason: format!("{} values, not {}", out.len(), h.outputs) });
        }
        if h.base && out.iter().any(|v| base(v).is_none()) {
            return Err(CircuitError::Hint { hint, reason: "a value outside the base field".into() });
        }
        Ok(out)
    }

    /// Every wire's value under `inputs`, checked against every row: the
    /// witness of an honest proof. A row that does not hold (an equality
    /// the inputs break) is [`CircuitError::Unsatisfied`].
    pub fn witness(&self, inputs: &[Ext]) -> Result<Vec<Ext>, CircuitError> {
        self.checked(self.witness_unchecked(inputs)?)
    }

    /// `values` if every row holds on them, else the first that does not
    /// ([`CircuitError::Unsatisfied`]).
    pub(crate) fn checked(&self, values: Vec<Ext>) -> Result<Vec<Ext>, CircuitError> {
        match self.rows.iter().position(|row| !row.holds(&values)) {
            Some(row) => Err(CircuitError::Unsatisfied { row }),
            None => Ok(values),
        }
    }

    /// Every wire's value under `inputs`, the rows not checked: what a
    /// cheating prover would commit to when a hint lies (for soundness
    /// tests, whose forged witnesses the verifier must refuse).
    pub fn witness_unchecked(&self, inputs: &[Ext]) -> Result<Vec<Ext>, CircuitError> {
        if inputs.len() != self.inputs {
            return Err(CircuitError::InputCount { expected: self.inputs, found: inputs.len() });
        }
        self.witness_with(|i, _| Ok(inputs[i]))
    }

    /// Every wire's value, in order, input `i` taking `input(i, values so
    /// far)`: an input may be computed from the wires recorded before it
    /// (a deferred claim's, [`crate::deferred::witness`]).
    pub(crate) fn witness_with(
        &self,
        mut input: impl FnMut(usize, &[Ext]) -> Result<Ext, CircuitError>,
    ) -> Result<Vec<Ext>, CircuitError> {
        let mut values: Vec<Ext> = Vec::with_capacity(self.wires.len());
        let mut permuted: Vec<[Val; PERM_WIDTH]> = Vec::with_capacity(self.perms.len());
        let mut roots: Vec<[Val; DIGEST]> = Vec::with_capacity(self.paths.len());
        let mut hinted: Vec<Vec<Ext>> = vec![Vec::new(); self.hints.len()];
        for (index, source) in self.wires.iter().enumerate() {
            let value = match *source {
                Source::Step(Step::PermOut(perm, 0)) => {
                    permuted.push(Self::permute(&self.perms[perm], &values)?);
                    Ext::from(permuted[perm][0])
                }
                Source::Step(Step::PermOut(perm, lane)) => Ext::from(permuted[perm][lane]),
                Source::Step(Step::PathOut(path, 0)) => {
                    roots.push(Self::climb(&self.paths[path], &values)?);
                    Ext::from(roots[path][0])
                }
                Source::Step(Step::PathOut(path, lane)) => Ext::from(roots[path][lane]),
                Source::Step(Step::Hint(hint, 0)) => {
                    hinted[hint] = self.run_hint(hint, &values)?;
                    hinted[hint][0]
                }
                Source::Step(Step::Hint(hint, k)) => hinted[hint][k],
                Source::Step(Step::Limb(w, k)) => {
                    let limbs: &[Val] = values[w.0].as_basis_coefficients_slice();
                    Ext::from(limbs[k])
                }
                Source::Fixed(Fixed::Constant(c)) => c,
                Source::Fixed(Fixed::Input(i)) => input(i, &values)?,
                Source::Step(Step::Add(a, b)) => values[a.0] + values[b.0],
                Source::Step(Step::Sub(a, b)) => values[a.0] - values[b.0],
                Source::Step(Step::Mul(a, b)) => values[a.0] * values[b.0],
                Source::Step(Step::Div(a, b)) => {
                    let inverse = values[b.0].try_inverse().ok_or(CircuitError::DivisionByZero { wire: index })?;
                    values[a.0] * inverse
                }
            };
            values.push(value);
        }
        Ok(values)
    }
}

impl Row {
    /// Whether the row holds for the wire values `values`.
    pub fn holds(&self, values: &[Ext]) -> bool {
        let (a, b, c) = (values[self.a.0], values[self.b.0], values[self.c.0]);
        match self.relation {
            Relation::Add => a + b == c,
            Relation::Mul => a * b == c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(limbs: [u32; 5]) -> Ext {
        Ext::from_basis_coefficients_fn(|i| Val::from_u32(limbs[i]))
    }

    /// Each operation computes what it says and records the row that
    /// checks it; an equality the inputs break is refused by row.
    #[test]
    fn operations_and_their_rows() {
        let mut b = CircuitBuilder::new();
        let (x, y) = (b.input(), b.input());
        let two = b.constant(Ext::TWO);
        let (sum, diff, prod, quot) = (b.add(x, y), b.sub(x, y), b.mul(x, y), b.div(x, y));
        let doubled = b.mul(x, two);
        let x_plus_x = b.add(x, x);
        b.assert_eq(doubled, x_plus_x);
        let circuit = b.build();
        assert_eq!(circuit.rows().len(), 7);
        let (vx, vy) = (ext([3, 1, 4, 1, 5]), ext([9, 2, 6, 5, 3]));
        let w = circuit.witness(&[vx, vy]).unwrap();
        assert_eq!([w[sum.0], w[diff.0], w[prod.0], w[quot.0]], [vx + vy, vx - vy, vx * vy, vx / vy]);
        assert_eq!(circuit.rows()[1], Row { relation: Relation::Add, a: diff, b: y, c: x });
        assert_eq!(circuit.rows()[3], Row { relation: Relation::Mul, a: quot, b: y, c: x });

        let mut b = CircuitBuilder::new();
        let (x, y) = (b.input(), b.input());
        b.assert_eq(x, y);
        let circuit = b.build();
        assert!(circuit.witness(&[vx, vx]).is_ok());
        assert_eq!(circuit.witness(&[vx, vy]), Err(CircuitError::Unsatisfied { row: 0 }));
        assert_eq!(circuit.witness(&[vx]), Err(CircuitError::InputCount { expected: 2, found: 1 }));
    }

    /// A permutation's outputs are Poseidon2's; a value outside the base
    /// field cannot enter it.
    #[test]
    fn permutation_wires() {
        let mut b = CircuitBuilder::new();
        let inputs: [Wire; PERM_WIDTH] = core::array::from_fn(|_| b.input());
        let outputs = b.poseidon2(inputs);
        let circuit = b.build();
        assert_eq!(circuit.perms(), &[PermRow { inputs, outputs }]);
        let state: [Val; PERM_WIDTH] = core::array::from_fn(|i| Val::from_u32(7 * i as u32 + 1));
        let w = circuit.witness(&state.map(Ext::from)).unwrap();
        let expected = default16().permute(state);
        assert_eq!(outputs.map(|o| w[o.0]), expected.map(Ext::from));
        let mut wide = state.map(Ext::from);
        wide[3] = ext([1, 0, 0, 0, 2]);
        assert_eq!(circuit.witness(&wide), Err(CircuitError::NotBase { wire: 3 }));
    }

    /// Division by zero is refused by wire; Horner's rule evaluates the
    /// polynomial.
    #[test]
    fn division_by_zero_and_horner() {
        let mut b = CircuitBuilder::new();
        let (x, y) = (b.input(), b.input());
        let q = b.div(x, y);
        let circuit = b.build();
        assert_eq!(circuit.witness(&[Ext::ONE, Ext::ZERO]), Err(CircuitError::DivisionByZero { wire: q.0 }));

        let mut b = CircuitBuilder::new();
        let coefficients: Vec<Wire> = (0..4).map(|_| b.input()).collect();
        let x = b.input();
        let y = b.horner(&coefficients, x).unwrap();
        assert!(b.horner(&[], x).is_none());
        let cs = [ext([1, 0, 0, 0, 0]), ext([2, 7, 0, 0, 1]), ext([0, 3, 0, 0, 0]), ext([5, 5, 5, 5, 5])];
        let vx = ext([11, 0, 2, 0, 0]);
        let w = b.build().witness(&[cs[0], cs[1], cs[2], cs[3], vx]).unwrap();
        let expected = cs[0] + cs[1] * vx + cs[2] * vx * vx + cs[3] * vx * vx * vx;
        assert_eq!(w[y.0], expected);
    }
}
