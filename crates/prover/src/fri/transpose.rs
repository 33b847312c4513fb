//! Rows to SIMD lanes: the transpose that turns a packed group's rows into
//! packed columns before its constraints are evaluated.
//!
//! The quotient reads every main-trace row of its domain once, eight (or
//! sixteen) at a time, and needs them as packed values: lane `k` of column
//! `c` is row `k`'s entry `c`. Written element by element this runs at a
//! third of the memory's speed (BENCHMARKS.md, the AVX2 transpose), so
//! groups of eight 32-bit rows take an AVX2 8 x 8 transpose where the
//! target has it; anything else the plain loop.

/// Writes `rows` (as many as `out` has lanes per column, each at least
/// `width` long) into `out` as `width` columns of `rows.len()` lanes:
/// `out[c * rows.len() + k] = rows[k][c]`.
///
/// # Panics
/// If `out` is shorter than `width * rows.len()` or a row shorter than
/// `width`.
pub(crate) fn rows_to_lanes<T: Copy>(rows: &[&[T]], width: usize, out: &mut [T]) {
    let lanes = rows.len();
    assert!(out.len() >= width * lanes && rows.iter().all(|r| r.len() >= width), "rows or output too short");
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    if lanes == 8 && core::mem::size_of::<T>() == 4 {
        let blocks = width / 8;
        // SAFETY: AVX2 is enabled at compile time; every row holds at least
        // `8 * blocks` values of 4 bytes and `out` at least `64 * blocks`,
        // which bounds the unaligned loads and stores; a transpose only
        // moves the bits of `Copy` values.
        unsafe { avx2::transpose_blocks(rows, blocks, out) };
        copy_columns(rows, blocks * 8..width, out);
        return;
    }
    copy_columns(rows, 0..width, out);
}

/// The plain transpose of `columns`: `out[c * rows.len() + k] = rows[k][c]`.
fn copy_columns<T: Copy>(rows: &[&[T]], columns: core::ops::Range<usize>, out: &mut [T]) {
    let lanes = rows.len();
    for (k, row) in rows.iter().enumerate() {
        let slots = out[columns.start * lanes..columns.end * lanes].iter_mut().skip(k).step_by(lanes);
        for (slot, &value) in slots.zip(&row[columns.clone()]) {
            *slot = value;
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    use core::arch::x86_64::*;

    /// Transposes the first `8 * blocks` columns of eight rows of 4-byte
    /// values into `out`, one 8 x 8 block at a time.
    ///
    /// # Safety
    /// `rows` holds eight rows of at least `8 * blocks` 4-byte values and
    /// `out` at least `64 * blocks` of them.
    pub(super) unsafe fn transpose_blocks<T>(rows: &[&[T]], blocks: usize, out: &mut [T]) {
        for b in 0..blocks {
            // SAFETY: in bounds by the function's contract.
            unsafe {
                let r: [__m256i; 8] = core::array::from_fn(|k| _mm256_loadu_si256(rows[k].as_ptr().add(8 * b).cast()));
                // Pairs of rows interleaved by 32 bits, then pairs of those
                // by 64, then the 128-bit halves exchanged.
                let t: [__m256i; 8] = core::array::from_fn(|i| {
                    let (a, b) = (r[i & !1], r[i | 1]);
                    if i % 2 == 0 { _mm256_unpacklo_epi32(a, b) } else { _mm256_unpackhi_epi32(a, b) }
                });
                let u: [__m256i; 8] = core::array::from_fn(|i| {
                    let first = 4 * (i / 4) + (i % 4) / 2;
                    let (a, b) = (t[first], t[first + 2]);
                    if i % 2 == 0 { _mm256_unpacklo_epi64(a, b) } else { _mm256_unpackhi_epi64(a, b) }
                });
                let columns: [__m256i; 8] = core::array::from_fn(|i| {
                    let (a, b) = (u[i % 4], u[i % 4 + 4]);
                    if i < 4 {
                        _mm256_permute2x128_si256::<0x20>(a, b)
                    } else {
                        _mm256_permute2x128_si256::<0x31>(a, b)
                    }
                });
                for (c, column) in columns.into_iter().enumerate() {
                    _mm256_storeu_si256(out.as_mut_ptr().add(64 * b + 8 * c).cast(), column);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every lane count and width (whole 8 x 8 blocks, a remainder, none)
    /// gives the plain transpose.
    #[test]
    fn matches_the_plain_transpose() {
        for lanes in [1, 4, 8, 16] {
            for width in [0, 3, 8, 21, 324] {
                let rows: Vec<Vec<u32>> =
                    (0..lanes).map(|k| (0..width + 2).map(|c| (1000 * k + c) as u32).collect()).collect();
                let views: Vec<&[u32]> = rows.iter().map(Vec::as_slice).collect();
                let mut out = vec![u32::MAX; width * lanes + 1];
                rows_to_lanes(&views, width, &mut out);
                for c in 0..width {
                    for k in 0..lanes {
                        assert_eq!(out[c * lanes + k], rows[k][c], "lanes {lanes} width {width} column {c} lane {k}");
                    }
                }
                assert_eq!(out[width * lanes], u32::MAX, "nothing written past the columns");
            }
        }
    }
}
