//! A sponge over one permutation row per block: the block's input is
//! committed on its row, its output read from the permutation's columns,
//! and these gadgets tie a row's input to the initial state or to the
//! previous row's output.
//!
//! The two modes of `sigagg_koalabear::mode` differ only in the rate:
//! *add* mode (hash-sig, leanSig) adds the next chunk to the output's rate
//! ([`absorb_add`]); *overwrite* mode (Lamport+) replaces it by the chunk,
//! so the rate input is the chunk itself and needs no constraint. Both
//! carry the capacity over ([`carry_capacity`]).

use p3_air::AirBuilder;

/// On the rows `flag` selects (a sponge's first block), the permutation
/// input `input` equals `initial` lane by lane: the first chunk on the rate
/// and the initial capacity (the domain separator) on the capacity.
///
/// Without it the prover starts the sponge from a state of its choosing,
/// and the squeezed value is no longer the hash of the absorbed data (nor
/// bound to the domain separator that keeps other hashes apart). One
/// constraint `flag * (input - initial)` per lane, in lane order.
pub fn start<AB: AirBuilder>(
    builder: &mut AB,
    flag: &AB::Expr,
    input: &[AB::Expr],
    initial: impl IntoIterator<Item = AB::Expr>,
) {
    for (lane, value) in input.iter().zip(initial) {
        builder.assert_zero(flag.clone() * (lane.clone() - value));
    }
}

/// Add mode: on the rows `flag` selects (the next row continues the
/// sponge), the next row's rate input is this row's output rate plus the
/// next chunk: `next = out + chunk` lane by lane.
///
/// Without it the next block could absorb an arbitrary state rather than
/// the previous block's output, cutting the sponge into unrelated
/// permutations. Pass the next row's cells and a transition builder
/// (`when_transition`) when the last row's successor wraps around. One
/// constraint `flag * (next - out - chunk)` per lane, in lane order.
pub fn absorb_add<AB: AirBuilder>(
    builder: &mut AB,
    flag: &AB::Expr,
    next_rate: &[AB::Expr],
    out_rate: &[AB::Expr],
    chunk: impl IntoIterator<Item = AB::Expr>,
) {
    for ((next, out), chunk) in next_rate.iter().zip(out_rate).zip(chunk) {
        builder.assert_zero(flag.clone() * (next.clone() - out.clone() - chunk));
    }
}

/// Both modes: on the rows `flag` selects (the next row continues the
/// sponge), the next row's capacity input is this row's output capacity.
///
/// The capacity is what the prover cannot reach through the absorbed
/// chunks; were it free on the next row, any later block could restart
/// the sponge from a state of the prover's choosing. One constraint
/// `flag * (next - out)` per lane, in lane order.
pub fn carry_capacity<AB: AirBuilder>(
    builder: &mut AB,
    flag: &AB::Expr,
    next_capacity: &[AB::Expr],
    out_capacity: &[AB::Expr],
) {
    for (next, out) in next_capacity.iter().zip(out_capacity) {
        builder.assert_zero(flag.clone() * (next.clone() - out.clone()));
    }
}

#[cfg(test)]
mod tests {
    use p3_air::{AirBuilder, DebugConstraintBuilder, WindowAccess};
    use p3_field::PrimeCharacteristicRing;

    use super::*;
    use crate::config::Val;
    use crate::gadgets::testing::holds;

    type B<'a> = DebugConstraintBuilder<'a, Val>;

    /// Rows `[flag | input (2) | output (2)]`: a toy sponge of rate 1 and
    /// capacity 1 whose "permutation" output is free.
    fn rows(b: &mut B<'_>) -> (Vec<Val>, Vec<Val>) {
        let main = b.main();
        (main.current_slice().to_vec(), main.next_slice().to_vec())
    }

    #[test]
    fn start_pins_the_first_input() {
        let eval = |b: &mut B<'_>| {
            let (loc, _) = rows(b);
            start(b, &loc[0], &loc[1..3], [Val::from_u32(5), Val::from_u32(9)]);
        };
        assert!(holds(&[vec![1, 5, 9, 0, 0], vec![0, 1, 2, 3, 4]], &eval));
        assert!(!holds(&[vec![1, 5, 8, 0, 0], vec![0, 1, 2, 3, 4]], &eval), "another capacity");
        assert!(!holds(&[vec![1, 6, 9, 0, 0], vec![0, 1, 2, 3, 4]], &eval), "another first chunk");
    }

    #[test]
    fn absorb_add_and_carry_chain_the_blocks() {
        // The next row's input: rate = output rate + chunk 10, capacity = output capacity.
        let eval = |b: &mut B<'_>| {
            let (loc, nxt) = rows(b);
            let mut t = b.when_transition();
            absorb_add(&mut t, &loc[0], &nxt[1..2], &loc[3..4], [Val::from_u32(10)]);
            carry_capacity(&mut t, &loc[0], &nxt[2..3], &loc[4..5]);
        };
        assert!(holds(&[vec![1, 1, 2, 30, 40], vec![0, 40, 40, 7, 7]], &eval));
        assert!(!holds(&[vec![1, 1, 2, 30, 40], vec![0, 30, 40, 7, 7]], &eval), "the chunk not added");
        assert!(!holds(&[vec![1, 1, 2, 30, 40], vec![0, 40, 41, 7, 7]], &eval), "another capacity");
        // Unflagged rows link nothing.
        assert!(holds(&[vec![0, 1, 2, 30, 40], vec![0, 5, 6, 7, 7]], &eval));
    }
}
