//! The one lookup bus that joins the tables, and every message sent on it.
//!
//! All messages share the bus [`MAIN`] (so mutually exclusive row roles can
//! share an auxiliary column); a leading [`Tag`] keeps the kinds apart and
//! every message is zero-padded to [`WIDTH`] elements. Senders use positive
//! counts, receivers negative ones; LogUp proves that the two multisets agree.

use p3_field::PrimeCharacteristicRing;
use sigagg_lamport::field::DIGEST_LEN;
use sigagg_lamport::prf::RANDOMIZER_LEN;

/// Name of the bus.
pub const MAIN: &str = "lamport-agg";
/// Width of every message: the widest one, [`sub_key`].
pub const WIDTH: usize = 1 + RANDOMIZER_LEN + 1 + DIGEST_LEN;

/// Message kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Tag {
    /// A width-16 row -> a sponge row: `y = G_r(x, i)` for some `x`.
    SubKey = 1,
    /// A sponge's last row -> the slot table (aggregate, and a threshold
    /// with a node table) or the tree's leaf row (a threshold whose tree
    /// levels sit in the main table's blocks): slot `s`'s recovered public
    /// key.
    Key = 2,
    /// A tree's leaf row in the main table's block -> the slot table: slot
    /// `s`'s leaf index.
    Index = 3,
    /// A sponge's chunk-end row -> the slot table (aggregate): the value of
    /// slot `s`'s codeword chunk ending at sponge row `j`.
    Code = 4,
    /// A node of the group tree -> its parent's row in the node table
    /// (threshold, [`crate::air::node`]): node `(level, index)` has digest
    /// `d`. Level 0 is a leaf, sent by a counted slot with its key.
    Node = 5,
}

/// A message: its tag, then the payload, zero-padded to [`WIDTH`].
fn message<E: PrimeCharacteristicRing + Clone>(tag: Tag, payload: impl IntoIterator<Item = E>) -> Vec<E> {
    sigagg_prover::bus::message(WIDTH, [E::from_u32(tag as u32)], payload)
}

/// `SubKey`: `y` is the sub-public-key at index `i` under randomizer `r`,
/// i.e. `y = Trunc_8(Perm16(x) + x)` for `x = [sub-key | r | i | TAG_SUBKEY | 0]`.
///
/// The claim is self-contained (it names the randomizer and the index), so a
/// width-16 row anywhere in the batch may serve any sponge row.
pub fn sub_key<E: PrimeCharacteristicRing + Clone>(r: [E; RANDOMIZER_LEN], i: E, y: [E; DIGEST_LEN]) -> Vec<E> {
    message(Tag::SubKey, r.into_iter().chain(core::iter::once(i)).chain(y))
}

/// `Key`: slot `slot`'s public key is `key`.
pub fn key<E: PrimeCharacteristicRing + Clone>(slot: E, key: [E; DIGEST_LEN]) -> Vec<E> {
    message(Tag::Key, core::iter::once(slot).chain(key))
}

/// `Index`: slot `slot`'s key sits at leaf `index` of the group tree.
pub fn index<E: PrimeCharacteristicRing + Clone>(slot: E, index: E) -> Vec<E> {
    message(Tag::Index, [slot, index])
}

/// `Node`: node `index` of tree level `level` (0: the leaves) has
/// digest `digest`.
pub fn node<E: PrimeCharacteristicRing + Clone>(level: E, index: E, digest: [E; DIGEST_LEN]) -> Vec<E> {
    message(Tag::Node, [level, index].into_iter().chain(digest))
}

/// `Code`: the codeword chunk of slot `slot` ending at sponge row `j2 / 2`
/// has value `value` (see [`crate::air::hash::codeword_chunks`]).
pub fn code<E: PrimeCharacteristicRing + Clone>(slot: E, j2: E, value: E) -> Vec<E> {
    message(Tag::Code, [slot, j2, value])
}
