//! Typed rows: a table whose layout is fixed names its columns with a
//! `#[repr(C)]` struct generic over the cell type `T` (as Plonky3's
//! `p3-poseidon2-air` does), so the AIR reads `row.carry` instead of
//! `loc[col::C]` and the trace generator writes the same struct.
//!
//! # Why copies, not a borrowed view
//!
//! Plonky3 borrows the struct straight out of the row slice with
//! `align_to`, which needs `unsafe`; the aggregators forbid unsafe code. A
//! [`typed_row!`] struct is instead *read* from the slice by
//! `from_slice` (one clone per cell; the AIR reads its window as
//! expressions, the trace generator as field elements) and *written* back
//! by `write_to`: no lifetimes, no unsafe, and the cost is a few dozen
//! copies per row. Both
//! place every field at `offset_of!(Row<u8>, field)`, and the width is
//! `size_of::<Row<u8>>()`: with one-byte cells a `#[repr(C)]` struct has no
//! padding, so the struct declaration alone fixes the column order, and the
//! AIR, the trace generator and the `col::` offsets the tests use cannot
//! drift apart. A field is a cell `T`, an array `[T; N]` or an array of
//! arrays `[[T; N]; M]` ([`Cells`]).

/// A field type of a typed row: a run of `LEN` consecutive cells.
pub trait Cells<T>: Sized {
    /// Reads the value from the start of `cells`.
    fn read(cells: &[T]) -> Self;
    /// Writes the value to the start of `cells`.
    fn write(&self, cells: &mut [T]);
}

impl<T: Clone> Cells<T> for T {
    fn read(cells: &[T]) -> Self {
        cells[0].clone()
    }
    fn write(&self, cells: &mut [T]) {
        cells[0] = self.clone();
    }
}

impl<T: Clone, const N: usize> Cells<T> for [T; N] {
    fn read(cells: &[T]) -> Self {
        core::array::from_fn(|i| cells[i].clone())
    }
    fn write(&self, cells: &mut [T]) {
        cells[..N].clone_from_slice(self);
    }
}

impl<T: Clone, const N: usize, const M: usize> Cells<T> for [[T; N]; M] {
    fn read(cells: &[T]) -> Self {
        core::array::from_fn(|j| core::array::from_fn(|i| cells[N * j + i].clone()))
    }
    fn write(&self, cells: &mut [T]) {
        for (j, inner) in self.iter().enumerate() {
            cells[N * j..N * (j + 1)].clone_from_slice(inner);
        }
    }
}

/// Declares a `#[repr(C)]` row struct generic over its cell type `T`, with
/// `WIDTH`, `from_slice`, `write_to` and `update` (see the module docs).
#[macro_export]
macro_rules! typed_row {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident<T> {
            $( $(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[repr(C)]
        #[derive(Clone, Debug, PartialEq, Eq)]
        $vis struct $name<T> {
            $( $(#[$fmeta])* $fvis $field: $ty, )*
        }

        #[allow(dead_code)]
        impl<T: Clone> $name<T> {
            /// Number of columns: with one-byte cells a `#[repr(C)]` struct
            /// has no padding.
            pub const WIDTH: usize = core::mem::size_of::<$name<u8>>();

            /// Reads the row from the first [`Self::WIDTH`] cells of `row`.
            pub fn from_slice(row: &[T]) -> Self {
                let row = &row[..Self::WIDTH];
                Self {
                    $( $field: <$ty as $crate::row::Cells<T>>::read(
                        &row[core::mem::offset_of!($name<u8>, $field)..],
                    ), )*
                }
            }

            /// Writes the row to the first [`Self::WIDTH`] cells of `row`.
            pub fn write_to(&self, row: &mut [T]) {
                let row = &mut row[..Self::WIDTH];
                $( $crate::row::Cells::<T>::write(
                    &self.$field,
                    &mut row[core::mem::offset_of!($name<u8>, $field)..],
                ); )*
            }

            /// Reads the row from `row`, lets `f` change it and writes it back.
            pub fn update(row: &mut [T], f: impl FnOnce(&mut Self)) {
                let mut typed = Self::from_slice(row);
                f(&mut typed);
                typed.write_to(row);
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::typed_row! {
        struct Example<T> {
            a: T,
            b: [T; 3],
            c: [[T; 2]; 2],
            d: T,
        }
    }

    #[test]
    fn fields_sit_in_declaration_order_and_round_trip() {
        assert_eq!(Example::<u32>::WIDTH, 9);
        let cells: Vec<u32> = (0..9).collect();
        let row = Example::from_slice(&cells);
        assert_eq!(row, Example { a: 0, b: [1, 2, 3], c: [[4, 5], [6, 7]], d: 8 });
        let mut back = vec![0u32; 10];
        row.write_to(&mut back);
        assert_eq!(&back[..9], &cells[..]);
        assert_eq!(back[9], 0);
        Example::update(&mut back, |r| r.c[1][0] = 60);
        assert_eq!(back[6], 60);
    }
}
