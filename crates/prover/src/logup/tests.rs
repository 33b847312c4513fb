//! Tests of the bus argument's layout, bound and leaves.

use p3_matrix::Matrix;

use super::prover::TableRows;
use super::*;
use crate::messages::MessageProgram;

/// Blocks sit tallest first, each aligned to its size; the weights of
/// all blocks and the padding's share sum to one at any point.
#[test]
fn the_layout_is_aligned_and_its_weights_partition_one() {
    let layout = Layout::new(&[3, 5, 4], &[2, 1, 3]);
    // 2 x 8 + 32 + 3 x 16 = 96 leaves.
    assert_eq!(layout.log_size, 7);
    for &(_, _, h, offset) in &layout.blocks {
        assert_eq!(offset % (1 << h), 0);
    }
    let rho: Vec<Challenge> = (0..6u32).map(|i| Challenge::from_u32(i * 7 + 3).exp_u64(3)).collect();
    let mu = Challenge::from_u32(5);
    let total: Challenge = layout.blocks.iter().map(|&(_, _, h, o)| layout.weight(&rho, h, o) * mu).sum();
    assert_eq!(total + padding(&layout, &rho, mu), mu);
}

/// The LogUp bound is Plonky3's: every message's declared bound times
/// its table's height, summed over the statement, below `p`; a table
/// too tall for `u128`, or heights for another number of tables, is
/// refused, not a panic.
#[test]
fn the_multiplicity_bound_is_checked() {
    use crate::zerocheck::toy::BoundedBus;
    // p = 2^31 - 2^24 + 1 = 16 x 133169152 + 1; the receive adds 1 a row.
    let check = |weight: u32, log_heights: &[usize]| {
        let air = BoundedBus { weight };
        check_multiplicity_bound(&vec![&air; log_heights.len()], log_heights)
    };
    assert!(check(133169151, &[4]).is_ok());
    assert!(matches!(check(133169152, &[4]), Err(LogUpError::MultiplicityBound(2130706448))));
    // Two tables share the bound: 2 x 8 x (2^26 + 1) < p <= 2 x 8 x (2^27 + 1).
    assert!(check(1 << 26, &[3, 3]).is_ok());
    assert!(matches!(check(1 << 27, &[3, 3]), Err(LogUpError::MultiplicityBound(_))));
    assert!(matches!(check(0, &[200]), Err(LogUpError::MultiplicityBound(u128::MAX))));
    let air = BoundedBus { weight: 1 };
    assert!(matches!(check_multiplicity_bound(&[&air], &[4, 4]), Err(LogUpError::Air(ZerocheckError::Shape(_)))));
}

/// The packed leaves are the row-by-row ones.
#[test]
fn packed_leaves_match_row_by_row() {
    let air = crate::zerocheck::toy::TestAir::new();
    let trace = air.trace(6);
    let program = MessageProgram::new(&air).unwrap();
    let periodic = p3_air::BaseAir::<Val>::periodic_columns(&air).into_owned();
    let transposed = trace.transpose();
    let columns = crate::columns::Columns::of_transposed(&transposed);
    let rows = TableRows { trace: &columns, periodic: &periodic };
    let constants: Vec<Challenge> = (0..program.len()).map(|j| Challenge::from_usize(j + 11).exp_u64(7)).collect();
    let gammas: Vec<Challenge> = Challenge::from_u32(3).exp_u64(9).powers().skip(1).take(4).collect();
    let (height, messages) = (trace.height(), program.len());
    let (mut n, mut d) = (vec![Val::ZERO; height * messages], vec![Challenge::ZERO; height * messages]);
    let mut out: Vec<(&mut [Val], &mut [Challenge])> = n.chunks_mut(height).zip(d.chunks_mut(height)).collect();
    rows.write_leaves(&program, 0, &constants, &gammas, &mut out);
    for r in 0..height {
        let (mut n1, mut d1) = (vec![Val::ZERO; messages], vec![Challenge::ZERO; messages]);
        let mut one: Vec<(&mut [Val], &mut [Challenge])> = n1.chunks_mut(1).zip(d1.chunks_mut(1)).collect();
        rows.write_leaves(&program, r, &constants, &gammas, &mut one);
        for j in 0..messages {
            assert_eq!((n[j * height + r], d[j * height + r]), (n1[j], d1[j]), "row {r}, message {j}");
        }
    }
}

/// A block's shares read the denominators packed or not, aligned to the
/// lanes or not, and give the sums row by row.
#[test]
fn eq_dots_read_packed_and_scalar_denominators_alike() {
    use p3_multilinear_util::poly::{Poly, PolyMaybePacked};

    use super::prover::eq_dots;

    let size = 1 << 7;
    let value = |i: usize, k: u64| Challenge::from_usize(i + 3).exp_u64(k);
    let n: Vec<Val> = (0..size).map(|i| Val::from_usize(i * i + 5)).collect();
    let d: Vec<Challenge> = (0..size).map(|i| value(i, 5)).collect();
    let packed = Poly::new(d.clone()).pack::<Val, Challenge>();
    for (offset, len) in [(0, size), (64, 64), (16, 16), (8, 8), (4, 4), (2, 2), (0, 1), (32, 32), (48, 16)] {
        let eq: Vec<Challenge> = (0..len).map(|i| value(i, 3)).collect();
        let expected = (0..len).fold((Challenge::ZERO, Challenge::ZERO), |(a, b), r| {
            (a + eq[r] * n[offset + r], b + eq[r] * d[offset + r])
        });
        let block = &n[offset..offset + len];
        let scalar = PolyMaybePacked::Scalar(Poly::new(d.as_slice()));
        let lanes = PolyMaybePacked::Packed(Poly::new(packed.as_slice()));
        assert_eq!(eq_dots(&eq, block, &scalar, offset), expected, "scalar, block {offset}+{len}");
        assert_eq!(eq_dots(&eq, block, &lanes, offset), expected, "packed, block {offset}+{len}");
    }
}
