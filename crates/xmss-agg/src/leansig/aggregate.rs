//! Aggregate proofs for the leanSig family: one proof that `N` signatures
//! of a set `S` ([`LeanFamily`]) are valid, each under its own key, at its
//! own epoch (any `u32` for LeanSigProd), over its own message.
//!
//! Five tables prove it ([`super::air`]): the statement, the hypercube
//! digits, the chain steps, the width-24 hashes and the 16-bit range table.

use p3_air::BaseAir;
use p3_field::{PackedValue, PrimeCharacteristicRing, PrimeField32};
use p3_matrix::dense::RowMajorMatrix;
use p3_util::log2_strict_usize;
use rayon::prelude::*;
use sigagg_xmss::{Signature, VerifyError as SignatureError};

use super::air::chain::{self, ChainAir, ChainCols};
use super::air::{digits::DigitAir, hash24::HashAir, sig::SigAir};
use super::layout::{LeanFamily, Shape};
use super::slot::SlotWitness;
use super::system::{self, LeanAir};
use crate::air::range::RangeAir;
use crate::config::{PackedVal, Settings, Val};
use crate::error::{ProveError, VerifyError};
use crate::proof::{Proof, ProofKind};
use crate::statement::{AggregateStatement, MAX_SIGNATURES};

/// The most slots a proof of `S` can hold under `settings`: its tallest
/// table must fit the settings' largest height.
pub fn max_signatures<S: LeanFamily>(settings: &Settings) -> usize {
    let shape = Shape::of::<S>();
    let tallest = shape.chain_block.max(shape.hash_block).max(shape.digit_block);
    let n = 1usize << settings.max_log_height().saturating_sub(log2_strict_usize(tallest));
    n.min(MAX_SIGNATURES)
}

/// The five AIRs of `statement` under `settings`, in batch order.
pub fn airs<S: LeanFamily>(settings: &Settings, statement: &AggregateStatement<S>) -> Vec<LeanAir> {
    with_sig_air::<S>(settings, SigAir::new(statement), statement.padded_len())
}

/// AIRs of the right shape for `padded` slots (for the security calculator).
pub fn airs_for_shape<S: LeanFamily>(settings: &Settings, padded: usize) -> Vec<LeanAir> {
    with_sig_air::<S>(settings, SigAir::placeholder(&Shape::of::<S>(), padded), padded)
}

/// The width-24 table commits every round in large multilinear aggregates,
/// as Seed001's does ([`crate::air::hash_stride`], whose measurements
/// chose the threshold).
pub(super) fn with_sig_air<S: LeanFamily>(settings: &Settings, sig: SigAir, padded: usize) -> Vec<LeanAir> {
    let shape = Shape::of::<S>();
    let hash_stride = crate::air::hash_stride(settings, Some(padded));
    vec![
        LeanAir::Sig(sig),
        LeanAir::Digits(DigitAir::new(shape)),
        LeanAir::Chain(ChainAir::new(shape, settings.stride())),
        LeanAir::Hash(HashAir::new::<S>(hash_stride, settings.exclusive_buses())),
        LeanAir::Range(RangeAir),
    ]
}

/// log2 of the five tables' heights for `padded` slots of `S`.
pub fn log_heights<S: LeanFamily>(padded: usize) -> Vec<usize> {
    let shape = Shape::of::<S>();
    [padded, padded * shape.digit_block, padded * shape.chain_block, padded * shape.hash_block, 1 << 16]
        .iter()
        .map(|&h| log2_strict_usize(h))
        .collect()
}

/// Proves that `signatures[i]` is a valid signature for `statement.entries()[i]`.
///
/// Witness generation runs every step of verification, so an invalid
/// signature is reported with its index instead of producing a proof.
pub fn prove<S: LeanFamily>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    signatures: &[Signature<S>],
) -> Result<Proof, ProveError> {
    settings.validate()?;
    settings.check_collision_bits(crate::MIN_COLLISION_BITS).map_err(ProveError::UnsupportedMerkleHash)?;
    if signatures.len() != statement.len() {
        return Err(ProveError::CountMismatch { entries: statement.len(), signatures: signatures.len() });
    }
    if statement.padded_len() > max_signatures::<S>(settings) {
        return Err(ProveError::TooManyForSettings { count: statement.len(), max: max_signatures::<S>(settings) });
    }
    let airs = airs(settings, statement);
    let traces = tracing::info_span!("generate traces")
        .in_scope(|| generate(&airs, statement, signatures))
        .map_err(|(index, reason)| ProveError::InvalidSignature { index, reason })?;
    prove_traces(settings, statement, &airs, traces)
}

/// Proves already generated traces (no validity checks).
fn prove_traces<S: LeanFamily>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    airs: &[LeanAir],
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<Proof, ProveError> {
    let stark = system::prove(settings, airs, &statement.digest(), traces)?;
    Ok(Proof {
        kind: ProofKind::Aggregate,
        set: S::ID,
        settings: *settings,
        count: statement.len() as u32,
        signers: None,
        stark,
    })
}

/// Verifies an aggregate proof of `statement` under `settings`.
pub fn verify<S: LeanFamily>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    proof: &Proof,
) -> Result<(), VerifyError> {
    settings.validate()?;
    settings.check_collision_bits(crate::MIN_COLLISION_BITS).map_err(VerifyError::UnsupportedMerkleHash)?;
    if statement.padded_len() > max_signatures::<S>(settings) {
        return Err(VerifyError::TooManyForSettings { count: statement.len(), max: max_signatures::<S>(settings) });
    }
    proof.check_header(ProofKind::Aggregate, S::ID, settings)?;
    if proof.count as usize != statement.len() {
        return Err(VerifyError::PublicMismatch(format!(
            "the proof covers {} entries, the statement has {}",
            proof.count,
            statement.len()
        )));
    }
    let airs = airs(settings, statement);
    let expected = log_heights::<S>(statement.padded_len());
    system::verify(settings, &airs, expected, &statement.digest(), &proof.stark)
}

/// Every trace, in batch order. `signatures[i]` should sign
/// `statement.entries()[i]`; padded slots repeat the last entry and
/// signature. Fails with the first slot whose signature does not verify.
fn generate<S: LeanFamily>(
    airs: &[LeanAir],
    statement: &AggregateStatement<S>,
    signatures: &[Signature<S>],
) -> Result<Vec<RowMajorMatrix<Val>>, (usize, SignatureError)> {
    let LeanAir::Sig(sig) = &airs[0] else { unreachable!("the statement table comes first") };
    let witnesses: Vec<SlotWitness> = (0..statement.len())
        .into_par_iter()
        .map(|s| SlotWitness::new(&statement.entries()[s], &signatures[s]).map_err(|e| (s, e)))
        .collect::<Vec<_>>()
        // In order, so the error names the first invalid signature (rayon's
        // own short-circuit would name whichever failed first in time).
        .into_iter()
        .collect::<Result<_, _>>()?;
    let tables = signature_tables(airs, &witnesses, statement.padded_len(), Shape::of::<S>())?;
    let range = crate::trace::range_trace(&tables.range_values);
    Ok(vec![sig.trace(), tables.digits, tables.chain, tables.hash, range])
}

/// The traces of the tables that verify signatures, and the values they
/// look up in the range table.
pub(super) struct SignatureTables {
    pub digits: RowMajorMatrix<Val>,
    pub chain: RowMajorMatrix<Val>,
    pub hash: RowMajorMatrix<Val>,
    pub range_values: Vec<u32>,
}

/// The digit, chain and hash traces of `n` slots (`airs` in batch order,
/// as [`airs`] gives them): slot `s` holds `witnesses[s]`, slots past them
/// repeat the last one. Fails with the first slot whose tree does not
/// reach its key's root.
pub(super) fn signature_tables(
    airs: &[LeanAir],
    witnesses: &[SlotWitness],
    n: usize,
    shape: Shape,
) -> Result<SignatureTables, (usize, SignatureError)> {
    let [_, LeanAir::Digits(digits), LeanAir::Chain(chain), LeanAir::Hash(hash), LeanAir::Range(_), ..] = airs else {
        unreachable!("the signature tables, in batch order")
    };
    let last = witnesses.len() - 1;
    let slot = |s: usize| &witnesses[s.min(last)];
    // Groups of `PackedVal::WIDTH` slots, filled in lockstep (one SIMD
    // permutation call per row for the group), groups in parallel.
    type Fill<'a> = dyn Fn(usize, &[&SlotWitness], &mut [&mut [Val]]) + Sync + 'a;
    let blocks = |width: usize, block: usize, fill: &Fill<'_>| {
        let group = <PackedVal as PackedValue>::WIDTH;
        let mut values = Val::zero_vec(n * block * width);
        values.par_chunks_mut(group * block * width).enumerate().for_each(|(g, rows)| {
            let first = g * group;
            let mut blocks: Vec<&mut [Val]> = rows.chunks_mut(block * width).collect();
            let ws: Vec<&SlotWitness> = (first..first + blocks.len()).map(slot).collect();
            fill(first, &ws, &mut blocks);
        });
        RowMajorMatrix::new(values, width)
    };
    let digits_trace = blocks(BaseAir::<Val>::width(digits), shape.digit_block, &|s0, ws, blocks| {
        for (k, (w, rows)) in ws.iter().zip(blocks.iter_mut()).enumerate() {
            digits.fill(s0 + k, w, rows);
        }
    });
    let chain_trace = blocks(BaseAir::<Val>::width(chain), shape.chain_block, &|s0, ws, b| chain.fill_group(s0, ws, b));
    let hash_trace = blocks(BaseAir::<Val>::width(hash), shape.hash_block, &|s0, ws, b| hash.fill_group(s0, ws, b));
    let block = shape.hash_block * hash_trace.width;
    if let Some(s) = (0..=last)
        .find(|&s| hash.top_digest(&hash_trace.values[s * block..(s + 1) * block]) != witnesses[s].public.root)
    {
        return Err((s, SignatureError::RootMismatch));
    }
    let range_values: Vec<u32> = DigitAir::range_values(&digits_trace.values)
        .into_iter()
        .chain(chain_range_values(&chain_trace))
        .map(|v| v.as_canonical_u32())
        .collect();
    Ok(SignatureTables { digits: digits_trace, chain: chain_trace, hash: hash_trace, range_values })
}

/// The values the chain table looks up in the 16-bit range table, row by
/// row: `w_lo`, `w_hi` and `2^8 w_hi` ([`sigagg_prover::gadgets::range::lookup_below`]).
fn chain_range_values(trace: &RowMajorMatrix<Val>) -> impl Iterator<Item = Val> + '_ {
    trace.values.chunks(trace.width).flat_map(|row| {
        let cols = ChainCols::from_slice(&row[..chain::col::WIDTH]);
        [cols.w_lo, cols.w_hi, cols.w_hi * Val::from_u32(1 << 8)]
    })
}

/// The security level `settings` states for an aggregate of
/// `num_signatures` signatures of `S`, computed from `S`'s tables
/// (`sigagg_prover::security_level`).
pub fn security_level<S: LeanFamily>(settings: &Settings, num_signatures: usize) -> sigagg_prover::SecurityLevel {
    let padded = num_signatures.next_power_of_two().max(crate::statement::MIN_PADDED);
    let airs = airs_for_shape::<S>(settings, padded);
    system::security_level(settings, &airs, log_heights::<S>(padded))
}

/// Hooks for soundness tests: build traces, tamper with them, prove anyway.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing {
    use super::*;

    /// The traces of a statement and its signatures under `settings`, in
    /// batch order.
    pub fn traces<S: LeanFamily>(
        settings: &Settings,
        statement: &AggregateStatement<S>,
        signatures: &[Signature<S>],
    ) -> Vec<RowMajorMatrix<Val>> {
        generate(&airs(settings, statement), statement, signatures).expect("valid signatures")
    }

    /// Proves (possibly tampered) traces without checking them first.
    pub fn prove_traces<S: LeanFamily>(
        settings: &Settings,
        statement: &AggregateStatement<S>,
        traces: Vec<RowMajorMatrix<Val>>,
    ) -> Result<Proof, ProveError> {
        super::prove_traces(settings, statement, &airs(settings, statement), traces)
    }
}
