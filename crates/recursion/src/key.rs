//! A circuit's verifying key ([`VerifyingKey`]): what a verifier of
//! proofs of one circuit computes once from it, then verifies each proof
//! with, under any inputs, without the circuit.
//!
//! A proof binds its circuit through the digest in its transcript seed:
//! the circuit's words, then the inputs' values, hashed in that order
//! ([`crate::verify`]). The key keeps the hash state after the circuit's
//! words, the five tables built on zero inputs, their profiles (the
//! symbolic evaluation of each table's constraints, which the verifier
//! would otherwise redo for every proof:
//! `sigagg_prover::skip_stark::Profiles`), and the row of each input
//! in the extension witness table. Under inputs `x` the digest is that
//! state finished on `x`, and the tables are the key's with `x` written on
//! the inputs' rows: what a verifier that builds the circuit computes, bit
//! for bit (tested). So a proof verifies with the key exactly when it
//! verifies with the circuit.
//!
//! The key does not check the circuit's deferred claims: their columns
//! are the statement's, which the key does not hold. It lists them by
//! input number ([`KeyClaim`]) for the caller to check on its own columns.

use p3_field::PrimeCharacteristicRing;
use sigagg_prover::config::Val;
use sigagg_prover::skip_stark::Profiles;
use sigagg_prover::{SecurityLevel, Settings, Tables};

use crate::air::WitnessAir;
use crate::circuit::{Fixed, interleave};
use crate::deferred::periodic_at;
use crate::{
    Circuit, CircuitAir, CircuitError, CircuitProof, DOMAIN, Ext, StatementView, Words, circuit_words, digest_inputs,
    log_heights, skip_settings, tables, verify_tables,
};

/// The verifying key of one circuit ([`crate::key`]).
#[derive(Clone)]
pub struct VerifyingKey {
    /// The five tables on zero inputs.
    airs: Vec<CircuitAir>,
    /// Their profiles (one symbolic evaluation each, the same under any
    /// inputs: most of what a verifier of the tables computes otherwise).
    profiles: Profiles,
    log_heights: [usize; 5],
    /// The digest's hash state after the circuit's words.
    words: Words,
    /// Per input, its row in the extension witness table.
    input_rows: Vec<usize>,
    /// The public inputs' numbers, in order.
    publics: Vec<usize>,
    claims: Vec<KeyClaim>,
}

impl core::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("VerifyingKey")
            .field("log_heights", &self.log_heights)
            .field("inputs", &self.input_rows.len())
            .field("claims", &self.claims.len())
            .finish_non_exhaustive()
    }
}

/// One deferred claim of a key's circuit by input numbers: a column of
/// the statement at the point of inputs `r0`, `rest` has the value of
/// input `value` ([`crate::deferred::Deferred`], whose column is the one
/// the circuit was built on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyClaim {
    /// The zerocheck's skipped variables.
    pub skip: usize,
    /// The input holding the skip challenge.
    pub r0: usize,
    /// The inputs holding the ordinary challenges.
    pub rest: Vec<usize>,
    /// The input holding the column's value there.
    pub value: usize,
}

impl KeyClaim {
    /// Whether `column` (one period) at the point `inputs` give has the
    /// value they claim. `inputs` must be as many as the key's.
    pub fn holds(&self, column: &[Val], inputs: &[Ext]) -> bool {
        let rest: Vec<Ext> = self.rest.iter().map(|&i| inputs[i]).collect();
        periodic_at(column, self.skip, inputs[self.r0], &rest) == inputs[self.value]
    }
}

impl VerifyingKey {
    /// The key of `circuit`: its tables, the hash of its words, where its
    /// inputs go. As costly as building the circuit's statement once.
    ///
    /// # Errors
    /// A circuit too large for the prover ([`crate::MAX_LOG_HEIGHT`]), or
    /// a deferred claim on a wire that is no input.
    pub fn new(circuit: &Circuit) -> Result<Self, CircuitError> {
        let logs = log_heights(circuit)?;
        let zeros = vec![Ext::ZERO; circuit.num_inputs()];
        let (airs, words) = p3_maybe_rayon::prelude::join(|| tables(circuit, &zeros, &logs), || circuit_words(circuit));
        let mut input_rows = vec![0; circuit.num_inputs()];
        for (row, fixed) in circuit.fixed().enumerate() {
            if let Some(Fixed::Input(i)) = fixed {
                input_rows[i] = row;
            }
        }
        let input = |w| circuit.input_index(w).ok_or(CircuitError::Unsupported("a deferred claim on no input"));
        let claims = circuit
            .deferred()
            .iter()
            .map(|d| {
                Ok(KeyClaim {
                    skip: d.skip,
                    r0: input(d.r0)?,
                    rest: d.rest.iter().map(|&w| input(w)).collect::<Result<_, CircuitError>>()?,
                    value: input(d.value)?,
                })
            })
            .collect::<Result<_, CircuitError>>()?;
        let publics = circuit.publics().iter().map(|(i, _)| *i).collect();
        let profiles = Profiles::of_tables(&airs)?;
        Ok(Self { airs, profiles, log_heights: logs, words, input_rows, publics, claims })
    }

    /// The number of inputs.
    pub fn num_inputs(&self) -> usize {
        self.input_rows.len()
    }

    /// The public inputs' numbers, in order of creation.
    pub fn publics(&self) -> &[usize] {
        &self.publics
    }

    /// The circuit's inputs from the public inputs' values `publics` (in
    /// order of creation) and the deferred claims' values `claims` (every
    /// other input, in order): [`Circuit::inputs_with`] with the publics
    /// given.
    ///
    /// # Errors
    /// Another number of public values or claims than the circuit has.
    pub fn inputs_with(&self, publics: &[Ext], claims: &[Ext]) -> Result<Vec<Ext>, CircuitError> {
        interleave(self.num_inputs(), &self.publics, publics, claims)
    }

    /// The deferred claims, in the circuit's order.
    pub fn claims(&self) -> &[KeyClaim] {
        &self.claims
    }

    /// The five tables' heights, log2.
    pub fn log_heights(&self) -> &[usize] {
        &self.log_heights
    }

    /// The statement of a proof of the circuit on `inputs` under
    /// `settings`, as [`crate::statement_view`] builds it from the circuit.
    ///
    /// # Errors
    /// Another number of inputs; settings of another backend.
    pub fn view(&self, settings: &Settings, inputs: &[Ext]) -> Result<StatementView, CircuitError> {
        skip_settings(settings)?;
        if inputs.len() != self.num_inputs() {
            return Err(CircuitError::InputCount { expected: self.num_inputs(), found: inputs.len() });
        }
        let mut airs = self.airs.clone();
        if let Some(CircuitAir::Witness(witness)) = airs.first_mut() {
            *witness = WitnessAir::with_inputs(witness, &self.input_rows, inputs);
        }
        let digest = digest_inputs(self.words.clone(), inputs);
        let log_heights = self.log_heights.to_vec();
        let seed = Tables::new(&airs, log_heights.clone(), DOMAIN, digest).transcript_seed(settings);
        let skip = sigagg_prover::skip_stark::skip_for(&log_heights);
        Ok(StatementView { airs, log_heights, skip, seed, digest })
    }

    /// Checks that `proof` shows the circuit holding on `inputs` under
    /// `settings`, and returns its security: [`crate::verify_level`]
    /// without the circuit. The deferred claims are the caller's to check
    /// ([`VerifyingKey::claims`]). Never panics on a malformed proof.
    ///
    /// # Errors
    /// As [`crate::verify`].
    pub fn verify(
        &self,
        settings: &Settings,
        inputs: &[Ext],
        proof: &CircuitProof,
    ) -> Result<SecurityLevel, CircuitError> {
        let view = tracing::info_span!("statement").in_scope(|| self.view(settings, inputs))?;
        verify_tables(settings, (&view.airs, Some(&self.profiles)), &view.log_heights, view.digest, proof)
    }
}
