//! The zerocheck's verifier: the skip round's sum on `H`, the ordinary
//! rounds, and the final check of the batched row term at the opened
//! values, with the selectors and periodic columns it evaluates itself.

use std::collections::BTreeMap;

use p3_challenger::{CanObserve, FieldChallenger};
use p3_field::{BasedVectorSpace, PackedValue, PrimeCharacteristicRing};
use p3_maybe_rayon::prelude::*;

use super::air::{Profile, check_counts, profile};
use super::folder::{ExtFolder, Weights};
use super::{
    BusClaim, SkipAir, SkipZerocheck, ZerocheckError, ZerocheckPoint, ZerocheckProof, skip_points, skip_xs, start,
};
use crate::config::{Challenge, PackedVal, Val};
use crate::poly::{eq_at, eq_table, interpolate, lagrange};

/// Base-field limbs of a [`Challenge`].
const LIMBS: usize = <Challenge as BasedVectorSpace<Val>>::DIMENSION;

impl SkipZerocheck {
    /// Checks a proof that a trace of `2^log_height` rows satisfies
    /// `air`'s constraints, drawing the same challenges as the prover;
    /// returns the point at which the proof's openings must be checked
    /// against the committed columns.
    ///
    /// # Errors
    /// Why the proof is refused.
    pub fn verify<A: SkipAir, Ch>(
        &self,
        air: &A,
        log_height: usize,
        proof: &ZerocheckProof,
        bus: Option<&BusClaim>,
        challenger: &mut Ch,
    ) -> Result<ZerocheckPoint, ZerocheckError>
    where
        Ch: FieldChallenger<Val> + CanObserve<Val>,
    {
        self.verify_profiled(air, &profile(air)?, log_height, proof, bus, challenger)
    }

    /// [`Self::verify`] given the AIR's [`Profile`] (read once by a caller
    /// that needs it for the bus argument too).
    pub(crate) fn verify_profiled<A: SkipAir, Ch>(
        &self,
        air: &A,
        profile: &Profile,
        log_height: usize,
        proof: &ZerocheckProof,
        bus: Option<&BusClaim>,
        challenger: &mut Ch,
    ) -> Result<ZerocheckPoint, ZerocheckError>
    where
        Ch: FieldChallenger<Val> + CanObserve<Val>,
    {
        let d = profile.degree;
        let (k, group) = (self.skip, 1usize << self.skip);
        if log_height < k {
            return Err(ZerocheckError::Shape("fewer rows than the skip"));
        }
        let points = skip_points(k, d);
        let next_columns = air.main_next_row_columns();
        if proof.skip_values.len() != points.len() + group
            || proof.rounds.len() != log_height - k
            || proof.rounds.iter().any(|r| r.len() != d + 2)
            || proof.local.len() != air.width()
            || proof.next.len() != next_columns.len()
        {
            return Err(ZerocheckError::Shape("lengths"));
        }
        let (weights, tau, target) = start(profile.constraints, profile.messages.len(), log_height, bus, challenger)?;
        let (tau_skip, tau) = tau.split_at(k);
        // The skip polynomial on H, weighted by eq over the group's bits,
        // is the whole sum.
        let on_h = &proof.skip_values[points.len()..];
        if eq_table(tau_skip).iter().zip(on_h).map(|(&e, &v)| e * v).sum::<Challenge>() != target {
            return Err(ZerocheckError::Skip);
        }
        proof.skip_values.iter().for_each(|&v| challenger.observe_algebra_element(v));
        let r0: Challenge = challenger.sample_algebra_element();
        let mut claim = interpolate(&skip_xs(k, &points), &proof.skip_values, r0);

        let nodes: Vec<Challenge> = (0..d + 2).map(Challenge::from_usize).collect();
        let mut rest = Vec::with_capacity(tau.len());
        for (i, values) in proof.rounds.iter().enumerate() {
            if values[0] + values[1] != claim {
                return Err(ZerocheckError::Round(i));
            }
            values.iter().for_each(|&v| challenger.observe_algebra_element(v));
            let r: Challenge = challenger.sample_algebra_element();
            claim = interpolate(&nodes, values, r);
            rest.push(r);
        }
        proof.local.iter().chain(&proof.next).for_each(|&v| challenger.observe_algebra_element(v));

        let point = ZerocheckPoint { skip: r0, rest };
        let term = opened_term(air, profile, (k, &point), (&proof.local, &proof.next), &weights)?;
        if eq_at(tau, &point.rest) * term != claim {
            return Err(ZerocheckError::Final);
        }
        Ok(point)
    }
}

/// The batched row term `E` at the opened values, as the verifier's final
/// check reads it, refused where the AIR emits another number of
/// constraints or messages there than its profile says. The next row of
/// the columns the AIR does not declare is zero, which [`profile`] makes
/// sure no constraint or message reads.
pub(super) fn opened_term<A: SkipAir>(
    air: &A,
    profile: &Profile,
    (skip, point): (usize, &ZerocheckPoint),
    (local, next_values): (&[Challenge], &[Challenge]),
    weights: &Weights<Challenge>,
) -> Result<Challenge, ZerocheckError> {
    let (periodic, first, last) = structure_at(air, skip, point);
    let mut next = vec![Challenge::ZERO; air.width()];
    for (&c, &v) in air.main_next_row_columns().iter().zip(next_values) {
        next[c] = v;
    }
    let mut folder = ExtFolder::new(local, &next, &periodic, first, last, weights);
    air.eval(&mut folder);
    check_counts(profile, folder.constraints, folder.messages)?;
    Ok(folder.acc)
}

/// One period of a periodic column of a table proven with `skip` skipped
/// variables, at the zerocheck's point `(r0, rest)`: what the verifier
/// computes for it (and what a verifier circuit leaves to its own verifier
/// as a deferred claim, `sigagg-recursion`).
pub fn periodic_at(column: &[Val], skip: usize, r0: Challenge, rest: &[Challenge]) -> Challenge {
    periodic_with(column, &lagrange(skip, r0), rest)
}

/// [`periodic_at`] with the Lagrange basis of `H` at `r0` given:
/// `Σ_j L_j(r0) Σ_g eq(g, rest[..b]) · column[(g·|H| + j) mod period]`, `b`
/// the bits that tell the column's rows apart.
fn periodic_with(column: &[Val], l: &[Challenge], rest: &[Challenge]) -> Challenge {
    periodic_with_eq(column, l, &eq_table(column_vars(column.len(), l.len(), rest)))
}

/// The variables of `rest` that tell a periodic column of `len` rows
/// apart in groups of `group`: the first `b`, `2^b` its groups (none for
/// a column of one group or less).
fn column_vars(len: usize, group: usize, rest: &[Challenge]) -> &[Challenge] {
    let bits = (len / group).max(1).trailing_zeros() as usize;
    &rest[..bits.min(rest.len())]
}

/// [`periodic_with`] with the `eq` table of the column's bits given.
///
/// The sum is taken group by group: `V_j = Σ_g eq_g · column[g·|H| + j]`
/// for every `j` at once (the `|H|` cells of a group are contiguous, so
/// each limb of `eq_g` scales them as packed lanes), then `Σ_j L_j V_j`.
/// A group of zeros is skipped: the witness tables' fixed columns are
/// zero on every wire but the constants and inputs.
fn periodic_with_eq(column: &[Val], l: &[Challenge], eq: &[Challenge]) -> Challenge {
    let (group, period) = (l.len(), column.len());
    let width = PackedVal::WIDTH;
    if group % width != 0 || eq.len() * group > period {
        return (0..group)
            .map(|j| {
                l[j] * eq.iter().enumerate().map(|(g, &e)| e * column[(g * group + j) % period]).sum::<Challenge>()
            })
            .sum();
    }
    let lanes = group / width;
    let mut sums = vec![PackedVal::ZERO; LIMBS * lanes];
    for (chunk, e) in column.chunks_exact(group).zip(eq) {
        // Lanes compared whole: a scalar test per cell cost more than
        // the sums of a dense column.
        let chunk = PackedVal::pack_slice(chunk);
        if chunk.iter().all(|p| *p == PackedVal::ZERO) {
            continue;
        }
        let e: &[Val] = e.as_basis_coefficients_slice();
        for (i, &packed) in chunk.iter().enumerate() {
            for (k, &limb) in e.iter().enumerate() {
                sums[k * lanes + i] += packed * limb;
            }
        }
    }
    l.iter()
        .enumerate()
        .map(|(j, &lj)| {
            let v = Challenge::from_basis_coefficients_fn(|k| sums[k * lanes + j / width].as_slice()[j % width]);
            lj * v
        })
        .sum()
}

/// The periodic columns' and selectors' values at `(skip, rest)`, as the
/// verifier computes them: `(periodic, first, last)`.
fn structure_at<A: SkipAir>(air: &A, skip: usize, point: &ZerocheckPoint) -> (Vec<Challenge>, Challenge, Challenge) {
    let group = 1usize << skip;
    let l = lagrange(skip, point.skip);
    let columns = air.periodic_columns();
    // One `eq` table per number of variables (a table's columns share one).
    let vars: Vec<&[Challenge]> = columns.iter().map(|col| column_vars(col.len(), group, &point.rest)).collect();
    let mut eqs = BTreeMap::new();
    for v in &vars {
        eqs.entry(v.len()).or_insert_with(|| eq_table(v));
    }
    let periodic = columns.par_iter().zip(&vars).map(|(col, v)| periodic_with_eq(col, &l, &eqs[&v.len()])).collect();
    let first = l[0] * point.rest.iter().map(|&r| Challenge::ONE - r).product::<Challenge>();
    let last = l[group - 1] * point.rest.iter().copied().product::<Challenge>();
    (periodic, first, last)
}
