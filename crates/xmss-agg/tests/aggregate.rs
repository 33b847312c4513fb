//! End-to-end tests of XMSS aggregation: valid batches prove and verify;
//! every tampered statement, proof and trace is rejected.
//!
//! The proofs use `Settings::INSECURE_TEST` (40 queries, no grinding) and
//! its multilinear counterpart `Settings::INSECURE_TEST_WHIR` to keep the
//! suite fast; every test that proves runs on both backends. The security
//! of the real settings is tested in `security.rs`.

use p3_field::PrimeCharacteristicRing;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use sigagg_koalabear::field::FeArray;
use sigagg_xmss::{Seed001, Signature, single_epoch_key_and_signature};
use sigagg_xmss_agg::aggregate::{prove as aggregate, testing, verify};
use sigagg_xmss_agg::config::Val;
use sigagg_xmss_agg::layout::{P16_BLOCK, P24_BLOCK};
use sigagg_xmss_agg::statement::MIN_PADDED;
use sigagg_xmss_agg::{
    AggregateEntry as Entry, AggregateStatement as Statement, Proof, ProveError, Settings, VerifyError,
};

const SETTINGS: Settings = Settings::INSECURE_TEST;
/// The insecure settings at rate 1/8: Poseidon2 tables in the paired
/// layout (every second full round committed, degree 9).
const PAIRED: Settings = Settings::INSECURE_TEST_COMPACT;
/// The insecure multilinear (WHIR) settings.
const WHIR: Settings = Settings::INSECURE_TEST_WHIR;
/// Our own multilinear prover's insecure settings.
const SKIP: Settings = Settings::INSECURE_TEST_SKIP;
/// One setting per backend.
const BACKENDS: [Settings; 3] = [SETTINGS, WHIR, SKIP];

/// `n` signers; `shared` decides whether they all sign one message.
fn batch(seed: u64, n: usize, shared: bool, epochs: &[u32]) -> (Statement, Vec<Signature<Seed001>>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let common: [u8; 32] = rng.random();
    let (entries, sigs) = (0..n)
        .map(|i| {
            let message = if shared { common } else { rng.random() };
            let epoch = epochs[i % epochs.len()];
            let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rng, epoch, &message).unwrap();
            (Entry { public_key: pk, epoch, message }, sig)
        })
        .unzip();
    (Statement::new(entries).unwrap(), sigs)
}

fn prove(settings: &Settings, statement: &Statement, sigs: &[Signature<Seed001>]) -> Proof {
    aggregate(settings, statement, sigs).unwrap()
}

/// The bytes the former `AggregateProof { settings, num_entries, proof }`
/// wrote (encoding version 13): the merged `Proof` keeps them, so proofs
/// written before the merge still decode.
fn legacy_aggregate_bytes(proof: &Proof) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct AggregateProof<'a> {
        settings: &'a Settings,
        num_entries: u32,
        proof: &'a sigagg_xmss_agg::proof::StarkProof,
    }
    let legacy = AggregateProof { settings: &proof.settings, num_entries: proof.count, proof: &proof.stark };
    sigagg_xmss_agg::codec::encode(sigagg_xmss_agg::proof::PROOF_MAGIC, 13, &legacy)
}

#[test]
fn valid_batches_prove_and_verify() {
    // Epoch 127*2000 exercises the chain-0 tweak borrow; 2^20 - 1 the largest epoch.
    let epochs = [0u32, 5, 127 * 2000, (1 << 20) - 1, 1023, 1024];
    for settings in BACKENDS {
        for (n, shared) in [(1, true), (2, false), (3, true), (5, false)] {
            let (statement, sigs) = batch(n as u64, n, shared, &epochs);
            let proof = prove(&settings, &statement, &sigs);
            let bytes = proof.to_bytes();
            let decoded = Proof::from_bytes(&bytes).unwrap();
            assert_eq!(decoded.to_bytes(), bytes, "serialization is canonical");
            assert_eq!(bytes, legacy_aggregate_bytes(&proof), "the encoding of the former AggregateProof");
            assert_eq!(decoded.stark.backend(), settings.backend());
            verify(&settings, &statement, &decoded)
                .unwrap_or_else(|e| panic!("{}, n = {n}: {e}", settings.backend().name()));
        }
    }
}

/// A proof names its parameter set: relabelled as another set it takes
/// the set-tagged encoding, round-trips, and a Seed001 verifier refuses it
/// before any STARK work; the tagged encoding cannot carry Seed001.
#[test]
fn proofs_name_their_parameter_set() {
    let settings = BACKENDS[0];
    let (statement, sigs) = batch(3, 1, true, &[9]);
    let proof = prove(&settings, &statement, &sigs);
    assert_eq!(proof.set, 1);
    let mut relabelled = Proof::from_bytes(&proof.to_bytes()).unwrap();
    relabelled.set = 2;
    let bytes = relabelled.to_bytes();
    assert!(bytes.starts_with(sigagg_xmss_agg::proof::TAGGED_PROOF_MAGIC));
    let decoded = Proof::from_bytes(&bytes).unwrap();
    assert_eq!((decoded.set, decoded.to_bytes()), (2, bytes.clone()));
    assert!(matches!(verify(&settings, &statement, &decoded), Err(VerifyError::WrongSet { expected: 1, found: 2 })));
    // Seed001 in the tagged encoding: the set is the body's first byte,
    // after the magic and the version.
    let mut seed001_tagged = bytes.clone();
    assert_eq!(seed001_tagged[7], 2);
    seed001_tagged[7] = 1;
    assert!(matches!(Proof::from_bytes(&seed001_tagged), Err(VerifyError::Malformed(_))));
}

#[test]
fn mixed_shared_and_distinct_messages() {
    let (a, sa) = batch(10, 2, true, &[7]);
    let (b, sb) = batch(11, 2, false, &[9, 300]);
    let statement = Statement::new(a.entries().iter().chain(b.entries()).copied().collect()).unwrap();
    let sigs: Vec<_> = sa.into_iter().chain(sb).collect();
    for settings in BACKENDS {
        let proof = prove(&settings, &statement, &sigs);
        verify(&settings, &statement, &proof).unwrap();
    }
}

#[test]
fn tampered_statements_are_rejected() {
    for settings in BACKENDS {
        tampered_statements_are_rejected_by(&settings);
    }
}

fn tampered_statements_are_rejected_by(settings: &Settings) {
    let (statement, sigs) = batch(20, 3, false, &[11, 12, 13]);
    let proof = prove(settings, &statement, &sigs);
    verify(settings, &statement, &proof).unwrap();
    let entries = statement.entries().to_vec();
    // Statements of the proof's length reach the STARK (`Invalid`); a
    // dropped or added entry is caught by the header's entry count.
    let rejects = |entries: Vec<Entry>, what: &str| {
        let stark = entries.len() == statement.len();
        let s = Statement::new(entries).unwrap();
        match verify(settings, &s, &proof) {
            Err(VerifyError::Invalid(_)) if stark => {}
            Err(VerifyError::PublicMismatch(_)) if !stark => {}
            other => panic!("{what}: {other:?}"),
        }
    };
    let mut e = entries.clone();
    e[1].public_key.root[3] += Val::ONE;
    rejects(e, "changed root");
    let mut e = entries.clone();
    e[2].public_key.parameter[0] += Val::ONE;
    rejects(e, "changed parameter");
    let mut e = entries.clone();
    e[0].epoch += 1;
    rejects(e, "changed epoch");
    let mut e = entries.clone();
    e[2].message[31] ^= 1;
    rejects(e, "changed message");
    let mut e = entries.clone();
    e.swap(0, 1);
    rejects(e, "reordered entries");
    let mut e = entries.clone();
    e.pop();
    rejects(e, "dropped entry");
    let mut e = entries.clone();
    e.push(entries[0]);
    rejects(e, "added entry");
    // A duplicated entry in place of another one.
    let mut e = entries.clone();
    e[2] = e[0];
    rejects(e, "duplicated entry");
}

/// Padding repeats the last entry, so `[e0, e1, e2]` and `[e0, e1, e2, e2]`
/// have the same circuit: the same periodic columns and table heights.
/// Only the transcript, seeded with the statement's digest, tells them
/// apart: a proof of the first with its entry count edited must not verify
/// the second. (Before the seed, such a proof verified: Plonky3 binds no
/// periodic column, so the challenges did not depend on the statement.)
#[test]
fn the_transcript_binds_the_statement() {
    let (statement, sigs) = batch(40, 3, false, &[4]);
    let mut entries = statement.entries().to_vec();
    entries.push(entries[2]);
    let longer = Statement::new(entries).unwrap();
    assert_eq!(longer.padded_len(), statement.padded_len());
    assert_ne!(longer.digest(), statement.digest());
    for settings in BACKENDS {
        let mut proof = prove(&settings, &statement, &sigs);
        proof.count = 4;
        assert!(matches!(verify(&settings, &longer, &proof), Err(VerifyError::Invalid(_))));
    }
    // The seed holds the settings too.
    let fast = sigagg_xmss_agg::system::transcript_seed(&Settings::FAST, &statement.digest());
    assert_ne!(sigagg_xmss_agg::system::transcript_seed(&SETTINGS, &statement.digest()), fast);
}

#[test]
fn other_settings_are_rejected() {
    let (statement, sigs) = batch(30, 1, true, &[3]);
    let proof = prove(&SETTINGS, &statement, &sigs);
    assert_eq!(verify(&Settings::FAST, &statement, &proof), Err(VerifyError::SettingsMismatch));
    // A proof of one backend is refused by the other's settings, both ways.
    let whir = prove(&WHIR, &statement, &sigs);
    assert_eq!(
        verify(&SETTINGS, &statement, &whir),
        Err(VerifyError::WrongBackend {
            expected: sigagg_xmss_agg::Backend::Fri,
            found: sigagg_xmss_agg::Backend::Whir
        })
    );
    assert_eq!(
        verify(&WHIR, &statement, &proof),
        Err(VerifyError::WrongBackend {
            expected: sigagg_xmss_agg::Backend::Whir,
            found: sigagg_xmss_agg::Backend::Fri
        })
    );
    assert_eq!(verify(&Settings::WHIR, &statement, &whir), Err(VerifyError::SettingsMismatch));
    // Our own multilinear prover and p3-multi-stark's refuse each other's
    // proofs, and the FRI backend refuses it.
    let skip = prove(&SKIP, &statement, &sigs);
    let (b_skip, b_whir) = (sigagg_xmss_agg::Backend::Skip, sigagg_xmss_agg::Backend::Whir);
    assert_eq!(verify(&WHIR, &statement, &skip), Err(VerifyError::WrongBackend { expected: b_whir, found: b_skip }));
    assert_eq!(verify(&SKIP, &statement, &whir), Err(VerifyError::WrongBackend { expected: b_skip, found: b_whir }));
    assert_eq!(
        verify(&SETTINGS, &statement, &skip),
        Err(VerifyError::WrongBackend { expected: sigagg_xmss_agg::Backend::Fri, found: b_skip })
    );
    // The XMSS proofs commit with full-width SHA-256 only: settings naming
    // the truncated hash are a typed error on both sides, before any work.
    let short = SETTINGS.with_merkle(sigagg_xmss_agg::config::MerkleHash::Sha256Trunc24);
    let unsupported = sigagg_xmss_agg::config::MerkleHash::Sha256Trunc24;
    assert_eq!(aggregate(&short, &statement, &sigs).unwrap_err(), ProveError::UnsupportedMerkleHash(unsupported));
    assert_eq!(verify(&short, &statement, &proof).unwrap_err(), VerifyError::UnsupportedMerkleHash(unsupported));
}

/// A proof names its settings, and decoding refuses settings out of their
/// backend's range: a header asking for 31 bits of grinding (where
/// Plonky3's challenger panics) or for no FRI query never reaches a
/// verifier that takes its settings from the proof (the CLI does).
#[test]
fn proofs_naming_invalid_settings_do_not_decode() {
    use sigagg_xmss_agg::config::FriSettings;
    let (statement, sigs) = batch(31, 1, true, &[3]);
    let proof = prove(&SETTINGS, &statement, &sigs);
    let fri = *SETTINGS.fri().unwrap();
    for settings in [
        Settings::Fri(FriSettings { query_pow_bits: 31, ..fri }),
        Settings::Fri(FriSettings { num_queries: 0, ..fri }),
        Settings::Fri(FriSettings { log_blowup: 0, ..fri }),
    ] {
        let mut forged = Proof::from_bytes(&proof.to_bytes()).unwrap();
        forged.settings = settings;
        assert!(matches!(Proof::from_bytes(&forged.to_bytes()), Err(VerifyError::Malformed(_))), "{settings:?}");
        assert_eq!(
            verify(&settings, &statement, &proof).unwrap_err(),
            VerifyError::InvalidSettings(settings.validate().unwrap_err())
        );
    }
}

/// The size breakdown covers the whole proof: its parts add up to the
/// encoding, less only a few outer length prefixes and the header.
#[test]
fn size_breakdown_accounts_for_every_byte() {
    let (statement, sigs) = batch(41, 3, true, &[7]);
    for (settings, expected) in [
        (SETTINGS, &["main rows", "permutation rows", "quotient rows", "fri paths"][..]),
        (WHIR, &["WHIR round 0: Merkle multiproof", "AIR sumcheck", "commitment, buses"][..]),
        (SKIP, &["bus argument", "skip polynomials", "blends", "opened values", "WHIR"][..]),
    ] {
        let proof = prove(&settings, &statement, &sigs);
        let parts = proof.stark.size_breakdown();
        let total: usize = parts.iter().map(|(_, len)| len).sum();
        let body = sigagg_xmss_agg::codec::encoded_len(&proof.stark);
        assert!(total <= body && body - total < 64, "parts {total} of {body} bytes: {parts:?}");
        assert!(proof.to_bytes().len() > body);
        let names: Vec<&str> = parts.iter().map(|(name, _)| name.as_str()).collect();
        for name in expected {
            assert!(names.contains(name), "{name} missing from {names:?}");
        }
    }
}

#[test]
fn every_class_of_proof_byte_flip_is_rejected() {
    for settings in BACKENDS {
        every_class_of_proof_byte_flip_is_rejected_by(&settings);
    }
}

fn every_class_of_proof_byte_flip_is_rejected_by(settings: &Settings) {
    let (statement, sigs) = batch(40, 2, false, &[100, 200]);
    let bytes = prove(settings, &statement, &sigs).to_bytes();
    let check = |b: &[u8]| match Proof::from_bytes(b) {
        Ok(p) => verify(settings, &statement, &p).is_err(),
        Err(_) => true,
    };
    assert!(!check(&bytes), "the untampered proof must verify");
    // Every byte of the header (magic, version, settings, entry count), then
    // the first, middle and last byte of every part of the STARK (its
    // backend and Merkle hash tags included), in encoding order (the parts
    // tile it exactly), then positions spread over the whole body.
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
fn invalid_signatures_are_typed_errors() {
    let (statement, mut sigs) = batch(50, 3, false, &[21, 22, 23]);
    // A signature of another key at the same slot.
    let (_, other) = batch(51, 1, false, &[22]);
    sigs[1] = other[0].clone();
    let err = aggregate(&SETTINGS, &statement, &sigs).unwrap_err();
    assert!(matches!(err, ProveError::InvalidSignature { index: 1, .. }), "{err:?}");
    // A corrupted chain value.
    let (statement, sigs) = batch(52, 2, true, &[5]);
    let mut bad = sigs.clone();
    let mut hashes = bad[0].hashes().to_vec();
    hashes[10][2] += Val::ONE;
    bad[0] = Signature::from_parts(bad[0].co_path().to_vec(), *bad[0].rho(), hashes).unwrap();
    assert!(matches!(aggregate(&SETTINGS, &statement, &bad), Err(ProveError::InvalidSignature { index: 0, .. })));
    // A signature over another message.
    let mut entries = statement.entries().to_vec();
    entries[1].message[0] ^= 1;
    let changed = Statement::new(entries).unwrap();
    assert!(matches!(aggregate(&SETTINGS, &changed, &sigs), Err(ProveError::InvalidSignature { index: 1, .. })));
    // Missing signature.
    assert!(matches!(aggregate(&SETTINGS, &statement, &sigs[..1]), Err(ProveError::CountMismatch { .. })));
}

#[test]
fn invalid_statements_are_typed_errors() {
    assert!(Statement::new(vec![]).is_err());
    let (statement, _) = batch(60, 1, true, &[1]);
    let mut e = statement.entries()[0];
    e.epoch = 1 << 20;
    assert!(Statement::new(vec![e]).is_err());
}

/// Proves tampered traces, in both Poseidon2 layouts; the tampering must
/// be caught by the prover's own debug-build checks (a panic) or, in
/// release builds, by the verifier.
fn tampered_is_rejected(tamper: impl Fn(&mut sigagg_xmss_agg::trace::Traces)) {
    let (statement, sigs) = batch(70, 2, false, &[127 * 300, 77]);
    for settings in [SETTINGS, PAIRED, WHIR, SKIP] {
        let mut traces = testing::traces(&settings, &statement, &sigs);
        tamper(&mut traces);
        testing::assert_tampered_rejected(
            &settings,
            || testing::prove_traces(&settings, &statement, &traces),
            |proof| verify(&settings, &statement, proof),
        );
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
fn untampered_traces_verify() {
    // The control for the tampering tests below.
    let (statement, sigs) = batch(70, 2, false, &[127 * 300, 77]);
    for settings in [SETTINGS, PAIRED, WHIR, SKIP] {
        let traces = testing::traces(&settings, &statement, &sigs);
        let proof = testing::prove_traces(&settings, &statement, &traces).unwrap();
        verify(&settings, &statement, &proof).unwrap();
    }
    // The paired layout is narrower: 64 (width 16, a lane) and 96 (width
    // 24) fewer columns; FRI puts two slots to a chain row, WHIR one.
    let (every, paired) = (testing::traces(&SETTINGS, &statement, &sigs), testing::traces(&PAIRED, &statement, &sigs));
    assert_eq!((lanes(&every.chain, P16_BLOCK), lanes(&every.hash, P24_BLOCK)), (2, 1));
    assert_eq!(every.chain.width - paired.chain.width, 2 * 64);
    assert_eq!(every.hash.width - paired.hash.width, 96);
    // WHIR: one slot a row, both tables paired (a statement this small
    // commits every width-24 round only from 1024 slots on,
    // `air::hash_stride`).
    let whir = testing::traces(&WHIR, &statement, &sigs);
    assert_eq!((lanes(&whir.chain, P16_BLOCK), lanes(&whir.hash, P24_BLOCK)), (1, 1));
    assert_eq!((whir.chain.width, whir.hash.width), (paired.chain.width / 2, paired.hash.width));
}

/// Slots to a row of a Poseidon2 table with `block` rows a slot, in the
/// tampering tests' statements (padded to `MIN_PADDED` slots).
fn lanes(m: &p3_matrix::dense::RowMajorMatrix<Val>, block: usize) -> usize {
    MIN_PADDED * block / (m.values.len() / m.width)
}

/// Column `col` of row `r` of slot `slot`'s block in a Poseidon2 table with
/// `block` rows a slot: lane `slot % L` of block `slot / L` when `L` slots
/// share a row.
fn slot_cell(
    m: &mut p3_matrix::dense::RowMajorMatrix<Val>,
    block: usize,
    (slot, r, col): (usize, usize, usize),
) -> &mut Val {
    let lanes = lanes(m, block);
    let lane_width = m.width / lanes;
    assert!(col < lane_width && r < block, "cell ({r}, {col}) outside a lane's block");
    let w = m.width;
    &mut m.values[(slot / lanes * block + r) * w + slot % lanes * lane_width + col]
}

/// [`set`] on a cell of [`slot_cell`].
fn set_slot(
    m: &mut p3_matrix::dense::RowMajorMatrix<Val>,
    block: usize,
    cell: (usize, usize, usize),
    f: impl Fn(Val) -> Val,
) {
    let cell = slot_cell(m, block, cell);
    let old = *cell;
    *cell = f(old);
    assert_ne!(*cell, old, "the tamper changed nothing");
}

mod corrupt {
    use super::*;
    use sigagg_xmss_agg::air::{chain, digits, hash24, range, sig};
    use sigagg_xmss_agg::layout::{SPONGE_ROW, TREE_ROW};

    const BUMP: fn(Val) -> Val = |v| v + Val::ONE;

    #[test]
    fn statement_table_public_value() {
        tampered_is_rejected(|t| set(&mut t.sig, 1, sig::PUBLIC + 3, BUMP));
    }

    #[test]
    fn statement_table_counter() {
        tampered_is_rejected(|t| set(&mut t.sig, 1, sig::SIG, BUMP));
    }

    #[test]
    fn digit_bit() {
        tampered_is_rejected(|t| set(&mut t.digits, 3, digits::col::BITS + 4, |v| Val::ONE - v));
    }

    #[test]
    fn digit_carry() {
        tampered_is_rejected(|t| set(&mut t.digits, 16 + 2, digits::col::C, BUMP));
    }

    #[test]
    fn digit_message_hash_limb() {
        // A consistent change on the whole block: the limb equations break.
        tampered_is_rejected(|t| {
            for r in 0..16 {
                set(&mut t.digits, r, digits::col::F + 1, BUMP);
            }
        });
    }

    #[test]
    fn chain_step_permutation_column() {
        tampered_is_rejected(|t| set_slot(&mut t.chain, P16_BLOCK, (0, 5, 40), BUMP));
    }

    #[test]
    fn chain_step_input_digest() {
        tampered_is_rejected(|t| set_slot(&mut t.chain, P16_BLOCK, (1, 7, chain::X + 2), BUMP));
    }

    /// Slot 1 is lane 1 of the first block under FRI: its permutation and
    /// flag columns are constrained as lane 0's are.
    #[test]
    fn chain_second_slot_permutation_column() {
        tampered_is_rejected(|t| set_slot(&mut t.chain, P16_BLOCK, (1, 5, 40), BUMP));
    }

    #[test]
    fn chain_second_slot_boundary_flag() {
        tampered_is_rejected(|t| set_slot(&mut t.chain, P16_BLOCK, (1, 1, chain::col::LAST), |v| Val::ONE - v));
    }

    #[test]
    fn chain_boundary_flag() {
        tampered_is_rejected(|t| set_slot(&mut t.chain, P16_BLOCK, (0, 1, chain::col::FIRST), |v| Val::ONE - v));
    }

    #[test]
    fn sponge_window() {
        tampered_is_rejected(|t| set_slot(&mut t.hash, P24_BLOCK, (0, SPONGE_ROW + 4, hash24::col::W + 9), BUMP));
    }

    #[test]
    fn sponge_flag() {
        tampered_is_rejected(|t| {
            set_slot(&mut t.hash, P24_BLOCK, (1, SPONGE_ROW + 2, hash24::col::FLAGS + 1), |v| Val::ONE - v)
        });
    }

    #[test]
    fn tree_bit() {
        tampered_is_rejected(|t| {
            set_slot(&mut t.hash, P24_BLOCK, (0, TREE_ROW + 3, hash24::col::BIT), |v| Val::ONE - v)
        });
    }

    #[test]
    fn tree_sibling() {
        tampered_is_rejected(|t| set_slot(&mut t.hash, P24_BLOCK, (0, TREE_ROW + 5, hash24::tree_in::LEFT + 1), BUMP));
    }

    #[test]
    fn message_hash_randomness() {
        tampered_is_rejected(|t| set_slot(&mut t.hash, P24_BLOCK, (1, 0, hash24::msg_in::RHO_), BUMP));
    }

    #[test]
    fn range_multiplicity() {
        tampered_is_rejected(|t| set(&mut t.range, 0, range::MULT, BUMP));
    }

    #[test]
    fn range_value() {
        tampered_is_rejected(|t| set(&mut t.range, 100, range::VALUE, BUMP));
    }

    /// Every window slot of a leaf claims "not received" (as if every digit
    /// were 3): the chain ends the chain table sends are never consumed.
    #[test]
    fn sponge_skips_received_ends() {
        tampered_is_rejected(|t| {
            // Some slots already hold 1 (digit 3); the others must change.
            let mut changed = 0;
            for k in 0..sigagg_xmss_agg::layout::CHUNKS {
                for slot in 0..3 {
                    let cell = slot_cell(&mut t.hash, P24_BLOCK, (0, SPONGE_ROW + k, hash24::col::FLAGS + slot));
                    changed += usize::from(*cell != Val::ONE);
                    *cell = Val::ONE;
                }
            }
            assert!(changed > 0, "every slot already claimed no end");
        });
    }

    #[test]
    fn digest_columns() {
        tampered_is_rejected(|t| set_slot(&mut t.hash, P24_BLOCK, (0, TREE_ROW + 19, hash24::col::DIG), BUMP));
    }

    /// The second slot's chain rows claim the first slot's index: with two
    /// lanes, lane 1 of the first block says it is slot 0.
    #[test]
    fn chain_slot_index_of_a_second_lane() {
        tampered_is_rejected(|t| set_slot(&mut t.chain, P16_BLOCK, (1, 0, chain::col::SIG), |v| v - Val::ONE));
    }

    #[test]
    fn hash_slot_index() {
        tampered_is_rejected(|t| set_slot(&mut t.hash, P24_BLOCK, (1, 0, hash24::col::SIG), |v| v - Val::ONE));
    }

    /// The first two slots' chain steps trade places (lanes, or blocks with
    /// one lane) but keep their slot indices: each slot's chains then
    /// answer the other slot's digits, which the buses refuse.
    #[test]
    fn chain_slots_swapped() {
        tampered_is_rejected(|t| swap_slots(&mut t.chain, P16_BLOCK, chain::col::SIG));
    }

    #[test]
    fn hash_slots_swapped() {
        tampered_is_rejected(|t| swap_slots(&mut t.hash, P24_BLOCK, hash24::col::SIG));
    }

    /// Swaps every column but `keep` of slots 0 and 1 in a Poseidon2 table.
    fn swap_slots(m: &mut p3_matrix::dense::RowMajorMatrix<Val>, block: usize, keep: usize) {
        let lane_width = m.width / lanes(m, block);
        for r in 0..block {
            for col in (0..lane_width).filter(|&c| c != keep) {
                let a = *slot_cell(m, block, (0, r, col));
                let b = std::mem::replace(slot_cell(m, block, (1, r, col)), a);
                *slot_cell(m, block, (0, r, col)) = b;
            }
        }
    }

    #[test]
    fn digests_fit_the_statement() {
        // Sanity: the digest type the AIR checks against has seven elements.
        assert_eq!(<<Seed001 as sigagg_xmss::ParameterSet>::Digest as FeArray>::LEN, 7);
    }
}

#[test]
fn verifier_lookups_match_plonky3s_derivation() {
    let (statement, _) = batch(80, 3, false, &[1, 2, 3]);
    for settings in [SETTINGS, PAIRED] {
        let (ours, theirs) = testing::lookups_both_ways(&settings, &statement);
        assert_eq!(ours, theirs, "log blowup {}", settings.log_blowup());
        let (declared, inferred) = testing::quotient_chunks_both_ways(&settings, &statement);
        assert_eq!(declared, inferred, "log blowup {}", settings.log_blowup());
    }
}

/// The FRI prover, which copies out the lookups' columns and commits the
/// traces by value, emits Plonky3's own proof of the same traces byte for
/// byte, in both table layouts; another statement's proof differs.
#[test]
fn fri_prover_matches_plonky3_byte_for_byte() {
    let (statement, sigs) = batch(81, 3, false, &[1, 2, 3]);
    for settings in [SETTINGS, PAIRED] {
        let (ours, theirs) = testing::proofs_both_ways(&settings, &statement, &sigs);
        assert_eq!(ours, theirs, "log blowup {}", settings.log_blowup());
    }
    let (other, other_sigs) = batch(82, 3, false, &[1, 2, 3]);
    let (ours, _) = testing::proofs_both_ways(&SETTINGS, &statement, &sigs);
    assert_ne!(ours, testing::proofs_both_ways(&SETTINGS, &other, &other_sigs).0);
}

/// The real settings prove a one-signature statement (every table must be
/// taller than the final FRI polynomial; padding guarantees it).
#[test]
fn real_settings_prove_a_single_signature() {
    let (statement, sigs) = batch(77, 1, true, &[9]);
    for settings in [Settings::FAST, Settings::COMPACT, Settings::WHIR, Settings::WHIR_COMPACT] {
        let proof = aggregate(&settings, &statement, &sigs).unwrap();
        verify(&settings, &statement, &proof).unwrap();
        let (other, _) = batch(78, 1, true, &[9]);
        assert!(verify(&settings, &other, &proof).is_err());
    }
}

/// From 1024 slots the multilinear backend commits every round of the
/// width-24 table (`air::hash_stride`): such a proof verifies, and a
/// permutation cell of that layout, corrupted past the prover's checks,
/// is rejected.
#[test]
fn whir_aggregate_with_every_width_24_round() {
    use p3_air::BaseAir;
    use sigagg_xmss_agg::air::hash24::HashAir;
    let n = sigagg_xmss_agg::air::WHIR_HASH_ROUNDS_FROM;
    let (statement, sigs) = batch(90, n, true, &[3]);
    let mut traces = testing::traces(&WHIR, &statement, &sigs);
    assert_eq!(traces.hash.width, BaseAir::<Val>::width(&HashAir::new(1, false)));
    let proof = testing::prove_traces(&WHIR, &statement, &traces).unwrap();
    verify(&WHIR, &statement, &proof).unwrap();
    // A round column of slot 5's third tree row.
    let row = 5 * P24_BLOCK + sigagg_xmss_agg::layout::TREE_ROW + 2;
    set(&mut traces.hash, row, 200, |v| v + Val::ONE);
    testing::assert_tampered_rejected(
        &WHIR,
        || testing::prove_traces(&WHIR, &statement, &traces),
        |proof| verify(&WHIR, &statement, proof),
    );
}

/// leanSig-family aggregates (`sigagg_xmss_agg::leansig`): a module of
/// this test binary rather than a binary of its own, so the release test
/// build links one binary fewer.
#[path = "aggregate/leansig.rs"]
mod leansig;
