//! The multilinear backend ([`Backend::Whir`](crate::config::Backend::Whir)):
//! Plonky3's SuperSpartan-style AIR prover (`p3-multi-stark`: a zerocheck
//! over the boolean hypercube, LogUp buses by fractional GKR, every table
//! stacked into one polynomial) with the WHIR polynomial commitment
//! (`p3-whir`) over SHA-256 Merkle trees, in the Johnson-bound regime.
//!
//! Only the main traces are committed: the buses need no committed
//! columns (fractional GKR reduces them to openings of the traces), and
//! there is no quotient. The WHIR parameters follow from the settings and
//! the statement's shape (the stacked arity), so prover and verifier build
//! the same configuration without reading anything from the proof:
//!
//! * the first codeword has rate `2^-log_blowup`; round `i` commits at
//!   `2^-(log_blowup + rate_step * (i + 1))` (`Settings::WHIR` steps by 1,
//!   the schedule measured fastest; `Settings::WHIR_COMPACT` by 3, for
//!   fewer queries);
//! * the first round folds `2^first_log_arity` (capped at the shortest
//!   table, which the prover must not pad), later rounds `2^max_log_arity`;
//! * queries are sized by `p3-whir` so that each of its error terms stays
//!   below `2^-target_bits` with `query_pow_bits` of grinding; the level
//!   the backend states is the composed one of `p3-multi-stark`'s
//!   security report (AIR, LogUp, opening and collision terms together).

mod prover;
mod verifier;

pub use prover::UNBALANCED_BUS;
pub(crate) use prover::{panic_message, prove};
pub(crate) use verifier::verify;

use std::borrow::Cow;

use p3_air::{Air, AirBuilder, BaseAir, BoundaryPublic};
use p3_challenger::{CanObserve, CanSampleUniformBits, FieldChallenger, GrindingChallenger};
use p3_commit::Mmcs;
use p3_dft::Radix2DFTSmallBatch;
use p3_field::ExtensionField;
use p3_matrix::dense::RowMajorMatrix;
use p3_multi_stark::config::MultiStarkConfig;
use p3_multi_stark::{
    MultiStarkProof, MultiStarkSecurityReport, VerifierInstance, VerifierInstances, security_report, setup,
};
use p3_sumcheck::layout::{Layout, PrefixProver, Table as TraceTable, TableShape, Witness, plan_stacked_layout};
use p3_whir::{
    FoldingFactor, ProtocolParameters, QueryOpenings, SecurityAssumption, WhirConfig, WhirProver, WhirProverData,
};
use serde::{Deserialize, Serialize};

use crate::codec;
use crate::config::{
    Challenge, Challenger, MerkleHash, Val, ValMmcs, ValMmcs31, WhirSettings, transcript, val_mmcs, val_mmcs31,
};
use crate::security::SecurityLevel;
use crate::table::{Table, Tables};

pub(crate) type Stacking = PrefixProver<Val, Challenge>;
/// The WHIR commitment over the Merkle trees `M`, tables stacked by the
/// layout `L` (by prefix unless named), transcribed by `C` (SHA-256's
/// unless named).
pub(crate) type Pcs<M, L = Stacking, C = Challenger> = WhirProver<Challenge, Val, Radix2DFTSmallBatch<Val>, M, C, L>;

/// What WHIR asks of its Fiat-Shamir transcript (SHA-256's or Poseidon2's).
pub trait WhirTranscript: FieldChallenger<Val> + GrindingChallenger<Witness = Val> + CanSampleUniformBits<Val> {}

impl<T: FieldChallenger<Val> + GrindingChallenger<Witness = Val> + CanSampleUniformBits<Val>> WhirTranscript for T {}

/// A multilinear STARK over one WHIR commitment, tagged with the Merkle
/// hash of its commitment (full-width SHA-256 or its 31-byte truncation:
/// [`MerkleHash::Sha256Trunc31`]).
#[derive(Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)] // one proof per call
pub enum WhirProof {
    /// Full-width SHA-256 commitments.
    Sha256(WhirBody<ValMmcs>),
    /// SHA-256 commitments truncated to 31 bytes.
    Sha256Trunc31(WhirBody<ValMmcs31>),
}

/// The proof with the table heights it claims (checked against the
/// statement's before anything else).
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct WhirBody<M: Mmcs<Val>>
where
    Challenger: CanObserve<M::Commitment>,
{
    log_heights: Vec<usize>,
    proof: MultiStarkProof<WhirStark<M>>,
}

/// Runs `$e` on the body of `$proof`, whichever its hash (the two bodies'
/// types differ only in the digest).
macro_rules! on_body {
    ($proof:expr, $b:ident => $e:expr) => {
        match $proof {
            WhirProof::Sha256($b) => $e,
            WhirProof::Sha256Trunc31($b) => $e,
        }
    };
}

impl WhirProof {
    /// The Merkle hash of the commitment.
    pub fn merkle(&self) -> MerkleHash {
        match self {
            Self::Sha256(_) => MerkleHash::Sha256,
            Self::Sha256Trunc31(_) => MerkleHash::Sha256Trunc31,
        }
    }

    /// log2 of every table height, as the proof claims them.
    pub fn degree_bits(&self) -> &[usize] {
        on_body!(self, b => &b.log_heights)
    }

    /// Where the proof's bytes go: each WHIR round's queried rows and
    /// Merkle multiproof (round 0 opens the committed traces), the rest of
    /// the opening (the columns' claimed evaluations, WHIR's sumchecks and
    /// final polynomial), the AIR sumcheck, and the buses' GKR layers with
    /// the commitment.
    pub fn size_breakdown(&self) -> Vec<(String, usize)> {
        on_body!(self, b => {
            // Counted in bits, reported in bytes.
            let total = codec::encoded_bits(&b.proof);
            let opening = codec::encoded_bits(&b.proof.opening);
            let sumcheck = codec::encoded_bits(&b.proof.sumcheck);
            let whir = &b.proof.opening.whir;
            let mut parts = Vec::new();
            let mut queried = 0;
            let rounds = whir.rounds.iter().map(|r| &r.openings).chain([&whir.final_openings]);
            for (round, openings) in rounds.enumerate() {
                let (queries, rows, paths) = match openings {
                    QueryOpenings::Base(o) => (o.rows.len(), codec::encoded_bits(&o.rows), codec::encoded_bits(&o.proof)),
                    QueryOpenings::Extension(o) => (o.rows.len(), codec::encoded_bits(&o.rows), codec::encoded_bits(&o.proof)),
                };
                parts.push((format!("WHIR round {round}: {queries} queried rows"), rows));
                parts.push((format!("WHIR round {round}: Merkle multiproof"), paths));
                queried += rows + paths;
            }
            parts.push(("evaluations, WHIR sumchecks, final polynomial".into(), opening - queried));
            parts.push(("AIR sumcheck".into(), sumcheck));
            parts.push(("commitment, buses".into(), total - opening - sumcheck));
            codec::in_bytes(parts)
        })
    }

    /// The parts of the encoding in bits, for byte-flip tests: the hash tag, the
    /// claimed heights, then the proof (its inner layout is
    /// `p3-multi-stark`'s).
    pub fn body_layout(&self) -> Vec<(&'static str, usize)> {
        on_body!(self, b => vec![
            ("merkle hash tag", 8),
            ("table heights", codec::encoded_bits(&b.log_heights)),
            ("multilinear proof", codec::encoded_bits(&b.proof)),
        ])
    }
}

/// A table as the multilinear backend proves it: the same AIR without its
/// degree hint. The hint is the univariate one (periodic columns add no
/// degree to a quotient over their coset); over the hypercube a periodic
/// column is a multilinear polynomial like any other, so a constraint's
/// degree counts it, and `p3-multi-stark` derives the degree from the
/// symbolic constraints instead.
struct Multilinear<'a, A>(&'a A);

impl<A: BaseAir<Val>> BaseAir<Val> for Multilinear<'_, A> {
    fn width(&self) -> usize {
        self.0.width()
    }

    fn preprocessed_trace(&self) -> Option<RowMajorMatrix<Val>> {
        self.0.preprocessed_trace()
    }

    fn preprocessed_width(&self) -> usize {
        self.0.preprocessed_width()
    }

    fn num_periodic_columns(&self) -> usize {
        self.0.num_periodic_columns()
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        self.0.periodic_columns()
    }

    fn periodic_evaluations<EF: ExtensionField<Val>>(&self, point: &[EF]) -> Option<Vec<EF>> {
        self.0.periodic_evaluations(point)
    }

    fn main_next_row_columns(&self) -> Vec<usize> {
        self.0.main_next_row_columns()
    }

    fn preprocessed_next_row_columns(&self) -> Vec<usize> {
        self.0.preprocessed_next_row_columns()
    }

    fn num_constraints(&self) -> Option<usize> {
        self.0.num_constraints()
    }

    fn num_public_values(&self) -> usize {
        self.0.num_public_values()
    }

    fn public_boundary_io(&self) -> &[BoundaryPublic] {
        self.0.public_boundary_io()
    }

    fn assumes_boolean_trace(&self) -> bool {
        self.0.assumes_boolean_trace()
    }

    fn boolean_columns(&self) -> usize {
        self.0.boolean_columns()
    }
}

impl<AB: AirBuilder<F = Val>, A: Air<AB>> Air<AB> for Multilinear<'_, A> {
    fn eval(&self, builder: &mut AB) {
        self.0.eval(builder);
    }
}

/// The tables of a statement, as the multilinear backend proves them.
fn multilinear<'a, A>(tables: &Tables<'a, A>) -> Vec<Multilinear<'a, A>> {
    tables.airs.iter().map(Multilinear).collect()
}

/// `p3-multi-stark`'s configuration: the WHIR commitment over the Merkle
/// trees `M` (of the hash `merkle`), and the first folding, which is also
/// the floor on table heights.
pub struct WhirStark<M: Mmcs<Val>> {
    pcs: Pcs<M>,
    merkle: MerkleHash,
    first_log_arity: usize,
}

impl<M: Mmcs<Val>> MultiStarkConfig for WhirStark<M>
where
    Challenger: CanObserve<M::Commitment>,
{
    type Val = Val;
    type Challenge = Challenge;
    type Challenger = Challenger;
    type Pcs = Pcs<M>;

    fn pcs(&self) -> &Pcs<M> {
        &self.pcs
    }

    /// Half the digest (birthday bound): 128 bits for SHA-256, 124 for its
    /// 31-byte truncation.
    fn collision_resistance_bits(&self) -> Option<usize> {
        Some(self.merkle.collision_bits())
    }

    fn min_num_variables(&self) -> usize {
        self.first_log_arity
    }

    fn build_witness(&self, tables: Vec<TraceTable<Val>>) -> Witness<Val> {
        Stacking::new_witness(tables, self.first_log_arity)
    }

    fn committed_table<'a>(
        &self,
        prover_data: &'a WhirProverData<Val, Challenge, M, Stacking>,
        table_index: usize,
    ) -> &'a TraceTable<Val> {
        prover_data.table(table_index)
    }
}

/// log2 of the stacked polynomial WHIR commits for tables of these
/// `(log2 height, width)` shapes (what an aggregator compares to keep a
/// layout change from doubling the commitment).
pub fn stacked_log_size(shapes: &[(usize, usize)]) -> usize {
    let shapes: Vec<TableShape> = shapes.iter().map(|&(h, w)| TableShape::new(h, w)).collect();
    plan_stacked_layout(&shapes).0
}

/// The configuration `settings` give for `tables`, committing with the
/// Merkle trees `mmcs`: the stacked arity and the first folding follow
/// from the table shapes.
///
/// # Errors
/// If WHIR has no parameters for this shape (a stacked polynomial too large
/// for KoalaBear's two-adic domain at the settings' rate).
fn config<A: Table, M: Mmcs<Val>>(
    settings: &WhirSettings,
    tables: &Tables<'_, A>,
    mmcs: M,
) -> Result<WhirStark<M>, String> {
    let shapes: Vec<(usize, usize)> =
        tables.airs.iter().zip(&tables.log_heights).map(|(air, &h)| (h, air.width())).collect();
    let (pcs, first_log_arity) = whir_pcs(settings, &shapes, mmcs)?;
    Ok(WhirStark { pcs, merkle: settings.merkle, first_log_arity })
}

/// `p3-multi-stark`'s configuration under `settings` for tables of these
/// `(log2 height, width)` shapes, with full-width SHA-256 trees: for
/// examples that time `p3-multi-stark` on AIRs no aggregator proves.
///
/// # Errors
/// As [`whir_pcs`].
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub fn sha256_config(settings: &WhirSettings, shapes: &[(usize, usize)]) -> Result<WhirStark<ValMmcs>, String> {
    let (pcs, first_log_arity) = whir_pcs(settings, shapes, val_mmcs(0))?;
    Ok(WhirStark { pcs, merkle: MerkleHash::Sha256, first_log_arity })
}

/// The WHIR commitment `settings` give for tables of these
/// `(log2 height, width)` shapes, over the Merkle trees `mmcs`, and its
/// first folding (also the floor on table heights: the commitment pads a
/// shorter table, which moves its repeat-last successor row into the pad).
///
/// # Errors
/// If WHIR has no parameters for this shape (a stacked polynomial too large
/// for KoalaBear's two-adic domain at the settings' rate).
pub(crate) fn whir_pcs<M: Mmcs<Val>, L: Layout<Val, Challenge>, C: WhirTranscript>(
    settings: &WhirSettings,
    shapes: &[(usize, usize)],
    mmcs: M,
) -> Result<(Pcs<M, L, C>, usize), String> {
    let (whir, first_log_arity) = whir_config(settings, shapes)?;
    Ok((Pcs::new(whir, Radix2DFTSmallBatch::default(), mmcs), first_log_arity))
}

/// The WHIR configuration of [`whir_pcs`] and its first folding: public
/// for the verifier circuit (`sigagg-recursion`), whose shape it fixes.
///
/// # Errors
/// As [`whir_pcs`].
pub fn whir_config<C: WhirTranscript>(
    settings: &WhirSettings,
    shapes: &[(usize, usize)],
) -> Result<(WhirConfig<Challenge, Val, C>, usize), String> {
    let stacked = stacked_log_size(shapes);
    let shortest = shapes.iter().map(|&(h, _)| h).min().unwrap_or(0);
    let first_log_arity = settings.first_log_arity.min(shortest).max(1);
    let folding_factor = FoldingFactor::ConstantFromSecondRound(first_log_arity, settings.max_log_arity);
    let rounds = folding_factor.compute_folding_schedule(stacked).map_err(|e| format!("{e:?}"))?.len() - 1;
    let params = ProtocolParameters {
        security_level: settings.target_bits,
        pow_bits: settings.query_pow_bits,
        round_log_inv_rates: (0..rounds).map(|i| settings.log_blowup + settings.rate_step * (i + 1)).collect(),
        folding_factor,
        soundness_type: SecurityAssumption::JohnsonBound,
        starting_log_inv_rate: settings.log_blowup,
    };
    Ok((WhirConfig::new(stacked, params).map_err(|e| format!("{e:?}"))?, first_log_arity))
}

/// Why the multilinear backends (this one and [`crate::skip_stark`])
/// refuse settings naming `merkle`.
pub(crate) fn unsupported(merkle: MerkleHash) -> String {
    format!("this backend commits with SHA-256 or its 31-byte truncation (our own also with Poseidon2), not {merkle:?}")
}

/// Runs `f` on the verifier's view of `tables`: their AIRs, heights and
/// public values, against the verifying key of `config`'s setup.
fn with_verifier_instances<A: Table, M, R>(
    config: &WhirStark<M>,
    tables: &Tables<'_, A>,
    f: impl FnOnce(VerifierInstances<'_, WhirStark<M>, Multilinear<'_, A>>) -> R,
) -> Result<R, String>
where
    M: Mmcs<Val>,
    Challenger: CanObserve<M::Commitment>,
{
    let tables_ml = multilinear(tables);
    let airs: Vec<&Multilinear<'_, A>> = tables_ml.iter().collect();
    let (_, vk) = setup(config, &airs, &mut transcript(Vec::new())).map_err(|e| format!("{e:?}"))?;
    let instances = tables_ml
        .iter()
        .zip(&tables.log_heights)
        .zip(&tables.public_values)
        .map(|((air, &h), public_values)| VerifierInstance::new(air, &vk, h, public_values))
        .collect();
    Ok(f(VerifierInstances::new(instances)))
}

/// The level `p3-multi-stark`'s security report states for `tables` under
/// `settings` (Johnson-bound WHIR: a proven bound, in the random-oracle
/// model for SHA-256 and its Fiat-Shamir transcript). No separate
/// conjectured figure is computed: the conjectured level is at least the
/// proven one, and is reported as such.
pub(crate) fn level<A: Table>(settings: &WhirSettings, tables: &Tables<'_, A>) -> SecurityLevel {
    // The report depends on the hash only through its collision term.
    fn report<A: Table, M>(
        settings: &WhirSettings,
        tables: &Tables<'_, A>,
        mmcs: M,
    ) -> Result<MultiStarkSecurityReport, String>
    where
        M: Mmcs<Val>,
        Challenger: CanObserve<M::Commitment>,
    {
        let config = config(settings, tables, mmcs)?;
        with_verifier_instances(&config, tables, |instances| {
            security_report(&config, &instances).map_err(|e| e.to_string())
        })
        .and_then(|report| report)
    }
    let report = match settings.merkle {
        MerkleHash::Sha256 => report(settings, tables, val_mmcs(0)),
        MerkleHash::Sha256Trunc31 => report(settings, tables, val_mmcs31(0)),
        other => Err(unsupported(other)),
    };
    match report {
        Ok(report) => {
            let bits = report.security_bits().unwrap_or(0.0);
            let binding = report
                .terms()
                .iter()
                .min_by(|a, b| a.bits.bits().total_cmp(&b.bits.bits()))
                .map_or_else(|| "none".to_string(), |t| t.label.to_string());
            SecurityLevel::proven_only(bits, binding)
        }
        Err(reason) => SecurityLevel::none(reason),
    }
}
