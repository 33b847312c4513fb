//! Multi-scalar multiplication over fixed bases: the KZG powers a prover
//! commits with, again and again.
//!
//! Why not arkworks' Pippenger: BW6-767's 767-bit base field makes every
//! curve addition cost about fifteen 12-limb multiplications in projective
//! form, and a certificate takes nine multi-scalar multiplications of `N`
//! points, so they are nearly all of the prover's time. Two classic
//! techniques for fixed bases cut that about threefold:
//!
//! * **Window tables.** For `c`-bit signed windows, `2^(c·j)·P_i` is stored
//!   for every base and window, so one set of `2^(c-1)` buckets serves all
//!   windows: an MSM is one pass adding `n·⌈382/c⌉` table points into
//!   buckets, one bucket reduction, and no doublings.
//! * **Batch-affine accumulation.** Each bucket's points are summed as a
//!   binary tree in affine coordinates; all the additions of one tree level
//!   share one field inversion (Montgomery's trick), so an addition costs
//!   about six multiplications instead of eleven.
//!
//! Sums that hit an exceptional case of the affine formula (equal or
//! opposite points, the identity) are redone with arkworks' complete
//! projective formulas, so the result is exact for any input.

use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup};
use ark_ff::{BigInteger, Field, PrimeField, Zero};
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::field::{F, G1, G1Projective};

/// Bits of a scalar of `F` plus one for the signed recoding's final carry.
const RECODED_BITS: usize = 382;

/// Precomputed window tables for a fixed list of bases.
#[derive(Clone, Debug)]
pub struct FixedBaseMsm {
    bases: usize,
    window: usize,
    windows: usize,
    /// `table[j·bases + i] = 2^(window·j)·P_i`.
    table: Vec<G1>,
}

impl FixedBaseMsm {
    /// Builds the tables: `bases.len() · 382` doublings, done once.
    pub fn new(bases: &[G1]) -> FixedBaseMsm {
        let n = bases.len();
        let window = best_window(n);
        let windows = RECODED_BITS.div_ceil(window);
        let columns: Vec<Vec<G1Projective>> = bases
            .par_iter()
            .map(|p| {
                let mut q = p.into_group();
                (0..windows)
                    .map(|_| {
                        let out = q;
                        for _ in 0..window {
                            q.double_in_place();
                        }
                        out
                    })
                    .collect()
            })
            .collect();
        let mut projective = vec![G1Projective::zero(); n * windows];
        for (i, column) in columns.into_iter().enumerate() {
            for (j, q) in column.into_iter().enumerate() {
                projective[j * n + i] = q;
            }
        }
        let table = projective.par_chunks(n.max(1)).flat_map_iter(G1Projective::normalize_batch).collect();
        FixedBaseMsm { bases: n, window, windows, table }
    }

    /// Number of bases.
    pub fn len(&self) -> usize {
        self.bases
    }

    /// Whether there are no bases.
    pub fn is_empty(&self) -> bool {
        self.bases == 0
    }

    /// `Σ s_i P_i` for the first `scalars.len()` bases.
    pub fn msm(&self, scalars: &[F]) -> G1Projective {
        assert!(scalars.len() <= self.bases, "more scalars than bases");
        let digits = self.digits(scalars);
        let buckets = 1usize << (self.window - 1);
        let threads = rayon::current_num_threads().max(1);
        let chunk = buckets.div_ceil(threads);
        (0..threads)
            .into_par_iter()
            .map(|t| {
                let lo = (t * chunk).min(buckets);
                let hi = ((t + 1) * chunk).min(buckets);
                self.bucket_range(&digits, scalars.len(), lo, hi)
            })
            .sum()
    }

    /// Signed base-`2^c` digits of every scalar, `windows` per scalar,
    /// each in `(-2^(c-1), 2^(c-1)]`.
    fn digits(&self, scalars: &[F]) -> Vec<i32> {
        let c = self.window;
        let half = 1i64 << (c - 1);
        let full = 1i64 << c;
        scalars
            .par_iter()
            .flat_map_iter(|s| {
                let limbs = s.into_bigint().0;
                let mut carry = 0i64;
                (0..self.windows).map(move |j| {
                    let mut d = window_bits(&limbs, j * c, c) + carry;
                    carry = 0;
                    if d > half {
                        d -= full;
                        carry = 1;
                    }
                    d as i32
                })
            })
            .collect()
    }

    /// `Σ_{k in lo..hi} (k+1)·B_k` where bucket `B_k` sums the table points
    /// whose digit has magnitude `k+1` (negated for negative digits).
    fn bucket_range(&self, digits: &[i32], scalars: usize, lo: usize, hi: usize) -> G1Projective {
        if lo >= hi {
            return G1Projective::zero();
        }
        // Counting sort of the (bucket, point) pairs in this range.
        let in_range = |d: i32| {
            let k = d.unsigned_abs() as usize;
            k > lo && k <= hi
        };
        let mut starts = vec![0usize; hi - lo + 1];
        for &d in digits.iter().filter(|d| in_range(**d)) {
            starts[d.unsigned_abs() as usize - lo] += 1;
        }
        for k in 1..starts.len() {
            starts[k] += starts[k - 1];
        }
        let mut points = vec![G1::zero(); starts[hi - lo]];
        let mut fill = starts.clone();
        for i in 0..scalars {
            for j in 0..self.windows {
                let d = digits[i * self.windows + j];
                if in_range(d) {
                    let slot = &mut fill[d.unsigned_abs() as usize - lo - 1];
                    let p = self.table[j * self.bases + i];
                    points[*slot] = if d < 0 { -p } else { p };
                    *slot += 1;
                }
            }
        }
        // Segment k (magnitude lo + k + 1) is points[starts[k]..starts[k + 1]].
        let mut bounds = starts;
        sum_segments(&mut points, &mut bounds);
        // Running sums: Σ (k - lo + 1)·B_k, then the offset lo·Σ B_k.
        let mut running = G1Projective::zero();
        let mut total = G1Projective::zero();
        for k in (0..hi - lo).rev() {
            if bounds[k + 1] > bounds[k] {
                running += points[bounds[k]];
            }
            total += running;
        }
        total + running * F::from(lo as u64)
    }
}

/// Sums each segment `points[bounds[k]..bounds[k + 1]]` as a binary tree,
/// level by level and in place; on return every segment has at most one
/// point. All pair additions of a level share one batched inversion;
/// exceptional pairs (equal x-coordinates, the identity) use projective
/// addition. In place is safe: the level's k-th output goes to an index no
/// larger than its first input, and outputs are written in increasing order.
fn sum_segments(points: &mut [G1], bounds: &mut [usize]) {
    let mut denominators: Vec<F767> = Vec::with_capacity(points.len() / 2);
    while bounds.windows(2).any(|w| w[1] - w[0] > 1) {
        denominators.clear();
        for w in bounds.windows(2) {
            for a in (w[0]..w[1].saturating_sub(1)).step_by(2) {
                let (p, q) = (&points[a], &points[a + 1]);
                let d = q.x - p.x;
                let ordinary = !(d.is_zero() || p.is_zero() || q.is_zero());
                denominators.push(if ordinary { d } else { F767::ONE });
            }
        }
        ark_ff::batch_inversion(&mut denominators);
        let mut inverses = denominators.iter();
        let mut out = 0;
        let mut start = bounds[0];
        for k in 0..bounds.len() - 1 {
            let end = bounds[k + 1];
            bounds[k] = out;
            let mut a = start;
            while a + 1 < end {
                let inv = inverses.next().expect("one inverse per pair");
                points[out] = add_affine(&points[a], &points[a + 1], inv);
                out += 1;
                a += 2;
            }
            if a < end {
                points[out] = points[a];
                out += 1;
            }
            start = end;
        }
        *bounds.last_mut().expect("bounds are nonempty") = out;
    }
}

/// `p + q` with the affine formula given `1 / (x_q - x_p)`, or with
/// projective arithmetic in the exceptional cases.
fn add_affine(p: &G1, q: &G1, inv: &F767) -> G1 {
    if p.x == q.x || p.is_zero() || q.is_zero() {
        return (*p + q).into_affine();
    }
    let lambda = (q.y - p.y) * inv;
    let x = lambda.square() - p.x - q.x;
    let y = lambda * (p.x - x) - p.y;
    G1::new_unchecked(x, y)
}

/// Width of the signed digits of [`small_msm`]: odd digits up to ±15,
/// eight precomputed multiples per point.
const WNAF_WIDTH: usize = 5;

/// `Σ s_i P_i` for a handful of arbitrary points (a verifier's), by
/// interleaved wNAF (Straus): one shared chain of 382 doublings, and about
/// one addition per six scalar bits per point. For twenty points this is
/// about half of Pippenger's cost at its best window for that size.
pub fn small_msm(points: &[G1], scalars: &[F]) -> G1Projective {
    assert_eq!(points.len(), scalars.len(), "one scalar per point");
    let digits: Vec<Vec<i64>> =
        scalars.iter().map(|s| s.into_bigint().find_wnaf(WNAF_WIDTH).expect("the width is in range")).collect();
    interleaved_wnaf(points, &digits)
}

/// `[r]P` for the order `r` of BW6-767's G1 (BLS12-381's base-field
/// modulus): zero exactly when `P` lies in the prime-order subgroup. The
/// width-5 wNAF of `r` has 57 nonzero digits against about 190 ones in its
/// binary form, which makes the subgroup check a quarter cheaper than
/// arkworks' double-and-add.
pub fn times_group_order(p: &G1) -> G1Projective {
    static DIGITS: OnceLock<Vec<i64>> = OnceLock::new();
    let digits = DIGITS.get_or_init(|| F::MODULUS.find_wnaf(WNAF_WIDTH).expect("the width is in range"));
    interleaved_wnaf(std::slice::from_ref(p), std::slice::from_ref(digits))
}

/// `Σ d_i P_i` for wNAF digit strings `d_i` (least significant first).
fn interleaved_wnaf(points: &[G1], digits: &[Vec<i64>]) -> G1Projective {
    let per_point = 1 << (WNAF_WIDTH - 2);
    let odd_multiples: Vec<G1Projective> = points
        .iter()
        .flat_map(|p| {
            let p = p.into_group();
            let double = p.double();
            std::iter::successors(Some(p), move |q| Some(*q + double)).take(per_point)
        })
        .collect();
    let tables = G1Projective::normalize_batch(&odd_multiples);
    let top = digits.iter().map(Vec::len).max().unwrap_or(0);
    let mut acc = G1Projective::zero();
    for bit in (0..top).rev() {
        acc.double_in_place();
        for (i, d) in digits.iter().enumerate() {
            let d = d.get(bit).copied().unwrap_or(0);
            if d != 0 {
                let entry = tables[i * per_point + (d.unsigned_abs() as usize) / 2];
                if d > 0 {
                    acc += entry;
                } else {
                    acc -= entry;
                }
            }
        }
    }
    acc
}

/// Bits `offset..offset + c` of a little-endian limb array, as an integer.
fn window_bits(limbs: &[u64], offset: usize, c: usize) -> i64 {
    let (limb, shift) = (offset / 64, offset % 64);
    let low = limbs.get(limb).map_or(0, |l| l >> shift);
    let high = if shift == 0 { 0 } else { limbs.get(limb + 1).map_or(0, |l| l << (64 - shift)) };
    ((low | high) & ((1u64 << c) - 1)) as i64
}

/// BW6-767's base field (the coordinates of commitments).
type F767 = ark_bw6_767::Fq;

/// The window minimizing `n·⌈382/c⌉` table additions plus `3·2^(c-1)`
/// bucket-reduction work.
fn best_window(n: usize) -> usize {
    (4..=18).min_by_key(|&c| n * RECODED_BITS.div_ceil(c) + 3 * (1usize << (c - 1))).expect("a nonempty range")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ec::VariableBaseMSM;
    use ark_ff::UniformRand;
    use ark_std::test_rng;

    fn bases(n: usize) -> Vec<G1> {
        let rng = &mut test_rng();
        let g = G1Projective::rand(rng);
        let points: Vec<G1Projective> = (1..=n as u64).map(|i| g * F::from(i * i + 7)).collect();
        G1Projective::normalize_batch(&points)
    }

    #[test]
    fn matches_arkworks_on_random_scalars() {
        let rng = &mut test_rng();
        for n in [1, 2, 3, 17, 100, 700] {
            let b = bases(n);
            let msm = FixedBaseMsm::new(&b);
            for m in [n, n / 2, 1] {
                let s: Vec<F> = (0..m).map(|_| F::rand(rng)).collect();
                assert_eq!(msm.msm(&s), G1Projective::msm(&b[..m], &s).unwrap(), "n = {n}, m = {m}");
            }
        }
    }

    #[test]
    fn small_msm_matches_arkworks() {
        let rng = &mut test_rng();
        for n in [1, 2, 5, 17] {
            let b = bases(n);
            let mut s: Vec<F> = (0..n).map(|_| F::rand(rng)).collect();
            s[0] = -F::ONE;
            if n > 2 {
                s[1] = F::from(0u64);
                s[2] = F::from(15u64);
            }
            assert_eq!(small_msm(&b, &s), G1Projective::msm(&b, &s).unwrap(), "n = {n}");
        }
        assert!(small_msm(&[], &[]).is_zero());
    }

    #[test]
    fn the_subgroup_check_agrees_with_arkworks() {
        let rng = &mut test_rng();
        let inside = G1Projective::rand(rng).into_affine();
        assert!(times_group_order(&inside).is_zero());
        // A point of the curve outside the subgroup: lift an x until one is found.
        let outside = (1u64..)
            .find_map(|x| {
                G1::get_point_from_x_unchecked(F767::from(x), false)
                    .filter(|p| !p.is_in_correct_subgroup_assuming_on_curve())
            })
            .unwrap();
        assert!(!times_group_order(&outside).is_zero());
        assert_eq!(times_group_order(&outside), outside.mul_bigint(F::MODULUS));
    }

    #[test]
    fn exceptional_inputs_are_exact() {
        // Equal bases (as in a setup whose trapdoor is 1), zero, one, minus
        // one and the largest scalar, and a scalar that cancels another.
        let g = G1::generator();
        let b = vec![g; 40];
        let msm = FixedBaseMsm::new(&b);
        let mut s: Vec<F> = vec![F::from(1u64), -F::from(1u64), F::from(0u64), -F::ONE, F::from(5u64)];
        s.extend((0..35).map(|i| F::from(i as u64 * 977)));
        let expected: F = s.iter().sum();
        assert_eq!(msm.msm(&s).into_affine(), (g * expected).into_affine());
        let zeros = vec![F::from(0u64); 40];
        assert!(msm.msm(&zeros).is_zero());
    }
}
