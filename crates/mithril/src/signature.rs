//! Signing: a registered party signs `msgp = msg ‖ root` once and claims
//! every lottery index `j < m` its signature wins.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::codec::{self, Fixed};
use crate::error::{Item, MithrilError};
use crate::keys::{Signature, SigningKey, VerificationKey};
use crate::lottery::{Lottery, lottery_value};
use crate::params::Parameters;
use crate::registration::{AggregateVerificationKey, ClosedRegistration, EntryJson, RegistrationEntry};

/// A registered party ready to sign (mithril-stm's `Signer`).
#[derive(Clone, Debug)]
pub struct Signer {
    index: u64,
    key: SigningKey,
    stake: u64,
    params: Parameters,
    avk: AggregateVerificationKey,
}

impl Signer {
    /// The signer for `key` with `stake` in `registration` (`NotRegistered`
    /// unless that key is registered with that stake).
    pub fn new(
        key: SigningKey,
        stake: u64,
        registration: &ClosedRegistration,
        params: Parameters,
    ) -> Result<Signer, MithrilError> {
        let index = registration.index_of(&key.verification_key(), stake).ok_or(MithrilError::NotRegistered)?;
        Ok(Signer { index, key, stake, params, avk: registration.aggregate_verification_key() })
    }

    /// The signer's index (its Merkle leaf).
    pub fn index(&self) -> u64 {
        self.index
    }

    /// Signs `msg`: σ on `msg ‖ root` and the indices it wins, in
    /// increasing order (`NoIndexWon` if none).
    pub fn sign(&self, msg: &[u8]) -> Result<SingleSignature, MithrilError> {
        let msgp = self.avk.message(msg);
        let sigma = self.key.sign(&msgp);
        let mut lottery = Lottery::new(self.params.phi_f, self.stake, self.avk.total_stake)?;
        let sigma_bytes = sigma.to_bytes();
        let indexes: Vec<u64> =
            (0..self.params.m).filter(|&j| lottery.wins(&lottery_value(&msgp, j, &sigma_bytes))).collect();
        if indexes.is_empty() {
            return Err(MithrilError::NoIndexWon);
        }
        Ok(SingleSignature { sigma, indexes, signer_index: self.index })
    }
}

/// One party's signature with the indices it claims (mithril-stm's
/// `SingleSignature`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SingleSignature {
    /// σ on `msg ‖ root`.
    pub sigma: Signature,
    /// The lottery indices claimed.
    pub indexes: Vec<u64>,
    /// The signer's index in the registration.
    pub signer_index: u64,
}

#[derive(Serialize, Deserialize)]
struct SigFields {
    sigma: Fixed<48>,
    indexes: Vec<u64>,
}

/// Writes as mithril-stm does: its σ and indices are a flattened inner
/// struct, which makes serde write a map of unknown length (an indefinite
/// CBOR map).
#[derive(Serialize)]
pub(crate) struct SigWireOut {
    #[serde(flatten)]
    fields: SigFields,
    signer_index: u64,
}

/// Reads the three fields as one map.
#[derive(Deserialize)]
pub(crate) struct SigWireIn {
    sigma: Fixed<48>,
    indexes: Vec<u64>,
    signer_index: u64,
}

impl SingleSignature {
    pub(crate) fn wire(&self) -> SigWireOut {
        SigWireOut {
            fields: SigFields { sigma: Fixed(self.sigma.to_bytes()), indexes: self.indexes.clone() },
            signer_index: self.signer_index,
        }
    }

    pub(crate) fn from_wire(w: SigWireIn) -> Result<SingleSignature, MithrilError> {
        Ok(SingleSignature {
            sigma: Signature::from_bytes(&w.sigma.0)?,
            indexes: w.indexes,
            signer_index: w.signer_index,
        })
    }

    /// Checks σ on `msg ‖ root` under `vk`, then each claimed index
    /// (mithril-stm's order and checks; indices must also be below `m` and
    /// not repeated).
    pub fn verify(
        &self,
        params: &Parameters,
        vk: &VerificationKey,
        stake: u64,
        avk: &AggregateVerificationKey,
        msg: &[u8],
    ) -> Result<(), MithrilError> {
        let msgp = avk.message(msg);
        self.sigma.verify(&msgp, vk)?;
        self.check_indices(params, stake, &msgp, avk.total_stake)
    }

    /// The lottery checks alone, on `msgp`, in claim order: each index below
    /// `m`, not seen before in this signature, and won.
    pub(crate) fn check_indices(
        &self,
        params: &Parameters,
        stake: u64,
        msgp: &[u8],
        total_stake: u64,
    ) -> Result<(), MithrilError> {
        if self.indexes.is_empty() {
            return Err(MithrilError::NoIndex);
        }
        let mut lottery = Lottery::new(params.phi_f, stake, total_stake)?;
        let sigma = self.sigma.to_bytes();
        let mut seen = BTreeSet::new();
        for &index in &self.indexes {
            if index >= params.m {
                return Err(MithrilError::IndexOutOfBound { index, m: params.m });
            }
            if !seen.insert(index) {
                return Err(MithrilError::IndexNotUnique);
            }
            if !lottery.wins(&lottery_value(msgp, index, &sigma)) {
                return Err(MithrilError::LotteryLost(index));
            }
        }
        Ok(())
    }

    /// `0x01 ‖ CBOR` of the indefinite map `{"sigma": [48 integers], "indexes", "signer_index"}`.
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::to_cbor(&self.wire())
    }

    /// Reads [`SingleSignature::to_bytes`]'s encoding (and only that).
    pub fn from_bytes(bytes: &[u8]) -> Result<SingleSignature, MithrilError> {
        let sig = SingleSignature::from_wire(codec::from_cbor(bytes, Item::SingleSignature)?)?;
        codec::require_canonical(bytes, &sig.to_bytes(), Item::SingleSignature)?;
        Ok(sig)
    }

    /// `{"sigma":[48 integers],"indexes":[..],"signer_index":n}`, mithril-stm's serde shape.
    pub fn to_json(&self) -> String {
        codec::to_json(&self.wire())
    }

    /// Reads the JSON of [`SingleSignature::to_json`].
    pub fn from_json(json: &str) -> Result<SingleSignature, MithrilError> {
        SingleSignature::from_wire(codec::from_json(json, Item::SingleSignature)?)
    }
}

/// A single signature with its signer's registration entry, as a
/// certificate carries it (mithril-stm's `SingleSignatureWithRegisteredParty`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedEntry {
    /// The signature.
    pub sig: SingleSignature,
    /// The signer's key and stake.
    pub entry: RegistrationEntry,
}

#[derive(Serialize, Deserialize)]
struct SignedEntryCbor {
    signature_bytes: Vec<u8>,
    registration_entry_bytes: Vec<u8>,
}

/// The JSON shape `[signature, [[96 integers], stake]]`.
#[derive(Serialize)]
pub(crate) struct SignedEntryJsonOut(SigWireOut, EntryJson);

#[derive(Deserialize)]
pub(crate) struct SignedEntryJsonIn(SigWireIn, EntryJson);

impl SignedEntry {
    /// `0x01 ‖ CBOR {"signature_bytes": [..], "registration_entry_bytes": [..]}`,
    /// each field the inner object's `to_bytes` as an array of integers.
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::to_cbor(&SignedEntryCbor {
            signature_bytes: self.sig.to_bytes(),
            registration_entry_bytes: self.entry.to_bytes(),
        })
    }

    /// Reads [`SignedEntry::to_bytes`]'s encoding (and only that).
    pub fn from_bytes(bytes: &[u8]) -> Result<SignedEntry, MithrilError> {
        let w: SignedEntryCbor = codec::from_cbor(bytes, Item::SignedEntry)?;
        let signed = SignedEntry {
            sig: SingleSignature::from_bytes(&w.signature_bytes)?,
            entry: RegistrationEntry::from_bytes(&w.registration_entry_bytes)?,
        };
        codec::require_canonical(bytes, &signed.to_bytes(), Item::SignedEntry)?;
        Ok(signed)
    }

    pub(crate) fn json(&self) -> SignedEntryJsonOut {
        SignedEntryJsonOut(self.sig.wire(), self.entry.json())
    }

    pub(crate) fn from_json_wire(w: SignedEntryJsonIn) -> Result<SignedEntry, MithrilError> {
        Ok(SignedEntry { sig: SingleSignature::from_wire(w.0)?, entry: RegistrationEntry::from_json_wire(w.1)? })
    }
}
