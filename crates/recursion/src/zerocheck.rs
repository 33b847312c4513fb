//! whir-skip's zerocheck verifier as a circuit
//! (`sigagg_prover::zerocheck::SkipZerocheck::verify`), step for step on
//! the same transcript: the constraint weights `α^i`, the point `τ` (the
//! transcript's, or a bus claim's with its weight `λ` and message weights),
//! the skip round's sum on `H`,
//! its interpolation at `r_0`, the ordinary rounds, the opened values, and
//! the final check `eq(τ, r) · (Σ α^i C_i + Σ_m λ·w_m(M_m)) = claim` at the
//! opened values, with the selectors and periodic columns computed at the
//! point and the constraints and messages lowered from the AIR
//! ([`crate::constraints`]).

use p3_air::BaseAir;
use p3_field::{PrimeCharacteristicRing, TwoAdicField};
use sigagg_prover::config::Val;
use sigagg_prover::zerocheck::{SkipAir, round_degree, skip_points};

use crate::Ext;
use crate::circuit::{CircuitBuilder, Wire};
use crate::constraints::{OpenedRow, lower_with_messages};
use crate::error::CircuitError;
use crate::sumcheck;
use crate::transcript::CircuitChallenger;

/// A zerocheck proof's values, as wires (the proof's fields, in order).
#[derive(Clone, Debug)]
pub struct ZerocheckWires {
    /// The skip polynomial off `H`, then on `H`.
    pub skip_values: Vec<Wire>,
    /// Each ordinary round's values at `0 ..= d + 1`.
    pub rounds: Vec<Vec<Wire>>,
    /// Every column at the point.
    pub local: Vec<Wire>,
    /// The AIR's next-row columns at the point, in its order.
    pub next: Vec<Wire>,
}

/// One message's weights, as wires: the count's, each field's, the
/// constant (`sigagg_prover::zerocheck::MessageWeights`).
pub type WeightWires = (Wire, Vec<Wire>, Wire);

/// A bus argument's claim on one table, as wires
/// (`sigagg_prover::zerocheck::BusClaim`): the point, each message's
/// weights, the value. In a whole verifier they come from the GKR's
/// verification; here they are the circuit's to give.
#[derive(Clone, Debug)]
pub struct BusClaimWires {
    /// The point, lowest row bit first.
    pub point: Vec<Wire>,
    /// Per message: the count's weight, each field's, the constant.
    pub messages: Vec<WeightWires>,
    /// The claimed value.
    pub value: Wire,
}

/// The point the zerocheck reduces to, as wires.
#[derive(Clone, Debug)]
pub struct PointWires {
    /// The skip variable's challenge.
    pub skip: Wire,
    /// The ordinary variables' challenges.
    pub rest: Vec<Wire>,
}

/// Records the verification of `proof` for `air` at `2^log_height` rows,
/// skipping `skip` variables, its round polynomials of `degree` (the
/// AIR's `round_degree`, which the caller has from its `summary`: one
/// symbolic evaluation per table), against the bus argument's `bus` claim on
/// the table (if it sends messages); returns the point. The proof's lengths must
/// be those of such a proof ([`CircuitError::Unsupported`] otherwise):
/// they fix the circuit.
pub fn verify<A>(
    b: &mut CircuitBuilder,
    transcript: &mut CircuitChallenger,
    air: &A,
    (skip, log_height, degree): (usize, usize, usize),
    proof: &ZerocheckWires,
    bus: Option<&BusClaimWires>,
) -> Result<PointWires, CircuitError>
where
    A: SkipAir,
{
    debug_assert_eq!(round_degree(air).ok(), Some(degree), "the AIR's round degree");
    let group = 1usize << skip;
    let points = skip_points(skip, degree);
    let next_columns = air.main_next_row_columns();
    if log_height < skip
        || proof.skip_values.len() != points.len() + group
        || proof.rounds.len() != log_height - skip
        || proof.rounds.iter().any(|r| r.len() != degree + 2)
        || proof.local.len() != BaseAir::<Val>::width(air)
        || proof.next.len() != next_columns.len()
    {
        return Err(CircuitError::Unsupported("a zerocheck proof of another shape"));
    }

    // The weights, the point and the target: without a bus claim, a point
    // from the transcript and 0; with one, the claim's point and λ times
    // its value, the messages weighted by λ times the claim's weights.
    let alpha = transcript.sample_ext(b);
    let zero = b.zero();
    let (tau, target, message_weights) = match bus {
        None => ((0..log_height).map(|_| transcript.sample_ext(b)).collect::<Vec<_>>(), zero, Vec::new()),
        Some(claim) => {
            if claim.point.len() != log_height {
                return Err(CircuitError::Unsupported("a bus claim at a point of another dimension"));
            }
            let lambda = transcript.sample_ext(b);
            let weights: Vec<WeightWires> = claim
                .messages
                .iter()
                .map(|(count, fields, constant)| {
                    let fields = fields.iter().map(|&f| b.mul(lambda, f)).collect();
                    (b.mul(lambda, *count), fields, b.mul(lambda, *constant))
                })
                .collect();
            (claim.point.clone(), b.mul(lambda, claim.value), weights)
        }
    };
    let (tau_skip, tau_rest) = tau.split_at(skip);

    // The skip polynomial on H, weighted by eq over the group's bits, is the target.
    let on_h = &proof.skip_values[points.len()..];
    let eq_skip = b.eq_table(tau_skip);
    let sum = b.dot(&eq_skip, on_h);
    b.assert_eq(sum, target);
    for &v in &proof.skip_values {
        transcript.observe_ext(b, v);
    }
    let r0 = transcript.sample_ext(b);
    let w = Val::two_adic_generator(skip);
    let h_nodes: Vec<Ext> = w.powers().take(group).map(Ext::from).collect();
    let nodes: Vec<Ext> = points.iter().map(|&p| Ext::from(p)).chain(h_nodes.iter().copied()).collect();
    let mut claim = b.interpolate_at(&nodes, &proof.skip_values, r0);

    let mut rest = Vec::with_capacity(proof.rounds.len());
    for values in &proof.rounds {
        let (next, r) = sumcheck::round(b, transcript, claim, values);
        claim = next;
        rest.push(r);
    }
    for &v in proof.local.iter().chain(&proof.next) {
        transcript.observe_ext(b, v);
    }

    // The selectors and periodic columns at (r0, rest).
    let l = b.lagrange_basis(&h_nodes, r0);
    let one = b.constant(Ext::ONE);
    let not_rest: Vec<Wire> = rest.iter().map(|&r| b.sub(one, r)).collect();
    let first = not_rest.iter().fold(l[0], |acc, &f| b.mul(acc, f));
    let last = rest.iter().fold(l[group - 1], |acc, &f| b.mul(acc, f));
    let transition = b.sub(one, last);
    let columns = air.periodic_columns();
    let point = columns.iter().any(|col| b.defers(col.len())).then(|| b.point_inputs(r0, &rest));
    let periodic: Vec<Wire> = columns
        .iter()
        .map(|col| {
            if let Some(point) = point.as_ref().filter(|_| b.defers(col.len())) {
                return b.defer(col, skip, point, (r0, rest.clone()));
            }
            let period = col.len();
            let bits = ((period / group).max(1).trailing_zeros() as usize).min(rest.len());
            let eq = b.eq_table(&rest[..bits]);
            let per_j: Vec<Wire> = (0..group)
                .map(|j| {
                    let column: Vec<Wire> =
                        (0..eq.len()).map(|g| b.constant(Ext::from(col[(g * group + j) % period]))).collect();
                    b.dot(&eq, &column)
                })
                .collect();
            b.dot(&l, &per_j)
        })
        .collect();

    // The final check.
    let mut next = vec![zero; proof.local.len()];
    for (&c, &v) in next_columns.iter().zip(&proof.next) {
        next[c] = v;
    }
    let at = OpenedRow { local: &proof.local, next: &next, periodic: &periodic, first, last, transition };
    let (constraints, messages) = lower_with_messages(b, air, &at)?;
    if bus.is_some() && messages.len() != message_weights.len() {
        return Err(CircuitError::Unsupported("a bus claim for another number of messages"));
    }
    let mut power = one;
    let mut term = zero;
    for (i, c) in constraints.into_iter().enumerate() {
        if i > 0 {
            power = b.mul(power, alpha);
        }
        let weighted = b.mul(power, c);
        term = b.add(term, weighted);
    }
    // Each message's term: its weights' constant, count and fields.
    for (message, (count_w, field_ws, constant_w)) in messages.iter().zip(&message_weights) {
        if message.fields.len() > field_ws.len() {
            return Err(CircuitError::Unsupported("a message wider than its weights"));
        }
        let counted = b.mul(*count_w, message.count);
        let mut m = b.add(*constant_w, counted);
        for (&f, &w) in message.fields.iter().zip(field_ws) {
            let weighted = b.mul(w, f);
            m = b.add(m, weighted);
        }
        term = b.add(term, m);
    }
    let eq = if tau_rest.is_empty() { one } else { b.eq_at(tau_rest, &rest) };
    let total = b.mul(eq, term);
    b.assert_eq(total, claim);
    Ok(PointWires { skip: r0, rest })
}
