//! Merged aggregates (`sigagg_bytes::merge`): one proof that aggregates
//! (or merged proofs, threshold certificates, or raw signatures) of one
//! message and epoch, or of several, verify, without their signatures.

use ::sigagg_bytes::merge::{self, Committee, MergeStatement};

use crate::boundary::{Out, byte_strings, bytes, call, free, handle, into_handle, items, owned_bytes};
use crate::{scheme_of, settings_of, sigagg_bytes, sigagg_slice};

/// A threshold child's committee: at least `threshold` members of the
/// group `group_key` (`sigagg_group`) signed its message at its epoch
/// (the merge's, or its own in a merge over several messages).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sigagg_committee {
    pub group_key: sigagg_slice,
    pub threshold: u32,
}

/// The `count` committees at `ptr`, borrowed as the byte API takes them.
///
/// # Safety
/// As for `items`: `ptr` holds `count` committees whose keys are valid.
unsafe fn committees<'a>(ptr: *const sigagg_committee, count: usize) -> ::sigagg_bytes::Result<Vec<Committee<'a>>> {
    let list = unsafe { items(ptr, count, "committees") }?;
    list.iter()
        .enumerate()
        .map(|(i, c)| {
            let group_key = unsafe { bytes(c.group_key, &format!("committees[{i}].group_key")) }?;
            Ok(Committee { group_key, threshold: c.threshold })
        })
        .collect()
}

/// A merge statement's lists, borrowed from their pointers and counts.
struct Lists<'a> {
    public_keys: Vec<&'a [u8]>,
    committees: Vec<Committee<'a>>,
    messages: Vec<&'a [u8]>,
    epochs: &'a [u32],
}

impl Lists<'_> {
    /// The lists at these pointers, each with its count.
    ///
    /// # Safety
    /// As the header's rules say for each pointer and count.
    unsafe fn of(
        public_keys: (*const sigagg_slice, usize),
        committees: (*const sigagg_committee, usize),
        messages: (*const sigagg_slice, usize),
        epochs: (*const u32, usize),
    ) -> ::sigagg_bytes::Result<Self> {
        unsafe {
            Ok(Self {
                public_keys: byte_strings(public_keys.0, public_keys.1, "public_keys")?,
                committees: self::committees(committees.0, committees.1)?,
                messages: byte_strings(messages.0, messages.1, "messages")?,
                epochs: items(epochs.0, epochs.1, "epochs")?,
            })
        }
    }

    /// The byte API's statement of these lists.
    fn statement(&self, scheme: ::sigagg_bytes::Scheme) -> MergeStatement<'_> {
        let (public_keys, messages, committees) = (&self.public_keys, &self.messages, &self.committees);
        MergeStatement { scheme, public_keys, messages, epochs: self.epochs, committees }
    }
}

/// Proves with `settings` (a `SIGAGG_SETTINGS_*` code of a whir-skip
/// setting; children are made with `SIGAGG_SETTINGS_WHIR_SKIP_POSEIDON2`,
/// the usual choice here too) that every child aggregate in `children`
/// (`child_count` aggregate proofs of `scheme`: `SIGAGG_SCHEME_SEED001`,
/// or `SIGAGG_SCHEME_LEANSIG_PROD` with leanSpec's bare `proof_data`)
/// verifies, for `public_keys`
/// (`public_key_count` of them: the children's keys, one child after
/// another) signing the 32-byte `message` at `epoch`. Writes the merged
/// proof. A child that does not verify is SIGAGG_ERR_PROVE, its index in
/// the message.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the C signature: pointer and length per list
pub unsafe extern "C" fn sigagg_merge(
    scheme: u32,
    settings: u32,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    message: sigagg_slice,
    epoch: u32,
    children: *const sigagg_slice,
    child_count: usize,
    proof: *mut sigagg_bytes,
) -> i32 {
    // No raw signature: the same call with none.
    unsafe {
        sigagg_merge_signed(
            scheme,
            settings,
            public_keys,
            public_key_count,
            message,
            epoch,
            children,
            child_count,
            std::ptr::null(),
            0,
            proof,
        )
    }
}

/// sigagg_merge with `signature_count` raw `signatures` beside the
/// children: the signers of the last `signature_count` public keys, in
/// order, aggregated into one more child (the last) of the same merged
/// proof. A signature that does not decode is SIGAGG_ERR_DECODE, one that
/// does not verify SIGAGG_ERR_PROVE; more signatures than keys
/// SIGAGG_ERR_ARGUMENT.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the C signature: pointer and length per list
pub unsafe extern "C" fn sigagg_merge_signed(
    scheme: u32,
    settings: u32,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    message: sigagg_slice,
    epoch: u32,
    children: *const sigagg_slice,
    child_count: usize,
    signatures: *const sigagg_slice,
    signature_count: usize,
    proof: *mut sigagg_bytes,
) -> i32 {
    // No threshold child, one message: the same call with no committee.
    unsafe {
        sigagg_merge_committees(
            scheme,
            settings,
            public_keys,
            public_key_count,
            std::ptr::null(),
            0,
            &message,
            1,
            &epoch,
            1,
            children,
            child_count,
            signatures,
            signature_count,
            proof,
        )
    }
}

/// sigagg_merge_signed where children may be threshold certificates
/// (`sigagg_prove_threshold` of `scheme` with
/// `SIGAGG_SETTINGS_WHIR_SKIP_POSEIDON2`) and signers may sign several
/// messages: the `committee_count` `committees` are the threshold
/// children's, in their order (depth first); `messages` (32 bytes each,
/// `message_count` of them) and `epochs` (`epoch_count`) hold one value
/// for every key and committee, or one per key followed by one per
/// committee (a merge over several messages, each signer once per message
/// and epoch). A committee missing or left over, or lists of another
/// length, are SIGAGG_ERR_ARGUMENT.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the C signature: pointer and length per list
pub unsafe extern "C" fn sigagg_merge_committees(
    scheme: u32,
    settings: u32,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    committees: *const sigagg_committee,
    committee_count: usize,
    messages: *const sigagg_slice,
    message_count: usize,
    epochs: *const u32,
    epoch_count: usize,
    children: *const sigagg_slice,
    child_count: usize,
    signatures: *const sigagg_slice,
    signature_count: usize,
    proof: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let lists = unsafe {
            Lists::of(
                (public_keys, public_key_count),
                (committees, committee_count),
                (messages, message_count),
                (epochs, epoch_count),
            )
        }?;
        let children = unsafe { byte_strings(children, child_count, "children") }?;
        let sigs = unsafe { byte_strings(signatures, signature_count, "signatures") }?;
        let out = unsafe { Out::new(proof, "proof") }?;
        let statement = lists.statement(scheme_of(scheme)?);
        out.set(owned_bytes(merge::merge_signed(settings_of(settings)?, &statement, &children, &sigs)?));
        Ok(())
    })
}

/// Verifies a merged `proof` (from sigagg_merge with the same `scheme` and
/// `settings`) for `public_keys` (child by child) signing the 32-byte `message` at
/// `epoch`. A proof that does not decode is SIGAGG_ERR_DECODE; one that
/// does not prove this statement SIGAGG_ERR_VERIFY.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_verify_merged(
    scheme: u32,
    settings: u32,
    proof: sigagg_slice,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    message: sigagg_slice,
    epoch: u32,
) -> i32 {
    unsafe {
        sigagg_verify_merged_committees(
            scheme,
            settings,
            proof,
            public_keys,
            public_key_count,
            std::ptr::null(),
            0,
            &message,
            1,
            &epoch,
            1,
        )
    }
}

/// sigagg_verify_merged of a merged proof with threshold children, whose
/// `committee_count` `committees` are given in their order, or over
/// several messages: `messages` and `epochs` as sigagg_merge_committees
/// takes them.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the C signature: pointer and length per list
pub unsafe extern "C" fn sigagg_verify_merged_committees(
    scheme: u32,
    settings: u32,
    proof: sigagg_slice,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    committees: *const sigagg_committee,
    committee_count: usize,
    messages: *const sigagg_slice,
    message_count: usize,
    epochs: *const u32,
    epoch_count: usize,
) -> i32 {
    call(|| {
        let proof = unsafe { bytes(proof, "proof") }?;
        let lists = unsafe {
            Lists::of(
                (public_keys, public_key_count),
                (committees, committee_count),
                (messages, message_count),
                (epochs, epoch_count),
            )
        }?;
        let statement = lists.statement(scheme_of(scheme)?);
        merge::verify_merged(settings_of(settings)?, &statement, proof)
    })
}

/// A verifying key of merged proofs of one shape (opaque): made once from
/// one merged proof by sigagg_merge_key_new, it verifies every merged
/// proof of that shape without rebuilding the verifier circuit. Immutable:
/// it may be used from several threads.
pub struct sigagg_merge_key(merge::MergeKey);

/// The verifying key of `scheme`'s merged proofs of the shape of `proof`
/// (the proof is not verified), for sigagg_merge_key_verify; free it with
/// sigagg_merge_key_free. A proof that does not decode is
/// SIGAGG_ERR_DECODE; a shape with a threshold child SIGAGG_ERR_ARGUMENT.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_merge_key_new(
    scheme: u32,
    proof: sigagg_slice,
    key: *mut *mut sigagg_merge_key,
) -> i32 {
    call(|| {
        let (proof, out) = unsafe { (bytes(proof, "proof")?, Out::new(key, "key")?) };
        out.set(into_handle(sigagg_merge_key(merge::MergeKey::new(scheme_of(scheme)?, proof)?)));
        Ok(())
    })
}

/// sigagg_verify_merged_committees with `key` (the statement's scheme is
/// the key's): the same decision, without the verifier circuit rebuilt. A
/// proof of another shape than the key's is SIGAGG_ERR_ARGUMENT.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the C signature: pointer and length per list
pub unsafe extern "C" fn sigagg_merge_key_verify(
    key: *const sigagg_merge_key,
    settings: u32,
    proof: sigagg_slice,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    committees: *const sigagg_committee,
    committee_count: usize,
    messages: *const sigagg_slice,
    message_count: usize,
    epochs: *const u32,
    epoch_count: usize,
) -> i32 {
    call(|| {
        let (key, proof) = unsafe { (handle(key, "key")?, bytes(proof, "proof")?) };
        let lists = unsafe {
            Lists::of(
                (public_keys, public_key_count),
                (committees, committee_count),
                (messages, message_count),
                (epochs, epoch_count),
            )
        }?;
        let statement = lists.statement(key.0.scheme());
        key.0.verify(settings_of(settings)?, &statement, proof).map(drop)
    })
}

/// Frees a verifying key; NULL is ignored.
///
/// # Safety
/// `key` must be NULL or a live key, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sigagg_merge_key_free(key: *mut sigagg_merge_key) {
    unsafe { free(key) }
}

/// Splits a merged `proof` of `scheme` for a verifier who knows only the
/// `keep_count` children numbered in `keep` (counted from 0): the same
/// proof, every other child withheld. The statement is the one the merge
/// took (`public_keys`, `committees`, `messages` and `epochs` as
/// sigagg_merge_committees takes them). sigagg_verify_merged_committees
/// checks the split proof against the kept children's keys, messages and
/// epochs alone. A threshold child to withhold, no child kept or an index
/// past the children is SIGAGG_ERR_ARGUMENT; the proof is not verified.
///
/// # Safety
/// Pointers as the header's rules say.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the C signature: pointer and length per list
pub unsafe extern "C" fn sigagg_split_merged(
    scheme: u32,
    proof: sigagg_slice,
    public_keys: *const sigagg_slice,
    public_key_count: usize,
    committees: *const sigagg_committee,
    committee_count: usize,
    messages: *const sigagg_slice,
    message_count: usize,
    epochs: *const u32,
    epoch_count: usize,
    keep: *const usize,
    keep_count: usize,
    split: *mut sigagg_bytes,
) -> i32 {
    call(|| {
        let proof = unsafe { bytes(proof, "proof") }?;
        let lists = unsafe {
            Lists::of(
                (public_keys, public_key_count),
                (committees, committee_count),
                (messages, message_count),
                (epochs, epoch_count),
            )
        }?;
        let keep = unsafe { items(keep, keep_count, "keep") }?;
        let out = unsafe { Out::new(split, "split") }?;
        let statement = lists.statement(scheme_of(scheme)?);
        out.set(owned_bytes(merge::split(&statement, proof, keep)?));
        Ok(())
    })
}
