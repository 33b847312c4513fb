//! The lookup buses that join the tables, and the one definition of every
//! message sent on them.
//!
//! All messages share the bus [`MAIN`] (so that mutually exclusive row roles
//! can share one auxiliary column). A message starts with one *key* element
//! `tag + 16 (128 slot + index)` that names its kind, its signature slot and
//! an index within the slot (chain, virtual end or tree level), then its
//! payload, zero-padded to [`WIDTH`] elements. Folding the three identifiers
//! into one element keeps messages short: the LogUp fingerprint of every
//! message is computed on every row, so its width is prover time.
//! Senders use negative counts, receivers positive ones.

use p3_field::PrimeCharacteristicRing;

use crate::layout::{DIGEST, MSG, MSG_HASH, PARAM};

/// Name of the main bus.
pub const MAIN: &str = "xmss-agg";
/// Name of the 16-bit range-check bus.
pub const RANGE: &str = "range16";
/// Width of every message on the main bus.
pub const WIDTH: usize = 11;
/// Indices within a slot are below this (78 chains, 80 virtual ends, 20 levels).
pub const INDEX_BOUND: u32 = 128;
/// Kinds are below this.
const TAG_BOUND: u32 = 16;

/// Message kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Tag {
    /// Digit table -> chain table: start chain `i` at position `pos`.
    ChainStart = 0,
    /// Chain table or statement -> leaf sponge: virtual end `v` of the stream.
    End = 1,
    /// Statement -> message-hash row: parameter and tweak.
    StatementA = 2,
    /// Statement -> message-hash row: the encoded message.
    StatementB = 3,
    /// Message-hash row -> digit table: the message-hash output.
    MessageHash = 4,
    /// Statement -> digit table: parameter and epoch split.
    Context = 5,
    /// Statement -> tree row: level tweak, direction bit, parameter.
    Level = 6,
    /// Statement -> top tree row: the public key's root.
    Root = 7,
    /// Threshold statement -> membership leaf row: the member's key root.
    MemberA = 8,
    /// Threshold statement -> membership leaf row: parameter and member index.
    MemberB = 9,
}

/// The key of a message: `tag + 16 (128 sig + index)`, below 2^27 < p.
///
/// Injective as a function of honest values (slots below 2^16, indices
/// below 128), but the circuit does not range-check every index column: a
/// chain row of slot `s` may carry `index = 128 (s' - s) + i'` and so use
/// slot `s'`'s key. That moves nothing the proof claims: the payload of
/// each message (parameter, tweaks, positions) comes from the slot the key
/// names, so such a row computes slot `s'`'s chain correctly, only in
/// another block; and the chain rows are exactly filled by the chains the
/// digit table starts, so no extra chain can pair other messages.
pub fn key<E: PrimeCharacteristicRing>(tag: Tag, sig: E, index: E) -> E {
    E::from_u32(tag as u32) + (sig * E::from_u32(INDEX_BOUND) + index) * E::from_u32(TAG_BOUND)
}

/// A message: key, then the payload, zero-padded to [`WIDTH`].
pub(crate) fn message<E: PrimeCharacteristicRing + Clone>(
    tag: Tag,
    sig: E,
    index: E,
    payload: impl IntoIterator<Item = E>,
) -> Vec<E> {
    sigagg_prover::bus::message(WIDTH, [key(tag, sig, index)], payload)
}

/// `ChainStart`: chain `i` of slot `sig` starts at position `pos`, with the
/// hash parameter, the chain's tweak base `k0` and the three candidate
/// second tweak digits `t1` (per position).
pub fn chain_start<E: PrimeCharacteristicRing + Clone>(
    sig: E,
    i: E,
    pos: E,
    param: [E; PARAM],
    k0: E,
    t1: [E; 3],
) -> Vec<E> {
    message(Tag::ChainStart, sig, i, core::iter::once(pos).chain(param).chain([k0]).chain(t1))
}

/// `End`: virtual end `v` of slot `sig`'s sponge stream has value `value`.
pub fn end<E: PrimeCharacteristicRing + Clone>(sig: E, v: E, value: [E; DIGEST]) -> Vec<E> {
    message(Tag::End, sig, v, value)
}

/// `StatementA`: parameter and message tweak of slot `sig`'s message hash.
pub fn statement_a<E: PrimeCharacteristicRing + Clone>(sig: E, param: [E; PARAM], mtweak: [E; 2]) -> Vec<E> {
    message(Tag::StatementA, sig, E::ZERO, param.into_iter().chain(mtweak))
}

/// `StatementB`: the encoded message of slot `sig`.
pub fn statement_b<E: PrimeCharacteristicRing + Clone>(sig: E, msg: [E; MSG]) -> Vec<E> {
    message(Tag::StatementB, sig, E::ZERO, msg)
}

/// `MessageHash`: the five output elements of slot `sig`'s message hash.
pub fn message_hash<E: PrimeCharacteristicRing + Clone>(sig: E, fe: [E; MSG_HASH]) -> Vec<E> {
    message(Tag::MessageHash, sig, E::ZERO, fe)
}

/// `Context`: parameter, `a`, `b` and the three borrow bits of slot `sig`.
pub fn context<E: PrimeCharacteristicRing + Clone>(sig: E, param: [E; PARAM], a: E, b: E, beta: [E; 3]) -> Vec<E> {
    message(Tag::Context, sig, E::ZERO, param.into_iter().chain([a, b]).chain(beta))
}

/// `Level`: tree level `l` of slot `sig` uses tweak `(t0, t1)`, direction
/// `bit` (1 when the running node is the right child) and the parameter.
pub fn level<E: PrimeCharacteristicRing + Clone>(sig: E, l: E, t0: E, t1: E, bit: E, param: [E; PARAM]) -> Vec<E> {
    message(Tag::Level, sig, l, [t0, t1, bit].into_iter().chain(param))
}

/// `Root`: slot `sig`'s public key root.
pub fn root<E: PrimeCharacteristicRing + Clone>(sig: E, root: [E; DIGEST]) -> Vec<E> {
    message(Tag::Root, sig, E::ZERO, root)
}

/// `MemberA`: slot `sig`'s signer key root (threshold proofs; 7 elements
/// for Seed001, 8 for the leanSig sets).
pub fn member_a<E: PrimeCharacteristicRing + Clone>(sig: E, root: impl IntoIterator<Item = E>) -> Vec<E> {
    message(Tag::MemberA, sig, E::ZERO, root)
}

/// `MemberB`: slot `sig`'s signer parameter and group index (threshold proofs).
pub fn member_b<E: PrimeCharacteristicRing + Clone>(sig: E, param: [E; PARAM], index: E) -> Vec<E> {
    message(Tag::MemberB, sig, E::ZERO, param.into_iter().chain([index]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Val;
    use std::collections::HashSet;

    #[test]
    fn keys_are_injective_on_their_domain() {
        let tags = [
            Tag::ChainStart,
            Tag::End,
            Tag::StatementA,
            Tag::StatementB,
            Tag::MessageHash,
            Tag::Context,
            Tag::Level,
            Tag::Root,
            Tag::MemberA,
            Tag::MemberB,
        ];
        let mut seen = HashSet::new();
        for tag in tags {
            for sig in [0u32, 1, 2, 65_535] {
                for index in [0u32, 1, 77, 79, 127] {
                    assert!(seen.insert(key(tag, Val::from_u32(sig), Val::from_u32(index))));
                }
            }
        }
        let max = 15 + 16 * (65_535 * 128 + 127);
        assert!(u64::from(max as u32) < u64::from(sigagg_koalabear::field::P));
    }
}
