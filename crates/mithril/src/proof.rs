//! The concatenation certificate and its verification, in mithril-stm's order.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use sigagg_bls::msp::{self, DST_MITHRIL, MspSignature, MspVerificationKey};

use crate::codec::{self, ByteString};
use crate::error::{DecodeError, Item, MithrilError};
use crate::merkle::{BatchPath, BatchPathWire, Hash};
use crate::params::Parameters;
use crate::registration::AggregateVerificationKey;
use crate::signature::{SignedEntry, SignedEntryJsonIn, SignedEntryJsonOut};

/// A concatenation certificate (mithril-stm's `ConcatenationProof`): every
/// chosen signature with its signer's entry, by increasing signer index,
/// and one batch Merkle path for all the entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConcatenationProof {
    /// The signatures with their registration entries.
    pub signatures: Vec<SignedEntry>,
    /// The batch path of the entries.
    pub batch_path: BatchPath,
}

#[derive(Serialize, Deserialize)]
struct ProofCbor {
    signature_bytes: Vec<Vec<u8>>,
    batch_proof_bytes: Vec<u8>,
}

#[derive(Serialize)]
struct ProofJsonOut {
    signatures: Vec<SignedEntryJsonOut>,
    batch_proof: BatchPathWire,
}

#[derive(Deserialize)]
struct ProofJsonIn {
    signatures: Vec<SignedEntryJsonIn>,
    batch_proof: BatchPathWire,
}

impl ConcatenationProof {
    /// Verifies the certificate for `msg` against `avk` under `params`, in
    /// mithril-stm's order: each signature's indices (below `m`, won in
    /// the lottery with its entry's stake), all indices distinct, at least
    /// `k` of them, the entries in the Merkle tree (and, beyond mithril-stm,
    /// each signature's `signer_index` equal to its leaf index), then one MSP.B check of
    /// all the σ's on `msg ‖ root`. The σ's are checked only through the
    /// aggregate, as in mithril-stm.
    pub fn verify(&self, msg: &[u8], avk: &AggregateVerificationKey, params: &Parameters) -> Result<(), MithrilError> {
        let msgp = avk.message(msg);
        for s in &self.signatures {
            s.sig.check_indices(params, s.entry.stake, &msgp, avk.total_stake)?;
        }
        let total: usize = self.signatures.iter().map(|s| s.sig.indexes.len()).sum();
        let distinct: HashSet<u64> = self.signatures.iter().flat_map(|s| s.sig.indexes.iter().copied()).collect();
        if distinct.len() != total {
            return Err(MithrilError::IndexNotUnique);
        }
        if (total as u64) < params.k {
            return Err(MithrilError::NotEnoughSignatures { got: total as u64, k: params.k });
        }
        if self.signatures.is_empty() {
            return Err(MithrilError::EmptyCertificate);
        }
        let leaves: Vec<Hash> = self.signatures.iter().map(|s| s.entry.leaf_hash()).collect();
        self.batch_path.verify(&leaves, &avk.root, avk.nr_leaves)?;
        if self.signatures.iter().zip(&self.batch_path.indices).any(|(s, &i)| s.sig.signer_index != i) {
            return Err(MithrilError::SignerIndexMismatch);
        }
        let vks: Vec<MspVerificationKey> = self.signatures.iter().map(|s| *s.entry.vk.msp()).collect();
        let sigs: Vec<MspSignature> = self.signatures.iter().map(|s| *s.sig.sigma.msp()).collect();
        let (ivk, mu) = msp::aggregate(&vks, &sigs).map_err(|_| MithrilError::AggregateInvalid)?;
        msp::verify_aggregated(&msgp, DST_MITHRIL, &ivk, &mu).map_err(|_| MithrilError::AggregateInvalid)
    }

    /// `0x01 ‖ CBOR {"signature_bytes": [[..] ..], "batch_proof_bytes": [..]}`,
    /// each entry and the path as their own `to_bytes`, written as arrays of integers.
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::to_cbor(&ProofCbor {
            signature_bytes: self.signatures.iter().map(SignedEntry::to_bytes).collect(),
            batch_proof_bytes: self.batch_path.to_bytes(),
        })
    }

    /// Reads [`ConcatenationProof::to_bytes`]'s encoding (and only that).
    pub fn from_bytes(bytes: &[u8]) -> Result<ConcatenationProof, MithrilError> {
        let w: ProofCbor = codec::from_cbor(bytes, Item::ConcatenationProof)?;
        let proof = ConcatenationProof {
            signatures: w.signature_bytes.iter().map(|b| SignedEntry::from_bytes(b)).collect::<Result<_, _>>()?,
            batch_path: BatchPath::from_bytes(&w.batch_proof_bytes)?,
        };
        codec::require_canonical(bytes, &proof.to_bytes(), Item::ConcatenationProof)?;
        Ok(proof)
    }

    /// `{"signatures":[[signature, [[96 integers], stake]], ..],"batch_proof":{"values","indices","hasher":null}}`,
    /// mithril-stm's serde shape (what mithril-common hex-encodes as a multi-signature).
    pub fn to_json(&self) -> String {
        codec::to_json(&ProofJsonOut {
            signatures: self.signatures.iter().map(SignedEntry::json).collect(),
            batch_proof: self.batch_path.wire(),
        })
    }

    /// Reads the JSON of [`ConcatenationProof::to_json`].
    pub fn from_json(json: &str) -> Result<ConcatenationProof, MithrilError> {
        let w: ProofJsonIn = codec::from_json(json, Item::ConcatenationProof)?;
        Ok(ConcatenationProof {
            signatures: w.signatures.into_iter().map(SignedEntry::from_json_wire).collect::<Result<_, _>>()?,
            batch_path: BatchPath::from_wire(w.batch_proof),
        })
    }
}

/// The certificate of a proof system (mithril-stm's `AggregateSignature`);
/// only the concatenation system exists without mithril-stm's `snark` feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AggregateSignature {
    /// A concatenation certificate (type byte 0).
    Concatenation(ConcatenationProof),
}

#[derive(Serialize, Deserialize)]
struct AggregateCbor {
    signature_type: u8,
    proof_bytes: ByteString,
}

impl AggregateSignature {
    /// Verifies the certificate (see [`ConcatenationProof::verify`]).
    pub fn verify(&self, msg: &[u8], avk: &AggregateVerificationKey, params: &Parameters) -> Result<(), MithrilError> {
        match self {
            AggregateSignature::Concatenation(p) => p.verify(msg, avk, params),
        }
    }

    /// `0x01 ‖ CBOR {"signature_type": 0, "proof_bytes": <byte string>}`
    /// (0.13's form; 0.12 wrote `proof_bytes` as an array of integers).
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            AggregateSignature::Concatenation(p) => {
                codec::to_cbor(&AggregateCbor { signature_type: 0, proof_bytes: ByteString(p.to_bytes()) })
            }
        }
    }

    /// Reads [`AggregateSignature::to_bytes`]'s encoding (and only that).
    pub fn from_bytes(bytes: &[u8]) -> Result<AggregateSignature, MithrilError> {
        let w: AggregateCbor = codec::from_cbor(bytes, Item::AggregateSignature)?;
        if w.signature_type != 0 {
            return Err(MithrilError::decode(
                Item::AggregateSignature,
                DecodeError::Value(format!("signature type {} (only 0, concatenation)", w.signature_type)),
            ));
        }
        let sig = AggregateSignature::Concatenation(ConcatenationProof::from_bytes(&w.proof_bytes.0)?);
        codec::require_canonical(bytes, &sig.to_bytes(), Item::AggregateSignature)?;
        Ok(sig)
    }

    /// The JSON of the inner proof (mithril-stm's enum is untagged).
    pub fn to_json(&self) -> String {
        match self {
            AggregateSignature::Concatenation(p) => p.to_json(),
        }
    }

    /// Reads the JSON of [`AggregateSignature::to_json`].
    pub fn from_json(json: &str) -> Result<AggregateSignature, MithrilError> {
        ConcatenationProof::from_json(json).map(AggregateSignature::Concatenation)
    }
}
