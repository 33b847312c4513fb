//! The prover's hot loops: the skip round on packed base-field values
//! (with its scalar reference) and the ordinary rounds' sums on packed
//! extension-field values (with theirs). The tests hold each packed kernel
//! to its reference.

use p3_field::{PackedFieldExtension, PackedValue, PrimeCharacteristicRing, TwoAdicField};
use p3_maybe_rayon::prelude::*;

use super::folder::{ExtFolder, ExtPackedFolder, PackedFolder, Weights, message_terms};
use super::{ExtPacked, LANES, PExt, SkipAir, skip_points};
use crate::columns::Columns;
use crate::config::{Challenge, PackedVal, Val};
use crate::messages::{MessageProgram, RowInputs};
use crate::poly::{CosetFft, lagrange, row_at};

/// Where the folded columns sit in the prover's list: the trace's columns,
/// then the next-row columns, the periodic columns, and the two selectors.
pub(super) struct Layout {
    pub(super) width: usize,
    pub(super) next: Vec<usize>,
    pub(super) periodic: usize,
}

impl Layout {
    /// Adds `term(local, next, periodic, first, last)` at `X = 0, 1, ..`
    /// into each slot of `acc` but `omit`'s, the folded columns' `values`
    /// at `X = 0` advancing by `steps` from one node to the next.
    fn at_nodes<V: Copy + core::ops::AddAssign>(
        &self,
        values: &mut [V],
        steps: &[V],
        acc: &mut [V],
        (zero, omit): (V, Option<usize>),
        mut term: impl FnMut(&[V], &[V], &[V], V, V) -> V,
    ) {
        let mut next = vec![zero; self.width];
        let p = self.width + self.next.len();
        for (x, slot) in acc.iter_mut().enumerate() {
            if omit != Some(x) {
                for (&c, &v) in self.next.iter().zip(&values[self.width..]) {
                    next[c] = v;
                }
                let (first, last) = (values[p + self.periodic], values[p + self.periodic + 1]);
                *slot += term(&values[..self.width], &next, &values[p..p + self.periodic], first, last);
            }
            values.iter_mut().zip(steps).for_each(|(v, &s)| *v += s);
        }
    }
}

/// What an ordinary round reads: the AIR, where the folded columns sit,
/// the columns, `eq` over the variables after this round's, the degree and
/// the powers of alpha.
pub(super) struct Round<'a, A> {
    pub(super) air: &'a A,
    pub(super) layout: &'a Layout,
    pub(super) columns: &'a [Vec<Challenge>],
    pub(super) suffix: &'a [Challenge],
    pub(super) degree: usize,
    pub(super) weights: &'a Weights<Challenge>,
    /// Leave `X = 1` out (zero): the prover has it from the running claim.
    pub(super) omit_one: bool,
}

impl<A> Clone for Round<'_, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for Round<'_, A> {}

/// One ordinary round's sums `sum_m eq_suffix(m) C(lo_m + X (hi_m - lo_m))`
/// at `X = 0 ..= d` (zero at `X = 1` where the round omits it): `LANES`
/// pairs at a time while they fill the lanes.
pub(super) fn round_sums<A: SkipAir>(round: &Round<'_, A>) -> Vec<Challenge> {
    let Round { air, layout, columns, suffix, degree: d, weights, omit_one } = *round;
    let half = columns[0].len() / 2;
    if half < LANES {
        return round_sums_scalar(round);
    }
    let nodes = d + 1;
    let packed_weights = weights.map(|a| PExt::new(ExtPacked::from(a)));
    let sums = (0..half / LANES)
        .into_par_iter()
        .fold(
            || vec![PExt::ZERO; nodes],
            |mut acc, chunk| {
                let m0 = chunk * LANES;
                let pick = |c: &Vec<Challenge>, odd: usize| -> PExt {
                    let lanes: [Challenge; LANES] = core::array::from_fn(|l| c[2 * (m0 + l) + odd]);
                    PExt::new(ExtPacked::from_ext_slice(&lanes))
                };
                let mut values: Vec<PExt> = columns.iter().map(|c| pick(c, 0)).collect();
                let steps: Vec<PExt> = columns.iter().zip(&values).map(|(c, &lo)| pick(c, 1) - lo).collect();
                let eq = PExt::new(ExtPacked::from_ext_slice(&suffix[m0..m0 + LANES]));
                layout.at_nodes(
                    &mut values,
                    &steps,
                    &mut acc,
                    (PExt::ZERO, omit_one.then_some(1)),
                    |local, next, periodic, first, last| {
                        let mut folder = ExtPackedFolder::new(local, next, periodic, first, last, &packed_weights);
                        air.eval(&mut folder);
                        eq * folder.acc
                    },
                );
                acc
            },
        )
        .reduce(|| vec![PExt::ZERO; nodes], |a, b| a.iter().zip(&b).map(|(&x, &y)| x + y).collect());
    sums.iter().map(|s| <ExtPacked as PackedFieldExtension<Val, Challenge>>::to_ext_iter([s.0]).sum()).collect()
}

/// [`round_sums`] one pair at a time: the reference, and the kernel once
/// fewer pairs than lanes are left.
pub(super) fn round_sums_scalar<A: SkipAir>(round: &Round<'_, A>) -> Vec<Challenge> {
    let Round { air, layout, columns, suffix, degree: d, weights, omit_one } = *round;
    let half = columns[0].len() / 2;
    let nodes = d + 1;
    (0..half)
        .into_par_iter()
        .fold(
            || vec![Challenge::ZERO; nodes],
            |mut acc, m| {
                let mut values: Vec<Challenge> = columns.iter().map(|c| c[2 * m]).collect();
                let steps: Vec<Challenge> = columns.iter().map(|c| c[2 * m + 1] - c[2 * m]).collect();
                layout.at_nodes(
                    &mut values,
                    &steps,
                    &mut acc,
                    (Challenge::ZERO, omit_one.then_some(1)),
                    |local, next, periodic, first, last| {
                        let mut folder = ExtFolder::new(local, next, periodic, first, last, weights);
                        air.eval(&mut folder);
                        suffix[m] * folder.acc
                    },
                );
                acc
            },
        )
        .reduce(|| vec![Challenge::ZERO; nodes], |a, b| a.iter().zip(&b).map(|(&x, &y)| x + y).collect())
}

/// What the skip round reads: the AIR and its trace, the skip, the
/// constraint degree, `eq(tau, g)` for every group `g`, and the powers of
/// alpha batching the constraints.
pub(super) struct SkipRound<'a, A> {
    pub(super) air: &'a A,
    /// The AIR's messages alone, for the points on `H`.
    pub(super) program: &'a MessageProgram,
    pub(super) trace: &'a Columns<'a>,
    pub(super) skip: usize,
    pub(super) degree: usize,
    pub(super) eq: &'a [Challenge],
    pub(super) weights: &'a Weights<Challenge>,
}

impl<A> Clone for SkipRound<'_, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for SkipRound<'_, A> {}

/// The skip round, one group at a time in the extension field: the
/// reference the packed kernel is tested against, and the kernel for
/// tables of fewer than `LANES` groups.
pub(super) fn skip_round_scalar<A: SkipAir>(round: &SkipRound<'_, A>) -> Vec<Challenge> {
    let SkipRound { air, trace, skip, degree: d, eq, weights, .. } = *round;
    let group = 1usize << skip;
    let height = trace.height();
    let groups = height / group;
    let next_columns = air.main_next_row_columns();
    let periodic = air.periodic_columns();
    let w = Val::two_adic_generator(skip);
    skip_points(skip, d)
        .iter()
        .copied()
        .chain(w.powers().take(group))
        .collect::<Vec<Val>>()
        .iter()
        .map(|&x| {
            let l = lagrange(skip, Challenge::from(x));
            (0..groups)
                .into_par_iter()
                .map(|g| {
                    let ext = |row: usize, shift: usize, c: usize| trace.get(row_at(row, shift, height), c);
                    let local: Vec<Challenge> =
                        (0..trace.width()).map(|c| (0..group).map(|j| l[j] * ext(g * group + j, 0, c)).sum()).collect();
                    let mut next = vec![Challenge::ZERO; trace.width()];
                    for &c in &next_columns {
                        next[c] = (0..group).map(|j| l[j] * ext(g * group + j, 1, c)).sum();
                    }
                    let per: Vec<Challenge> = periodic
                        .iter()
                        .map(|col| (0..group).map(|j| l[j] * col[(g * group + j) % col.len()]).sum())
                        .collect();
                    let first = if g == 0 { l[0] } else { Challenge::ZERO };
                    let last = if g == groups - 1 { l[group - 1] } else { Challenge::ZERO };
                    let mut folder = ExtFolder::new(&local, &next, &per, first, last, weights);
                    air.eval(&mut folder);
                    eq[g] * folder.acc
                })
                .sum()
        })
        .collect()
}

/// The skip round on packed base-field values, `LANES` groups at a time.
pub(super) fn skip_round_packed<A: SkipAir>(round: &SkipRound<'_, A>) -> Vec<Challenge> {
    let SkipRound { air, program, trace, skip, degree: d, eq, weights } = *round;
    let group = 1usize << skip;
    let height = trace.height();
    let groups = height / group;
    let points = skip_points(skip, d);
    let off = points.len();
    let fft = CosetFft::new(skip, off);
    // The points off H, then H's own (where a group's values are its rows).
    let w = Val::two_adic_generator(skip);
    let bases: Vec<Vec<Val>> =
        points.iter().copied().chain(w.powers().take(group)).map(|x| lagrange(skip, x)).collect();
    let count = bases.len();
    let next_columns = air.main_next_row_columns();
    let periodic = air.periodic_columns();
    let packed_weights = weights.map(ExtPacked::from);
    // Periodic values at each point for the block of groups starting at
    // `b * LANES`: they repeat every `cycle` blocks. Computed once for the
    // cycle (`group` products a point and lane) where the cycle is short
    // against the table; otherwise per block, like a column, by the coset
    // FFT (about `log2(points)` a point): long periods (a circuit's wire
    // numbers, a statement's values) would cost `height x points x group`
    // products, most of the round.
    let span = LANES * group;
    let cycle = periodic.iter().map(|c| c.len() / gcd(c.len(), span)).fold(1, lcm);
    let per_block = cycle.saturating_mul(group) > (groups / LANES).saturating_mul(PER_BLOCK_COST);
    let periodic_at: Vec<Vec<Vec<PackedVal>>> = if per_block {
        Vec::new()
    } else {
        (0..cycle)
            .map(|b| {
                bases
                    .iter()
                    .map(|l| {
                        periodic
                            .iter()
                            .map(|col| {
                                PackedVal::from_fn(|lane| {
                                    let row0 = (b * LANES + lane) * group;
                                    (0..group).map(|j| l[j] * col[(row0 + j) % col.len()]).sum()
                                })
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    };
    let gather = |g0: usize, c: usize, shift: usize| -> Vec<PackedVal> {
        let column = trace.column(c);
        (0..group).map(|j| PackedVal::from_fn(|lane| column[row_at((g0 + lane) * group + j, shift, height)])).collect()
    };
    let sums = (0..groups / LANES)
        .into_par_iter()
        .fold(
            || vec![ExtPacked::ZERO; count],
            |mut acc, block| {
                let g0 = block * LANES;
                let mut scratch = Vec::with_capacity(off + group);
                let mut at_points = |c: usize, shift: usize| -> Vec<PackedVal> {
                    let rows = gather(g0, c, shift);
                    fft.extend(&rows, &mut scratch);
                    let mut values = scratch.clone();
                    values.extend(rows);
                    values
                };
                let local_at: Vec<Vec<PackedVal>> = (0..trace.width()).map(|c| at_points(c, 0)).collect();
                let next_at: Vec<Vec<PackedVal>> = next_columns.iter().map(|&c| at_points(c, 1)).collect();
                // Long periods: each column's values at every point, then
                // transposed to per point.
                let block_periodic: Vec<Vec<PackedVal>> = if per_block {
                    let by_column: Vec<Vec<PackedVal>> = periodic
                        .iter()
                        .map(|col| {
                            let rows: Vec<PackedVal> = (0..group)
                                .map(|j| PackedVal::from_fn(|lane| col[((g0 + lane) * group + j) % col.len()]))
                                .collect();
                            fft.extend(&rows, &mut scratch);
                            let mut values = scratch.clone();
                            values.extend(rows);
                            values
                        })
                        .collect();
                    (0..count).map(|p| by_column.iter().map(|v| v[p]).collect()).collect()
                } else {
                    Vec::new()
                };
                let eq_packed = ExtPacked::from_ext_slice(&eq[g0..g0 + LANES]);
                let mut local = vec![PackedVal::ZERO; trace.width()];
                let mut next = vec![PackedVal::ZERO; trace.width()];
                let mut values = Vec::new();
                for (p, l) in bases.iter().enumerate() {
                    if p >= off && packed_weights.messages.is_empty() {
                        // On H a valid trace's constraints vanish.
                        continue;
                    }
                    for (c, v) in local.iter_mut().enumerate() {
                        *v = local_at[c][p];
                    }
                    for (i, &c) in next_columns.iter().enumerate() {
                        next[c] = next_at[i][p];
                    }
                    let first = if g0 == 0 {
                        PackedVal::from_fn(|lane| if lane == 0 { l[0] } else { Val::ZERO })
                    } else {
                        PackedVal::ZERO
                    };
                    let last = if g0 + LANES == groups {
                        PackedVal::from_fn(|lane| if lane == LANES - 1 { l[group - 1] } else { Val::ZERO })
                    } else {
                        PackedVal::ZERO
                    };
                    let periodic = if per_block { &block_periodic[p] } else { &periodic_at[block % cycle][p] };
                    let term = if p >= off {
                        // On H, the points are rows, where a valid trace's
                        // constraints vanish: only the messages count.
                        let row = RowInputs { local: &local, next: &next, periodic, first, last };
                        program.eval(&row, &mut values);
                        message_terms(program, &values, &packed_weights)
                    } else {
                        let mut folder = PackedFolder::new(&local, &next, periodic, first, last, &packed_weights);
                        air.eval(&mut folder);
                        folder.acc
                    };
                    acc[p] += term * eq_packed;
                }
                acc
            },
        )
        .reduce(|| vec![ExtPacked::ZERO; count], |a, b| a.iter().zip(&b).map(|(&x, &y)| x + y).collect());
    sums.iter().map(|&s| <ExtPacked as PackedFieldExtension<Val, Challenge>>::to_ext_iter([s]).sum()).collect()
}

/// About what extending a periodic column to the points costs a block
/// (the coset FFT's products a point), against `group` for computing a
/// point's value once.
const PER_BLOCK_COST: usize = 8;

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: usize, b: usize) -> usize {
    a / gcd(a, b) * b
}
