//! A multilinear STARK of our own around the skip zerocheck
//! ([`crate::zerocheck`]) and a LogUp bus argument ([`crate::logup`]):
//! the backend [`Backend::Skip`](crate::config::Backend::Skip)
//! (`Settings::WHIR_SKIP`), issue 21 §2's prover.
//!
//! # The protocol
//!
//! 1. Every table is committed in one stacked WHIR commitment (the same
//!    configuration [`crate::whir`] uses: [`crate::whir::whir_pcs`]).
//! 2. The bus argument (LogUp by fractional GKR) leaves each table with
//!    messages a claim on its message terms at a point; each table runs
//!    the skip zerocheck, proving its constraints and that claim
//!    together. It ends at `(z, rho)`: `z` the skip challenge, `rho` the
//!    group coordinates. Its openings are
//!    blends, `sum_c L_c(z) f(c, rho)` over the `2^k` rows `c` of a group,
//!    not evaluations of the committed multilinear polynomial.
//! 3. A `k`-round sumcheck turns the blends into one point. Writing
//!    `g_i(c) = f_i(c, rho)` for the table's columns and successor
//!    columns, the prover proves `sum_c L(c) sum_i gamma^i g_i(c)`
//!    equal to `sum_i gamma^i blend_i` (degree 2 a round, the group's
//!    highest bit first), which leaves `L~(t) sum_i gamma^i f_i(t, rho)`
//!    at a point `t`: the verifier divides by `L~(t)`, its own.
//! 4. WHIR opens every column, and the successor view of each next-row
//!    column, at `(t, rho)`; the verifier checks the batch against step 3.
//!
//! # Soundness
//!
//! A wrong blend survives step 3 with probability at most
//! `(#polynomials + 2k) / |EF|` (the batching challenge, then `k` rounds
//! of degree 2), and a wrong evaluation survives step 4 within WHIR's
//! error. The error terms are in [`SkipStark::security`].
//!
//! # Rows
//!
//! Row `g 2^k + c` is group `g`, position `c`. The zerocheck binds `g`'s
//! bits lowest first, step 3 binds `c`'s highest first; WHIR's points are
//! big-endian (coordinate 0 the row index's top bit), so a table's point
//! is `rho` reversed, then `t`.

use p3_challenger::{CanObserve, FieldChallenger};
use p3_commit::{Mmcs, MultilinearPcs};
use p3_field::{Field, PackedValue, PrimeCharacteristicRing, PrimeField64};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_maybe_rayon::prelude::*;
use p3_multilinear_util::point::Point;
use p3_security::{ErrorBits, SecurityTerm};
use p3_sumcheck::layout::{Layout as _, Table as TraceTable};
use p3_sumcheck::{OpeningBatch, OpeningProtocol, PrescribedPointPcs, TableShape, TableSpec};
use serde::{Deserialize, Serialize};

use crate::codec;
use crate::config::{
    Challenge, Challenger, MerkleHash, PackedVal, Settings, Val, ValMmcs, ValMmcs31, transcript, val_mmcs, val_mmcs31,
};
use crate::error::{ProveError, VerifyError};
use crate::logup::{self, LogUpError, LogUpProof};
use crate::security::SecurityLevel;
use crate::table::{Table, Tables};
use crate::whir::{Pcs, unsupported, whir_pcs};

/// The skip prover's stacking: suffix-first binding, whose committed
/// message is the stacked polynomial as it lies (no transposition) and
/// which keeps no second copy of it.
type Stacking = p3_sumcheck::layout::SuffixProver<Val, Challenge>;
use crate::poly::{eq_table, interpolate, lagrange, row_at};
use crate::zerocheck::{SkipAir, SkipZerocheck, ZerocheckError, ZerocheckPoint, ZerocheckProof, multilinear_degree};

type ExtPacked = <Challenge as p3_field::ExtensionField<Val>>::ExtensionPacking;
type Commitment<M> = <Pcs<M> as MultilinearPcs<Challenge, Challenger>>::Commitment;
type OpeningProof<M> = <Pcs<M> as MultilinearPcs<Challenge, Challenger>>::Proof;
const LANES: usize = PackedVal::WIDTH;

/// A proof: the commitment, each table's zerocheck and reduction, and
/// WHIR's opening of them all.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct SkipStarkProof<M: Mmcs<Val>>
where
    Challenger: CanObserve<M::Commitment>,
{
    /// The stacked commitment to every table.
    pub commitment: Commitment<M>,
    /// The bus argument (absent when no AIR sends a message).
    pub bus: Option<LogUpProof>,
    /// One per table, in the statement's order.
    pub tables: Vec<TableProof>,
    /// The columns at each table's point, and WHIR's proof of them.
    pub opening: OpeningProof<M>,
}

/// What one table adds to a proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableProof {
    /// The skip zerocheck of the table's constraints.
    pub zerocheck: ZerocheckProof,
    /// The reduction of its blends to one point: each round's polynomial
    /// at 0, 1 and 2.
    pub reduction: Vec<[Challenge; 3]>,
}

/// Why a proof is refused.
#[derive(Debug, thiserror::Error)]
pub enum SkipStarkError {
    /// The proof's lengths, or the statement's shapes, do not fit.
    #[error("malformed proof or statement: {0}")]
    Shape(&'static str),
    /// The bus argument fails.
    #[error("bus argument: {0}")]
    Bus(#[from] LogUpError),
    /// A table's zerocheck fails.
    #[error("table {table}: {source}")]
    Zerocheck {
        /// The table.
        table: usize,
        /// Why.
        source: ZerocheckError,
    },
    /// A round of a table's reduction does not match its claim, or its
    /// Lagrange weight vanishes.
    #[error("table {table}: reduction round {round} fails")]
    Reduction {
        /// The table.
        table: usize,
        /// The round (`k` for the weight).
        round: usize,
    },
    /// WHIR refuses the opening.
    #[error("opening: {0}")]
    Opening(String),
    /// The opened columns do not give a table's reduced claim.
    #[error("table {0}: the opened columns do not match the reduction")]
    Openings(usize),
}

/// The prover and verifier for one statement shape: the commitment's
/// configuration, the tables' heights and the skip.
pub struct SkipStark<M: Mmcs<Val>> {
    pcs: Pcs<M, Stacking>,
    first_log_arity: usize,
    skip: usize,
    log_heights: Vec<usize>,
}

impl<M> SkipStark<M>
where
    M: Mmcs<Val>,
    M::ProverData<RowMajorMatrix<Val>>: Clone,
    Challenger: CanObserve<M::Commitment>,
{
    /// The configuration `settings` give for tables of `2^log_heights[i]`
    /// rows and `widths[i]` columns, skipping `skip` variables.
    ///
    /// # Errors
    /// If WHIR has no parameters for the shape, or a table is shorter than
    /// the skip or WHIR's first folding (which pads such a table and moves
    /// its successor row into the pad).
    pub fn new(
        settings: &Settings,
        log_heights: &[usize],
        widths: &[usize],
        skip: usize,
        mmcs: M,
    ) -> Result<Self, String> {
        if log_heights.is_empty() || log_heights.len() != widths.len() {
            return Err("one height and one width per table, at least one table".into());
        }
        if !(1..=crate::zerocheck::MAX_SKIP).contains(&skip) {
            return Err(format!("a skip of 1 ..= {}", crate::zerocheck::MAX_SKIP));
        }
        let shapes: Vec<(usize, usize)> = log_heights.iter().copied().zip(widths.iter().copied()).collect();
        let (pcs, first_log_arity) = whir_pcs(settings, &shapes, mmcs)?;
        if log_heights.iter().any(|&h| h < skip.max(first_log_arity)) {
            return Err("a table shorter than the skip or the first folding".into());
        }
        Ok(Self { pcs, first_log_arity, skip, log_heights: log_heights.to_vec() })
    }

    /// What WHIR opens: per table, every column and the successor view of
    /// its AIR's next-row columns, at one point.
    fn protocol<A: SkipAir>(&self, airs: &[&A]) -> OpeningProtocol {
        let specs = airs
            .iter()
            .zip(&self.log_heights)
            .map(|(air, &h)| {
                let batch = OpeningBatch::new((0..air.width()).collect(), air.main_next_row_columns());
                TableSpec::new(TableShape::new(h, air.width()), vec![batch])
            })
            .collect();
        OpeningProtocol::new(specs).pad_to_min_num_variables(self.first_log_arity)
    }

    /// Proves that each trace satisfies its AIR's constraints. The
    /// challenger must already hold the statement.
    ///
    /// # Errors
    /// A trace of another height or width than the statement's, an AIR
    /// the zerocheck does not support, messages that may count past the
    /// field ([`logup::check_multiplicity_bound`]), or WHIR's refusal.
    pub fn prove<A: SkipAir>(
        &self,
        airs: &[&A],
        traces: &[RowMajorMatrix<Val>],
        challenger: &mut Challenger,
    ) -> Result<SkipStarkProof<M>, String> {
        let shapes_fit = traces.len() == airs.len()
            && airs.len() == self.log_heights.len()
            && traces
                .iter()
                .zip(airs)
                .zip(&self.log_heights)
                .all(|((t, a), &h)| t.height() == 1 << h && t.width == a.width());
        if !shapes_fit {
            return Err("one trace per table, at the statement's heights and widths".into());
        }
        // Before the commitment: a statement the verifier refuses from
        // its shape alone is not worth proving.
        logup::check_multiplicity_bound(airs, &self.log_heights).map_err(|e| e.to_string())?;
        let honest = Witnesses { committed: traces, gkr: traces, shares: traces, zerochecked: traces, reduced: traces };
        self.prove_forged(airs, &honest, challenger)
    }

    /// [`SkipStark::prove`] with each phase run on the traces
    /// [`Witnesses`] names for it: the same traces for an honest proof,
    /// others for the tests' forgeries (each link of the protocol must
    /// catch one).
    fn prove_forged<A: SkipAir>(
        &self,
        airs: &[&A],
        witnesses: &Witnesses<'_>,
        challenger: &mut Challenger,
    ) -> Result<SkipStarkProof<M>, String> {
        let Witnesses { committed, gkr, shares, zerochecked, reduced } = *witnesses;
        let protocol = self.protocol(airs);
        let (commitment, data) = tracing::info_span!("commit").in_scope(|| {
            let tables = tracing::info_span!("column-major traces")
                .in_scope(|| committed.iter().map(|t| TraceTable::new(t.transpose())).collect());
            let witness = Stacking::new_witness(tables, self.first_log_arity);
            self.pcs.commit(witness, challenger).map_err(|e| format!("{e:?}"))
        })?;

        let (bus, claims) =
            match tracing::info_span!("buses").in_scope(|| logup::prove_split(airs, gkr, shares, challenger))? {
                Some((proof, claims)) => (Some(proof), claims),
                None => (None, vec![None; airs.len()]),
            };
        let zerocheck = SkipZerocheck::new(self.skip);
        let mut checked = Vec::with_capacity(airs.len());
        for ((air, trace), claim) in airs.iter().zip(zerochecked).zip(&claims) {
            let _span = tracing::info_span!("zerocheck", rows = trace.height(), width = trace.width).entered();
            checked.push(zerocheck.prove(*air, trace, claim.as_ref(), challenger).map_err(|e| e.to_string())?);
        }
        let mut tables = Vec::with_capacity(airs.len());
        let mut points = Vec::with_capacity(airs.len());
        let reductions = tracing::info_span!("reductions").entered();
        for ((air, trace), (zerocheck, point)) in airs.iter().zip(reduced).zip(checked) {
            let parts = partial_evaluations(trace, &air.main_next_row_columns(), self.skip, &point.rest);
            let (reduction, t) = reduce(self.skip, &point, &parts, challenger);
            points.push(Point::new(point.rest.iter().rev().chain(&t).copied().collect()));
            tables.push(TableProof { zerocheck, reduction });
        }
        drop(reductions);
        let opening = tracing::info_span!("open")
            .in_scope(|| self.pcs.open_at(data, &protocol, &points, challenger))
            .map_err(|e| format!("{e:?}"))?;
        Ok(SkipStarkProof { commitment, bus, tables, opening })
    }

    /// Checks a proof against the AIRs, drawing the same challenges as
    /// the prover from a challenger holding the same statement.
    ///
    /// # Errors
    /// Why the proof is refused.
    pub fn verify<A: SkipAir>(
        &self,
        airs: &[&A],
        proof: &SkipStarkProof<M>,
        challenger: &mut Challenger,
    ) -> Result<(), SkipStarkError> {
        if airs.len() != self.log_heights.len() || proof.tables.len() != airs.len() {
            return Err(SkipStarkError::Shape("one table proof per AIR"));
        }
        if proof.tables.iter().any(|t| t.reduction.len() != self.skip) {
            return Err(SkipStarkError::Shape("reduction rounds"));
        }
        self.pcs.observe_commitment(&proof.commitment, challenger);
        let claims = logup::verify(airs, &self.log_heights, proof.bus.as_ref(), challenger)?
            .unwrap_or_else(|| vec![None; airs.len()]);
        let zerocheck = SkipZerocheck::new(self.skip);
        let mut zero_points = Vec::with_capacity(airs.len());
        for (table, (((air, &h), tp), claim)) in
            airs.iter().zip(&self.log_heights).zip(&proof.tables).zip(&claims).enumerate()
        {
            let point = zerocheck
                .verify(*air, h, &tp.zerocheck, claim.as_ref(), challenger)
                .map_err(|source| SkipStarkError::Zerocheck { table, source })?;
            zero_points.push(point);
        }
        let mut claims = Vec::with_capacity(airs.len());
        let mut points = Vec::with_capacity(airs.len());
        for (table, (tp, point)) in proof.tables.iter().zip(&zero_points).enumerate() {
            let blends: Vec<Challenge> = tp.zerocheck.local.iter().chain(&tp.zerocheck.next).copied().collect();
            let (gamma, t, target) = check_reduction(self.skip, point, &blends, &tp.reduction, challenger)
                .map_err(|round| SkipStarkError::Reduction { table, round })?;
            points.push(Point::new(point.rest.iter().rev().chain(&t).copied().collect()));
            claims.push((gamma, target));
        }
        let protocol = self.protocol(airs);
        let evals = self
            .pcs
            .verify_at(&proof.commitment, &proof.opening, &protocol, &points, challenger)
            .map_err(|e| SkipStarkError::Opening(format!("{e:?}")))?;
        for (table, (batch, &(gamma, target))) in evals.iter().zip(&claims).enumerate() {
            if batch.current().iter().chain(batch.next()).rev().fold(Challenge::ZERO, |acc, &v| acc * gamma + v)
                != target
            {
                return Err(SkipStarkError::Openings(table));
            }
        }
        Ok(())
    }

    /// The proven security of this protocol for `airs`, in bits, and the
    /// terms it is the union of: WHIR's own (Johnson bound), and the
    /// zerochecks' and reductions' field errors, each over WHIR's list of
    /// candidate polynomials; the hash's collision bound is the caller's.
    ///
    /// # Errors
    /// If WHIR states no bound for this configuration or an AIR has no
    /// degree.
    pub fn security<A: SkipAir>(&self, airs: &[&A]) -> Result<(f64, Vec<SecurityTerm>), String> {
        let protocol = self.protocol(airs);
        let mut evidence = self.pcs.prescribed_security(&protocol).ok_or("WHIR states no bound for this protocol")?;
        let field_bits = 5.0 * (Val::ORDER_U64 as f64).log2();
        let k = self.skip;
        let group = 1usize << k;
        for (air, &h) in airs.iter().zip(&self.log_heights) {
            let d = multilinear_degree(*air).ok_or("an AIR without a multilinear degree")?.max(1);
            let constraints = crate::zerocheck::constraint_count(*air).map_err(|e| e.to_string())?;
            // Zerocheck: alpha, lambda and tau (the row terms' multilinear
            // extension vanishing by accident), then the skip polynomial's
            // degree and each ordinary round's (d + 1).
            let zerocheck = (constraints + 1 + h + d * (group - 1) + (h - k) * (d + 1)) as f64;
            // Reduction: gamma over the polynomials, then k rounds of degree 2.
            let polys = air.width() + air.main_next_row_columns().len();
            let reduction = (polys + 2 * k) as f64;
            for (label, count) in [("skip zerocheck", zerocheck), ("skip opening reduction", reduction)] {
                evidence.charge_reduction(SecurityTerm::new(label, ErrorBits::from_log2(field_bits - count.log2())));
            }
        }
        for (label, count) in logup::error_counts(airs, &self.log_heights).map_err(|e| e.to_string())? {
            evidence.charge_reduction(SecurityTerm::new(label, ErrorBits::from_log2(field_bits - count.log2())));
        }
        Ok((evidence.error().bits(), evidence.terms))
    }
}

/// A proof of [`Backend::Skip`](crate::config::Backend::Skip), tagged
/// with the Merkle hash of its commitment.
#[derive(Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)] // one proof per call
pub enum SkipProof {
    /// Full-width SHA-256 commitments.
    Sha256(SkipBody<ValMmcs>),
    /// SHA-256 commitments truncated to 31 bytes.
    Sha256Trunc31(SkipBody<ValMmcs31>),
}

/// The proof with the table heights it claims (checked against the
/// statement's before anything else).
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct SkipBody<M: Mmcs<Val>>
where
    Challenger: CanObserve<M::Commitment>,
{
    log_heights: Vec<usize>,
    proof: SkipStarkProof<M>,
}

/// Runs `$e` on the body of `$proof`, whichever its hash.
macro_rules! on_body {
    ($proof:expr, $b:ident => $e:expr) => {
        match $proof {
            SkipProof::Sha256($b) => $e,
            SkipProof::Sha256Trunc31($b) => $e,
        }
    };
}

impl SkipProof {
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

    /// Where the proof's bytes go.
    pub fn size_breakdown(&self) -> Vec<(String, usize)> {
        on_body!(self, b => {
            let p = &b.proof;
            let sum = |f: &dyn Fn(&TableProof) -> usize| -> usize { p.tables.iter().map(f).sum() };
            codec::in_bytes(vec![
                ("commitment".into(), codec::encoded_bits(&p.commitment)),
                ("bus argument".into(), codec::encoded_bits(&p.bus)),
                ("skip polynomials".into(), sum(&|t| codec::encoded_bits(&t.zerocheck.skip_values))),
                ("zerocheck rounds".into(), sum(&|t| codec::encoded_bits(&t.zerocheck.rounds))),
                ("blends".into(), sum(&|t| codec::encoded_bits(&t.zerocheck.local) + codec::encoded_bits(&t.zerocheck.next))),
                ("opening reductions".into(), sum(&|t| codec::encoded_bits(&t.reduction))),
                ("opened values".into(), codec::encoded_bits(&p.opening.evals)),
                ("WHIR".into(), codec::encoded_bits(&p.opening.whir)),
            ])
        })
    }

    /// The parts of the encoding in bits, for byte-flip tests.
    pub fn body_layout(&self) -> Vec<(&'static str, usize)> {
        on_body!(self, b => vec![
            ("merkle hash tag", 8),
            ("table heights", codec::encoded_bits(&b.log_heights)),
            ("skip proof", codec::encoded_bits(&b.proof)),
        ])
    }
}

/// The skip of a statement: `k = 5`, or less for a table shorter than
/// `2^5` rows.
fn skip_for(log_heights: &[usize]) -> usize {
    log_heights.iter().copied().min().unwrap_or(0).clamp(1, crate::zerocheck::MAX_SKIP)
}

/// The backend's configuration for `tables` under `settings`.
fn stark_for<A: Table, M>(settings: &Settings, tables: &Tables<'_, A>, mmcs: M) -> Result<SkipStark<M>, String>
where
    M: Mmcs<Val>,
    M::ProverData<RowMajorMatrix<Val>>: Clone,
    Challenger: CanObserve<M::Commitment>,
{
    if tables.public_values.iter().any(|v| !v.is_empty()) {
        return Err("this backend proves statements without public values".into());
    }
    let widths: Vec<usize> = tables.airs.iter().map(|a| a.width()).collect();
    SkipStark::new(settings, &tables.log_heights, &widths, skip_for(&tables.log_heights), mmcs)
}

/// One proof of `traces` against `tables` ([`crate::prove`]).
pub(crate) fn prove<A: Table>(
    settings: &Settings,
    tables: &Tables<'_, A>,
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<SkipProof, ProveError> {
    fn with<A: Table, M>(
        settings: &Settings,
        tables: &Tables<'_, A>,
        traces: &[RowMajorMatrix<Val>],
        mmcs: M,
    ) -> Result<SkipBody<M>, ProveError>
    where
        M: Mmcs<Val>,
        M::ProverData<RowMajorMatrix<Val>>: Clone,
        Challenger: CanObserve<M::Commitment>,
    {
        let stark = stark_for(settings, tables, mmcs).map_err(ProveError)?;
        let airs: Vec<&A> = tables.airs.iter().collect();
        let mut challenger = transcript(tables.transcript_seed(settings));
        let proof = stark.prove(&airs, traces, &mut challenger).map_err(ProveError)?;
        Ok(SkipBody { log_heights: tables.log_heights.clone(), proof })
    }
    match settings.merkle {
        MerkleHash::Sha256 => with(settings, tables, &traces, val_mmcs(0)).map(SkipProof::Sha256),
        MerkleHash::Sha256Trunc31 => with(settings, tables, &traces, val_mmcs31(0)).map(SkipProof::Sha256Trunc31),
        other => Err(ProveError(unsupported(other))),
    }
}

/// Checks a proof against `tables` ([`crate::verify`]): a proof of another
/// Merkle hash or other heights is refused before any check, and a panic
/// of a dependency's verifier on some unforeseen malformed input is caught
/// and reported as [`VerifyError::Invalid`].
pub(crate) fn verify<A: Table>(
    settings: &Settings,
    tables: &Tables<'_, A>,
    proof: &SkipProof,
) -> Result<(), VerifyError> {
    fn with<A: Table, M>(
        settings: &Settings,
        tables: &Tables<'_, A>,
        body: &SkipBody<M>,
        mmcs: M,
    ) -> Result<(), VerifyError>
    where
        M: Mmcs<Val>,
        M::ProverData<RowMajorMatrix<Val>>: Clone,
        Challenger: CanObserve<M::Commitment>,
    {
        if body.log_heights != tables.log_heights {
            return Err(VerifyError::ShapeMismatch);
        }
        let stark = stark_for(settings, tables, mmcs).map_err(VerifyError::Invalid)?;
        let airs: Vec<&A> = tables.airs.iter().collect();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            stark.verify(&airs, &body.proof, &mut transcript(tables.transcript_seed(settings)))
        }));
        match outcome {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(VerifyError::Invalid(e.to_string())),
            Err(_) => Err(VerifyError::Invalid("the verifier rejected a malformed proof".into())),
        }
    }
    if proof.merkle() != settings.merkle {
        return Err(VerifyError::WrongMerkleHash { expected: settings.merkle, found: proof.merkle() });
    }
    match proof {
        SkipProof::Sha256(b) => with(settings, tables, b, val_mmcs(0)),
        SkipProof::Sha256Trunc31(b) => with(settings, tables, b, val_mmcs31(0)),
    }
}

/// The security this backend states for `tables` under `settings`
/// ([`SkipStark::security`] with the Merkle hash's collision bound; a
/// proven bound in the random-oracle model, Johnson-bound WHIR). No
/// separate conjectured figure is computed.
pub(crate) fn level<A: Table>(settings: &Settings, tables: &Tables<'_, A>) -> SecurityLevel {
    let airs: Vec<&A> = tables.airs.iter().collect();
    let report = match settings.merkle {
        MerkleHash::Sha256 | MerkleHash::Sha256Trunc31 => {
            stark_for(settings, tables, val_mmcs(0)).and_then(|stark| stark.security(&airs))
        }
        other => Err(unsupported(other)),
    };
    match report {
        Ok((_, mut terms)) => {
            terms.push(SecurityTerm::new(
                "hash collision",
                ErrorBits::from_log2(settings.merkle.collision_bits() as f64),
            ));
            let bits = ErrorBits::sum(&terms.iter().map(|t| t.bits).collect::<Vec<_>>()).bits();
            let binding = terms
                .iter()
                .min_by(|a, b| a.bits.bits().total_cmp(&b.bits.bits()))
                .map_or_else(|| "none".to_string(), |t| t.label.to_string());
            SecurityLevel {
                proven_bits: bits,
                proven_binding: binding,
                conjectured_bits: bits,
                conjectured_binding: "at least the proven level (not computed separately)".into(),
            }
        }
        Err(reason) => SecurityLevel {
            proven_bits: 0.0,
            proven_binding: reason,
            conjectured_bits: 0.0,
            conjectured_binding: "no configuration".into(),
        },
    }
}

/// The traces each phase of a proof runs on: all the same for an honest
/// proof.
#[derive(Clone, Copy)]
struct Witnesses<'a> {
    /// Committed.
    committed: &'a [RowMajorMatrix<Val>],
    /// The bus argument's fractional GKR.
    gkr: &'a [RowMajorMatrix<Val>],
    /// The bus argument's shares.
    shares: &'a [RowMajorMatrix<Val>],
    /// The zerochecks.
    zerochecked: &'a [RowMajorMatrix<Val>],
    /// The reductions.
    reduced: &'a [RowMajorMatrix<Val>],
}

/// `f_i(c, rho)` for every column `i` and then every successor column, at
/// each of the `2^skip` positions `c` of a group: `[poly][c]`.
fn partial_evaluations(
    trace: &RowMajorMatrix<Val>,
    next_columns: &[usize],
    skip: usize,
    rest: &[Challenge],
) -> Vec<Vec<Challenge>> {
    let (width, height, group) = (trace.width, trace.height(), 1usize << skip);
    let eq = eq_table(rest);
    let chunks = width.div_ceil(LANES);
    let lanes_at = |row: usize, chunk: usize| -> PackedVal {
        let start = row * width + chunk * LANES;
        let cells = &trace.values[start..start + LANES.min(width - chunk * LANES)];
        PackedVal::from_fn(|lane| cells.get(lane).copied().unwrap_or(Val::ZERO))
    };
    let (packed, next) = (0..height / group)
        .into_par_iter()
        .fold(
            || (vec![ExtPacked::ZERO; group * chunks], vec![Challenge::ZERO; group * next_columns.len()]),
            |(mut packed, mut next), g| {
                let e = ExtPacked::from(eq[g]);
                for c in 0..group {
                    let row = g * group + c;
                    for chunk in 0..chunks {
                        packed[c * chunks + chunk] += e * lanes_at(row, chunk);
                    }
                    for (i, &col) in next_columns.iter().enumerate() {
                        next[c * next_columns.len() + i] += eq[g] * trace.values[row_at(row, 1, height) * width + col];
                    }
                }
                (packed, next)
            },
        )
        .reduce(
            || (vec![ExtPacked::ZERO; group * chunks], vec![Challenge::ZERO; group * next_columns.len()]),
            |(a, an), (b, bn)| {
                (a.iter().zip(&b).map(|(&x, &y)| x + y).collect(), an.iter().zip(&bn).map(|(&x, &y)| x + y).collect())
            },
        );
    let mut polys = vec![vec![Challenge::ZERO; group]; width + next_columns.len()];
    for c in 0..group {
        for chunk in 0..chunks {
            let values =
                <ExtPacked as p3_field::PackedFieldExtension<Val, Challenge>>::to_ext_iter(
                    [packed[c * chunks + chunk]],
                );
            for (col, v) in (chunk * LANES..width).zip(values) {
                polys[col][c] = v;
            }
        }
        for i in 0..next_columns.len() {
            polys[width + i][c] = next[c * next_columns.len() + i];
        }
    }
    polys
}

/// Binds the highest variable of `v` (indexed big-endian) at `r`.
fn fold_top(v: &mut Vec<Challenge>, r: Challenge) {
    let half = v.len() / 2;
    for i in 0..half {
        let (low, high) = (v[i], v[i + half]);
        v[i] = low + r * (high - low);
    }
    v.truncate(half);
}

/// The prover's side of step 3: the rounds, and the point `t` they end on.
fn reduce(
    skip: usize,
    point: &ZerocheckPoint,
    parts: &[Vec<Challenge>],
    challenger: &mut Challenger,
) -> (Vec<[Challenge; 3]>, Vec<Challenge>) {
    let gamma: Challenge = challenger.sample_algebra_element();
    let mut lag = lagrange(skip, point.skip);
    let mut batched = vec![Challenge::ZERO; 1 << skip];
    for part in parts.iter().rev() {
        for (b, &v) in batched.iter_mut().zip(part) {
            *b = *b * gamma + v;
        }
    }
    let mut rounds = Vec::with_capacity(skip);
    let mut t = Vec::with_capacity(skip);
    for _ in 0..skip {
        let half = lag.len() / 2;
        let at = |x: Challenge| -> Challenge {
            (0..half)
                .map(|i| (lag[i] + x * (lag[i + half] - lag[i])) * (batched[i] + x * (batched[i + half] - batched[i])))
                .sum()
        };
        let values = [at(Challenge::ZERO), at(Challenge::ONE), at(Challenge::TWO)];
        values.iter().for_each(|&v| challenger.observe_algebra_element(v));
        let r: Challenge = challenger.sample_algebra_element();
        fold_top(&mut lag, r);
        fold_top(&mut batched, r);
        rounds.push(values);
        t.push(r);
    }
    (rounds, t)
}

/// The verifier's side of step 3: `(gamma, t, the value the batched
/// openings at (t, rho) must have)`, or the failing round (`skip` if the
/// Lagrange weight vanishes at `t`).
fn check_reduction(
    skip: usize,
    point: &ZerocheckPoint,
    blends: &[Challenge],
    rounds: &[[Challenge; 3]],
    challenger: &mut Challenger,
) -> Result<(Challenge, Vec<Challenge>, Challenge), usize> {
    let gamma: Challenge = challenger.sample_algebra_element();
    let mut claim = blends.iter().rev().fold(Challenge::ZERO, |acc, &v| acc * gamma + v);
    let nodes = [Challenge::ZERO, Challenge::ONE, Challenge::TWO];
    let mut lag = lagrange(skip, point.skip);
    let mut t = Vec::with_capacity(skip);
    for (i, values) in rounds.iter().enumerate() {
        if values[0] + values[1] != claim {
            return Err(i);
        }
        values.iter().for_each(|&v| challenger.observe_algebra_element(v));
        let r: Challenge = challenger.sample_algebra_element();
        claim = interpolate(&nodes, values, r);
        fold_top(&mut lag, r);
        t.push(r);
    }
    let weight = lag[0];
    if weight.is_zero() {
        return Err(skip);
    }
    Ok((gamma, t, claim * weight.inverse()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ValMmcs, transcript, val_mmcs};
    use crate::zerocheck::toy::TestAir;

    fn settings() -> Settings {
        Settings { first_log_arity: 4, ..Settings::WHIR }
    }

    fn stark(log_heights: &[usize], skip: usize) -> SkipStark<ValMmcs> {
        SkipStark::new(&settings(), log_heights, &vec![4; log_heights.len()], skip, val_mmcs(0)).unwrap()
    }

    fn prove(stark: &SkipStark<ValMmcs>, traces: &[RowMajorMatrix<Val>]) -> SkipStarkProof<ValMmcs> {
        let air = TestAir::new();
        let airs = vec![&air; traces.len()];
        stark.prove(&airs, traces, &mut transcript(b"skip stark test".to_vec())).unwrap()
    }

    fn verify(stark: &SkipStark<ValMmcs>, proof: &SkipStarkProof<ValMmcs>) -> Result<(), SkipStarkError> {
        let air = TestAir::new();
        let airs = vec![&air; proof.tables.len()];
        stark.verify(&airs, proof, &mut transcript(b"skip stark test".to_vec()))
    }

    /// The partial evaluations, Lagrange-weighted, are the zerocheck's
    /// blends; at the reduction's point they are the multilinear
    /// evaluations of the columns (the next-row ones repeat the last row).
    #[test]
    fn partial_evaluations_blend_to_the_openings() {
        let air = TestAir::new();
        let trace = air.trace(7);
        let point = ZerocheckPoint {
            skip: Challenge::from_u32(12345).exp_u64(7),
            rest: (0..4).map(|i| Challenge::from_u32(i * 77 + 5).exp_u64(3)).collect(),
        };
        let parts = partial_evaluations(&trace, &[0, 1], 3, &point.rest);
        let (local, next) = crate::zerocheck::column_evaluations(&trace, &[0, 1], 3, &point);
        let l = lagrange(3, point.skip);
        for (part, blend) in parts.iter().zip(local.iter().chain(&next)) {
            assert_eq!(part.iter().zip(&l).map(|(&p, &w)| p * w).sum::<Challenge>(), *blend);
        }
    }

    /// Valid traces verify, one table or several of different heights.
    #[test]
    fn valid_traces_verify() {
        let air = TestAir::new();
        for (heights, skip) in [(vec![6], 3), (vec![8, 6, 7], 5), (vec![5], 5)] {
            let stark = stark(&heights, skip);
            let traces: Vec<_> = heights.iter().map(|&h| air.trace(h)).collect();
            let proof = prove(&stark, &traces);
            verify(&stark, &proof).unwrap_or_else(|e| panic!("{heights:?}, skip {skip}: {e}"));
        }
    }

    /// A broken row in any column, forced past the prover (whose bus
    /// argument refuses buses that do not balance: it runs on the valid
    /// traces here, everything else on the broken ones), is rejected, the
    /// last row included.
    #[test]
    fn a_broken_trace_is_rejected() {
        let air = TestAir::new();
        let stark = stark(&[6, 5], 3);
        let valid = vec![air.trace(6), air.trace(5)];
        for (table, row, col) in [(0, 0, 0), (0, 63, 1), (1, 17, 2), (1, 31, 3), (0, 40, 3)] {
            let mut broken = valid.clone();
            broken[table].values[row * 4 + col] += Val::ONE;
            let forged =
                Witnesses { committed: &broken, gkr: &valid, shares: &valid, zerochecked: &broken, reduced: &broken };
            let proof =
                stark.prove_forged(&[&air, &air], &forged, &mut transcript(b"skip stark test".to_vec())).unwrap();
            assert!(verify(&stark, &proof).is_err(), "table {table}, row {row}, column {col}");
        }
    }

    /// A witness whose buses do not balance is refused by the prover with
    /// an error, not a panic; so is one of the wrong shape.
    #[test]
    fn the_prover_refuses_unbalanced_buses() {
        let air = TestAir::new();
        let stark = stark(&[6], 3);
        let mut trace = air.trace(6);
        trace.values[10 * 4 + 2] += Val::ONE;
        let refused = stark.prove(&[&air], &[trace], &mut transcript(Vec::new())).err().unwrap();
        assert!(refused.contains("refused the witness"), "{refused}");
        assert!(stark.prove(&[&air], &[air.trace(7)], &mut transcript(Vec::new())).is_err());
    }

    /// Every reduction value, the blends, the opened values and the
    /// commitment, changed, make the proof fail; so do missing rounds and
    /// tables, and a verifier expecting another height.
    #[test]
    fn tampered_proofs_are_rejected() {
        let air = TestAir::new();
        let stark = stark(&[6, 5], 3);
        let traces = vec![air.trace(6), air.trace(5)];
        let proof = prove(&stark, &traces);
        verify(&stark, &proof).unwrap();
        let bytes = postcard::to_allocvec(&proof).unwrap();
        let fresh = || postcard::from_bytes::<SkipStarkProof<ValMmcs>>(&bytes).unwrap();
        let bump = |v: &mut Challenge| *v += Challenge::ONE;
        let mut count = 0;
        let mut check = |p: SkipStarkProof<ValMmcs>, what: &str| {
            assert!(verify(&stark, &p).is_err(), "{what}");
            count += 1;
        };
        for table in 0..2 {
            for round in 0..3 {
                for j in 0..3 {
                    let mut p = fresh();
                    bump(&mut p.tables[table].reduction[round][j]);
                    check(p, "a reduction value");
                }
            }
            let mut p = fresh();
            bump(&mut p.tables[table].zerocheck.local[2]);
            check(p, "a blend");
            let mut p = fresh();
            bump(&mut p.tables[table].zerocheck.next[0]);
            check(p, "a successor blend");
        }
        for batch in 0..2 {
            for i in 0..6 {
                let mut p = fresh();
                let mut values = p.opening.evals[batch].to_vec();
                bump(&mut values[i]);
                let (current, next) = values.split_at(4);
                p.opening.evals[batch] = OpeningBatch::new(current.to_vec(), next.to_vec());
                check(p, "an opened value");
            }
        }
        // The commitment leads the encoding: a length, then the root.
        let mut flipped = bytes.clone();
        flipped[3] ^= 1;
        check(postcard::from_bytes(&flipped).unwrap(), "the commitment");
        let mut p = fresh();
        let bus = p.bus.as_mut().unwrap();
        bus.shares[0] += Challenge::ONE;
        bus.shares[1] -= Challenge::ONE;
        check(p, "shares moved between tables");
        let mut p = fresh();
        p.bus.as_mut().unwrap().shares[1] += Challenge::ONE;
        check(p, "a share");
        let mut p = fresh();
        p.bus.as_mut().unwrap().gkr.layers[3].claims.n1 += Challenge::ONE;
        check(p, "a GKR claim");
        let mut p = fresh();
        p.bus.as_mut().unwrap().gkr.root_denominator += Challenge::ONE;
        check(p, "the GKR root");
        let mut p = fresh();
        p.bus = None;
        check(p, "a missing bus argument");
        let mut p = fresh();
        p.tables[1].reduction.pop();
        check(p, "a missing round");
        let mut p = fresh();
        p.tables.pop();
        check(p, "a missing table");
        assert_eq!(count, 2 * 11 + 12 + 3 + 5);
        let taller = SkipStark::new(&settings(), &[7, 5], &[4, 4], 3, val_mmcs(0)).unwrap();
        assert!(verify(&taller, &proof).is_err());
    }

    /// A prover committing one trace and proving another is caught: by
    /// the final check when the zerocheck and the reduction both run on
    /// the valid trace (the reduced claim then disagrees with the
    /// commitment), by the reduction's first round when the reduction runs
    /// on the committed one (its sums then disagree with the blends).
    #[test]
    fn a_proof_about_another_trace_is_rejected() {
        let air = TestAir::new();
        let stark = stark(&[6], 3);
        let valid = vec![air.trace(6)];
        let mut broken = valid.clone();
        broken[0].values[37 * 4 + 2] += Val::ONE;
        let airs = [&air];
        let forge = |zerochecked: &[RowMajorMatrix<Val>], reduced: &[RowMajorMatrix<Val>]| {
            let forged = Witnesses { committed: &broken, gkr: zerochecked, shares: zerochecked, zerochecked, reduced };
            stark.prove_forged(&airs, &forged, &mut transcript(b"skip stark test".to_vec())).unwrap()
        };
        assert!(matches!(verify(&stark, &forge(&valid, &valid)), Err(SkipStarkError::Openings(0))));
        assert!(matches!(
            verify(&stark, &forge(&valid, &broken)),
            Err(SkipStarkError::Reduction { table: 0, round: 0 })
        ));
    }

    /// A fractional GKR over other balanced leaves than the committed
    /// traces' (a Fibonacci trace from another start: its constraints fail,
    /// its buses balance), with the shares, zerochecks and reductions of
    /// the committed valid traces, is caught by the shares' sum alone.
    #[test]
    fn a_bus_argument_over_other_leaves_is_rejected() {
        let air = TestAir::new();
        let stark = stark(&[6, 5], 3);
        let valid = vec![air.trace(6), air.trace(5)];
        let other = vec![air.trace_from(6, Val::TWO, Val::from_u32(3)), air.trace(5)];
        let forged = Witnesses { committed: &valid, gkr: &other, shares: &valid, zerochecked: &valid, reduced: &valid };
        let proof = stark.prove_forged(&[&air, &air], &forged, &mut transcript(b"skip stark test".to_vec())).unwrap();
        assert!(matches!(verify(&stark, &proof), Err(SkipStarkError::Bus(LogUpError::Sum))));
    }

    /// A statement whose declared count bounds times its heights reach
    /// `p` is refused by the prover before it commits, and by the
    /// verifier, on the proof of a twin AIR declaring a bound of one (the
    /// bounds are not in the transcript), with the LogUp bound's error.
    #[test]
    fn the_multiplicity_bound_is_enforced() {
        use crate::zerocheck::toy::BoundedBus;
        // 64 rows x (2^25 + 1) >= p.
        let (light, heavy) = (BoundedBus { weight: 1 }, BoundedBus { weight: 1 << 25 });
        let stark = stark(&[6], 3);
        let seed = || transcript(b"bound".to_vec());
        let traces = [BoundedBus::trace(6)];
        let refused = stark.prove(&[&heavy], &traces, &mut seed()).err().unwrap();
        assert!(refused.contains("count bounds"), "{refused}");
        let proof = stark.prove(&[&light], &traces, &mut seed()).unwrap();
        stark.verify(&[&light], &proof, &mut seed()).unwrap();
        let outcome = stark.verify(&[&heavy], &proof, &mut seed());
        assert!(matches!(outcome, Err(SkipStarkError::Bus(LogUpError::MultiplicityBound(_)))), "{outcome:?}");
    }

    /// The stated security counts WHIR's terms and both field terms per table.
    #[test]
    fn security_names_every_term() {
        let air = TestAir::new();
        let stark = stark(&[6, 5], 3);
        let (bits, terms) = stark.security(&[&air, &air]).unwrap();
        assert!(bits > 0.0 && bits < 155.0);
        assert_eq!(terms.iter().filter(|t| t.label.starts_with("skip")).count(), 4);
        for label in ["logup fingerprint", "fractional gkr", "bus shares"] {
            assert_eq!(terms.iter().filter(|t| t.label == label).count(), 1, "{label}");
        }
    }
}
