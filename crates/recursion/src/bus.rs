//! whir-skip's bus argument as a circuit (`sigagg_prover::logup::verify`),
//! step for step on the same transcript: the fingerprint challenges `γ`,
//! `β`; `p3-multi-stark`'s fractional GKR from the root `0 / D` down to
//! the leaves' values `N`, `D` at the point `ρ`; the batching challenge
//! `μ` and the tables' shares, checked against `N + μ·D` with the
//! padding's part; and each table's [`BusClaimWires`] for its zerocheck
//! ([`crate::zerocheck::verify`]).
//!
//! The fractional GKR's transcript is Plonky3's spongefish-style one
//! (`p3_challenger::fs`): a seed fixed by the number of variables (its
//! field elements are computed natively from the same domain separator
//! and absorbed as constants), then every value as its five limbs; its
//! round and branch challenges are drawn again where they are zero, which
//! happens with probability `5 / |EF|` per draw: the circuit asserts them
//! nonzero instead (an honest proof then fails to prove with that
//! probability; nothing false is accepted).

use p3_field::PrimeCharacteristicRing;
use p3_multi_stark::fractional_gkr::FractionGkrShape;
use sigagg_prover::config::Val;
use sigagg_prover::logup::{Buses, Layout};
use sigagg_prover::zerocheck::Message;

use crate::Ext;
use crate::circuit::{CircuitBuilder, Wire};
use crate::error::CircuitError;
use crate::transcript::CircuitChallenger;
use crate::zerocheck::{BusClaimWires, WeightWires};

/// One layer of the fractional GKR, as wires (`FractionGkrLayerProof`).
#[derive(Clone, Debug)]
pub struct GkrLayerWires {
    /// Each round's polynomial at 0, 2 and 3.
    pub rounds: Vec<[Wire; 3]>,
    /// The two children: `n0, d0, n1, d1`.
    pub claims: [Wire; 4],
}

/// A bus argument's proof, as wires (`sigagg_prover::logup::LogUpProof`).
#[derive(Clone, Debug)]
pub struct LogUpWires {
    /// The root fraction's denominator (its numerator is zero: the buses
    /// balance).
    pub root_denominator: Wire,
    /// The layers, root first.
    pub layers: Vec<GkrLayerWires>,
    /// Each table's share.
    pub shares: Vec<Wire>,
}

/// Records the verification of the bus argument `proof` for tables of
/// `2^log_heights[t]` rows sending `messages[t]`; returns each table's
/// claim (`None` for a table without messages). The proof's lengths must
/// be those the statement fixes ([`CircuitError::Unsupported`]
/// otherwise), and a statement without messages, or whose messages may
/// count past the field, has no bus argument to verify (the same).
pub fn verify(
    b: &mut CircuitBuilder,
    transcript: &mut CircuitChallenger,
    messages: &[Vec<Message>],
    log_heights: &[usize],
    proof: &LogUpWires,
) -> Result<Vec<Option<BusClaimWires>>, CircuitError> {
    let buses = Buses::of_messages(messages);
    buses.check_bound(log_heights).map_err(|_| CircuitError::Unsupported("messages that may count past the field"))?;
    if !buses.any() {
        return Err(CircuitError::Unsupported("a statement without messages"));
    }
    let layout = Layout::new(log_heights, &buses.counts());
    if proof.shares.len() != messages.len()
        || proof.layers.len() != layout.log_size
        || proof.layers.iter().enumerate().any(|(i, layer)| layer.rounds.len() != i)
    {
        return Err(CircuitError::Unsupported("a bus argument of another shape"));
    }
    let gamma = transcript.sample_ext(b);
    let beta = transcript.sample_ext(b);
    let (rho, numerator, denominator) = fractional_gkr(b, transcript, layout.log_size, proof);
    let mu = transcript.sample_ext(b);
    for &share in &proof.shares {
        transcript.observe_ext(b, share);
    }

    // Σ shares + μ·(1 − Σ_blocks w) = N + μ·D; a table without messages
    // has no share to give.
    let zero = b.zero();
    let one = b.constant(Ext::ONE);
    for (ms, &share) in buses.messages.iter().zip(&proof.shares) {
        if ms.is_empty() {
            b.assert_eq(share, zero);
        }
    }
    let weights: Vec<Wire> =
        layout.blocks.iter().map(|&(_, _, h, offset)| block_weight(b, &layout, &rho, h, offset)).collect();
    let covered = weights.iter().fold(zero, |acc, &w| b.add(acc, w));
    let uncovered = b.sub(one, covered);
    let padding = b.mul(mu, uncovered);
    let total = proof.shares.iter().fold(padding, |acc, &s| b.add(acc, s));
    let mu_d = b.mul(mu, denominator);
    let leaves = b.add(numerator, mu_d);
    b.assert_eq(total, leaves);

    Ok(claims(b, (&buses, &layout), log_heights, (gamma, beta, mu), (&rho, &weights), &proof.shares))
}

/// The fractional GKR (`p3_multi_stark::fractional_gkr::verify_fractional_gkr`):
/// returns the leaves' point `ρ` and the claimed `N`, `D` there.
fn fractional_gkr(
    b: &mut CircuitBuilder,
    transcript: &mut CircuitChallenger,
    num_variables: usize,
    proof: &LogUpWires,
) -> (Vec<Wire>, Wire, Wire) {
    let one = b.constant(Ext::ONE);
    // The domain separator's seed, then the root denominator (nonzero).
    transcript.observe_separator(b, &FractionGkrShape { num_variables }.domain_separator::<Val, Ext>());
    transcript.observe_ext(b, proof.root_denominator);
    b.div(one, proof.root_denominator);

    let mut point: Vec<Wire> = Vec::new();
    let mut numerator = b.zero();
    let mut denominator = proof.root_denominator;
    for layer in &proof.layers {
        let lambda = transcript.sample_ext(b);
        let scaled = b.mul(lambda, denominator);
        let mut running = b.add(numerator, scaled);
        let mut round_point = Vec::with_capacity(layer.rounds.len() + 1);
        for values in &layer.rounds {
            for &v in values {
                transcript.observe_ext(b, v);
            }
            let r = nonzero_sample(b, transcript);
            // The round polynomial at 0, 1 (the running sum less its
            // value at 0), 2 and 3.
            let at_one = b.sub(running, values[0]);
            running = b.interpolate_at_integers(&[values[0], at_one, values[1], values[2]], r);
            round_point.push(r);
        }
        let [n0, d0, n1, d1] = layer.claims;
        // gate = d1·n0 + d0·n1 + λ·d0·d1.
        let cross = b.mul(d1, n0);
        let cross2 = b.mul(d0, n1);
        let dd = b.mul(d0, d1);
        let ldd = b.mul(lambda, dd);
        let sum = b.add(cross, cross2);
        let gate = b.add(sum, ldd);
        let expected = if point.is_empty() {
            gate
        } else {
            let eq = b.eq_at(&point, &round_point);
            b.mul(eq, gate)
        };
        b.assert_eq(running, expected);
        for v in layer.claims {
            transcript.observe_ext(b, v);
        }
        let branch = nonzero_sample(b, transcript);
        numerator = b.lerp(branch, n0, n1);
        denominator = b.lerp(branch, d0, d1);
        round_point.insert(0, branch);
        point = round_point;
    }
    (point, numerator, denominator)
}

/// A challenge the native transcript draws again where it is zero: here
/// asserted nonzero (it has an inverse).
fn nonzero_sample(b: &mut CircuitBuilder, transcript: &mut CircuitChallenger) -> Wire {
    let r = transcript.sample_ext(b);
    let one = b.constant(Ext::ONE);
    b.div(one, r);
    r
}

/// A block's weight: `eq` of `ρ`'s top coordinates at the block's index
/// (`Layout::weight`).
fn block_weight(b: &mut CircuitBuilder, layout: &Layout, rho: &[Wire], log_rows: usize, offset: usize) -> Wire {
    let top = layout.log_size - log_rows;
    let index = offset >> log_rows;
    let one = b.constant(Ext::ONE);
    (0..top).fold(one, |acc, c| {
        let factor = if (index >> (top - 1 - c)) & 1 == 1 { rho[c] } else { b.sub(one, rho[c]) };
        b.mul(acc, factor)
    })
}

/// Each table's claim (`sigagg_prover::logup`'s step 4): at `ρ`'s last
/// coordinates, per message `w·count + w·μ·(β − bus) − Σ_i w·μ·γ^(i+1)·field_i`.
fn claims(
    b: &mut CircuitBuilder,
    (buses, layout): (&Buses, &Layout),
    log_heights: &[usize],
    (gamma, beta, mu): (Wire, Wire, Wire),
    (rho, weights): (&[Wire], &[Wire]),
    shares: &[Wire],
) -> Vec<Option<BusClaimWires>> {
    let max_fields = buses.messages.iter().flatten().map(|m| m.1).max().unwrap_or(0);
    let mut gamma_powers = Vec::with_capacity(max_fields);
    for i in 0..max_fields {
        gamma_powers.push(if i == 0 { gamma } else { b.mul(gamma_powers[i - 1], gamma) });
    }
    let mut claims: Vec<Option<BusClaimWires>> = buses
        .messages
        .iter()
        .zip(log_heights)
        .zip(shares)
        .map(|((ms, &h), &value)| {
            (!ms.is_empty()).then(|| BusClaimWires {
                point: (0..h).map(|bit| rho[layout.log_size - 1 - bit]).collect(),
                messages: Vec::with_capacity(ms.len()),
                value,
            })
        })
        .collect();
    let mut per_table: Vec<Vec<Option<WeightWires>>> = buses.messages.iter().map(|ms| vec![None; ms.len()]).collect();
    for (&(t, j, _, _), &w) in layout.blocks.iter().zip(weights) {
        let (bus, fields) = buses.messages[t][j];
        let w_mu = b.mul(w, mu);
        let field_weights = gamma_powers[..fields]
            .iter()
            .map(|&g| {
                let weighted = b.mul(w_mu, g);
                let zero = b.zero();
                b.sub(zero, weighted)
            })
            .collect();
        let bus = b.constant(Ext::from_usize(bus));
        let shifted = b.sub(beta, bus);
        per_table[t][j] = Some((w, field_weights, b.mul(w_mu, shifted)));
    }
    for (claim, weights) in claims.iter_mut().zip(per_table) {
        if let Some(claim) = claim {
            claim.messages = weights.into_iter().map(|m| m.expect("every message has a block")).collect();
        }
    }
    claims
}
