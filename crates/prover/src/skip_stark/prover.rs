//! The prover's side: commit, the bus argument, each table's zerocheck and
//! reduction, and WHIR's opening.

use p3_challenger::FieldChallenger;
use p3_commit::{Mmcs, MultilinearPcs};
use p3_field::{PackedFieldExtension, PackedValue, PrimeCharacteristicRing};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_maybe_rayon::prelude::*;
use p3_multilinear_util::point::Point;
use p3_sumcheck::PrescribedPointPcs;
use p3_sumcheck::layout::{Layout as _, Table as TraceTable};

use super::{SkipStark, SkipStarkProof, Stacking, TableProof, Transcript, fold_top};
use crate::columns::Columns;
use crate::config::{Challenge, PackedVal, Val};
use crate::logup;
use crate::poly::{eq_table, lagrange, row_at};
use crate::zerocheck::{SkipAir, SkipZerocheck, ZerocheckPoint};

type ExtPacked = <Challenge as p3_field::ExtensionField<Val>>::ExtensionPacking;
const LANES: usize = PackedVal::WIDTH;

impl<M, C> SkipStark<M, C>
where
    M: Mmcs<Val>,
    M::ProverData<RowMajorMatrix<Val>>: Clone,
    C: Transcript<M::Commitment>,
{
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
        traces: Vec<RowMajorMatrix<Val>>,
        challenger: &mut C,
    ) -> Result<SkipStarkProof<M>, String> {
        self.check_shapes(airs, traces.iter().map(|t| (t.height(), t.width)))?;
        // Each row-major trace is freed once its column-major copy exists:
        // the commitment keeps that copy, and every phase reads it.
        let tables = tracing::info_span!("column-major traces")
            .in_scope(|| traces.into_iter().map(|t| TraceTable::new(t.transpose())).collect());
        self.prove_tables(airs, tables, None, challenger)
    }

    /// [`SkipStark::prove`] from column-major traces (row `c` of
    /// `columns[t]` is column `c` of table `t`), committed as they are.
    ///
    /// # Errors
    /// As [`SkipStark::prove`].
    pub fn prove_column_major<A: SkipAir>(
        &self,
        airs: &[&A],
        columns: Vec<RowMajorMatrix<Val>>,
        challenger: &mut C,
    ) -> Result<SkipStarkProof<M>, String> {
        self.check_shapes(airs, columns.iter().map(|t| (t.width, t.height())))?;
        self.prove_tables(airs, columns.into_iter().map(TraceTable::new).collect(), None, challenger)
    }

    /// Refuses traces of `(rows, columns)` other than one per table at the
    /// statement's heights and the AIRs' widths, and, before the
    /// commitment, a statement the verifier refuses from its shape alone
    /// (the LogUp bound): neither is worth proving.
    fn check_shapes<A: SkipAir>(
        &self,
        airs: &[&A],
        shapes: impl ExactSizeIterator<Item = (usize, usize)>,
    ) -> Result<(), String> {
        let fits = shapes.len() == airs.len()
            && airs.len() == self.log_heights.len()
            && shapes
                .zip(airs)
                .zip(&self.log_heights)
                .all(|(((rows, cols), a), &h)| rows == 1 << h && cols == a.width());
        if !fits {
            return Err("one trace per table, at the statement's heights and widths".into());
        }
        logup::check_multiplicity_bound(airs, &self.log_heights).map_err(|e| e.to_string())
    }

    /// [`SkipStark::prove`] with each phase run on the traces
    /// [`Witnesses`] names for it: the same traces for an honest proof,
    /// others for the tests' forgeries (each link of the protocol must
    /// catch one).
    #[cfg(test)]
    pub(super) fn prove_forged<A: SkipAir>(
        &self,
        airs: &[&A],
        witnesses: &Witnesses<'_>,
        challenger: &mut C,
    ) -> Result<SkipStarkProof<M>, String> {
        let Witnesses { committed, gkr, shares, zerochecked, reduced } = *witnesses;
        let tables = committed.iter().map(|t| TraceTable::new(t.transpose())).collect();
        let phases = [gkr, shares, zerochecked, reduced].map(|ts| ts.iter().map(RowMajorMatrix::transpose).collect());
        self.prove_tables(airs, tables, Some(&phases), challenger)
    }

    /// Commits `tables` (column-major) and proves them: every phase reads
    /// the committed tables, or, for a test's forgery, the transposed
    /// traces `forged` gives it (bus leaves, shares, zerochecks,
    /// reductions).
    fn prove_tables<A: SkipAir>(
        &self,
        airs: &[&A],
        tables: Vec<TraceTable<Val>>,
        forged: Option<&[Vec<RowMajorMatrix<Val>>; 4]>,
        challenger: &mut C,
    ) -> Result<SkipStarkProof<M>, String> {
        let protocol = self.protocol(airs);
        let (commitment, data) = tracing::info_span!("commit").in_scope(|| {
            let witness = Stacking::new_witness(tables, self.first_log_arity);
            self.pcs.commit(witness, challenger).map_err(|e| format!("{e:?}"))
        })?;
        // The phases borrow the committed tables; the opening then takes
        // the commitment's data by value.
        let (bus, tables, points) = {
            let committed: Vec<Columns<'_>> =
                (0..airs.len()).map(|i| Columns::of_table(data.table(i), 1 << self.log_heights[i])).collect();
            let owned: Option<[Vec<Columns<'_>>; 4]> =
                forged.map(|f| [0, 1, 2, 3].map(|k| f[k].iter().map(Columns::of_transposed).collect()));
            let [gkr, shares, zerochecked, reduced]: [&[Columns<'_>]; 4] = match &owned {
                Some([g, s, z, r]) => [g, s, z, r],
                None => [&committed; 4],
            };
            let (bus, claims) =
                match tracing::info_span!("buses").in_scope(|| logup::prove_split(airs, gkr, shares, challenger))? {
                    Some((proof, claims)) => (Some(proof), claims),
                    None => (None, vec![None; airs.len()]),
                };
            let zerocheck = SkipZerocheck::new(self.skip);
            let mut checked = Vec::with_capacity(airs.len());
            for ((air, trace), claim) in airs.iter().zip(zerochecked).zip(&claims) {
                let _span = tracing::info_span!("zerocheck", rows = trace.height(), width = trace.width()).entered();
                checked
                    .push(zerocheck.prove_columns(*air, trace, claim.as_ref(), challenger).map_err(|e| e.to_string())?);
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
            (bus, tables, points)
        };
        let opening = tracing::info_span!("open")
            .in_scope(|| self.pcs.open_at(data, &protocol, &points, challenger))
            .map_err(|e| format!("{e:?}"))?;
        Ok(SkipStarkProof { commitment, bus, tables, opening })
    }
}

/// The traces each phase of a proof runs on: all the same for an honest
/// proof.
#[cfg(test)]
#[derive(Clone, Copy)]
pub(super) struct Witnesses<'a> {
    /// Committed.
    pub(super) committed: &'a [RowMajorMatrix<Val>],
    /// The bus argument's fractional GKR.
    pub(super) gkr: &'a [RowMajorMatrix<Val>],
    /// The bus argument's shares.
    pub(super) shares: &'a [RowMajorMatrix<Val>],
    /// The zerochecks.
    pub(super) zerochecked: &'a [RowMajorMatrix<Val>],
    /// The reductions.
    pub(super) reduced: &'a [RowMajorMatrix<Val>],
}

/// `f_i(c, rho)` for every column `i` and then every successor column, at
/// each of the `2^skip` positions `c` of a group: `[poly][c]`. Each column
/// is read `LANES` groups at a time.
pub(super) fn partial_evaluations(
    trace: &Columns<'_>,
    next_columns: &[usize],
    skip: usize,
    rest: &[Challenge],
) -> Vec<Vec<Challenge>> {
    let (height, group) = (trace.height(), 1usize << skip);
    let groups = height / group;
    let eq = eq_table(rest);
    let at = |column: &[Val], shift: usize| -> Vec<Challenge> {
        if groups < LANES {
            return (0..group)
                .map(|c| (0..groups).map(|g| eq[g] * column[row_at(g * group + c, shift, height)]).sum())
                .collect();
        }
        let packed = (0..groups / LANES)
            .into_par_iter()
            .fold(
                || vec![ExtPacked::ZERO; group],
                |mut acc, b| {
                    let e = ExtPacked::from_ext_slice(&eq[b * LANES..(b + 1) * LANES]);
                    let row0 = b * LANES * group;
                    for (c, a) in acc.iter_mut().enumerate() {
                        *a += e * PackedVal::from_fn(|lane| column[row_at(row0 + lane * group + c, shift, height)]);
                    }
                    acc
                },
            )
            .reduce(|| vec![ExtPacked::ZERO; group], |a, b| a.iter().zip(&b).map(|(&x, &y)| x + y).collect());
        packed.iter().map(|&p| <ExtPacked as PackedFieldExtension<Val, Challenge>>::to_ext_iter([p]).sum()).collect()
    };
    (0..trace.width())
        .map(|c| at(trace.column(c), 0))
        .chain(next_columns.iter().map(|&c| at(trace.column(c), 1)))
        .collect()
}

/// The prover's side of step 3: the rounds, and the point `t` they end on.
fn reduce(
    skip: usize,
    point: &ZerocheckPoint,
    parts: &[Vec<Challenge>],
    challenger: &mut impl FieldChallenger<Val>,
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
