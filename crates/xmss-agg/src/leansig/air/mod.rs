//! The family's tables, and the lockstep trace filler the two Poseidon
//! tables share.

pub mod chain;
pub mod digits;
pub mod hash24;
pub mod sig;

use sigagg_prover::paired::Poseidon1Block;

use crate::config::Val;

/// Fills the blocks of several slots (at most `PackedVal::WIDTH`) row by
/// row in lockstep, so that each row's permutations take one SIMD call
/// ([`Poseidon1Block::write`]): `row` writes slot `k`'s row `r` (its own
/// columns) and returns the permutation input, `absorb` hands the
/// permutation's input and output back to the slot's running state.
pub(crate) fn fill_lockstep<S, const W: usize, const P: usize>(
    perm: &Poseidon1Block<W, P>,
    blocks: &mut [&mut [Val]],
    (rows_per_block, width): (usize, usize),
    states: &mut [S],
    mut row: impl FnMut(&mut S, usize, usize, &mut [Val]) -> [Val; W],
    absorb: impl Fn(&mut S, [Val; W], [Val; W]),
) {
    for block in blocks.iter() {
        assert_eq!(block.len(), rows_per_block * width, "one block of rows");
    }
    for r in 0..rows_per_block {
        let mut rows: Vec<&mut [Val]> = blocks.iter_mut().map(|b| &mut b[r * width..(r + 1) * width]).collect();
        let inputs: Vec<[Val; W]> =
            rows.iter_mut().zip(states.iter_mut()).enumerate().map(|(k, (cells, st))| row(st, k, r, cells)).collect();
        let outputs = perm.write(&mut rows, &inputs);
        for ((st, input), output) in states.iter_mut().zip(inputs).zip(outputs) {
            absorb(st, input, output);
        }
    }
}
