//! `sigagg._native`: the Python boundary of [`sigagg_bytes`].
//!
//! Every function here only crosses the boundary: it takes Python bytes,
//! ints and strings, calls one `sigagg_bytes` function through [`run`]
//! (which releases the GIL, catches panics and maps the error), and
//! returns bytes or a small object. Checks and decisions live in
//! `sigagg_bytes`, so Python and C behave alike. The package
//! `python/sigagg` re-exports this module; its stubs are
//! `python/sigagg/_native.pyi` (a test keeps them in step).

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use sigagg_bytes::{self as api, ErrorKind, ProofSettings, Scheme, StatefulKey};

/// The system allocator, with transparent huge pages asked for on the
/// provers' large buffers (`sigagg_alloc`).
#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

create_exception!(sigagg, Error, PyException, "Base class of every error raised by sigagg.");
create_exception!(
    sigagg,
    ArgumentError,
    Error,
    "The arguments do not fit together or are out of range (unknown scheme, lists of different lengths, a message of the wrong length, ...)."
);
create_exception!(
    sigagg,
    DecodeError,
    Error,
    "Bytes that do not decode as the object they should be (wrong length, bad header, non-canonical element, point off the curve or outside the subgroup)."
);
create_exception!(
    sigagg,
    VerifyError,
    Error,
    "Well-formed inputs whose claim is false: a signature, proof or aggregate key that does not verify."
);
create_exception!(
    sigagg,
    SignError,
    Error,
    "A stateful key refused to sign (XMSS epoch used or outside the key's window, Lamport+ key already used)."
);
create_exception!(
    sigagg,
    ProveError,
    Error,
    "No proof can be made from the witness (an invalid signature, a non-member, too few signers)."
);
create_exception!(sigagg, InternalError, Error, "A bug (a panic caught at the boundary). Please report it.");

/// The Python exception of an error: its kind's class, its message.
fn to_py(e: api::Error) -> PyErr {
    let message = e.message().to_owned();
    match e.kind() {
        ErrorKind::Argument => ArgumentError::new_err(message),
        ErrorKind::Decode => DecodeError::new_err(message),
        ErrorKind::Verify => VerifyError::new_err(message),
        ErrorKind::Sign => SignError::new_err(message),
        ErrorKind::Prove => ProveError::new_err(message),
        ErrorKind::Internal => InternalError::new_err(message),
    }
}

/// Runs one call of the byte-level API with the GIL released (hashing and
/// proving take milliseconds to minutes; other Python threads run
/// meanwhile), a panic turned into `InternalError`, and the error mapped.
fn run<T: Send>(py: Python<'_>, f: impl FnOnce() -> api::Result<T> + Send) -> PyResult<T> {
    py.detach(|| api::guarded(f)).map_err(to_py)
}

fn parse_scheme(name: &str) -> PyResult<Scheme> {
    Scheme::from_name(name).map_err(to_py)
}

fn parse_settings(name: &str) -> PyResult<ProofSettings> {
    ProofSettings::from_name(name).map_err(|e| to_py(e.into()))
}

/// A list, or one value standing for every entry (a message or an epoch
/// shared by all signers). `One` is tried first: a `bytes` object is also a
/// sequence (of ints), and `b""` must stay one empty message.
#[derive(FromPyObject)]
enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

impl<T> OneOrMany<T> {
    fn into_vec(self) -> Vec<T> {
        match self {
            OneOrMany::Many(v) => v,
            OneOrMany::One(x) => vec![x],
        }
    }
}

/// Borrowed views of a list of byte strings.
fn views(items: &[Vec<u8>]) -> Vec<&[u8]> {
    items.iter().map(Vec::as_slice).collect()
}

// ---------------------------------------------------------------- keys

/// Decodes a stateful secret key of `scheme` (XMSS or Lamport+).
fn key_from_bytes<K: StatefulKey>(py: Python<'_>, scheme: &str, data: &[u8]) -> PyResult<K> {
    let s = parse_scheme(scheme)?;
    run(py, || K::from_bytes(s, data))
}

/// A stateful secret key's encoding, as `bytes` (which Python cannot wipe).
fn key_to_bytes<'py, K: StatefulKey>(py: Python<'py>, key: &K) -> PyResult<Bound<'py, PyBytes>> {
    let secret = run(py, || key.to_bytes())?;
    Ok(PyBytes::new(py, &secret))
}

// ---------------------------------------------------------------- XMSS

/// A stateful XMSS secret key (opaque). Signing advances it: store
/// `to_bytes()` durably before releasing a signature, and never sign from
/// two copies of one key. Safe to share between threads (signing is
/// serialized). Not picklable or copyable, on purpose.
#[pyclass(frozen, module = "sigagg", name = "XmssSecretKey")]
struct XmssSecretKey(api::xmss::XmssSecretKey);

#[pymethods]
impl XmssSecretKey {
    /// Decodes a key written by `to_bytes` for `scheme`; recomputes and
    /// checks its prepared bottom trees.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, scheme: &str, data: Vec<u8>) -> PyResult<Self> {
        key_from_bytes(py, scheme, &data).map(Self)
    }

    /// The key's encoding with its current state (contains the secret).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        key_to_bytes(py, &self.0)
    }

    /// The public key's bytes (SSZ).
    fn public_key(&self, py: Python<'_>) -> PyResult<Vec<u8>> {
        run(py, || self.0.public_key())
    }

    /// Signs the 32-byte `message` at `epoch` and advances the key past it.
    fn sign(&self, py: Python<'_>, epoch: u32, message: Vec<u8>) -> PyResult<Vec<u8>> {
        run(py, || self.0.sign(epoch, &message))
    }

    /// The key's parameter set.
    #[getter]
    fn scheme(&self) -> &'static str {
        self.0.scheme().name()
    }

    /// The smallest epoch the key may still sign.
    #[getter]
    fn next_usable_epoch(&self, py: Python<'_>) -> PyResult<u64> {
        run(py, || self.0.next_usable_epoch())
    }

    /// The epochs `(start, end)` the key may ever sign, end excluded.
    #[getter]
    fn activation_interval(&self, py: Python<'_>) -> PyResult<(u64, u64)> {
        run(py, || self.0.activation_interval())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let next = run(py, || self.0.next_usable_epoch())?;
        Ok(format!("XmssSecretKey(scheme='{}', next_usable_epoch={next})", self.0.scheme().name()))
    }
}

/// Generates an XMSS key pair able to sign the epochs `[activation_epoch,
/// activation_epoch + num_epochs)` (widened to whole bottom trees):
/// `(public key, secret key)`. A 32-byte `seed` makes it deterministic.
#[pyfunction]
#[pyo3(signature = (scheme, activation_epoch = 0, num_epochs = 1, seed = None))]
fn xmss_keygen(
    py: Python<'_>,
    scheme: &str,
    activation_epoch: u64,
    num_epochs: u64,
    seed: Option<Vec<u8>>,
) -> PyResult<(Vec<u8>, XmssSecretKey)> {
    let s = parse_scheme(scheme)?;
    let (pk, sk) = run(py, || api::xmss::keygen(s, activation_epoch, num_epochs, seed.as_deref()))?;
    Ok((pk, XmssSecretKey(sk)))
}

/// `count` fresh signers and their signatures of the 32-byte `message` at
/// `epoch`, quickly: `(public keys, signatures)`. Each key's tree has one
/// genuine leaf (that epoch's), so it can sign nothing else: for
/// benchmarks, tests and examples. A 32-byte `seed` makes it deterministic.
#[pyfunction]
#[pyo3(signature = (scheme, count, epoch, message, seed = None))]
fn xmss_single_epoch_signers(
    py: Python<'_>,
    scheme: &str,
    count: usize,
    epoch: u32,
    message: Vec<u8>,
    seed: Option<Vec<u8>>,
) -> PyResult<api::xmss::Signers> {
    let s = parse_scheme(scheme)?;
    run(py, || api::xmss::single_epoch_signers(s, count, epoch, &message, seed.as_deref()))
}

/// Verifies an XMSS `signature` on the 32-byte `message` at `epoch`.
#[pyfunction]
fn xmss_verify(
    py: Python<'_>,
    scheme: &str,
    public_key: Vec<u8>,
    epoch: u32,
    message: Vec<u8>,
    signature: Vec<u8>,
) -> PyResult<()> {
    let s = parse_scheme(scheme)?;
    run(py, || api::xmss::verify(s, &public_key, epoch, &message, &signature))
}

/// The 32-byte seed `StdRng::seed_from_u64(n)` expands to (the reference
/// implementations' vectors draw their keys from it).
#[pyfunction]
fn seed_from_u64(n: u64) -> [u8; 32] {
    api::xmss::seed_from_u64(n)
}

// ---------------------------------------------------------------- Lamport+

/// A one-time Lamport+ secret key (opaque). It signs one message; store
/// `to_bytes()` after signing and before releasing the signature. Safe to
/// share between threads. Not picklable or copyable, on purpose.
#[pyclass(frozen, module = "sigagg", name = "LamportSecretKey")]
struct LamportSecretKey(api::lamport::LamportSecretKey);

#[pymethods]
impl LamportSecretKey {
    /// Decodes a key written by `to_bytes` for `scheme`.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, scheme: &str, data: Vec<u8>) -> PyResult<Self> {
        key_from_bytes(py, scheme, &data).map(Self)
    }

    /// The key's encoding with its one-time state (contains the seed).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        key_to_bytes(py, &self.0)
    }

    /// The public key's bytes.
    fn public_key(&self, py: Python<'_>) -> PyResult<Vec<u8>> {
        run(py, || self.0.public_key())
    }

    /// Signs `message` (any length) and marks the key used.
    fn sign(&self, py: Python<'_>, message: Vec<u8>) -> PyResult<Vec<u8>> {
        run(py, || self.0.sign(&message))
    }

    /// The key's parameter set.
    #[getter]
    fn scheme(&self) -> &'static str {
        self.0.scheme().name()
    }

    /// Whether the key has signed.
    #[getter]
    fn is_used(&self, py: Python<'_>) -> PyResult<bool> {
        run(py, || self.0.is_used())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let used = run(py, || self.0.is_used())?;
        Ok(format!(
            "LamportSecretKey(scheme='{}', is_used={})",
            self.0.scheme().name(),
            if used { "True" } else { "False" }
        ))
    }
}

/// Generates a Lamport+ key pair: `(public key, secret key)`. A 32-byte
/// `seed` makes it deterministic (use a seed for one key only).
#[pyfunction]
#[pyo3(signature = (scheme, seed = None))]
fn lamport_keygen(py: Python<'_>, scheme: &str, seed: Option<Vec<u8>>) -> PyResult<(Vec<u8>, LamportSecretKey)> {
    let s = parse_scheme(scheme)?;
    let (pk, sk) = run(py, || api::lamport::keygen(s, seed.as_deref()))?;
    Ok((pk, LamportSecretKey(sk)))
}

/// Verifies a Lamport+ `signature` on `message`.
#[pyfunction]
fn lamport_verify(
    py: Python<'_>,
    scheme: &str,
    public_key: Vec<u8>,
    message: Vec<u8>,
    signature: Vec<u8>,
) -> PyResult<()> {
    let s = parse_scheme(scheme)?;
    run(py, || api::lamport::verify(s, &public_key, &message, &signature))
}

// ---------------------------------------------------------------- proofs

/// One STARK proof that `signatures[i]` signs entry `i` (`public_keys[i]`,
/// `messages[i]`, Seed001: `epochs[i]`); `messages` and `epochs` may be
/// one value for all entries (Lamport+: no epochs).
#[pyfunction]
#[pyo3(signature = (scheme, public_keys, signatures, messages, epochs = None, settings = "fast"))]
fn aggregate(
    py: Python<'_>,
    scheme: &str,
    public_keys: Vec<Vec<u8>>,
    signatures: Vec<Vec<u8>>,
    messages: OneOrMany<Vec<u8>>,
    epochs: Option<OneOrMany<u32>>,
    settings: &str,
) -> PyResult<Vec<u8>> {
    let (s, set) = (parse_scheme(scheme)?, parse_settings(settings)?);
    let (messages, epochs) = (messages.into_vec(), epochs.map_or_else(Vec::new, OneOrMany::into_vec));
    let (pks, msgs) = (views(&public_keys), views(&messages));
    let statement = api::AggregateStatement { public_keys: &pks, messages: &msgs, epochs: &epochs };
    run(py, || api::aggregate(s, set, &statement, &views(&signatures)))
}

/// Verifies an aggregate `proof` of the same statement.
#[pyfunction]
#[pyo3(signature = (scheme, proof, public_keys, messages, epochs = None, settings = "fast"))]
fn verify_aggregate(
    py: Python<'_>,
    scheme: &str,
    proof: Vec<u8>,
    public_keys: Vec<Vec<u8>>,
    messages: OneOrMany<Vec<u8>>,
    epochs: Option<OneOrMany<u32>>,
    settings: &str,
) -> PyResult<()> {
    let (s, set) = (parse_scheme(scheme)?, parse_settings(settings)?);
    let (messages, epochs) = (messages.into_vec(), epochs.map_or_else(Vec::new, OneOrMany::into_vec));
    let (pks, msgs) = (views(&public_keys), views(&messages));
    let statement = api::AggregateStatement { public_keys: &pks, messages: &msgs, epochs: &epochs };
    run(py, || api::verify_aggregate(s, set, &statement, &proof))
}

// ---------------------------------------------------------------- merge

/// Proves that every child aggregate in `children` (aggregate proofs of
/// `scheme`, "seed001" or "leansig-prod" (leanSpec's bare `proof_data`),
/// made with "whir-skip-poseidon2") verifies, for `public_keys` (the
/// children's keys, one child after another) signing the 32-byte
/// `message` at `epoch`: one merged proof, without the signatures. For a
/// merge over several messages, `message` and `epoch` are lists: one per
/// key, then one per committee (each signer once per message). A
/// child may be a merged proof (its keys in its own order), or a threshold
/// certificate (`prove_threshold` with "whir-skip-poseidon2"), whose
/// `(group_key, threshold)` is the next of `committees` (in the tree's
/// order, depth first). Raw `signatures` beside the children are the last
/// keys' signers, aggregated into one more child.
#[pyfunction]
#[pyo3(signature = (public_keys, message, epoch, children, settings = "whir-skip-poseidon2", scheme = "seed001", signatures = Vec::new(), committees = Vec::new()))]
#[allow(clippy::too_many_arguments)]
fn merge(
    py: Python<'_>,
    public_keys: Vec<Vec<u8>>,
    message: OneOrMany<Vec<u8>>,
    epoch: OneOrMany<u32>,
    children: Vec<Vec<u8>>,
    settings: &str,
    scheme: &str,
    signatures: Vec<Vec<u8>>,
    committees: Vec<(Vec<u8>, u32)>,
) -> PyResult<Vec<u8>> {
    let (set, scheme) = (parse_settings(settings)?, parse_scheme(scheme)?);
    with_statement(scheme, &public_keys, message, epoch, &committees, |statement| {
        run(py, || api::merge::merge_signed(set, statement, &views(&children), &views(&signatures)))
    })
}

/// Verifies a merged `proof` of the same statement (`message`, `epoch`
/// and `committees` as given to `merge`); raises `VerifyError` if it does
/// not prove it.
#[pyfunction]
#[pyo3(signature = (proof, public_keys, message, epoch, settings = "whir-skip-poseidon2", scheme = "seed001", committees = Vec::new()))]
#[allow(clippy::too_many_arguments)]
fn verify_merged(
    py: Python<'_>,
    proof: Vec<u8>,
    public_keys: Vec<Vec<u8>>,
    message: OneOrMany<Vec<u8>>,
    epoch: OneOrMany<u32>,
    settings: &str,
    scheme: &str,
    committees: Vec<(Vec<u8>, u32)>,
) -> PyResult<()> {
    let (set, scheme) = (parse_settings(settings)?, parse_scheme(scheme)?);
    with_statement(scheme, &public_keys, message, epoch, &committees, |statement| {
        run(py, || api::merge::verify_merged(set, statement, &proof))
    })
}

/// A verifying key of merged proofs of one shape: made once from one
/// merged proof (`scheme`'s children; the proof is not verified), it
/// verifies every merged proof of that shape without rebuilding the
/// verifier circuit (about 2.5x faster than `verify_merged` for two
/// children). Raises `ArgumentError` for a shape with a threshold child.
#[pyclass(frozen, module = "sigagg", name = "MergeKey")]
struct MergeKey(api::merge::MergeKey);

#[pymethods]
impl MergeKey {
    #[new]
    #[pyo3(signature = (proof, scheme = "seed001"))]
    fn new(py: Python<'_>, proof: Vec<u8>, scheme: &str) -> PyResult<Self> {
        let scheme = parse_scheme(scheme)?;
        run(py, || api::merge::MergeKey::new(scheme, &proof)).map(Self)
    }

    /// `verify_merged` with the key: raises `VerifyError` if `proof` does
    /// not prove the statement, `ArgumentError` for a proof of another
    /// shape or a statement of another scheme.
    #[pyo3(signature = (proof, public_keys, message, epoch, settings = "whir-skip-poseidon2", committees = Vec::new()))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments, not a Rust API
    fn verify(
        &self,
        py: Python<'_>,
        proof: Vec<u8>,
        public_keys: Vec<Vec<u8>>,
        message: OneOrMany<Vec<u8>>,
        epoch: OneOrMany<u32>,
        settings: &str,
        committees: Vec<(Vec<u8>, u32)>,
    ) -> PyResult<()> {
        let set = parse_settings(settings)?;
        with_statement(self.0.scheme(), &public_keys, message, epoch, &committees, |statement| {
            run(py, || self.0.verify(set, statement, &proof).map(drop))
        })
    }

    fn __repr__(&self) -> String {
        format!("MergeKey(scheme={:?})", self.0.scheme().name())
    }
}

/// `f` of the byte API's merge statement of these arguments (as `merge`
/// takes them).
fn with_statement<T>(
    scheme: Scheme,
    public_keys: &[Vec<u8>],
    message: OneOrMany<Vec<u8>>,
    epoch: OneOrMany<u32>,
    committees: &[(Vec<u8>, u32)],
    f: impl FnOnce(&api::merge::MergeStatement<'_>) -> T,
) -> T {
    let (pks, committees) = (views(public_keys), committee_views(committees));
    let (messages, epochs) = (message.into_vec(), epoch.into_vec());
    let messages = views(&messages);
    f(&api::merge::MergeStatement {
        scheme,
        public_keys: &pks,
        messages: &messages,
        epochs: &epochs,
        committees: &committees,
    })
}

/// `(group_key, threshold)` pairs as the byte API's committees.
fn committee_views(committees: &[(Vec<u8>, u32)]) -> Vec<api::merge::Committee<'_>> {
    committees.iter().map(|(group_key, threshold)| api::merge::Committee { group_key, threshold: *threshold }).collect()
}

/// A merged child's shape as Python sees it: an aggregate's signer count,
/// a merged child's list of shapes, or `"threshold"` or `"withheld"`.
#[derive(IntoPyObject)]
enum PyShape {
    Aggregate(u32),
    Merged(Vec<PyShape>),
    Named(&'static str),
}

impl From<&api::merge::Shape> for PyShape {
    fn from(shape: &api::merge::Shape) -> Self {
        match shape {
            api::merge::Shape::Aggregate(n) => PyShape::Aggregate(*n),
            api::merge::Shape::Merged(inner) => PyShape::Merged(inner.iter().map(PyShape::from).collect()),
            api::merge::Shape::Threshold => PyShape::Named("threshold"),
            api::merge::Shape::Withheld(_) => PyShape::Named("withheld"),
        }
    }
}

/// Splits a merged `proof` of the statement `merge` took (every child's
/// keys, `message`, `epoch`, `committees`): the same proof for a verifier
/// who knows only the children numbered in `keep`, the others withheld
/// (`merged_counts` gives `"withheld"`). `verify_merged` checks it against
/// the kept children's keys, messages and epochs alone. Not verified here.
#[pyfunction]
#[pyo3(signature = (proof, public_keys, message, epoch, keep, scheme = "seed001", committees = Vec::new()))]
#[allow(clippy::too_many_arguments)]
fn split_merged(
    py: Python<'_>,
    proof: Vec<u8>,
    public_keys: Vec<Vec<u8>>,
    message: OneOrMany<Vec<u8>>,
    epoch: OneOrMany<u32>,
    keep: Vec<usize>,
    scheme: &str,
    committees: Vec<(Vec<u8>, u32)>,
) -> PyResult<Vec<u8>> {
    let scheme = parse_scheme(scheme)?;
    with_statement(scheme, &public_keys, message, epoch, &committees, |statement| {
        run(py, || api::merge::split(statement, &proof, &keep))
    })
}

/// Each child's number of signers that a merged `proof` claims (untrusted
/// until it verifies), a merged child's as a list of its own: how the
/// participants' keys split into children.
#[pyfunction]
fn merged_counts(proof: Vec<u8>) -> PyResult<Vec<PyShape>> {
    api::guarded(|| api::merge::inspect(&proof))
        .map(|info| info.shape.iter().map(PyShape::from).collect())
        .map_err(to_py)
}

// ---------------------------------------------------------------- leanSpec

/// leanSpec's `mode` argument: its prover library's parameter set, of
/// which only `"prod"` (leanSig production signatures) is offered here.
fn lean_mode(mode: Option<&str>) -> PyResult<()> {
    match mode {
        None | Some("prod") => Ok(()),
        Some(other) => Err(to_py(api::Error::argument(format!(
            "mode {other:?}: only \"prod\" (leanSig production signatures) is offered"
        )))),
    }
}

/// leanSpec's `aggregate_signatures`: one proof that `signatures[i]`
/// (leanSig production SSZ) is `public_keys[i]`'s signature of the 32-byte
/// `message` at `slot`. Returns the bare proof, leanSpec's `proof_data`
/// (the container's second field). `mode` is leanSpec's: `None` or `"prod"`.
#[pyfunction]
#[pyo3(signature = (public_keys, signatures, message, slot, settings = "whir-skip", mode = None))]
fn aggregate_signatures(
    py: Python<'_>,
    public_keys: Vec<Vec<u8>>,
    signatures: Vec<Vec<u8>>,
    message: Vec<u8>,
    slot: u32,
    settings: &str,
    mode: Option<&str>,
) -> PyResult<Vec<u8>> {
    let set = parse_settings(settings)?;
    lean_mode(mode)?;
    run(py, || api::lean::aggregate_signatures(set, &views(&public_keys), &views(&signatures), &message, slot))
}

/// leanSpec's `verify_aggregated_signatures`: verifies `proof` (the bare
/// `proof_data` of `aggregate_signatures`) for `public_keys` signing the
/// 32-byte `message` at `slot`; raises `VerifyError` if it does not prove it.
#[pyfunction]
#[pyo3(signature = (public_keys, message, proof, slot, settings = "whir-skip", mode = None))]
fn verify_aggregated_signatures(
    py: Python<'_>,
    public_keys: Vec<Vec<u8>>,
    message: Vec<u8>,
    proof: Vec<u8>,
    slot: u32,
    settings: &str,
    mode: Option<&str>,
) -> PyResult<()> {
    let set = parse_settings(settings)?;
    lean_mode(mode)?;
    run(py, || api::lean::verify_aggregated_signatures(set, &views(&public_keys), &message, &proof, slot))
}

/// leanSpec's `AggregatedSignatureProof.aggregate`: `aggregate_signatures`
/// wrapped in its SSZ container, whose bytes are returned. `participants`
/// is the SSZ bitlist (one bit set per key, keys in bit order); `None`
/// stands for all the keys.
#[pyfunction]
#[pyo3(signature = (participants, public_keys, signatures, message, slot, settings = "whir-skip"))]
fn lean_aggregate(
    py: Python<'_>,
    participants: Option<Vec<u8>>,
    public_keys: Vec<Vec<u8>>,
    signatures: Vec<Vec<u8>>,
    message: Vec<u8>,
    slot: u32,
    settings: &str,
) -> PyResult<Vec<u8>> {
    let set = parse_settings(settings)?;
    let (pks, sigs) = (views(&public_keys), views(&signatures));
    run(py, || api::lean::aggregate(set, participants.as_deref(), &pks, &sigs, &message, slot))
}

/// leanSpec's `AggregatedSignatureProof.verify`: verifies the SSZ container
/// `proof` against the participants' keys (one per bit set, in order).
#[pyfunction]
#[pyo3(signature = (proof, public_keys, message, slot, settings = "whir-skip"))]
fn lean_verify(
    py: Python<'_>,
    proof: Vec<u8>,
    public_keys: Vec<Vec<u8>>,
    message: Vec<u8>,
    slot: u32,
    settings: &str,
) -> PyResult<()> {
    let set = parse_settings(settings)?;
    run(py, || api::lean::verify(set, &proof, &views(&public_keys), &message, slot))
}

/// The group of `public_keys` (in member order): `(group key, paths)`,
/// `paths[i]` being member `i`'s membership path.
#[pyfunction]
fn group_key(py: Python<'_>, scheme: &str, public_keys: Vec<Vec<u8>>) -> PyResult<(Vec<u8>, Vec<Vec<u8>>)> {
    let s = parse_scheme(scheme)?;
    let group = run(py, || api::group(s, &views(&public_keys)))?;
    Ok((group.key, group.paths))
}

/// What a verified threshold proof certifies.
#[pyclass(frozen, get_all, eq, module = "sigagg", name = "Certificate")]
#[derive(PartialEq)]
struct Certificate {
    /// The number of distinct members that signed (at least the threshold).
    count: u32,
    /// Their member indices, ascending, if the proof discloses them.
    signers: Option<Vec<u32>>,
}

#[pymethods]
impl Certificate {
    fn __repr__(&self) -> String {
        let signers = self.signers.as_ref().map_or("None".to_string(), |s| format!("{s:?}"));
        format!("Certificate(count={}, signers={signers})", self.count)
    }
}

/// The claim shared by `prove_threshold` and `verify_threshold`.
fn threshold_statement<'a>(
    group_key: &'a [u8],
    threshold: u32,
    message: &'a [u8],
    epoch: Option<u32>,
) -> api::ThresholdStatement<'a> {
    api::ThresholdStatement { group_key, threshold, message, epoch }
}

/// A t-of-n proof: at least `threshold` members of the group signed
/// `message` (Seed001, leansig-prod: at `epoch`). `signers` are `(public key, signature,
/// membership path)` triples; `disclose` reveals who signed.
#[pyfunction]
#[pyo3(signature = (scheme, group_key, threshold, message, signers, epoch = None, disclose = false, settings = "fast"))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments, not a Rust API
fn prove_threshold(
    py: Python<'_>,
    scheme: &str,
    group_key: Vec<u8>,
    threshold: u32,
    message: Vec<u8>,
    signers: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)>,
    epoch: Option<u32>,
    disclose: bool,
    settings: &str,
) -> PyResult<Vec<u8>> {
    let (s, set) = (parse_scheme(scheme)?, parse_settings(settings)?);
    let statement = threshold_statement(&group_key, threshold, &message, epoch);
    let witness: Vec<api::Signer<'_>> =
        signers.iter().map(|(public_key, signature, path)| api::Signer { public_key, signature, path }).collect();
    run(py, || api::prove_threshold(s, set, &statement, &witness, disclose))
}

/// Verifies a threshold `proof`; returns what it certifies.
#[pyfunction]
#[pyo3(signature = (scheme, proof, group_key, threshold, message, epoch = None, settings = "fast"))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments, not a Rust API
fn verify_threshold(
    py: Python<'_>,
    scheme: &str,
    proof: Vec<u8>,
    group_key: Vec<u8>,
    threshold: u32,
    message: Vec<u8>,
    epoch: Option<u32>,
    settings: &str,
) -> PyResult<Certificate> {
    let (s, set) = (parse_scheme(scheme)?, parse_settings(settings)?);
    let statement = threshold_statement(&group_key, threshold, &message, epoch);
    let certificate = run(py, || api::verify_threshold(s, set, &statement, &proof))?;
    Ok(Certificate { count: certificate.count, signers: certificate.signers })
}

// ---------------------------------------------------------------- BLS

/// A BLS key pair `(secret key, public key)`; `ikm` (at least 32 bytes)
/// makes it deterministic.
#[pyfunction]
#[pyo3(signature = (ikm = None))]
fn bls_keygen<'py>(py: Python<'py>, ikm: Option<Vec<u8>>) -> PyResult<(Bound<'py, PyBytes>, Vec<u8>)> {
    let (sk, pk) = run(py, || api::bls::keygen(ikm.as_deref()))?;
    Ok((PyBytes::new(py, &*sk), pk.to_vec()))
}

/// The public key of a 32-byte secret key.
#[pyfunction]
fn bls_public_key(py: Python<'_>, secret_key: Vec<u8>) -> PyResult<Vec<u8>> {
    run(py, || api::bls::public_key(&secret_key)).map(|pk| pk.to_vec())
}

/// Signs `message`.
#[pyfunction]
fn bls_sign(py: Python<'_>, secret_key: Vec<u8>, message: Vec<u8>) -> PyResult<Vec<u8>> {
    run(py, || api::bls::sign(&secret_key, &message)).map(|s| s.to_vec())
}

/// Verifies a BLS `signature` on `message`.
#[pyfunction]
fn bls_verify(py: Python<'_>, public_key: Vec<u8>, message: Vec<u8>, signature: Vec<u8>) -> PyResult<()> {
    run(py, || api::bls::verify(&public_key, &message, &signature))
}

/// The proof of possession of a secret key.
#[pyfunction]
fn bls_prove_possession(py: Python<'_>, secret_key: Vec<u8>) -> PyResult<Vec<u8>> {
    run(py, || api::bls::prove_possession(&secret_key)).map(|p| p.to_vec())
}

/// Checks a proof of possession.
#[pyfunction]
fn bls_verify_possession(py: Python<'_>, public_key: Vec<u8>, pop: Vec<u8>) -> PyResult<()> {
    run(py, || api::bls::verify_possession(&public_key, &pop))
}

/// The sum of `signatures`.
#[pyfunction]
fn bls_aggregate(py: Python<'_>, signatures: Vec<Vec<u8>>) -> PyResult<Vec<u8>> {
    run(py, || api::bls::aggregate(&views(&signatures))).map(|s| s.to_vec())
}

/// `FastAggregateVerify`. `pops`: one proof of possession per key, or
/// `None` for keys whose proofs were checked before.
#[pyfunction]
fn bls_fast_aggregate_verify(
    py: Python<'_>,
    public_keys: Vec<Vec<u8>>,
    pops: Option<Vec<Vec<u8>>>,
    message: Vec<u8>,
    signature: Vec<u8>,
) -> PyResult<()> {
    let pops = pops.as_deref().map(views);
    run(py, || api::bls::fast_aggregate_verify(&views(&public_keys), pops.as_deref(), &message, &signature))
}

/// `AggregateVerify` over `(public_keys[i], messages[i])`. `pops` as in
/// `bls_fast_aggregate_verify`.
#[pyfunction]
fn bls_aggregate_verify(
    py: Python<'_>,
    public_keys: Vec<Vec<u8>>,
    pops: Option<Vec<Vec<u8>>>,
    messages: Vec<Vec<u8>>,
    signature: Vec<u8>,
) -> PyResult<()> {
    let pops = pops.as_deref().map(views);
    run(py, || api::bls::aggregate_verify(&views(&public_keys), pops.as_deref(), &views(&messages), &signature))
}

// ---------------------------------------------------------------- ATMS

/// The ATMS aggregate key of `public_keys`, each with its proof of possession.
#[pyfunction]
fn atms_aggregate_key(py: Python<'_>, public_keys: Vec<Vec<u8>>, pops: Vec<Vec<u8>>) -> PyResult<Vec<u8>> {
    run(py, || api::atms::aggregate_key(&views(&public_keys), &views(&pops))).map(|k| k.to_vec())
}

/// Checks that the keys with their proofs give `aggregate_key`.
#[pyfunction]
fn atms_check(py: Python<'_>, public_keys: Vec<Vec<u8>>, pops: Vec<Vec<u8>>, aggregate_key: Vec<u8>) -> PyResult<()> {
    run(py, || api::atms::check(&views(&public_keys), &views(&pops), &aggregate_key))
}

/// An ATMS signature for `threshold`: `signers` are `(index in public_keys,
/// signature on message)` pairs.
#[pyfunction]
fn atms_sign(
    py: Python<'_>,
    threshold: usize,
    message: Vec<u8>,
    public_keys: Vec<Vec<u8>>,
    signers: Vec<(u32, Vec<u8>)>,
) -> PyResult<Vec<u8>> {
    let (indices, sigs): (Vec<u32>, Vec<Vec<u8>>) = signers.into_iter().unzip();
    run(py, || api::atms::sign(threshold, &message, &views(&public_keys), &indices, &views(&sigs)))
}

/// Verifies an ATMS `signature` against `aggregate_key` and `threshold`.
#[pyfunction]
fn atms_verify(
    py: Python<'_>,
    threshold: usize,
    message: Vec<u8>,
    aggregate_key: Vec<u8>,
    signature: Vec<u8>,
) -> PyResult<()> {
    run(py, || api::atms::verify(threshold, &message, &aggregate_key, &signature))
}

// ------------------------------------------- succinct BLS certificates

/// The INSECURE deterministic development setup for committees of up to
/// `max_committee` keys (tests and demos only: anyone can forge under it).
#[pyfunction]
fn cert_development_setup(py: Python<'_>, max_committee: usize) -> PyResult<Vec<u8>> {
    run(py, || api::cert::development_setup(max_committee))
}

/// The start of a setup ceremony (no contribution yet).
#[pyfunction]
fn cert_ceremony_start(py: Python<'_>, max_committee: usize) -> PyResult<Vec<u8>> {
    run(py, || api::cert::ceremony_start(max_committee))
}

/// The ceremony with a contribution derived from `entropy` (at least 32
/// bytes from a cryptographic source, e.g. `os.urandom(64)`).
#[pyfunction]
fn cert_contribute(py: Python<'_>, setup: Vec<u8>, entropy: Vec<u8>) -> PyResult<Vec<u8>> {
    run(py, || api::cert::contribute(&setup, &entropy))
}

/// Checks a ceremony with pairings; returns its number of contributions.
#[pyfunction]
fn cert_verify_ceremony(py: Python<'_>, setup: Vec<u8>) -> PyResult<usize> {
    run(py, || api::cert::verify_ceremony(&setup))
}

/// Commits BLS keys (each with its proof of possession, optional stake
/// weights): returns `(committee, committee_key)`, the prover's and the
/// verifier's encodings.
#[pyfunction]
#[pyo3(signature = (setup, public_keys, pops, weights=None))]
fn cert_committee(
    py: Python<'_>,
    setup: Vec<u8>,
    public_keys: Vec<Vec<u8>>,
    pops: Vec<Vec<u8>>,
    weights: Option<Vec<u64>>,
) -> PyResult<(Vec<u8>, Vec<u8>)> {
    let files = run(py, || api::cert::committee(&setup, &views(&public_keys), &views(&pops), weights.as_deref()))?;
    Ok((files.committee, files.key))
}

/// A certificate that the `signers` (`(index in the committee, signature
/// on message)` pairs) signed; `accountable` publishes their bitfield.
#[pyfunction]
#[pyo3(signature = (setup, committee, message, signers, accountable=false))]
fn cert_certify(
    py: Python<'_>,
    setup: Vec<u8>,
    committee: Vec<u8>,
    message: Vec<u8>,
    signers: Vec<(u32, Vec<u8>)>,
    accountable: bool,
) -> PyResult<Vec<u8>> {
    let (indices, sigs): (Vec<u32>, Vec<Vec<u8>>) = signers.into_iter().unzip();
    run(py, || api::cert::certify(&setup, &committee, &message, &indices, &views(&sigs), accountable))
}

/// A certificate from an aggregate signature and its signers' bitfield.
#[pyfunction]
#[pyo3(signature = (setup, committee, message, bitfield, aggregate_signature, accountable=false))]
fn cert_certify_aggregate(
    py: Python<'_>,
    setup: Vec<u8>,
    committee: Vec<u8>,
    message: Vec<u8>,
    bitfield: Vec<u8>,
    aggregate_signature: Vec<u8>,
    accountable: bool,
) -> PyResult<Vec<u8>> {
    run(py, || api::cert::certify_aggregate(&setup, &committee, &message, &bitfield, &aggregate_signature, accountable))
}

/// Verifies a certificate against a committee key and a threshold; returns
/// `{"count", "stake", "signers", "insecure_setup", "setup_digest"}`. A
/// committee key of the insecure development setup raises `VerifyError`
/// unless `allow_insecure_setup` (tests and demos only).
#[pyfunction]
#[pyo3(signature = (committee_key, certificate, message, threshold, stake_threshold=None, allow_insecure_setup=false))]
fn cert_verify<'py>(
    py: Python<'py>,
    committee_key: Vec<u8>,
    certificate: Vec<u8>,
    message: Vec<u8>,
    threshold: u64,
    stake_threshold: Option<u64>,
    allow_insecure_setup: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let info = run(py, || {
        api::cert::verify_certificate(
            &committee_key,
            &certificate,
            &message,
            threshold,
            stake_threshold,
            allow_insecure_setup,
        )
    })?;
    let out = PyDict::new(py);
    out.set_item("count", info.count)?;
    out.set_item("stake", info.stake)?;
    out.set_item("signers", info.signers.map(|b| PyBytes::new(py, &b)))?;
    out.set_item("insecure_setup", info.insecure_setup)?;
    out.set_item("setup_digest", PyBytes::new(py, &info.setup_digest))?;
    Ok(out)
}

// ------------------------------------------------------- Mithril STM

/// Mithril parameters `(k, m, phi_f)` in mithril-stm's encoding (mainnet:
/// 1944, 16948, 0.2); needs `1 <= k <= m` and `0 < phi_f <= 1`.
#[pyfunction]
fn mithril_parameters(py: Python<'_>, k: u64, m: u64, phi_f: f64) -> PyResult<Vec<u8>> {
    run(py, || api::mithril::parameters(k, m, phi_f))
}

/// A signing key and its verification key with proof of possession (192
/// bytes, to register): `(signing_key, key)`. `seed`: at least 32 bytes
/// for a deterministic key; random without.
#[pyfunction]
#[pyo3(signature = (seed=None))]
fn mithril_keygen(py: Python<'_>, seed: Option<Vec<u8>>) -> PyResult<(Vec<u8>, Vec<u8>)> {
    let (sk, key) = run(py, || api::mithril::keygen(seed.as_deref()))?;
    Ok((sk.to_vec(), key.to_vec()))
}

/// Registers `(key, stake)` parties (each key's proof of possession is
/// checked) and closes the registration: returns `(registration, avk)`,
/// for signers and the clerk, and for verifiers.
#[pyfunction]
fn mithril_register(py: Python<'_>, parties: Vec<(Vec<u8>, u64)>) -> PyResult<(Vec<u8>, Vec<u8>)> {
    let (keys, stakes): (Vec<Vec<u8>>, Vec<u64>) = parties.into_iter().unzip();
    let reg = run(py, || api::mithril::register(&views(&keys), &stakes))?;
    Ok((reg.registration, reg.avk))
}

/// Signs `message` with a registered signing key: the single signature, or
/// `None` if it wins no lottery index (as mithril-stm's `sign`).
#[pyfunction]
fn mithril_sign(
    py: Python<'_>,
    params: Vec<u8>,
    registration: Vec<u8>,
    signing_key: Vec<u8>,
    message: Vec<u8>,
) -> PyResult<Option<Vec<u8>>> {
    let signed = run(py, || api::mithril::sign(&params, &registration, &signing_key, &message))?;
    Ok(match signed {
        api::mithril::Signed::Won(sig) => Some(sig),
        api::mithril::Signed::NoIndexWon => None,
    })
}

/// The clerk's concatenation certificate on `message` from single
/// signatures (invalid ones skipped; too few indices raises `ProveError`).
#[pyfunction]
fn mithril_aggregate(
    py: Python<'_>,
    params: Vec<u8>,
    registration: Vec<u8>,
    message: Vec<u8>,
    signatures: Vec<Vec<u8>>,
) -> PyResult<Vec<u8>> {
    run(py, || api::mithril::aggregate(&params, &registration, &message, &views(&signatures)))
}

/// Verifies a certificate against the aggregate verification key; returns
/// `{"signatures", "indices"}`.
#[pyfunction]
fn mithril_verify<'py>(
    py: Python<'py>,
    params: Vec<u8>,
    avk: Vec<u8>,
    message: Vec<u8>,
    certificate: Vec<u8>,
) -> PyResult<Bound<'py, PyDict>> {
    let v = run(py, || api::mithril::verify(&params, &avk, &message, &certificate))?;
    let out = PyDict::new(py);
    out.set_item("signatures", v.signatures)?;
    out.set_item("indices", v.indices)?;
    Ok(out)
}

/// sigagg: aggregate hash-based (XMSS, Lamport+) and BLS signatures, on bytes.
#[pymodule(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    for (name, class) in [
        ("Error", py.get_type::<Error>()),
        ("ArgumentError", py.get_type::<ArgumentError>()),
        ("DecodeError", py.get_type::<DecodeError>()),
        ("VerifyError", py.get_type::<VerifyError>()),
        ("SignError", py.get_type::<SignError>()),
        ("ProveError", py.get_type::<ProveError>()),
        ("InternalError", py.get_type::<InternalError>()),
    ] {
        m.add(name, class)?;
    }
    m.add("SCHEMES", PyTuple::new(py, Scheme::ALL.map(Scheme::name))?)?;
    m.add("SETTINGS", PyTuple::new(py, ProofSettings::ALL.map(ProofSettings::name))?)?;
    m.add_class::<XmssSecretKey>()?;
    m.add_class::<LamportSecretKey>()?;
    m.add_class::<Certificate>()?;
    m.add_class::<MergeKey>()?;
    m.add_function(wrap_pyfunction!(xmss_keygen, m)?)?;
    m.add_function(wrap_pyfunction!(xmss_verify, m)?)?;
    m.add_function(wrap_pyfunction!(xmss_single_epoch_signers, m)?)?;
    m.add_function(wrap_pyfunction!(seed_from_u64, m)?)?;
    m.add_function(wrap_pyfunction!(lamport_keygen, m)?)?;
    m.add_function(wrap_pyfunction!(lamport_verify, m)?)?;
    m.add_function(wrap_pyfunction!(aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(verify_aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(verify_merged, m)?)?;
    m.add_function(wrap_pyfunction!(merged_counts, m)?)?;
    m.add_function(wrap_pyfunction!(split_merged, m)?)?;
    m.add_function(wrap_pyfunction!(aggregate_signatures, m)?)?;
    m.add_function(wrap_pyfunction!(verify_aggregated_signatures, m)?)?;
    m.add_function(wrap_pyfunction!(lean_aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(lean_verify, m)?)?;
    m.add_function(wrap_pyfunction!(group_key, m)?)?;
    m.add_function(wrap_pyfunction!(prove_threshold, m)?)?;
    m.add_function(wrap_pyfunction!(verify_threshold, m)?)?;
    m.add_function(wrap_pyfunction!(bls_keygen, m)?)?;
    m.add_function(wrap_pyfunction!(bls_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(bls_sign, m)?)?;
    m.add_function(wrap_pyfunction!(bls_verify, m)?)?;
    m.add_function(wrap_pyfunction!(bls_prove_possession, m)?)?;
    m.add_function(wrap_pyfunction!(bls_verify_possession, m)?)?;
    m.add_function(wrap_pyfunction!(bls_aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(bls_fast_aggregate_verify, m)?)?;
    m.add_function(wrap_pyfunction!(bls_aggregate_verify, m)?)?;
    m.add_function(wrap_pyfunction!(atms_aggregate_key, m)?)?;
    m.add_function(wrap_pyfunction!(atms_check, m)?)?;
    m.add_function(wrap_pyfunction!(atms_sign, m)?)?;
    m.add_function(wrap_pyfunction!(atms_verify, m)?)?;
    m.add_function(wrap_pyfunction!(cert_development_setup, m)?)?;
    m.add_function(wrap_pyfunction!(cert_ceremony_start, m)?)?;
    m.add_function(wrap_pyfunction!(cert_contribute, m)?)?;
    m.add_function(wrap_pyfunction!(cert_verify_ceremony, m)?)?;
    m.add_function(wrap_pyfunction!(cert_committee, m)?)?;
    m.add_function(wrap_pyfunction!(cert_certify, m)?)?;
    m.add_function(wrap_pyfunction!(cert_certify_aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(cert_verify, m)?)?;
    m.add_function(wrap_pyfunction!(mithril_parameters, m)?)?;
    m.add_function(wrap_pyfunction!(mithril_keygen, m)?)?;
    m.add_function(wrap_pyfunction!(mithril_register, m)?)?;
    m.add_function(wrap_pyfunction!(mithril_sign, m)?)?;
    m.add_function(wrap_pyfunction!(mithril_aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(mithril_verify, m)?)?;
    Ok(())
}
