//! The verifier's side of the bus argument.

use p3_challenger::FieldChallenger;
use p3_field::Field;
use p3_multi_stark::fractional_gkr::verify_fractional_gkr;

use super::{Buses, Layout, LogUpError, LogUpProof, claims, padding};
use crate::config::{Challenge, Val};
use crate::zerocheck::{BusClaim, Message, SkipAir};

/// Checks a bus argument for tables of `2^log_heights[t]` rows; returns
/// each table's claim, for its zerocheck (`None` without messages), or
/// `None` for a statement without messages, which must carry no proof.
///
/// # Errors
/// Why the argument is refused.
pub fn verify<A: SkipAir>(
    airs: &[&A],
    log_heights: &[usize],
    proof: Option<&LogUpProof>,
    challenger: &mut impl FieldChallenger<Val>,
) -> Result<Option<Vec<Option<BusClaim>>>, LogUpError> {
    verify_buses(Buses::new(airs)?, log_heights, proof, challenger)
}

/// [`verify`] for tables sending `messages[t]` (the AIRs' profiles, read
/// once by the caller).
pub(crate) fn verify_messages(
    messages: &[Vec<Message>],
    log_heights: &[usize],
    proof: Option<&LogUpProof>,
    challenger: &mut impl FieldChallenger<Val>,
) -> Result<Option<Vec<Option<BusClaim>>>, LogUpError> {
    verify_buses(Buses::of_messages(messages), log_heights, proof, challenger)
}

fn verify_buses(
    buses: Buses,
    log_heights: &[usize],
    proof: Option<&LogUpProof>,
    challenger: &mut impl FieldChallenger<Val>,
) -> Result<Option<Vec<Option<BusClaim>>>, LogUpError> {
    buses.check_bound(log_heights)?;
    let proof = match (buses.any(), proof) {
        (false, None) => return Ok(None),
        (true, Some(proof)) => proof,
        _ => return Err(LogUpError::Shares),
    };
    if proof.shares.len() != buses.messages.len() {
        return Err(LogUpError::Shares);
    }
    let layout = Layout::new(log_heights, &buses.counts());
    let gamma: Challenge = challenger.sample_algebra_element();
    let beta: Challenge = challenger.sample_algebra_element();
    let output = verify_fractional_gkr::<Val, Challenge, _>(&proof.gkr, layout.log_size, challenger)?;
    let rho = output.point.as_slice().to_vec();
    let mu: Challenge = challenger.sample_algebra_element();
    proof.shares.iter().for_each(|&s| challenger.observe_algebra_element(s));
    // A table without messages has no share to give.
    let idle = buses.messages.iter().zip(&proof.shares).any(|(ms, s)| ms.is_empty() && !s.is_zero());
    let total: Challenge = proof.shares.iter().copied().sum::<Challenge>() + padding(&layout, &rho, mu);
    if idle || total != output.numerator + mu * output.denominator {
        return Err(LogUpError::Sum);
    }
    Ok(Some(claims(&buses, &layout, log_heights, (gamma, beta, mu), &rho, &proof.shares)))
}
