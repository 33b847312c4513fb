//! Aggregate proofs: one proof that `N` Lamport+ signatures over `N`
//! distinct messages are valid, each under its own key (seed 004, section 4).
//!
//! The codewords are public: the verifier recomputes each from its message
//! (and, for the mined set, the counter the proof carries, checked for
//! admissibility natively), and they enter the circuit as chunk values the
//! slot table holds and every sponge's accumulator must reach
//! ([`crate::air::hash::Codewords::PerSlot`]).
//! The circuit hashes the revealed sub-keys and runs each key's sponge.

use rayon::prelude::*;
use sigagg_lamport::{ParameterSet, Signature, codeword};

use crate::config::Settings;
use crate::error::{ProveError, StatementError, VerifyError};
use crate::layout::max_signatures;
use crate::poseidon::Rounds;
use crate::proof::{Proof, ProofKind};
use crate::statement::AggregateStatement;
use crate::system::{self, Instance};
use crate::trace::{self, SlotWitness, Traces};

/// Proves that `signatures[i]` is a valid signature of
/// `statement.entries()[i]`.
///
/// Every signature is verified natively first, so an invalid one is
/// reported with its index instead of producing a proof that fails.
pub fn prove<S: ParameterSet>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    signatures: &[Signature<S>],
) -> Result<Proof, ProveError> {
    settings.validate()?;
    let (instance, traces) = witness(settings, statement, signatures)?;
    let stark = system::prove(settings, &instance, traces.tables)?;
    Ok(proof::<S>(settings, statement, signatures, stark))
}

fn counters<S: ParameterSet>(signatures: &[Signature<S>]) -> Vec<u32> {
    if S::MINING_BITS > 0 { signatures.iter().map(Signature::counter).collect() } else { Vec::new() }
}

fn proof<S: ParameterSet>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    signatures: &[Signature<S>],
    stark: crate::proof::StarkProof,
) -> Proof {
    Proof {
        kind: ProofKind::Aggregate,
        set_id: S::ID,
        settings: *settings,
        count: statement.len() as u32,
        counters: counters(signatures),
        bitmap: None,
        stark,
    }
}

/// The instance and traces of a valid witness.
fn witness<S: ParameterSet>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    signatures: &[Signature<S>],
) -> Result<(Instance, Traces), ProveError> {
    if signatures.len() != statement.len() {
        return Err(ProveError::CountMismatch { entries: statement.len(), signatures: signatures.len() });
    }
    let max = max_signatures(settings);
    if statement.len() > max {
        return Err(StatementError::TooMany { count: statement.len(), max }.into());
    }
    let entries = statement.entries();
    let checked: Vec<Result<(), ProveError>> = entries
        .par_iter()
        .zip(signatures)
        .enumerate()
        .map(|(index, (e, sig))| {
            sigagg_lamport::verify(&e.public_key, &e.message, sig)
                .map_err(|reason| ProveError::InvalidSignature { index, reason })
        })
        .collect();
    checked.into_iter().collect::<Result<(), _>>()?;
    build(settings, statement, signatures)
}

/// The instance and traces of `signatures`, without verifying them (the
/// circuit must reject what native verification would have).
fn build<S: ParameterSet>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    signatures: &[Signature<S>],
) -> Result<(Instance, Traces), ProveError> {
    build_with(settings, statement, signatures, |make| Instance::for_settings(settings, make))
}

/// [`build`] with the instance that `layout` makes from the statement's
/// instance in a given permutation layout (tests: another layout than
/// `Instance::for_settings` chooses).
fn build_with<S: ParameterSet>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    signatures: &[Signature<S>],
    layout: impl FnOnce(&dyn Fn(Rounds) -> Instance) -> Instance,
) -> Result<(Instance, Traces), ProveError> {
    let entries = statement.entries();
    let codewords = entries
        .par_iter()
        .zip(signatures)
        .enumerate()
        .map(|(index, (e, sig))| {
            codeword::<S>(&e.message, sig.counter())
                .map(|cw| cw.bits().to_vec())
                .map_err(|reason| ProveError::InvalidSignature { index, reason })
        })
        // In order: the error names the first failing index, not whichever
        // failed first in time.
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let keys: Vec<_> = entries.iter().map(|e| *e.public_key.digest()).collect();
    let digest = statement.digest(settings, &counters(signatures));
    let instance = layout(&|rounds| Instance::aggregate(rounds, S::NUM_SUBKEYS, &codewords, &keys, digest));
    let last = statement.len() - 1;
    let slots: Vec<SlotWitness<'_>> = (0..instance.shape.slots)
        .map(|s| {
            let i = s.min(last);
            SlotWitness {
                randomizer: *signatures[i].randomizer(),
                elements: signatures[i].elements(),
                bits: &codewords[i],
                leaf: None,
            }
        })
        .collect();
    let traces = tracing::info_span!("traces").in_scope(|| trace::generate(&instance, &slots));
    Ok((instance, traces))
}

/// The verifier's instance: codewords from the statement and the proof's
/// counters.
fn instance<S: ParameterSet>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    proof: &Proof,
) -> Result<Instance, VerifyError> {
    proof.check_header::<S>(ProofKind::Aggregate, settings)?;
    let max = max_signatures(settings);
    if statement.len() > max {
        return Err(StatementError::TooMany { count: statement.len(), max }.into());
    }
    if proof.count as usize != statement.len() {
        return Err(VerifyError::PublicMismatch(format!(
            "the proof covers {} entries, the statement has {}",
            proof.count,
            statement.len()
        )));
    }
    let expected_counters = if S::MINING_BITS > 0 { statement.len() } else { 0 };
    if proof.counters.len() != expected_counters {
        return Err(VerifyError::PublicMismatch(format!(
            "{} mining counters for {expected_counters} expected",
            proof.counters.len()
        )));
    }
    if proof.bitmap.is_some() {
        return Err(VerifyError::PublicMismatch("an aggregate proof carries no bitmap".into()));
    }
    let codewords = statement
        .entries()
        .par_iter()
        .enumerate()
        .map(|(index, e)| {
            let counter = proof.counters.get(index).copied().unwrap_or(0);
            codeword::<S>(&e.message, counter)
                .map(|cw| cw.bits().to_vec())
                .map_err(|reason| VerifyError::BadCounter { index, reason })
        })
        // In order, as the prover's.
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let keys: Vec<_> = statement.entries().iter().map(|e| *e.public_key.digest()).collect();
    let digest = statement.digest(settings, &proof.counters);
    Ok(Instance::for_settings(settings, |rounds| {
        Instance::aggregate(rounds, S::NUM_SUBKEYS, &codewords, &keys, digest)
    }))
}

/// Verifies an aggregate proof for `statement` under `settings`.
pub fn verify<S: ParameterSet>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    proof: &Proof,
) -> Result<(), VerifyError> {
    settings.validate()?;
    let instance = instance(settings, statement, proof)?;
    system::verify(settings, &instance, &proof.stark)
}

/// Hooks for soundness tests: build traces, tamper with them, prove anyway.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing {
    use super::*;

    /// The instance and traces of a valid witness.
    pub fn traces<S: ParameterSet>(
        settings: &Settings,
        statement: &AggregateStatement<S>,
        signatures: &[Signature<S>],
    ) -> (Instance, Traces) {
        witness(settings, statement, signatures).expect("valid witness")
    }

    /// The instance and traces of `signatures` without verifying them: what
    /// a cheating prover would build.
    pub fn unchecked_traces<S: ParameterSet>(
        settings: &Settings,
        statement: &AggregateStatement<S>,
        signatures: &[Signature<S>],
    ) -> Result<(Instance, Traces), ProveError> {
        build(settings, statement, signatures)
    }

    /// The instance and traces of a valid witness, with the permutations
    /// in layout `rounds` and their output lanes committed as `outputs`
    /// says, rather than as `Instance::for_settings` would choose.
    pub fn traces_with_layout<S: ParameterSet>(
        settings: &Settings,
        statement: &AggregateStatement<S>,
        signatures: &[Signature<S>],
        rounds: Rounds,
        outputs: crate::poseidon::Outputs,
    ) -> (Instance, Traces) {
        build_with(settings, statement, signatures, |make| make(rounds).for_backend(settings).with_outputs(outputs))
            .expect("valid witness")
    }

    /// Proves (possibly tampered) traces without checking them.
    pub fn prove_traces<S: ParameterSet>(
        settings: &Settings,
        statement: &AggregateStatement<S>,
        signatures: &[Signature<S>],
        instance: &Instance,
        traces: &Traces,
    ) -> Result<Proof, ProveError> {
        let stark = system::prove(settings, instance, traces.tables.clone())?;
        Ok(proof::<S>(settings, statement, signatures, stark))
    }
}
