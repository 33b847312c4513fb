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
    let stark = system::prove_column_major(settings, &airs, &statement.digest(), traces)?;
    Ok(proof::<S>(settings, statement, stark))
}

/// Proves already generated traces (no validity checks).
#[cfg(any(test, feature = "testing"))]
fn prove_traces<S: LeanFamily>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    airs: &[LeanAir],
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<Proof, ProveError> {
    let stark = system::prove(settings, airs, &statement.digest(), traces)?;
    Ok(proof::<S>(settings, statement, stark))
}

/// The aggregate proof of `statement` made of `stark`.
fn proof<S: LeanFamily>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
    stark: sigagg_prover::StarkProof,
) -> Proof {
    Proof {
        kind: ProofKind::Aggregate,
        set: S::ID,
        settings: *settings,
        count: statement.len() as u32,
        signers: None,
        stark,
    }
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

/// What a verifier circuit of an aggregate proof reads of its statement
/// under `settings` (`sigagg-merge`): the AIRs in batch order, their
/// heights (log2, from the statement) and the transcript's seed.
pub fn verifier_view<S: LeanFamily>(
    settings: &Settings,
    statement: &AggregateStatement<S>,
) -> (Vec<LeanAir>, Vec<usize>, Vec<u8>) {
    let airs = airs(settings, statement);
    let heights = log_heights::<S>(statement.padded_len());
    let seed = system::tables(&airs, heights.clone(), &statement.digest()).transcript_seed(settings);
    (airs, heights, seed)
}

/// What a verifier reads of an aggregate of `signers` signers whose
/// statement it knows only by its digest (as the Seed001 aggregate's
/// `placeholder_view`): the tables with every statement column zero, their
/// heights and the transcript's seed.
pub fn placeholder_view<S: LeanFamily>(
    settings: &Settings,
    signers: usize,
    digest: &[u8; 32],
) -> (Vec<LeanAir>, Vec<usize>, Vec<u8>) {
    let padded = crate::statement::padded_len(signers);
    let airs = airs_for_shape::<S>(settings, padded);
    let heights = log_heights::<S>(padded);
    let seed = system::tables(&airs, heights.clone(), digest).transcript_seed(settings);
    (airs, heights, seed)
}

/// Every trace, in batch order, column-major (row `c` of each matrix is
/// column `c`). `signatures[i]` should sign
/// `statement.entries()[i]`; padded slots repeat the last entry and
/// signature. Fails with the first slot whose signature does not verify.
fn generate<S: LeanFamily>(
    airs: &[LeanAir],
    statement: &AggregateStatement<S>,
    signatures: &[Signature<S>],
) -> Result<Vec<RowMajorMatrix<Val>>, (usize, SignatureError)> {
    let LeanAir::Sig(sig) = &airs[0] else { unreachable!("the statement table comes first") };
    let mut witnesses: Vec<SlotWitness> = crate::trace::first_error_in_order(
        (0..statement.len())
            .into_par_iter()
            .map(|s| SlotWitness::unwalked(&statement.entries()[s], &signatures[s]).map_err(|e| (s, e))),
    )?;
    let tables = signature_tables(airs, &mut witnesses, statement.padded_len(), Shape::of::<S>())?;
    let range = crate::trace::range_trace(&tables.range_values);
    Ok(vec![sig.trace().transpose(), tables.digits, tables.chain, tables.hash, range.transpose()])
}

/// The traces of the tables that verify signatures, column-major (row
/// `c` of each matrix is column `c`), and the values they look up in the
/// range table.
pub(super) struct SignatureTables {
    pub digits: RowMajorMatrix<Val>,
    pub chain: RowMajorMatrix<Val>,
    pub hash: RowMajorMatrix<Val>,
    pub range_values: Vec<u32>,
}

/// The digit, chain and hash traces of `n` slots (`airs` in batch order,
/// as [`airs`] gives them), column-major: slot `s` holds `witnesses[s]`,
/// slots past them repeat the last one. The witnesses may come
/// [`SlotWitness::unwalked`]: their chain ends are set from the chain
/// table's rows. Fails with the first slot whose tree does not reach its
/// key's root.
pub(super) fn signature_tables(
    airs: &[LeanAir],
    witnesses: &mut [SlotWitness],
    n: usize,
    shape: Shape,
) -> Result<SignatureTables, (usize, SignatureError)> {
    let [_, LeanAir::Digits(digits), LeanAir::Chain(chain), LeanAir::Hash(hash), LeanAir::Range(_), ..] = airs else {
        unreachable!("the signature tables, in batch order")
    };
    let last = witnesses.len() - 1;
    let table = Blocks { witnesses, n };
    let digit_width = BaseAir::<Val>::width(digits);
    let fill_digits: &Fill<'_, ()> = &|s0, ws, blocks| {
        for (k, (w, rows)) in ws.iter().zip(blocks.iter_mut()).enumerate() {
            digits.fill(s0 + k, w, rows);
        }
    };
    let (digits_trace, digit_values, _) =
        table.fill(digit_width, shape.digit_block, fill_digits, &|_, rows| (None, DigitAir::range_values(rows)));
    let chain_width = BaseAir::<Val>::width(chain);
    let (chain_trace, chain_values, ends) =
        table.fill(chain_width, shape.chain_block, &|s0, ws, b| chain.fill_group(s0, ws, b), &|_, rows| {
            (None, chain_range_values(rows, chain_width).collect())
        });
    for (w, ends) in witnesses.iter_mut().zip(ends.into_iter().flatten()) {
        w.ends = ends;
    }
    let table = Blocks { witnesses, n };
    let hash_width = BaseAir::<Val>::width(hash);
    let block = shape.hash_block * hash_width;
    let root_differs = |s0: usize, rows: &[Val]| {
        let wrong = rows.chunks(block).enumerate().map(|(k, b)| (s0 + k, b));
        let wrong = wrong.filter(|&(s, _)| s <= last).find(|&(s, b)| hash.top_digest(b) != witnesses[s].public.root);
        (wrong.map(|(s, _)| s), Vec::new())
    };
    let (hash_trace, roots, _) =
        table.fill(hash_width, shape.hash_block, &|s0, ws, b| hash.fill_group(s0, ws, b), &root_differs);
    if let Some(s) = roots.into_iter().find_map(|(wrong, _)| wrong) {
        return Err((s, SignatureError::RootMismatch));
    }
    let range_values = [digit_values, chain_values]
        .into_iter()
        .flatten()
        .flat_map(|(_, values)| values)
        .map(|v| v.as_canonical_u32())
        .collect();
    Ok(SignatureTables { digits: digits_trace, chain: chain_trace, hash: hash_trace, range_values })
}

/// The slots of a table: `n` blocks, slot `s` filled from `witnesses[s]`
/// (the last one past them).
struct Blocks<'a> {
    witnesses: &'a [SlotWitness],
    n: usize,
}

/// Fills the blocks of up to `PackedVal::WIDTH` consecutive slots from
/// the first slot's index and their witnesses; returns what the table
/// computes on the way (the chain table: each slot's chain ends).
type Fill<'a, T> = dyn Fn(usize, &[&SlotWitness], &mut [&mut [Val]]) -> T + Sync + 'a;
/// What [`Inspect`] finds in a group: the first slot found wrong, and
/// values the group looks up.
type Found = (Option<usize>, Vec<Val>);
/// Reads a group's rows (row-major, from its first slot's index).
type Inspect<'a> = dyn Fn(usize, &[Val]) -> Found + Sync + 'a;

impl Blocks<'_> {
    /// The table of `width` columns and `block` rows a slot, column-major,
    /// and what `inspect` finds and `fill` returns for each group of slots,
    /// in order. Groups of
    /// `PackedVal::WIDTH` slots are filled in lockstep (one SIMD
    /// permutation call per row for the group) into a row-major scratch,
    /// inspected, and written into their rows of every column; groups run
    /// in parallel. So the row-major table never exists.
    fn fill<T: Send>(
        &self,
        width: usize,
        block: usize,
        fill: &Fill<'_, T>,
        inspect: &Inspect<'_>,
    ) -> (RowMajorMatrix<Val>, Vec<Found>, Vec<T>) {
        let Blocks { witnesses, n } = *self;
        let slot = |s: usize| &witnesses[s.min(witnesses.len() - 1)];
        let group = <PackedVal as PackedValue>::WIDTH;
        let (height, group_rows) = (n * block, group * block);
        let mut values = Val::zero_vec(width * height);
        // Each group's piece of every column, gathered first so that the
        // groups write disjoint slices in parallel.
        let mut pieces: Vec<Vec<&mut [Val]>> =
            (0..height.div_ceil(group_rows)).map(|_| Vec::with_capacity(width)).collect();
        for column in values.chunks_mut(height) {
            for (g, piece) in column.chunks_mut(group_rows).enumerate() {
                pieces[g].push(piece);
            }
        }
        let (found, filled): (Vec<Found>, Vec<T>) = pieces
            .into_par_iter()
            .enumerate()
            .map(|(g, mut columns)| {
                let (first, rows) = (g * group, columns[0].len());
                let mut scratch = Val::zero_vec(rows * width);
                let mut blocks: Vec<&mut [Val]> = scratch.chunks_mut(block * width).collect();
                let ws: Vec<&SlotWitness> = (first..first + blocks.len()).map(slot).collect();
                let filled = fill(first, &ws, &mut blocks);
                for (c, column) in columns.iter_mut().enumerate() {
                    column.iter_mut().zip(scratch[c..].iter().step_by(width)).for_each(|(cell, &v)| *cell = v);
                }
                (inspect(first, &scratch), filled)
            })
            .unzip();
        (RowMajorMatrix::new(values, height), found, filled)
    }
}

/// The values the chain table's `rows` (row-major) look up in the 16-bit
/// range table, row by row (`width` cells a row): `w_lo`, `w_hi` and `2^8 w_hi`
/// ([`sigagg_prover::gadgets::range::lookup_below`]).
fn chain_range_values(rows: &[Val], width: usize) -> impl Iterator<Item = Val> + '_ {
    rows.chunks(width).flat_map(|row| {
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
        let columns = generate(&airs(settings, statement), statement, signatures).expect("valid signatures");
        columns.iter().map(RowMajorMatrix::transpose).collect()
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
