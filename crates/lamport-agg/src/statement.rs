//! Public statements, and the digest that binds a statement (with the
//! public values a proof carries) into the proof's transcript.

use std::collections::HashMap;
use std::marker::PhantomData;

use sha3::{Digest as _, Sha3_256};
use sigagg_lamport::field::digest_to_bytes;
use sigagg_lamport::{GroupKey, ParameterSet, PublicKey};

use crate::config::Settings;
use crate::error::StatementError;
use crate::layout::{MAX_DEPTH, MAX_SIGNATURES, Shape};

/// One aggregate entry: a public key and the message it signed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AggregateEntry<S: ParameterSet> {
    /// The signer's public key.
    pub public_key: PublicKey<S>,
    /// The signed message (any length).
    pub message: Vec<u8>,
}

/// An aggregate statement: `N` (public key, message) pairs with `N`
/// distinct messages (seed 004, section 4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AggregateStatement<S: ParameterSet> {
    entries: Vec<AggregateEntry<S>>,
}

impl<S: ParameterSet> AggregateStatement<S> {
    /// Checks the entries: at least one, at most [`MAX_SIGNATURES`], and no
    /// message twice.
    pub fn new(entries: Vec<AggregateEntry<S>>) -> Result<Self, StatementError> {
        if entries.is_empty() {
            return Err(StatementError::Empty);
        }
        if entries.len() > MAX_SIGNATURES {
            return Err(StatementError::TooMany { count: entries.len(), max: MAX_SIGNATURES });
        }
        let mut seen: HashMap<&[u8], usize> = HashMap::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            if let Some(&first) = seen.get(e.message.as_slice()) {
                return Err(StatementError::DuplicateMessage { first, second: i });
            }
            seen.insert(&e.message, i);
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

    /// Slots of the circuit (entries rounded up to a power of two).
    pub fn slots(&self) -> usize {
        Shape::slots_for(self.entries.len())
    }

    /// The digest binding the statement, the settings and the public mining
    /// counters into the transcript.
    pub(crate) fn digest(&self, settings: &Settings, counters: &[u32]) -> [u8; 32] {
        let mut h = transcript_hasher::<S>(b"aggregate", settings);
        h.update((self.entries.len() as u64).to_le_bytes());
        for e in &self.entries {
            h.update(digest_to_bytes(e.public_key.digest()));
            h.update((e.message.len() as u64).to_le_bytes());
            h.update(&e.message);
        }
        h.update((counters.len() as u64).to_le_bytes());
        for c in counters {
            h.update(c.to_le_bytes());
        }
        h.finalize().into()
    }
}

/// A threshold statement: at least `threshold` distinct members of the group
/// signed `message` (seed 004, section 5; seed 000, section 2.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThresholdStatement<S: ParameterSet> {
    group: GroupKey,
    message: Vec<u8>,
    threshold: u32,
    _set: PhantomData<S>,
}

impl<S: ParameterSet> ThresholdStatement<S> {
    /// Checks `1 <= threshold <= size` and that the group's depth is
    /// supported ([`MAX_DEPTH`], groups of up to 2^29 members).
    pub fn new(group: GroupKey, message: Vec<u8>, threshold: u32) -> Result<Self, StatementError> {
        if threshold == 0 {
            return Err(StatementError::ZeroThreshold);
        }
        if threshold > group.size() {
            return Err(StatementError::ThresholdAboveSize { threshold, size: group.size() });
        }
        if group.depth() > MAX_DEPTH {
            return Err(StatementError::GroupTooLarge { size: group.size(), depth: group.depth(), max: MAX_DEPTH });
        }
        Ok(Self { group, message, threshold, _set: PhantomData })
    }

    /// The group key (Merkle root and size).
    pub fn group(&self) -> &GroupKey {
        &self.group
    }

    /// The message.
    pub fn message(&self) -> &[u8] {
        &self.message
    }

    /// The threshold `t`.
    pub fn threshold(&self) -> u32 {
        self.threshold
    }

    /// The digest binding the statement, the settings and the proof's
    /// public values (count, mining counter, optional bitmap).
    pub(crate) fn digest(&self, settings: &Settings, count: u32, counter: u32, bitmap: Option<&[u8]>) -> [u8; 32] {
        let mut h = transcript_hasher::<S>(b"threshold", settings);
        h.update(digest_to_bytes(self.group.root()));
        h.update(self.group.size().to_le_bytes());
        h.update(self.threshold.to_le_bytes());
        h.update((self.message.len() as u64).to_le_bytes());
        h.update(&self.message);
        h.update(count.to_le_bytes());
        h.update(counter.to_le_bytes());
        match bitmap {
            None => h.update([0u8]),
            Some(b) => {
                h.update([1u8]);
                h.update((b.len() as u64).to_le_bytes());
                h.update(b);
            }
        }
        h.finalize().into()
    }
}

fn transcript_hasher<S: ParameterSet>(kind: &[u8], settings: &Settings) -> Sha3_256 {
    let mut h = Sha3_256::new();
    h.update(b"sigagg/lamport-agg/statement/v1/");
    h.update(kind);
    h.update([S::ID]);
    for w in settings.words() {
        h.update(w.to_le_bytes());
    }
    h
}

/// The bitmap of `size` members (bit `i` of byte `i / 8`, least significant
/// first) with the given members set.
pub fn bitmap(size: u32, members: &[u32]) -> Vec<u8> {
    let mut b = vec![0u8; (size as usize).div_ceil(8)];
    for &m in members {
        b[m as usize / 8] |= 1 << (m % 8);
    }
    b
}

/// The members listed by a bitmap, in increasing order; `None` if the
/// bitmap's length is not `ceil(size / 8)` or a bit at or beyond `size` is set.
pub fn members_of(size: u32, bitmap: &[u8]) -> Option<Vec<u32>> {
    if bitmap.len() != (size as usize).div_ceil(8) {
        return None;
    }
    let mut out = Vec::new();
    for (byte_index, &byte) in bitmap.iter().enumerate() {
        for bit in 0..8 {
            if byte >> bit & 1 == 1 {
                let i = (byte_index * 8 + bit) as u64;
                if i >= u64::from(size) {
                    return None;
                }
                out.push(i as u32);
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::PrimeCharacteristicRing;
    use sigagg_lamport::LamportPlus;
    use sigagg_lamport::field::F;

    fn pk(i: u32) -> PublicKey<LamportPlus> {
        PublicKey::from_digest(core::array::from_fn(|k| F::from_u32(i * 8 + k as u32)))
    }

    #[test]
    fn duplicate_messages_are_rejected() {
        let e = |i: u32, m: &[u8]| AggregateEntry { public_key: pk(i), message: m.to_vec() };
        assert!(AggregateStatement::new(vec![e(0, b"a"), e(1, b"b")]).is_ok());
        assert_eq!(
            AggregateStatement::new(vec![e(0, b"a"), e(1, b"b"), e(2, b"a")]),
            Err(StatementError::DuplicateMessage { first: 0, second: 2 })
        );
        assert_eq!(AggregateStatement::<LamportPlus>::new(vec![]), Err(StatementError::Empty));
    }

    #[test]
    fn threshold_bounds() {
        let g = GroupKey::new([F::ONE; 8], 5).unwrap();
        assert!(ThresholdStatement::<LamportPlus>::new(g, b"m".to_vec(), 5).is_ok());
        assert_eq!(ThresholdStatement::<LamportPlus>::new(g, b"m".to_vec(), 0), Err(StatementError::ZeroThreshold));
        assert!(matches!(
            ThresholdStatement::<LamportPlus>::new(g, b"m".to_vec(), 6),
            Err(StatementError::ThresholdAboveSize { .. })
        ));
        let huge = GroupKey::new([F::ONE; 8], 1 << 30).unwrap();
        assert!(matches!(
            ThresholdStatement::<LamportPlus>::new(huge, b"m".to_vec(), 1),
            Err(StatementError::GroupTooLarge { depth: 30, .. })
        ));
    }

    #[test]
    fn bitmaps_round_trip_and_reject_out_of_range_bits() {
        let b = bitmap(11, &[0, 3, 10]);
        assert_eq!(b, vec![0b0000_1001, 0b0000_0100]);
        assert_eq!(members_of(11, &b), Some(vec![0, 3, 10]));
        assert_eq!(members_of(10, &b), None);
        assert_eq!(members_of(11, &[0, 0b1000_0000]), None);
        assert_eq!(members_of(11, &[0]), None);
    }

    #[test]
    fn digests_separate_everything() {
        let e = |i: u32, m: &[u8]| AggregateEntry { public_key: pk(i), message: m.to_vec() };
        let s = AggregateStatement::new(vec![e(0, b"a"), e(1, b"b")]).unwrap();
        let t = AggregateStatement::new(vec![e(0, b"a"), e(1, b"c")]).unwrap();
        let fast = crate::named::FAST;
        assert_ne!(s.digest(&fast, &[]), t.digest(&fast, &[]));
        assert_ne!(s.digest(&fast, &[]), s.digest(&crate::named::COMPACT, &[]));
        let g = GroupKey::new([F::ONE; 8], 5).unwrap();
        let th = ThresholdStatement::<LamportPlus>::new(g, b"m".to_vec(), 3).unwrap();
        assert_ne!(th.digest(&fast, 3, 0, None), th.digest(&fast, 4, 0, None));
        assert_ne!(th.digest(&fast, 3, 0, None), th.digest(&fast, 3, 0, Some(&[7])));
    }
}
