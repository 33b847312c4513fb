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
//! in a child's statement. The prover learns the inputs by running the
//! witness once with placeholders ([`inputs`]): the point comes from the
//! transcript, which no deferred value feeds.
//!
//! Such claims are carried up through further levels of recursion by
//! `sigagg-merge`: a circuit that verifies a merged proof takes that
//! proof's claims as its inputs (constants of the parent circuit), and the
//! verifier at the top checks every level's claims with [`check`].

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

/// The inputs of a circuit whose every input is a deferred claim's: the
/// witness run once with zeros gives the transcript's point, at which each
/// column is evaluated natively.
///
/// # Errors
/// A circuit with inputs that are not deferred claims', or what the
/// witness refuses.
pub fn inputs(circuit: &Circuit) -> Result<Vec<Ext>, CircuitError> {
    let values = circuit.witness_unchecked(&vec![Ext::ZERO; circuit.num_inputs()])?;
    let mut inputs: Vec<Option<Ext>> = vec![None; circuit.num_inputs()];
    for d in circuit.deferred() {
        let (r0, rest): (Ext, Vec<Ext>) =
            (values[d.computed.0.index()], d.computed.1.iter().map(|w| values[w.index()]).collect());
        let value = periodic_at(&d.column, d.skip, r0, &rest);
        for (wire, v) in [(d.r0, r0), (d.value, value)].into_iter().chain(d.rest.iter().copied().zip(rest)) {
            inputs[circuit
                .input_index(wire)
                .ok_or(CircuitError::Unsupported("a deferred claim on a wire that is no input"))?] = Some(v);
        }
    }
    inputs
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .ok_or(CircuitError::Unsupported("an input that no deferred claim gives"))
}

/// Checks every deferred claim of `circuit` on `inputs`: each column's
/// value at the inputs' point is the input's value
/// ([`CircuitError::Deferred`] names the first that is not).
///
/// # Errors
/// Another number of inputs, or a false claim.
pub fn check(circuit: &Circuit, inputs: &[Ext]) -> Result<(), CircuitError> {
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
        let rest = d.rest.iter().map(|&w| at(w)).collect::<Result<Vec<_>, _>>()?;
        if periodic_at(&d.column, d.skip, at(d.r0)?, &rest) != at(d.value)? {
            return Err(CircuitError::Deferred { claim });
        }
    }
    Ok(())
}
