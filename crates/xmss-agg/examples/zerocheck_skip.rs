//! Spike (issue 21 §2): how fast could the multilinear backend's zerocheck
//! be if its first `K` variables were a univariate skip evaluated in the
//! base field? Measured on the chain and width-24 tables of N Seed001
//! signatures in the WHIR layout, against `p3-multi-stark`'s own zerocheck
//! of the same tables (whose extension-field rounds start right after the
//! first). Results and verdict in BENCHMARKS.md.
//!
//! Both sides drop the tables' bus messages (their terms in the zerocheck
//! are not what is measured), so `p3-multi-stark` proves the constraints
//! alone.
//!
//! The skip: the first `K` row variables become one univariate variable
//! over the order-`2^K` subgroup `H`. Each group of `2^K` consecutive rows
//! is one low-degree extension per column; the batched constraint
//! polynomial of a group has degree at most `d (2^K - 1)` and vanishes on
//! `H`, so the skip round needs its value at `d (2^K - 1) + 1 - 2^K` points
//! off `H` (cosets of `H`, by FFTs), all in the base field, weighted by
//! `eq` over the remaining variables. The prover then folds each group to
//! one extension-field row at the verifier's challenge, and the ordinary
//! rounds run on `rows / 2^K` rows: their cost is bounded here by
//! `p3-multi-stark`'s zerocheck of the table's first `2 rows / 2^K` rows.
//!
//! Checks, per table: on the valid trace the constraints vanish on `H`;
//! the values off `H` with the zeros on `H` interpolate the constraint
//! polynomial exactly (its value at a random extension point, computed
//! from the columns' extensions there, matches); the packed kernel's sum at
//! one point equals the scalar evaluator's.
//!
//! Not a prover: no transcript, no later rounds of its own, no verifier.
//!
//! ```sh
//! SKIP_K=4 cargo build --release -p sigagg-xmss-agg --example zerocheck_skip
//! RAYON_NUM_THREADS=2 target/release/examples/zerocheck_skip 8192
//! ```

use std::time::Instant;

use p3_air::{Air, AirBuilder, BaseAir, RowWindow};
use p3_field::{BasedVectorSpace, ExtensionField, Field, PackedFieldExtension, PackedValue, PrimeCharacteristicRing, PrimeField32, TwoAdicField};
use p3_lookup::{Count, InteractionBuilder};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_multi_stark::zerocheck::AirZerocheck;
use p3_sumcheck::layout::Table;
use rand::RngExt;
use rayon::prelude::*;
use sigagg_prover::config::{Challenge, PackedVal, Val, transcript};
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
use sigagg_xmss_agg::air::chain::ChainAir;
use sigagg_xmss_agg::air::AggAir;
use sigagg_xmss_agg::air::hash24::HashAir;
use sigagg_prover::zerocheck::SkipZerocheck;
use sigagg_xmss_agg::{Entry, Settings, Statement};

#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

type ExtPacked = <Challenge as ExtensionField<Val>>::ExtensionPacking;

/// Skipped variables (`SKIP_K` at build time, 3 by default) and the group
/// they make.
const K: usize = match option_env!("SKIP_K") {
    Some(k) => (k.as_bytes()[0] - b'0') as usize,
    None => 3,
};
const GROUP: usize = 1 << K;
/// Points off `H` the skip round evaluates for constraints of degree `d`:
/// `d (GROUP - 1) + 1 - GROUP`.
const fn points_count(degree: usize) -> usize {
    degree * (GROUP - 1) + 1 - GROUP
}

/// The two Poseidon2 tables, evaluated by the spike's folders and, with
/// their buses dropped, by `p3-multi-stark`.
trait SpikeAir: BaseAir<Val> + Sync {
    fn degree(&self) -> usize;
    fn eval_packed(&self, b: &mut PackedFolder<'_>);
    fn eval_scalar(&self, b: &mut ScalarFolder<'_>);
    fn eval_dropped<AB: AirBuilder<F = Val>>(&self, b: &mut AB);
}

macro_rules! spike_air {
    ($t:ty, $variant:ident) => {
        impl SpikeAir for $t {
            fn degree(&self) -> usize {
                // As multilinear polynomials (periodic columns and the
                // selectors count one).
                sigagg_prover::zerocheck::multilinear_degree(&AggAir::$variant(self.clone())).expect("base-field constraints")
            }
            fn eval_packed(&self, b: &mut PackedFolder<'_>) {
                self.eval(b);
            }
            fn eval_scalar(&self, b: &mut ScalarFolder<'_>) {
                self.eval(b);
            }
            fn eval_dropped<AB: AirBuilder<F = Val>>(&self, b: &mut AB) {
                self.eval(&mut DropBus(b));
            }
        }
    };
}
spike_air!(ChainAir, Chain);
spike_air!(HashAir, Hash);
const LANES: usize = PackedVal::WIDTH;

/// The chain AIR with its bus messages dropped.
struct NoBus<'a, A>(&'a A);

impl<A: SpikeAir> BaseAir<Val> for NoBus<'_, A> {
    fn width(&self) -> usize {
        self.0.width()
    }
    fn num_periodic_columns(&self) -> usize {
        BaseAir::<Val>::num_periodic_columns(self.0)
    }
    fn periodic_columns(&self) -> std::borrow::Cow<'_, [Vec<Val>]> {
        BaseAir::<Val>::periodic_columns(self.0)
    }
    fn main_next_row_columns(&self) -> Vec<usize> {
        BaseAir::<Val>::main_next_row_columns(self.0)
    }
    fn max_constraint_degree(&self) -> Option<usize> {
        Some(self.0.degree())
    }
}

impl<AB: AirBuilder<F = Val>, A: SpikeAir> Air<AB> for NoBus<'_, A> {
    fn eval(&self, builder: &mut AB) {
        self.0.eval_dropped(builder);
    }
}

/// Forwards every constraint, drops every bus message.
struct DropBus<'a, AB>(&'a mut AB);

impl<AB: AirBuilder> AirBuilder for DropBus<'_, AB> {
    type F = AB::F;
    type Expr = AB::Expr;
    type Var = AB::Var;
    type PreprocessedWindow = AB::PreprocessedWindow;
    type MainWindow = AB::MainWindow;
    type PublicVar = AB::PublicVar;
    type PeriodicVar = AB::PeriodicVar;
    fn main(&self) -> Self::MainWindow {
        self.0.main()
    }
    fn preprocessed(&self) -> &Self::PreprocessedWindow {
        self.0.preprocessed()
    }
    fn is_first_row(&self) -> Self::Expr {
        self.0.is_first_row()
    }
    fn is_last_row(&self) -> Self::Expr {
        self.0.is_last_row()
    }
    fn is_transition(&self) -> Self::Expr {
        self.0.is_transition()
    }
    fn assert_zero<I: Into<Self::Expr>>(&mut self, x: I) {
        self.0.assert_zero(x);
    }
    fn public_values(&self) -> &[Self::PublicVar] {
        self.0.public_values()
    }
    fn periodic_values(&self) -> &[Self::PeriodicVar] {
        self.0.periodic_values()
    }
}

impl<AB: AirBuilder> InteractionBuilder for DropBus<'_, AB> {
    fn push_interaction<E: Into<Self::Expr>>(
        &mut self,
        _bus: &str,
        _fields: impl IntoIterator<Item = E>,
        _count: impl Into<Count<Self::Expr>>,
    ) {
    }
    fn push_local_interaction(&mut self, _tuples: impl IntoIterator<Item = (Vec<Self::Expr>, Count<Self::Expr>)>) {}
}

macro_rules! folder_impl {
    ($name:ident, $v:ty, $acc:ty) => {
        /// Evaluates the constraints at one point, batching them with
        /// powers of alpha.
        struct $name<'a> {
            local: &'a [$v],
            next: &'a [$v],
            periodic: &'a [$v],
            preprocessed: RowWindow<'a, $v>,
            first: $v,
            last: $v,
            alpha_powers: &'a [Challenge],
            acc: $acc,
            k: usize,
        }
        impl<'a> AirBuilder for $name<'a> {
            type F = Val;
            type Expr = $v;
            type Var = $v;
            type PreprocessedWindow = RowWindow<'a, $v>;
            type MainWindow = RowWindow<'a, $v>;
            type PublicVar = Val;
            type PeriodicVar = $v;
            fn main(&self) -> Self::MainWindow {
                RowWindow::from_two_rows(self.local, self.next)
            }
            fn preprocessed(&self) -> &Self::PreprocessedWindow {
                &self.preprocessed
            }
            fn is_first_row(&self) -> $v {
                self.first
            }
            fn is_last_row(&self) -> $v {
                self.last
            }
            fn is_transition(&self) -> $v {
                <$v>::ONE - self.last
            }
            fn assert_zero<I: Into<$v>>(&mut self, x: I) {
                self.acc += <$acc>::from(self.alpha_powers[self.k]) * x.into();
                self.k += 1;
            }
            fn periodic_values(&self) -> &[$v] {
                self.periodic
            }
        }
        impl InteractionBuilder for $name<'_> {
            fn push_interaction<E: Into<$v>>(
                &mut self,
                _bus: &str,
                _fields: impl IntoIterator<Item = E>,
                _count: impl Into<Count<$v>>,
            ) {
            }
            fn push_local_interaction(&mut self, _tuples: impl IntoIterator<Item = (Vec<$v>, Count<$v>)>) {}
        }
    };
}
folder_impl!(PackedFolder, PackedVal, ExtPacked);
folder_impl!(ScalarFolder, Challenge, Challenge);

fn rand_ext(rng: &mut impl RngExt) -> Challenge {
    Challenge::from_basis_coefficients_fn(|_| Val::from_u32(rng.random_range(0..Val::ORDER_U32)))
}

/// `L_j(x)` for the Lagrange basis of the order-8 subgroup `H`.
fn lagrange<E: Field + ExtensionField<Val>>(x: E) -> [E; GROUP] {
    let w = Val::two_adic_generator(K);
    let z = x.exp_power_of_2(K) - E::ONE;
    let inv_n = Val::from_usize(GROUP).inverse();
    if z == E::ZERO {
        return core::array::from_fn(|j| E::from_bool(x == E::from(w.exp_u64(j as u64))));
    }
    core::array::from_fn(|j| {
        let wj = w.exp_u64(j as u64);
        // L_j(x) = w^j (x^n - 1) / (n (x - w^j)).
        z * (x - E::from(wj)).inverse() * E::from(wj * inv_n)
    })
}

/// The points off `H`: cosets `g^t H`, `t = 1, 2, ..`.
fn points(count: usize) -> Vec<Val> {
    let w = Val::two_adic_generator(K);
    (1..=count.div_ceil(GROUP) as u64)
        .flat_map(|t| (0..GROUP as u64).map(move |j| Val::GENERATOR.exp_u64(t) * w.exp_u64(j)))
        .take(count)
        .collect()
}

/// Evaluates a group's column, given on `H`, at the points off `H`
/// (cosets `g^t H`): one inverse FFT, then one scaled FFT per coset.
struct CosetNtt {
    /// Per layer of the FFT (butterfly span `2^l`), its twiddles.
    twiddles: Vec<Vec<Val>>,
    inv_twiddles: Vec<Vec<Val>>,
    /// Per coset `t`, `(g^t)^j` for each coefficient `j`.
    shifts: Vec<[Val; GROUP]>,
    count: usize,
}

impl CosetNtt {
    fn new(count: usize) -> Self {
        let w = Val::two_adic_generator(K);
        let layers = |w: Val| -> Vec<Vec<Val>> {
            (1..=K)
                .map(|l| {
                    let span = 1 << l;
                    let step = w.exp_u64((GROUP / span) as u64);
                    step.powers().take(span / 2).collect()
                })
                .collect()
        };
        let shifts = (1..=count.div_ceil(GROUP) as u64)
            .map(|t| {
                let s = Val::GENERATOR.exp_u64(t);
                core::array::from_fn(|j| s.exp_u64(j as u64))
            })
            .collect();
        Self { twiddles: layers(w), inv_twiddles: layers(w.inverse()), shifts, count }
    }

    fn fft(a: &mut [PackedVal; GROUP], twiddles: &[Vec<Val>]) {
        for i in 0..GROUP {
            let j = i.reverse_bits() >> (usize::BITS - K as u32);
            if i < j {
                a.swap(i, j);
            }
        }
        for (l, tw) in twiddles.iter().enumerate() {
            let half = 1 << l;
            for start in (0..GROUP).step_by(2 * half) {
                for k in 0..half {
                    let u = a[start + k];
                    let v = a[start + k + half] * tw[k];
                    a[start + k] = u + v;
                    a[start + k + half] = u - v;
                }
            }
        }
    }

    /// Each column's values at the `count` points, in [`points`] order.
    fn extend(&self, cols: &[[PackedVal; GROUP]]) -> Vec<Vec<PackedVal>> {
        let inv_n = Val::from_usize(GROUP).inverse();
        cols.iter()
            .map(|vals| {
                let mut coeffs = *vals;
                Self::fft(&mut coeffs, &self.inv_twiddles);
                let mut out = Vec::with_capacity(self.shifts.len() * GROUP);
                for shift in &self.shifts {
                    let mut b: [PackedVal; GROUP] = core::array::from_fn(|j| coeffs[j] * (shift[j] * inv_n));
                    Self::fft(&mut b, &self.twiddles);
                    out.extend_from_slice(&b);
                }
                out.truncate(self.count);
                out
            })
            .collect()
    }
}

/// The chain and width-24 tables' traces and AIRs for `n` signatures (the
/// WHIR layout).
fn tables(n: usize) -> ((ChainAir, RowMajorMatrix<Val>), (HashAir, RowMajorMatrix<Val>)) {
    let message = *b"consensus message signed by all!";
    let epoch = 1234;
    let (entries, signatures): (Vec<_>, Vec<_>) = (0..n)
        .into_par_iter()
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), epoch, &message).unwrap();
            (Entry { public_key: pk, epoch, message }, sig)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .unzip();
    let settings = Settings::WHIR;
    let statement = Statement::new(entries).unwrap();
    let (chain, hash) = sigagg_xmss_agg::air::poseidon_airs(&settings, Some(statement.padded_len()));
    let traces = sigagg_xmss_agg::trace::generate(&settings, &statement, &signatures).unwrap();
    let mut matrices = traces.into_matrices();
    let mut take = |width: usize| {
        let i = matrices.iter().position(|m| m.width == width).expect("a table of this width");
        matrices.swap_remove(i)
    };
    let chain_trace = take(BaseAir::<Val>::width(&chain));
    let hash_trace = take(BaseAir::<Val>::width(&hash));
    ((chain, chain_trace), (hash, hash_trace))
}

/// `p3-multi-stark`'s zerocheck of the table, in seconds.
fn p3_zerocheck<A: SpikeAir>(air: &A, trace: &RowMajorMatrix<Val>) -> f64 {
    let table = Table::new(trace.clone().transpose());
    let wrapped = NoBus(air);
    let airs = [&wrapped];
    let zc = AirZerocheck::new(&airs, 0);
    let mut challenger = transcript(b"spike".to_vec());
    let t = Instant::now();
    let _ = zc.prove::<Val, Challenge, _>(&[None], &[&table], &[&[]], &mut challenger);
    t.elapsed().as_secs_f64()
}

/// The packed values of column `c` at the 8 rows of `LANES` consecutive
/// groups starting at group `g0`, shifted by `shift` rows (0 or 1).
fn gather(trace: &RowMajorMatrix<Val>, g0: usize, c: usize, shift: usize) -> [PackedVal; GROUP] {
    let h = trace.height();
    core::array::from_fn(|j| {
        PackedVal::from_fn(|l| {
            let row = ((g0 + l) * GROUP + j + shift).min(h - 1);
            trace.values[row * trace.width + c]
        })
    })
}

/// The skip round: for each of the 56 points, `sum_g eq(g) C_g(x_p)`, and
/// its time in seconds.
fn skip_round<A: SpikeAir>(
    air: &A,
    trace: &RowMajorMatrix<Val>,
    eq: &[Challenge],
    alpha_powers: &[Challenge],
) -> (Vec<Challenge>, f64) {
    let width = trace.width;
    let groups = trace.height() / GROUP;
    let count = points_count(air.degree());
    let pts = points(count);
    let basis: Vec<[Val; GROUP]> = pts.iter().map(|&x| lagrange(x)).collect();
    let next_cols = BaseAir::<Val>::main_next_row_columns(air);
    let periodic = BaseAir::<Val>::periodic_columns(air);
    let period = periodic[0].len();
    // Periodic values at each point for lane l = group g0 + l (g0 a multiple
    // of LANES, and LANES * GROUP a multiple of the period here).
    assert_eq!((LANES * GROUP) % period, 0);
    let periodic_at: Vec<Vec<PackedVal>> = basis
        .iter()
        .map(|b| {
            periodic
                .iter()
                .map(|col| {
                    PackedVal::from_fn(|l| (0..GROUP).map(|j| b[j] * col[(l * GROUP + j) % period]).sum())
                })
                .collect()
        })
        .collect();
    let ntt = CosetNtt::new(count);
    let t = Instant::now();
    let sums = (0..groups / LANES)
        .into_par_iter()
        .fold(
            || vec![ExtPacked::ZERO; count],
            |mut acc, block| {
                let g0 = block * LANES;
                let local_h: Vec<[PackedVal; GROUP]> = (0..width).map(|c| gather(trace, g0, c, 0)).collect();
                let next_h: Vec<[PackedVal; GROUP]> = next_cols.iter().map(|&c| gather(trace, g0, c, 1)).collect();
                let eq_p = ExtPacked::from_ext_slice(&eq[g0..g0 + LANES]);
                // Column extensions at every point, by coset FFTs.
                let local_at = ntt.extend(&local_h);
                let next_at = ntt.extend(&next_h);
                let mut local = vec![PackedVal::ZERO; width];
                let mut next = vec![PackedVal::ZERO; width];
                for (p, b) in basis.iter().enumerate() {
                    for c in 0..width {
                        local[c] = local_at[c][p];
                    }
                    for (i, &c) in next_cols.iter().enumerate() {
                        next[c] = next_at[i][p];
                    }
                    let first = if g0 == 0 { PackedVal::from_fn(|l| if l == 0 { b[0] } else { Val::ZERO }) } else { PackedVal::ZERO };
                    let last = if g0 + LANES == groups {
                        PackedVal::from_fn(|l| if l == LANES - 1 { b[GROUP - 1] } else { Val::ZERO })
                    } else {
                        PackedVal::ZERO
                    };
                    let mut folder = PackedFolder {
                        local: &local,
                        next: &next,
                        periodic: &periodic_at[p],
                        preprocessed: RowWindow::from_two_rows(&[], &[]),
                        first,
                        last,
                        alpha_powers,
                        acc: ExtPacked::ZERO,
                        k: 0,
                    };
                    air.eval_packed(&mut folder);
                    acc[p] += folder.acc * eq_p;
                }
                acc
            },
        )
        .reduce(
            || vec![ExtPacked::ZERO; count],
            |a, b| a.iter().zip(&b).map(|(x, y)| *x + *y).collect(),
        );
    let elapsed = t.elapsed().as_secs_f64();
    let sums = sums.iter().map(|s| <ExtPacked as PackedFieldExtension<Val, Challenge>>::to_ext_iter([*s]).sum::<Challenge>()).collect();
    (sums, elapsed)
}

/// The constraint polynomial of one block's lane at `x` (any field), from
/// the columns' extensions there.
fn constraint_at<A: SpikeAir>(air: &A, trace: &RowMajorMatrix<Val>, group: usize, x: Challenge, alpha_powers: &[Challenge]) -> Challenge {
    let b = lagrange(x);
    let h = trace.height();
    let at = |row: usize, c: usize| trace.values[row.min(h - 1) * trace.width + c];
    let local: Vec<Challenge> =
        (0..trace.width).map(|c| (0..GROUP).map(|j| b[j] * at(group * GROUP + j, c)).sum()).collect();
    let next: Vec<Challenge> =
        (0..trace.width).map(|c| (0..GROUP).map(|j| b[j] * at(group * GROUP + j + 1, c)).sum()).collect();
    let periodic = BaseAir::<Val>::periodic_columns(air);
    let period = periodic[0].len();
    let periodic_at: Vec<Challenge> =
        periodic.iter().map(|col| (0..GROUP).map(|j| b[j] * col[(group * GROUP + j) % period]).sum()).collect();
    let groups = h / GROUP;
    let mut folder = ScalarFolder {
        local: &local,
        next: &next,
        periodic: &periodic_at,
        preprocessed: RowWindow::from_two_rows(&[], &[]),
        first: if group == 0 { b[0] } else { Challenge::ZERO },
        last: if group == groups - 1 { b[GROUP - 1] } else { Challenge::ZERO },
        alpha_powers,
        acc: Challenge::ZERO,
        k: 0,
    };
    air.eval_scalar(&mut folder);
    folder.acc
}

/// Folds every group to one extension-field row at `r`: the columns the
/// ordinary rounds then run on. Returns the seconds taken.
fn fold(trace: &RowMajorMatrix<Val>, r: Challenge) -> (Vec<Vec<Challenge>>, f64) {
    let b = lagrange(r);
    let t = Instant::now();
    let groups = trace.height() / GROUP;
    let folded: Vec<Vec<Challenge>> = (0..trace.width)
        .into_par_iter()
        .map(|c| {
            (0..groups)
                .map(|g| (0..GROUP).map(|j| b[j] * trace.values[(g * GROUP + j) * trace.width + c]).sum())
                .collect()
        })
        .collect();
    (folded, t.elapsed().as_secs_f64())
}

/// Checks the skip round on one table, then times it, the fold, and
/// `p3-multi-stark`'s zerocheck of the same table.
fn measure<A: SpikeAir>(name: &str, n: usize, air: &A, trace: &RowMajorMatrix<Val>) {
    let mut rng = rand::rng();
    let rows = trace.height();
    let width = trace.width;
    let constraints = {
        let zeros = vec![Challenge::ZERO; width];
        let periodic = vec![Challenge::ZERO; BaseAir::<Val>::num_periodic_columns(air)];
        let powers = vec![Challenge::ZERO; 1 << 14];
        let mut folder = ScalarFolder {
            local: &zeros,
            next: &zeros,
            periodic: &periodic,
            preprocessed: RowWindow::from_two_rows(&[], &[]),
            first: Challenge::ZERO,
            last: Challenge::ZERO,
            alpha_powers: &powers,
            acc: Challenge::ZERO,
            k: 0,
        };
        air.eval_scalar(&mut folder);
        folder.k
    };
    let alpha = rand_ext(&mut rng);
    let alpha_powers: Vec<Challenge> = alpha.powers().take(constraints).collect();
    let groups = rows / GROUP;
    let eq: Vec<Challenge> = (0..groups).map(|_| rand_ext(&mut rng)).collect();
    let count = points_count(air.degree());
    let pts = points(count);

    // The constraints vanish on H (a valid trace).
    let w = Val::two_adic_generator(K);
    for g in [0, 1, groups / 2, groups - 1] {
        for j in 0..GROUP {
            let v = constraint_at(air, trace, g, Challenge::from(w.exp_u64(j as u64)), &alpha_powers);
            assert_eq!(v, Challenge::ZERO, "{name}: constraints vanish on H (group {g}, row {j})");
        }
    }
    // The values off H and the zeros on H determine the constraint
    // polynomial: interpolated at a random point, they match its value
    // computed from the columns' extensions there.
    let x = rand_ext(&mut rng);
    let g = groups / 3;
    let direct = constraint_at(air, trace, g, x, &alpha_powers);
    let all_x: Vec<Challenge> = pts
        .iter()
        .map(|&p| Challenge::from(p))
        .chain((0..GROUP).map(|j| Challenge::from(w.exp_u64(j as u64))))
        .collect();
    let all_y: Vec<Challenge> = pts
        .iter()
        .map(|&p| constraint_at(air, trace, g, Challenge::from(p), &alpha_powers))
        .chain(std::iter::repeat_n(Challenge::ZERO, GROUP))
        .collect();
    let interpolated: Challenge = (0..all_x.len())
        .map(|i| {
            let li: Challenge = (0..all_x.len())
                .filter(|&k| k != i)
                .map(|k| (x - all_x[k]) * (all_x[i] - all_x[k]).inverse())
                .product();
            li * all_y[i]
        })
        .sum();
    assert_eq!(direct, interpolated, "{name}: the values determine the constraint polynomial");

    let (sums, skip_s) = skip_round(air, trace, &eq, &alpha_powers);
    // The packed kernel agrees with the scalar evaluator at one point.
    let p = 5;
    let scalar: Challenge = (0..groups)
        .into_par_iter()
        .map(|g| eq[g] * constraint_at(air, trace, g, Challenge::from(pts[p]), &alpha_powers))
        .sum();
    assert_eq!(scalar, sums[p], "{name}: the packed skip round matches the scalar evaluator");

    let (folded, fold_s) = fold(trace, rand_ext(&mut rng));
    drop(folded);
    let p3_s = p3_zerocheck(air, trace);
    // The extension rounds after the skip run on `rows / GROUP` rows:
    // bounded by `p3-multi-stark`'s zerocheck of the first `2 rows / GROUP`
    // rows (whole slot blocks, a valid trace of fewer slots once the buses
    // are dropped), whose first round is in the base field and the rest
    // on `rows / GROUP` rows.
    let prefix = RowMajorMatrix::new(trace.values[..2 * rows / GROUP * width].to_vec(), width);
    let p3_rest_s = p3_zerocheck(air, &prefix);
    let ours = skip_s + fold_s + p3_rest_s;
    println!(
        "RESULT table={name} n={n} rows={rows} width={width} degree={} constraints={constraints} k={K} points={count} skip_round_s={skip_s:.3} fold_s={fold_s:.3} rest_bound_s={p3_rest_s:.3} skip_total_s={ours:.3} p3_zerocheck_s={p3_s:.3} ratio={:.2}",
        air.degree(),
        p3_s / ours
    );
}

/// `sigagg_prover::zerocheck`'s whole prover (skip round, fold, its own
/// extension-field rounds) and verifier on the table.
fn measure_module(name: &str, air: &AggAir, trace: &RowMajorMatrix<Val>) {
    let zc = SkipZerocheck::new(K);
    let seed = || transcript(b"spike module".to_vec());
    let t = Instant::now();
    let (proof, point) = zc.prove(air, trace, &mut seed()).unwrap();
    let prove_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    assert_eq!(zc.verify(air, trace.height().trailing_zeros() as usize, &proof, &mut seed()), Ok(point));
    let verify_ms = t.elapsed().as_secs_f64() * 1e3;
    let degree = sigagg_prover::zerocheck::multilinear_degree(air).unwrap();
    println!("RESULT module table={name} k={K} multilinear_degree={degree} prove_s={prove_s:.3} verify_ms={verify_ms:.2}");
}

fn main() {
    let n: usize = std::env::args().nth(1).map_or(1024, |a| a.parse().expect("N"));
    let ((chain, chain_trace), (hash, hash_trace)) = tables(n);
    measure("chain", n, &chain, &chain_trace);
    measure_module("chain", &AggAir::Chain(chain), &chain_trace);
    drop(chain_trace);
    measure("width-24", n, &hash, &hash_trace);
    measure_module("width-24", &AggAir::Hash(hash), &hash_trace);
}
