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

mod prover;
#[cfg(test)]
mod tests;
mod verifier;

use p3_challenger::CanObserve;
use p3_commit::Mmcs;
use p3_field::PrimeField64;
use p3_matrix::dense::RowMajorMatrix;
use p3_security::{ErrorBits, SecurityTerm};
use p3_sumcheck::{OpeningBatch, OpeningProtocol, PrescribedPointPcs, TableShape, TableSpec};
use serde::{Deserialize, Serialize};

use crate::codec;
use crate::config::{
    Challenge, Challenger, MerkleHash, Settings, Val, ValMmcs, ValMmcs31, ValMmcsPoseidon2, WhirSettings,
    poseidon2_transcript, transcript, val_mmcs, val_mmcs_poseidon2, val_mmcs31,
};
use crate::error::{ProveError, VerifyError};
use crate::logup::{self, LogUpError, LogUpProof};
use crate::security::SecurityLevel;
use crate::table::{Table, Tables};
use crate::whir::{Pcs, WhirTranscript, unsupported, whir_pcs};

/// The skip prover's stacking: suffix-first binding, whose committed
/// message is the stacked polynomial as it lies (no transposition) and
/// which keeps no second copy of it.
type Stacking = p3_sumcheck::layout::SuffixProver<Val, Challenge>;
use crate::zerocheck::{Profile, SkipAir, ZerocheckError, ZerocheckProof, profile};

/// What the prover needs of a Fiat-Shamir transcript that observes
/// commitments `Cm`: SHA-256's ([`Challenger`]) or Poseidon2's
/// ([`crate::config::Poseidon2Challenger`]), each with its own Merkle trees.
pub trait Transcript<Cm>: WhirTranscript + CanObserve<Cm> {}

impl<T: WhirTranscript + CanObserve<Cm>, Cm> Transcript<Cm> for T {}

/// What a verifier reads of each AIR before any proof: its round degree,
/// its number of constraints and its bus messages, from one symbolic
/// evaluation each. They depend on the AIRs' layout alone (not on their
/// periodic columns' values), so a verifying key computes them once for
/// every statement over its AIRs ([`verify_profiled`], [`level_profiled`]);
/// the zerocheck still counts each table's constraints and messages as it
/// evaluates them, and refuses a mismatch.
#[derive(Clone, Debug)]
pub struct Profiles(Vec<Profile>);

impl Profiles {
    /// The profiles of `airs`, in order.
    ///
    /// # Errors
    /// As the zerocheck refuses an AIR.
    pub fn of<A: SkipAir>(airs: &[&A]) -> Result<Self, ZerocheckError> {
        airs.iter().map(|air| profile(*air)).collect::<Result<_, _>>().map(Self)
    }

    /// The profiles of a statement's tables (`Tables::airs`).
    ///
    /// # Errors
    /// As [`Profiles::of`], as a refused statement.
    pub fn of_tables<A: Table>(airs: &[A]) -> Result<Self, VerifyError> {
        let airs: Vec<&A> = airs.iter().collect();
        Self::of(&airs).map_err(|e| VerifyError::Invalid(e.to_string()))
    }

    /// The profiles, when there is one per AIR of `count`.
    pub(crate) fn for_airs(&self, count: usize) -> Option<&[Profile]> {
        (self.0.len() == count).then_some(self.0.as_slice())
    }
}

/// A proof: the commitment, each table's zerocheck and reduction, and
/// WHIR's opening of them all.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct SkipStarkProof<M: Mmcs<Val>> {
    /// The stacked commitment to every table.
    pub commitment: M::Commitment,
    /// The bus argument (absent when no AIR sends a message).
    pub bus: Option<LogUpProof>,
    /// One per table, in the statement's order.
    pub tables: Vec<TableProof>,
    /// The columns at each table's point, and WHIR's proof of them.
    pub opening: p3_whir::PcsProof<Val, Challenge, M>,
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
/// configuration (Merkle trees `M`, transcript `C`), the tables' heights
/// and the skip.
pub struct SkipStark<M: Mmcs<Val>, C = Challenger> {
    pcs: Pcs<M, Stacking, C>,
    first_log_arity: usize,
    skip: usize,
    log_heights: Vec<usize>,
}

impl<M, C> SkipStark<M, C>
where
    M: Mmcs<Val>,
    M::ProverData<RowMajorMatrix<Val>>: Clone,
    C: Transcript<M::Commitment>,
{
    /// The configuration `settings` give for tables of `2^log_heights[i]`
    /// rows and `widths[i]` columns, skipping `skip` variables.
    ///
    /// # Errors
    /// If WHIR has no parameters for the shape, or a table is shorter than
    /// the skip or WHIR's first folding (which pads such a table and moves
    /// its successor row into the pad).
    pub fn new(
        settings: &WhirSettings,
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

    /// The proven security of this protocol for `airs`, in bits, and the
    /// terms it is the union of: WHIR's own (Johnson bound), and the
    /// zerochecks' and reductions' field errors, each over WHIR's list of
    /// candidate polynomials; the hash's collision bound is the caller's.
    ///
    /// # Errors
    /// If WHIR states no bound for this configuration or an AIR has no
    /// degree.
    pub fn security<A: SkipAir>(&self, airs: &[&A]) -> Result<(f64, Vec<SecurityTerm>), String> {
        let profiles = Profiles::of(airs).map_err(|e| e.to_string())?;
        self.security_profiled(airs, &profiles)
    }

    /// [`SkipStark::security`] from the AIRs' [`Profiles`].
    ///
    /// # Errors
    /// As [`SkipStark::security`], and for profiles of another number of
    /// AIRs.
    pub fn security_profiled<A: SkipAir>(
        &self,
        airs: &[&A],
        profiles: &Profiles,
    ) -> Result<(f64, Vec<SecurityTerm>), String> {
        let profiles = profiles.for_airs(airs.len()).ok_or("one profile per AIR")?;
        let protocol = self.protocol(airs);
        let mut evidence = self.pcs.prescribed_security(&protocol).ok_or("WHIR states no bound for this protocol")?;
        let field_bits = 5.0 * (Val::ORDER_U64 as f64).log2();
        let k = self.skip;
        let group = 1usize << k;
        for ((air, &h), profile) in airs.iter().zip(&self.log_heights).zip(profiles) {
            let (d, constraints) = (profile.degree, profile.constraints);
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
        let messages: Vec<_> = profiles.iter().map(|p| p.messages.clone()).collect();
        for (label, count) in logup::error_counts_of(&messages, &self.log_heights) {
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
    /// Poseidon2 commitments and transcript ([`MerkleHash::Poseidon2`]).
    Poseidon2(SkipBody<ValMmcsPoseidon2>),
}

/// The proof with the table heights it claims (checked against the
/// statement's before anything else).
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct SkipBody<M: Mmcs<Val>> {
    log_heights: Vec<usize>,
    proof: SkipStarkProof<M>,
}

impl<M: Mmcs<Val>> SkipBody<M> {
    /// The proof itself (for the verifier circuit, `sigagg-recursion`,
    /// which reads its values).
    pub fn proof(&self) -> &SkipStarkProof<M> {
        &self.proof
    }

    /// The proof, to change (for tests of verifiers: a tampered proof
    /// must be refused).
    pub fn proof_mut(&mut self) -> &mut SkipStarkProof<M> {
        &mut self.proof
    }
}

/// Runs `$e` on the body of `$proof`, whichever its hash.
macro_rules! on_body {
    ($proof:expr, $b:ident => $e:expr) => {
        match $proof {
            SkipProof::Sha256($b) => $e,
            SkipProof::Sha256Trunc31($b) => $e,
            SkipProof::Poseidon2($b) => $e,
        }
    };
}

impl SkipProof {
    /// The Merkle hash of the commitment.
    pub fn merkle(&self) -> MerkleHash {
        match self {
            Self::Sha256(_) => MerkleHash::Sha256,
            Self::Sha256Trunc31(_) => MerkleHash::Sha256Trunc31,
            Self::Poseidon2(_) => MerkleHash::Poseidon2,
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
/// `2^5` rows (public for the verifier circuit, `sigagg-recursion`).
pub fn skip_for(log_heights: &[usize]) -> usize {
    log_heights.iter().copied().min().unwrap_or(0).clamp(1, crate::zerocheck::MAX_SKIP)
}

/// The backend's configuration for `tables` under `settings`.
fn stark_for<A: Table, M, C>(
    settings: &WhirSettings,
    tables: &Tables<'_, A>,
    mmcs: M,
) -> Result<SkipStark<M, C>, String>
where
    M: Mmcs<Val>,
    M::ProverData<RowMajorMatrix<Val>>: Clone,
    C: Transcript<M::Commitment>,
{
    if tables.public_values.iter().any(|v| !v.is_empty()) {
        return Err("this backend proves statements without public values".into());
    }
    let widths: Vec<usize> = tables.airs.iter().map(|a| a.width()).collect();
    SkipStark::new(settings, &tables.log_heights, &widths, skip_for(&tables.log_heights), mmcs)
}

/// How the traces given to [`prove_traces`] are laid out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Rows,
    Columns,
}

/// One proof of `traces` against `tables` ([`crate::prove`] for these
/// settings). Public for callers that prove with this backend alone, so
/// that they do not compile the other two (`sigagg-recursion`); the
/// settings are not validated here.
pub fn prove<A: Table>(
    settings: &WhirSettings,
    tables: &Tables<'_, A>,
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<SkipProof, ProveError> {
    prove_traces(settings, tables, traces, Layout::Rows)
}

/// One proof of column-major traces ([`crate::prove_column_major`]).
pub(crate) fn prove_column_major<A: Table>(
    settings: &WhirSettings,
    tables: &Tables<'_, A>,
    columns: Vec<RowMajorMatrix<Val>>,
) -> Result<SkipProof, ProveError> {
    prove_traces(settings, tables, columns, Layout::Columns)
}

fn prove_traces<A: Table>(
    settings: &WhirSettings,
    tables: &Tables<'_, A>,
    traces: Vec<RowMajorMatrix<Val>>,
    layout: Layout,
) -> Result<SkipProof, ProveError> {
    fn with<A: Table, M, C>(
        settings: &WhirSettings,
        tables: &Tables<'_, A>,
        (traces, layout): (Vec<RowMajorMatrix<Val>>, Layout),
        (mmcs, transcript): (M, fn(Vec<u8>) -> C),
    ) -> Result<SkipBody<M>, ProveError>
    where
        M: Mmcs<Val>,
        M::ProverData<RowMajorMatrix<Val>>: Clone,
        C: Transcript<M::Commitment>,
    {
        let stark: SkipStark<M, C> = stark_for(settings, tables, mmcs).map_err(ProveError)?;
        let airs: Vec<&A> = tables.airs.iter().collect();
        let mut challenger = transcript(tables.transcript_seed(&Settings::Skip(*settings)));
        let proof = match layout {
            Layout::Rows => stark.prove(&airs, traces, &mut challenger),
            Layout::Columns => stark.prove_column_major(&airs, traces, &mut challenger),
        }
        .map_err(ProveError)?;
        Ok(SkipBody { log_heights: tables.log_heights.clone(), proof })
    }
    let traces = (traces, layout);
    match settings.merkle {
        MerkleHash::Sha256 => with(settings, tables, traces, (val_mmcs(0), transcript)).map(SkipProof::Sha256),
        MerkleHash::Sha256Trunc31 => {
            with(settings, tables, traces, (val_mmcs31(0), transcript)).map(SkipProof::Sha256Trunc31)
        }
        MerkleHash::Poseidon2 => {
            with(settings, tables, traces, (val_mmcs_poseidon2(0), poseidon2_transcript)).map(SkipProof::Poseidon2)
        }
        other => Err(ProveError(unsupported(other))),
    }
}

/// Checks a proof against `tables` ([`crate::verify`]): a proof of another
/// Merkle hash or other heights is refused before any check, and a panic
/// of a dependency's verifier on some unforeseen malformed input is caught
/// and reported as [`VerifyError::Invalid`]. Public as [`prove`] is.
pub fn verify<A: Table>(settings: &WhirSettings, tables: &Tables<'_, A>, proof: &SkipProof) -> Result<(), VerifyError> {
    let profiles = tracing::info_span!("profiles").in_scope(|| Profiles::of_tables(tables.airs))?;
    verify_profiled(settings, tables, &profiles, proof)
}

/// [`verify`] with the AIRs' [`Profiles`] computed beforehand (by a
/// verifying key, once for every statement over its AIRs).
///
/// # Errors
/// As [`verify`], and [`VerifyError::Invalid`] for profiles of another
/// number of tables.
pub fn verify_profiled<A: Table>(
    settings: &WhirSettings,
    tables: &Tables<'_, A>,
    profiles: &Profiles,
    proof: &SkipProof,
) -> Result<(), VerifyError> {
    fn with<A: Table, M, C>(
        settings: &WhirSettings,
        (tables, profiles): (&Tables<'_, A>, &Profiles),
        body: &SkipBody<M>,
        (mmcs, transcript): (M, fn(Vec<u8>) -> C),
    ) -> Result<(), VerifyError>
    where
        M: Mmcs<Val>,
        M::ProverData<RowMajorMatrix<Val>>: Clone,
        C: Transcript<M::Commitment>,
    {
        if body.log_heights != tables.log_heights {
            return Err(VerifyError::ShapeMismatch);
        }
        let stark: SkipStark<M, C> = tracing::info_span!("configure")
            .in_scope(|| stark_for(settings, tables, mmcs))
            .map_err(VerifyError::Invalid)?;
        let airs: Vec<&A> = tables.airs.iter().collect();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut challenger = transcript(tables.transcript_seed(&Settings::Skip(*settings)));
            stark.verify_profiled(&airs, profiles, &body.proof, &mut challenger)
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
    let statement = (tables, profiles);
    match proof {
        SkipProof::Sha256(b) => with(settings, statement, b, (val_mmcs(0), transcript)),
        SkipProof::Sha256Trunc31(b) => with(settings, statement, b, (val_mmcs31(0), transcript)),
        SkipProof::Poseidon2(b) => with(settings, statement, b, (val_mmcs_poseidon2(0), poseidon2_transcript)),
    }
}

/// The security this backend states for `tables` under `settings`
/// ([`SkipStark::security`] with the Merkle hash's collision bound; a
/// proven bound in the random-oracle model, Johnson-bound WHIR). No
/// separate conjectured figure is computed. Public as [`prove`] is.
pub fn level<A: Table>(settings: &WhirSettings, tables: &Tables<'_, A>) -> SecurityLevel {
    match Profiles::of_tables(tables.airs) {
        Ok(profiles) => level_profiled(settings, tables, &profiles),
        Err(e) => SecurityLevel::none(e.to_string()),
    }
}

/// [`level`] from the AIRs' [`Profiles`] computed beforehand.
pub fn level_profiled<A: Table>(settings: &WhirSettings, tables: &Tables<'_, A>, profiles: &Profiles) -> SecurityLevel {
    let airs: Vec<&A> = tables.airs.iter().collect();
    let report = match settings.merkle {
        // The commitment's parameters, and so every term but the hash's
        // collision bound, do not depend on the hash.
        MerkleHash::Sha256 | MerkleHash::Sha256Trunc31 | MerkleHash::Poseidon2 => {
            stark_for::<_, _, Challenger>(settings, tables, val_mmcs(0))
                .and_then(|stark| stark.security_profiled(&airs, profiles))
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
            SecurityLevel::proven_only(bits, binding)
        }
        Err(reason) => SecurityLevel::none(reason),
    }
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
