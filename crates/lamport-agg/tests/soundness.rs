//! End-to-end tests of Lamport+ aggregate and threshold proofs: valid
//! statements prove and verify (aggregates of 1, 2, 3, 5 signatures;
//! thresholds in groups of 1, 3, 7, 127, and one whose codeword overflows
//! the main table); changed statements, forged public values, tampered
//! bytes, cheating witnesses (outsider, signer counted twice, signature on
//! another message, too few signers, another slot's sub-key hash beside a
//! sponge row) and per-table trace corruptions are all rejected; every
//! table declares the columns whose next row it reads.
//!
//! Proofs use the insecure `named::TEST` settings to keep the suite fast;
//! the real settings' security is computed in `src/security.rs`.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use p3_field::PrimeCharacteristicRing;
use p3_matrix::Matrix;
use sigagg_lamport::{GroupTree, LamportPlus, LamportPlusMined, ParameterSet};
use sigagg_lamport_agg::config::{self, Val};
use sigagg_lamport_agg::named;
use sigagg_lamport_agg::poseidon::{Outputs, Rounds};
use sigagg_lamport_agg::system;
use sigagg_lamport_agg::trace::Traces;
use sigagg_lamport_agg::{
    AggregateEntry, AggregateStatement, Disclosure, Proof, ProveError, Settings, ThresholdStatement, VerifyError,
    aggregate, threshold,
};
use sigagg_prover::codec;

const T: Settings = named::TEST;

/// Every header byte (kind, set, settings, count, counters, bitmap), the
/// first, middle and last byte of every part of the STARK in encoding
/// order (its backend and hash tags, then its body: `StarkProof::body_layout`,
/// which must tile it), and positions spread over the whole proof.
fn flip_positions(bytes: &[u8]) -> Vec<usize> {
    let proof = Proof::from_bytes(bytes).unwrap();
    let stark = &proof.stark;
    sigagg_prover::testing::flip_positions(bytes.len(), codec::last_field_start(&proof, stark), &stark.body_layout())
}

/// Every flipped bit of [`flip_positions`] (bits 0, 3 and 7 in turn),
/// truncation and trailing byte is rejected by decoding or by `verify`;
/// nothing panics.
fn assert_tampering_rejected(bytes: &[u8], verify: impl Fn(&Proof) -> Result<(), VerifyError>) {
    verify(&Proof::from_bytes(bytes).unwrap()).expect("the untampered proof verifies");
    for (n, at) in flip_positions(bytes).into_iter().enumerate() {
        let mut bad = bytes.to_vec();
        bad[at] ^= 1 << [0u8, 3, 7][n % 3];
        let outcome = catch_unwind(AssertUnwindSafe(|| Proof::from_bytes(&bad).map(|p| verify(&p))));
        match outcome {
            Ok(Err(_)) | Ok(Ok(Err(_))) => {}
            Ok(Ok(Ok(()))) => panic!("a flip of byte {at} was accepted"),
            Err(_) => panic!("a flip of byte {at} panicked"),
        }
    }
    for len in [0, 1, 7, bytes.len() / 2, bytes.len() - 1] {
        assert!(Proof::from_bytes(&bytes[..len]).is_err(), "truncation to {len}");
    }
    let mut long = bytes.to_vec();
    long.push(0);
    assert!(Proof::from_bytes(&long).is_err(), "a trailing byte");
}

/// Whether the proof of tampered traces (or of a cheating witness) is
/// refused. A debug build of a prover that checks every constraint and
/// panics counts as refused (the FRI prover checks nothing in any build).
/// Otherwise the test is about the verifier: the prover must return a
/// proof, and the verifier refuses it only as `VerifyError::Invalid` (the
/// STARK); any other error means the case never reached the STARK.
fn rejected(
    prove: impl FnOnce() -> Result<Proof, ProveError>,
    verify: impl Fn(&Proof) -> Result<(), VerifyError>,
) -> bool {
    match judge(prove, verify) {
        Outcome::Refused => true,
        Outcome::Accepted => false,
        Outcome::FlagNotBoolean => panic!("the honest LogUp generator refused a non-boolean flag"),
    }
}

/// What became of a tampered proof.
enum Outcome {
    /// Refused (see [`rejected`]).
    Refused,
    /// Verified.
    Accepted,
    /// Release builds: Plonky3's LogUp trace generator asserts that the
    /// flags of an exclusive interaction are boolean, so no proof exists
    /// to give the verifier. A cheating prover is not bound by that
    /// assertion; the caller retries with a boolean value instead.
    FlagNotBoolean,
}

fn judge(
    prove: impl FnOnce() -> Result<Proof, ProveError>,
    verify: impl Fn(&Proof) -> Result<(), VerifyError>,
) -> Outcome {
    match catch_unwind(AssertUnwindSafe(prove)) {
        Ok(Ok(proof)) => match verify(&proof) {
            Ok(()) => Outcome::Accepted,
            Err(VerifyError::Invalid(_)) => Outcome::Refused,
            Err(e) => panic!("refused by {e:?}, not by the STARK"),
        },
        Ok(Err(_)) | Err(_) if cfg!(debug_assertions) => Outcome::Refused,
        // The multilinear prover balances every bus before it proves (its
        // proof carries the root of the fractional sums, which the verifier
        // checks is zero) and refuses a witness whose buses do not balance:
        // that cannot be forced past it; byte flips cover a changed root.
        Ok(Err(e)) if format!("{e:?}").contains(sigagg_prover::whir::UNBALANCED_BUS) => Outcome::Refused,
        Ok(Err(e)) => panic!("the release prover returned {e:?} instead of a proof"),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            assert!(message.contains("exclusive flag must be boolean"), "a release prover panicked: {message}");
            Outcome::FlagNotBoolean
        }
    }
}

/// Judges the corruption of `cell` by `prove` (given the corrupted
/// traces): adding 2, or, where that makes an exclusive flag non-boolean
/// and the honest prover cannot proceed, flipping the (boolean) value.
fn corruption_refused(
    traces: &Traces,
    cell: (usize, usize, usize),
    prove: impl Fn(Traces) -> Result<Proof, ProveError>,
    verify: impl Fn(&Proof) -> Result<(), VerifyError>,
) -> bool {
    match judge(|| prove(corrupt(traces, cell)), &verify) {
        Outcome::Refused => true,
        Outcome::Accepted => false,
        Outcome::FlagNotBoolean => rejected(|| prove(flip(traces, cell)), &verify),
    }
}

/// Cells of every table to corrupt: rows in the first and in a later slot,
/// columns spread over the width.
fn corruption_targets(traces: &Traces) -> Vec<(usize, usize, usize)> {
    let mut cells = Vec::new();
    for (t, table) in traces.tables.iter().enumerate() {
        let (h, w) = (table.height(), table.width());
        for row in [1, h / 2 + 1] {
            for col in [0, w / 3, 2 * w / 3, w - 1] {
                cells.push((t, row % h, col));
            }
        }
    }
    cells.dedup();
    cells
}

/// Adds 2 to one cell. Not 1: the gap bits of uncounted threshold slots
/// are free bits by design (only counted slots' gaps enter a constraint),
/// and `0 + 1` would still be a bit; `+ 2` leaves no bit a bit.
fn corrupt(traces: &Traces, (t, row, col): (usize, usize, usize)) -> Traces {
    let mut tampered = traces.clone();
    let table = &mut tampered.tables[t];
    let w = table.width();
    table.values[row * w + col] += Val::TWO;
    tampered
}

/// Flips one boolean cell (`v -> 1 - v`).
fn flip(traces: &Traces, (t, row, col): (usize, usize, usize)) -> Traces {
    let mut tampered = traces.clone();
    let table = &mut tampered.tables[t];
    let w = table.width();
    let v = table.values[row * w + col];
    assert!(v == Val::ZERO || v == Val::ONE, "flag ({t}, {row}, {col}) is {v}");
    table.values[row * w + col] = Val::ONE - v;
    tampered
}

// ---------------------------------------------------------------- aggregate

#[test]
fn aggregates_prove_and_verify() {
    for n in [1usize, 2, 3, 5] {
        let (st, sigs) = common::aggregate_batch::<LamportPlus>(10 + n as u8, n);
        let proof = aggregate::prove(&T, &st, &sigs).unwrap();
        assert_eq!(proof.count as usize, n);
        let bytes = proof.to_bytes();
        aggregate::verify(&T, &st, &Proof::from_bytes(&bytes).unwrap()).unwrap();
        // Another batch's statement of the same size is rejected.
        let (other, _) = common::aggregate_batch::<LamportPlus>(40 + n as u8, n);
        assert!(aggregate::verify(&T, &other, &proof).is_err(), "n = {n}");
    }
    let (st, sigs) = common::aggregate_batch::<LamportPlusMined>(20, 3);
    let proof = aggregate::prove(&T, &st, &sigs).unwrap();
    aggregate::verify(&T, &st, &proof).unwrap();
    // A plain-set verifier refuses a mined-set proof.
    let (plain, _) = common::aggregate_batch::<LamportPlus>(20, 3);
    assert!(aggregate::verify(&T, &plain, &proof).is_err());
}

#[test]
fn changed_aggregate_statements_are_rejected() {
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(3, 3);
    let proof = aggregate::prove(&T, &st, &sigs).unwrap();
    let entries = st.entries().to_vec();
    let with = |e: Vec<AggregateEntry<LamportPlus>>| AggregateStatement::new(e).unwrap();
    let mut message = entries.clone();
    message[1].message.push(b'!');
    let mut key = entries.clone();
    key[2].public_key = common::keys::<LamportPlus>(99, 1)[0].0;
    let mut reordered = entries.clone();
    reordered.swap(0, 1);
    for (what, changed) in [
        ("message", with(message)),
        ("key", with(key)),
        ("order", with(reordered)),
        ("dropped entry", with(entries[..2].to_vec())),
    ] {
        assert!(aggregate::verify(&T, &changed, &proof).is_err(), "{what}");
    }
    // Other settings: the header does not match.
    assert_eq!(aggregate::verify(&named::FAST, &st, &proof), Err(VerifyError::SettingsMismatch));
}

#[test]
fn invalid_aggregate_witnesses_are_typed_errors() {
    let (st, mut sigs) = common::aggregate_batch::<LamportPlus>(4, 3);
    assert!(matches!(
        aggregate::prove(&T, &st, &sigs[..2]),
        Err(ProveError::CountMismatch { entries: 3, signatures: 2 })
    ));
    // Entry 2 carries entry 1's signature.
    sigs[2] = sigs[1].clone();
    assert!(matches!(aggregate::prove(&T, &st, &sigs), Err(ProveError::InvalidSignature { index: 2, .. })));
    // A cheating prover that skips the native checks gets no valid proof.
    let (instance, traces) = aggregate::testing::unchecked_traces(&T, &st, &sigs).unwrap();
    let proved = || aggregate::testing::prove_traces(&T, &st, &sigs, &instance, &traces);
    assert!(rejected(proved, |p| aggregate::verify(&T, &st, p)));
}

/// The multilinear backend: aggregates and thresholds prove and verify,
/// another statement and flipped bytes are refused, and each backend's
/// settings refuse the other's proof with a typed error.
#[test]
fn the_multilinear_backend_proves_both_kinds() {
    multilinear_proves_both_kinds(named::TEST_WHIR);
}

/// The same on our own multilinear prover, which also refuses the other
/// multilinear backend's proofs, and they its.
#[test]
fn our_multilinear_prover_proves_both_kinds() {
    multilinear_proves_both_kinds(named::TEST_WHIR_SKIP);
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(62, 1);
    let (skip, whir) = (named::TEST_WHIR_SKIP, named::TEST_WHIR);
    let proof = aggregate::prove(&skip, &st, &sigs).unwrap();
    assert_eq!(
        aggregate::verify(&whir, &st, &proof),
        Err(VerifyError::WrongBackend { expected: config::Backend::Whir, found: config::Backend::Skip })
    );
    let proof = aggregate::prove(&whir, &st, &sigs).unwrap();
    assert_eq!(
        aggregate::verify(&skip, &st, &proof),
        Err(VerifyError::WrongBackend { expected: config::Backend::Skip, found: config::Backend::Whir })
    );
}

fn multilinear_proves_both_kinds(whir: config::Settings) {
    for n in [1usize, 3] {
        let (st, sigs) = common::aggregate_batch::<LamportPlus>(60 + n as u8, n);
        let proof = aggregate::prove(&whir, &st, &sigs).unwrap();
        assert_eq!(proof.stark.backend(), whir.backend());
        let bytes = proof.to_bytes();
        aggregate::verify(&whir, &st, &Proof::from_bytes(&bytes).unwrap()).unwrap();
        let (other, _) = common::aggregate_batch::<LamportPlus>(70 + n as u8, n);
        assert!(aggregate::verify(&whir, &other, &proof).is_err(), "n = {n}");
        assert_eq!(
            aggregate::verify(&T, &st, &proof),
            Err(VerifyError::WrongBackend { expected: config::Backend::Fri, found: whir.backend() })
        );
        if n == 3 {
            assert_tampering_rejected(&bytes, |p| aggregate::verify(&whir, &st, p));
        }
    }
    let fri = {
        let (st, sigs) = common::aggregate_batch::<LamportPlus>(61, 1);
        (aggregate::prove(&T, &st, &sigs).unwrap(), st)
    };
    assert_eq!(
        aggregate::verify(&whir, &fri.1, &fri.0),
        Err(VerifyError::WrongBackend { expected: whir.backend(), found: config::Backend::Fri })
    );
    // Thresholds, both parameter sets (the plain set has a tree table).
    let (_, st, signers) = setup::<LamportPlus>(81, 7, &[6, 1, 3], 3);
    for disclosure in [Disclosure::CountOnly, Disclosure::Bitmap] {
        let proof = threshold::prove(&whir, &st, &signers, disclosure).unwrap();
        let bytes = proof.to_bytes();
        threshold::verify(&whir, &st, &Proof::from_bytes(&bytes).unwrap()).unwrap();
        assert_eq!(proof.count, 3);
        let (_, higher, _) = setup::<LamportPlus>(81, 7, &[6, 1, 3], 4);
        assert!(threshold::verify(&whir, &higher, &proof).is_err());
        if disclosure == Disclosure::Bitmap {
            assert_tampering_rejected(&bytes, |p| threshold::verify(&whir, &st, p));
        }
    }
    let (_, st, signers) = setup::<LamportPlusMined>(82, 5, &[0, 2, 4], 3);
    let proof = threshold::prove(&whir, &st, &signers, Disclosure::Bitmap).unwrap();
    threshold::verify(&whir, &st, &proof).unwrap();
}

#[test]
fn tampered_aggregate_proofs_are_rejected() {
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(5, 2);
    let bytes = aggregate::prove(&T, &st, &sigs).unwrap().to_bytes();
    assert_tampering_rejected(&bytes, |p| aggregate::verify(&T, &st, p));
}

#[test]
fn aggregate_trace_corruptions_fail_verification() {
    assert_aggregate_corruptions_rejected(&T, 6, &[]);
}

#[test]
fn aggregate_trace_corruptions_fail_verification_on_the_multilinear_backend() {
    assert_aggregate_corruptions_rejected(&named::TEST_WHIR, 6, &[]);
}

#[test]
fn aggregate_trace_corruptions_fail_verification_on_our_multilinear_prover() {
    assert_aggregate_corruptions_rejected(&named::TEST_WHIR_SKIP, 6, &[]);
}

/// Corrupts every target cell, and the `extra` ones, of an honest
/// three-signature aggregate witness under `settings`: each corruption must
/// fail verification, while the honest traces through the same path verify
/// (so the test can fail).
fn assert_aggregate_corruptions_rejected(settings: &Settings, tag: u8, extra: &[(usize, usize, usize)]) {
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(tag, 3);
    let (instance, traces) = aggregate::testing::traces(settings, &st, &sigs);
    let verify = |p: &Proof| aggregate::verify(settings, &st, p);
    assert!(!rejected(|| aggregate::testing::prove_traces(settings, &st, &sigs, &instance, &traces), verify));
    let mut cells = corruption_targets(&traces);
    assert!(cells.iter().any(|c| c.0 == 0) && cells.iter().any(|c| c.0 == 1));
    cells.extend_from_slice(extra);
    for cell in cells {
        let prove = |bad: Traces| aggregate::testing::prove_traces(settings, &st, &sigs, &instance, &bad);
        assert!(
            corruption_refused(&traces, cell, prove, verify),
            "corrupted (table, row, column) {cell:?} was accepted"
        );
    }
}

/// The sponge must absorb the statement's codeword. A cheating prover uses a
/// valid signature by the same key on another message and copies the
/// statement's chunk values into the slot table: every table's own
/// constraints and the sub-key and key messages hold, only the `Code`
/// messages disagree, and verification fails.
#[test]
fn aggregate_sponge_absorbs_the_statement_codeword() {
    let tag = 8;
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(tag, 3);
    // A fresh copy of key 1's one-time secret key signs another message.
    let mut sk1 = common::keys::<LamportPlus>(tag, 3).swap_remove(1).1;
    let other = b"another message".to_vec();
    let mut entries = st.entries().to_vec();
    entries[1].message = other.clone();
    let other_st = AggregateStatement::new(entries).unwrap();
    let mut other_sigs = sigs.clone();
    other_sigs[1] = sk1.sign(&other).unwrap();
    let (other_instance, mut traces) = aggregate::testing::traces(&T, &other_st, &other_sigs);
    // Control: these traces prove their own statement.
    let own = aggregate::testing::prove_traces(&T, &other_st, &other_sigs, &other_instance, &traces).unwrap();
    aggregate::verify(&T, &other_st, &own).unwrap();
    let (instance, honest) = aggregate::testing::traces(&T, &st, &sigs);
    assert_ne!(traces.tables[0], honest.tables[0], "the chunk values differ");
    traces.tables[0] = honest.tables[0].clone();
    let proved = || aggregate::testing::prove_traces(&T, &st, &sigs, &instance, &traces);
    assert!(rejected(proved, |p| aggregate::verify(&T, &st, p)));
}

/// A sponge row must continue the previous row's capacity. Row 1 of the
/// main table (slot 0's second sponge block) gets another capacity, and
/// its permutation is rewritten for it, so every constraint of the row
/// itself and every message still holds: only the sponge's transitions
/// (from row 0's output capacity, and on to row 2) disagree. On the
/// multilinear backends the output capacity has no columns (the table
/// asserts its expression against the next row's input:
/// `HashAir::with_chained_capacity`), so this is the one check of that
/// expression; on FRI the committed output columns carry it.
#[test]
fn a_sponge_row_continues_the_previous_capacity() {
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(9, 3);
    for settings in [T, named::TEST_WHIR, named::TEST_WHIR_SKIP] {
        let (instance, mut traces) = aggregate::testing::traces(&settings, &st, &sigs);
        let air = instance.main_air();
        let p24 = air.p24();
        let chained = usize::from(settings.backend().is_multilinear());
        assert_eq!(air.degree(), air.spec().rounds.max_degree() + chained);
        let table = &mut traces.tables[system::MAIN];
        let width = table.width();
        let row = &mut table.values[width..2 * width];
        let mut input: [Val; 24] = core::array::from_fn(|j| row[j]);
        input[20] += Val::ONE;
        let lanes = <sigagg_lamport::field::PackedF as p3_field::PackedValue>::WIDTH;
        let mut scratch = vec![Val::ZERO; (lanes - 1) * p24.cols()];
        let mut rows: Vec<&mut [Val]> = vec![&mut row[..p24.cols()]];
        rows.extend(scratch.chunks_mut(p24.cols()));
        p24.write(&mut rows, &vec![input; lanes]);
        let proved = || aggregate::testing::prove_traces(&settings, &st, &sigs, &instance, &traces);
        assert!(rejected(proved, |p| aggregate::verify(&settings, &st, p)), "{}", settings.backend().name());
    }
}

/// `p3-multi-stark` in the layouts it takes only for large statements
/// (too large for this suite), and in our own prover's:
/// * `Outputs::ForKeys`: the sub-key messages carry degree-9 fields;
/// * `Outputs::None`, our prover's, and `p3-multi-stark`'s for a plain
///   threshold whose codeword has 161-192 ones at n = 1024: the key
///   messages too.
///
/// The honest traces prove and verify, the instance in the layout with
/// more committed lanes refuses the proof, and every per-table corruption
/// fails.
#[test]
fn p3_multi_stark_proves_its_other_layouts() {
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(10, 3);
    let settings = named::TEST_WHIR;
    for (outputs, other) in [(Outputs::ForKeys, Outputs::ForMessages), (Outputs::None, Outputs::ForMessages)] {
        let (instance, traces) = aggregate::testing::traces_with_layout(&settings, &st, &sigs, Rounds::Paired, outputs);
        assert_eq!(instance.main_air().degree(), 10);
        let other = instance.clone().with_outputs(other);
        assert_other_layouts_proven(&settings, instance, &traces, other);
    }
}

fn assert_other_layouts_proven(
    settings: &Settings,
    instance: system::Instance,
    traces: &Traces,
    other: system::Instance,
) {
    assert_ne!(instance.cells(), other.cells());
    let prove = |t: &Traces| catch_unwind(AssertUnwindSafe(|| system::prove(settings, &instance, t.tables.clone())));
    let proof = prove(traces).unwrap().unwrap();
    system::verify(settings, &instance, &proof).unwrap();
    assert!(system::verify(settings, &other, &proof).is_err());
    let accepted: Vec<_> = corruption_targets(traces)
        .into_iter()
        .filter(|&cell| match prove(&corrupt(traces, cell)) {
            Ok(Ok(proof)) => system::verify(settings, &instance, &proof).is_ok(),
            // Debug builds check the constraints; the release prover
            // refuses unbalanced buses.
            Ok(Err(_)) | Err(_) => false,
        })
        .collect();
    let layout = (instance.shape.rounds, p3_air::BaseAir::<Val>::width(instance.main_air()));
    assert!(accepted.is_empty(), "{layout:?}: accepted corruptions (table, row, column) {accepted:?}");
}

// ---------------------------------------------------------------- threshold

/// A group of `n`, the statement for `message` with threshold `t`, and the
/// signatures of `members`.
fn setup<S: ParameterSet>(
    tag: u8,
    n: usize,
    members: &[usize],
    t: u32,
) -> (GroupTree, ThresholdStatement<S>, Vec<threshold::Signer<S>>) {
    let (tree, pks, mut sks) = common::group::<S>(tag, n);
    let message = format!("block {tag}").into_bytes();
    let signers = common::signers(&tree, &pks, &mut sks, members, &message);
    let st = ThresholdStatement::new(tree.key(), message, t).unwrap();
    (tree, st, signers)
}

/// The FRI prover's proof of a threshold over a mined set equals Plonky3's
/// `prove_batch`'s byte for byte. Its hash table, which holds the group
/// tree's levels in the signers' blocks, sends exclusive bus groups (flagged LogUp
/// columns) under FRI, whose constraints the prover evaluates itself
/// (`sigagg_prover::fri`'s quotient), so this holds that evaluation to
/// Plonky3's gadget.
#[test]
fn fri_threshold_proofs_equal_plonky3s() {
    let (_, st, signers) = setup::<LamportPlusMined>(70, 7, &[6, 1, 3], 3);
    let witness = threshold::testing::witness(&T, &st, &signers, Disclosure::CountOnly);
    let lookups = <sigagg_lamport_agg::air::AggAir as sigagg_prover::Table>::lookups(&witness.instance.airs);
    assert!(lookups.iter().flat_map(|l| l.iter()).any(|l| l.flags.is_some()), "an exclusive bus group under FRI");
    let (ours, theirs) =
        sigagg_prover::testing::proofs_both_ways(&T, &witness.instance.tables(), witness.traces.tables);
    assert_eq!(ours, theirs);
}

#[test]
fn thresholds_prove_and_verify() {
    let cases: [(usize, &[usize], u32); 5] =
        [(1, &[0], 1), (3, &[0, 1, 2], 2), (7, &[6, 1, 3], 3), (127, &[0, 5, 17, 64, 100, 126], 4), (127, &[126], 1)];
    for (i, (n, members, t)) in cases.into_iter().enumerate() {
        let (_, st, signers) = setup::<LamportPlus>(50 + i as u8, n, members, t);
        for disclosure in [Disclosure::CountOnly, Disclosure::Bitmap] {
            let proof = threshold::prove(&T, &st, &signers, disclosure).unwrap();
            let proof = Proof::from_bytes(&proof.to_bytes()).unwrap();
            threshold::verify(&T, &st, &proof).unwrap();
            assert_eq!(proof.count as usize, members.len());
            let revealed = proof.bitmap.as_deref().map(|b| sigagg_lamport_agg::members_of(n as u32, b).unwrap());
            let mut sorted: Vec<u32> = members.iter().map(|&m| m as u32).collect();
            sorted.sort_unstable();
            assert_eq!(revealed, (disclosure == Disclosure::Bitmap).then_some(sorted), "n = {n}");
        }
    }
    let (_, st, signers) = setup::<LamportPlusMined>(60, 5, &[0, 2, 4], 3);
    let proof = threshold::prove(&T, &st, &signers, Disclosure::Bitmap).unwrap();
    threshold::verify(&T, &st, &proof).unwrap();
}

#[test]
fn invalid_threshold_witnesses_are_typed_errors() {
    let (tree, st, signers) = setup::<LamportPlus>(70, 7, &[1, 2, 5], 3);
    // Too few.
    assert!(matches!(
        threshold::prove(&T, &st, &signers[..2], Disclosure::CountOnly),
        Err(ProveError::ThresholdNotReached { signers: 2, threshold: 3 })
    ));
    // The same signer twice.
    let twice = vec![signers[0].clone(), signers[1].clone(), signers[0].clone()];
    assert!(matches!(
        threshold::prove(&T, &st, &twice, Disclosure::CountOnly),
        Err(ProveError::DuplicateSigner { leaf: 1 })
    ));
    // A key outside the tree, with a member's path and a valid signature.
    let (outsider_pk, mut outsider_sk) = common::keys::<LamportPlus>(71, 1).remove(0);
    let mut outsider = signers.clone();
    outsider[2] = threshold::Signer {
        public_key: outsider_pk,
        signature: outsider_sk.sign(st.message()).unwrap(),
        path: tree.prove(0).unwrap(),
    };
    assert!(matches!(
        threshold::prove(&T, &st, &outsider, Disclosure::CountOnly),
        Err(ProveError::NotAMember { index: 2, .. })
    ));
    // A signature on another message (the same member's key, re-derived
    // from its seed, signs something else).
    let (tree2, pks2, mut sks2) = common::group::<LamportPlus>(70, 7);
    assert_eq!(tree2.key(), tree.key());
    let mut wrong = signers.clone();
    wrong[1] = common::signers(&tree2, &pks2, &mut sks2, &[2], b"another message").remove(0);
    assert!(matches!(
        threshold::prove(&T, &st, &wrong, Disclosure::CountOnly),
        Err(ProveError::InvalidSignature { index: 1, .. })
    ));
}

#[test]
fn changed_threshold_statements_and_forged_values_are_rejected() {
    let (tree, st, signers) = setup::<LamportPlus>(80, 7, &[0, 3, 6], 2);
    let proof = threshold::prove(&T, &st, &signers, Disclosure::Bitmap).unwrap();
    threshold::verify(&T, &st, &proof).unwrap();
    let group = tree.key();
    let message = st.message().to_vec();
    // Another message, another group, a threshold above the count.
    let other_message = ThresholdStatement::<LamportPlus>::new(group, b"block 81".to_vec(), 2).unwrap();
    let stark = |r: Result<(), VerifyError>| matches!(r, Err(VerifyError::Invalid(_)));
    // Another message has another codeword, and so (usually) other table
    // heights: refused by the STARK or, before it, by the heights the
    // statement implies.
    let r = threshold::verify(&T, &other_message, &proof);
    assert!(matches!(r, Err(VerifyError::Invalid(_) | VerifyError::ShapeMismatch)), "another message: {r:?}");
    let (other_tree, _, _) = common::group::<LamportPlus>(81, 7);
    let other_group = ThresholdStatement::<LamportPlus>::new(other_tree.key(), message.clone(), 2).unwrap();
    assert!(stark(threshold::verify(&T, &other_group, &proof)), "another group");
    let higher = ThresholdStatement::<LamportPlus>::new(group, message, 4).unwrap();
    assert!(matches!(
        threshold::verify(&T, &higher, &proof),
        Err(VerifyError::ThresholdNotReached { count: 3, threshold: 4 })
    ));
    // Forged counts (the disclosed bitmap's popcount refuses them), forged
    // bitmaps of the right popcount (the STARK), a removed bitmap.
    for count in [2u32, 4, 7] {
        let mut forged = Proof::from_bytes(&proof.to_bytes()).unwrap();
        forged.count = count;
        assert!(matches!(threshold::verify(&T, &st, &forged), Err(VerifyError::PublicMismatch(_))), "count {count}");
    }
    let bitmap = proof.bitmap.clone().unwrap();
    for (what, b) in [("member 3 -> 4", bitmap[0] ^ 0b0001_1000), ("member 0 -> 1", bitmap[0] ^ 0b0000_0011)] {
        let mut forged = Proof::from_bytes(&proof.to_bytes()).unwrap();
        forged.bitmap = Some(vec![b]);
        assert!(stark(threshold::verify(&T, &st, &forged)), "{what}");
    }
    let mut extra = Proof::from_bytes(&proof.to_bytes()).unwrap();
    extra.bitmap = Some(vec![bitmap[0] | 0b0010_0000]);
    assert!(matches!(threshold::verify(&T, &st, &extra), Err(VerifyError::PublicMismatch(_))), "an extra member");
    // A bitmap with more members than `count` is refused by counting its
    // bits, before its members are listed: here 2^24 of them.
    let big_group = sigagg_lamport::GroupKey::new(*group.root(), 1 << 24).unwrap();
    let big = ThresholdStatement::<LamportPlus>::new(big_group, st.message().to_vec(), 2).unwrap();
    let mut ones = Proof::from_bytes(&proof.to_bytes()).unwrap();
    ones.bitmap = Some(vec![0xff; 1 << 21]);
    assert!(matches!(threshold::verify(&T, &big, &ones), Err(VerifyError::PublicMismatch(_))), "a full bitmap");
    let mut hidden = Proof::from_bytes(&proof.to_bytes()).unwrap();
    hidden.bitmap = None;
    assert!(stark(threshold::verify(&T, &st, &hidden)), "a bitmap removed after proving");
    // A threshold proof is not an aggregate proof.
    let (agg_st, _) = common::aggregate_batch::<LamportPlus>(82, 3);
    assert!(matches!(aggregate::verify(&T, &agg_st, &proof), Err(VerifyError::WrongKind { .. })));
}

#[test]
fn tampered_threshold_proofs_are_rejected() {
    let (_, st, signers) = setup::<LamportPlus>(90, 3, &[0, 2], 2);
    let bytes = threshold::prove(&T, &st, &signers, Disclosure::Bitmap).unwrap().to_bytes();
    assert_tampering_rejected(&bytes, |p| threshold::verify(&T, &st, p));
}

#[test]
fn cheating_threshold_witnesses_fail() {
    let (tree, st, signers) = setup::<LamportPlus>(100, 7, &[1, 4, 6], 3);
    let verify = |p: &Proof| threshold::verify(&T, &st, p);
    let cheat = |signers: &[threshold::Signer<LamportPlus>]| {
        let witness = threshold::testing::unchecked_witness(&T, &st, signers, Disclosure::CountOnly);
        rejected(|| witness.and_then(|w| threshold::testing::prove_witness(&T, w)), verify)
    };
    // Honest signers in slot order pass through the same path.
    let mut honest = signers.clone();
    honest.sort_by_key(|s| s.path.index());
    assert!(!cheat(&honest), "the honest witness must verify");
    // One member counted twice (three slots, two members).
    assert!(cheat(&[honest[0].clone(), honest[0].clone(), honest[1].clone()]));
    assert!(cheat(&[honest[0].clone(), honest[1].clone(), honest[1].clone()]));
    // Slots out of order (indices must increase strictly).
    assert!(cheat(&[honest[1].clone(), honest[0].clone(), honest[2].clone()]));
    // An outsider with a member's path.
    let (pk, mut sk) = common::keys::<LamportPlus>(101, 1).remove(0);
    let outsider =
        threshold::Signer { public_key: pk, signature: sk.sign(st.message()).unwrap(), path: tree.prove(5).unwrap() };
    assert!(cheat(&[honest[0].clone(), honest[1].clone(), outsider]));
    // A member's signature on another message.
    let (tree2, pks2, mut sks2) = common::group::<LamportPlus>(100, 7);
    assert_eq!(tree2.key(), tree.key());
    let wrong = common::signers(&tree2, &pks2, &mut sks2, &[6], b"another message").remove(0);
    assert!(cheat(&[honest[0].clone(), honest[1].clone(), wrong]));
    // Two signers, the count forged to the threshold: the header refuses
    // the true count, the STARK the forged one.
    let w = threshold::testing::unchecked_witness(&T, &st, &honest[..2], Disclosure::CountOnly).unwrap();
    let mut proof = threshold::testing::prove_witness(&T, w).expect("two honest signers prove");
    assert_eq!(verify(&proof), Err(VerifyError::ThresholdNotReached { count: 2, threshold: 3 }));
    proof.count = 3;
    assert!(matches!(verify(&proof), Err(VerifyError::Invalid(_))), "a forged count");
}

#[test]
fn threshold_trace_corruptions_fail_verification() {
    // Plain set with a group: slot, main and tree tables (depth 3 does not
    // share the sponge's block); mined set: the tree levels in the main block.
    // Both backends.
    for (settings, mined) in [
        (T, false),
        (T, true),
        (named::TEST_WHIR, false),
        (named::TEST_WHIR, true),
        (named::TEST_WHIR_SKIP, false),
        (named::TEST_WHIR_SKIP, true),
    ] {
        let n = 7;
        let (tables, failures) = if mined {
            let (_, st, signers) = setup::<LamportPlusMined>(110, n, &[0, 3, 5], 2);
            corrupt_threshold(&settings, &st, &signers)
        } else {
            let (_, st, signers) = setup::<LamportPlus>(111, n, &[0, 3, 5], 2);
            corrupt_threshold(&settings, &st, &signers)
        };
        assert!(tables >= if mined { 2 } else { 3 }, "tables covered: {tables}");
        assert!(
            failures.is_empty(),
            "{}, mined = {mined}: accepted corruptions (table, row, column) {failures:?}",
            settings.backend().name()
        );
    }
}

/// The node table's rows, edited by `edit(row, input, flags)` (the
/// width-24 input and `[left_in, right_in, real, root]`) and their
/// permutations recomputed: every row still holds a valid permutation, so
/// only the tree's own constraints and messages can catch the edit.
fn rewrite_nodes(
    witness: &threshold::Witness<LamportPlus>,
    edit: impl Fn(usize, &mut [Val; 24], &mut [Val; 4]),
) -> Traces {
    let (t, air) = witness.instance.node_air().expect("a node table");
    let (perm, cols) = (air.perm(), air.cols());
    let mut traces = witness.traces.clone();
    let table = &mut traces.tables[t];
    let width = table.width();
    for (r, row) in table.values.chunks_mut(width).enumerate() {
        let mut input = perm.idle_input();
        input[..perm.input_cols()].copy_from_slice(&row[..perm.input_cols()]);
        let mut flags = [row[cols.left_in], row[cols.right_in], row[cols.real], row[cols.root]];
        edit(r, &mut input, &mut flags);
        perm.write(&mut [&mut row[..perm.cols()]], &[input]);
        [row[cols.left_in], row[cols.right_in], row[cols.real], row[cols.root]] = flags;
    }
    traces
}

/// Targeted edits of the node table (a group of 7, members 0, 3 and 5:
/// rows (3,0), (2,0), (2,1), (1,0), (1,1), (1,2), then padding), each
/// with valid permutations, and of the slot table's leaf columns: all
/// fail verification on every backend.
#[test]
fn node_table_edits_fail_verification() {
    use sigagg_lamport::group::{NODE_INDEX_LANE, NODE_LEVEL_LANE};
    let (_, st, signers) = setup::<LamportPlus>(112, 7, &[0, 3, 5], 2);
    let one = Val::ONE;
    type Edit = Box<dyn Fn(usize, &mut [Val; 24], &mut [Val; 4])>;
    let edits: Vec<(&str, Edit)> = vec![
        (
            "a free sibling",
            Box::new(move |r, x, _| {
                if r == 2 {
                    x[8] += one
                }
            }),
        ),
        (
            "a received child dropped",
            Box::new(move |r, _, f| {
                if r == 3 {
                    *f = [Val::ZERO, Val::ZERO, Val::ZERO, Val::ZERO]
                }
            }),
        ),
        (
            "a free sibling received",
            Box::new(move |r, _, f| {
                if r == 4 {
                    f[0] = one
                }
            }),
        ),
        (
            "another index",
            Box::new(move |r, x, _| {
                if r == 1 {
                    x[NODE_INDEX_LANE] += one
                }
            }),
        ),
        (
            "another level",
            Box::new(move |r, x, _| {
                if r == 1 {
                    x[NODE_LEVEL_LANE] += one
                }
            }),
        ),
        (
            "no root row",
            Box::new(move |r, _, f| {
                if r == 0 {
                    f[3] = Val::ZERO
                }
            }),
        ),
        (
            "a second root row",
            Box::new(move |r, _, f| {
                if r == 1 {
                    f[3] = one
                }
            }),
        ),
        (
            "a padding row that receives",
            Box::new(move |r, _, f| {
                if r == 6 {
                    *f = [one, Val::ZERO, one, Val::ZERO]
                }
            }),
        ),
        (
            "the root's children swapped",
            Box::new(move |r, x, _| {
                if r == 0 {
                    x[..16].rotate_left(8)
                }
            }),
        ),
    ];
    for settings in [T, named::TEST_WHIR, named::TEST_WHIR_SKIP] {
        let verify = |p: &Proof| threshold::verify(&settings, &st, p);
        let honest = threshold::testing::witness(&settings, &st, &signers, Disclosure::CountOnly);
        let (t, _) = honest.instance.node_air().expect("the plain set has a node table");
        assert_eq!(honest.traces.tables[t].height(), 16);
        let prove = |bad: Traces| {
            let mut w = threshold::testing::witness(&settings, &st, &signers, Disclosure::CountOnly);
            w.traces = bad;
            threshold::testing::prove_witness(&settings, w)
        };
        // The rewrite itself changes nothing.
        assert!(!rejected(|| prove(rewrite_nodes(&honest, |_, _, _| {})), verify), "{}", settings.backend().name());
        for (what, edit) in &edits {
            assert!(rejected(|| prove(rewrite_nodes(&honest, edit)), verify), "{}: {what}", settings.backend().name());
        }
        // The slot table: a counted slot's leaf withheld, or another key sent.
        let slot = honest.instance.slot_air().leaf_cols().expect("leaf columns");
        for (cell, what) in [(slot.counted, "a leaf withheld"), (slot.key + 3, "another key")] {
            let mut bad = honest.traces.clone();
            let w = bad.tables[0].width();
            bad.tables[0].values[w + cell] += if cell == slot.counted { -one } else { one };
            assert!(rejected(|| prove(bad), verify), "{}: {what}", settings.backend().name());
        }
    }
}

/// A plain-set group of 7 and the statement for the first message
/// `"overflow k"` whose codeword has more than 128 ones: every slot then
/// hashes more sub-keys than its block has rows, and the excess goes to
/// the overflow table.
fn overflowing_setup(
    members: &[usize],
    t: u32,
) -> (ThresholdStatement<LamportPlus>, Vec<threshold::Signer<LamportPlus>>) {
    let (tree, pks, mut sks) = common::group::<LamportPlus>(120, 7);
    let message = (0u32..)
        .map(|k| format!("overflow {k}").into_bytes())
        .find(|m| sigagg_lamport::codeword::<LamportPlus>(m, 0).unwrap().ones() > 128)
        .unwrap();
    let signers = common::signers(&tree, &pks, &mut sks, members, &message);
    (ThresholdStatement::new(tree.key(), message, t).unwrap(), signers)
}

/// A threshold whose codeword overflows the main table proves and
/// verifies on both backends with an overflow table, whose cells (and the
/// usual ones) cannot be corrupted. The sponge rows read their slot's
/// randomizer off their own width-16 input: swapping the width-16 rows of
/// two slots' blocks (two valid permutations, the same bus messages) breaks
/// the randomizer's continuity, so the prover cannot place another slot's
/// hash beside a sponge row.
#[test]
fn overflowing_thresholds_prove_and_reject_corruptions() {
    let (st, signers) = overflowing_setup(&[0, 3, 5], 2);
    for settings in [T, named::TEST_WHIR, named::TEST_WHIR_SKIP] {
        let verify = |p: &Proof| threshold::verify(&settings, &st, p);
        let honest = threshold::testing::witness(&settings, &st, &signers, Disclosure::Bitmap);
        let overflow = honest.instance.overflow_index().expect("an overflow table");
        assert_eq!(honest.traces.tables.len(), 4);
        let cols = *honest.instance.main_air().cols();
        let (p16, active) = (cols.p16.unwrap(), cols.active.unwrap());
        let width16 = honest.instance.main_air().p16().unwrap().cols();
        assert!(cols.sponge.r_in_p16 && cols.sponge.r == p16 + 8);
        let proof = threshold::prove(&settings, &st, &signers, Disclosure::Bitmap).unwrap();
        verify(&Proof::from_bytes(&proof.to_bytes()).unwrap()).unwrap();

        let (tables, failures) = corrupt_threshold(&settings, &st, &signers);
        assert_eq!(tables, 4);
        assert!(failures.is_empty(), "{}: accepted corruptions {failures:?}", settings.backend().name());
        // Every overflow column on an active row, and a randomizer lane of
        // a sponge row's width-16 input.
        let main = &honest.traces.tables[1];
        let w = main.width();
        let prove = |bad: Traces| {
            let mut w = threshold::testing::witness(&settings, &st, &signers, Disclosure::Bitmap);
            w.traces = bad;
            threshold::testing::prove_witness(&settings, w)
        };
        let of = &honest.traces.tables[overflow];
        for cell in
            (0..of.width()).step_by(7).chain([of.width() - 1]).map(|c| (overflow, 0, c)).chain([(1, 40, p16 + 9)])
        {
            assert!(corruption_refused(&honest.traces, cell, prove, verify), "{}: {cell:?}", settings.backend().name());
        }
        // Row 40 of slots 0 and 1: both sponge rows with an active hash.
        let mut swapped = honest.traces.clone();
        let (a, b) = (40 * w, (128 + 40) * w);
        for c in (p16..p16 + width16).chain([active]) {
            swapped.tables[1].values.swap(a + c, b + c);
        }
        assert_eq!(main.values[a + active], Val::ONE);
        assert_ne!(main.values[a + p16 + 8], main.values[b + p16 + 8], "two slots, two randomizers");
        assert!(rejected(|| prove(swapped), verify), "{}: swapped width-16 rows", settings.backend().name());
    }
}

/// Every table of every kind of statement (aggregates and thresholds of
/// both sets, with and without an overflow table, in both layouts and for
/// both backends) declares every column whose next row its constraints or
/// bus messages read: a column left out would be opened at the current
/// row only, leaving those reads unbound.
#[test]
fn next_row_declarations_cover_every_read() {
    let (plain, plain_sigs) = common::aggregate_batch::<LamportPlus>(130, 2);
    let (mined, mined_sigs) = common::aggregate_batch::<LamportPlusMined>(131, 2);
    let (_, th_mined, th_mined_signers) = setup::<LamportPlusMined>(132, 5, &[0, 2], 2);
    let (th_over, th_over_signers) = overflowing_setup(&[1, 4], 2);
    for settings in [T, TC, named::TEST_WHIR, named::TEST_WHIR_SKIP] {
        let airs = [
            aggregate::testing::traces(&settings, &plain, &plain_sigs).0.airs,
            aggregate::testing::traces(&settings, &mined, &mined_sigs).0.airs,
            threshold::testing::witness(&settings, &th_mined, &th_mined_signers, Disclosure::CountOnly).instance.airs,
            threshold::testing::witness(&settings, &th_over, &th_over_signers, Disclosure::CountOnly).instance.airs,
        ];
        assert_eq!(airs[3].len(), 4, "slot, main, tree and overflow tables");
        for (statement, airs) in airs.iter().enumerate() {
            for (table, air) in airs.iter().enumerate() {
                let missing = sigagg_prover::next_row::undeclared_next_row_reads(air);
                assert!(
                    missing.is_empty(),
                    "statement {statement}, table {table}: undeclared next-row reads {missing:?}"
                );
            }
        }
    }
}

/// Corrupts every target cell of an honest threshold witness; returns the
/// number of tables and the corruptions that were accepted.
fn corrupt_threshold<S: ParameterSet>(
    settings: &Settings,
    st: &ThresholdStatement<S>,
    signers: &[threshold::Signer<S>],
) -> (usize, Vec<(usize, usize, usize)>) {
    let verify = |p: &Proof| threshold::verify(settings, st, p);
    let honest = threshold::testing::witness(settings, st, signers, Disclosure::CountOnly);
    let traces = honest.traces.clone();
    let instance = honest.instance.clone();
    assert!(!rejected(|| threshold::testing::prove_witness(settings, honest), verify));
    let mut accepted = Vec::new();
    for cell in corruption_targets(&traces) {
        let prove = |bad: Traces| {
            let mut w = threshold::testing::witness(settings, st, signers, Disclosure::CountOnly);
            w.traces = bad;
            assert_eq!(w.instance.airs.len(), instance.airs.len());
            threshold::testing::prove_witness(settings, w)
        };
        if !corruption_refused(&traces, cell, prove, verify) {
            accepted.push(cell);
        }
    }
    (traces.tables.len(), accepted)
}

// ------------------------------------------------- paired layout (rate 1/8)

const TC: Settings = named::TEST_COMPACT;

/// At rate 1/8 the tables commit every second full-round state (degree-9
/// constraints, `Rounds::Paired`): aggregates and thresholds of both sets
/// prove and verify with a narrower main table, a proof is bound to its
/// settings and statement, and tampered bytes are rejected.
#[test]
fn paired_layout_proves_and_verifies() {
    let (st, sigs) = common::aggregate_batch::<LamportPlus>(70, 3);
    let (_, every) = aggregate::testing::traces(&T, &st, &sigs);
    let (_, paired) = aggregate::testing::traces(&TC, &st, &sigs);
    // 96 + 64 fewer full-round columns (widths 24 and 16).
    assert_eq!(every.tables[1].width() - paired.tables[1].width(), 160);
    let proof = aggregate::prove(&TC, &st, &sigs).unwrap();
    let bytes = proof.to_bytes();
    aggregate::verify(&TC, &st, &Proof::from_bytes(&bytes).unwrap()).unwrap();
    assert!(aggregate::verify(&T, &st, &proof).is_err(), "verified under other settings");
    let (other, _) = common::aggregate_batch::<LamportPlus>(71, 3);
    assert!(aggregate::verify(&TC, &other, &proof).is_err(), "verified for another statement");
    assert_tampering_rejected(&bytes, |p| aggregate::verify(&TC, &st, p));
    // 24-byte digests (the compact setting's before it reached 100 bits:
    // such proofs still verify under their own settings); a proof
    // relabelled as full-width (and checked under such settings) is refused
    // before any STARK check.
    let tc24 = TC.with_merkle(config::MerkleHash::Sha256Trunc24);
    let proof24 = aggregate::prove(&tc24, &st, &sigs).unwrap();
    assert_eq!(proof24.stark.merkle(), config::MerkleHash::Sha256Trunc24);
    let bytes24 = proof24.to_bytes();
    aggregate::verify(&tc24, &st, &Proof::from_bytes(&bytes24).unwrap()).unwrap();
    let mut relabelled = Proof::from_bytes(&bytes24).unwrap();
    relabelled.settings = TC;
    assert!(matches!(aggregate::verify(&TC, &st, &relabelled), Err(VerifyError::SettingsMismatch)));

    let (st, sigs) = common::aggregate_batch::<LamportPlusMined>(72, 2);
    aggregate::verify(&TC, &st, &aggregate::prove(&TC, &st, &sigs).unwrap()).unwrap();
    let (_, st, signers) = setup::<LamportPlus>(73, 7, &[0, 3, 5], 2);
    threshold::verify(&TC, &st, &threshold::prove(&TC, &st, &signers, Disclosure::CountOnly).unwrap()).unwrap();
    let (_, st, signers) = setup::<LamportPlusMined>(74, 5, &[1, 2, 4], 3);
    threshold::verify(&TC, &st, &threshold::prove(&TC, &st, &signers, Disclosure::Bitmap).unwrap()).unwrap();
}

/// Targeted corruptions of the paired permutation columns (an input, the
/// committed states after the second and fourth full rounds, a partial
/// round, the output; for both widths of the main table) and the usual
/// per-table cells all fail verification, for an aggregate and for a
/// threshold with its own tree table.
#[test]
fn paired_trace_corruptions_fail_verification() {
    // Width 24 from column 0 (143 columns), then width 16 (100 columns).
    let perm_cells = [5, 24 + 3, 48 + 7, 72 + 10, 142, 143 + 2, 143 + 16 + 4, 143 + 48 + 5, 143 + 99];
    assert_aggregate_corruptions_rejected(&TC, 75, &perm_cells.map(|c| (1, 3, c)));
    let (_, st, signers) = setup::<LamportPlus>(76, 7, &[0, 3, 5], 2);
    let (tables, failures) = corrupt_threshold(&TC, &st, &signers);
    assert!(tables >= 3, "tables covered: {tables}");
    assert!(failures.is_empty(), "accepted corruptions (table, row, column) {failures:?}");
}
