//! The public statement: which keys signed which messages at which epochs,
//! and the per-signature public values the verifier derives from it.
//!
//! Everything the circuit needs that depends only on the statement (tweaks,
//! the encoded message, tree-path directions) is computed here natively by
//! both prover and verifier and enters the proof as periodic columns, so it
//! costs the verifier a few field operations per signature and the proof
//! nothing.

use p3_field::{PrimeCharacteristicRing, PrimeField32};
use serde::{Deserialize, Serialize};
use sha3::{Digest, Sha3_256};
use sigagg_koalabear::field::{FeArray, bytes_to_base_p};
use sigagg_xmss::tweak::{message_tweak, tree_tweak};
use sigagg_xmss::{ParameterSet, PublicKey, Seed001};

use crate::scheme::AggScheme;

use crate::config::{Settings, Val};
use crate::error::StatementError;

/// Depth of the Seed001 Merkle tree.
pub const TREE_DEPTH: usize = Seed001::LOG_LIFETIME as usize;
/// Largest number of signatures one proof may aggregate: the chain table
/// (128 rows per signature) extended by the blowup must fit KoalaBear's
/// two-adic subgroup of order 2^24; settings with a larger blowup allow
/// fewer (see [`max_signatures`]).
pub const MAX_SIGNATURES: usize = 1 << 16;

/// The most signatures one proof can hold with `settings`: the tallest
/// table (128 rows per signature) must fit the tallest table the settings
/// allow ([`Settings::max_log_height`]), and no more than
/// [`MAX_SIGNATURES`].
pub const fn max_signatures(settings: &Settings) -> usize {
    let n = 1usize << settings.max_log_height().saturating_sub(7);
    if n < MAX_SIGNATURES { n } else { MAX_SIGNATURES }
}
/// Smallest padded statement: tiny traces are padded up to this many
/// signatures. The signature table has one row per slot, and FRI needs
/// every table taller than the final polynomial
/// ([`crate::Settings::fitted`] shortens it to fit).
pub const MIN_PADDED: usize = 16;

/// One statement entry: a public key, an epoch and a 32-byte message,
/// for the parameter set `S` (Seed001 unless named).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AggregateEntry<S: AggScheme = Seed001> {
    /// The signer's public key.
    pub public_key: PublicKey<S>,
    /// The epoch the signature was made at.
    pub epoch: u32,
    /// The signed message (a 32-byte signing root).
    pub message: [u8; 32],
}

/// A validated, non-empty list of entries of one parameter set (Seed001
/// unless named).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AggregateStatement<S: AggScheme = Seed001> {
    entries: Vec<AggregateEntry<S>>,
}

impl AggregateStatement<Seed001> {
    /// A Seed001 statement ([`Self::from_entries`]); the set is Seed001 so
    /// that `AggregateStatement::new(vec![])` still names a type (as
    /// `HashMap::new` names its hasher).
    pub fn new(entries: Vec<AggregateEntry<Seed001>>) -> Result<Self, StatementError> {
        Self::from_entries(entries)
    }
}

/// The signature slots of a statement of `count` entries: the next power
/// of two, at least [`MIN_PADDED`].
pub fn padded_len(count: usize) -> usize {
    count.next_power_of_two().max(MIN_PADDED)
}

impl<S: AggScheme> AggregateStatement<S> {
    /// Checks the entries: at least one, at most [`MAX_SIGNATURES`], every
    /// epoch inside the set's lifetime (below `2^32` for LeanSigProd: every
    /// `u32`).
    pub fn from_entries(entries: Vec<AggregateEntry<S>>) -> Result<Self, StatementError> {
        if entries.is_empty() {
            return Err(StatementError::Empty);
        }
        if entries.len() > MAX_SIGNATURES {
            return Err(StatementError::TooMany { count: entries.len(), max: MAX_SIGNATURES });
        }
        if let Some((index, e)) = entries.iter().enumerate().find(|(_, e)| u64::from(e.epoch) >= S::lifetime()) {
            return Err(StatementError::EpochOutOfRange { index, epoch: e.epoch });
        }
        Ok(Self { entries })
    }

    /// The entries, in order.
    pub fn entries(&self) -> &[AggregateEntry<S>] {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always false: a statement has at least one entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of signature slots in the circuit: the next power of two, at
    /// least [`MIN_PADDED`]. Extra slots repeat the last entry.
    pub fn padded_len(&self) -> usize {
        padded_len(self.entries.len())
    }

    /// The entry occupying circuit slot `slot` (padding repeats the last entry).
    pub fn slot(&self, slot: usize) -> &AggregateEntry<S> {
        &self.entries[slot.min(self.entries.len() - 1)]
    }

    /// A 32-byte digest binding every entry, in order: what the proof's
    /// transcript commits to before any challenge is drawn. The domain
    /// names the parameter set ([`AggScheme::STATEMENT_DOMAIN`]; Seed001's
    /// is the one it always had), so equal bytes under two sets differ.
    pub fn digest(&self) -> [u8; 32] {
        let mut h = Sha3_256::new();
        h.update(S::STATEMENT_DOMAIN);
        h.update((self.entries.len() as u64).to_le_bytes());
        for e in &self.entries {
            h.update(e.public_key.to_bytes());
            h.update(e.epoch.to_le_bytes());
            h.update(e.message);
        }
        h.finalize().into()
    }
}

/// Serializable form of an entry (public key as SSZ bytes).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EntryBytes {
    /// SSZ public key.
    pub public_key: Vec<u8>,
    /// Epoch.
    pub epoch: u32,
    /// Message.
    pub message: [u8; 32],
}

/// The public values of one signature slot, derived from its entry.
#[derive(Clone, Copy, Debug)]
pub struct SlotPublic {
    /// Hash parameter.
    pub param: [Val; 5],
    /// Merkle root.
    pub root: [Val; 7],
    /// The message as nine base-p digits.
    pub msg: [Val; 9],
    /// Message-hash tweak.
    pub mtweak: [Val; 2],
    /// Leaf tweak (tree level 0 at the epoch).
    pub leaf_tweak: [Val; 2],
    /// `epoch = 127 a + b`.
    pub a: Val,
    /// `epoch = 127 a + b`.
    pub b: Val,
    /// Borrow bits of chain 0's tweaks at positions 1, 2, 3 (see [`chain_tweak_parts`]).
    pub beta: [Val; 3],
    /// Per tree level `l = 1..=20`: tweak digits and the direction bit.
    pub levels: [[Val; 3]; TREE_DEPTH],
}

/// Splits `epoch` for the in-circuit chain tweak: `epoch = 127 a + b` and the
/// borrow bits `beta[pos - 1] = [b = 0 and 256 pos < a]`.
///
/// Why: the chain tweak `epoch << 24 | i << 16 | pos << 8` written in base p
/// is `(b 2^24 - a + i 2^16 + 256 pos, a)` because `2^24 = (p - 1) / 127`,
/// except when that first digit would be negative, which can only happen for
/// chain 0 (for `i >= 1` the `2^16` term exceeds `a < 2^14`). There the digits
/// are `(... + p, a - 1)`; the field element of the first digit is unchanged
/// and the second drops by the borrow bit.
pub fn chain_tweak_parts(epoch: u32) -> (u32, u32, [bool; 3]) {
    let (a, b) = (epoch / 127, epoch % 127);
    let beta = core::array::from_fn(|k| b == 0 && 256 * (k as u32 + 1) < a);
    (a, b, beta)
}

impl SlotPublic {
    /// Derives the slot's public values from its entry.
    pub fn new(entry: &AggregateEntry) -> Self {
        Self::from_parts(entry.public_key.parameter, entry.public_key.root, entry.epoch, &entry.message)
    }

    /// The values shared by every slot of a threshold proof: epoch and
    /// message; the key fields are zero (each signer's key is a witness).
    pub fn shared(epoch: u32, message: &[u8; 32]) -> Self {
        Self::from_parts([Val::ZERO; 5], [Val::ZERO; 7], epoch, message)
    }

    fn from_parts(param: [Val; 5], root: [Val; 7], epoch: u32, message: &[u8; 32]) -> Self {
        let (a, b, beta) = chain_tweak_parts(epoch);
        let levels = core::array::from_fn(|k| {
            let l = k + 1;
            let t = tree_tweak(l as u8, epoch >> l);
            [t[0], t[1], Val::from_u32((epoch >> (l - 1)) & 1)]
        });
        Self {
            param,
            root,
            msg: bytes_to_base_p(message),
            mtweak: message_tweak(epoch),
            leaf_tweak: tree_tweak(0, epoch),
            a: Val::from_u32(a),
            b: Val::from_u32(b),
            beta: beta.map(Val::from_bool),
            levels,
        }
    }
}

/// Canonical `u32` values of a field-element array (for tests and debugging).
pub fn canonical<T: FeArray>(x: &T) -> Vec<u32> {
    x.as_slice().iter().map(|f| f.as_canonical_u32()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sigagg_xmss::tweak::chain_tweak;

    /// The in-circuit formula for chain tweaks agrees with the native tweak
    /// for every chain and position, at epochs that hit the borrow case.
    #[test]
    fn chain_tweak_formula_matches_native() {
        let epochs = [0u32, 1, 126, 127, 254, 127 * 257, 127 * 2000, 127 * 8256, 1_048_575, 500_000];
        for &epoch in &epochs {
            let (a, b, beta) = chain_tweak_parts(epoch);
            for i in 0..78u8 {
                for pos in 1..=3u8 {
                    let t0 = Val::from_u32(b) * Val::from_u32(1 << 24) - Val::from_u32(a)
                        + Val::from_u32(u32::from(i) << 16)
                        + Val::from_u32(256 * u32::from(pos));
                    let borrow = i == 0 && beta[usize::from(pos) - 1];
                    let t1 = Val::from_u32(a) - Val::from_bool(borrow);
                    assert_eq!([t0, t1], chain_tweak(epoch, i, pos), "epoch {epoch} chain {i} pos {pos}");
                }
            }
        }
        // The borrow case really occurs.
        assert!(chain_tweak_parts(127 * 2000).2[0]);
    }
}
