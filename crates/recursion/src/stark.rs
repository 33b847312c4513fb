//! A whir-skip proof's verifier as a circuit
//! (`sigagg_prover::skip_stark::SkipStark::verify`), in the native order on
//! the same transcript: the commitment, the bus argument ([`crate::bus`]),
//! each table's zerocheck ([`crate::zerocheck`]), each table's opening
//! reduction, and the check of the opened columns against the reduced
//! claims. [`verify`] returns what the commitment's opening must then
//! establish, each table's point and its opened values, as
//! [`OpeningClaim`]s, for [`crate::whir::verify`].

use p3_field::PrimeCharacteristicRing;
use p3_field::TwoAdicField;
use p3_sumcheck::layout::observe_commitment;
use p3_symmetric::MerkleCap;
use sigagg_prover::config::Val;
use sigagg_prover::zerocheck::{SkipAir, summary};

use crate::Ext;
use crate::bus::{self, LogUpWires};
use crate::circuit::{CircuitBuilder, DIGEST, Wire};
use crate::error::CircuitError;
use crate::transcript::CircuitChallenger;
use crate::zerocheck::{self, PointWires, ZerocheckWires};

/// One table's part of a proof, as wires (`sigagg_prover::skip_stark::TableProof`).
#[derive(Clone, Debug)]
pub struct TableProofWires {
    /// Its zerocheck.
    pub zerocheck: ZerocheckWires,
    /// Its opening reduction: one round per skipped variable, the round
    /// polynomial at 0, 1 and 2.
    pub reduction: Vec<[Wire; 3]>,
}

/// A whir-skip proof up to its opening, as wires
/// (`sigagg_prover::skip_stark::SkipStarkProof` without `opening`).
#[derive(Clone, Debug)]
pub struct StarkProofWires {
    /// The commitment's Merkle root.
    pub commitment: [Wire; DIGEST],
    /// The bus argument (`None` for a statement without messages).
    pub bus: Option<LogUpWires>,
    /// Each table's zerocheck and reduction.
    pub tables: Vec<TableProofWires>,
}

/// What the commitment's opening must establish for one table: its
/// columns, then its AIR's next-row columns' successor view, have the
/// `values` at `point` (the stacked commitment's variables for the table,
/// highest first, as the native verifier passes them to WHIR).
#[derive(Clone, Debug)]
pub struct OpeningClaim {
    /// The point.
    pub point: Vec<Wire>,
    /// The opened values (the proof's `opening.evals`).
    pub values: Vec<Wire>,
}

/// Records the verification of `proof` for `airs` at `2^log_heights[t]`
/// rows, skipping `skip` variables, on `transcript` (holding the
/// statement's seed, [`CircuitChallenger::with_seed`]), up to the
/// commitment's opening: the opened values `openings[t]` (each table's
/// columns then its next-row columns, as the proof carries them) are
/// checked against the reduced claims, and returned with their points
/// for WHIR's verifier.
///
/// # Errors
/// [`CircuitError::Unsupported`] for a proof of another shape than the
/// statement fixes, or an AIR the lowering does not support.
pub fn verify<A>(
    b: &mut CircuitBuilder,
    transcript: &mut CircuitChallenger,
    (airs, skip, log_heights): (&[&A], usize, &[usize]),
    proof: &StarkProofWires,
    openings: &[Vec<Wire>],
) -> Result<Vec<OpeningClaim>, CircuitError>
where
    A: SkipAir,
{
    if airs.len() != log_heights.len() || proof.tables.len() != airs.len() || openings.len() != airs.len() {
        return Err(CircuitError::Unsupported("one table proof, height and opening per AIR"));
    }
    if proof.tables.iter().any(|t| t.reduction.len() != skip) {
        return Err(CircuitError::Unsupported("reduction rounds"));
    }
    // The commitment's absorption (`MultilinearPcs::observe_commitment`):
    // its domain separator's seed, then the root.
    let root = MerkleCap::new(vec![[Val::ZERO; DIGEST]]);
    transcript.replay(b, |r| observe_commitment::<Val, _, _>(r, root), &[proof.commitment])?;
    let summaries = airs
        .iter()
        .map(|air| summary(*air))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| CircuitError::Unsupported("an AIR the zerocheck does not support"))?;
    let profiles: Vec<_> = summaries.iter().map(|s| s.messages.clone()).collect();
    let claims = match (&proof.bus, profiles.iter().any(|m| !m.is_empty())) {
        (Some(bus), true) => bus::verify(b, transcript, &profiles, log_heights, bus)?,
        (None, false) => vec![None; airs.len()],
        _ => {
            return Err(CircuitError::Unsupported(
                "a bus argument where the statement has no messages, or none where it has",
            ));
        }
    };
    let mut points = Vec::with_capacity(airs.len());
    for ((((air, &h), table), claim), summary) in
        airs.iter().zip(log_heights).zip(&proof.tables).zip(&claims).zip(&summaries)
    {
        let shape = (skip, h, summary.degree);
        points.push(zerocheck::verify(b, transcript, *air, shape, &table.zerocheck, claim.as_ref())?);
    }
    let mut out = Vec::with_capacity(airs.len());
    for ((table, point), values) in proof.tables.iter().zip(&points).zip(openings) {
        let blends: Vec<Wire> = table.zerocheck.local.iter().chain(&table.zerocheck.next).copied().collect();
        if values.len() != blends.len() || blends.is_empty() {
            return Err(CircuitError::Unsupported("opened values of another width, or none"));
        }
        let (gamma, t, target) = reduce(b, transcript, skip, point, &blends, &table.reduction);
        let opened = b.horner(values, gamma).expect("checked nonempty");
        b.assert_eq(opened, target);
        let point = point.rest.iter().rev().chain(&t).copied().collect();
        out.push(OpeningClaim { point, values: values.clone() });
    }
    Ok(out)
}

/// A table's opening reduction (`check_reduction`): the blended values at
/// the zerocheck's point become one claim on the columns at `(t, rest)`,
/// one quadratic round per skipped variable, the Lagrange weight of `H`
/// at the skip challenge folded with the rounds' challenges; returns
/// `(γ, t, claim / weight)` (the weight asserted nonzero, as the native
/// verifier refuses a zero one).
fn reduce(
    b: &mut CircuitBuilder,
    transcript: &mut CircuitChallenger,
    skip: usize,
    point: &PointWires,
    blends: &[Wire],
    rounds: &[[Wire; 3]],
) -> (Wire, Vec<Wire>, Wire) {
    let gamma = transcript.sample_ext(b);
    let mut claim = b.horner(blends, gamma).expect("checked nonempty");
    let w = Val::two_adic_generator(skip);
    let h_nodes: Vec<Ext> = w.powers().take(1 << skip).map(Ext::from).collect();
    let mut lag = b.lagrange_basis(&h_nodes, point.skip);
    let mut t = Vec::with_capacity(skip);
    for values in rounds {
        let sum = b.add(values[0], values[1]);
        b.assert_eq(sum, claim);
        for &v in values {
            transcript.observe_ext(b, v);
        }
        let r = transcript.sample_ext(b);
        claim = b.interpolate_at_integers(values, r);
        // Bind the highest variable of `lag` at `r`.
        let half = lag.len() / 2;
        lag = (0..half)
            .map(|i| {
                let diff = b.sub(lag[i + half], lag[i]);
                let scaled = b.mul(r, diff);
                b.add(lag[i], scaled)
            })
            .collect();
        t.push(r);
    }
    // The weight has an inverse (the native verifier refuses a zero one;
    // `claim / weight` alone would leave the target free when both are 0).
    let one = b.constant(Ext::ONE);
    b.div(one, lag[0]);
    let target = b.div(claim, lag[0]);
    (gamma, t, target)
}
