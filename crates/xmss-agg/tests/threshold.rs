//! End-to-end tests of XMSS threshold certificates: valid t-of-n proofs at
//! n = 1, 3, 7, 127 verify; too few signers, outsiders, a signer counted
//! twice, a signature on another message, a forged count or signer list,
//! tampered proofs and per-table trace corruptions are all rejected.
//!
//! Proofs use `Settings::INSECURE_TEST` and its multilinear counterpart
//! `Settings::INSECURE_TEST_WHIR` to keep the suite fast; the tests that
//! prove valid, forged, flipped and tampered proofs run on both backends.

use p3_field::PrimeCharacteristicRing;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use sigagg_xmss::group::{GroupError, GroupKey, GroupTree, MembershipProof};
use sigagg_xmss::{PublicKey, Seed001, Signature, single_epoch_key_and_signature};
use sigagg_xmss_agg::config::Val;
use sigagg_xmss_agg::threshold::{
    Disclosure, Signer, ThresholdStatement, prove as prove_threshold, testing, verify as verify_threshold,
};
use sigagg_xmss_agg::{Proof, ProveError, Settings, StatementError, VerifyError};

const SETTINGS: Settings = Settings::INSECURE_TEST;

/// The bytes the former `ThresholdProof { settings, count, signers, proof }`
/// wrote (encoding version 13): the merged `Proof` keeps them.
fn legacy_threshold_bytes(proof: &Proof) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct ThresholdProof<'a> {
        settings: &'a Settings,
        count: u32,
        signers: &'a Option<Vec<u32>>,
        proof: &'a sigagg_xmss_agg::proof::StarkProof,
    }
    let legacy =
        ThresholdProof { settings: &proof.settings, count: proof.count, signers: &proof.signers, proof: &proof.stark };
    sigagg_xmss_agg::codec::encode(sigagg_xmss_agg::proof::THRESHOLD_PROOF_MAGIC, 13, &legacy)
}
/// The insecure settings at rate 1/8: Poseidon2 tables in the paired layout.
const PAIRED: Settings = Settings::INSECURE_TEST_COMPACT;
/// The insecure multilinear (WHIR) settings.
const WHIR: Settings = Settings::INSECURE_TEST_WHIR;
/// Our own multilinear prover's insecure settings.
const SKIP: Settings = Settings::INSECURE_TEST_SKIP;
/// One setting per backend.
const BACKENDS: [Settings; 3] = [SETTINGS, WHIR, SKIP];
const EPOCH: u32 = 127 * 2000 + 3;

/// A group of `n` members who all signed `message` at [`EPOCH`].
struct Group {
    tree: GroupTree,
    message: [u8; 32],
    sigs: Vec<Signature<Seed001>>,
}

impl Group {
    fn new(seed: u64, n: usize) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let message: [u8; 32] = rng.random();
        let (keys, sigs): (Vec<PublicKey<Seed001>>, Vec<_>) =
            (0..n).map(|_| single_epoch_key_and_signature::<Seed001, _>(&mut rng, EPOCH, &message).unwrap()).unzip();
        Self { tree: GroupTree::new(keys).unwrap(), message, sigs }
    }

    /// An aggregate statement over the group's first member (for kind checks).
    fn aggregate_statement(&self) -> sigagg_xmss_agg::AggregateStatement {
        let entry = sigagg_xmss_agg::AggregateEntry {
            public_key: *self.tree.member(0).unwrap(),
            epoch: EPOCH,
            message: self.message,
        };
        sigagg_xmss_agg::AggregateStatement::new(vec![entry]).unwrap()
    }

    fn statement(&self, t: u32) -> ThresholdStatement {
        ThresholdStatement::new(self.tree.key(), EPOCH, self.message, t).unwrap()
    }

    fn signer(&self, index: u32) -> Signer {
        Signer::from_tree(&self.tree, index, self.sigs[index as usize].clone()).unwrap()
    }

    fn signers(&self, indices: &[u32]) -> Vec<Signer> {
        indices.iter().map(|&i| self.signer(i)).collect()
    }
}

#[test]
fn valid_thresholds_prove_and_verify() {
    for settings in BACKENDS {
        valid_thresholds_prove_and_verify_by(&settings);
    }
}

fn valid_thresholds_prove_and_verify_by(settings: &Settings) {
    // (n, t, signers) with signers in arbitrary order.
    let cases: Vec<(usize, u32, Vec<u32>)> = vec![
        (1, 1, vec![0]),
        (3, 2, vec![2, 0]),
        (7, 5, vec![6, 1, 3, 0, 4, 5]),
        (127, 85, {
            let mut v: Vec<u32> = (0..127).collect();
            v.shuffle(&mut StdRng::seed_from_u64(9));
            v.truncate(90);
            v
        }),
    ];
    for (n, t, indices) in cases {
        let group = Group::new(n as u64, n);
        let statement = group.statement(t);
        let signers = group.signers(&indices);
        let mut sorted = indices.clone();
        sorted.sort();
        for disclosure in [Disclosure::Signers, Disclosure::CountOnly] {
            if n == 127 && disclosure == Disclosure::CountOnly {
                continue; // one large proof is enough
            }
            let proof = prove_threshold(settings, &statement, &signers, disclosure).unwrap();
            let bytes = proof.to_bytes();
            let decoded = Proof::from_bytes(&bytes).unwrap();
            assert_eq!(decoded.to_bytes(), bytes, "serialization is canonical");
            assert_eq!(bytes, legacy_threshold_bytes(&proof), "the encoding of the former ThresholdProof");
            assert!(matches!(
                sigagg_xmss_agg::aggregate::verify(settings, &group.aggregate_statement(), &decoded),
                Err(VerifyError::WrongKind { expected: "aggregate", found: "threshold" })
            ));
            let cert = verify_threshold(settings, &statement, &decoded).unwrap_or_else(|e| panic!("n = {n}: {e}"));
            assert_eq!(cert.count as usize, indices.len());
            match disclosure {
                Disclosure::Signers => {
                    assert_eq!(cert.signers.as_deref(), Some(sorted.as_slice()));
                    let bitmap = cert.bitmap(n as u32).unwrap();
                    let last = *sorted.last().unwrap();
                    assert_eq!(cert.bitmap(last), None, "a size below a signer's index");
                    for i in 0..n as u32 {
                        let set = bitmap[i as usize / 8] >> (i % 8) & 1 == 1;
                        assert_eq!(set, sorted.contains(&i));
                    }
                }
                Disclosure::CountOnly => assert_eq!(cert.signers, None),
            }
        }
    }
}

#[test]
fn too_few_signers_are_refused_and_rejected() {
    let group = Group::new(20, 7);
    let signers = group.signers(&[0, 1, 2]);
    let err = prove_threshold(&SETTINGS, &group.statement(4), &signers, Disclosure::CountOnly).unwrap_err();
    assert_eq!(err, ProveError::ThresholdNotReached { signers: 3, threshold: 4 });
    // A valid 3-signer proof does not certify a threshold of 4.
    let proof = prove_threshold(&SETTINGS, &group.statement(3), &signers, Disclosure::CountOnly).unwrap();
    assert_eq!(
        verify_threshold(&SETTINGS, &group.statement(4), &proof).unwrap_err(),
        VerifyError::ThresholdNotReached { count: 3, threshold: 4 }
    );
    // ... but it does certify any lower one.
    verify_threshold(&SETTINGS, &group.statement(2), &proof).unwrap();
}

/// Verification depends on the transcript seed: the same proof and
/// statement are rejected when the transcript starts from another
/// statement's digest (another message, another count, no disclosure).
/// Plonky3 binds no periodic column or AIR constant, so without the seed
/// every challenge would be the same whatever the statement.
#[test]
fn the_transcript_binds_the_statement() {
    let group = Group::new(25, 3);
    let statement = group.statement(2);
    let proof = prove_threshold(&SETTINGS, &statement, &group.signers(&[0, 2]), Disclosure::Signers).unwrap();
    let own = testing::statement_digest(&statement, 2, Some(&[0, 2]));
    testing::verify_seeded(&SETTINGS, &statement, &proof, &own).unwrap();
    let mut message = group.message;
    message[0] ^= 1;
    let other = ThresholdStatement::new(group.tree.key(), EPOCH, message, 2).unwrap();
    let others = [
        testing::statement_digest(&other, 2, Some(&[0, 2])),
        testing::statement_digest(&statement, 3, Some(&[0, 2])),
        testing::statement_digest(&statement, 2, Some(&[0, 1])),
        testing::statement_digest(&statement, 2, None),
    ];
    for digest in others {
        assert_ne!(digest, own);
        assert!(matches!(testing::verify_seeded(&SETTINGS, &statement, &proof, &digest), Err(VerifyError::Invalid(_))));
    }
}

#[test]
fn invalid_statements_are_typed_errors() {
    let group = Group::new(21, 3);
    let key = group.tree.key();
    assert_eq!(
        ThresholdStatement::new(key, EPOCH, group.message, 0),
        Err(StatementError::ThresholdOutOfRange { threshold: 0, size: 3 })
    );
    assert!(ThresholdStatement::new(key, EPOCH, group.message, 4).is_err());
    assert!(ThresholdStatement::new(key, 1 << 20, group.message, 1).is_err());
    // A key built by hand (its fields are public) deeper than the circuit allows.
    let huge = GroupKey { root: key.root, size: (1 << 29) + 1 };
    assert_eq!(
        ThresholdStatement::new(huge, EPOCH, group.message, 1),
        Err(StatementError::GroupTooLarge { size: (1 << 29) + 1, max_depth: 29 })
    );
}

#[test]
fn outsiders_are_refused() {
    let group = Group::new(30, 7);
    let statement = group.statement(2);
    let outsider = Group::new(31, 1);
    // An outsider's key with a member's path.
    let mut signers = group.signers(&[0, 1]);
    signers[1].public_key = *outsider.tree.member(0).unwrap();
    signers[1].signature = outsider.sigs[0].clone();
    assert!(matches!(
        prove_threshold(&SETTINGS, &statement, &signers, Disclosure::Signers),
        Err(ProveError::NotAMember { index: 1, .. })
    ));
    // An index past the group (errors name the signer's place in the
    // caller's list, here the first).
    let mut signers = group.signers(&[1, 0]);
    signers[0].path = MembershipProof::new(7, signers[0].path.siblings().to_vec());
    assert!(matches!(
        prove_threshold(&SETTINGS, &statement, &signers, Disclosure::Signers),
        Err(ProveError::NotAMember { index: 0, reason: GroupError::IndexOutOfRange { .. } })
    ));
    // A member's key and path under another index.
    let mut signers = group.signers(&[0, 1]);
    signers[1].path = MembershipProof::new(2, signers[1].path.siblings().to_vec());
    assert!(matches!(
        prove_threshold(&SETTINGS, &statement, &signers, Disclosure::Signers),
        Err(ProveError::NotAMember { index: 1, reason: GroupError::NotAMember { index: 2 } })
    ));
}

#[test]
fn duplicate_signers_are_refused() {
    let group = Group::new(40, 7);
    let signers = group.signers(&[3, 1, 3]);
    let err = prove_threshold(&SETTINGS, &group.statement(2), &signers, Disclosure::Signers).unwrap_err();
    assert_eq!(err, ProveError::DuplicateSigner { leaf: 3 });
}

#[test]
fn signatures_on_other_messages_are_refused() {
    let group = Group::new(50, 3);
    let statement = group.statement(2);
    // Member 1's signature on another message (same key, same epoch).
    let mut rng = StdRng::seed_from_u64(51);
    let other: [u8; 32] = rng.random();
    let mut signers = group.signers(&[0, 1]);
    let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rng, EPOCH, &other).unwrap();
    let mut keys: Vec<_> = (0..3).map(|i| *group.tree.member(i).unwrap()).collect();
    keys[1] = pk;
    let tree = GroupTree::new(keys).unwrap();
    let statement_b = ThresholdStatement::new(tree.key(), EPOCH, group.message, 2).unwrap();
    signers[0] = Signer::from_tree(&tree, 0, group.sigs[0].clone()).unwrap();
    signers[1] = Signer::from_tree(&tree, 1, sig).unwrap();
    assert!(matches!(
        prove_threshold(&SETTINGS, &statement_b, &signers, Disclosure::Signers),
        Err(ProveError::InvalidSignature { index: 1, .. })
    ));
    // A valid proof is rejected for another message, epoch or group.
    let proof = prove_threshold(&SETTINGS, &statement, &group.signers(&[0, 2]), Disclosure::Signers).unwrap();
    verify_threshold(&SETTINGS, &statement, &proof).unwrap();
    let reject =
        |s: ThresholdStatement, what: &str| assert!(verify_threshold(&SETTINGS, &s, &proof).is_err(), "{what}");
    reject(ThresholdStatement::new(tree.key(), EPOCH, group.message, 2).unwrap(), "another group");
    reject(ThresholdStatement::new(group.tree.key(), EPOCH, other, 2).unwrap(), "another message");
    reject(ThresholdStatement::new(group.tree.key(), EPOCH + 1, group.message, 2).unwrap(), "another epoch");
    let mut bigger = group.tree.key();
    bigger.size = 4;
    reject(ThresholdStatement::new(bigger, EPOCH, group.message, 2).unwrap(), "another group size");
}

#[test]
fn forged_counts_and_signer_lists_are_rejected() {
    for settings in BACKENDS {
        forged_counts_and_signer_lists_are_rejected_by(&settings);
    }
}

fn forged_counts_and_signer_lists_are_rejected_by(settings: &Settings) {
    let group = Group::new(60, 7);
    let statement = group.statement(2);
    let proof = prove_threshold(settings, &statement, &group.signers(&[1, 4, 5]), Disclosure::Signers).unwrap();
    verify_threshold(settings, &statement, &proof).unwrap();
    // Settings naming the truncated Merkle hash are a typed error on both
    // sides (the XMSS proofs commit with full-width SHA-256 only; the
    // multilinear backends have no 24-byte trees at all, so for them the
    // settings themselves are invalid).
    let truncated = sigagg_xmss_agg::config::MerkleHash::Sha256Trunc24;
    let short = settings.with_merkle(truncated);
    let (prove_err, verify_err) = match short.validate() {
        Ok(()) => (ProveError::UnsupportedMerkleHash(truncated), VerifyError::UnsupportedMerkleHash(truncated)),
        Err(e) => (ProveError::InvalidSettings(e.clone()), VerifyError::InvalidSettings(e)),
    };
    assert_eq!(settings.backend() != sigagg_xmss_agg::Backend::Fri, short.validate().is_err());
    assert_eq!(
        prove_threshold(&short, &statement, &group.signers(&[1, 4, 5]), Disclosure::Signers).unwrap_err(),
        prove_err
    );
    assert_eq!(verify_threshold(&short, &statement, &proof).unwrap_err(), verify_err);
    // Each forgery names the check that must catch it: a header check
    // (`PublicMismatch`, `SettingsMismatch`) where the header alone is
    // inconsistent, the STARK (`Invalid`) where only the proof can tell.
    let header = |e: &VerifyError| matches!(e, VerifyError::PublicMismatch(_) | VerifyError::SettingsMismatch);
    let stark = |e: &VerifyError| matches!(e, VerifyError::Invalid(_));
    let backend = |e: &VerifyError| matches!(e, VerifyError::WrongBackend { .. });
    let reject = |proof: &Proof, edit: &dyn Fn(&mut Proof), by: &dyn Fn(&VerifyError) -> bool, what: &str| {
        let mut forged = Proof::from_bytes(&proof.to_bytes()).unwrap();
        edit(&mut forged);
        match verify_threshold(settings, &statement, &forged) {
            Err(e) if by(&e) => {}
            other => panic!("{what}: {other:?}"),
        }
    };
    reject(&proof, &|p| p.count = 4, &header, "a larger count than the list");
    reject(&proof, &|p| p.count = 2, &header, "a smaller count than the list");
    reject(&proof, &|p| p.count = 8, &header, "a count above the group size");
    reject(&proof, &|p| p.signers = Some(vec![1, 4, 6]), &stark, "another signer list");
    reject(&proof, &|p| p.signers = Some(vec![0, 1, 4, 5]), &header, "a longer signer list");
    reject(&proof, &|p| p.signers = Some(vec![4, 1, 5]), &header, "an unsorted signer list");
    reject(&proof, &|p| p.signers = None, &stark, "a hidden signer list");
    reject(&proof, &|p| p.settings = Settings::FAST, &|e| header(e) || backend(e), "other settings");
    // Settings of the other backend: refused as such, before the header.
    let other = if settings.backend() == sigagg_xmss_agg::Backend::Fri { WHIR } else { SETTINGS };
    reject(&proof, &|p| p.settings = other, &backend, "the other backend's settings");
    // A count-only proof: the header cannot check the count, the STARK must.
    let hidden = prove_threshold(settings, &statement, &group.signers(&[1, 4, 5]), Disclosure::CountOnly).unwrap();
    verify_threshold(settings, &statement, &hidden).unwrap();
    reject(&hidden, &|p| p.count = 4, &stark, "a larger count (count only)");
    reject(&hidden, &|p| p.count = 2, &stark, "a smaller count (count only)");
    reject(&hidden, &|p| p.count = 7, &stark, "the whole group (count only)");
    // ... nor be dressed up with a signer list.
    reject(&hidden, &|p| p.signers = Some(vec![1, 4, 5]), &stark, "a dressed count-only proof");
}

#[test]
fn every_class_of_proof_byte_flip_is_rejected() {
    for settings in BACKENDS {
        every_class_of_proof_byte_flip_is_rejected_by(&settings);
    }
}

fn every_class_of_proof_byte_flip_is_rejected_by(settings: &Settings) {
    let group = Group::new(70, 3);
    let statement = group.statement(2);
    let bytes = prove_threshold(settings, &statement, &group.signers(&[0, 2]), Disclosure::Signers).unwrap().to_bytes();
    let check = |b: &[u8]| match Proof::from_bytes(b) {
        Ok(p) => verify_threshold(settings, &statement, &p).is_err(),
        Err(_) => true,
    };
    assert!(!check(&bytes), "the untampered proof must verify");
    // Every header byte, the first, middle and last byte of every part of
    // the STARK (tags included) in encoding order, and positions spread
    // over the body.
    let proof = Proof::from_bytes(&bytes).unwrap();
    let layout = proof.stark.body_layout();
    let body_start = proof.stark_start_bit();
    let positions = sigagg_xmss_agg::aggregate::testing::flip_positions(bytes.len(), body_start, &layout);
    for (n, &at) in positions.iter().enumerate() {
        let bit = [0u8, 3, 7][n % 3];
        let mut b = bytes.clone();
        b[at] ^= 1 << bit;
        assert!(check(&b), "flip of bit {bit} at byte {at} of {} accepted", bytes.len());
    }
    for len in [0, 1, 6, 7, 20, bytes.len() / 2, bytes.len() - 1] {
        assert!(check(&bytes[..len]), "truncation to {len} accepted");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(check(&longer));
}

#[test]
fn verifier_lookups_match_plonky3s_derivation() {
    let group = Group::new(80, 5);
    for settings in [SETTINGS, PAIRED] {
        let (ours, theirs) = testing::lookups_both_ways(&settings, &group.statement(1), 3);
        assert_eq!(ours, theirs, "log blowup {}", settings.log_blowup());
        let (declared, inferred) = testing::quotient_chunks_both_ways(&settings, &group.statement(1), 3);
        assert_eq!(declared, inferred, "log blowup {}", settings.log_blowup());
    }
}

/// Proves `traces` for `signers` (claimed count = number of slots used)
/// after `tamper`; the prover's debug checks or the verifier's STARK check
/// must refuse. Both disclosure modes: with the signers disclosed (when
/// they are a valid list, so that the header passes and the STARK is what
/// refuses) and count-only, where the gap chain and the membership
/// messages are the only protection.
fn tampered_is_rejected(indices: &[u32], tamper: impl Fn(&mut sigagg_xmss_agg::trace::Traces)) {
    let group = Group::new(90, 7);
    let statement = group.statement(1);
    let signers = group.signers(indices);
    let ascending = indices.windows(2).all(|w| w[0] < w[1]);
    let disclosures = if ascending { vec![Some(indices.to_vec()), None] } else { vec![None] };
    for settings in [SETTINGS, PAIRED, WHIR] {
        let mut traces = testing::traces(&settings, &statement, &signers);
        tamper(&mut traces);
        let count = indices.len() as u32;
        for disclosed in &disclosures {
            sigagg_xmss_agg::aggregate::testing::assert_tampered_rejected(
                &settings,
                || testing::prove_traces(&settings, &statement, count, disclosed.clone(), &traces),
                |proof| verify_threshold(&settings, &statement, proof).map(drop),
            );
        }
    }
}

fn set(m: &mut p3_matrix::dense::RowMajorMatrix<Val>, row: usize, col: usize, f: impl Fn(Val) -> Val) {
    let w = m.width;
    assert!(row < m.values.len() / w && col < w, "cell ({row}, {col}) outside the table");
    let old = m.values[row * w + col];
    m.values[row * w + col] = f(old);
    assert_ne!(m.values[row * w + col], old, "the tamper of ({row}, {col}) changed nothing");
}

#[test]
fn untampered_threshold_traces_verify() {
    // The control for the corruption tests below.
    let group = Group::new(90, 7);
    let statement = group.statement(1);
    for settings in [SETTINGS, PAIRED, WHIR] {
        let traces = testing::traces(&settings, &statement, &group.signers(&[1, 5]));
        for disclosed in [Some(vec![1, 5]), None] {
            let proof = testing::prove_traces(&settings, &statement, 2, disclosed, &traces).unwrap();
            verify_threshold(&settings, &statement, &proof).unwrap();
        }
    }
}

mod corrupt {
    use super::*;
    use sigagg_xmss_agg::air::{group as g, sig};

    const BUMP: fn(Val) -> Val = |v| v + Val::ONE;
    /// Rows per membership block for a group of 7 (depth 3).
    const BLOCK: usize = 4;

    /// The same member in two slots, counted twice.
    #[test]
    fn one_signer_counted_twice() {
        tampered_is_rejected(&[5, 5], |_| {});
    }

    /// Signers out of order (the gap would be negative).
    #[test]
    fn decreasing_indices() {
        tampered_is_rejected(&[5, 1], |_| {});
    }

    #[test]
    fn statement_member_index() {
        tampered_is_rejected(&[1, 5], |t| set(&mut t.sig, 0, sig::IDX, BUMP));
    }

    #[test]
    fn statement_gap_limb() {
        tampered_is_rejected(&[1, 5], |t| set(&mut t.sig, 0, sig::GAP, BUMP));
    }

    #[test]
    fn statement_signer_key() {
        // The key columns are witness in threshold mode; a changed key no
        // longer matches the signature or the group.
        tampered_is_rejected(&[1, 5], |t| set(&mut t.sig, 1, sig::PUBLIC + 2, BUMP));
    }

    #[test]
    fn statement_shared_message() {
        tampered_is_rejected(&[1, 5], |t| set(&mut t.sig, 1, sig::PUBLIC + 14, BUMP));
    }

    #[test]
    fn membership_leaf_key() {
        tampered_is_rejected(&[1, 5], |t| set(t.group.as_mut().unwrap(), 0, 3, BUMP));
    }

    #[test]
    fn membership_sibling() {
        tampered_is_rejected(&[1, 5], |t| {
            let group = t.group.as_mut().unwrap();
            // Level 2 of slot 1: its sibling half of the input (bit of 5 at level 2 is 0: right half).
            set(group, BLOCK + 2, 8 + 1, BUMP)
        });
    }

    #[test]
    fn membership_direction_bit() {
        tampered_is_rejected(&[1, 5], |t| set(t.group.as_mut().unwrap(), 1, g::col::BIT, |v| Val::ONE - v));
    }

    #[test]
    fn membership_index() {
        tampered_is_rejected(&[1, 5], |t| {
            let group = t.group.as_mut().unwrap();
            for r in 0..BLOCK {
                set(group, BLOCK + r, g::col::IDX, BUMP);
            }
        });
    }

    #[test]
    fn membership_accumulator() {
        tampered_is_rejected(&[1, 5], |t| set(t.group.as_mut().unwrap(), 2, g::col::ACC, BUMP));
    }

    #[test]
    fn membership_digest() {
        tampered_is_rejected(&[1, 5], |t| set(t.group.as_mut().unwrap(), BLOCK + 3, g::col::DIG + 4, BUMP));
    }

    #[test]
    fn membership_leaf_flag() {
        tampered_is_rejected(&[1, 5], |t| set(t.group.as_mut().unwrap(), BLOCK, g::col::IS_LEAF, |_| Val::ZERO));
    }

    #[test]
    fn membership_node_tag() {
        tampered_is_rejected(&[1, 5], |t| set(t.group.as_mut().unwrap(), 2, 17, BUMP));
    }

    /// A range-table multiplicity one too high: the range bus no longer
    /// balances (whatever the gap values).
    #[test]
    fn range_multiplicity() {
        tampered_is_rejected(&[1, 5], |t| set(&mut t.range, 3, sigagg_xmss_agg::air::range::MULT, BUMP));
    }

    /// The second gap limb of the counted slot (the ordering's range-checked
    /// part) moved by one: the gap no longer recomposes to
    /// `idx' - idx - 1`.
    #[test]
    fn statement_gap_second_limb() {
        tampered_is_rejected(&[1, 5], |t| set(&mut t.sig, 0, sig::GAP + 1, BUMP));
    }
}

/// The real settings prove the smallest statements too (every table must be
/// taller than the final FRI polynomial; padding guarantees it).
#[test]
fn real_settings_prove_a_one_member_group() {
    let group = Group::new(41, 1);
    let statement = group.statement(1);
    for settings in [Settings::FAST, Settings::COMPACT, Settings::WHIR, Settings::WHIR_COMPACT] {
        let proof = prove_threshold(&settings, &statement, &group.signers(&[0]), Disclosure::Signers).unwrap();
        let cert = verify_threshold(&settings, &statement, &proof).unwrap();
        assert_eq!((cert.count, cert.signers), (1, Some(vec![0])));
        let other = ThresholdStatement::new(*statement.group(), EPOCH + 1, group.message, 1);
        assert!(verify_threshold(&settings, &other.unwrap(), &proof).is_err());
    }
}

#[path = "threshold/leansig.rs"]
mod leansig;
