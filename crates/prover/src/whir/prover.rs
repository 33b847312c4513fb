//! The prover's side: the traces stacked and committed, then
//! `p3-multi-stark`'s proof, with its panics on witnesses no proof exists
//! for turned into refusals.

use std::panic::{AssertUnwindSafe, catch_unwind};

use p3_challenger::CanObserve;
use p3_commit::Mmcs;
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_multi_stark::{ProverInstance, ProverInstances, setup};
use p3_sumcheck::layout::Table as TraceTable;
use p3_util::log2_strict_usize;

use super::{Multilinear, WhirBody, WhirProof, config, multilinear, unsupported};
use crate::config::{Challenger, MerkleHash, Settings, Val, WhirSettings, transcript, val_mmcs, val_mmcs31};
use crate::error::ProveError;
use crate::table::{Table, Tables};

/// One multilinear proof of `traces` against `tables`, with the transcript
/// seeded by [`Tables::transcript_seed`], committed with the settings'
/// Merkle hash.
pub(crate) fn prove<A: Table>(
    settings: &WhirSettings,
    tables: &Tables<'_, A>,
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<WhirProof, ProveError> {
    match settings.merkle {
        MerkleHash::Sha256 => prove_with(settings, tables, traces, val_mmcs(0)).map(WhirProof::Sha256),
        MerkleHash::Sha256Trunc31 => prove_with(settings, tables, traces, val_mmcs31(0)).map(WhirProof::Sha256Trunc31),
        other => Err(ProveError(unsupported(other))),
    }
}

/// [`prove`] with the Merkle trees `mmcs`.
fn prove_with<A: Table, M>(
    settings: &WhirSettings,
    tables: &Tables<'_, A>,
    traces: Vec<RowMajorMatrix<Val>>,
    mmcs: M,
) -> Result<WhirBody<M>, ProveError>
where
    M: Mmcs<Val>,
    M::ProverData<RowMajorMatrix<Val>>: Clone,
    Challenger: CanObserve<M::Commitment>,
{
    let heights: Vec<usize> = traces.iter().map(|t| log2_strict_usize(t.height())).collect();
    assert_eq!(heights, tables.log_heights, "one trace per table, at the statement's heights");
    let config = config(settings, tables, mmcs).map_err(ProveError)?;
    let tables_ml = multilinear(tables);
    let airs: Vec<&Multilinear<'_, A>> = tables_ml.iter().collect();
    // `p3-multi-stark` checks that every bus balances before it proves the
    // fractional sums, and panics where one does not (a witness that no
    // proof exists for), as it does on an AIR it cannot prove: those are
    // refusals, not crashes.
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let (pk, _) = setup(&config, &airs, &mut transcript(Vec::new()))?;
        // Column-major copies, each row-major trace dropped once copied.
        let instances = tables_ml
            .iter()
            .zip(traces)
            .zip(&tables.public_values)
            .map(|((air, trace), public_values)| {
                ProverInstance::new(air, TraceTable::new(trace.transpose()), &pk, public_values)
            })
            .collect();
        let mut challenger = transcript(tables.transcript_seed(&Settings::Whir(*settings)));
        p3_multi_stark::prove(&config, ProverInstances::new(instances), 0, &mut challenger)
    }));
    match outcome {
        Ok(Ok(proof)) => Ok(WhirBody { log_heights: heights, proof }),
        Ok(Err(e)) => Err(ProveError(format!("{e:?}"))),
        Err(panic) => Err(ProveError(format!("the prover refused the witness: {}", panic_message(&*panic)))),
    }
}

/// The message of a caught panic.
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
        .unwrap_or_else(|| "unknown reason".into())
}

/// The message of the multilinear prover's refusal of a witness whose
/// buses do not balance, inside its [`ProveError`] (for soundness tests:
/// such a witness cannot be forced past this prover, whose proofs carry
/// the root of the fractional sums).
#[doc(hidden)]
pub const UNBALANCED_BUS: &str = "fraction GKR input fractions must sum to zero";
