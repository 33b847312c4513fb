//! Claims a circuit leaves to its verifier: a child table's periodic
//! column (its keys, messages, any public column as long as the
//! statement) evaluated at the zerocheck's point.
//!
//! Evaluating a periodic column of `L` rows in the circuit costs about
//! `2·L` rows: for a child of 775 signatures that is most of its
//! verification. A circuit built with [`CircuitBuilder::defer_periodic_above`]
//! takes such a column's value at the point as an **input** instead,
//! together with the point (its skip challenge and ordinary challenges,
//! each asserted equal to the wire the transcript gave): the circuit
//! proves "the child verifies if the column's value at this point is
//! `v`", and whoever verifies the circuit's proof checks `v` natively
//! ([`check`], linear in the column), as the issue allows for work linear
//! in a child's statement. The prover computes each input from the wires
//! recorded before it, in the witness's one pass ([`witness`]; [`inputs`]
//! runs the witness with placeholders): the point comes from the
//! transcript, which no deferred value feeds.
//!
//! Such claims are carried up through further levels of recursion by
//! `sigagg-merge`: a circuit that verifies a merged proof takes that
//! proof's claims as its inputs (constants of the parent circuit), and the
//! verifier at the top checks every level's claims with [`check`].

use std::ops::Range;
use std::sync::Arc;

use p3_field::PrimeCharacteristicRing;
use sigagg_prover::config::Val;

use crate::Ext;
use crate::circuit::{Circuit, CircuitBuilder, Wire};
use crate::error::CircuitError;

/// One deferred evaluation: `column` (one period of a periodic column of a
/// table proven with `skip` skipped variables) at the point whose skip
/// challenge is input `r0` and ordinary challenges inputs `rest`, equal to
/// input `value`.
#[derive(Clone, Debug)]
pub struct Deferred {
    /// One period of the column.
    pub column: Arc<Vec<Val>>,
    /// The zerocheck's skipped variables.
    pub skip: usize,
    /// The input holding the skip challenge.
    pub r0: Wire,
    /// The inputs holding the ordinary challenges.
    pub rest: Vec<Wire>,
    /// The input holding the column's value there.
    pub value: Wire,
    /// The wires the transcript gave the point in (the prover reads them).
    pub(crate) computed: (Wire, Vec<Wire>),
}

impl CircuitBuilder {
    /// Defers every periodic column longer than `rows` that a zerocheck
    /// verifier evaluates from now on ([`crate::deferred`]).
    pub fn defer_periodic_above(&mut self, rows: usize) {
        self.defer_above = Some(rows);
    }

    /// The number of deferred claims recorded so far: the claims of what
    /// is built next are numbered from it ([`check_except`]).
    pub fn num_deferred(&self) -> usize {
        self.deferred.len()
    }

    /// Whether a periodic column of `period` rows is deferred.
    pub(crate) fn defers(&self, period: usize) -> bool {
        self.defer_above.is_some_and(|rows| period > rows)
    }

    /// The point `(r0, rest)` as inputs, each asserted equal to its wire.
    pub(crate) fn point_inputs(&mut self, r0: Wire, rest: &[Wire]) -> (Wire, Vec<Wire>) {
        let r0_in = self.input();
        self.assert_eq(r0_in, r0);
        let rest_in = rest
            .iter()
            .map(|&r| {
                let input = self.input();
                self.assert_eq(input, r);
                input
            })
            .collect();
        (r0_in, rest_in)
    }

    /// Records a deferred column: its value is a new input.
    pub(crate) fn defer(
        &mut self,
        column: &[Val],
        skip: usize,
        point: &(Wire, Vec<Wire>),
        computed: (Wire, Vec<Wire>),
    ) -> Wire {
        let value = self.input();
        self.deferred.push(Deferred {
            column: Arc::new(column.to_vec()),
            skip,
            r0: point.0,
            rest: point.1.clone(),
            value,
            computed,
        });
        value
    }
}

/// A periodic column of a table proven with `skip` skipped variables, at
/// the zerocheck's point `(r0, rest)`: the native verifier's own
/// evaluation (`sigagg_prover::zerocheck::periodic_at`), which the circuit
/// replays when it does not defer the column.
pub use sigagg_prover::zerocheck::periodic_at;

/// How a deferred claim's input is computed from the wires recorded
/// before it.
#[derive(Clone, Copy)]
enum Source {
    /// The value of this wire (a coordinate of the point, the transcript's).
    Wire(Wire),
    /// The deferred column of this claim at its point.
    Claim(usize),
    /// A public input's value, as the circuit was built with it.
    Public(Ext),
}

/// Each input's [`Source`], for a circuit whose every input is public or a
/// deferred claim's.
fn sources(circuit: &Circuit) -> Result<Vec<Source>, CircuitError> {
    let mut sources: Vec<Option<Source>> = vec![None; circuit.num_inputs()];
    let mut set = |wire: Wire, source: Source| -> Result<(), CircuitError> {
        let i = circuit
            .input_index(wire)
            .ok_or(CircuitError::Unsupported("a deferred claim on a wire that is no input"))?;
        sources[i] = Some(source);
        Ok(())
    };
    for (k, d) in circuit.deferred().iter().enumerate() {
        set(d.r0, Source::Wire(d.computed.0))?;
        for (&input, &computed) in d.rest.iter().zip(&d.computed.1) {
            set(input, Source::Wire(computed))?;
        }
        set(d.value, Source::Claim(k))?;
    }
    for &(i, value) in circuit.publics() {
        sources[i] = Some(Source::Public(value));
    }
    sources
        .into_iter()
        .collect::<Option<_>>()
        .ok_or(CircuitError::Unsupported("an input neither public nor given by a deferred claim"))
}

/// The input `source` computes from `values`, the wires recorded so far.
fn resolve(circuit: &Circuit, source: Source, values: &[Ext]) -> Result<Ext, CircuitError> {
    let earlier =
        |w: Wire| values.get(w.index()).copied().ok_or(CircuitError::Unsupported("an input before its source"));
    match source {
        Source::Wire(w) => earlier(w),
        Source::Public(value) => Ok(value),
        Source::Claim(k) => {
            let d = &circuit.deferred()[k];
            let rest = d.computed.1.iter().map(|&w| earlier(w)).collect::<Result<Vec<_>, _>>()?;
            Ok(periodic_at(&d.column, d.skip, earlier(d.computed.0)?, &rest))
        }
    }
}

/// The inputs of a circuit whose every input is public or a deferred
/// claim's: the witness run once with the public values and zeros gives
/// the transcript's point, at which each column is evaluated natively.
///
/// # Errors
/// A circuit with inputs that are neither public nor deferred claims',
/// or what the witness refuses.
pub fn inputs(circuit: &Circuit) -> Result<Vec<Ext>, CircuitError> {
    let zeros = vec![Ext::ZERO; circuit.num_inputs() - circuit.publics().len()];
    let values = circuit.witness_unchecked(&circuit.inputs_with(&zeros)?)?;
    sources(circuit)?.into_iter().map(|source| resolve(circuit, source, &values)).collect()
}

/// The inputs of a circuit whose every input is public or a deferred
/// claim's, and the wire values on them, in one pass over the wires
/// ([`inputs`] and then [`Circuit::witness`] make two): each input is recorded after the
/// wires it is computed from, the point's coordinate after the
/// transcript's wire, the value after its point. Every row checked.
///
/// # Errors
/// As [`inputs`]; a row that does not hold ([`CircuitError::Unsatisfied`]).
pub fn witness(circuit: &Circuit) -> Result<(Vec<Ext>, Vec<Ext>), CircuitError> {
    let sources = sources(circuit)?;
    let mut inputs = vec![Ext::ZERO; sources.len()];
    let values = circuit.witness_with(|i, values| {
        inputs[i] = resolve(circuit, sources[i], values)?;
        Ok(inputs[i])
    })?;
    Ok((inputs, circuit.checked(values)?))
}

/// Checks every deferred claim of `circuit` on `inputs`: each column's
/// value at the inputs' point is the input's value
/// ([`CircuitError::Deferred`] names the first that is not).
///
/// # Errors
/// Another number of inputs, or a false claim.
pub fn check(circuit: &Circuit, inputs: &[Ext]) -> Result<(), CircuitError> {
    check_except(circuit, inputs, &[])
}

/// [`check`], but for the claims numbered in `unchecked`: those of the
/// parts of a circuit whose statement its verifier does not know (a
/// withheld child's, built on placeholder columns): the circuit then
/// proves nothing about them, and nothing else depends on them.
///
/// # Errors
/// As [`check`].
pub fn check_except(circuit: &Circuit, inputs: &[Ext], unchecked: &[Range<usize>]) -> Result<(), CircuitError> {
    if inputs.len() != circuit.num_inputs() {
        return Err(CircuitError::InputCount { expected: circuit.num_inputs(), found: inputs.len() });
    }
    let at = |w: Wire| {
        circuit
            .input_index(w)
            .map(|i| inputs[i])
            .ok_or(CircuitError::Unsupported("a deferred claim on a wire that is no input"))
    };
    for (claim, d) in circuit.deferred().iter().enumerate() {
        if unchecked.iter().any(|r| r.contains(&claim)) {
            continue;
        }
        let rest = d.rest.iter().map(|&w| at(w)).collect::<Result<Vec<_>, _>>()?;
        if periodic_at(&d.column, d.skip, at(d.r0)?, &rest) != at(d.value)? {
            return Err(CircuitError::Deferred { claim });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use p3_field::PrimeCharacteristicRing;

    use super::*;

    /// The one-pass witness gives the inputs [`inputs`] gives and the wire
    /// values [`Circuit::witness`] gives on them; a claim's value used
    /// downstream is computed before its use; an input that no claim
    /// gives is refused.
    #[test]
    fn one_pass_agrees_with_two() {
        let mut b = CircuitBuilder::new();
        let x = b.constant(Ext::from(Val::from_u32(3)));
        let y = b.constant(Ext::from(Val::from_u32(5)));
        let (r0, r1) = (b.mul(x, y), b.add(x, y));
        let point = b.point_inputs(r0, &[r1]);
        let column: Vec<Val> = (0..8u32).map(|i| Val::from_u32(i * i + 1)).collect();
        let value = b.defer(&column, 2, &point, (r0, vec![r1]));
        let used = b.mul(value, x);
        let circuit = b.build();

        let (one_pass, values) = witness(&circuit).unwrap();
        assert_eq!(one_pass, inputs(&circuit).unwrap());
        assert_eq!(values, circuit.witness(&one_pass).unwrap());
        check(&circuit, &one_pass).unwrap();
        let expected = periodic_at(&column, 2, Ext::from(Val::from_u32(15)), &[Ext::from(Val::from_u32(8))]);
        assert_eq!(values[used.index()], expected * Ext::from(Val::from_u32(3)));

        let mut b = CircuitBuilder::new();
        let free = b.input();
        b.mul(free, free);
        assert!(matches!(witness(&b.build()), Err(CircuitError::Unsupported(_))));
    }
}
