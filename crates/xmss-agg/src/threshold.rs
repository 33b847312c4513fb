//! t-of-n threshold certificates for a committed validator set: one STARK
//! proof that at least `t` distinct members of a group (a Merkle root over
//! their Seed001 keys, see [`sigagg_xmss::group`]) signed one message at one epoch.
//! It is the post-quantum form of an ATMS certificate (seed 000, section
//! 2.1): every signature verifies, every signer key has a path to the group
//! root at its index, the indices strictly increase (so nobody counts
//! twice) and there are `count >= t` of them.
//!
//! The proof reveals `count` and, if the prover chooses
//! [`Disclosure::Signers`], the signers' indices (a bitmap). Non-signers cost
//! nothing: the circuit has one slot per signer, padded to a power of two.
//!
//! ```no_run
//! use sigagg_xmss::group::GroupTree;
//! use sigagg_xmss_agg::threshold::{self, Disclosure, Signer, ThresholdStatement};
//! use sigagg_xmss_agg::{Named, settings};
//! use sigagg_xmss::{Seed001, single_epoch_key_and_signature};
//!
//! let (epoch, message) = (5, [1u8; 32]);
//! let (keys, sigs): (Vec<_>, Vec<_>) = (0..7)
//!     .map(|_| single_epoch_key_and_signature::<Seed001, _>(&mut rand::rng(), epoch, &message).unwrap())
//!     .unzip();
//! let tree = GroupTree::new(keys).unwrap();
//! let statement = ThresholdStatement::new(tree.key(), epoch, message, 5).unwrap();
//! let signers: Vec<Signer> = (0..5).map(|i| Signer::from_tree(&tree, i, sigs[i as usize].clone()).unwrap()).collect();
//! let fast = settings(Named::Fast);
//! let proof = threshold::prove(&fast, &statement, &signers, Disclosure::Signers).unwrap();
//! let certificate = threshold::verify(&fast, &statement, &proof).unwrap();
//! assert_eq!(certificate.count, 5);
//! ```

use core::marker::PhantomData;

use sha3::{Digest, Sha3_256};
use sigagg_xmss::{ParameterSet, PublicKey, Seed001, Signature};

use crate::scheme::AggScheme;

use crate::air::group::GroupAir;
use crate::air::sig::{SigAir, ThresholdShape};
use crate::air::{AggAir, digits::DigitAir, range::RangeAir};
use crate::config::Settings;
use crate::error::{ProveError, StatementError, VerifyError};
use crate::proof::{Proof, ProofKind};
use crate::statement::{AggregateEntry, MIN_PADDED, SlotPublic, max_signatures};
use crate::{system, trace};
use sigagg_xmss::group::{GroupError, GroupKey, GroupTree, MAX_GROUP_DEPTH, MembershipProof, depth_for};

/// What a threshold certificate claims: at least `threshold` members of
/// `group` signed `message` at `epoch`, with keys of the parameter set `S`
/// (Seed001 unless named; the leanSig sets are proven by
/// [`crate::leansig::threshold`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThresholdStatement<S: AggScheme = Seed001> {
    group: GroupKey,
    epoch: u32,
    message: [u8; 32],
    threshold: u32,
    set: PhantomData<S>,
}

impl ThresholdStatement<Seed001> {
    /// A Seed001 statement ([`Self::for_set`]); the set is Seed001 so that
    /// `ThresholdStatement::new` names a type.
    pub fn new(group: GroupKey, epoch: u32, message: [u8; 32], threshold: u32) -> Result<Self, StatementError> {
        Self::for_set(group, epoch, message, threshold)
    }
}

impl<S: AggScheme> ThresholdStatement<S> {
    /// Checks `1 <= threshold <= group.size`, that the group is at most
    /// [`sigagg_xmss::group::MAX_GROUP_DEPTH`] levels deep (its fields are public,
    /// so a key need not come from [`GroupKey::from_bytes`]) and that the
    /// epoch is inside the set's lifetime (every `u32` for LeanSigProd).
    pub fn for_set(group: GroupKey, epoch: u32, message: [u8; 32], threshold: u32) -> Result<Self, StatementError> {
        if threshold == 0 || threshold > group.size {
            return Err(StatementError::ThresholdOutOfRange { threshold, size: group.size });
        }
        if depth_for(group.size as usize) > MAX_GROUP_DEPTH {
            return Err(StatementError::GroupTooLarge { size: group.size, max_depth: MAX_GROUP_DEPTH });
        }
        if u64::from(epoch) >= S::lifetime() {
            return Err(StatementError::EpochOutOfRange { index: 0, epoch });
        }
        Ok(Self { group, epoch, message, threshold, set: PhantomData })
    }

    /// The group key.
    pub fn group(&self) -> &GroupKey {
        &self.group
    }

    /// The epoch every member signed at.
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// The signed message.
    pub fn message(&self) -> &[u8; 32] {
        &self.message
    }

    /// The required number of signers.
    pub fn threshold(&self) -> u32 {
        self.threshold
    }

    /// The digest of the statement and the proof's claims (`count`, the
    /// disclosed `signers`) under `domain`, then the set's tag if any:
    /// what seeds the transcript.
    pub(crate) fn digest(&self, domain: &[u8], set: Option<u8>, count: u32, signers: Option<&[u32]>) -> [u8; 32] {
        let mut h = Sha3_256::new();
        h.update(domain);
        if let Some(set) = set {
            h.update([set]);
        }
        h.update(self.group.to_bytes());
        h.update(self.epoch.to_le_bytes());
        h.update(self.message);
        h.update(count.to_le_bytes());
        match signers {
            None => h.update([0]),
            Some(list) => {
                h.update([1]);
                list.iter().for_each(|i| h.update(i.to_le_bytes()));
            }
        }
        h.finalize().into()
    }

    /// Signer `s`'s entry: its key, the shared epoch and message.
    pub(crate) fn entry(&self, s: &Signer<S>) -> AggregateEntry<S> {
        AggregateEntry { public_key: s.public_key, epoch: self.epoch, message: self.message }
    }

    /// The signers with their positions in the caller's list, sorted by
    /// member index, once every one is a distinct member of the group.
    pub(crate) fn checked_signers<'a>(
        &self,
        signers: &'a [Signer<S>],
    ) -> Result<Vec<(usize, &'a Signer<S>)>, ProveError> {
        let mut sorted: Vec<(usize, &Signer<S>)> = signers.iter().enumerate().collect();
        sorted.sort_by_key(|(_, s)| s.index());
        if let Some(pair) = sorted.windows(2).find(|w| w[0].1.index() == w[1].1.index()) {
            return Err(ProveError::DuplicateSigner { leaf: pair[0].1.index() });
        }
        for &(index, s) in &sorted {
            s.path.verify(&self.group, &s.public_key).map_err(|reason| ProveError::NotAMember { index, reason })?;
        }
        Ok(sorted)
    }

    /// The header checks every verifier makes before the STARK: the
    /// count reaches the threshold and fits the group and the settings,
    /// and disclosed signers are `count` ascending members.
    pub(crate) fn check_claims(&self, proof: &Proof, max: usize) -> Result<(), VerifyError> {
        self.check_certificate(proof.count, proof.signers.as_deref(), max)
    }

    /// [`Self::check_claims`] of a proof claiming `count` signers and,
    /// disclosed, `signers`.
    pub(crate) fn check_certificate(&self, count: u32, signers: Option<&[u32]>, max: usize) -> Result<(), VerifyError> {
        let size = self.group.size;
        if count < self.threshold {
            return Err(VerifyError::ThresholdNotReached { count, threshold: self.threshold });
        }
        if count > size {
            return Err(VerifyError::PublicMismatch(format!("{count} signers in a group of {size}")));
        }
        if padded(count as usize) > max {
            return Err(VerifyError::TooManyForSettings { count: count as usize, max });
        }
        if let Some(list) = signers {
            let ascending = list.windows(2).all(|w| w[0] < w[1]);
            if list.len() != count as usize || !ascending || list.last().is_some_and(|&i| i >= size) {
                return Err(VerifyError::PublicMismatch(
                    "the disclosed signers are not `count` ascending indices inside the group".into(),
                ));
            }
        }
        Ok(())
    }
}

/// One signer's witness: key, group path and signature (Seed001 unless
/// named).
#[derive(Clone, Debug)]
pub struct Signer<S: AggScheme = Seed001> {
    /// The member's public key.
    pub public_key: PublicKey<S>,
    /// Its path in the group tree (holds its index).
    pub path: MembershipProof,
    /// Its signature on the statement's message and epoch.
    pub signature: Signature<S>,
}

impl<S: AggScheme> Signer<S> {
    /// Member `index` of `tree`, with its signature.
    pub fn from_tree(tree: &GroupTree<S>, index: u32, signature: Signature<S>) -> Result<Self, GroupError> {
        let path = tree.prove(index)?;
        let public_key = *tree.member(index).expect("path exists, so the member does");
        Ok(Self { public_key, path, signature })
    }

    /// The member index.
    pub fn index(&self) -> u32 {
        self.path.index()
    }
}

/// What the proof discloses beyond the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disclosure {
    /// Only the number of signers.
    CountOnly,
    /// The number of signers and their indices.
    Signers,
}

/// What a verified threshold proof establishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// Number of distinct members that signed (at least the threshold).
    pub count: u32,
    /// Their indices, if the proof discloses them.
    pub signers: Option<Vec<u32>>,
}

impl Certificate {
    /// The signer bitmap (bit `i` of byte `i / 8`, least significant first)
    /// over a group of `size` members, if the signers are disclosed and
    /// every one is below `size` (a verified certificate's always are).
    pub fn bitmap(&self, size: u32) -> Option<Vec<u8>> {
        let signers = self.signers.as_ref()?;
        let mut bits = vec![0u8; (size as usize).div_ceil(8)];
        for &i in signers {
            if i >= size {
                return None;
            }
            bits[i as usize / 8] |= 1 << (i % 8);
        }
        Some(bits)
    }
}

/// Circuit slots for `count` signers.
pub(crate) fn padded(count: usize) -> usize {
    count.next_power_of_two().max(MIN_PADDED)
}

/// The digest binding everything the verifier's periodic columns and AIR
/// constants encode, and the proof's claims (count, disclosed signers):
/// the transcript seed ([`crate::transcript_seed`]).
fn digest(statement: &ThresholdStatement, count: u32, signers: Option<&[u32]>) -> [u8; 32] {
    statement.digest(b"sigagg/xmss-threshold/statement/v1", None, count, signers)
}

/// The six AIRs of a threshold proof, in batch order.
fn airs(settings: &Settings, statement: &ThresholdStatement, count: u32, signers: Option<&[u32]>) -> Vec<AggAir> {
    let shape = ThresholdShape {
        shared: SlotPublic::shared(statement.epoch, &statement.message),
        padded: padded(count as usize),
        count: count as usize,
        size: statement.group.size,
        signers,
    };
    let (chain, hash) = crate::air::poseidon_airs(settings, None);
    vec![
        AggAir::Sig(SigAir::threshold(&shape)),
        AggAir::Digits(DigitAir::new()),
        AggAir::Chain(chain),
        AggAir::Hash(hash),
        AggAir::Range(RangeAir),
        AggAir::Group(GroupAir::new::<Seed001>(&statement.group, settings.stride())),
    ]
}

/// Proves that `signers` (at least the statement's threshold of them,
/// distinct members of its group) signed its message at its epoch.
///
/// The signers may come in any order. Every precondition is checked and
/// reported with a typed error naming the offending member: an index
/// outside the group, a key whose path does not reach the group root, the
/// same member twice, too few signers, or an invalid signature.
pub fn prove(
    settings: &Settings,
    statement: &ThresholdStatement,
    signers: &[Signer],
    disclosure: Disclosure,
) -> Result<Proof, ProveError> {
    settings.validate()?;
    settings.check_collision_bits(crate::MIN_COLLISION_BITS).map_err(ProveError::UnsupportedMerkleHash)?;
    let count = signers.len();
    if count < statement.threshold as usize {
        return Err(ProveError::ThresholdNotReached { signers: count, threshold: statement.threshold });
    }
    if padded(count) > max_signatures(settings) {
        return Err(ProveError::TooManyForSettings { count, max: max_signatures(settings) });
    }
    let sorted = statement.checked_signers(signers)?;
    let witness: Vec<trace::Signer<'_>> = sorted.iter().map(|&(_, s)| witness_signer(statement, s)).collect();
    let traces = tracing::info_span!("generate threshold traces")
        .in_scope(|| trace::generate_threshold(settings, &statement.group, &witness, padded(count)))
        .map_err(|(at, reason)| ProveError::InvalidSignature { index: sorted[at].0, reason })?;
    let indices: Vec<u32> = sorted.iter().map(|(_, s)| s.index()).collect();
    let revealed = (disclosure == Disclosure::Signers).then_some(indices);
    let airs = airs(settings, statement, count as u32, revealed.as_deref());
    let digest = digest(statement, count as u32, revealed.as_deref());
    let stark = system::prove_airs(settings, &digest, &airs, traces).map_err(ProveError::Prover)?;
    Ok(Proof {
        kind: ProofKind::Threshold,
        set: Seed001::ID,
        settings: *settings,
        count: count as u32,
        signers: revealed,
        stark,
    })
}

/// A signer as the trace generator takes it: its entry is the statement's
/// epoch and message under its own key.
fn witness_signer<'a>(statement: &ThresholdStatement, s: &'a Signer) -> trace::Signer<'a> {
    trace::Signer { entry: statement.entry(s), signature: &s.signature, path: &s.path }
}

/// Verifies a threshold proof for `statement` under `settings`; on success
/// returns what it certifies.
pub fn verify(settings: &Settings, statement: &ThresholdStatement, proof: &Proof) -> Result<Certificate, VerifyError> {
    settings.validate()?;
    settings.check_collision_bits(crate::MIN_COLLISION_BITS).map_err(VerifyError::UnsupportedMerkleHash)?;
    proof.check_header(ProofKind::Threshold, Seed001::ID, settings)?;
    statement.check_claims(proof, max_signatures(settings))?;
    let count = proof.count;
    let digest = digest(statement, count, proof.signers.as_deref());
    verify_stark(settings, statement, proof, &digest)?;
    Ok(Certificate { count, signers: proof.signers.clone() })
}

/// The STARK check of a threshold proof whose header has been checked, with
/// the transcript seeded by `digest` (the statement's and the proof's
/// claims', [`crate::transcript_seed`]).
fn verify_stark(
    settings: &Settings,
    statement: &ThresholdStatement,
    proof: &Proof,
    digest: &[u8; 32],
) -> Result<(), VerifyError> {
    let expected = trace::threshold_log_heights(settings, padded(proof.count as usize), &statement.group);
    let airs = airs(settings, statement, proof.count, proof.signers.as_deref());
    system::verify_airs(settings, digest, &airs, &proof.stark, &expected)
}

/// What a verifier circuit reads of a threshold proof of `statement` whose
/// header claims `count` signers (and, disclosed, `signers`): its six
/// tables in batch order, their heights (log2) and its transcript's seed,
/// those [`verify`] checks a proof against.
///
/// # Errors
/// Claims [`verify`] refuses before any proof: a count below the
/// threshold or above the group or the settings, disclosed signers that
/// are not `count` ascending members.
pub fn verifier_view(
    settings: &Settings,
    statement: &ThresholdStatement,
    count: u32,
    signers: Option<&[u32]>,
) -> Result<crate::VerifierView<AggAir>, VerifyError> {
    statement.check_certificate(count, signers, max_signatures(settings))?;
    let digest = digest(statement, count, signers);
    Ok((
        airs(settings, statement, count, signers),
        trace::threshold_log_heights(settings, padded(count as usize), &statement.group),
        system::transcript_seed(settings, &digest),
    ))
}

/// The security level of `settings` for a threshold proof with `count`
/// signers in a group of `group_size`.
pub fn security_level(settings: &Settings, count: usize, group_size: u32) -> crate::security::SecurityLevel {
    let group = GroupKey { root: [Default::default(); sigagg_xmss::group::GROUP_DIGEST], size: group_size.max(1) };
    let statement = ThresholdStatement { group, epoch: 0, message: [0; 32], threshold: 1, set: PhantomData };
    let count = count.max(1) as u32;
    let airs = airs(settings, &statement, count, None);
    let heights = trace::threshold_log_heights(settings, padded(count as usize), &group);
    sigagg_prover::security_level(settings, &system::tables(&airs, heights, &[0; 32]))
}

/// Hooks for soundness tests.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing {
    use super::*;

    /// The traces of valid, sorted signers under `settings`.
    pub fn traces(settings: &Settings, statement: &ThresholdStatement, signers: &[Signer]) -> trace::Traces {
        let witness: Vec<trace::Signer<'_>> = signers.iter().map(|s| witness_signer(statement, s)).collect();
        trace::generate_threshold(settings, &statement.group, &witness, padded(signers.len())).expect("valid signers")
    }

    /// Proves (possibly tampered) traces without checking them, claiming
    /// `count` signers and the given disclosure.
    pub fn prove_traces(
        settings: &Settings,
        statement: &ThresholdStatement,
        count: u32,
        signers: Option<Vec<u32>>,
        traces: &trace::Traces,
    ) -> Result<Proof, String> {
        let airs = airs(settings, statement, count, signers.as_deref());
        let stark = system::prove_airs(settings, &digest(statement, count, signers.as_deref()), &airs, traces.clone())?;
        Ok(Proof { kind: ProofKind::Threshold, set: Seed001::ID, settings: *settings, count, signers, stark })
    }

    /// The STARK check of `proof` (whose header must be valid for
    /// `statement`) with the transcript seeded by `digest` instead of the
    /// statement's own: for testing that verification depends on the seed.
    pub fn verify_seeded(
        settings: &Settings,
        statement: &ThresholdStatement,
        proof: &Proof,
        digest: &[u8; 32],
    ) -> Result<(), VerifyError> {
        verify_stark(settings, statement, proof, digest)
    }

    /// The digest that seeds the transcript of a proof of `count` signers
    /// (and the disclosed `signers`) for `statement`.
    pub fn statement_digest(statement: &ThresholdStatement, count: u32, signers: Option<&[u32]>) -> [u8; 32] {
        digest(statement, count, signers)
    }

    /// The verifier's lookups and Plonky3's own, serialized (see
    /// [`crate::testing::lookups_both_ways`]).
    pub fn lookups_both_ways(settings: &Settings, statement: &ThresholdStatement, count: u32) -> (Vec<u8>, Vec<u8>) {
        let (airs, heights) = statement_shape(settings, statement, count);
        sigagg_prover::testing::lookups_both_ways(settings, &system::tables(&airs, heights, &[0; 32]))
    }

    /// log2 of every table's quotient-chunk count, from the declared
    /// degrees and from Plonky3's symbolic inference.
    pub fn quotient_chunks_both_ways(
        settings: &Settings,
        statement: &ThresholdStatement,
        count: u32,
    ) -> (Vec<usize>, Vec<usize>) {
        let (airs, heights) = statement_shape(settings, statement, count);
        sigagg_prover::testing::quotient_chunks_both_ways(settings, &system::tables(&airs, heights, &[0; 32]))
    }

    /// The AIRs and log2 table heights of a proof of `count` undisclosed
    /// signers for `statement`.
    fn statement_shape(settings: &Settings, statement: &ThresholdStatement, count: u32) -> (Vec<AggAir>, Vec<usize>) {
        let heights = trace::threshold_log_heights(settings, padded(count as usize), &statement.group);
        (airs(settings, statement, count, None), heights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table of aggregates (both width-24 layouts of the multilinear
    /// backend: below and from `air::WHIR_HASH_ROUNDS_FROM` slots) and of
    /// thresholds, under every named setting, declares every column whose
    /// next row its constraints or bus messages read: a column left out
    /// would be opened at the current row only, leaving those reads unbound.
    #[test]
    fn next_row_declarations_cover_every_read() {
        let group = GroupKey { root: [Default::default(); sigagg_xmss::group::GROUP_DIGEST], size: 5 };
        let statement = ThresholdStatement { group, epoch: 0, message: [0; 32], threshold: 1, set: PhantomData };
        for settings in [Settings::FAST, Settings::COMPACT, Settings::WHIR, Settings::WHIR_COMPACT, Settings::WHIR_SKIP]
        {
            let all = [
                crate::aggregate::airs_for_shape(&settings, 16),
                crate::aggregate::airs_for_shape(&settings, crate::air::WHIR_HASH_ROUNDS_FROM),
                airs(&settings, &statement, 3, Some(&[0, 2, 4])),
            ];
            for airs in &all {
                for air in airs {
                    let missing = sigagg_prover::next_row::undeclared_next_row_reads(air);
                    assert!(
                        missing.is_empty(),
                        "{}: {air:?} reads undeclared next-row columns {missing:?}",
                        settings.backend().name()
                    );
                }
            }
        }
    }

    /// Under the FRI settings every table's lookups, of aggregates and of
    /// thresholds, compile to a `LookupProgram`, so the FRI prover's
    /// quotient evaluates their LogUp constraints from it rather than
    /// falling back to Plonky3's gadget.
    #[test]
    fn lookups_compile_for_the_fri_quotient() {
        let group = GroupKey { root: [Default::default(); sigagg_xmss::group::GROUP_DIGEST], size: 5 };
        let statement = ThresholdStatement { group, epoch: 0, message: [0; 32], threshold: 1, set: PhantomData };
        for settings in [Settings::FAST, Settings::COMPACT] {
            for airs in
                [crate::aggregate::airs_for_shape(&settings, 16), airs(&settings, &statement, 3, Some(&[0, 2, 4]))]
            {
                for (air, lookups) in airs.iter().zip(<AggAir as sigagg_prover::Table>::lookups(&airs)) {
                    assert!(sigagg_prover::messages::LookupProgram::new(&lookups).is_some(), "{air:?}");
                }
            }
        }
    }
}
