//! The lookup buses that join the tables, and the one definition of every
//! message sent on them.
//!
//! All messages share the bus [`MAIN`] (so that mutually exclusive row roles
//! can share one auxiliary column); a leading tag keeps kinds apart and every
//! message is zero-padded to [`WIDTH`] elements. Senders use negative counts,
//! receivers positive ones.

use p3_field::PrimeCharacteristicRing;

use crate::layout::{DIGEST, MSG, MSG_HASH, PARAM};

/// Name of the main bus.
pub const MAIN: &str = "xmss-agg";
/// Name of the 16-bit range-check bus.
pub const RANGE: &str = "range16";
/// Width of every message on the main bus.
pub const WIDTH: usize = 18;

/// Message kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Tag {
    /// Digit table -> chain table: start chain `i` at position `pos`.
    ChainStart = 1,
    /// Chain table or statement -> leaf sponge: virtual end `v` of the stream.
    End = 2,
    /// Statement -> message-hash row: parameter, tweak and encoded message.
    Statement = 3,
    /// Message-hash row -> digit table: the message-hash output.
    MessageHash = 4,
    /// Statement -> digit table: parameter and epoch split.
    Context = 5,
    /// Statement -> tree row: level tweak, direction bit, parameter.
    Level = 6,
    /// Statement -> top tree row: the public key's root.
    Root = 7,
}

/// A message: tag, signature slot, then the payload, zero-padded.
fn message<E: PrimeCharacteristicRing + Clone>(tag: Tag, sig: E, payload: impl IntoIterator<Item = E>) -> Vec<E> {
    let mut m = Vec::with_capacity(WIDTH);
    m.push(E::from_u32(tag as u32));
    m.push(sig);
    m.extend(payload);
    assert!(m.len() <= WIDTH, "message of {} elements exceeds the bus width", m.len());
    m.resize(WIDTH, E::ZERO);
    m
}

/// `ChainStart`: chain `i` of slot `sig` starts at position `pos`, with the
/// hash parameter, the chain's tweak base `k0` and the three candidate
/// second tweak digits `t1` (per position).
pub fn chain_start<E: PrimeCharacteristicRing + Clone>(sig: E, i: E, pos: E, param: [E; PARAM], k0: E, t1: [E; 3]) -> Vec<E> {
    message(Tag::ChainStart, sig, [i, pos].into_iter().chain(param).chain([k0]).chain(t1))
}

/// `End`: virtual end `v` of slot `sig`'s sponge stream has value `value`.
pub fn end<E: PrimeCharacteristicRing + Clone>(sig: E, v: E, value: [E; DIGEST]) -> Vec<E> {
    message(Tag::End, sig, core::iter::once(v).chain(value))
}

/// `Statement`: the public inputs of slot `sig`'s message hash.
pub fn statement<E: PrimeCharacteristicRing + Clone>(sig: E, param: [E; PARAM], mtweak: [E; 2], msg: [E; MSG]) -> Vec<E> {
    message(Tag::Statement, sig, param.into_iter().chain(mtweak).chain(msg))
}

/// `MessageHash`: the five output elements of slot `sig`'s message hash.
pub fn message_hash<E: PrimeCharacteristicRing + Clone>(sig: E, fe: [E; MSG_HASH]) -> Vec<E> {
    message(Tag::MessageHash, sig, fe)
}

/// `Context`: parameter, `a`, `b` and the three borrow bits of slot `sig`.
pub fn context<E: PrimeCharacteristicRing + Clone>(sig: E, param: [E; PARAM], a: E, b: E, beta: [E; 3]) -> Vec<E> {
    message(Tag::Context, sig, param.into_iter().chain([a, b]).chain(beta))
}

/// `Level`: tree level `l` of slot `sig` uses tweak `(t0, t1)`, direction
/// `bit` (1 when the running node is the right child) and the parameter.
pub fn level<E: PrimeCharacteristicRing + Clone>(sig: E, l: E, t0: E, t1: E, bit: E, param: [E; PARAM]) -> Vec<E> {
    message(Tag::Level, sig, [l, t0, t1, bit].into_iter().chain(param))
}

/// `Root`: slot `sig`'s public key root.
pub fn root<E: PrimeCharacteristicRing + Clone>(sig: E, root: [E; DIGEST]) -> Vec<E> {
    message(Tag::Root, sig, root)
}
