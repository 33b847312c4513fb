//! The DFT behind every low-degree extension: Plonky3's
//! `Radix2DitParallel` for wide matrices, its `Radix2DFTSmallBatch` for
//! narrow ones.
//!
//! `Radix2DitParallel` vectorizes across columns: one SIMD lane per column
//! of a row. A matrix narrower than a packed vector (16 KoalaBear lanes with
//! AVX-512) leaves most lanes idle, and the quotient chunks (5 columns each,
//! 8 of them at degree 9) and the LogUp columns are that narrow: such an
//! extension cost as much as a main trace twenty times as wide.
//! `Radix2DFTSmallBatch` packs along the column instead. It returns natural-order evaluations, which are bit-reversed
//! into the same storage the wide DFT returns, so the choice is per matrix.

use p3_dft::{Radix2DFTSmallBatch, Radix2DitParallel, TwoAdicSubgroupDft};
use p3_matrix::Matrix;
use p3_matrix::bitrev::{BitReversalPerm, BitReversedMatrixView};
use p3_matrix::dense::RowMajorMatrix;
use p3_matrix::util::reverse_matrix_index_bits;

use crate::config::Val;

/// Matrices with fewer columns than this use the column-wise DFT.
pub const NARROW: usize = 32;

/// A DFT that picks the algorithm by the matrix's width (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct HybridDft {
    wide: Radix2DitParallel<Val>,
    narrow: Radix2DFTSmallBatch<Val>,
}

impl HybridDft {
    fn is_narrow(mat: &RowMajorMatrix<Val>) -> bool {
        mat.width() < NARROW
    }

    /// The wide DFT's return type for natural-order evaluations: storage in
    /// bit-reversed row order behind a view that reverses it back.
    fn view(mut natural: RowMajorMatrix<Val>) -> BitReversedMatrixView<RowMajorMatrix<Val>> {
        reverse_matrix_index_bits(&mut natural);
        BitReversalPerm::new_view(natural)
    }
}

impl TwoAdicSubgroupDft<Val> for HybridDft {
    type Evaluations = BitReversedMatrixView<RowMajorMatrix<Val>>;

    fn dft_batch(&self, mat: RowMajorMatrix<Val>) -> Self::Evaluations {
        if Self::is_narrow(&mat) { Self::view(self.narrow.dft_batch(mat)) } else { self.wide.dft_batch(mat) }
    }

    fn coset_dft_batch(&self, mat: RowMajorMatrix<Val>, shift: Val) -> Self::Evaluations {
        if Self::is_narrow(&mat) {
            Self::view(self.narrow.coset_dft_batch(mat, shift))
        } else {
            self.wide.coset_dft_batch(mat, shift)
        }
    }

    fn idft_batch(&self, mat: RowMajorMatrix<Val>) -> RowMajorMatrix<Val> {
        if Self::is_narrow(&mat) { self.narrow.idft_batch(mat) } else { self.wide.idft_batch(mat) }
    }

    fn coset_idft_batch(&self, mat: RowMajorMatrix<Val>, shift: Val) -> RowMajorMatrix<Val> {
        if Self::is_narrow(&mat) {
            self.narrow.coset_idft_batch(mat, shift)
        } else {
            self.wide.coset_idft_batch(mat, shift)
        }
    }

    fn coset_lde_batch(&self, mat: RowMajorMatrix<Val>, added_bits: usize, shift: Val) -> Self::Evaluations {
        if Self::is_narrow(&mat) {
            Self::view(self.narrow.coset_lde_batch(mat, added_bits, shift))
        } else {
            self.wide.coset_lde_batch(mat, added_bits, shift)
        }
    }
}

#[cfg(test)]
mod tests {
    use p3_field::PrimeCharacteristicRing;
    use p3_matrix::bitrev::BitReversibleMatrix;

    use super::*;

    /// Both paths compute the same extension as the wide DFT alone.
    #[test]
    fn both_widths_match_radix2() {
        let reference = Radix2DitParallel::<Val>::default();
        let shift = Val::from_u32(7);
        for width in [1, 5, NARROW - 1, NARROW, 40] {
            let values = (0..width * 64).map(|i| Val::from_u32((i * i + 3) as u32)).collect();
            let mat = RowMajorMatrix::new(values, width);
            let ours =
                HybridDft::default().coset_lde_batch(mat.clone(), 3, shift).bit_reverse_rows().to_row_major_matrix();
            let theirs = reference.coset_lde_batch(mat, 3, shift).bit_reverse_rows().to_row_major_matrix();
            assert_eq!(ours, theirs, "width {width}");
        }
    }
}
