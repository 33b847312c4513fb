//! The zerocheck's prover: the skip round, the fold of every group to one
//! row at the skip challenge, the ordinary rounds, and the openings
//! ([`column_evaluations`] computes them from a trace for a commitment
//! scheme to bind).

use p3_challenger::{CanObserve, FieldChallenger};
use p3_field::{Field, PackedFieldExtension, PackedValue, PrimeCharacteristicRing};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_maybe_rayon::prelude::*;

use super::air::profile;
use super::kernels::{Layout, Round, SkipRound, round_sums, skip_round_packed, skip_round_scalar};
use super::verifier::opened_term;
use super::{
    BusClaim, ExtPacked, LANES, SkipAir, SkipZerocheck, ZerocheckError, ZerocheckPoint, ZerocheckProof, skip_points,
    skip_xs, start,
};
use crate::columns::Columns;
use crate::config::{Challenge, PackedVal, Val};
use crate::messages::MessageProgram;
use crate::poly::{eq_table, eq1, extrapolate, interpolate, lagrange, row_at};

impl SkipZerocheck {
    /// Proves that `trace` satisfies `air`'s constraints, drawing the
    /// challenges from `challenger`; returns the proof and the point its
    /// openings are at. The challenger must already have observed the
    /// commitment to the trace (and the statement), so that no challenge
    /// is known before the trace is fixed.
    ///
    /// # Errors
    /// [`ZerocheckError::Shape`] for an AIR this zerocheck does not
    /// support or a trace whose height is not a power of two of at least
    /// `2^skip` rows or whose width is not the AIR's.
    pub fn prove<A: SkipAir, Ch>(
        &self,
        air: &A,
        trace: &RowMajorMatrix<Val>,
        bus: Option<&BusClaim>,
        challenger: &mut Ch,
    ) -> Result<(ZerocheckProof, ZerocheckPoint), ZerocheckError>
    where
        Ch: FieldChallenger<Val> + CanObserve<Val>,
    {
        if trace.height() == 0 {
            return Err(ZerocheckError::Shape("the trace's height or width"));
        }
        let transposed = trace.transpose();
        self.prove_columns(air, &Columns::of_transposed(&transposed), bus, challenger)
    }

    /// [`Self::prove`] on a column-major trace (what the multilinear
    /// prover holds once it has committed).
    ///
    /// # Errors
    /// As [`Self::prove`].
    pub fn prove_columns<A: SkipAir, Ch>(
        &self,
        air: &A,
        trace: &Columns<'_>,
        bus: Option<&BusClaim>,
        challenger: &mut Ch,
    ) -> Result<(ZerocheckProof, ZerocheckPoint), ZerocheckError>
    where
        Ch: FieldChallenger<Val> + CanObserve<Val>,
    {
        let profile = profile(air)?;
        let d = profile.degree;
        let (k, group) = (self.skip, 1usize << self.skip);
        let height = trace.height();
        if !height.is_power_of_two() || height < group || trace.width() != air.width() {
            return Err(ZerocheckError::Shape("the trace's height or width"));
        }
        let n = height.trailing_zeros() as usize;
        let (weights, tau, _) = start(profile.constraints, profile.messages.len(), n, bus, challenger)?;
        let tau = &tau[k..];
        let eq = eq_table(tau);
        let next_columns = air.main_next_row_columns();

        let program = MessageProgram::new(air)?;
        let round = SkipRound { air, program: &program, trace, skip: k, degree: d, eq: &eq, weights: &weights };
        let skip_values = tracing::info_span!("skip round")
            .in_scope(|| if height / group >= LANES { skip_round_packed(&round) } else { skip_round_scalar(&round) });
        skip_values.iter().for_each(|&v| challenger.observe_algebra_element(v));
        let r0: Challenge = challenger.sample_algebra_element();

        // Fold each group to one row at r0; periodic columns and selectors
        // fold like columns.
        let l = lagrange(k, r0);
        let groups = height / group;
        let fold_span = tracing::info_span!("fold groups").entered();
        let mut columns = fold_rows(trace, &l, &next_columns);
        let fold_column = |value: &(dyn Fn(usize) -> Val + Sync)| -> Vec<Challenge> {
            (0..groups).into_par_iter().map(|g| (0..group).map(|j| l[j] * value(g * group + j)).sum()).collect()
        };
        for col in air.periodic_columns().iter() {
            columns.push(fold_column(&|row| col[row % col.len()]));
        }
        let mut first = vec![Challenge::ZERO; groups];
        first[0] = l[0];
        let mut last = vec![Challenge::ZERO; groups];
        last[groups - 1] = l[group - 1];
        columns.push(first);
        columns.push(last);
        drop(fold_span);

        let _rounds_span = tracing::info_span!("sumcheck rounds").entered();
        let nodes: Vec<Challenge> = (0..d + 2).map(Challenge::from_usize).collect();
        let layout = Layout { width: trace.width(), next: next_columns, periodic: air.num_periodic_columns() };
        let mut rounds = Vec::with_capacity(n - k);
        let mut rest = Vec::with_capacity(n - k);
        let mut eq_prefix = Challenge::ONE;
        let mut claim = interpolate(&skip_xs(k, &skip_points(k, d)), &skip_values, r0);
        for i in 0..n - k {
            let suffix = eq_table(&tau[i + 1..]);
            let t = tau[i];
            // `s` has degree d: the prover evaluates it at 0, 2 ..= d, has
            // s(1) from the claim `eq_prefix ((1 - t) s(0) + t s(1))`, and
            // extrapolates s(d + 1); all of it directly where the claim
            // cannot give s(1) (t or the prefix zero).
            let scale = eq_prefix * t;
            let round = Round {
                air,
                layout: &layout,
                columns: &columns,
                suffix: &suffix,
                degree: d,
                weights: &weights,
                omit_one: !scale.is_zero(),
            };
            let mut sums = round_sums(&round);
            if round.omit_one {
                sums[1] = (claim - eq_prefix * (Challenge::ONE - t) * sums[0]) * scale.inverse();
            }
            sums.push(extrapolate(&sums));
            let values: Vec<Challenge> = sums
                .iter()
                .enumerate()
                .map(|(x, &s)| {
                    let x = Challenge::from_usize(x);
                    eq_prefix * eq1(t, x) * s
                })
                .collect();
            values.iter().for_each(|&v| challenger.observe_algebra_element(v));
            let r: Challenge = challenger.sample_algebra_element();
            claim = interpolate(&nodes, &values, r);
            eq_prefix *= eq1(t, r);
            columns.par_iter_mut().for_each(|col| {
                *col = col.chunks(2).map(|p| p[0] + r * (p[1] - p[0])).collect();
            });
            rounds.push(values);
            rest.push(r);
        }
        let local: Vec<Challenge> = columns[..trace.width()].iter().map(|c| c[0]).collect();
        let next: Vec<Challenge> =
            columns[trace.width()..trace.width() + layout.next.len()].iter().map(|c| c[0]).collect();
        local.iter().chain(&next).for_each(|&v| challenger.observe_algebra_element(v));
        let point = ZerocheckPoint { skip: r0, rest };
        // The verifier's count check, so that no proof it would refuse for
        // it leaves the prover.
        let _ = opened_term(air, &profile, (k, &point), (&local, &next), &weights)?;
        Ok((ZerocheckProof { skip_values, rounds, local, next }, point))
    }
}

/// Every column folded at the skip challenge (`l`: the Lagrange basis of
/// `H` there), then the next-row columns': one extension-field value per
/// group, column-major. Reads each column `LANES` groups at a time.
fn fold_rows(trace: &Columns<'_>, l: &[Challenge], next_columns: &[usize]) -> Vec<Vec<Challenge>> {
    let (height, group) = (trace.height(), l.len());
    let groups = height / group;
    let packed_l: Vec<ExtPacked> = l.iter().map(|&x| ExtPacked::from(x)).collect();
    let fold = |column: &[Val], shift: usize| -> Vec<Challenge> {
        if groups < LANES {
            return (0..groups)
                .into_par_iter()
                .map(|g| (0..group).map(|j| l[j] * column[row_at(g * group + j, shift, height)]).sum())
                .collect();
        }
        let mut out = vec![Challenge::ZERO; groups];
        out.par_chunks_mut(LANES).enumerate().for_each(|(b, out)| {
            let row0 = b * LANES * group;
            let acc: ExtPacked = (0..group)
                .map(|j| {
                    packed_l[j] * PackedVal::from_fn(|lane| column[row_at(row0 + lane * group + j, shift, height)])
                })
                .sum();
            let values = <ExtPacked as PackedFieldExtension<Val, Challenge>>::to_ext_iter([acc]);
            out.iter_mut().zip(values).for_each(|(o, v)| *o = v);
        });
        out
    };
    (0..trace.width())
        .map(|c| fold(trace.column(c), 0))
        .chain(next_columns.iter().map(|&c| fold(trace.column(c), 1)))
        .collect()
}

/// Every column's value at `point`, and each of `next_columns`' next row's
/// (the last row's next row is itself): what a commitment scheme must
/// open the committed trace to.
pub fn column_evaluations(
    trace: &RowMajorMatrix<Val>,
    next_columns: &[usize],
    skip: usize,
    point: &ZerocheckPoint,
) -> (Vec<Challenge>, Vec<Challenge>) {
    let group = 1usize << skip;
    let height = trace.height();
    let l = lagrange(skip, point.skip);
    let eq = eq_table(&point.rest);
    let at = |shift: usize, c: usize| -> Challenge {
        (0..height / group)
            .into_par_iter()
            .map(|g| {
                eq[g]
                    * (0..group)
                        .map(|j| l[j] * trace.values[row_at(g * group + j, shift, height) * trace.width + c])
                        .sum::<Challenge>()
            })
            .sum()
    };
    let local = (0..trace.width).map(|c| at(0, c)).collect();
    let next = next_columns.iter().map(|&c| at(1, c)).collect();
    (local, next)
}
