//! The family's tables as the backends see them: one AIR enum, its lookups,
//! and the transcript domain of its proofs.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use p3_lookup::Lookups;
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_util::log2_strict_usize;
use sigagg_prover::{StarkProof, Table, Tables, fold_lookups};

use super::air::{chain, digits, hash24, sig};
use crate::air::{group, range};
use crate::config::{Settings, Val};
use crate::error::{ProveError, VerifyError};

/// Domain separator of the family's transcript seeds (the statement digest
/// that follows names the parameter set, [`crate::scheme::AggScheme::STATEMENT_DOMAIN`]).
pub const TRANSCRIPT_DOMAIN: &[u8] = b"sigagg/xmss-agg/leansig/transcript/v1";

sigagg_prover::air_enum! {
    /// One AIR of a leanSig-family batch.
    #[derive(Clone, Debug)]
    pub enum LeanAir {
        /// Statement table.
        Sig(sig::SigAir),
        /// Digit table.
        Digits(digits::DigitAir),
        /// Chain-step table.
        Chain(chain::ChainAir),
        /// Width-24 hash table.
        Hash(hash24::HashAir),
        /// Range table.
        Range(range::RangeAir),
        /// Membership table (threshold proofs).
        Group(group::GroupAir),
    }
}

impl LeanAir {
    /// The largest constraint degree: 3, or the Poseidon1 blocks' when
    /// they commit every second full round.
    pub fn degree(&self) -> usize {
        match self {
            LeanAir::Chain(a) => a.perm().degree(),
            LeanAir::Hash(a) => a.perm().degree(),
            LeanAir::Group(a) => a.perm().degree(),
            _ => 3,
        }
    }
}

impl Table for LeanAir {
    const BUS_WIDTH: usize = crate::bus::WIDTH;

    fn degree(&self) -> usize {
        LeanAir::degree(self)
    }

    /// The lookups depend on the tables' shapes only (the set's depth and
    /// chains, the stride), not on the statement's values: folded once per
    /// process and shape.
    fn lookups(airs: &[Self]) -> Vec<Lookups<Val>> {
        type Cache = Mutex<HashMap<Vec<usize>, Vec<Lookups<Val>>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let key: Vec<usize> = airs
            .iter()
            .flat_map(|a| {
                [p3_air::BaseAir::<Val>::width(a), a.degree(), p3_air::BaseAir::<Val>::num_periodic_columns(a)]
            })
            .collect();
        let cache = CACHE.get_or_init(Default::default);
        if let Some(found) = cache.lock().expect("lookup cache").get(&key) {
            return found.clone();
        }
        let folded = fold_lookups(airs, LeanAir::degree);
        cache.lock().expect("lookup cache").insert(key, folded.clone());
        folded
    }
}

/// The tables of a statement for the backends.
pub fn tables<'a>(airs: &'a [LeanAir], log_heights: Vec<usize>, statement_digest: &[u8; 32]) -> Tables<'a, LeanAir> {
    Tables::new(airs, log_heights, TRANSCRIPT_DOMAIN, *statement_digest)
}

/// Proves `traces` (one per AIR, in batch order) for the statement bound
/// by `statement_digest`. Not generic over the parameter set, so the
/// backends are compiled once, here, not again in every crate that proves
/// a set of the family.
pub fn prove(
    settings: &Settings,
    airs: &[LeanAir],
    statement_digest: &[u8; 32],
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<StarkProof, ProveError> {
    let log_heights: Vec<usize> = traces.iter().map(|m| log2_strict_usize(m.height())).collect();
    sigagg_prover::prove(settings, &tables(airs, log_heights, statement_digest), traces)
        .map_err(|e| ProveError::Prover(e.0))
}

/// [`prove`] from column-major traces (row `c` of each matrix is column
/// `c`, [`sigagg_prover::prove_column_major`]).
pub fn prove_column_major(
    settings: &Settings,
    airs: &[LeanAir],
    statement_digest: &[u8; 32],
    columns: Vec<RowMajorMatrix<Val>>,
) -> Result<StarkProof, ProveError> {
    let log_heights: Vec<usize> = columns.iter().map(|m| log2_strict_usize(m.width)).collect();
    sigagg_prover::prove_column_major(settings, &tables(airs, log_heights, statement_digest), columns)
        .map_err(|e| ProveError::Prover(e.0))
}

/// Verifies `proof` against `airs` at the heights the statement fixes
/// (`expected`, log2), never the proof's own.
pub fn verify(
    settings: &Settings,
    airs: &[LeanAir],
    expected: Vec<usize>,
    statement_digest: &[u8; 32],
    proof: &StarkProof,
) -> Result<(), VerifyError> {
    Ok(sigagg_prover::verify(settings, &tables(airs, expected, statement_digest), proof)?)
}

/// The security level `settings` states for `airs` at `log_heights`.
pub fn security_level(settings: &Settings, airs: &[LeanAir], log_heights: Vec<usize>) -> sigagg_prover::SecurityLevel {
    sigagg_prover::security_level(settings, &tables(airs, log_heights, &[0; 32]))
}
