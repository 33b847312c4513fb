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

use p3_challenger::FieldChallenger;
use p3_field::{ExtensionField, Field, PackedFieldExtension, PackedValue, PrimeCharacteristicRing, PrimeField64};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_maybe_rayon::prelude::*;
use p3_multi_stark::fractional_gkr::{
    Fraction, FractionGkrError, FractionGkrProof, LeafNumerator, prove_fractional_gkr, verify_fractional_gkr,
};
use p3_multilinear_util::poly::{Poly, PolyMaybePacked};
use serde::{Deserialize, Serialize};

use crate::config::{Challenge, Challenger, PackedVal, Val};
use crate::messages::{Input, MessageProgram};
use crate::poly::{eq_table, row_at};
use crate::zerocheck::{BusClaim, MessageWeights, SkipAir, ZerocheckError, messages};

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

type ExtPacked = <Challenge as ExtensionField<Val>>::ExtensionPacking;
const LANES: usize = PackedVal::WIDTH;

/// Where each message's block of leaves sits.
struct Layout {
    /// `(table, message, log2 rows, offset)`, tallest first.
    blocks: Vec<(usize, usize, usize, usize)>,
    /// log2 of the leaf table.
    log_size: usize,
}

impl Layout {
    fn new(log_heights: &[usize], counts: &[usize]) -> Self {
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
    fn weight(&self, rho: &[Challenge], log_rows: usize, offset: usize) -> Challenge {
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
    fn row_point(&self, rho: &[Challenge], log_rows: usize) -> Vec<Challenge> {
        (0..log_rows).map(|b| rho[self.log_size - 1 - b]).collect()
    }
}

/// The statement's buses: every AIR's messages and each bus's index.
struct Buses {
    /// Per AIR, per message: `(bus index, number of fields)`.
    messages: Vec<Vec<(usize, usize)>>,
    /// Per AIR, the sum of its messages' declared count bounds.
    weights: Vec<u64>,
}

impl Buses {
    fn new<A: SkipAir>(airs: &[&A]) -> Result<Self, ZerocheckError> {
        let all = airs.iter().map(|air| messages(*air)).collect::<Result<Vec<_>, _>>()?;
        let mut names: Vec<&str> = all.iter().flatten().map(|m| m.bus.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        let index = |bus: &str| names.binary_search(&bus).expect("a name of the list");
        let messages = all.iter().map(|ms| ms.iter().map(|m| (index(&m.bus), m.fields)).collect()).collect();
        let weights = all.iter().map(|ms| ms.iter().map(|m| u64::from(m.weight)).sum()).collect();
        Ok(Self { messages, weights })
    }

    /// Plonky3's LogUp bound (`p3_lookup::check_multiplicity_height_bound`,
    /// which `p3-batch-stark` checks on both sides): the weights times the
    /// heights, summed over the whole statement, every bus and both
    /// directions together, below `p`. Saturating in `u128` (a height
    /// past it counts as `u128::MAX`), which changes no answer: `p` is
    /// far below.
    fn check_bound(&self, log_heights: &[usize]) -> Result<(), LogUpError> {
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

    fn any(&self) -> bool {
        self.messages.iter().any(|m| !m.is_empty())
    }

    fn counts(&self) -> Vec<usize> {
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

/// Proves that the traces' messages balance; returns the proof and each
/// table's claim (`None` for a table without messages), or `None` for a
/// statement without messages. The challenger must hold the commitment.
///
/// # Errors
/// An AIR the zerocheck does not support, messages that may count past
/// the field ([`check_multiplicity_bound`]), or buses that do not balance
/// (the fractional GKR refuses to prove them).
pub fn prove<A: SkipAir>(
    airs: &[&A],
    traces: &[RowMajorMatrix<Val>],
    challenger: &mut Challenger,
) -> Result<Option<Proven>, String> {
    prove_split(airs, traces, traces, challenger)
}

/// [`prove`], with the fractional GKR run on the leaves of `gkr_traces`
/// and the shares computed on `share_traces`: the same traces for an
/// honest proof, others for a test's forgery (which only the check of
/// step 3 catches).
pub(crate) fn prove_split<A: SkipAir>(
    airs: &[&A],
    gkr_traces: &[RowMajorMatrix<Val>],
    share_traces: &[RowMajorMatrix<Val>],
    challenger: &mut Challenger,
) -> Result<Option<Proven>, String> {
    let traces = gkr_traces;
    let buses = Buses::new(airs).map_err(|e| e.to_string())?;
    let log_heights: Vec<usize> = traces.iter().map(|t| t.height().trailing_zeros() as usize).collect();
    buses.check_bound(&log_heights).map_err(|e| e.to_string())?;
    if !buses.any() {
        return Ok(None);
    }
    let layout = Layout::new(&log_heights, &buses.counts());
    let gamma: Challenge = challenger.sample_algebra_element();
    let beta: Challenge = challenger.sample_algebra_element();
    let (numerators, denominators) = tracing::info_span!("leaves")
        .in_scope(|| leaves(airs, traces, &buses, &layout, gamma, beta))
        .map_err(|e| e.to_string())?;
    let numerators = Poly::new(numerators);
    // Packed where the leaves fill the lanes: the GKR's SIMD kernels.
    let denominators = if layout.log_size >= LANES.trailing_zeros() as usize {
        PolyMaybePacked::Packed(Poly::new(denominators).pack::<Val, Challenge>())
    } else {
        PolyMaybePacked::Scalar(Poly::new(denominators))
    };
    let fraction = Fraction { n: LeafNumerator::Base(&numerators), d: &denominators };
    let gkr_span = tracing::info_span!("fractional gkr").entered();
    let (gkr, output) =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| prove_fractional_gkr(fraction, challenger))).map_err(
            |panic| format!("the bus argument refused the witness: {}", crate::whir::panic_message(&*panic)),
        )?;
    drop(gkr_span);
    let _shares_span = tracing::info_span!("shares").entered();
    let rho = output.point.as_slice().to_vec();
    let mu: Challenge = challenger.sample_algebra_element();
    let denominators = denominators.unpack();
    let (numerators, denominators) = if core::ptr::eq(gkr_traces, share_traces) {
        (numerators.as_slice().to_vec(), denominators.as_slice().to_vec())
    } else {
        leaves(airs, share_traces, &buses, &layout, gamma, beta).map_err(|e| e.to_string())?
    };
    let mut shares = vec![Challenge::ZERO; airs.len()];
    let mut eqs: Vec<Option<Vec<Challenge>>> = vec![None; layout.log_size + 1];
    for &(t, _, h, offset) in &layout.blocks {
        let w = layout.weight(&rho, h, offset);
        let eq = eqs[h].get_or_insert_with(|| eq_table(&layout.row_point(&rho, h)));
        let (n, d) = (&numerators[offset..offset + (1 << h)], &denominators[offset..offset + (1 << h)]);
        let (on_n, on_d) = eq_dots(eq, n, d);
        shares[t] += w * (on_n + mu * on_d);
    }
    shares.iter().for_each(|&s| challenger.observe_algebra_element(s));
    let claims = claims(&buses, &layout, &log_heights, (gamma, beta, mu), &rho, &shares);
    Ok(Some((LogUpProof { gkr, shares }, claims)))
}

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
    challenger: &mut Challenger,
) -> Result<Option<Vec<Option<BusClaim>>>, LogUpError> {
    let buses = Buses::new(airs)?;
    buses.check_bound(log_heights)?;
    let proof = match (buses.any(), proof) {
        (false, None) => return Ok(None),
        (true, Some(proof)) => proof,
        _ => return Err(LogUpError::Shares),
    };
    if proof.shares.len() != airs.len() {
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
    let buses = Buses::new(airs)?;
    if !buses.any() {
        return Ok(Vec::new());
    }
    let layout = Layout::new(log_heights, &buses.counts());
    let fields = buses.messages.iter().flatten().map(|m| m.1).max().unwrap_or(0) as f64;
    let l = layout.log_size as f64;
    Ok(vec![
        ("logup fingerprint", (layout.log_size as f64).exp2() * (fields + 2.0)),
        ("fractional gkr", 1.5 * l * (l - 1.0) + 2.0 * l),
        ("bus shares", 1.0),
    ])
}

/// The leaves of step 2: numerators (counts) and denominators
/// (`beta - fingerprint`), padded with `0 / 1`.
fn leaves<A: SkipAir>(
    airs: &[&A],
    traces: &[RowMajorMatrix<Val>],
    buses: &Buses,
    layout: &Layout,
    gamma: Challenge,
    beta: Challenge,
) -> Result<(Vec<Val>, Vec<Challenge>), ZerocheckError> {
    let size = 1usize << layout.log_size;
    let mut numerators = vec![Val::ZERO; size];
    let mut denominators = vec![Challenge::ONE; size];
    let max_fields = buses.messages.iter().flatten().map(|m| m.1).max().unwrap_or(0);
    let gamma_powers: Vec<Challenge> = gamma.powers().skip(1).take(max_fields).collect();
    for (t, (air, trace)) in airs.iter().zip(traces).enumerate() {
        let ms = &buses.messages[t];
        if ms.is_empty() {
            continue;
        }
        let program = MessageProgram::new(*air)?;
        let columns = air.periodic_columns();
        let height = trace.height();
        // Each message's block, and its constant part `beta - bus`.
        let blocks: Vec<(usize, Challenge)> = ms
            .iter()
            .enumerate()
            .map(|(j, &(bus, _))| {
                let &(_, _, _, offset) =
                    layout.blocks.iter().find(|b| b.0 == t && b.1 == j).expect("every message has a block");
                (offset, beta - Challenge::from_usize(bus))
            })
            .collect();
        let offsets: Vec<usize> = blocks.iter().map(|b| b.0).collect();
        let constants: Vec<Challenge> = blocks.iter().map(|b| b.1).collect();
        let rows = TableRows { trace, periodic: &columns };
        block_chunks(&mut numerators, &mut denominators, &offsets, height).into_par_iter().enumerate().for_each(
            |(chunk, mut out)| rows.write_leaves(&program, chunk * LEAF_CHUNK, &constants, &gamma_powers, &mut out),
        );
    }
    Ok((numerators, denominators))
}

/// The disjoint blocks of `height` leaves at `offsets`, in chunks of
/// [`LEAF_CHUNK`] rows: `[chunk][block]`, so that each chunk of rows
/// writes every block's leaves in place.
#[allow(clippy::type_complexity)]
fn block_chunks<'a>(
    numerators: &'a mut [Val],
    denominators: &'a mut [Challenge],
    offsets: &[usize],
    height: usize,
) -> Vec<Vec<(&'a mut [Val], &'a mut [Challenge])>> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&j| offsets[j]);
    let (mut n_rest, mut d_rest, mut at) = (numerators, denominators, 0);
    let mut blocks: Vec<Option<(&mut [Val], &mut [Challenge])>> = (0..offsets.len()).map(|_| None).collect();
    for &j in &order {
        let skip = offsets[j] - at;
        let (n_block, n_tail) = core::mem::take(&mut n_rest)[skip..].split_at_mut(height);
        let (d_block, d_tail) = core::mem::take(&mut d_rest)[skip..].split_at_mut(height);
        (n_rest, d_rest, at) = (n_tail, d_tail, offsets[j] + height);
        blocks[j] = Some((n_block, d_block));
    }
    let mut by_chunk: Vec<Vec<_>> =
        (0..height.div_ceil(LEAF_CHUNK)).map(|_| Vec::with_capacity(offsets.len())).collect();
    for (n_block, d_block) in blocks.into_iter().map(|b| b.expect("every block is placed")) {
        for (chunk, pair) in n_block.chunks_mut(LEAF_CHUNK).zip(d_block.chunks_mut(LEAF_CHUNK)).enumerate() {
            by_chunk[chunk].push(pair);
        }
    }
    by_chunk
}

/// `(sum_r eq_r n_r, sum_r eq_r d_r)`, packed `LANES` rows at a time.
fn eq_dots(eq: &[Challenge], n: &[Val], d: &[Challenge]) -> (Challenge, Challenge) {
    let whole = eq.len() / LANES * LANES;
    let (on_n, on_d) = (0..whole / LANES)
        .into_par_iter()
        .fold(
            || (ExtPacked::ZERO, ExtPacked::ZERO),
            |(on_n, on_d), i| {
                let rows = i * LANES..(i + 1) * LANES;
                let e = ExtPacked::from_ext_slice(&eq[rows.clone()]);
                (on_n + e * *PackedVal::from_slice(&n[rows.clone()]), on_d + e * ExtPacked::from_ext_slice(&d[rows]))
            },
        )
        .reduce(|| (ExtPacked::ZERO, ExtPacked::ZERO), |a, b| (a.0 + b.0, a.1 + b.1));
    let unpack =
        |p: ExtPacked| -> Challenge { <ExtPacked as PackedFieldExtension<Val, Challenge>>::to_ext_iter([p]).sum() };
    let rest = eq[whole..].iter().zip(&n[whole..]).zip(&d[whole..]);
    let (tail_n, tail_d) =
        rest.fold((Challenge::ZERO, Challenge::ZERO), |(a, b), ((&e, &n), &d)| (a + e * n, b + e * d));
    (unpack(on_n) + tail_n, unpack(on_d) + tail_d)
}

/// Rows per task of [`leaves`].
const LEAF_CHUNK: usize = 1 << 12;

/// A trace and its AIR's periodic columns, read by [`leaves`].
struct TableRows<'a> {
    trace: &'a RowMajorMatrix<Val>,
    periodic: &'a [Vec<Val>],
}

impl TableRows<'_> {
    /// Rows `start..` of every message's leaves into `out[message]`:
    /// `LANES` rows at a time where they fill the chunk, one at a time
    /// otherwise (tables shorter than `LANES` rows).
    fn write_leaves(
        &self,
        program: &MessageProgram,
        start: usize,
        constants: &[Challenge],
        gamma_powers: &[Challenge],
        out: &mut [(&mut [Val], &mut [Challenge])],
    ) {
        let len = out[0].0.len();
        if len.is_multiple_of(LANES) {
            let gammas: Vec<ExtPacked> = gamma_powers.iter().map(|&g| ExtPacked::from(g)).collect();
            let mut values = Vec::new();
            for base in (0..len).step_by(LANES) {
                program
                    .eval_with(|input| PackedVal::from_fn(|lane| self.input(input, start + base + lane)), &mut values);
                for (j, (n, d)) in out.iter_mut().enumerate() {
                    let (count, fields) = program.message(j, &values);
                    n[base..base + LANES].copy_from_slice(count.as_slice());
                    let mut denominator = ExtPacked::from(constants[j]);
                    for (field, g) in fields.zip(&gammas) {
                        denominator -= *g * field;
                    }
                    let unpacked = <ExtPacked as PackedFieldExtension<Val, Challenge>>::to_ext_iter([denominator]);
                    d[base..base + LANES].iter_mut().zip(unpacked).for_each(|(d, v)| *d = v);
                }
            }
        } else {
            let mut values = Vec::new();
            for r in 0..len {
                program.eval_with(|input| self.input(input, start + r), &mut values);
                for (j, (n, d)) in out.iter_mut().enumerate() {
                    let (count, fields) = program.message(j, &values);
                    n[r] = count;
                    d[r] = constants[j] - fields.zip(gamma_powers).map(|(f, &g)| g * f).sum::<Challenge>();
                }
            }
        }
    }

    /// `input` at row `r` (the last row's successor is itself).
    fn input(&self, input: Input, r: usize) -> Val {
        let (height, width) = (self.trace.height(), self.trace.width);
        match input {
            Input::Local(c) => self.trace.values[r * width + c],
            Input::Next(c) => self.trace.values[row_at(r, 1, height) * width + c],
            Input::Periodic(i) => self.periodic[i][r % self.periodic[i].len()],
            Input::First => Val::from_bool(r == 0),
            Input::Last => Val::from_bool(r == height - 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks sit tallest first, each aligned to its size; the weights of
    /// all blocks and the padding's share sum to one at any point.
    #[test]
    fn the_layout_is_aligned_and_its_weights_partition_one() {
        let layout = Layout::new(&[3, 5, 4], &[2, 1, 3]);
        // 2 x 8 + 32 + 3 x 16 = 96 leaves.
        assert_eq!(layout.log_size, 7);
        for &(_, _, h, offset) in &layout.blocks {
            assert_eq!(offset % (1 << h), 0);
        }
        let rho: Vec<Challenge> = (0..6u32).map(|i| Challenge::from_u32(i * 7 + 3).exp_u64(3)).collect();
        let mu = Challenge::from_u32(5);
        let total: Challenge = layout.blocks.iter().map(|&(_, _, h, o)| layout.weight(&rho, h, o) * mu).sum();
        assert_eq!(total + padding(&layout, &rho, mu), mu);
    }

    /// The LogUp bound is Plonky3's: every message's declared bound times
    /// its table's height, summed over the statement, below `p`; a table
    /// too tall for `u128`, or heights for another number of tables, is
    /// refused, not a panic.
    #[test]
    fn the_multiplicity_bound_is_checked() {
        use crate::zerocheck::toy::BoundedBus;
        // p = 2^31 - 2^24 + 1 = 16 x 133169152 + 1; the receive adds 1 a row.
        let check = |weight: u32, log_heights: &[usize]| {
            let air = BoundedBus { weight };
            check_multiplicity_bound(&vec![&air; log_heights.len()], log_heights)
        };
        assert!(check(133169151, &[4]).is_ok());
        assert!(matches!(check(133169152, &[4]), Err(LogUpError::MultiplicityBound(2130706448))));
        // Two tables share the bound: 2 x 8 x (2^26 + 1) < p <= 2 x 8 x (2^27 + 1).
        assert!(check(1 << 26, &[3, 3]).is_ok());
        assert!(matches!(check(1 << 27, &[3, 3]), Err(LogUpError::MultiplicityBound(_))));
        assert!(matches!(check(0, &[200]), Err(LogUpError::MultiplicityBound(u128::MAX))));
        let air = BoundedBus { weight: 1 };
        assert!(matches!(check_multiplicity_bound(&[&air], &[4, 4]), Err(LogUpError::Air(ZerocheckError::Shape(_)))));
    }

    /// The packed leaves are the row-by-row ones.
    #[test]
    fn packed_leaves_match_row_by_row() {
        let air = crate::zerocheck::toy::TestAir::new();
        let trace = air.trace(6);
        let program = MessageProgram::new(&air).unwrap();
        let periodic = p3_air::BaseAir::<Val>::periodic_columns(&air).into_owned();
        let rows = TableRows { trace: &trace, periodic: &periodic };
        let constants: Vec<Challenge> = (0..program.len()).map(|j| Challenge::from_usize(j + 11).exp_u64(7)).collect();
        let gammas: Vec<Challenge> = Challenge::from_u32(3).exp_u64(9).powers().skip(1).take(4).collect();
        let (height, messages) = (trace.height(), program.len());
        let (mut n, mut d) = (vec![Val::ZERO; height * messages], vec![Challenge::ZERO; height * messages]);
        let mut out: Vec<(&mut [Val], &mut [Challenge])> = n.chunks_mut(height).zip(d.chunks_mut(height)).collect();
        rows.write_leaves(&program, 0, &constants, &gammas, &mut out);
        for r in 0..height {
            let (mut n1, mut d1) = (vec![Val::ZERO; messages], vec![Challenge::ZERO; messages]);
            let mut one: Vec<(&mut [Val], &mut [Challenge])> = n1.chunks_mut(1).zip(d1.chunks_mut(1)).collect();
            rows.write_leaves(&program, r, &constants, &gammas, &mut one);
            for j in 0..messages {
                assert_eq!((n[j * height + r], d[j * height + r]), (n1[j], d1[j]), "row {r}, message {j}");
            }
        }
    }
}
