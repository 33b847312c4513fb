//! t-of-n threshold certificates for a committed group of leanSig-family
//! keys: one proof that at least `t` distinct members of a group
//! ([`sigagg_xmss::group::GroupTree`] over the set's keys) signed one
//! message at one epoch (any `u32` for LeanSigProd).
//!
//! The tables are the aggregate's ([`super::aggregate`]) plus Seed001's
//! membership table ([`crate::air::group::GroupAir`], the group's
//! Poseidon2 tree): the statement table pins the shared epoch and message
//! values and takes each slot's key as a witness, which it sends with the
//! member index to the membership table, and proves that indices strictly
//! increase over the `count` real signers ([`crate::air::signers`]).
//! Padded slots repeat the last signer, so non-signers cost nothing.
//!
//! ```no_run
//! use sigagg_xmss::group::GroupTree;
//! use sigagg_xmss::{LeanSigProd, single_epoch_key_and_signature};
//! use sigagg_xmss_agg::leansig::threshold;
//! use sigagg_xmss_agg::threshold::{Disclosure, Signer, ThresholdStatement};
//! use sigagg_xmss_agg::{Named, settings};
//!
//! let (epoch, message) = (1 << 31, [1u8; 32]);
//! let (keys, sigs): (Vec<_>, Vec<_>) = (0..7)
//!     .map(|_| single_epoch_key_and_signature::<LeanSigProd, _>(&mut rand::rng(), epoch, &message).unwrap())
//!     .unzip();
//! let tree = GroupTree::new(keys).unwrap();
//! let statement = ThresholdStatement::<LeanSigProd>::for_set(tree.key(), epoch, message, 5).unwrap();
//! let signers: Vec<Signer<LeanSigProd>> =
//!     (0..5).map(|i| Signer::from_tree(&tree, i, sigs[i as usize].clone()).unwrap()).collect();
//! let settings = settings(Named::WhirSkip);
//! let proof = threshold::prove(&settings, &statement, &signers, Disclosure::Signers).unwrap();
//! let certificate = threshold::verify(&settings, &statement, &proof).unwrap();
//! assert_eq!(certificate.count, 5);
//! ```

use p3_matrix::dense::RowMajorMatrix;
use p3_util::log2_strict_usize;
use rayon::prelude::*;
use sigagg_xmss::group::{GroupKey, MembershipProof, leaf_input};

use super::aggregate::{log_heights, max_signatures, signature_tables, with_sig_air};
use super::air::sig::{SigAir, ThresholdShape};
use super::layout::LeanFamily;
use super::layout::Shape;
use super::slot::{SlotPublic, SlotWitness};
use super::system::{self, LeanAir};
use crate::air::group::{GroupAir, block_rows};
use crate::air::signers;
use crate::config::{Settings, Val};
use crate::error::{ProveError, VerifyError};
use crate::proof::{Proof, ProofKind};
use crate::threshold::{Certificate, Disclosure, Signer, ThresholdStatement, padded};

/// The digest binding the statement and the proof's claims (count,
/// disclosed signers): the transcript seed. The domain and the set's ID
/// keep it apart from Seed001's and from every other set's.
fn digest<S: LeanFamily>(statement: &ThresholdStatement<S>, count: u32, signers: Option<&[u32]>) -> [u8; 32] {
    statement.digest(b"sigagg/xmss-agg/leansig/threshold/statement/v1", Some(S::ID), count, signers)
}

/// The six AIRs of a threshold proof, in batch order: the aggregate's
/// five, the statement table in threshold mode, then the membership table.
fn airs<S: LeanFamily>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    count: u32,
    signers: Option<&[u32]>,
) -> Vec<LeanAir> {
    let padded = padded(count as usize);
    let shape = ThresholdShape {
        shared: SlotPublic::shared::<S>(statement.epoch(), statement.message()),
        padded,
        count: count as usize,
        size: statement.group().size,
        signers,
    };
    let mut airs = with_sig_air::<S>(settings, SigAir::threshold(&shape), padded);
    airs.push(LeanAir::Group(GroupAir::new::<S>(statement.group(), settings.stride())));
    airs
}

/// log2 of the six tables' heights.
fn threshold_log_heights<S: LeanFamily>(padded: usize, group: &GroupKey) -> Vec<usize> {
    let mut heights = log_heights::<S>(padded);
    heights.push(log2_strict_usize(padded * block_rows(group.depth())));
    heights
}

/// Proves that `signers` (at least the statement's threshold of them,
/// distinct members of its group) signed its message at its epoch.
///
/// The signers may come in any order. Every precondition is checked and
/// reported with a typed error naming the offending member: an index
/// outside the group, a key whose path does not reach the group root, the
/// same member twice, too few signers, or an invalid signature.
pub fn prove<S: LeanFamily>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    signers: &[Signer<S>],
    disclosure: Disclosure,
) -> Result<Proof, ProveError> {
    settings.validate()?;
    settings.check_collision_bits(crate::MIN_COLLISION_BITS).map_err(ProveError::UnsupportedMerkleHash)?;
    let count = signers.len();
    if count < statement.threshold() as usize {
        return Err(ProveError::ThresholdNotReached { signers: count, threshold: statement.threshold() });
    }
    if padded(count) > max_signatures::<S>(settings) {
        return Err(ProveError::TooManyForSettings { count, max: max_signatures::<S>(settings) });
    }
    let sorted = statement.checked_signers(signers)?;
    let indices: Vec<u32> = sorted.iter().map(|(_, s)| s.index()).collect();
    let revealed = (disclosure == Disclosure::Signers).then_some(indices);
    let airs = airs(settings, statement, count as u32, revealed.as_deref());
    let ordered: Vec<&Signer<S>> = sorted.iter().map(|&(_, s)| s).collect();
    let traces = tracing::info_span!("generate threshold traces")
        .in_scope(|| generate(&airs, statement, &ordered))
        .map_err(|(at, reason)| ProveError::InvalidSignature { index: sorted[at].0, reason })?;
    let stark =
        system::prove_column_major(settings, &airs, &digest(statement, count as u32, revealed.as_deref()), traces)?;
    Ok(certificate::<S>(settings, (count as u32, revealed), stark))
}

/// The threshold proof of `count` signers (their indices if revealed)
/// made of `stark`.
fn certificate<S: LeanFamily>(
    settings: &Settings,
    (count, revealed): (u32, Option<Vec<u32>>),
    stark: sigagg_prover::StarkProof,
) -> Proof {
    Proof { kind: ProofKind::Threshold, set: S::ID, settings: *settings, count, signers: revealed, stark }
}

/// Proves already generated traces of `count` signers (no validity checks).
#[cfg(any(test, feature = "testing"))]
fn prove_traces<S: LeanFamily>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    airs: &[LeanAir],
    (count, revealed): (u32, Option<Vec<u32>>),
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<Proof, ProveError> {
    let stark = system::prove(settings, airs, &digest(statement, count, revealed.as_deref()), traces)?;
    Ok(certificate::<S>(settings, (count, revealed), stark))
}

/// Every trace, in batch order, column-major (row `c` of each matrix is
/// column `c`), for `signers` sorted by member index;
/// padded slots repeat the last one. Fails with the position (in
/// `signers`) of the first signature that does not verify.
fn generate<S: LeanFamily>(
    airs: &[LeanAir],
    statement: &ThresholdStatement<S>,
    signers: &[&Signer<S>],
) -> Result<Vec<RowMajorMatrix<Val>>, (usize, sigagg_xmss::VerifyError)> {
    let (LeanAir::Sig(sig), Some(LeanAir::Group(group_air))) = (&airs[0], airs.last()) else {
        unreachable!("the statement table first, the membership table last")
    };
    let count = signers.len();
    let mut witnesses: Vec<SlotWitness> = crate::trace::first_error_in_order(
        signers
            .par_iter()
            .enumerate()
            .map(|(k, s)| SlotWitness::unwalked(&statement.entry(s), &s.signature).map_err(|e| (k, e))),
    )?;
    let n = padded(count);
    let tables = signature_tables(airs, &mut witnesses, n, Shape::of::<S>())?;
    let at = |s: usize| s.min(count - 1);
    let indices: Vec<u32> = (0..n).map(|s| signers[at(s)].index()).collect();
    let gaps = signers::gaps(&indices, count, statement.group().size);
    let publics: Vec<&SlotPublic> = (0..n).map(|s| &witnesses[at(s)].public).collect();
    let sig_trace = sig.threshold_trace(&publics, &indices, &gaps);
    let mut range_values = tables.range_values;
    range_values.extend(signers::gap_range_values(&gaps));
    let members: Vec<([Val; 24], &MembershipProof)> =
        (0..n).map(|s| (leaf_input(&signers[at(s)].public_key), &signers[at(s)].path)).collect();
    let group_trace = crate::trace::group_trace(group_air, statement.group(), &members);
    let range = crate::trace::range_trace(&range_values);
    Ok(vec![
        sig_trace.transpose(),
        tables.digits,
        tables.chain,
        tables.hash,
        range.transpose(),
        group_trace.transpose(),
    ])
}

/// Verifies a threshold proof for `statement` under `settings`; on success
/// returns what it certifies.
pub fn verify<S: LeanFamily>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    proof: &Proof,
) -> Result<Certificate, VerifyError> {
    settings.validate()?;
    settings.check_collision_bits(crate::MIN_COLLISION_BITS).map_err(VerifyError::UnsupportedMerkleHash)?;
    proof.check_header(ProofKind::Threshold, S::ID, settings)?;
    statement.check_claims(proof, max_signatures::<S>(settings))?;
    let digest = digest(statement, proof.count, proof.signers.as_deref());
    let airs = airs(settings, statement, proof.count, proof.signers.as_deref());
    let expected = threshold_log_heights::<S>(padded(proof.count as usize), statement.group());
    system::verify(settings, &airs, expected, &digest, &proof.stark)?;
    Ok(Certificate { count: proof.count, signers: proof.signers.clone() })
}

/// What a verifier circuit reads of a threshold proof of `statement` whose
/// header claims `count` signers (and, disclosed, `signers`): its six
/// tables in batch order, their heights (log2) and its transcript's seed,
/// those [`verify`] checks a proof against.
///
/// # Errors
/// Claims [`verify`] refuses before any proof.
pub fn verifier_view<S: LeanFamily>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    count: u32,
    signers: Option<&[u32]>,
) -> Result<crate::VerifierView<LeanAir>, VerifyError> {
    statement.check_certificate(count, signers, max_signatures::<S>(settings))?;
    let digest = digest(statement, count, signers);
    let airs = airs(settings, statement, count, signers);
    let heights = threshold_log_heights::<S>(padded(count as usize), statement.group());
    let seed = system::tables(&airs, heights.clone(), &digest).transcript_seed(settings);
    Ok((airs, heights, seed))
}

/// The security level of `settings` for a threshold proof of `S` with
/// `count` signers in a group of `group_size`, computed from the tables.
pub fn security_level<S: LeanFamily>(
    settings: &Settings,
    count: usize,
    group_size: u32,
) -> sigagg_prover::SecurityLevel {
    let group = GroupKey { root: Default::default(), size: group_size.max(1) };
    let statement = ThresholdStatement::<S>::for_set(group, 0, [0; 32], 1).expect("a valid placeholder statement");
    let count = count.max(1) as u32;
    let airs = airs(settings, &statement, count, None);
    let heights = threshold_log_heights::<S>(padded(count as usize), &group);
    system::security_level(settings, &airs, heights)
}

/// Hooks for soundness tests: build traces, tamper with them, prove anyway.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing {
    use super::*;

    /// The traces of valid signers, sorted by member index, in batch order.
    pub fn traces<S: LeanFamily>(
        settings: &Settings,
        statement: &ThresholdStatement<S>,
        signers: &[Signer<S>],
        disclosure: Disclosure,
    ) -> Vec<RowMajorMatrix<Val>> {
        let indices: Vec<u32> = signers.iter().map(Signer::index).collect();
        let revealed = (disclosure == Disclosure::Signers).then_some(indices);
        let airs = airs(settings, statement, signers.len() as u32, revealed.as_deref());
        let ordered: Vec<&Signer<S>> = signers.iter().collect();
        let columns = generate(&airs, statement, &ordered).expect("valid signers");
        columns.iter().map(RowMajorMatrix::transpose).collect()
    }

    /// Proves (possibly tampered) traces of `count` signers without
    /// checking them first.
    pub fn prove_traces<S: LeanFamily>(
        settings: &Settings,
        statement: &ThresholdStatement<S>,
        count: u32,
        revealed: Option<Vec<u32>>,
        traces: Vec<RowMajorMatrix<Val>>,
    ) -> Result<Proof, ProveError> {
        let airs = airs(settings, statement, count, revealed.as_deref());
        super::prove_traces(settings, statement, &airs, (count, revealed), traces)
    }
}
