//! The verifier's side: the same challenges as the prover, each check in
//! the protocol's order.

use p3_challenger::FieldChallenger;
use p3_commit::{Mmcs, MultilinearPcs};
use p3_field::{Field, PrimeCharacteristicRing};
use p3_matrix::dense::RowMajorMatrix;
use p3_multilinear_util::point::Point;
use p3_sumcheck::PrescribedPointPcs;

use super::{Profiles, SkipStark, SkipStarkError, SkipStarkProof, Transcript, fold_top};
use crate::config::{Challenge, Val};
use crate::logup;
use crate::poly::{interpolate, lagrange};
use crate::zerocheck::{Message, SkipAir, SkipZerocheck, ZerocheckPoint};

impl<M, C> SkipStark<M, C>
where
    M: Mmcs<Val>,
    M::ProverData<RowMajorMatrix<Val>>: Clone,
    C: Transcript<M::Commitment>,
{
    /// Checks a proof against the AIRs, drawing the same challenges as
    /// the prover from a challenger holding the same statement.
    ///
    /// # Errors
    /// Why the proof is refused.
    pub fn verify<A: SkipAir>(
        &self,
        airs: &[&A],
        proof: &SkipStarkProof<M>,
        challenger: &mut C,
    ) -> Result<(), SkipStarkError> {
        // One symbolic evaluation per AIR, read by the bus argument and
        // the zerocheck both (the Poseidon tables' are most of the
        // verifier's own work).
        let profiles = tracing::info_span!("profiles")
            .in_scope(|| Profiles::of(airs))
            .map_err(|e| SkipStarkError::Bus(e.into()))?;
        self.verify_profiled(airs, &profiles, proof, challenger)
    }

    /// [`SkipStark::verify`] with the AIRs' [`Profiles`] computed
    /// beforehand.
    ///
    /// # Errors
    /// As [`SkipStark::verify`], and for profiles of another number of
    /// AIRs.
    pub fn verify_profiled<A: SkipAir>(
        &self,
        airs: &[&A],
        profiles: &Profiles,
        proof: &SkipStarkProof<M>,
        challenger: &mut C,
    ) -> Result<(), SkipStarkError> {
        if airs.len() != self.log_heights.len() || proof.tables.len() != airs.len() {
            return Err(SkipStarkError::Shape("one table proof per AIR"));
        }
        if proof.tables.iter().any(|t| t.reduction.len() != self.skip) {
            return Err(SkipStarkError::Shape("reduction rounds"));
        }
        let profiles = profiles.for_airs(airs.len()).ok_or(SkipStarkError::Shape("one profile per AIR"))?;
        self.pcs.observe_commitment(&proof.commitment, challenger);
        let messages: Vec<Vec<Message>> = profiles.iter().map(|p| p.messages.clone()).collect();
        let claims = tracing::info_span!("buses")
            .in_scope(|| logup::verify_messages(&messages, &self.log_heights, proof.bus.as_ref(), challenger))?
            .unwrap_or_else(|| vec![None; airs.len()]);
        let zerochecks = tracing::info_span!("zerochecks").entered();
        let zerocheck = SkipZerocheck::new(self.skip);
        let mut zero_points = Vec::with_capacity(airs.len());
        for (table, (((air, &h), tp), claim)) in
            airs.iter().zip(&self.log_heights).zip(&proof.tables).zip(&claims).enumerate()
        {
            let point = zerocheck
                .verify_profiled(*air, &profiles[table], h, &tp.zerocheck, claim.as_ref(), challenger)
                .map_err(|source| SkipStarkError::Zerocheck { table, source })?;
            zero_points.push(point);
        }
        drop(zerochecks);
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
}

/// The verifier's side of step 3: `(gamma, t, the value the batched
/// openings at (t, rho) must have)`, or the failing round (`skip` if the
/// Lagrange weight vanishes at `t`).
fn check_reduction(
    skip: usize,
    point: &ZerocheckPoint,
    blends: &[Challenge],
    rounds: &[[Challenge; 3]],
    challenger: &mut impl FieldChallenger<Val>,
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
