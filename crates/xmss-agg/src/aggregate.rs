//! Aggregate proofs: one proof that `N` Seed001 signatures are valid, each
//! under its own key, at its own epoch, over its own message (or one
//! shared message, the consensus case).
//!
//! The statement is the list of `(public key, epoch, message)`
//! ([`AggregateStatement`]); the signatures are the witness. Five tables
//! ([`crate::air`]) prove it: the statement table, the message hash's
//! digits, the chain steps, the width-24 hashes and the range table.

use sigagg_xmss::{ParameterSet, Seed001, Signature};

use crate::air::{AggAir, digits::DigitAir, range::RangeAir, sig::SigAir};
use crate::config::Settings;
use crate::error::{ProveError, VerifyError};
use crate::proof::{Proof, ProofKind};
use crate::statement::{AggregateStatement, max_signatures};
use crate::{system, trace};

/// Proves that `signatures[i]` is a valid signature for `statement.entries()[i]`.
///
/// Witness generation runs every step of verification, so an invalid
/// signature is reported with its index instead of producing a proof.
pub fn prove(
    settings: &Settings,
    statement: &AggregateStatement,
    signatures: &[Signature<Seed001>],
) -> Result<Proof, ProveError> {
    settings.validate()?;
    settings.check_collision_bits(crate::MIN_COLLISION_BITS).map_err(ProveError::UnsupportedMerkleHash)?;
    if signatures.len() != statement.len() {
        return Err(ProveError::CountMismatch { entries: statement.len(), signatures: signatures.len() });
    }
    if statement.padded_len() > max_signatures(settings) {
        return Err(ProveError::TooManyForSettings { count: statement.len(), max: max_signatures(settings) });
    }
    let traces = tracing::info_span!("generate traces")
        .in_scope(|| trace::generate(settings, statement, signatures))
        .map_err(|(index, reason)| ProveError::InvalidSignature { index, reason })?;
    prove_traces(settings, statement, traces)
}

/// Proves already generated traces (no validity checks).
fn prove_traces(
    settings: &Settings,
    statement: &AggregateStatement,
    traces: trace::Traces,
) -> Result<Proof, ProveError> {
    let stark = system::prove_airs(settings, &statement.digest(), &airs(settings, statement), traces)
        .map_err(ProveError::Prover)?;
    Ok(Proof {
        kind: ProofKind::Aggregate,
        set: Seed001::ID,
        settings: *settings,
        count: statement.len() as u32,
        signers: None,
        stark,
    })
}

/// Verifies an aggregate proof for `statement` under `settings`.
pub fn verify(settings: &Settings, statement: &AggregateStatement, proof: &Proof) -> Result<(), VerifyError> {
    settings.validate()?;
    settings.check_collision_bits(crate::MIN_COLLISION_BITS).map_err(VerifyError::UnsupportedMerkleHash)?;
    if statement.padded_len() > max_signatures(settings) {
        return Err(VerifyError::TooManyForSettings { count: statement.len(), max: max_signatures(settings) });
    }
    proof.check_header(ProofKind::Aggregate, Seed001::ID, settings)?;
    if proof.count as usize != statement.len() {
        return Err(VerifyError::PublicMismatch(format!(
            "the proof covers {} entries, the statement has {}",
            proof.count,
            statement.len()
        )));
    }
    let expected = trace::log_heights(settings, statement.padded_len());
    system::verify_airs(settings, &statement.digest(), &airs(settings, statement), &proof.stark, &expected)
}

/// What a verifier circuit of an aggregate proof reads of its statement
/// under `settings` (`sigagg-merge`): the AIRs in batch order, their
/// heights (log2, from the statement) and the transcript's seed.
pub fn verifier_view(settings: &Settings, statement: &AggregateStatement) -> (Vec<AggAir>, Vec<usize>, Vec<u8>) {
    (
        airs(settings, statement),
        trace::log_heights(settings, statement.padded_len()),
        system::transcript_seed(settings, &statement.digest()),
    )
}

/// What a verifier reads of an aggregate of `signers` signers under
/// `settings` whose statement it does not know but by its digest: the
/// tables with every statement column zero, their heights and the
/// transcript's seed. A verifier circuit that defers every periodic column
/// depends on nothing else of the statement (`sigagg-merge`'s withheld
/// children).
pub fn placeholder_view(settings: &Settings, signers: usize, digest: &[u8; 32]) -> (Vec<AggAir>, Vec<usize>, Vec<u8>) {
    let padded = crate::statement::padded_len(signers);
    (airs_for_shape(settings, padded), trace::log_heights(settings, padded), system::transcript_seed(settings, digest))
}

/// The five AIRs of a statement under `settings`, in batch order.
fn airs(settings: &Settings, statement: &AggregateStatement) -> Vec<AggAir> {
    with_sig_air(settings, SigAir::new(statement), statement.padded_len())
}

/// AIRs of the right shape for `padded` slots (for the security calculator).
pub(crate) fn airs_for_shape(settings: &Settings, padded: usize) -> Vec<AggAir> {
    with_sig_air(settings, SigAir::placeholder(padded), padded)
}

fn with_sig_air(settings: &Settings, sig: SigAir, padded: usize) -> Vec<AggAir> {
    let (chain, hash) = crate::air::poseidon_airs(settings, Some(padded));
    vec![
        AggAir::Sig(sig),
        AggAir::Digits(DigitAir::new()),
        AggAir::Chain(chain),
        AggAir::Hash(hash),
        AggAir::Range(RangeAir),
    ]
}

/// Hooks for soundness tests: build traces, tamper with them, prove anyway.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing {
    use p3_matrix::Matrix;
    use p3_util::log2_strict_usize;

    use super::*;
    use crate::air;

    /// The traces of a statement and its signatures under `settings`.
    pub fn traces(
        settings: &Settings,
        statement: &AggregateStatement,
        signatures: &[Signature<Seed001>],
    ) -> trace::Traces {
        trace::generate(settings, statement, signatures).expect("valid signatures")
    }

    /// The chain and width-24 tables of a statement under `settings`, each
    /// with its AIR (for tests and examples that prove one table alone).
    pub fn poseidon_tables(
        settings: &Settings,
        statement: &AggregateStatement,
        signatures: &[Signature<Seed001>],
    ) -> [(AggAir, p3_matrix::dense::RowMajorMatrix<crate::config::Val>); 2] {
        let (chain, hash) = air::poseidon_airs(settings, Some(statement.padded_len()));
        let mut matrices = traces(settings, statement, signatures).into_matrices();
        let mut take = |width: usize| {
            let i = matrices.iter().position(|m| m.width == width).expect("a table of this width");
            matrices.swap_remove(i)
        };
        let chain_trace = take(p3_air::BaseAir::<crate::config::Val>::width(&chain));
        let hash_trace = take(p3_air::BaseAir::<crate::config::Val>::width(&hash));
        [(AggAir::Chain(chain), chain_trace), (AggAir::Hash(hash), hash_trace)]
    }

    /// The AIRs of a statement under `settings`, in the order of
    /// [`trace::Traces::into_matrices`] (for examples that prove them
    /// with other provers).
    pub fn statement_airs(settings: &Settings, statement: &AggregateStatement) -> Vec<AggAir> {
        airs(settings, statement)
    }

    /// The verifier's lookups, serialized, and those Plonky3's own
    /// `ProverData::from_airs_and_degrees` derives, for comparison.
    pub fn lookups_both_ways(settings: &Settings, statement: &AggregateStatement) -> (Vec<u8>, Vec<u8>) {
        let (airs, heights) = (airs(settings, statement), trace::log_heights(settings, statement.padded_len()));
        sigagg_prover::testing::lookups_both_ways(settings, &system::tables(&airs, heights, &statement.digest()))
    }

    /// log2 of every table's quotient-chunk count, from the declared
    /// degrees and from Plonky3's symbolic inference.
    pub fn quotient_chunks_both_ways(settings: &Settings, statement: &AggregateStatement) -> (Vec<usize>, Vec<usize>) {
        let (airs, heights) = (airs(settings, statement), trace::log_heights(settings, statement.padded_len()));
        sigagg_prover::testing::quotient_chunks_both_ways(
            settings,
            &system::tables(&airs, heights, &statement.digest()),
        )
    }

    /// `signatures`' traces proved by the FRI prover and by Plonky3's own
    /// `prove_batch`, each proof serialized (see
    /// `sigagg_prover::testing::proofs_both_ways`).
    pub fn proofs_both_ways(
        settings: &Settings,
        statement: &AggregateStatement,
        signatures: &[Signature<Seed001>],
    ) -> (Vec<u8>, Vec<u8>) {
        let matrices = trace::generate(settings, statement, signatures).expect("valid signatures").into_matrices();
        let heights: Vec<usize> = matrices.iter().map(|m| log2_strict_usize(m.height())).collect();
        let airs = airs(settings, statement);
        sigagg_prover::testing::proofs_both_ways(
            settings,
            &system::tables(&airs, heights, &statement.digest()),
            matrices,
        )
    }

    pub use sigagg_prover::testing::{flip_positions, settings_from_env};

    /// Judges the proving of a tampered trace. A debug build of a prover
    /// that checks every constraint and panics counts as caught (the FRI
    /// prover checks nothing in any build). Otherwise the test is about
    /// the verifier: the prover must return a proof, and `verify` must
    /// refuse it as [`VerifyError::Invalid`] (a STARK failure, not a header
    /// or shape mismatch, which would mean the tamper missed its point).
    ///
    /// The multilinear backend's prover balances every bus itself before it
    /// proves (its proof carries the root of the fractional sums, which the
    /// verifier checks is zero), so a tampering that unbalances a bus is
    /// refused there, in every build; the byte-flip tests cover a proof
    /// whose root was changed.
    pub fn assert_tampered_rejected<P, E: core::fmt::Debug>(
        settings: &Settings,
        prove: impl FnOnce() -> Result<P, E>,
        verify: impl FnOnce(&P) -> Result<(), VerifyError>,
    ) {
        let unbalanced = |e: &E| {
            settings.backend().is_multilinear() && format!("{e:?}").contains(sigagg_prover::whir::UNBALANCED_BUS)
        };
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(prove)) {
            Err(_) if cfg!(debug_assertions) => {}
            Err(_) => panic!("a release prover panicked on a tampered trace"),
            Ok(Err(e)) if cfg!(debug_assertions) || unbalanced(&e) => drop(e),
            Ok(Err(e)) => panic!("the release prover returned {e:?} instead of a proof for the verifier to refuse"),
            Ok(Ok(proof)) => match verify(&proof) {
                Err(VerifyError::Invalid(_)) => {}
                other => panic!("tampered trace: {other:?} ({settings:?}), not a STARK rejection"),
            },
        }
    }

    /// Proves (possibly tampered) traces without checking them first.
    pub fn prove_traces(
        settings: &Settings,
        statement: &AggregateStatement,
        traces: &trace::Traces,
    ) -> Result<Proof, ProveError> {
        super::prove_traces(settings, statement, traces.clone())
    }
}

#[cfg(test)]
mod tests {
    use p3_air::BaseAir;
    use p3_util::log2_strict_usize;

    use crate::air::hash24::HashAir;
    use crate::config::Val;

    use super::*;

    /// The WHIR aggregates that commit every round of the width-24 table
    /// ([`air::hash_stride`]) keep the stacked commitment of the paired
    /// layout, at every padded size the multilinear settings accept.
    #[test]
    fn whir_hash_rounds_keep_the_stacked_commitment() {
        for settings in [Settings::WHIR, Settings::WHIR_COMPACT] {
            let max = max_signatures(&settings);
            let mut switched = 0;
            for padded in (4..=16).map(|k| 1usize << k).filter(|&n| n <= max) {
                let airs = airs_for_shape(&settings, padded);
                let heights = trace::heights(&settings, padded);
                let shapes = |hash_width: usize| -> Vec<(usize, usize)> {
                    airs.iter()
                        .zip(heights)
                        .map(|(air, h)| {
                            let width =
                                if matches!(air, AggAir::Hash(_)) { hash_width } else { BaseAir::<Val>::width(air) };
                            (log2_strict_usize(h), width)
                        })
                        .collect()
                };
                let chosen = airs
                    .iter()
                    .find_map(|a| if let AggAir::Hash(h) = a { Some(BaseAir::<Val>::width(h)) } else { None });
                let paired = BaseAir::<Val>::width(&HashAir::new(settings.stride(), false));
                let chosen = chosen.expect("a width-24 table");
                switched += usize::from(chosen != paired);
                assert_eq!(
                    sigagg_prover::whir::stacked_log_size(&shapes(chosen)),
                    sigagg_prover::whir::stacked_log_size(&shapes(paired)),
                    "{}, {padded} slots",
                    settings.backend().name()
                );
            }
            assert!(switched > 0, "no size switches layout");
        }
    }
}
