//! The prover's side of the bus argument: the leaves of step 2, the
//! fractional GKR and each table's share.

use p3_challenger::FieldChallenger;
use p3_field::{ExtensionField, PackedFieldExtension, PackedValue, PrimeCharacteristicRing};
use p3_maybe_rayon::prelude::*;
use p3_multi_stark::fractional_gkr::{Fraction, LeafNumerator, prove_fractional_gkr};
use p3_multilinear_util::poly::{Poly, PolyMaybePacked, PolyMaybePackedView};

use super::{Buses, Layout, LogUpProof, Proven, claims};
use crate::columns::Columns;
use crate::config::{Challenge, PackedVal, Val};
use crate::messages::{Input, MessageProgram};
use crate::poly::{eq_table, row_at};
use crate::zerocheck::{SkipAir, ZerocheckError};

type ExtPacked = <Challenge as ExtensionField<Val>>::ExtensionPacking;
const LANES: usize = PackedVal::WIDTH;

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
    traces: &[Columns<'_>],
    challenger: &mut impl FieldChallenger<Val>,
) -> Result<Option<Proven>, String> {
    prove_split(airs, traces, traces, challenger)
}

/// [`prove`], with the fractional GKR run on the leaves of `gkr_traces`
/// and the shares computed on `share_traces`: the same traces for an
/// honest proof, others for a test's forgery (which only the check of
/// step 3 catches).
pub(crate) fn prove_split<A: SkipAir>(
    airs: &[&A],
    gkr_traces: &[Columns<'_>],
    share_traces: &[Columns<'_>],
    challenger: &mut impl FieldChallenger<Val>,
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
    let (numerators, denominators) =
        tracing::info_span!("leaves", log_size = layout.log_size, messages = ?buses.counts())
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
    // The GKR's own leaves, borrowed as they are (packed or not: no copy
    // of 2^log_size cells), or a forgery's.
    let forged;
    let (numerators, denominators) = if core::ptr::eq(gkr_traces, share_traces) {
        (numerators.as_slice(), denominators.as_view())
    } else {
        forged = leaves(airs, share_traces, &buses, &layout, gamma, beta).map_err(|e| e.to_string())?;
        (forged.0.as_slice(), PolyMaybePacked::Scalar(Poly::new(forged.1.as_slice())))
    };
    let mut shares = vec![Challenge::ZERO; airs.len()];
    let mut eqs: Vec<Option<Vec<Challenge>>> = vec![None; layout.log_size + 1];
    for &(t, _, h, offset) in &layout.blocks {
        let w = layout.weight(&rho, h, offset);
        let eq = eqs[h].get_or_insert_with(|| eq_table(&layout.row_point(&rho, h)));
        let (on_n, on_d) = eq_dots(eq, &numerators[offset..offset + (1 << h)], &denominators, offset);
        shares[t] += w * (on_n + mu * on_d);
    }
    shares.iter().for_each(|&s| challenger.observe_algebra_element(s));
    let claims = claims(&buses, &layout, &log_heights, (gamma, beta, mu), &rho, &shares);
    Ok(Some((LogUpProof { gkr, shares }, claims)))
}

/// The leaves of step 2: numerators (counts) and denominators
/// (`beta - fingerprint`), padded with `0 / 1`.
fn leaves<A: SkipAir>(
    airs: &[&A],
    traces: &[Columns<'_>],
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

/// `(sum_r eq_r n_r, sum_r eq_r d_r)` over the block of `eq.len()` leaves
/// at `offset` (`n` its numerators, `d` all denominators), `LANES` rows at
/// a time: `d`'s packed elements as they are where the block is whole
/// packed elements, else packed here.
pub(super) fn eq_dots(
    eq: &[Challenge],
    n: &[Val],
    d: &PolyMaybePackedView<'_, Val, Challenge>,
    offset: usize,
) -> (Challenge, Challenge) {
    let len = eq.len();
    let packed = match d {
        PolyMaybePacked::Packed(p) if offset.is_multiple_of(LANES) && len.is_multiple_of(LANES) => {
            Some(&p.as_slice()[offset / LANES..(offset + len) / LANES])
        }
        _ => None,
    };
    let scalar = |r: usize| -> Challenge {
        match d {
            PolyMaybePacked::Scalar(p) => p.as_slice()[offset + r],
            PolyMaybePacked::Packed(p) => p.as_slice()[(offset + r) / LANES].extract((offset + r) % LANES),
        }
    };
    let whole = len / LANES * LANES;
    let (on_n, on_d) = (0..whole / LANES)
        .into_par_iter()
        .fold(
            || (ExtPacked::ZERO, ExtPacked::ZERO),
            |(on_n, on_d), i| {
                let rows = i * LANES..(i + 1) * LANES;
                let e = ExtPacked::from_ext_slice(&eq[rows.clone()]);
                let d_i = match packed {
                    Some(p) => p[i],
                    None => {
                        let lanes: [Challenge; LANES] = core::array::from_fn(|l| scalar(rows.start + l));
                        ExtPacked::from_ext_slice(&lanes)
                    }
                };
                (on_n + e * *PackedVal::from_slice(&n[rows]), on_d + e * d_i)
            },
        )
        .reduce(|| (ExtPacked::ZERO, ExtPacked::ZERO), |a, b| (a.0 + b.0, a.1 + b.1));
    let unpack =
        |p: ExtPacked| -> Challenge { <ExtPacked as PackedFieldExtension<Val, Challenge>>::to_ext_iter([p]).sum() };
    let (tail_n, tail_d) =
        (whole..len).fold((Challenge::ZERO, Challenge::ZERO), |(a, b), r| (a + eq[r] * n[r], b + eq[r] * scalar(r)));
    (unpack(on_n) + tail_n, unpack(on_d) + tail_d)
}

/// Rows per task of [`leaves`].
const LEAF_CHUNK: usize = 1 << 12;

/// A trace and its AIR's periodic columns, read by [`leaves`].
pub(super) struct TableRows<'a> {
    pub(super) trace: &'a Columns<'a>,
    pub(super) periodic: &'a [Vec<Val>],
}

impl TableRows<'_> {
    /// Rows `start..` of every message's leaves into `out[message]`:
    /// `LANES` rows at a time where they fill the chunk, one at a time
    /// otherwise (tables shorter than `LANES` rows).
    pub(super) fn write_leaves(
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
                program.eval_with(|input| self.packed_input(input, start + base), &mut values);
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

    /// `input` at rows `r .. r + LANES`: one load from the column where
    /// the rows are contiguous.
    fn packed_input(&self, input: Input, r: usize) -> PackedVal {
        let height = self.trace.height();
        match input {
            Input::Local(c) => *PackedVal::from_slice(&self.trace.column(c)[r..r + LANES]),
            Input::Next(c) if r + LANES < height => *PackedVal::from_slice(&self.trace.column(c)[r + 1..r + 1 + LANES]),
            _ => PackedVal::from_fn(|lane| self.input(input, r + lane)),
        }
    }

    /// `input` at row `r` (the last row's successor is itself).
    fn input(&self, input: Input, r: usize) -> Val {
        let height = self.trace.height();
        match input {
            Input::Local(c) => self.trace.get(r, c),
            Input::Next(c) => self.trace.get(row_at(r, 1, height), c),
            Input::Periodic(i) => self.periodic[i][r % self.periodic[i].len()],
            Input::First => Val::from_bool(r == 0),
            Input::Last => Val::from_bool(r == height - 1),
        }
    }
}
