//! The clerk: collects single signatures, settles indices two signers
//! claim, picks signers until `k` distinct indices are covered and builds
//! the concatenation certificate, as mithril-stm's clerk does.

use std::collections::{BTreeMap, HashSet};

use crate::error::MithrilError;
use crate::params::Parameters;
use crate::proof::ConcatenationProof;
use crate::registration::{AggregateVerificationKey, ClosedRegistration};
use crate::signature::{SignedEntry, SingleSignature};

/// Aggregates single signatures of one closed registration.
#[derive(Clone, Debug)]
pub struct Clerk {
    params: Parameters,
    registration: ClosedRegistration,
}

impl Clerk {
    /// A clerk for `registration` under `params`.
    pub fn new(params: Parameters, registration: ClosedRegistration) -> Clerk {
        Clerk { params, registration }
    }

    /// The commitment certificates verify against.
    pub fn aggregate_verification_key(&self) -> AggregateVerificationKey {
        self.registration.aggregate_verification_key()
    }

    /// The parameters.
    pub fn parameters(&self) -> &Parameters {
        &self.params
    }

    /// Builds a certificate for `msg` from `sigs` (in any order).
    ///
    /// A signature whose signer index is not registered fails the whole
    /// call (`UnregisteredIndex`, as in mithril-stm); signatures that do not
    /// verify are skipped. Fewer than `k` distinct indices among the valid
    /// ones give `NotEnoughSignatures`. The certificate lists the chosen
    /// signatures by increasing signer index (the order that fixes the
    /// MSP.B weights), with their Merkle batch path.
    pub fn aggregate(&self, sigs: &[SingleSignature], msg: &[u8]) -> Result<ConcatenationProof, MithrilError> {
        let entries = sigs
            .iter()
            .map(|sig| Ok(SignedEntry { sig: sig.clone(), entry: *self.registration.entry(sig.signer_index)? }))
            .collect::<Result<Vec<_>, MithrilError>>()?;
        let mut chosen = self.select(&entries, msg)?;
        chosen.sort_by_key(|s| s.sig.signer_index);
        chosen.dedup_by_key(|s| s.sig.signer_index);
        let leaves: Vec<usize> = chosen.iter().map(|s| s.sig.signer_index as usize).collect();
        let batch_path = self.registration.tree().batch_path(&leaves);
        Ok(ConcatenationProof { signatures: chosen, batch_path })
    }

    /// mithril-stm's `select_valid_signatures_for_k_indices`: keeps the
    /// signatures that verify, in input order (a repeat of an accepted
    /// signature by the same party is dropped: see the crate docs); gives
    /// each claimed index to the claimant with the smallest σ bytes; then
    /// walks the indices upwards, taking each owner not yet taken with all
    /// the indices it kept, and stops as soon as `k` indices are covered.
    pub fn select(&self, sigs: &[SignedEntry], msg: &[u8]) -> Result<Vec<SignedEntry>, MithrilError> {
        let avk = self.aggregate_verification_key();
        let mut seen = HashSet::new();
        let valid: Vec<&SignedEntry> = sigs
            .iter()
            .filter(|s| s.sig.verify(&self.params, &s.entry.vk, s.entry.stake, &avk, msg).is_ok())
            .filter(|s| seen.insert((s.sig.sigma, s.entry)))
            .collect();
        let (owner, lost) = settle(&valid);
        let mut taken = vec![false; valid.len()];
        let mut chosen = Vec::new();
        let mut count = 0u64;
        for &pos in owner.values() {
            if std::mem::replace(&mut taken[pos], true) {
                continue;
            }
            let mut signed = valid[pos].clone();
            signed.sig.indexes.retain(|i| !lost[pos].contains(i));
            count += signed.sig.indexes.len() as u64;
            chosen.push(signed);
            if count >= self.params.k {
                return Ok(chosen);
            }
        }
        Err(MithrilError::NotEnoughSignatures { got: count, k: self.params.k })
    }
}

/// For each index, the position of the claimant with the smallest σ, and
/// for each claimant the indices it lost.
fn settle(valid: &[&SignedEntry]) -> (BTreeMap<u64, usize>, Vec<HashSet<u64>>) {
    let mut owner: BTreeMap<u64, usize> = BTreeMap::new();
    let mut lost = vec![HashSet::new(); valid.len()];
    for (pos, s) in valid.iter().enumerate() {
        for &index in &s.sig.indexes {
            match owner.get(&index).copied() {
                None => {
                    owner.insert(index, pos);
                }
                Some(prev) if s.sig.sigma < valid[prev].sig.sigma => {
                    owner.insert(index, pos);
                    lost[prev].insert(index);
                }
                Some(_) => {
                    lost[pos].insert(index);
                }
            }
        }
    }
    (owner, lost)
}
