//! Threshold certificates over groups of leanSig-family keys (issue 41):
//! t-of-n proofs of the small `Test` set at 1, 2, 3 and 17 signers (the
//! last two not powers of two) on both backends, LeanSigProd at the far
//! end of its 32-bit epochs; wrong statements, forged claims, outsiders,
//! duplicates, invalid signatures and per-table trace corruptions refused.

use rand::SeedableRng;
use rand::rngs::StdRng;
use sigagg_xmss::group::GroupTree;
use sigagg_xmss::{LeanSigProd, Signature, Test, single_epoch_key_and_signature};
use sigagg_xmss_agg::leansig::layout::LeanFamily;
use sigagg_xmss_agg::leansig::threshold::{prove, testing, verify};
use sigagg_xmss_agg::threshold::{Disclosure, Signer, ThresholdStatement};
use sigagg_xmss_agg::{Proof, ProveError, Settings, VerifyError};

const SETTINGS: [Settings; 2] = [Settings::INSECURE_TEST, Settings::INSECURE_TEST_SKIP];

/// A group of `n` keys that all signed `message` at `epoch`.
struct Group<S: LeanFamily> {
    tree: GroupTree<S>,
    sigs: Vec<Signature<S>>,
    epoch: u32,
    message: [u8; 32],
}

impl<S: LeanFamily> Group<S> {
    fn new(seed: u64, n: usize, epoch: u32) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let message = [seed as u8 ^ 0x33; 32];
        let (keys, sigs) =
            (0..n).map(|_| single_epoch_key_and_signature::<S, _>(&mut rng, epoch, &message).unwrap()).unzip();
        Self { tree: GroupTree::new(keys).unwrap(), sigs, epoch, message }
    }

    fn statement(&self, threshold: u32) -> ThresholdStatement<S> {
        ThresholdStatement::for_set(self.tree.key(), self.epoch, self.message, threshold).unwrap()
    }

    fn signers(&self, indices: &[u32]) -> Vec<Signer<S>> {
        indices.iter().map(|&i| Signer::from_tree(&self.tree, i, self.sigs[i as usize].clone()).unwrap()).collect()
    }
}

fn prove_and_check<S: LeanFamily>(
    settings: &Settings,
    statement: &ThresholdStatement<S>,
    signers: &[Signer<S>],
    disclosure: Disclosure,
) -> Proof {
    let proof = prove(settings, statement, signers, disclosure).unwrap_or_else(|e| panic!("{}: {e}", S::NAME));
    let bytes = proof.to_bytes();
    assert!(bytes.starts_with(sigagg_xmss_agg::proof::TAGGED_THRESHOLD_MAGIC));
    let decoded = Proof::from_bytes(&bytes).unwrap();
    assert_eq!((decoded.set, decoded.signers.clone(), decoded.to_bytes()), (S::ID, proof.signers.clone(), bytes));
    let certificate = verify(settings, statement, &decoded).unwrap_or_else(|e| panic!("{}: {e}", S::NAME));
    assert_eq!(certificate.count, signers.len() as u32);
    let mut indices: Vec<u32> = signers.iter().map(Signer::index).collect();
    indices.sort_unstable();
    assert_eq!(certificate.signers, (disclosure == Disclosure::Signers).then_some(indices));
    decoded
}

/// Statements one value away from the proven one are refused.
fn wrong_statements_refused<S: LeanFamily>(settings: &Settings, statement: &ThresholdStatement<S>, proof: &Proof) {
    let key = *statement.group();
    let (epoch, message, t) = (statement.epoch(), *statement.message(), statement.threshold());
    let mut other_message = message;
    other_message[31] ^= 1;
    let other_group = Group::<S>::new(77, key.size as usize, epoch).tree.key();
    let wrong = [
        ("message", ThresholdStatement::<S>::for_set(key, epoch, other_message, t)),
        ("epoch", ThresholdStatement::for_set(key, epoch ^ 1, message, t)),
        ("group", ThresholdStatement::for_set(other_group, epoch, message, t)),
    ];
    for (what, st) in wrong {
        match verify(settings, &st.unwrap(), proof) {
            Err(VerifyError::Invalid(_)) => {}
            other => panic!("{}: a wrong {what} gave {other:?}", S::NAME),
        }
    }
    let higher = ThresholdStatement::<S>::for_set(key, epoch, message, proof.count + 1);
    if let Ok(higher) = higher {
        assert!(matches!(verify(settings, &higher, proof), Err(VerifyError::ThresholdNotReached { .. })));
    }
    // A forged count, or a forged signer list, fails the transcript.
    let copy = || Proof::from_bytes(&proof.to_bytes()).unwrap();
    let mut forged = copy();
    forged.count -= 1;
    if forged.count >= t {
        assert!(verify(settings, statement, &forged).is_err(), "a smaller count");
    }
    if let Some(list) = &proof.signers {
        let mut forged = copy();
        let last = list.len() - 1;
        let moved = (list[last] + 1..key.size).next();
        if let Some(i) = moved {
            forged.signers.as_mut().unwrap()[last] = i;
            assert!(matches!(verify(settings, statement, &forged), Err(VerifyError::Invalid(_))), "moved signer");
        }
        let mut hidden = copy();
        hidden.signers = None;
        assert!(matches!(verify(settings, statement, &hidden), Err(VerifyError::Invalid(_))), "hidden signers");
    }
}

#[test]
fn test_set_thresholds_prove_and_verify() {
    let group = Group::<Test>::new(5, 20, 17);
    let cases: [(&[u32], u32); 4] = [
        (&[7], 1),
        (&[19, 0], 2),
        (&[3, 11, 4], 2),
        (&[0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 19], 17),
    ];
    for (k, settings) in SETTINGS.iter().enumerate() {
        for (c, (indices, t)) in cases.iter().enumerate() {
            let disclosure = if (c + k) % 2 == 0 { Disclosure::Signers } else { Disclosure::CountOnly };
            let statement = group.statement(*t);
            let proof = prove_and_check(settings, &statement, &group.signers(indices), disclosure);
            if c == 2 {
                wrong_statements_refused(settings, &statement, &proof);
                // Another set's verifier refuses it.
                let seed = ThresholdStatement::new(*statement.group(), 17, group.message, *t).unwrap();
                assert!(matches!(
                    sigagg_xmss_agg::threshold::verify(settings, &seed, &proof),
                    Err(VerifyError::WrongSet { .. })
                ));
                let prod = ThresholdStatement::<LeanSigProd>::for_set(*statement.group(), 17, group.message, *t);
                assert!(matches!(verify(settings, &prod.unwrap(), &proof), Err(VerifyError::WrongSet { .. })));
            }
        }
    }
}

#[test]
fn lean_sig_prod_thresholds_at_far_epochs() {
    let settings = Settings::INSECURE_TEST_SKIP;
    for (seed, epoch) in [(1, u32::MAX), (2, (1 << 31) + 3)] {
        let group = Group::<LeanSigProd>::new(seed, 3, epoch);
        let statement = group.statement(2);
        let proof = prove_and_check(&settings, &statement, &group.signers(&[2, 0]), Disclosure::Signers);
        wrong_statements_refused(&settings, &statement, &proof);
    }
}

#[test]
fn bad_signers_are_refused_before_proving() {
    let settings = Settings::INSECURE_TEST;
    let group = Group::<Test>::new(6, 5, 9);
    let statement = group.statement(2);
    let too_few = prove(&settings, &statement, &group.signers(&[1]), Disclosure::CountOnly);
    assert!(matches!(too_few, Err(ProveError::ThresholdNotReached { signers: 1, threshold: 2 })));
    let twice = prove(&settings, &statement, &group.signers(&[1, 3, 1]), Disclosure::CountOnly);
    assert!(matches!(twice, Err(ProveError::DuplicateSigner { leaf: 1 })));
    // An outsider's key under a member's path.
    let outsider = Group::<Test>::new(7, 5, 9);
    let mut signers = group.signers(&[0, 2]);
    signers[1].public_key = *outsider.tree.member(2).unwrap();
    signers[1].signature = outsider.sigs[2].clone();
    let refused = prove(&settings, &statement, &signers, Disclosure::CountOnly);
    assert!(matches!(refused, Err(ProveError::NotAMember { index: 1, .. })));
    // A member's signature of another epoch.
    let mut signers = group.signers(&[4, 2]);
    signers[0].signature = Group::<Test>::new(6, 5, 10).sigs[4].clone();
    let refused = prove(&settings, &statement, &signers, Disclosure::CountOnly);
    assert!(matches!(refused, Err(ProveError::InvalidSignature { index: 0, .. })), "{refused:?}");
    // Statements out of range are typed errors.
    let key = *statement.group();
    assert!(ThresholdStatement::<Test>::for_set(key, 9, [0; 32], 6).is_err());
    assert!(ThresholdStatement::<Test>::for_set(key, 9, [0; 32], 0).is_err());
    assert!(ThresholdStatement::<Test>::for_set(key, 256, [0; 32], 1).is_err());
    assert!(ThresholdStatement::<LeanSigProd>::for_set(key, u32::MAX, [0; 32], 1).is_ok());
}

/// One corrupted cell of each table (and of each threshold column), forced
/// past the prover's checks, is refused by the verifier.
#[test]
fn tampered_threshold_traces_are_refused() {
    use sigagg_xmss_agg::aggregate::testing::assert_tampered_rejected;
    use sigagg_xmss_agg::air::group::col as group_col;
    use sigagg_xmss_agg::config::Val;
    use sigagg_xmss_agg::leansig::air::sig::threshold_column;
    use sigagg_xmss_agg::leansig::layout::Shape;
    let group = Group::<Test>::new(8, 6, 40);
    let statement = group.statement(2);
    let signers = group.signers(&[1, 4]);
    let depth = Shape::of::<Test>().depth;
    let th = threshold_column(depth);
    // (table, row, column, what the change breaks)
    let cells = [
        (0, 0, 1, "a signer parameter (the witness key the tables share)"),
        (0, 0, th, "a member index"),
        (0, 0, th + 1, "a gap's low limb"),
        (0, 1, th + 2, "the last gap's high limb"),
        (0, 0, 1 + 1, "a statement value pinned to the shared epoch"),
        (5, 0, 0, "a group leaf input lane (the member's root)"),
        (5, 1, group_col::BIT, "a group path direction bit"),
        (5, 0, group_col::IDX, "the membership table's index"),
        (4, 3, 1, "a range-table multiplicity"),
    ];
    for settings in SETTINGS {
        for disclosure in [Disclosure::CountOnly, Disclosure::Signers] {
            let honest = testing::traces(&settings, &statement, &signers, disclosure);
            let revealed = (disclosure == Disclosure::Signers).then(|| vec![1, 4]);
            let untouched = testing::prove_traces(&settings, &statement, 2, revealed.clone(), honest.clone()).unwrap();
            verify(&settings, &statement, &untouched).unwrap();
            for (table, row, column, what) in cells {
                let mut tampered = honest.clone();
                let m = &mut tampered[table];
                m.values[row * m.width + column] += <Val as p3_field::PrimeCharacteristicRing>::ONE;
                assert_tampered_rejected(
                    &settings,
                    || testing::prove_traces(&settings, &statement, 2, revealed.clone(), tampered),
                    |proof| verify(&settings, &statement, proof).map(drop),
                );
                eprintln!("{what}: refused");
            }
        }
    }
}
