//! The two permutations of Lamport+ as AIR components.
//!
//! `sigagg-lamport` hashes with Plonky3's *default* KoalaBear Poseidon2
//! (`default_koalabear_poseidon2_16/24`); the circuit must prove exactly those
//! permutations, so the round constants here are the same published
//! constants (`KOALABEAR_POSEIDON2_RC_*`, from `sigagg_koalabear::poseidon2`),
//! fed to `sigagg_prover::paired`'s
//! `Poseidon2Block`. It commits every full round's state in Plonky3's
//! layout (degree-3 S-box, no extra registers: every constraint has degree
//! 3) or, at rate 1/8 or lower, only every second one ([`Rounds::Paired`]:
//! degree-9 constraints, 40% fewer columns, the same quotient domain). Unit
//! tests check the witness writer against the native permutations.

use p3_air::AirBuilder;
use p3_poseidon2::GenericPoseidon2LinearLayers;
use p3_uni_stark::SubAirBuilder;
use sigagg_prover::paired::Poseidon2Block;

use p3_koala_bear::GenericPoseidon2LinearLayersKoalaBear as Linear;
use p3_poseidon2_air::RoundConstants;

use p3_field::PrimeCharacteristicRing;
use sigagg_lamport::field::DIGEST_LEN;
use sigagg_lamport::group::NODE_INDEX_LANE;
use sigagg_lamport::hash::{SPONGE_RATE, TAG_GROUP_NODE, TAG_SUBKEY, WIDE_TAG_LANE};

use crate::config::{Settings, Val};

// The round counts are those of every KoalaBear Poseidon2 of widths 16 and
// 24 (8 full rounds; 20 and 23 partial): the same as Seed001's, whose round
// *constants* differ.
use sigagg_koalabear::poseidon2::{HALF_FULL, PARTIAL_16, PARTIAL_24};

/// Which states of each permutation the tables commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounds {
    /// Every round (Plonky3's layout): degree-3 constraints, any rate.
    Every,
    /// Every second full round: degree-9 constraints, which need a blowup
    /// of at least 8 (the quotient then still fits the extension domain).
    Paired,
}

impl Rounds {
    /// The layout a setting uses: `Settings::stride`, paired wherever the
    /// blowup allows it.
    pub const fn for_settings(settings: &Settings) -> Self {
        Self::from_stride(settings.stride())
    }

    const fn from_stride(stride: usize) -> Self {
        match stride {
            1 => Rounds::Every,
            _ => Rounds::Paired,
        }
    }

    /// Every how many full rounds a state is committed.
    pub const fn stride(self) -> usize {
        match self {
            Rounds::Every => 1,
            Rounds::Paired => 2,
        }
    }

    /// The largest constraint degree of the tables.
    pub const fn max_degree(self) -> usize {
        match self {
            Rounds::Every => 3,
            Rounds::Paired => 9,
        }
    }

    /// Quotient chunks of a table with these permutations.
    pub const fn quotient_chunks(self) -> usize {
        match self {
            Rounds::Every => 2,
            Rounds::Paired => 8,
        }
    }

    /// Committed columns of a width-`w` permutation with `p` partial rounds,
    /// every output lane committed (the tests' reference for the tables'
    /// narrower blocks).
    #[cfg(test)]
    const fn cols(self, w: usize, p: usize) -> usize {
        w + sigagg_prover::paired::round_cols(self.stride(), w, p)
    }
}

/// Which output lanes the tables' permutations commit. A table reads an
/// output lane either in a constraint (a sponge's capacity against the
/// next row's input, a tree level's digest against the next level's
/// running node or the root) or in a bus message (a sub-key digest, a
/// public key). An uncommitted lane is read as its expression in the last
/// committed state (`Perm::eval`, degree [`Rounds::max_degree`]), which
/// states the same equation with 8 columns fewer per permutation and
/// lane group (see `crate::air::hash::HashAir::with_outputs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outputs {
    /// Every lane a table reads has a column: constraints of the
    /// permutations' degree (the FRI backend's quotient allows no more).
    Committed,
    /// Only the lanes that messages read have columns; constraints read
    /// expressions, one degree higher where a flag gates them. For
    /// `p3-multi-stark`, which evaluates message fields row by row from
    /// their symbolic trees: a degree-9 field there costs more time than
    /// its columns.
    ForMessages,
    /// Only the public key's lanes have columns: the sub-key message reads
    /// the width-16 digest's expression too. For `p3-multi-stark` where
    /// that halves the stacked commitment; the width-24 digest's
    /// expression, twice the width-16 one's as a tree, stays out of its
    /// messages.
    ForKeys,
    /// No output lane has a column; messages carry degree-9 fields. For
    /// our own prover, which compiles each message once.
    None,
}

impl Outputs {
    /// Whether lanes that only constraints read have columns.
    pub const fn for_constraints(self) -> bool {
        matches!(self, Outputs::Committed)
    }

    /// Whether the sub-key digest (the width-16 output) has columns.
    pub const fn for_sub_keys(self) -> bool {
        matches!(self, Outputs::Committed | Outputs::ForMessages)
    }

    /// Whether the public key (the sponge's digest) has columns.
    pub const fn for_keys(self) -> bool {
        !matches!(self, Outputs::None)
    }
}

/// One permutation as an AIR component in either layout (a
/// `Poseidon2Block` with the rounds right after the inputs): its
/// constraints on a column range of a wider row, and its packed witness
/// writer.
#[derive(Clone, Debug)]
pub struct Perm<const W: usize, const P: usize> {
    block: Poseidon2Block<W, P>,
}

/// The width-16 permutation (sub-key hash).
pub type Perm16 = Perm<16, PARTIAL_16>;
/// The width-24 permutation (public-key sponge, group tree).
pub type Perm24 = Perm<24, PARTIAL_24>;

impl<const W: usize, const P: usize> Perm<W, P>
where
    Linear: GenericPoseidon2LinearLayers<W>,
{
    fn new(
        rounds: Rounds,
        constants: &'static RoundConstants<Val, W, HALF_FULL, P>,
        outputs: impl IntoIterator<Item = usize>,
        tail: &[Val],
    ) -> Self {
        let block = Poseidon2Block::new(constants.clone(), rounds.stride(), 0, W - tail.len());
        Self { block: block.with_outputs(outputs).with_constant_tail(tail) }
    }

    /// Input lanes with a column; the rest are the constant tail.
    pub fn input_cols(&self) -> usize {
        self.block.input_cols()
    }

    /// An input for rows that hash nothing in particular: zeros, ending
    /// with the constant tail.
    pub fn idle_input(&self) -> [Val; W] {
        let mut x = [Val::ZERO; W];
        x[self.input_cols()..].copy_from_slice(self.block.tail());
        x
    }

    /// The layout.
    pub fn rounds(&self) -> Rounds {
        Rounds::from_stride(self.block.stride())
    }

    /// Committed columns.
    pub fn cols(&self) -> usize {
        self.input_cols() + self.block.round_cols()
    }

    /// Column (relative to `base`) of output lane `j`.
    ///
    /// # Panics
    /// If the permutation does not commit lane `j` ([`perm16`], [`perm24`]).
    pub fn output(&self, j: usize) -> usize {
        self.block.output(j)
    }

    /// Asserts the permutation on columns `base..base + cols()` and returns
    /// every output lane: its column where committed, else its expression
    /// of degree [`Rounds::max_degree`] (`Poseidon2Block::eval_output`).
    pub fn eval<AB: AirBuilder<F = Val>>(&self, builder: &mut AB, base: usize) -> [AB::Expr; W] {
        let range = base..base + self.cols();
        self.block.eval_output(&mut SubAirBuilder::<AB, Poseidon2Block<W, P>, AB::Var>::new(builder, range))
    }

    /// Writes one permutation per row (from each row's first column), at
    /// most `PackedF::WIDTH` of them, and returns their outputs.
    pub fn write(&self, rows: &mut [&mut [Val]], inputs: &[[Val; W]]) -> Vec<[Val; W]> {
        self.block.write(rows, inputs)
    }
}

/// The width-16 permutation in layout `rounds`. It commits only the
/// output lanes the sub-key hash reads, `Trunc_8(Perm16(x) + x)`
/// (`sigagg_prover::paired::Poseidon2Block::with_outputs`), and its inputs
/// end with the sub-key hash's constant lanes `[TAG_SUBKEY | 0]`, which
/// get no columns (`with_constant_tail`). Only the sub-key message reads
/// the digest ([`Outputs::for_sub_keys`]).
pub fn perm16(rounds: Rounds, outputs: Outputs) -> Perm16 {
    let lanes = if outputs.for_sub_keys() { 0..DIGEST_LEN } else { 0..0 };
    Perm::new(rounds, constants16(), lanes, &[Val::from_u32(TAG_SUBKEY), Val::ZERO])
}

/// The width-24 permutation in layout `rounds`. It commits only the output
/// lanes a table reads: the digest (a tree node's `Trunc_8(Perm24(x) + x)`,
/// the sponge's squeezed key) and, for a `sponge`, the capacity the next
/// block continues from. The rate lanes 8..16 of an overwrite sponge are
/// never read.
///
/// Without a `sponge` (the node table, `crate::air::node`) every
/// input ends with the node's constant lanes `[0 0 0 0 | TAG_GROUP_NODE | 0]`
/// (lanes 18..24 of `node_input`), which get no columns.
///
/// The sponge's digest is the public key a message carries; its capacity,
/// and a tree node's digest, only constraints read ([`Outputs`]).
pub fn perm24(rounds: Rounds, sponge: bool, outputs: Outputs) -> Perm24 {
    let digest = (sponge && outputs.for_keys()) || outputs.for_constraints();
    let capacity = sponge && outputs.for_constraints();
    let lanes = (0..DIGEST_LEN).filter(|_| digest).chain((SPONGE_RATE..24).filter(|_| capacity));
    Perm::new(rounds, constants24(), lanes, if sponge { &[] } else { &NODE_TAIL })
}

/// First lane of a tree node input's constant part (after the index lane).
pub const NODE_TAIL_START: usize = NODE_INDEX_LANE + 1;

/// Lanes `NODE_TAIL_START..24` of every `node_input`: zeros, with
/// `TAG_GROUP_NODE` in the tag lane.
pub const NODE_TAIL: [Val; 24 - NODE_TAIL_START] = {
    let mut tail = [Val::ZERO; 24 - NODE_TAIL_START];
    tail[WIDE_TAG_LANE - NODE_TAIL_START] = Val::new(TAG_GROUP_NODE);
    tail
};

// Round constants of the default width-16 and width-24 permutations
// (Plonky3's published `KOALABEAR_POSEIDON2_RC_*`).
use sigagg_koalabear::poseidon2::{default_constants16 as constants16, default_constants24 as constants24};

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::PackedValue;
    use p3_field::PrimeCharacteristicRing;
    use p3_symmetric::Permutation;
    use sigagg_koalabear::PackedF;
    use sigagg_koalabear::poseidon2::{default16, default24};
    use sigagg_prover::poseidon::{COLS16, COLS24};

    /// Both layouts write the native permutations' outputs where `output`
    /// says, and `Rounds::cols` agrees with Plonky3's column count.
    #[test]
    fn both_layouts_write_the_native_permutations() {
        assert_eq!(Rounds::Every.cols(16, PARTIAL_16), COLS16);
        assert_eq!(Rounds::Every.cols(24, PARTIAL_24), COLS24);
        let lanes = PackedF::WIDTH;
        for (rounds, sponge) in [(Rounds::Every, true), (Rounds::Paired, true), (Rounds::Paired, false)] {
            let p = super::perm24(rounds, sponge, Outputs::Committed);
            // Unread output lanes (8 beside a sponge, 16 for tree nodes) and
            // the tree node's 6 constant input lanes have no columns.
            assert_eq!(p.cols(), rounds.cols(24, PARTIAL_24) - if sponge { 8 } else { 16 + 6 });
            let idle = p.idle_input();
            let inputs: Vec<[Val; 24]> = (0..lanes)
                .map(|l| {
                    core::array::from_fn(|i| {
                        if i < p.input_cols() { Val::from_u32((l * 5 + i * 11) as u32) } else { idle[i] }
                    })
                })
                .collect();
            let mut buf = vec![Val::ZERO; lanes * p.cols()];
            let mut rows: Vec<&mut [Val]> = buf.chunks_mut(p.cols()).collect();
            let out = p.write(&mut rows, &inputs);
            for (l, o) in out.iter().enumerate() {
                assert_eq!(*o, default24().permute(inputs[l]));
                assert_eq!(buf[l * p.cols() + p.output(7)], o[7], "{rounds:?}");
                if sponge {
                    assert_eq!(buf[l * p.cols() + p.output(16)], o[16], "{rounds:?}");
                }
            }
        }
        let p = super::perm16(Rounds::Every, Outputs::Committed);
        assert_eq!(p.cols(), COLS16 - 8 - 2);
        assert_eq!(p.idle_input()[14..], [Val::from_u32(TAG_SUBKEY), Val::ZERO]);
        let idle = p.idle_input();
        let inputs: Vec<[Val; 16]> = (0..lanes)
            .map(|l| core::array::from_fn(|i| if i < 14 { Val::from_u32((l + i) as u32) } else { idle[i] }))
            .collect();
        let mut buf = vec![Val::ZERO; lanes * p.cols()];
        let out = p.write(&mut buf.chunks_mut(p.cols()).collect::<Vec<_>>(), &inputs);
        for (l, o) in out.iter().enumerate() {
            assert_eq!(*o, default16().permute(inputs[l]));
            assert_eq!(buf[l * p.cols() + p.output(7)], o[7]);
        }
        assert!(Rounds::Paired.cols(16, PARTIAL_16) < COLS16);
    }

    /// The tree node's constant lanes are those `node_input` writes.
    #[test]
    fn node_tail_matches_node_input() {
        let (left, right) = ([Val::ONE; DIGEST_LEN], [Val::TWO; DIGEST_LEN]);
        let input = sigagg_lamport::group::node_input(4, 9, &left, &right);
        assert_eq!(input[NODE_TAIL_START..], NODE_TAIL);
        assert_eq!(NODE_TAIL[WIDE_TAG_LANE - NODE_TAIL_START], Val::from_u32(TAG_GROUP_NODE));
    }
}
