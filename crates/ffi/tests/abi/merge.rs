//! Merged aggregates through the C ABI: two Seed001 aggregates of one
//! message merge, the merged proof verifies for their keys and is refused
//! for another message, epoch or split of the keys; a failed merge leaves
//! the output untouched; the merged proof merges again beside raw
//! signatures (`sigagg_merge_signed`), and a pair of them swapped is
//! refused; a threshold certificate merges beside an aggregate with its
//! committee (`sigagg_merge_committees`), and is refused without it or at
//! a higher threshold; a raw signer of another message and epoch merges
//! beside an aggregate (a merge over several messages), verifies with a
//! message and epoch per key, and is refused with the messages exchanged
//! or a list of another length; it splits into the aggregate's part
//! (`sigagg_split_merged`), verified with its keys alone. A verifying key
//! (`sigagg_merge_key_*`) decides as the rebuilt circuit does.

use rand::SeedableRng;
use rand::rngs::StdRng;
use sigagg_ffi::merge::{
    sigagg_committee, sigagg_merge, sigagg_merge_committees, sigagg_merge_key, sigagg_merge_key_free,
    sigagg_merge_key_new, sigagg_merge_key_verify, sigagg_merge_signed, sigagg_split_merged, sigagg_verify_merged,
    sigagg_verify_merged_committees,
};
use sigagg_ffi::*;
use sigagg_xmss::{Seed001, single_epoch_key_and_signature};

const SETTINGS: u32 = SIGAGG_SETTINGS_WHIR_SKIP_POSEIDON2;
const MESSAGE: [u8; 32] = [0x33; 32];
const EPOCH: u32 = 21;

use super::{last_error, slice};

/// Two fresh signers: their keys and signatures.
fn signers(rng: &mut StdRng) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    (0..2)
        .map(|_| {
            let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(rng, EPOCH, &MESSAGE).unwrap();
            (pk.to_bytes(), sig.to_bytes())
        })
        .unzip()
}

/// A child of two fresh signers: its keys and aggregate proof.
fn child(rng: &mut StdRng) -> (Vec<Vec<u8>>, Vec<u8>) {
    let (pks, sigs) = signers(rng);
    let (keys, signatures): (Vec<&[u8]>, Vec<&[u8]>) =
        (pks.iter().map(|k| &k[..]).collect(), sigs.iter().map(|s| &s[..]).collect());
    let statement = ::sigagg_bytes::AggregateStatement { public_keys: &keys, messages: &[&MESSAGE], epochs: &[EPOCH] };
    let proof = ::sigagg_bytes::aggregate(
        ::sigagg_bytes::Scheme::Seed001,
        ::sigagg_bytes::merge::CHILD_SETTINGS,
        &statement,
        &signatures,
    )
    .unwrap();
    (pks, proof)
}

#[test]
fn merged_proofs_verify_and_other_statements_are_refused() {
    let mut rng = StdRng::seed_from_u64(42);
    let (a_keys, a) = child(&mut rng);
    let (b_keys, b) = child(&mut rng);
    let keys: Vec<Vec<u8>> = a_keys.into_iter().chain(b_keys).collect();
    let key_s: Vec<sigagg_slice> = keys.iter().map(|k| slice(k)).collect();
    let children = [slice(&a), slice(&b)];

    let mut out = sigagg_bytes { ptr: std::ptr::null_mut(), len: 0 };
    let status = unsafe {
        sigagg_merge(
            SIGAGG_SCHEME_SEED001,
            SETTINGS,
            key_s.as_ptr(),
            4,
            slice(&MESSAGE),
            EPOCH,
            children.as_ptr(),
            2,
            &mut out,
        )
    };
    assert_eq!(status, SIGAGG_OK, "{}", last_error());
    let merged = unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec();
    unsafe { sigagg_bytes_free(out) };

    let verify = |proof: &[u8], keys: &[sigagg_slice], message: &[u8], epoch: u32| unsafe {
        sigagg_verify_merged(
            SIGAGG_SCHEME_SEED001,
            SETTINGS,
            slice(proof),
            keys.as_ptr(),
            keys.len(),
            slice(message),
            epoch,
        )
    };
    assert_eq!(verify(&merged, &key_s, &MESSAGE, EPOCH), SIGAGG_OK, "{}", last_error());
    assert_eq!(verify(&merged, &key_s, &[0x34; 32], EPOCH), SIGAGG_ERR_VERIFY);
    assert_eq!(verify(&merged, &key_s, &MESSAGE, EPOCH + 1), SIGAGG_ERR_VERIFY);
    let swapped = [key_s[2], key_s[3], key_s[0], key_s[1]];
    assert_eq!(verify(&merged, &swapped, &MESSAGE, EPOCH), SIGAGG_ERR_VERIFY);
    assert_eq!(verify(&merged, &key_s[..3], &MESSAGE, EPOCH), SIGAGG_ERR_VERIFY);
    assert_eq!(verify(&merged[..merged.len() - 1], &key_s, &MESSAGE, EPOCH), SIGAGG_ERR_DECODE);

    // A verifying key of the merged proof's shape decides alike.
    let mut key: *mut sigagg_merge_key = std::ptr::null_mut();
    assert_eq!(unsafe { sigagg_merge_key_new(SIGAGG_SCHEME_SEED001, slice(&merged), &mut key) }, SIGAGG_OK);
    let with_key = |proof: &[u8], keys: &[sigagg_slice], message: &[u8], epoch: u32| unsafe {
        let (message, epoch) = (slice(message), epoch);
        sigagg_merge_key_verify(
            key,
            SETTINGS,
            slice(proof),
            keys.as_ptr(),
            keys.len(),
            std::ptr::null(),
            0,
            &message,
            1,
            &epoch,
            1,
        )
    };
    assert_eq!(with_key(&merged, &key_s, &MESSAGE, EPOCH), SIGAGG_OK, "{}", last_error());
    assert_eq!(with_key(&merged, &key_s, &MESSAGE, EPOCH + 1), SIGAGG_ERR_VERIFY);
    assert_eq!(with_key(&merged, &swapped, &MESSAGE, EPOCH), SIGAGG_ERR_VERIFY);
    assert_eq!(with_key(&merged[..merged.len() - 1], &key_s, &MESSAGE, EPOCH), SIGAGG_ERR_DECODE);
    let mut none: *mut sigagg_merge_key = std::ptr::null_mut();
    assert_eq!(unsafe { sigagg_merge_key_new(SIGAGG_SCHEME_SEED001, slice(&a), &mut none) }, SIGAGG_ERR_DECODE);
    assert!(none.is_null());
    let null_key = unsafe {
        let (message, epoch) = (slice(&MESSAGE), EPOCH);
        sigagg_merge_key_verify(
            std::ptr::null(),
            SETTINGS,
            slice(&merged),
            key_s.as_ptr(),
            4,
            std::ptr::null(),
            0,
            &message,
            1,
            &epoch,
            1,
        )
    };
    assert_eq!(null_key, SIGAGG_ERR_ARGUMENT);

    // A merge that fails (the children's keys in the wrong order) leaves
    // the output untouched.
    let mut out = sigagg_bytes { ptr: std::ptr::null_mut(), len: 7 };
    let status = unsafe {
        sigagg_merge(
            SIGAGG_SCHEME_SEED001,
            SETTINGS,
            swapped.as_ptr(),
            4,
            slice(&MESSAGE),
            EPOCH,
            children.as_ptr(),
            2,
            &mut out,
        )
    };
    assert_eq!(status, SIGAGG_ERR_PROVE);
    assert!(last_error().contains("child 0"), "{}", last_error());
    assert!(out.ptr.is_null() && out.len == 7);

    // The merged proof again, beside two raw signatures (the last keys').
    let (c_keys, c_sigs) = signers(&mut rng);
    let all: Vec<sigagg_slice> = key_s.iter().copied().chain(c_keys.iter().map(|k| slice(k))).collect();
    let merged_child = [slice(&merged)];
    let merge_signed = |sigs: &[sigagg_slice], out: &mut sigagg_bytes| unsafe {
        sigagg_merge_signed(
            SIGAGG_SCHEME_SEED001,
            SETTINGS,
            all.as_ptr(),
            all.len(),
            slice(&MESSAGE),
            EPOCH,
            merged_child.as_ptr(),
            1,
            sigs.as_ptr(),
            sigs.len(),
            out,
        )
    };
    let sig_s: Vec<sigagg_slice> = c_sigs.iter().map(|s| slice(s)).collect();
    let mut out = sigagg_bytes { ptr: std::ptr::null_mut(), len: 0 };
    assert_eq!(merge_signed(&sig_s, &mut out), SIGAGG_OK, "{}", last_error());
    let deeper = unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec();
    unsafe { sigagg_bytes_free(out) };
    assert_eq!(verify(&deeper, &all, &MESSAGE, EPOCH), SIGAGG_OK, "{}", last_error());
    assert_eq!(verify(&deeper, &key_s, &MESSAGE, EPOCH), SIGAGG_ERR_VERIFY);
    assert_eq!(with_key(&deeper, &all, &MESSAGE, EPOCH), SIGAGG_ERR_ARGUMENT);
    unsafe { sigagg_merge_key_free(key) };
    let mut out = sigagg_bytes { ptr: std::ptr::null_mut(), len: 7 };
    assert_eq!(merge_signed(&[sig_s[1], sig_s[0]], &mut out), SIGAGG_ERR_PROVE);
    assert!(out.ptr.is_null() && out.len == 7);
}

#[test]
fn a_threshold_certificate_merges_with_its_committee() {
    use ::sigagg_bytes::threshold::{Signer, ThresholdStatement, group, prove_threshold};
    let mut rng = StdRng::seed_from_u64(43);
    let (members, member_sigs) = signers(&mut rng);
    let member_refs: Vec<&[u8]> = members.iter().map(|k| &k[..]).collect();
    let committee = group(::sigagg_bytes::Scheme::Seed001, &member_refs).unwrap();
    let statement =
        ThresholdStatement { group_key: &committee.key, threshold: 2, message: &MESSAGE, epoch: Some(EPOCH) };
    let witness: Vec<Signer> = (0..2)
        .map(|i| Signer { public_key: &members[i], signature: &member_sigs[i], path: &committee.paths[i] })
        .collect();
    let certificate = prove_threshold(
        ::sigagg_bytes::Scheme::Seed001,
        ::sigagg_bytes::merge::CHILD_SETTINGS,
        &statement,
        &witness,
        false,
    )
    .unwrap();
    let (a_keys, a) = child(&mut rng);
    let key_s: Vec<sigagg_slice> = a_keys.iter().map(|k| slice(k)).collect();
    let children = [slice(&a), slice(&certificate)];
    let committee_at = |threshold| [sigagg_committee { group_key: slice(&committee.key), threshold }];

    let merge = |committees: &[sigagg_committee], out: &mut sigagg_bytes| unsafe {
        sigagg_merge_committees(
            SIGAGG_SCHEME_SEED001,
            SETTINGS,
            key_s.as_ptr(),
            key_s.len(),
            committees.as_ptr(),
            committees.len(),
            &slice(&MESSAGE),
            1,
            &EPOCH,
            1,
            children.as_ptr(),
            2,
            std::ptr::null(),
            0,
            out,
        )
    };
    let mut out = sigagg_bytes { ptr: std::ptr::null_mut(), len: 0 };
    assert_eq!(merge(&committee_at(2), &mut out), SIGAGG_OK, "{}", last_error());
    let merged = unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec();
    unsafe { sigagg_bytes_free(out) };
    let verify = |committees: &[sigagg_committee]| unsafe {
        sigagg_verify_merged_committees(
            SIGAGG_SCHEME_SEED001,
            SETTINGS,
            slice(&merged),
            key_s.as_ptr(),
            key_s.len(),
            committees.as_ptr(),
            committees.len(),
            &slice(&MESSAGE),
            1,
            &EPOCH,
            1,
        )
    };
    assert_eq!(verify(&committee_at(2)), SIGAGG_OK, "{}", last_error());
    assert_eq!(verify(&committee_at(1)), SIGAGG_OK, "{}", last_error());
    assert_eq!(verify(&[]), SIGAGG_ERR_VERIFY);
    assert_eq!(verify(&committee_at(3)), SIGAGG_ERR_ARGUMENT, "{}", last_error());
    let plain = unsafe {
        sigagg_verify_merged(SIGAGG_SCHEME_SEED001, SETTINGS, slice(&merged), key_s.as_ptr(), 2, slice(&MESSAGE), EPOCH)
    };
    assert_eq!(plain, SIGAGG_ERR_VERIFY);
    // No committee for the certificate: refused, the output untouched.
    let mut out = sigagg_bytes { ptr: std::ptr::null_mut(), len: 7 };
    assert_eq!(merge(&[], &mut out), SIGAGG_ERR_ARGUMENT);
    assert!(out.ptr.is_null() && out.len == 7);
    // A null committee list with a count: refused.
    let null = unsafe {
        sigagg_verify_merged_committees(
            SIGAGG_SCHEME_SEED001,
            SETTINGS,
            slice(&merged),
            key_s.as_ptr(),
            2,
            std::ptr::null(),
            1,
            &slice(&MESSAGE),
            1,
            &EPOCH,
            1,
        )
    };
    assert_ne!(null, SIGAGG_OK);
}

#[test]
fn signers_of_several_messages_merge_with_a_message_per_key() {
    const OTHER: [u8; 32] = [0x44; 32];
    let mut rng = StdRng::seed_from_u64(44);
    let (a_keys, a) = child(&mut rng);
    let (pk, sig) = single_epoch_key_and_signature::<Seed001, _>(&mut rng, EPOCH + 1, &OTHER).unwrap();
    let (pk, sig) = (pk.to_bytes(), sig.to_bytes());
    let key_s: Vec<sigagg_slice> = a_keys.iter().chain([&pk]).map(|k| slice(k)).collect();
    let (children, sigs) = ([slice(&a)], [slice(&sig)]);
    let messages = [slice(&MESSAGE), slice(&MESSAGE), slice(&OTHER)];
    let epochs = [EPOCH, EPOCH, EPOCH + 1];
    let mut out = sigagg_bytes { ptr: std::ptr::null_mut(), len: 0 };
    let status = unsafe {
        sigagg_merge_committees(
            SIGAGG_SCHEME_SEED001,
            SETTINGS,
            key_s.as_ptr(),
            key_s.len(),
            std::ptr::null(),
            0,
            messages.as_ptr(),
            messages.len(),
            epochs.as_ptr(),
            epochs.len(),
            children.as_ptr(),
            1,
            sigs.as_ptr(),
            1,
            &mut out,
        )
    };
    assert_eq!(status, SIGAGG_OK, "{}", last_error());
    let merged = unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec();
    unsafe { sigagg_bytes_free(out) };
    let verify = |messages: &[sigagg_slice], epochs: &[u32]| unsafe {
        sigagg_verify_merged_committees(
            SIGAGG_SCHEME_SEED001,
            SETTINGS,
            slice(&merged),
            key_s.as_ptr(),
            key_s.len(),
            std::ptr::null(),
            0,
            messages.as_ptr(),
            messages.len(),
            epochs.as_ptr(),
            epochs.len(),
        )
    };
    assert_eq!(verify(&messages, &epochs), SIGAGG_OK, "{}", last_error());
    assert_eq!(verify(&[messages[0], messages[2], messages[1]], &epochs), SIGAGG_ERR_VERIFY);
    assert_eq!(verify(&messages[..1], &epochs[..1]), SIGAGG_ERR_VERIFY);
    assert_eq!(verify(&messages[..2], &epochs), SIGAGG_ERR_ARGUMENT, "{}", last_error());

    // Split: the aggregate's part alone, verified with its keys alone.
    let split = |keep: &[usize], out: &mut sigagg_bytes| unsafe {
        sigagg_split_merged(
            SIGAGG_SCHEME_SEED001,
            slice(&merged),
            key_s.as_ptr(),
            key_s.len(),
            std::ptr::null(),
            0,
            messages.as_ptr(),
            messages.len(),
            epochs.as_ptr(),
            epochs.len(),
            keep.as_ptr(),
            keep.len(),
            out,
        )
    };
    let mut out = sigagg_bytes { ptr: std::ptr::null_mut(), len: 0 };
    assert_eq!(split(&[0], &mut out), SIGAGG_OK, "{}", last_error());
    let part = unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec();
    unsafe { sigagg_bytes_free(out) };
    let verify_part = |keys: &[sigagg_slice], message: &[u8]| unsafe {
        sigagg_verify_merged(
            SIGAGG_SCHEME_SEED001,
            SETTINGS,
            slice(&part),
            keys.as_ptr(),
            keys.len(),
            slice(message),
            EPOCH,
        )
    };
    assert_eq!(verify_part(&key_s[..2], &MESSAGE), SIGAGG_OK, "{}", last_error());
    assert_eq!(verify_part(&key_s[..2], &OTHER), SIGAGG_ERR_VERIFY);
    assert_eq!(verify_part(&key_s, &MESSAGE), SIGAGG_ERR_VERIFY);
    let mut out = sigagg_bytes { ptr: std::ptr::null_mut(), len: 7 };
    assert_eq!(split(&[1, 2], &mut out), SIGAGG_ERR_ARGUMENT);
    assert!(out.ptr.is_null() && out.len == 7);
}
