//! The quotient of one table on its quotient domain: every constraint and
//! LogUp term folded by powers of `α` and divided by the trace domain's
//! vanishing polynomial, with Plonky3's values (so the proof is Plonky3's
//! byte for byte) but less work per point than
//! `p3_batch_stark::prover::quotient_values`:
//!
//! - **LogUp constraints from compiled messages.** Plonky3's gadget walks
//!   the expression tree of every message field at every point and folds
//!   the fields by Horner's rule in the extension field (a quintic product
//!   per field). Here the lookups are compiled once
//!   ([`LookupProgram`]) and the fields folded by precomputed powers of
//!   `β` (an extension-by-base product per field); [`eval_logup`] asserts
//!   the same constraints in the same order. The values are equal: the
//!   same polynomials of the same inputs, evaluated exactly.
//! - **Only the next-row columns a table reads.** Plonky3 transposes the
//!   whole next row into SIMD vectors at every point; a table reads few of
//!   them (the chain table 22 of a lane's 162 columns, the width-24 table
//!   47 of its 280: [`p3_air::BaseAir::main_next_row_columns`]). The
//!   other entries stay zero. The aggregators test that the declarations
//!   cover every read. A read a non-empty declaration missed would make
//!   the honest proof fail, since the verifier then opens and checks the
//!   whole next row; a table that declares no column gets its whole next
//!   row packed, as in Plonky3, so that a read there fails the same way
//!   instead of being bound to zero on both sides.
//! - **Points in the order the extension stores them.** The committed
//!   extension is stored bit-reversed, so the eight points of a packed
//!   group in natural order are eight rows far apart in memory (and their
//!   next rows eight more); visited in storage order they are eight
//!   adjacent rows. The quotient is computed in that order and put back
//!   in natural order once at the end.
//!
//! The proofs are held to Plonky3's by `testing::proofs_both_ways` in the
//! backend's tests (the toy tables, one of them through the fallback to
//! Plonky3's gadget), the XMSS aggregate tests and a Lamport+ threshold
//! with exclusive bus groups.

use p3_air::symbolic::{AirLayout, SymbolicExpressionExt};
use p3_air::{Air, AirBuilder, ExtensionBuilder, RowWindow};
use p3_batch_stark::folder::ProverConstraintFolderWithLookups;
use p3_batch_stark::symbolic::get_constraint_layout;
use p3_batch_stark::{Domain, StarkGenericConfig, Val};
use p3_commit::{PolynomialSpace, UnivariateStarkPcs};
use p3_field::{Algebra, BasedVectorSpace, PackedFieldExtension, PackedValue, PrimeCharacteristicRing};
use p3_lookup::logup::LogUpGadget;
use p3_lookup::{InteractionSymbolicBuilder, Lookup, LookupProtocol};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrixView;
use p3_maybe_rayon::prelude::*;
use p3_uni_stark::{PackedChallenge, PackedVal, ProverConstraintFolder};
use p3_util::{log2_strict_usize, reverse_bits_len, reverse_slice_index_bits};

use super::transpose::rows_to_lanes;
use crate::config::Val as KoalaBear;
use crate::messages::{Input, LookupProgram};

/// One table's inputs to its quotient: the AIR, its lookups and the
/// evaluations of its committed columns on the quotient domain.
pub(super) struct TableQuotient<'a, SC: StarkGenericConfig, A, M> {
    pub air: &'a A,
    pub public_values: &'a [Val<SC>],
    pub layout: AirLayout,
    pub trace_domain: Domain<SC>,
    pub quotient_domain: Domain<SC>,
    /// The main trace on the quotient domain.
    pub main: &'a M,
    /// The LogUp columns on the quotient domain (base-field coordinates),
    /// if the table has lookups.
    pub permutation: Option<&'a M>,
    pub lookups: &'a [Lookup<Val<SC>>],
    /// The table's LogUp terminal values.
    pub permutation_values: &'a [SC::Challenge],
    /// The table's LogUp challenges.
    pub challenges: &'a [SC::Challenge],
}

impl<SC, A, M> TableQuotient<'_, SC, A, M>
where
    SC: StarkGenericConfig,
    A: Air<InteractionSymbolicBuilder<Val<SC>, SC::Challenge>> + for<'b> Air<ProverConstraintFolderWithLookups<'b, SC>>,
    M: Matrix<Val<SC>> + Sync,
    Domain<SC>: PolynomialSpace<Val = KoalaBear> + Send + Sync,
    SymbolicExpressionExt<Val<SC>, SC::Challenge>: Algebra<SC::Challenge>,
{
    /// The quotient's value at every point of the quotient domain, in the
    /// domain's natural order.
    pub fn values(&self, pcs: &SC::Pcs, gadget: &LogUpGadget, alpha: SC::Challenge) -> Vec<SC::Challenge> {
        let pack = PackedVal::<SC>::WIDTH;
        let size = self.quotient_domain.size();
        let width = self.main.width();
        let next_step = 1 << (log2_strict_usize(size) - log2_strict_usize(self.trace_domain.size()));
        // An empty declaration packs the whole next row (see the module docs).
        let mut next_columns = self.air.main_next_row_columns();
        if next_columns.is_empty() {
            next_columns = (0..width).collect();
        }
        assert!(next_columns.iter().all(|&c| c < width), "next-row columns declared past the table's width");

        // Points are visited in the order the LDE stores them (bit-reversed):
        // a packed group's rows are then adjacent in memory, where the
        // natural order scatters them across the matrix. The selectors are
        // reordered to match, repeated cyclically to whole packed groups (a
        // domain smaller than a packed group wraps, as its rows do), and the
        // values are put back in natural order at the end.
        let log_size = log2_strict_usize(size);
        let natural = |s: usize| reverse_bits_len(s % size, log_size);
        let selectors = self.trace_domain.selectors_on_coset(self.quotient_domain);
        let padded = |v: &[Val<SC>]| -> Vec<Val<SC>> {
            let mut stored = v.to_vec();
            reverse_slice_index_bits(&mut stored);
            (0..size.next_multiple_of(pack)).map(|i| stored[i % size]).collect()
        };
        let [is_first_row, is_last_row, is_transition, inv_vanishing] =
            [&selectors.is_first_row, &selectors.is_last_row, &selectors.is_transition, &selectors.inv_vanishing]
                .map(|v| padded(v));
        let packed = |v: &[Val<SC>], i: usize| *PackedVal::<SC>::from_slice(&v[i..i + pack]);
        let constraints =
            get_constraint_layout::<Val<SC>, SC::Challenge, A, _>(self.air, self.layout, self.lookups, gadget);
        let (base_alpha_powers, ext_alpha_powers) = constraints.decompose_alpha(alpha);
        let periodic =
            pcs.build_periodic_lde_table(&self.air.periodic_columns(), self.trace_domain, self.quotient_domain);
        let packed_challenges: Vec<PackedChallenge<SC>> = self.challenges.iter().map(|&c| c.into()).collect();
        let packed_values: Vec<PackedChallenge<SC>> = self.permutation_values.iter().map(|&v| v.into()).collect();
        let constraint_count = constraints.total_constraints();
        // Plonky3's gadget walks every message's expression trees at every
        // row and folds the fields in the extension field; the compiled
        // program reads them once and folds by precomputed powers of β.
        let program = LookupProgram::new(self.lookups).filter(|_| !self.lookups.is_empty());
        let beta_powers = self.beta_powers();
        let (n_base, n_ext) = (constraints.base_indices.len(), constraints.ext_indices.len());

        let mut result = SC::Challenge::zero_vec(size);
        result.par_chunks_mut(pack).enumerate().for_each_init(
            || {
                // The next row's undeclared entries are never written: zero.
                let main = Val::<SC>::zero_vec(2 * width * pack);
                let rows = (Vec::with_capacity(pack), Vec::with_capacity(periodic.width()));
                // The LogUp rows as packed values, and the scalars they are transposed into.
                let perm = (Vec::new(), Val::<SC>::zero_vec(self.permutation.map_or(0, |p| p.width()) * pack));
                (main, rows, perm, Vec::with_capacity(n_base), Vec::with_capacity(n_ext), (Vec::new(), Vec::new()))
            },
            |(main_buf, (points, periodic_values), (perm_buf, perm_lanes), base, ext, logup_bufs), (group, out)| {
                let start = group * pack;
                points.clear();
                points.extend((start..start + pack).map(natural));
                self.pack_main(main_buf, points, &next_columns, next_step);
                self.pack_permutation(perm_buf, perm_lanes, points, next_step);
                periodic_values.clear();
                periodic_values
                    .extend((0..periodic.width()).map(|c| PackedVal::<SC>::from_fn(|k| *periodic.get(points[k], c))));
                let main_packed = PackedVal::<SC>::pack_slice(main_buf);
                let main = RowMajorMatrixView::new(main_packed, width);
                let preprocessed = RowMajorMatrixView::new(&[], 0);
                let periodic_values: &[PackedVal<SC>] = periodic_values;
                base.clear();
                ext.clear();
                let mut folder = ProverConstraintFolderWithLookups {
                    inner: ProverConstraintFolder {
                        main,
                        preprocessed,
                        preprocessed_window: RowWindow::from_view(&preprocessed),
                        periodic_values,
                        public_values: self.public_values,
                        is_first_row: packed(&is_first_row, start),
                        is_last_row: packed(&is_last_row, start),
                        is_transition: packed(&is_transition, start),
                        base_alpha_powers: &base_alpha_powers,
                        ext_alpha_powers: &ext_alpha_powers,
                        base_constraints: core::mem::take(base),
                        ext_constraints: core::mem::take(ext),
                        constraint_index: 0,
                        constraint_count,
                    },
                    permutation: RowMajorMatrixView::new(perm_buf.as_slice(), perm_buf.len() / 2),
                    permutation_challenges: &packed_challenges,
                    permutation_values: &packed_values,
                };
                match &program {
                    Some(program) => {
                        self.air.eval(&mut folder);
                        let inputs =
                            LogUpInputs { main: main_packed, width, periodic: periodic_values, perm: &perm_buf[..] };
                        eval_logup(&mut folder, program, &inputs, &beta_powers, logup_bufs);
                    }
                    None => gadget.eval_air_and_lookups(self.air, &mut folder, self.lookups),
                }
                let quotient = folder.inner.finalize_constraints() * packed(&inv_vanishing, start);
                *base = folder.inner.base_constraints;
                *ext = folder.inner.ext_constraints;
                for (k, slot) in out.iter_mut().enumerate() {
                    *slot = quotient.extract(k);
                }
            },
        );
        reverse_slice_index_bits(&mut result);
        result
    }

    /// Packs the main rows at `points` (natural indices on the quotient
    /// domain) into `buf`: every column of the current rows, then the
    /// declared columns of the rows `next_step` further on.
    fn pack_main(&self, buf: &mut [Val<SC>], points: &[usize], next_columns: &[usize], next_step: usize) {
        let width = self.main.width();
        let size = self.main.height();
        let lanes = PackedVal::<SC>::WIDTH;
        transpose_rows(self.main, points, 0, &mut buf[..lanes * width]);
        for (k, &p) in points.iter().enumerate() {
            let next = self.main.row_slice((p + next_step) % size).expect("a point of the domain");
            for &c in next_columns {
                buf[(width + c) * lanes + k] = next[c];
            }
        }
    }

    /// Per LogUp column, the powers `β^0 .. β^(w-1)` of its field-folding
    /// challenge `β`, `w` the widest message, broadcast to packed values.
    fn beta_powers(&self) -> Vec<Vec<PackedChallenge<SC>>> {
        let widest = self.lookups.iter().flat_map(|l| l.elements.iter().map(Vec::len)).max().unwrap_or(0);
        self.challenges
            .chunks(2)
            .map(|pair| pair[1].powers().take(widest).map(PackedChallenge::<SC>::from).collect())
            .collect()
    }

    /// Packs the LogUp columns of the rows at `points` and of the rows
    /// `next_step` further on into `buf` (current rows first), as
    /// extension-field values, transposing each set of rows through
    /// `lanes` (`points.len()` scalars per LogUp column).
    fn pack_permutation(
        &self,
        buf: &mut Vec<PackedChallenge<SC>>,
        lanes: &mut [Val<SC>],
        points: &[usize],
        next_step: usize,
    ) {
        buf.clear();
        let Some(perm) = self.permutation else { return };
        let dimension = <SC::Challenge as BasedVectorSpace<Val<SC>>>::DIMENSION;
        for step in [0, next_step] {
            transpose_rows(perm, points, step, lanes);
            let columns = PackedVal::<SC>::pack_slice(lanes);
            buf.extend(
                columns
                    .chunks_exact(dimension)
                    .map(|coordinates| PackedChallenge::<SC>::from_basis_coefficients_fn(|d| coordinates[d])),
            );
        }
    }
}

/// Writes the rows of `matrix` at `points`, each taken `step` rows on
/// (cyclically), into `out` as packed columns: lane `k` of column `c`
/// (scalar `c * points.len() + k`) is entry `c` of point `k`'s row.
fn transpose_rows<T: Copy + Send + Sync, Mat: Matrix<T>>(matrix: &Mat, points: &[usize], step: usize, out: &mut [T]) {
    let height = matrix.height();
    let rows: Vec<_> =
        points.iter().map(|&p| matrix.row_slice((p + step) % height).expect("a point of the domain")).collect();
    let views: Vec<&[T]> = rows.iter().map(|row| &**row).collect();
    rows_to_lanes(&views, matrix.width(), out);
}

/// One packed row's values as the LogUp constraints read them.
struct LogUpInputs<'a, P, E> {
    /// The current row, then the next row's declared columns.
    main: &'a [P],
    width: usize,
    periodic: &'a [P],
    /// The LogUp columns: the current row, then the next.
    perm: &'a [E],
}

/// Asserts the LogUp constraints of `program`'s lookups on `folder`'s row:
/// the constraints `LogUpGadget::eval_all` asserts, in its order and with
/// its values (the same polynomials of the same inputs, evaluated
/// exactly), so that the quotient, and the proof, are Plonky3's.
///
/// Per lookup `c`, with terms `t_i = α_c − Σ_j e_ij β_c^(k−1−j)`: without
/// flags `U·f_c − V` for `U = Π t_i`, `V = Σ m_i Π_(j≠i) t_j`; with flags
/// `D·f_c − N` for `N = Σ flag_i m_i`, `D = Σ flag_i t_i + 1 − Σ flag_i`.
/// Then the accumulator: zero on the first row, `acc' − acc − Σ_c f_c` on
/// transitions, `terminal − acc − Σ_c f_c` on the last row. The last
/// argument holds the program's values and the terms, buffers reused from
/// point to point.
fn eval_logup<SC: StarkGenericConfig>(
    folder: &mut ProverConstraintFolderWithLookups<'_, SC>,
    program: &LookupProgram,
    row: &LogUpInputs<'_, PackedVal<SC>, PackedChallenge<SC>>,
    beta_powers: &[Vec<PackedChallenge<SC>>],
    (values, terms): &mut (Vec<PackedVal<SC>>, Vec<PackedChallenge<SC>>),
) where
    Domain<SC>: PolynomialSpace<Val = KoalaBear>,
{
    let zero = PackedVal::<SC>::ZERO;
    program.eval_with(
        |input| match input {
            Input::Local(c) => row.main[c],
            Input::Next(c) => row.main[row.width + c],
            Input::Periodic(c) => row.periodic[c],
            Input::First => folder.inner.is_first_row,
            Input::Last => folder.inner.is_last_row,
        },
        values,
    );
    let perm_width = row.perm.len() / 2;
    let one = PackedChallenge::<SC>::ONE;
    for lookup in &program.lookups {
        let alpha = folder.permutation_challenges[2 * lookup.column];
        let powers = &beta_powers[lookup.column];
        terms.clear();
        terms.extend(lookup.elements.iter().map(|fields| {
            let Some((&last, leading)) = fields.split_last() else { return alpha };
            let folded = leading.iter().enumerate().fold(PackedChallenge::<SC>::from(values[last]), |acc, (j, &f)| {
                acc + powers[fields.len() - 1 - j] * values[f]
            });
            alpha - folded
        }));
        let (numerator, denominator) = match &lookup.flags {
            None => {
                let product = terms.iter().fold(one, |acc, &t| acc * t);
                let numerator = (0..terms.len()).fold(PackedChallenge::<SC>::ZERO, |acc, i| {
                    let others = terms.iter().enumerate().filter(|&(j, _)| j != i).fold(one, |p, (_, &t)| p * t);
                    acc + others * values[lookup.multiplicities[i]]
                });
                (numerator, product)
            }
            Some(flags) => {
                let numerator: PackedVal<SC> =
                    flags.iter().zip(&lookup.multiplicities).fold(zero, |acc, (&f, &m)| acc + values[f] * values[m]);
                let flag_sum = flags.iter().fold(zero, |acc, &f| acc + values[f]);
                let selected = flags
                    .iter()
                    .zip(terms.iter())
                    .fold(PackedChallenge::<SC>::ZERO, |acc, (&f, &t)| acc + t * values[f]);
                (PackedChallenge::<SC>::from(numerator), selected + (PackedVal::<SC>::ONE - flag_sum))
            }
        };
        folder.assert_zero_ext(denominator * row.perm[lookup.column + 1] - numerator);
    }
    let (acc, acc_next) = (row.perm[0], row.perm[perm_width]);
    let row_sum = program.lookups.iter().fold(PackedChallenge::<SC>::ZERO, |sum, l| sum + row.perm[l.column + 1]);
    let terminal = folder.permutation_values[0];
    folder.when_first_row().assert_zero_ext(acc);
    folder.when_transition().assert_zero_ext(acc_next - acc - row_sum);
    folder.when_last_row().assert_zero_ext(terminal - acc - row_sum);
}
