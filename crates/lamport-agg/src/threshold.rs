//! Threshold proofs: at least `t` distinct members of a group signed one
//! message (seed 004, section 5; the relations of seed 000, section 2.1).
//!
//! The group key is a Merkle root over the members' Lamport+ public keys
//! and the group size (`sigagg_lamport::GroupTree`). The proof shows, for
//! each of `count` slots: the slot's signature verifies under a key, the key
//! is the leaf at some index with a Merkle path to the root, and the
//! indices of the counted slots increase strictly and stay below the size
//! (distinct members, no padding leaf). The verifier learns `count` (and
//! checks `count >= t`) and, if the prover chose to disclose it, the signer
//! bitmap. Members who did not sign cost nothing: the circuit has one slot
//! per signer (rounded up to a power of two), never one per member.
//!
//! Distinct indices mean distinct signers as far as the group's leaves are
//! distinct keys: `GroupTree::new` refuses a key listed twice, and a group
//! root computed by other software must do the same (one key at two leaves
//! could count twice).

use rayon::prelude::*;
use sigagg_lamport::{GroupTree, MembershipProof, ParameterSet, PublicKey, Signature, codeword};

use crate::config::Settings;
use crate::error::{ProveError, StatementError, VerifyError};
use crate::layout::max_signatures;
use crate::proof::{Proof, ProofKind};
use crate::statement::{ThresholdStatement, bitmap, members_of};
use crate::system::{self, Instance};
use crate::trace::{self, SlotWitness, Traces};

/// One signer's witness: key, signature on the statement's message, and
/// membership path (whose index is the signer's leaf).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signer<S: ParameterSet> {
    /// The member's public key.
    pub public_key: PublicKey<S>,
    /// Its signature on the message.
    pub signature: Signature<S>,
    /// Its membership path.
    pub path: MembershipProof,
}

impl<S: ParameterSet> Signer<S> {
    /// The witness of a member of `tree`, with its path looked up in the tree.
    pub fn from_tree(
        tree: &GroupTree,
        public_key: PublicKey<S>,
        signature: Signature<S>,
    ) -> Result<Self, sigagg_lamport::GroupError> {
        let index = tree
            .position(public_key.digest())
            .ok_or(sigagg_lamport::GroupError::NotAMember { index: u64::from(u32::MAX) })?;
        Ok(Self { public_key, signature, path: tree.prove(index)? })
    }
}

/// What a threshold proof reveals besides the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Disclosure {
    /// Only the number of signers.
    #[default]
    CountOnly,
    /// The number and the bitmap of signers.
    Bitmap,
}

/// Proves that the `signers` (at least the threshold, distinct members)
/// signed the statement's message. The proof counts every signer given.
///
/// Every signer is checked natively first (membership, signature, one
/// mining counter for all), so a bad witness is a typed error naming the
/// signer's position in `signers`.
pub fn prove<S: ParameterSet>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    signers: &[Signer<S>],
    disclosure: Disclosure,
) -> Result<Proof, ProveError> {
    settings.validate()?;
    let mut w = witness(settings, statement, signers, disclosure)?;
    let tables = std::mem::take(&mut w.traces.tables);
    let stark = system::prove(settings, &w.instance, tables)?;
    Ok(w.proof(settings, stark))
}

/// A checked witness, its instance and traces.
#[doc(hidden)]
pub struct Witness<S: ParameterSet> {
    /// The instance.
    pub instance: Instance,
    /// The traces.
    pub traces: Traces,
    counter: u32,
    bitmap: Option<Vec<u8>>,
    count: u32,
    _set: core::marker::PhantomData<S>,
}

impl<S: ParameterSet> Witness<S> {
    fn proof(self, settings: &Settings, stark: crate::proof::StarkProof) -> Proof {
        Proof {
            kind: ProofKind::Threshold,
            set_id: S::ID,
            settings: *settings,
            count: self.count,
            counters: if S::MINING_BITS > 0 { vec![self.counter] } else { Vec::new() },
            bitmap: self.bitmap,
            stark,
        }
    }
}

fn witness<S: ParameterSet>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    signers: &[Signer<S>],
    disclosure: Disclosure,
) -> Result<Witness<S>, ProveError> {
    let group = statement.group();
    let message = statement.message();
    let checks: Vec<Result<(), ProveError>> = signers
        .par_iter()
        .enumerate()
        .map(|(index, s)| {
            s.path.verify(group, &s.public_key).map_err(|reason| ProveError::NotAMember { index, reason })?;
            sigagg_lamport::verify(&s.public_key, message, &s.signature)
                .map_err(|reason| ProveError::InvalidSignature { index, reason })
        })
        .collect();
    checks.into_iter().collect::<Result<(), _>>()?;
    let counter = signers.first().map_or(0, |s| s.signature.counter());
    if let Some((index, s)) = signers.iter().enumerate().find(|(_, s)| s.signature.counter() != counter) {
        return Err(ProveError::MixedCounters { index, counter: s.signature.counter(), first: counter });
    }
    let mut order: Vec<&Signer<S>> = signers.iter().collect();
    order.sort_by_key(|s| s.path.index());
    if let Some(pair) = order.windows(2).find(|p| p[0].path.index() == p[1].path.index()) {
        return Err(ProveError::DuplicateSigner { leaf: pair[0].path.index() });
    }
    let count = order.len();
    if count < statement.threshold() as usize {
        return Err(ProveError::ThresholdNotReached { signers: count, threshold: statement.threshold() });
    }
    let max = max_signatures(settings);
    if count > max {
        return Err(StatementError::TooMany { count, max }.into());
    }
    build(settings, statement, &order, counter, disclosure)
}

/// The instance and traces of signers in slot order, without any check
/// (the circuit must reject whatever the native checks would have).
fn build<S: ParameterSet>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    order: &[&Signer<S>],
    counter: u32,
    disclosure: Disclosure,
) -> Result<Witness<S>, ProveError> {
    let group = statement.group();
    let count = order.len();
    if count == 0 {
        return Err(ProveError::ThresholdNotReached { signers: 0, threshold: statement.threshold() });
    }
    let cw = codeword::<S>(statement.message(), counter)
        .map_err(|reason| ProveError::InvalidSignature { index: 0, reason })?
        .bits()
        .to_vec();
    let leaves: Vec<u32> = order.iter().map(|s| s.path.index()).collect();
    let bitmap = (disclosure == Disclosure::Bitmap).then(|| bitmap(group.size(), &leaves));
    let digest = statement.digest(settings, count as u32, counter, bitmap.as_deref());
    let revealed = bitmap.is_some().then_some(leaves.as_slice());
    let instance = Instance::for_settings(settings, |rounds| {
        Instance::threshold(rounds, S::NUM_SUBKEYS, &cw, group, count, revealed, digest)
    });
    let slots: Vec<SlotWitness<'_>> = (0..instance.shape.slots)
        .map(|s| {
            let signer = order[s.min(count - 1)];
            SlotWitness {
                randomizer: *signer.signature.randomizer(),
                elements: signer.signature.elements(),
                bits: &cw,
                leaf: Some((signer.path.index(), signer.path.siblings())),
            }
        })
        .collect();
    let traces = tracing::info_span!("traces").in_scope(|| trace::generate(&instance, &slots));
    Ok(Witness { instance, traces, counter, bitmap, count: count as u32, _set: core::marker::PhantomData })
}

/// The verifier's instance: the count, counter and bitmap the proof
/// carries, checked against the statement.
fn instance<S: ParameterSet>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    proof: &Proof,
) -> Result<Instance, VerifyError> {
    proof.check_header::<S>(ProofKind::Threshold, settings)?;
    let group = statement.group();
    let count = proof.count;
    if count == 0 || count > group.size() || count as usize > max_signatures(settings) {
        return Err(VerifyError::PublicMismatch(format!("count {count} for a group of {}", group.size())));
    }
    if count < statement.threshold() {
        return Err(VerifyError::ThresholdNotReached { count, threshold: statement.threshold() });
    }
    let counter = match (S::MINING_BITS > 0, proof.counters.as_slice()) {
        (true, [c]) => *c,
        (false, []) => 0,
        (_, c) => return Err(VerifyError::PublicMismatch(format!("{} mining counters", c.len()))),
    };
    // Count the set bits before listing them: a bitmap of a huge group
    // with every bit set must cost no more than its own bytes.
    let revealed = match &proof.bitmap {
        None => None,
        Some(b) => {
            let listed: u64 = b.iter().map(|byte| u64::from(byte.count_ones())).sum();
            match (listed == u64::from(count)).then(|| members_of(group.size(), b)).flatten() {
                Some(m) => Some(m),
                None => return Err(VerifyError::PublicMismatch("the bitmap does not list `count` members".into())),
            }
        }
    };
    let cw = codeword::<S>(statement.message(), counter)
        .map_err(|reason| VerifyError::BadCounter { index: 0, reason })?
        .bits()
        .to_vec();
    let digest = statement.digest(settings, count, counter, proof.bitmap.as_deref());
    Ok(Instance::for_settings(settings, |rounds| {
        Instance::threshold(rounds, S::NUM_SUBKEYS, &cw, group, count as usize, revealed.as_deref(), digest)
    }))
}

/// Verifies a threshold proof for `statement` under `settings`: at least
/// `statement.threshold()` distinct members signed. On success,
/// `proof.count` is the proven number of signers and `proof.bitmap`, if
/// present, the proven signer set.
pub fn verify<S: ParameterSet>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    proof: &Proof,
) -> Result<(), VerifyError> {
    settings.validate()?;
    let instance = instance(settings, statement, proof)?;
    system::verify(settings, &instance, &proof.stark)
}

/// Hooks for soundness tests: build traces, tamper with them, prove anyway.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing {
    use super::*;

    /// A checked witness.
    pub fn witness<S: ParameterSet>(
        settings: &Settings,
        statement: &ThresholdStatement<S>,
        signers: &[Signer<S>],
        disclosure: Disclosure,
    ) -> Witness<S> {
        super::witness(settings, statement, signers, disclosure).expect("valid witness")
    }

    /// A witness of `signers` in the given slot order, with no native
    /// check at all (duplicates, outsiders, bad signatures, too few signers
    /// pass): what a cheating prover would build.
    pub fn unchecked_witness<S: ParameterSet>(
        settings: &Settings,
        statement: &ThresholdStatement<S>,
        signers: &[Signer<S>],
        disclosure: Disclosure,
    ) -> Result<Witness<S>, ProveError> {
        let order: Vec<&Signer<S>> = signers.iter().collect();
        let counter = signers.first().map_or(0, |s| s.signature.counter());
        build(settings, statement, &order, counter, disclosure)
    }

    /// Proves (possibly tampered) traces without checking them.
    pub fn prove_witness<S: ParameterSet>(settings: &Settings, mut witness: Witness<S>) -> Result<Proof, ProveError> {
        let tables = std::mem::take(&mut witness.traces.tables);
        let stark = system::prove(settings, &witness.instance, tables)?;
        Ok(witness.proof(settings, stark))
    }
}
