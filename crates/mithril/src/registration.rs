//! Key registration: proofs of possession checked on entry, the closed
//! registration ordered by `(stake, mvk bytes)`, its Merkle tree and the
//! aggregate verification key (the commitment certificates verify against).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::codec::{self, Fixed, Null};
use crate::error::{Item, MithrilError};
use crate::keys::{VerificationKey, VerificationKeyPop};
use crate::merkle::{Hash, MerkleTree, leaf_hash};

/// A registered party: its key and stake (mithril-stm's `ClosedRegistrationEntry`).
/// Ordered by stake, then by the key's bytes, the order of the Merkle leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegistrationEntry {
    /// The party's stake.
    pub stake: u64,
    /// The party's key.
    pub vk: VerificationKey,
}

impl PartialOrd for RegistrationEntry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RegistrationEntry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.stake, self.vk).cmp(&(other.stake, other.vk))
    }
}

#[derive(Serialize, Deserialize)]
struct EntryCbor {
    verification_key_bytes: Fixed<96>,
    stake: u64,
}

/// The JSON shape `[[96 integers], stake]`.
pub(crate) type EntryJson = (Fixed<96>, u64);

impl RegistrationEntry {
    /// The Merkle leaf hash `H(mvk ‖ stake BE)`.
    pub fn leaf_hash(&self) -> Hash {
        leaf_hash(&self.vk.to_bytes(), self.stake)
    }

    /// `0x01 ‖ CBOR {"verification_key_bytes": [96 integers], "stake"}`.
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::to_cbor(&EntryCbor { verification_key_bytes: Fixed(self.vk.to_bytes()), stake: self.stake })
    }

    /// Reads [`RegistrationEntry::to_bytes`]'s encoding (and only that).
    pub fn from_bytes(bytes: &[u8]) -> Result<RegistrationEntry, MithrilError> {
        let w: EntryCbor = codec::from_cbor(bytes, Item::RegistrationEntry)?;
        let entry = RegistrationEntry { stake: w.stake, vk: VerificationKey::from_bytes(&w.verification_key_bytes.0)? };
        codec::require_canonical(bytes, &entry.to_bytes(), Item::RegistrationEntry)?;
        Ok(entry)
    }

    pub(crate) fn json(&self) -> EntryJson {
        (Fixed(self.vk.to_bytes()), self.stake)
    }

    pub(crate) fn from_json_wire(w: EntryJson) -> Result<RegistrationEntry, MithrilError> {
        Ok(RegistrationEntry { stake: w.1, vk: VerificationKey::from_bytes(&w.0.0)? })
    }
}

/// An open registration (mithril-stm's `KeyRegistration`).
#[derive(Clone, Debug, Default)]
pub struct KeyRegistration {
    entries: BTreeSet<RegistrationEntry>,
    keys: BTreeSet<VerificationKey>,
}

impl KeyRegistration {
    /// An empty registration.
    pub fn new() -> KeyRegistration {
        KeyRegistration::default()
    }

    /// Registers a party: its proof of possession is checked first, then
    /// the key must be new (mithril-stm 0.13's order). Stake 0 is accepted.
    pub fn register(&mut self, stake: u64, vk_pop: &VerificationKeyPop) -> Result<(), MithrilError> {
        vk_pop.verify()?;
        if !self.keys.insert(vk_pop.vk) {
            return Err(MithrilError::AlreadyRegistered);
        }
        self.entries.insert(RegistrationEntry { stake, vk: vk_pop.vk });
        Ok(())
    }

    /// Closes the registration: the stakes must sum to a nonzero `u64`.
    pub fn close(self) -> Result<ClosedRegistration, MithrilError> {
        let total = self
            .entries
            .iter()
            .try_fold(0u64, |acc, e| acc.checked_add(e.stake))
            .ok_or(MithrilError::TotalStakeOverflow)?;
        if total == 0 {
            return Err(MithrilError::ZeroTotalStake);
        }
        let entries: Vec<RegistrationEntry> = self.entries.into_iter().collect();
        let leaves: Vec<Hash> = entries.iter().map(RegistrationEntry::leaf_hash).collect();
        Ok(ClosedRegistration { tree: MerkleTree::new(&leaves), entries, total_stake: total })
    }
}

/// A closed registration: entries in leaf order (the signer index of a
/// party is its position), the total stake and the Merkle tree.
#[derive(Clone, Debug)]
pub struct ClosedRegistration {
    entries: Vec<RegistrationEntry>,
    total_stake: u64,
    tree: MerkleTree,
}

impl ClosedRegistration {
    /// A closed registration of `entries` whose keys' proofs of possession
    /// were checked before (by [`KeyRegistration::register`]), as stored by
    /// whoever closed it: the entries must be in leaf order (strictly
    /// increasing by `(stake, key bytes)`), no key twice, the stakes summing
    /// to a nonzero `u64`. No proof of possession is checked here: build
    /// the registration with [`KeyRegistration`] from keys with proofs you
    /// received from others, or compare its aggregate verification key
    /// with one you trust.
    pub fn from_trusted_entries(entries: Vec<RegistrationEntry>) -> Result<ClosedRegistration, MithrilError> {
        if entries.windows(2).any(|w| w[0] >= w[1]) {
            return Err(MithrilError::value(Item::RegistrationEntry, "entries not in strictly increasing leaf order"));
        }
        if entries.iter().map(|e| e.vk).collect::<BTreeSet<_>>().len() != entries.len() {
            return Err(MithrilError::AlreadyRegistered);
        }
        let mut registration = KeyRegistration::new();
        registration.keys = entries.iter().map(|e| e.vk).collect();
        registration.entries = entries.into_iter().collect();
        registration.close()
    }

    /// The entries, in signer-index order.
    pub fn entries(&self) -> &[RegistrationEntry] {
        &self.entries
    }

    /// The entry of signer `index` (`UnregisteredIndex` beyond the registration).
    pub fn entry(&self, index: u64) -> Result<&RegistrationEntry, MithrilError> {
        usize::try_from(index).ok().and_then(|i| self.entries.get(i)).ok_or(MithrilError::UnregisteredIndex(index))
    }

    /// The signer index of the party with this key and stake.
    pub fn index_of(&self, vk: &VerificationKey, stake: u64) -> Option<u64> {
        self.entries.binary_search(&RegistrationEntry { stake, vk: *vk }).ok().map(|i| i as u64)
    }

    /// The sum of the stakes.
    pub fn total_stake(&self) -> u64 {
        self.total_stake
    }

    /// The Merkle tree over the entries.
    pub fn tree(&self) -> &MerkleTree {
        &self.tree
    }

    /// The commitment certificates are verified against.
    pub fn aggregate_verification_key(&self) -> AggregateVerificationKey {
        AggregateVerificationKey {
            root: self.tree.root(),
            nr_leaves: self.entries.len() as u64,
            total_stake: self.total_stake,
        }
    }
}

/// The aggregate verification key (mithril-stm's
/// `AggregateVerificationKeyForConcatenation`): the Merkle root, the number
/// of leaves and the total stake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AggregateVerificationKey {
    /// The Merkle root; signers sign `msg ‖ root`.
    pub root: Hash,
    /// The number of registered parties.
    pub nr_leaves: u64,
    /// The total registered stake.
    pub total_stake: u64,
}

#[derive(Serialize, Deserialize)]
struct CommitmentWire {
    root: Fixed<32>,
    nr_leaves: u64,
    hasher: Null,
}

#[derive(Serialize, Deserialize)]
struct AvkWire {
    mt_commitment: CommitmentWire,
    total_stake: u64,
}

impl AggregateVerificationKey {
    /// The message signers sign: `msg ‖ root` (the root only, not the leaf count).
    pub fn message(&self, msg: &[u8]) -> Vec<u8> {
        [msg, &self.root].concat()
    }

    fn wire(&self) -> AvkWire {
        AvkWire {
            mt_commitment: CommitmentWire { root: Fixed(self.root), nr_leaves: self.nr_leaves, hasher: Null },
            total_stake: self.total_stake,
        }
    }

    fn from_wire(w: AvkWire) -> AggregateVerificationKey {
        AggregateVerificationKey {
            root: w.mt_commitment.root.0,
            nr_leaves: w.mt_commitment.nr_leaves,
            total_stake: w.total_stake,
        }
    }

    /// `0x01 ‖ CBOR {"mt_commitment": {"root", "nr_leaves", "hasher": null}, "total_stake"}`.
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::to_cbor(&self.wire())
    }

    /// Reads [`AggregateVerificationKey::to_bytes`]'s encoding (and only that).
    pub fn from_bytes(bytes: &[u8]) -> Result<AggregateVerificationKey, MithrilError> {
        let avk = AggregateVerificationKey::from_wire(codec::from_cbor(bytes, Item::AggregateVerificationKey)?);
        codec::require_canonical(bytes, &avk.to_bytes(), Item::AggregateVerificationKey)?;
        Ok(avk)
    }

    /// mithril-stm's JSON shape (the same fields as the CBOR).
    pub fn to_json(&self) -> String {
        codec::to_json(&self.wire())
    }

    /// Reads the JSON of [`AggregateVerificationKey::to_json`].
    pub fn from_json(json: &str) -> Result<AggregateVerificationKey, MithrilError> {
        Ok(AggregateVerificationKey::from_wire(codec::from_json(json, Item::AggregateVerificationKey)?))
    }
}
