//! A trace read column by column: what the multilinear prover's phases
//! read once the commitment holds the trace's column-major copy.
//!
//! The commitment needs every column contiguous, so the prover keeps the
//! column-major copy and frees the row-major trace it came from: one
//! copy of the witness alive instead of two (the largest share of the
//! prover's peak memory after the codeword). The phases that follow (the
//! bus argument's leaves and shares, the zerocheck, the opening
//! reduction) read cells through [`Columns`].

use p3_matrix::dense::RowMajorMatrix;
use p3_sumcheck::layout::Table as TraceTable;

use crate::config::Val;

/// A borrowed column-major trace: `width` columns of `height` cells.
#[derive(Clone, Debug)]
pub struct Columns<'a> {
    columns: Vec<&'a [Val]>,
    height: usize,
}

impl<'a> Columns<'a> {
    /// The first `height` rows of `table`'s columns (a committed table may
    /// be longer: the commitment pads a short table with zero rows).
    ///
    /// # Panics
    /// If the table is not dense or is shorter than `height`.
    pub fn of_table(table: &'a TraceTable<Val>, height: usize) -> Self {
        let columns = (0..table.num_polys())
            .map(|c| &table.column(c).as_dense().expect("a dense committed table")[..height])
            .collect();
        Self { columns, height }
    }

    /// The columns of a transposed trace: row `c` of `transposed` is
    /// column `c` ([`RowMajorMatrix::transpose`] of a row-major trace).
    pub fn of_transposed(transposed: &'a RowMajorMatrix<Val>) -> Self {
        let height = transposed.width;
        Self { columns: transposed.values.chunks(height.max(1)).collect(), height }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.columns.len()
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Column `c`.
    pub fn column(&self, c: usize) -> &'a [Val] {
        self.columns[c]
    }

    /// The cell at row `r`, column `c`.
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> Val {
        self.columns[c][r]
    }
}
