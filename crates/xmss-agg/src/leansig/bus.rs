//! The messages the leanSig family's tables exchange. They travel on the
//! same bus as Seed001's ([`crate::bus::MAIN`], same keys and width: a
//! proof holds the tables of one family only), with this family's sizes.
//!
//! | message | sender | receiver | payload |
//! |---|---|---|---|
//! | [`statement_a`] | statement | message-hash row | parameter, message tweak |
//! | [`statement_b`] | statement | message-hash row | encoded message |
//! | [`message_hash`] | message-hash row | digit IO row | the `outputs` hash outputs |
//! | [`context`] | statement | digit IO row | parameter and the chain-tweak parts `cb`, `a`, `ts` |
//! | [`chain_start`] | digit row | chain table, a chain's first step | position reached, parameter, `k0`, `a`, `s` |
//! | [`end`] | statement (end 0), chain table (last step) | sponge window slot | a virtual end |
//! | [`level`] | statement | tree row | level tweak, direction bit, parameter |
//! | [`root`] | statement | top tree row | the key's root |
//!
//! # Chain tweaks for any 32-bit epoch
//!
//! The tweak of the step reaching `pos` on chain `i` is the base-p digits
//! `(t0, t1)` of `epoch 2^24 + c`, `c = i 2^16 + pos 2^8`
//! ([`crate::scheme::wide_chain_tweak_split`]): with `epoch = 127 a + b`,
//! `t0 = b 2^24 + c - a` and `t1 = a - beta`, `beta = [c < t]`,
//! `t = a - b 2^24`. The statement sends per slot `cb = b 2^24 - a`, `a`
//! and `ts = -t*` with `t* = clamp(t, 0, 2^24)` (for `c < 2^24`,
//! `c < t` iff `c < t*`); the digit table adds the chain's `i 2^16` to get
//! `k0 = cb + i 2^16` and `s = ts + i 2^16`, and the chain table proves,
//! per step, `t0 = k0 + 256 pos`, `t1 = a - beta`, `beta` a bit, and
//! `w = (1 - 2 beta)(s + 256 pos) - beta < 2^24` (two 16-bit lookups):
//! the right `beta` makes `w` = `c - t*` or `t* - 1 - c`, both in
//! `[0, 2^24)`; the wrong one makes it negative, `>= p - 2^24 - 1`.

use p3_field::PrimeCharacteristicRing;

use super::layout::{DIGEST, MSG, PARAM};
use crate::bus::{Tag, message};

/// `StatementA`: parameter and message tweak of slot `sig`'s message hash.
pub fn statement_a<E: PrimeCharacteristicRing + Clone>(sig: E, param: [E; PARAM], mtweak: [E; 2]) -> Vec<E> {
    message(Tag::StatementA, sig, E::ZERO, param.into_iter().chain(mtweak))
}

/// `StatementB`: the encoded message of slot `sig`.
pub fn statement_b<E: PrimeCharacteristicRing + Clone>(sig: E, msg: [E; MSG]) -> Vec<E> {
    message(Tag::StatementB, sig, E::ZERO, msg)
}

/// `MessageHash`: the first `outputs` elements of slot `sig`'s message
/// hash (`(perm(in) + in)[..outputs]`), in order.
pub fn message_hash<E: PrimeCharacteristicRing + Clone>(sig: E, outputs: impl IntoIterator<Item = E>) -> Vec<E> {
    message(Tag::MessageHash, sig, E::ZERO, outputs)
}

/// `Context`: slot `sig`'s parameter and chain-tweak parts `cb = b 2^24 -
/// a`, `a`, `ts = -t*` (module docs).
pub fn context<E: PrimeCharacteristicRing + Clone>(sig: E, param: [E; PARAM], cb: E, a: E, ts: E) -> Vec<E> {
    message(Tag::Context, sig, E::ZERO, param.into_iter().chain([cb, a, ts]))
}

/// `ChainStart`: chain `i` of slot `sig` starts with the step reaching
/// `pos` (the codeword digit plus one), with the parameter and the
/// chain's tweak parts `k0 = cb + i 2^16`, `a`, `s = ts + i 2^16`.
pub fn chain_start<E: PrimeCharacteristicRing + Clone>(
    sig: E,
    i: E,
    pos: E,
    param: [E; PARAM],
    k0: E,
    a: E,
    s: E,
) -> Vec<E> {
    message(Tag::ChainStart, sig, i, core::iter::once(pos).chain(param).chain([k0, a, s]))
}

/// `End`: virtual end `v` of slot `sig`'s sponge stream
/// ([`super::layout::Shape::window`]).
pub fn end<E: PrimeCharacteristicRing + Clone>(sig: E, v: E, value: [E; DIGEST]) -> Vec<E> {
    message(Tag::End, sig, v, value)
}

/// `Level`: tree level `l` (1-based) of slot `sig` uses tweak `(t0, t1)`,
/// direction `bit` (1 when the running node is the right child) and the
/// parameter.
pub fn level<E: PrimeCharacteristicRing + Clone>(sig: E, l: E, t0: E, t1: E, bit: E, param: [E; PARAM]) -> Vec<E> {
    message(Tag::Level, sig, l, [t0, t1, bit].into_iter().chain(param))
}

/// `Root`: slot `sig`'s public key root.
pub fn root<E: PrimeCharacteristicRing + Clone>(sig: E, root: [E; DIGEST]) -> Vec<E> {
    message(Tag::Root, sig, E::ZERO, root)
}
