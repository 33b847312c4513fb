//! Polynomial helpers of the multilinear prover (the zerocheck, LogUp and
//! the skip STARK's reductions): the Lagrange basis of a two-adic subgroup
//! `H`, interpolation and extrapolation of a round polynomial, `eq` and its
//! table over the cube, a column's values on the cosets of `H` from its
//! values on `H`, and the repeat-last row successor.

use p3_field::{ExtensionField, Field, PrimeCharacteristicRing, TwoAdicField};

use crate::config::{Challenge, PackedVal, Val};

/// `L_j(x)`, `j < 2^skip`: the Lagrange basis of `H` at `x`.
pub(crate) fn lagrange<E: ExtensionField<Val>>(skip: usize, x: E) -> Vec<E> {
    let group = 1usize << skip;
    let w = Val::two_adic_generator(skip);
    let z = x.exp_power_of_2(skip) - E::ONE;
    if z.is_zero() {
        return (0..group).map(|j| E::from_bool(x == E::from(w.exp_u64(j as u64)))).collect();
    }
    let inv_n = Val::from_usize(group).inverse();
    // L_j(x) = w^j (x^n - 1) / (n (x - w^j)).
    let wj: Vec<Val> = w.powers().take(group).collect();
    let inverses = p3_field::batch_multiplicative_inverse(&wj.iter().map(|&v| x - E::from(v)).collect::<Vec<_>>());
    wj.iter().zip(inverses).map(|(&v, inv)| z * inv * E::from(v * inv_n)).collect()
}

/// `p(d + 1)` for the polynomial `p` of degree at most `d` with
/// `p(x) = values[x]`, `x = 0 ..= d`: the `(d + 1)`-th finite difference
/// of `p` vanishes, so `p(d + 1) = sum_i (-1)^(d - i) C(d + 1, i) p(i)`.
pub(crate) fn extrapolate(values: &[Challenge]) -> Challenge {
    let d = values.len() - 1;
    let mut binomial = Val::ONE;
    let mut out = Challenge::ZERO;
    for (i, &v) in values.iter().enumerate() {
        let term = v * binomial;
        out += if (d - i).is_multiple_of(2) { term } else { -term };
        // C(d + 1, i + 1) = C(d + 1, i) (d + 1 - i) / (i + 1)
        binomial = binomial * Val::from_usize(d + 1 - i) * Val::from_usize(i + 1).inverse();
    }
    out
}

/// The polynomial through `(xs[i], ys[i])` at `x`.
pub(crate) fn interpolate(xs: &[Challenge], ys: &[Challenge], x: Challenge) -> Challenge {
    if let Some(i) = xs.iter().position(|&xi| xi == x) {
        return ys[i];
    }
    let weights = barycentric_weights(xs);
    let diffs: Vec<Challenge> = xs.iter().map(|&xi| x - xi).collect();
    let total: Challenge = diffs.iter().copied().product();
    let inv_diffs = p3_field::batch_multiplicative_inverse(&diffs);
    (0..xs.len()).map(|i| ys[i] * weights[i] * inv_diffs[i]).sum::<Challenge>() * total
}

/// `1 / Π_{k≠i} (xs[i] − xs[k])` for each `i` (distinct nodes): in the
/// base field when every node is a base value (the zerocheck's and the
/// sumcheck rounds' nodes are; each product is then one base
/// multiplication instead of an extension one), with one batched
/// inversion.
///
/// # Panics
/// If two nodes are equal.
pub fn barycentric_weights(xs: &[Challenge]) -> Vec<Challenge> {
    fn weights<F: Field>(xs: &[F]) -> Vec<F> {
        let products: Vec<F> =
            (0..xs.len()).map(|i| (0..xs.len()).filter(|&k| k != i).map(|k| xs[i] - xs[k]).product()).collect();
        p3_field::batch_multiplicative_inverse(&products)
    }
    match xs.iter().map(|x| x.as_base()).collect::<Option<Vec<Val>>>() {
        Some(base) => weights(&base).into_iter().map(Challenge::from).collect(),
        None => weights(xs),
    }
}

/// `eq(a, b)` for two points.
pub(crate) fn eq_at(a: &[Challenge], b: &[Challenge]) -> Challenge {
    a.iter().zip(b).map(|(&x, &y)| eq1(x, y)).product()
}

/// `eq(x, y)` in one coordinate.
pub(crate) fn eq1(x: Challenge, y: Challenge) -> Challenge {
    x * y + (Challenge::ONE - x) * (Challenge::ONE - y)
}

/// `eq(tau, x)` for every `x` of the cube, bit `i` of the index being
/// `tau[i]`'s coordinate.
pub(crate) fn eq_table(tau: &[Challenge]) -> Vec<Challenge> {
    let mut table = vec![Challenge::ZERO; 1 << tau.len()];
    table[0] = Challenge::ONE;
    for (i, &t) in tau.iter().enumerate() {
        // Entry `x` splits into `x` (bit `i` clear: `v·(1 − t) = v − v·t`)
        // and `x + 2^i` (set: `v·t`), one product each.
        let (low, high) = table[..2 << i].split_at_mut(1 << i);
        for (v, h) in low.iter_mut().zip(high) {
            *h = *v * t;
            *v -= *h;
        }
    }
    table
}

/// Row `row + shift` of a table of `height` rows, the last row standing
/// in for every row past it: the next row of the last row is itself (the
/// repeat-last successor view `p3-sumcheck`'s openings use).
pub(crate) fn row_at(row: usize, shift: usize, height: usize) -> usize {
    (row + shift).min(height - 1)
}

/// Evaluates a group's column, given on `H`, at the skip points: one
/// inverse FFT, then one scaled FFT per coset.
pub(crate) struct CosetFft {
    skip: usize,
    twiddles: Vec<Vec<Val>>,
    inv_twiddles: Vec<Vec<Val>>,
    /// Per coset `g^t H`, `(g^t)^j / 2^skip` for each coefficient `j`.
    shifts: Vec<Vec<Val>>,
    count: usize,
}

impl CosetFft {
    pub(crate) fn new(skip: usize, count: usize) -> Self {
        let group = 1usize << skip;
        let w = Val::two_adic_generator(skip);
        let layers = |w: Val| -> Vec<Vec<Val>> {
            (1..=skip).map(|l| w.exp_u64((group >> l) as u64).powers().take(1 << (l - 1)).collect()).collect()
        };
        let inv_n = Val::from_usize(group).inverse();
        let shifts = (1..=count.div_ceil(group) as u64)
            .map(|t| Val::GENERATOR.exp_u64(t).powers().take(group).map(|s| s * inv_n).collect())
            .collect();
        Self { skip, twiddles: layers(w), inv_twiddles: layers(w.inverse()), shifts, count }
    }

    fn fft(&self, a: &mut [PackedVal], twiddles: &[Vec<Val>]) {
        let group = a.len();
        for i in 0..group {
            let j = i.reverse_bits() >> (usize::BITS as usize - self.skip);
            if i < j {
                a.swap(i, j);
            }
        }
        for (l, tw) in twiddles.iter().enumerate() {
            let half = 1 << l;
            for start in (0..group).step_by(2 * half) {
                for (k, &t) in tw.iter().enumerate() {
                    let u = a[start + k];
                    let v = a[start + k + half] * t;
                    a[start + k] = u + v;
                    a[start + k + half] = u - v;
                }
            }
        }
    }

    /// A column's values at the skip points off `H`, from its values on `H`.
    pub(crate) fn extend(&self, values: &[PackedVal], out: &mut Vec<PackedVal>) {
        let mut coeffs = values.to_vec();
        self.fft(&mut coeffs, &self.inv_twiddles);
        out.clear();
        for shift in &self.shifts {
            let mut b: Vec<PackedVal> = coeffs.iter().zip(shift).map(|(&c, &s)| c * s).collect();
            self.fft(&mut b, &self.twiddles);
            out.extend_from_slice(&b);
        }
        out.truncate(self.count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The round polynomial's last node, extrapolated, is its value there.
    #[test]
    fn extrapolation_gives_the_next_node() {
        for d in 0..10u64 {
            let p = |x: u64| -> Challenge {
                (0..=d).map(|i| Challenge::from_u64(3 * i + 1).exp_u64(i + 2) * Challenge::from_u64(x).exp_u64(i)).sum()
            };
            let values: Vec<Challenge> = (0..=d).map(p).collect();
            assert_eq!(extrapolate(&values), p(d + 1), "degree {d}");
        }
    }

    /// Each entry of the `eq` table is the product of its coordinates'
    /// `eq1`, bit `i` of the index against `tau[i]`.
    #[test]
    fn eq_table_is_the_product_of_coordinates() {
        for n in 0..6usize {
            let tau: Vec<Challenge> = (0..n).map(|i| Challenge::from_u64(7 * i as u64 + 3).exp_u64(5)).collect();
            let table = eq_table(&tau);
            assert_eq!(table.len(), 1 << n);
            for (x, &v) in table.iter().enumerate() {
                let expected: Challenge =
                    tau.iter().enumerate().map(|(i, &t)| eq1(t, Challenge::from_u64(((x >> i) & 1) as u64))).product();
                assert_eq!(v, expected, "n = {n}, x = {x}");
            }
        }
    }
}
