//! What Poseidon1 and Poseidon2 do differently, as [`super::PoseidonBlock`]
//! arithmetizes them ([`PoseidonRounds`]), and the two implementations.
//!
//! Both permutations run `HALF_FULL` full rounds (add constants, cube
//! every lane, a linear layer), partial rounds that cube lane 0 only, and
//! `HALF_FULL` full rounds again; a partial round's S-box output is its
//! one committed cell in either. What differs:
//!
//! | | Poseidon2 | Poseidon1 |
//! |---|---|---|
//! | before the first full round | the external layer | nothing |
//! | full rounds' layer | the external layer (`M4` blocks) | the dense circulant MDS (Karatsuba) |
//! | entering the partial rounds | nothing | a constant vector, then the dense matrix `m_i` |
//! | before a partial S-box | one round constant on lane 0 | nothing |
//! | after a partial S-box | the internal layer | a scalar constant on lane 0 (all but the last round), then a sparse matrix |
//!
//! Poseidon1's partial rounds are Plonky3's sparse decomposition of the
//! textbook rounds (Poseidon paper, appendix B: `PartialRoundConstants`);
//! both forms compute the same permutation, but the sparse one changes
//! lane 0 through an `O(W)` matrix, so each round's constraint stays
//! small. The committed S-box outputs are those of the sparse form, as in
//! Plonky3's `Poseidon1Air`.

use std::sync::OnceLock;

use p3_field::Algebra;
use p3_koala_bear::GenericPoseidon2LinearLayersKoalaBear as Linear;
use p3_mds::karatsuba_convolution::{mds_circulant_karatsuba_16, mds_circulant_karatsuba_24};
use p3_poseidon1::{FullRoundConstants, PartialRoundConstants, Poseidon1Constants, cheap_matmul, mds_multiply};
use p3_poseidon2::GenericPoseidon2LinearLayers;
use p3_poseidon2_air::RoundConstants;
use sigagg_koalabear::poseidon2::HALF_FULL;

use crate::config::Val;

/// The rounds of one width-`W` Poseidon permutation, as steps the block
/// runs on any algebra over KoalaBear: symbolic expressions for the
/// constraints, packed values for the witness. The block calls them in
/// this order: [`Self::initial_layer`]; per initial full round, the
/// constants of [`Self::initial_constants`], the S-box on every lane and
/// [`Self::full_layer`]; [`Self::enter_partial`]; per partial round,
/// [`Self::partial_constant`] and the S-box on lane 0 (committed), then
/// [`Self::after_partial`]; the terminal full rounds as the initial ones.
/// The S-box is `x^3` in both.
pub trait PoseidonRounds<const W: usize>: Clone + Sync {
    /// The linear layer before the first full round.
    fn initial_layer<A: Algebra<Val>>(&self, state: &mut [A; W]);

    /// The linear layer ending every full round.
    fn full_layer<A: Algebra<Val>>(&self, state: &mut [A; W]);

    /// The constants of the initial full rounds, one vector a round.
    fn initial_constants(&self) -> &[[Val; W]];

    /// The constants of the terminal full rounds, one vector a round.
    fn terminal_constants(&self) -> &[[Val; W]];

    /// The number of partial rounds.
    fn partial_rounds(&self) -> usize;

    /// The affine map from the last initial full round's output to the
    /// first partial S-box's input lanes.
    fn enter_partial<A: Algebra<Val>>(&self, state: &mut [A; W]);

    /// The constant added to lane 0 before partial round `round`'s S-box.
    fn partial_constant(&self, round: usize) -> Option<Val>;

    /// What follows partial round `round`'s S-box, whose output lane 0
    /// holds.
    fn after_partial<A: Algebra<Val>>(&self, round: usize, state: &mut [A; W]);
}

/// Poseidon2 as Plonky3's `Poseidon2Air` takes it: its round constants,
/// with KoalaBear's generic linear layers.
impl<const W: usize, const P: usize> PoseidonRounds<W> for RoundConstants<Val, W, HALF_FULL, P>
where
    Linear: GenericPoseidon2LinearLayers<W>,
{
    fn initial_layer<A: Algebra<Val>>(&self, state: &mut [A; W]) {
        Linear::external_linear_layer(state);
    }

    fn full_layer<A: Algebra<Val>>(&self, state: &mut [A; W]) {
        Linear::external_linear_layer(state);
    }

    fn initial_constants(&self) -> &[[Val; W]] {
        self.beginning_full_round_constants()
    }

    fn terminal_constants(&self) -> &[[Val; W]] {
        self.ending_full_round_constants()
    }

    fn partial_rounds(&self) -> usize {
        P
    }

    fn enter_partial<A: Algebra<Val>>(&self, _: &mut [A; W]) {}

    fn partial_constant(&self, round: usize) -> Option<Val> {
        Some(self.partial_round_constants()[round])
    }

    fn after_partial<A: Algebra<Val>>(&self, _: usize, state: &mut [A; W]) {
        Linear::internal_linear_layer(state);
    }
}

/// Poseidon1's rounds in Plonky3's optimized form: the full rounds'
/// constants and dense MDS, the partial rounds' sparse decomposition
/// (both from `Poseidon1Constants::to_optimized`), and the MDS's
/// circulant column for the Karatsuba product.
#[derive(Clone, Debug)]
pub struct Poseidon1Rounds<const W: usize> {
    full: FullRoundConstants<Val, W>,
    partial: PartialRoundConstants<Val, W>,
    circulant: [Val; W],
}

impl<const W: usize> Poseidon1Rounds<W> {
    /// The rounds of the permutation with these raw constants.
    pub fn new(raw: &Poseidon1Constants<Val, W>) -> Self {
        let (full, partial) = raw.to_optimized();
        let circulant = core::array::from_fn(|i| full.dense_mds[i][0]);
        Self { full, partial, circulant }
    }
}

impl Poseidon1Rounds<16> {
    /// Plonky3's default width-16 Poseidon1 (`sigagg_koalabear::poseidon1::default16`),
    /// decomposed once.
    pub fn default16() -> &'static Self {
        static R: OnceLock<Poseidon1Rounds<16>> = OnceLock::new();
        R.get_or_init(|| Self::new(sigagg_koalabear::poseidon1::default_constants16()))
    }
}

impl Poseidon1Rounds<24> {
    /// Plonky3's default width-24 Poseidon1 (`sigagg_koalabear::poseidon1::default24`),
    /// decomposed once.
    pub fn default24() -> &'static Self {
        static R: OnceLock<Poseidon1Rounds<24>> = OnceLock::new();
        R.get_or_init(|| Self::new(sigagg_koalabear::poseidon1::default_constants24()))
    }
}

/// `slice` as an array of its own length `N`.
fn fixed<T, const N: usize>(slice: &mut [T]) -> &mut [T; N] {
    slice.try_into().expect("a slice of the array's length")
}

/// `slice` as an array of its own length `N`.
fn fixed_ref<T, const N: usize>(slice: &[T]) -> &[T; N] {
    slice.try_into().expect("a slice of the array's length")
}

impl<const W: usize> PoseidonRounds<W> for Poseidon1Rounds<W> {
    fn initial_layer<A: Algebra<Val>>(&self, _: &mut [A; W]) {}

    /// The circulant MDS by Karatsuba convolution at widths 16 and 24
    /// (fewer products than the dense matrix, in the constraints as in
    /// the witness), the dense product at any other width.
    fn full_layer<A: Algebra<Val>>(&self, state: &mut [A; W]) {
        match W {
            16 => mds_circulant_karatsuba_16(fixed(state), fixed_ref(&self.circulant)),
            24 => mds_circulant_karatsuba_24(fixed(state), fixed_ref(&self.circulant)),
            _ => mds_multiply(state, &self.full.dense_mds),
        }
    }

    fn initial_constants(&self) -> &[[Val; W]] {
        &self.full.initial
    }

    fn terminal_constants(&self) -> &[[Val; W]] {
        &self.full.terminal
    }

    fn partial_rounds(&self) -> usize {
        self.partial.sparse_first_row.len()
    }

    fn enter_partial<A: Algebra<Val>>(&self, state: &mut [A; W]) {
        for (s, &c) in state.iter_mut().zip(&self.partial.first_round_constants) {
            *s += c;
        }
        mds_multiply(state, &self.partial.m_i);
    }

    fn partial_constant(&self, _: usize) -> Option<Val> {
        None
    }

    /// The decomposition leaves the last round no scalar constant (it
    /// absorbs it backwards), so `round_constants` is one shorter.
    fn after_partial<A: Algebra<Val>>(&self, round: usize, state: &mut [A; W]) {
        if round + 1 < self.partial_rounds() {
            state[0] += self.partial.round_constants[round];
        }
        cheap_matmul(state, &self.partial.sparse_first_row[round], &self.partial.v[round]);
    }
}
