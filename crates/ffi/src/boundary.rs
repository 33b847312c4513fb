//! The C boundary, crossed in one place: raw pointers in, checked Rust
//! values out; results and errors back as status codes, buffers and
//! handles. Every `unsafe` operation of the crate is one of these helpers.
//!
//! Discipline of every exported function: validate every pointer argument
//! (inputs and output slots) first, then compute through [`call`] (which
//! catches panics), then write the outputs. On failure nothing is written
//! and nothing is left allocated.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::ptr::NonNull;

use ::sigagg_bytes::{self as api, Error, ErrorKind, StatefulKey};
use zeroize::Zeroize;

use crate::{
    SIGAGG_ERR_ARGUMENT, SIGAGG_ERR_DECODE, SIGAGG_ERR_INTERNAL, SIGAGG_ERR_PROVE, SIGAGG_ERR_SIGN, SIGAGG_ERR_VERIFY,
    SIGAGG_OK, scheme_of, sigagg_bytes, sigagg_slice,
};

thread_local! {
    /// The message of the calling thread's last failure (empty after a success).
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// The status code of an error kind.
pub(crate) const fn code(kind: ErrorKind) -> i32 {
    match kind {
        ErrorKind::Argument => SIGAGG_ERR_ARGUMENT,
        ErrorKind::Decode => SIGAGG_ERR_DECODE,
        ErrorKind::Verify => SIGAGG_ERR_VERIFY,
        ErrorKind::Sign => SIGAGG_ERR_SIGN,
        ErrorKind::Prove => SIGAGG_ERR_PROVE,
        ErrorKind::Internal => SIGAGG_ERR_INTERNAL,
    }
}

fn set_last_error(message: &str) {
    // A message never holds NUL; should one, it must not truncate silently.
    let text = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = text);
}

/// The calling thread's last error message; valid until its next call.
pub(crate) fn last_error() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// Runs one call: a panic becomes [`ErrorKind::Internal`], an error is
/// recorded for `sigagg_last_error` and returned as its code.
pub(crate) fn call(f: impl FnOnce() -> api::Result<()>) -> i32 {
    match api::guarded(f) {
        Ok(()) => {
            set_last_error("");
            SIGAGG_OK
        }
        Err(e) => {
            set_last_error(e.message());
            code(e.kind())
        }
    }
}

fn null(what: &str) -> Error {
    Error::argument(format!("{what} is a null pointer"))
}

/// The bytes of `s`; a null pointer is the empty string only with length 0.
///
/// # Safety
/// Unless null, `s.ptr` must point to `s.len` readable bytes that stay
/// unchanged during the call.
pub(crate) unsafe fn bytes<'a>(s: sigagg_slice, what: &str) -> api::Result<&'a [u8]> {
    match (s.ptr.is_null(), s.len) {
        (_, 0) => Ok(&[]),
        (true, _) => Err(null(what)),
        // SAFETY: non-null, and the caller vouches for `len` readable bytes.
        (false, len) => Ok(unsafe { std::slice::from_raw_parts(s.ptr, len) }),
    }
}

/// `None` for a null `s.ptr` (an absent optional input), else [`bytes`].
///
/// # Safety
/// As for [`bytes`].
pub(crate) unsafe fn optional_bytes<'a>(s: sigagg_slice, what: &str) -> api::Result<Option<&'a [u8]>> {
    if s.ptr.is_null() { Ok(None) } else { unsafe { bytes(s, what) }.map(Some) }
}

/// The `len` items at `ptr` (null allowed with `len` 0).
///
/// # Safety
/// Unless null, `ptr` must point to `len` initialized, aligned items.
pub(crate) unsafe fn items<'a, T>(ptr: *const T, len: usize, what: &str) -> api::Result<&'a [T]> {
    match (ptr.is_null(), len) {
        (_, 0) => Ok(&[]),
        (true, _) => Err(null(what)),
        // SAFETY: non-null, and the caller vouches for `len` items.
        (false, len) => Ok(unsafe { std::slice::from_raw_parts(ptr, len) }),
    }
}

/// The byte strings of the `len` slices at `ptr`.
///
/// # Safety
/// As for [`items`] and, for every slice, [`bytes`].
pub(crate) unsafe fn byte_strings<'a>(ptr: *const sigagg_slice, len: usize, what: &str) -> api::Result<Vec<&'a [u8]>> {
    let slices = unsafe { items(ptr, len, what) }?;
    slices.iter().enumerate().map(|(i, s)| unsafe { bytes(*s, &format!("{what}[{i}]")) }).collect()
}

/// `None` for a null `ptr`, else [`byte_strings`].
///
/// # Safety
/// As for [`byte_strings`].
pub(crate) unsafe fn optional_byte_strings<'a>(
    ptr: *const sigagg_slice,
    len: usize,
    what: &str,
) -> api::Result<Option<Vec<&'a [u8]>>> {
    if ptr.is_null() { Ok(None) } else { unsafe { byte_strings(ptr, len, what) }.map(Some) }
}

/// The handle behind `ptr`.
///
/// # Safety
/// Unless null, `ptr` must be a live handle of type `T` from this library.
pub(crate) unsafe fn handle<'a, T>(ptr: *const T, what: &str) -> api::Result<&'a T> {
    // SAFETY: the caller vouches for a live handle.
    unsafe { ptr.as_ref() }.ok_or_else(|| null(what))
}

/// A new handle owning `value`, for the caller to free with [`free`].
pub(crate) fn into_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Frees a handle made by [`into_handle`]; null is ignored.
///
/// # Safety
/// Unless null, `ptr` must come from [`into_handle`] and not be used again.
pub(crate) unsafe fn free<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: made by `Box::into_raw` in `into_handle`, freed once.
        drop(unsafe { Box::from_raw(ptr) });
    }
}

/// An output slot, checked to be non-null before any work is done.
pub(crate) struct Out<T>(NonNull<T>);

impl<T> Out<T> {
    /// The slot `ptr`.
    ///
    /// # Safety
    /// Unless null, `ptr` must be valid for writing one `T`; it need not be
    /// initialized (the old value is overwritten, never read or dropped).
    pub(crate) unsafe fn new(ptr: *mut T, what: &str) -> api::Result<Self> {
        NonNull::new(ptr).map(Out).ok_or_else(|| null(what))
    }

    /// Writes `value` into the slot.
    pub(crate) fn set(self, value: T) {
        // SAFETY: checked non-null and vouched writable in `new`.
        unsafe { self.0.as_ptr().write(value) }
    }
}

/// A caller-owned output buffer of exactly `N` bytes.
pub(crate) struct OutArray<const N: usize>(NonNull<u8>);

impl<const N: usize> OutArray<N> {
    /// The buffer at `ptr`.
    ///
    /// # Safety
    /// Unless null, `ptr` must be valid for writing `N` bytes.
    pub(crate) unsafe fn new(ptr: *mut u8, what: &str) -> api::Result<Self> {
        NonNull::new(ptr).map(OutArray).ok_or_else(|| null(what))
    }

    /// Copies `value` into the buffer.
    pub(crate) fn set(self, value: &[u8; N]) {
        // SAFETY: checked non-null and vouched writable for N bytes in `new`.
        unsafe { std::ptr::copy_nonoverlapping(value.as_ptr(), self.0.as_ptr(), N) }
    }
}

/// A library-allocated buffer holding `data`, for the caller to release
/// with `sigagg_bytes_free`. Its capacity is its length (a boxed slice),
/// so the pointer and length alone free it.
pub(crate) fn owned_bytes(data: Vec<u8>) -> sigagg_bytes {
    let boxed = data.into_boxed_slice();
    let len = boxed.len();
    sigagg_bytes { ptr: Box::into_raw(boxed).cast::<u8>(), len }
}

/// Wipes and frees a buffer made by [`owned_bytes`]; a null pointer is ignored.
///
/// # Safety
/// Unless null, `b` must come from [`owned_bytes`] and not be used again.
pub(crate) unsafe fn free_bytes(b: sigagg_bytes) {
    if !b.ptr.is_null() {
        // SAFETY: `ptr` and `len` are those of a boxed slice made by `owned_bytes`.
        let mut boxed = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(b.ptr, b.len)) };
        boxed.zeroize();
    }
}

/// A handle type holding a stateful secret key: the XMSS and Lamport+
/// handles share their life cycle through the functions below.
pub(crate) trait KeyHandle: Sized {
    type Key: StatefulKey;
    fn wrap(key: Self::Key) -> Self;
    fn key(&self) -> &Self::Key;
}

/// Key generation: `generate` gets the optional seed and makes the pair;
/// the public key goes to `public_key`, a new handle to `secret_key`.
///
/// # Safety
/// Pointers as the header's rules say.
pub(crate) unsafe fn keygen<H: KeyHandle>(
    seed: sigagg_slice,
    public_key: *mut sigagg_bytes,
    secret_key: *mut *mut H,
    generate: impl FnOnce(Option<&[u8]>) -> api::Result<(Vec<u8>, H::Key)>,
) -> i32 {
    call(|| {
        let seed = unsafe { optional_bytes(seed, "seed") }?;
        let (pk_out, sk_out) = unsafe { (Out::new(public_key, "public_key")?, Out::new(secret_key, "secret_key")?) };
        let (pk, sk) = generate(seed)?;
        pk_out.set(owned_bytes(pk));
        sk_out.set(into_handle(H::wrap(sk)));
        Ok(())
    })
}

/// Decodes a key of scheme code `scheme` into a new handle.
///
/// # Safety
/// Pointers as the header's rules say.
pub(crate) unsafe fn key_from_bytes<H: KeyHandle>(scheme: u32, encoding: sigagg_slice, secret_key: *mut *mut H) -> i32 {
    call(|| {
        let encoding = unsafe { bytes(encoding, "encoding") }?;
        let out = unsafe { Out::new(secret_key, "secret_key") }?;
        out.set(into_handle(H::wrap(H::Key::from_bytes(scheme_of(scheme)?, encoding)?)));
        Ok(())
    })
}

/// Writes what `get` reads from the key behind `secret_key` (its encoding,
/// its public key, a signature) as a library-owned buffer.
///
/// # Safety
/// Pointers as the header's rules say.
pub(crate) unsafe fn key_output<H: KeyHandle>(
    secret_key: *const H,
    out: *mut sigagg_bytes,
    get: impl FnOnce(&H::Key) -> api::Result<Vec<u8>>,
) -> i32 {
    call(|| {
        let (handle, out) = unsafe { (handle(secret_key, "secret_key")?, Out::new(out, "output")?) };
        out.set(owned_bytes(get(handle.key())?));
        Ok(())
    })
}

/// The key's encoding (a plain copy of the wiped-on-drop buffer: the
/// library-owned buffer is wiped by `sigagg_bytes_free`).
pub(crate) fn encoding<K: StatefulKey>(key: &K) -> api::Result<Vec<u8>> {
    Ok(key.to_bytes()?.to_vec())
}

#[cfg(test)]
mod tests {
    use std::ffi::CStr;

    use super::*;

    fn last() -> String {
        unsafe { CStr::from_ptr(last_error()) }.to_str().unwrap().to_owned()
    }

    #[test]
    fn a_panic_is_an_internal_error_with_its_message() {
        assert_eq!(call(|| panic!("boom")), SIGAGG_ERR_INTERNAL);
        assert!(last().contains("boom"), "{}", last());
        assert_eq!(call(|| Ok(())), SIGAGG_OK);
        assert_eq!(last(), "");
    }

    #[test]
    fn errors_keep_their_message_per_thread() {
        assert_eq!(call(|| Err(Error::new(ErrorKind::Decode, "bad bytes"))), SIGAGG_ERR_DECODE);
        std::thread::spawn(|| {
            assert_eq!(last(), "");
            assert_eq!(call(|| Err(Error::argument("other thread"))), SIGAGG_ERR_ARGUMENT);
        })
        .join()
        .unwrap();
        assert_eq!(last(), "bad bytes");
        assert_eq!(call(|| Err(Error::argument("a\0b"))), SIGAGG_ERR_ARGUMENT);
        assert_eq!(last(), "a\\0b");
    }

    #[test]
    fn null_pointers_are_refused_unless_empty() {
        let empty = sigagg_slice { ptr: std::ptr::null(), len: 0 };
        assert_eq!(unsafe { bytes(empty, "x") }.unwrap(), b"");
        assert_eq!(unsafe { optional_bytes(empty, "x") }.unwrap(), None);
        let dangling = sigagg_slice { ptr: std::ptr::null(), len: 3 };
        let e = unsafe { bytes(dangling, "x") }.unwrap_err();
        assert_eq!((e.kind(), e.message()), (ErrorKind::Argument, "x is a null pointer"));
        assert!(unsafe { items::<u32>(std::ptr::null(), 1, "y") }.is_err());
        assert!(unsafe { Out::<u8>::new(std::ptr::null_mut(), "z") }.is_err());
    }

    #[test]
    fn owned_bytes_round_trip() {
        let b = owned_bytes(vec![1, 2, 3]);
        assert_eq!(unsafe { std::slice::from_raw_parts(b.ptr, b.len) }, [1, 2, 3]);
        unsafe { free_bytes(b) };
        unsafe { free_bytes(owned_bytes(Vec::new())) };
        unsafe { free_bytes(sigagg_bytes { ptr: std::ptr::null_mut(), len: 0 }) };
    }
}
