//! The prover's side: commit, the bus argument, each table's zerocheck and
//! reduction, and WHIR's opening.

use p3_challenger::{CanObserve, FieldChallenger};
use p3_commit::{Mmcs, MultilinearPcs};
use p3_field::{PackedValue, PrimeCharacteristicRing};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_maybe_rayon::prelude::*;
use p3_multilinear_util::point::Point;
use p3_sumcheck::PrescribedPointPcs;
use p3_sumcheck::layout::{Layout as _, Table as TraceTable};

use super::{SkipStark, SkipStarkProof, Stacking, TableProof, fold_top};
use crate::config::{Challenge, Challenger, PackedVal, Val};
use crate::logup;
use crate::poly::{eq_table, lagrange, row_at};
use crate::zerocheck::{SkipAir, SkipZerocheck, ZerocheckPoint};

type ExtPacked = <Challenge as p3_field::ExtensionField<Val>>::ExtensionPacking;
const LANES: usize = PackedVal::WIDTH;

impl<M> SkipStark<M>
where
    M: Mmcs<Val>,
    M::ProverData<RowMajorMatrix<Val>>: Clone,
    Challenger: CanObserve<M::Commitment>,
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
    pub(super) fn prove_forged<A: SkipAir>(
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
}

/// The traces each phase of a proof runs on: all the same for an honest
/// proof.
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
/// each of the `2^skip` positions `c` of a group: `[poly][c]`.
pub(super) fn partial_evaluations(
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
