//! The bus argument of [`crate::skip_stark`]: LogUp by fractional GKR
//! over every table's bus messages, which leaves each table a
//! [`BusClaim`] its skip zerocheck proves.
//!
//! # The protocol
//!
//! Every message an AIR pushes on every row is a fraction
//! `count / (beta - fingerprint)`, `fingerprint = bus + sum_i gamma^(i+1) field_i`
//! (`bus` the index of the bus's name among the statement's names, sorted).
//! The buses balance when all fractions sum to zero.
//!
//! 1. After the commitment, the verifier draws `gamma` and `beta`.
//! 2. The fractions are laid out as one table of `2^L` leaves: one block
//!    of `2^n` leaves per message of each table of `2^n` rows, the tallest
//!    blocks first (so every block is aligned to its size), the rest
//!    `0 / 1`. `p3-multi-stark`'s fractional GKR proves that they sum to
//!    zero and leaves the numerator and denominator tables' multilinear
//!    values `N`, `D` at a point `rho`.
//! 3. The verifier draws `mu`. The prover sends each table's share
//!    `S_t = sum_j w_j (n_j~ + mu d_j~)(rho_t)`: `j` its messages, `w_j`
//!    `eq` of `rho`'s top coordinates at the block's index, `rho_t`
//!    `rho`'s last `n` coordinates, `n_j`, `d_j` the message's numerators
//!    and denominators over the rows. The verifier checks
//!    `sum_t S_t + mu (1 - sum_blocks w) = N + mu D` (the padding leaves
//!    give the last term).
//! 4. Each share becomes a [`BusClaim`]: at `rho_t`, the row terms
//!    `w_j count_j + w_j mu (beta - bus_j) - sum_i w_j mu gamma^(i+1) field_ji`
//!    sum to `S_t`. The zerocheck proves it against the committed columns.
//!
//! # Soundness
//!
//! LogUp: an unbalanced bus sums to zero over random `gamma`, `beta` with
//! probability at most `(rows x messages x (fields + 1)) / |EF|` over the
//! whole statement; the fractional GKR's error is `p3-multi-stark`'s; a
//! wrong share passes step 3 with probability at most `1 / |EF|` over `mu`
//! (the checked sum is linear in `mu`), and the zerocheck catches a wrong
//! claim.

mod prover;
#[cfg(test)]
mod tests;
mod verifier;

use p3_field::{PrimeCharacteristicRing, PrimeField64};
use p3_multi_stark::fractional_gkr::{FractionGkrError, FractionGkrProof};
use serde::{Deserialize, Serialize};

use crate::config::{Challenge, Val};
use crate::zerocheck::{BusClaim, Message, MessageWeights, SkipAir, ZerocheckError, messages};

pub use prover::prove;
pub(crate) use prover::prove_split;
pub use verifier::verify;
pub(crate) use verifier::verify_messages;

/// A bus argument and the claims it leaves each table (`None` for a
/// table without messages).
pub type Proven = (LogUpProof, Vec<Option<BusClaim>>);

/// What the bus argument adds to a proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogUpProof {
    /// The fractional GKR's layers.
    pub gkr: FractionGkrProof<Challenge>,
    /// Each table's share of the leaves' values (zero for a table without
    /// messages).
    pub shares: Vec<Challenge>,
}

/// Why a bus argument is refused.
#[derive(Debug, thiserror::Error)]
pub enum LogUpError {
    /// An AIR the zerocheck does not support.
    #[error(transparent)]
    Air(#[from] ZerocheckError),
    /// The proof carries another number of shares than tables.
    #[error("one share per table")]
    Shares,
    /// The fractional GKR fails.
    #[error("fractional GKR: {0}")]
    Gkr(#[from] FractionGkrError),
    /// The shares do not add up to the GKR's leaf values.
    #[error("the tables' shares do not add up to the leaves' values")]
    Sum,
    /// The statement's messages may count past the field: their declared
    /// per-row count bounds times the table heights sum to this, at least
    /// `p`, so an honest multiplicity could wrap modulo `p` and a forged
    /// one balance a bus ([`check_multiplicity_bound`]).
    #[error("the bus messages' count bounds times the table heights sum to {0}, not below the field's order")]
    MultiplicityBound(u128),
}

/// Where each message's block of leaves sits (step 2). Public for the
/// verifier circuit (`sigagg-recursion`), which lays out the same leaves.
#[derive(Clone, Debug)]
pub struct Layout {
    /// `(table, message, log2 rows, offset)`, tallest first.
    pub blocks: Vec<(usize, usize, usize, usize)>,
    /// log2 of the leaf table.
    pub log_size: usize,
}

impl Layout {
    /// The blocks of tables of `2^log_heights[t]` rows sending `counts[t]`
    /// messages.
    pub fn new(log_heights: &[usize], counts: &[usize]) -> Self {
        let mut blocks: Vec<(usize, usize, usize, usize)> = log_heights
            .iter()
            .zip(counts)
            .enumerate()
            .flat_map(|(t, (&h, &count))| (0..count).map(move |j| (t, j, h, 0)))
            .collect();
        blocks.sort_by_key(|&(t, j, h, _)| (core::cmp::Reverse(h), t, j));
        let mut offset = 0;
        for block in &mut blocks {
            block.3 = offset;
            offset += 1 << block.2;
        }
        Self { blocks, log_size: offset.next_power_of_two().trailing_zeros().max(1) as usize }
    }

    /// `eq` of `rho`'s top coordinates (big-endian) at the block's index.
    pub fn weight(&self, rho: &[Challenge], log_rows: usize, offset: usize) -> Challenge {
        let top = self.log_size - log_rows;
        let index = offset >> log_rows;
        (0..top)
            .map(|c| {
                let bit = (index >> (top - 1 - c)) & 1 == 1;
                if bit { rho[c] } else { Challenge::ONE - rho[c] }
            })
            .product()
    }

    /// `rho`'s last `log_rows` coordinates, lowest row bit first.
    pub fn row_point(&self, rho: &[Challenge], log_rows: usize) -> Vec<Challenge> {
        (0..log_rows).map(|b| rho[self.log_size - 1 - b]).collect()
    }
}

/// The statement's buses: every AIR's messages and each bus's index.
/// Public, as [`Layout`] is.
#[derive(Clone, Debug)]
pub struct Buses {
    /// Per AIR, per message: `(bus index, number of fields)`.
    pub messages: Vec<Vec<(usize, usize)>>,
    /// Per AIR, the sum of its messages' declared count bounds.
    weights: Vec<u64>,
}

impl Buses {
    fn new<A: SkipAir>(airs: &[&A]) -> Result<Self, ZerocheckError> {
        Ok(Self::of_messages(&airs.iter().map(|air| messages(*air)).collect::<Result<Vec<_>, _>>()?))
    }

    /// The buses of tables sending `all[t]`.
    pub fn of_messages(all: &[Vec<Message>]) -> Self {
        let mut names: Vec<&str> = all.iter().flatten().map(|m| m.bus.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        let index = |bus: &str| names.binary_search(&bus).expect("a name of the list");
        let messages = all.iter().map(|ms| ms.iter().map(|m| (index(&m.bus), m.fields)).collect()).collect();
        let weights = all.iter().map(|ms| ms.iter().map(|m| u64::from(m.weight)).sum()).collect();
        Self { messages, weights }
    }

    /// Plonky3's LogUp bound (`p3_lookup::check_multiplicity_height_bound`,
    /// which `p3-batch-stark` checks on both sides): the weights times the
    /// heights, summed over the whole statement, every bus and both
    /// directions together, below `p`. Saturating in `u128` (a height
    /// past it counts as `u128::MAX`), which changes no answer: `p` is
    /// far below.
    ///
    /// # Errors
    /// [`LogUpError::MultiplicityBound`], or another number of heights
    /// than tables.
    pub fn check_bound(&self, log_heights: &[usize]) -> Result<(), LogUpError> {
        if log_heights.len() != self.weights.len() {
            return Err(ZerocheckError::Shape("one height per table").into());
        }
        let height = |h: usize| u32::try_from(h).ok().and_then(|h| 1u128.checked_shl(h)).unwrap_or(u128::MAX);
        let sum = self
            .weights
            .iter()
            .zip(log_heights)
            .map(|(&w, &h)| u128::from(w).saturating_mul(height(h)))
            .fold(0, u128::saturating_add);
        if sum >= u128::from(Val::ORDER_U64) {
            return Err(LogUpError::MultiplicityBound(sum));
        }
        Ok(())
    }

    /// Whether any table sends a message.
    pub fn any(&self) -> bool {
        self.messages.iter().any(|m| !m.is_empty())
    }

    /// Each table's number of messages.
    pub fn counts(&self) -> Vec<usize> {
        self.messages.iter().map(Vec::len).collect()
    }
}

/// Refuses a statement whose messages may count past the field: each
/// message's count is only bounded on a row by what its AIR declares
/// (`Count::bounded`), and LogUp's multiplicities are sums of counts over
/// rows, so the declared bounds times the table heights of
/// `2^log_heights[t]` rows must sum below `p`
/// ([`LogUpError::MultiplicityBound`]), as Plonky3's own LogUp requires.
/// Prover and verifier both check it, from the AIRs and the statement's
/// heights alone.
///
/// # Errors
/// That, an AIR the zerocheck does not support, or another number of
/// heights than AIRs.
pub fn check_multiplicity_bound<A: SkipAir>(airs: &[&A], log_heights: &[usize]) -> Result<(), LogUpError> {
    Buses::new(airs)?.check_bound(log_heights)
}

/// The challenges of step 1, then the claims of step 4 from the shares.
fn claims(
    buses: &Buses,
    layout: &Layout,
    log_heights: &[usize],
    (gamma, beta, mu): (Challenge, Challenge, Challenge),
    rho: &[Challenge],
    shares: &[Challenge],
) -> Vec<Option<BusClaim>> {
    let mut claims: Vec<Option<BusClaim>> = buses
        .messages
        .iter()
        .zip(log_heights)
        .zip(shares)
        .map(|((ms, &h), &value)| {
            (!ms.is_empty()).then(|| BusClaim { point: layout.row_point(rho, h), messages: Vec::new(), value })
        })
        .collect();
    let gamma_powers: Vec<Challenge> =
        gamma.powers().skip(1).take(buses.messages.iter().flatten().map(|m| m.1).max().unwrap_or(0)).collect();
    let mut weights: Vec<Vec<MessageWeights<Challenge>>> = buses
        .messages
        .iter()
        .map(|ms| {
            vec![MessageWeights { count: Challenge::ZERO, fields: Vec::new(), constant: Challenge::ZERO }; ms.len()]
        })
        .collect();
    for &(t, j, h, offset) in &layout.blocks {
        let w = layout.weight(rho, h, offset);
        let (bus, fields) = buses.messages[t][j];
        weights[t][j] = MessageWeights {
            count: w,
            fields: gamma_powers[..fields].iter().map(|&g| -(w * mu * g)).collect(),
            constant: w * mu * (beta - Challenge::from_usize(bus)),
        };
    }
    for (claim, w) in claims.iter_mut().zip(weights) {
        if let Some(claim) = claim {
            claim.messages = w;
        }
    }
    claims
}

/// The padding's part of `N + mu D`: `mu (1 - sum_blocks w)`.
fn padding(layout: &Layout, rho: &[Challenge], mu: Challenge) -> Challenge {
    mu * (Challenge::ONE
        - layout.blocks.iter().map(|&(_, _, h, offset)| layout.weight(rho, h, offset)).sum::<Challenge>())
}

/// The bus argument's error terms for tables of `2^log_heights[t]` rows,
/// each as the number of bad challenges it counts (to be divided by
/// `|EF|`): the LogUp identity (the leaves' sum is a rational function of
/// `beta` and `gamma` whose numerator has degree at most
/// `leaves x (fields + 1)`), the fractional GKR (layer `i` has `i` rounds
/// of degree 3, a batching and a folding challenge) and the shares'
/// batching. Empty without messages.
///
/// # Errors
/// An AIR the zerocheck does not support.
pub fn error_counts<A: SkipAir>(
    airs: &[&A],
    log_heights: &[usize],
) -> Result<Vec<(&'static str, f64)>, ZerocheckError> {
    let messages = airs.iter().map(|air| messages(*air)).collect::<Result<Vec<_>, _>>()?;
    Ok(error_counts_of(&messages, log_heights))
}

/// [`error_counts`] of tables sending `messages[t]`.
pub fn error_counts_of(messages: &[Vec<Message>], log_heights: &[usize]) -> Vec<(&'static str, f64)> {
    let buses = Buses::of_messages(messages);
    if !buses.any() {
        return Vec::new();
    }
    let layout = Layout::new(log_heights, &buses.counts());
    let fields = buses.messages.iter().flatten().map(|m| m.1).max().unwrap_or(0) as f64;
    let l = layout.log_size as f64;
    vec![
        ("logup fingerprint", (layout.log_size as f64).exp2() * (fields + 2.0)),
        ("fractional gkr", 1.5 * l * (l - 1.0) + 2.0 * l),
        ("bus shares", 1.0),
    ]
}
