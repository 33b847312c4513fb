"""Type stubs of ``sigagg._native`` (re-exported by ``sigagg``).

Byte strings are accepted as ``bytes`` or ``bytearray`` and returned as
``bytes``. Every function may raise a subclass of :class:`Error`.
"""

from typing import List, Literal, Optional, Sequence, Tuple, TypedDict, Union

Scheme = Literal["seed001", "leansig-prod", "test", "lamport-plus", "lamport-plus-mined"]
"""XMSS sets: seed001, leansig-prod, test (insecure). Lamport+ sets: lamport-plus, lamport-plus-mined."""
Settings = Literal["fast", "compact", "test", "whir", "whir-compact", "whir-skip", "whir-skip-poseidon2", "whir-skip-compact"]
"""Proof settings: fast (rate 1/2), compact (rate 1/8, smaller proofs), test (insecure);
whir and whir-compact (the multilinear backend, at least 120 proven bits; whir-compact
gives the shortest proofs of small statements); whir-skip (our own multilinear prover
on whir's commitment, at least 120 proven bits, faster); whir-skip-poseidon2 (whir-skip
with Merkle trees and transcript over Poseidon2, for recursion); whir-skip-compact
(whir-skip at rate 1/4: shorter proofs, e.g. merged proofs under 256 KiB)."""
Bytes = Union[bytes, bytearray]

SCHEMES: Tuple[str, ...]
SETTINGS: Tuple[str, ...]

class Error(Exception):
    """Base class of every error raised by sigagg."""

class ArgumentError(Error):
    """The arguments do not fit together or are out of range."""

class DecodeError(Error):
    """Bytes that do not decode as the object they should be."""

class VerifyError(Error):
    """Well-formed inputs whose claim is false: a signature or proof that does not verify."""

class SignError(Error):
    """A stateful key refused to sign (XMSS epoch used or outside the window, Lamport+ key used)."""

class ProveError(Error):
    """No proof can be made from the witness (invalid signature, non-member, too few signers)."""

class InternalError(Error):
    """A bug: a panic caught at the boundary."""

class XmssSecretKey:
    """A stateful XMSS secret key. Signing advances it: store ``to_bytes()``
    durably before releasing a signature; never sign from two copies."""

    @staticmethod
    def from_bytes(scheme: Scheme, data: Bytes) -> XmssSecretKey: ...
    def to_bytes(self) -> bytes: ...
    def public_key(self) -> bytes: ...
    def sign(self, epoch: int, message: Bytes) -> bytes:
        """Signs the 32-byte message at ``epoch`` and advances the key past it."""
    @property
    def scheme(self) -> str: ...
    @property
    def next_usable_epoch(self) -> int: ...
    @property
    def activation_interval(self) -> Tuple[int, int]: ...

def xmss_keygen(
    scheme: Scheme, activation_epoch: int = 0, num_epochs: int = 1, seed: Optional[Bytes] = None
) -> Tuple[bytes, XmssSecretKey]: ...
def xmss_single_epoch_signers(
    scheme: Scheme, count: int, epoch: int, message: Bytes, seed: Optional[Bytes] = None
) -> Tuple[List[bytes], List[bytes]]: ...
def xmss_verify(scheme: Scheme, public_key: Bytes, epoch: int, message: Bytes, signature: Bytes) -> None: ...
def seed_from_u64(n: int) -> bytes: ...

class LamportSecretKey:
    """A one-time Lamport+ secret key: it signs one message."""

    @staticmethod
    def from_bytes(scheme: Scheme, data: Bytes) -> LamportSecretKey: ...
    def to_bytes(self) -> bytes: ...
    def public_key(self) -> bytes: ...
    def sign(self, message: Bytes) -> bytes: ...
    @property
    def scheme(self) -> str: ...
    @property
    def is_used(self) -> bool: ...

def lamport_keygen(scheme: Scheme, seed: Optional[Bytes] = None) -> Tuple[bytes, LamportSecretKey]: ...
def lamport_verify(scheme: Scheme, public_key: Bytes, message: Bytes, signature: Bytes) -> None: ...
def aggregate(
    scheme: Scheme,
    public_keys: Sequence[Bytes],
    signatures: Sequence[Bytes],
    messages: Union[Bytes, Sequence[Bytes]],
    epochs: Union[int, Sequence[int], None] = None,
    settings: Settings = "fast",
) -> bytes: ...
def verify_aggregate(
    scheme: Scheme,
    proof: Bytes,
    public_keys: Sequence[Bytes],
    messages: Union[Bytes, Sequence[Bytes]],
    epochs: Union[int, Sequence[int], None] = None,
    settings: Settings = "fast",
) -> None: ...
# Merged aggregates: one proof that Seed001 or leanSig aggregates ("whir-skip-poseidon2") of
# one message and epoch verify; public_keys are the children's keys, one child after another.
# Over several messages, message and epoch are lists: one per key, then one per committee.
def merge(
    public_keys: Sequence[Bytes],
    message: Union[Bytes, Sequence[Bytes]],
    epoch: Union[int, Sequence[int]],
    children: Sequence[Bytes],
    settings: Settings = "whir-skip-poseidon2",
    scheme: Scheme = "seed001",
    signatures: Sequence[Bytes] = ...,
    committees: Sequence[Tuple[Bytes, int]] = ...,
) -> bytes: ...
def verify_merged(
    proof: Bytes,
    public_keys: Sequence[Bytes],
    message: Union[Bytes, Sequence[Bytes]],
    epoch: Union[int, Sequence[int]],
    settings: Settings = "whir-skip-poseidon2",
    scheme: Scheme = "seed001",
    committees: Sequence[Tuple[Bytes, int]] = ...,
) -> None: ...
# An aggregate child's signer count, "threshold" for a threshold
# certificate, "withheld" for a child split off, or a merged child's own list.
MergedShape = List[Union[int, str, "MergedShape"]]
def merged_counts(proof: Bytes) -> MergedShape: ...

class MergeKey:
    """A verifying key of merged proofs of one shape, made from one of them."""

    def __init__(self, proof: Bytes, scheme: Scheme = "seed001") -> None: ...
    def verify(
        self,
        proof: Bytes,
        public_keys: Sequence[Bytes],
        message: Union[Bytes, Sequence[Bytes]],
        epoch: Union[int, Sequence[int]],
        settings: Settings = "whir-skip-poseidon2",
        committees: Sequence[Tuple[Bytes, int]] = ...,
    ) -> None: ...
def split_merged(
    proof: Bytes,
    public_keys: Sequence[Bytes],
    message: Union[Bytes, Sequence[Bytes]],
    epoch: Union[int, Sequence[int]],
    keep: Sequence[int],
    scheme: Scheme = "seed001",
    committees: Sequence[Tuple[Bytes, int]] = ...,
) -> bytes: ...
# leanSpec's aggregation API (leanSig production signatures, one message and slot):
# the bare proof (leanSpec's proof_data) and its SSZ container AggregatedSignatureProof.
def aggregate_signatures(
    public_keys: Sequence[Bytes],
    signatures: Sequence[Bytes],
    message: Bytes,
    slot: int,
    settings: Settings = "whir-skip",
    mode: Optional[str] = None,
) -> bytes: ...
def verify_aggregated_signatures(
    public_keys: Sequence[Bytes],
    message: Bytes,
    proof: Bytes,
    slot: int,
    settings: Settings = "whir-skip",
    mode: Optional[str] = None,
) -> None: ...
def lean_aggregate(
    participants: Optional[Bytes],
    public_keys: Sequence[Bytes],
    signatures: Sequence[Bytes],
    message: Bytes,
    slot: int,
    settings: Settings = "whir-skip",
) -> bytes: ...
def lean_verify(
    proof: Bytes,
    public_keys: Sequence[Bytes],
    message: Bytes,
    slot: int,
    settings: Settings = "whir-skip",
) -> None: ...
def group_key(scheme: Scheme, public_keys: Sequence[Bytes]) -> Tuple[bytes, list[bytes]]: ...

class Certificate:
    """What a verified threshold proof certifies."""

    @property
    def count(self) -> int: ...
    @property
    def signers(self) -> Optional[list[int]]: ...

def prove_threshold(
    scheme: Scheme,
    group_key: Bytes,
    threshold: int,
    message: Bytes,
    signers: Sequence[Tuple[Bytes, Bytes, Bytes]],
    epoch: Optional[int] = None,
    disclose: bool = False,
    settings: Settings = "fast",
) -> bytes: ...
def verify_threshold(
    scheme: Scheme,
    proof: Bytes,
    group_key: Bytes,
    threshold: int,
    message: Bytes,
    epoch: Optional[int] = None,
    settings: Settings = "fast",
) -> Certificate: ...
def bls_keygen(ikm: Optional[Bytes] = None) -> Tuple[bytes, bytes]: ...
def bls_public_key(secret_key: Bytes) -> bytes: ...
def bls_sign(secret_key: Bytes, message: Bytes) -> bytes: ...
def bls_verify(public_key: Bytes, message: Bytes, signature: Bytes) -> None: ...
def bls_prove_possession(secret_key: Bytes) -> bytes: ...
def bls_verify_possession(public_key: Bytes, pop: Bytes) -> None: ...
def bls_aggregate(signatures: Sequence[Bytes]) -> bytes: ...
def bls_fast_aggregate_verify(
    public_keys: Sequence[Bytes], pops: Optional[Sequence[Bytes]], message: Bytes, signature: Bytes
) -> None: ...
def bls_aggregate_verify(
    public_keys: Sequence[Bytes], pops: Optional[Sequence[Bytes]], messages: Sequence[Bytes], signature: Bytes
) -> None: ...
def atms_aggregate_key(public_keys: Sequence[Bytes], pops: Sequence[Bytes]) -> bytes: ...
def atms_check(public_keys: Sequence[Bytes], pops: Sequence[Bytes], aggregate_key: Bytes) -> None: ...
def atms_sign(
    threshold: int, message: Bytes, public_keys: Sequence[Bytes], signers: Sequence[Tuple[int, Bytes]]
) -> bytes: ...
def atms_verify(threshold: int, message: Bytes, aggregate_key: Bytes, signature: Bytes) -> None: ...
class CertificateInfo(TypedDict):
    count: int
    stake: Optional[int]
    signers: Optional[bytes]
    insecure_setup: bool
    setup_digest: bytes

def cert_development_setup(max_committee: int) -> bytes: ...
def cert_ceremony_start(max_committee: int) -> bytes: ...
def cert_contribute(setup: Bytes, entropy: Bytes) -> bytes: ...
def cert_verify_ceremony(setup: Bytes) -> int: ...
def cert_committee(
    setup: Bytes, public_keys: Sequence[Bytes], pops: Sequence[Bytes], weights: Optional[Sequence[int]] = None
) -> Tuple[bytes, bytes]: ...
def cert_certify(
    setup: Bytes, committee: Bytes, message: Bytes, signers: Sequence[Tuple[int, Bytes]], accountable: bool = False
) -> bytes: ...
def cert_certify_aggregate(
    setup: Bytes,
    committee: Bytes,
    message: Bytes,
    bitfield: Bytes,
    aggregate_signature: Bytes,
    accountable: bool = False,
) -> bytes: ...
def cert_verify(
    committee_key: Bytes,
    certificate: Bytes,
    message: Bytes,
    threshold: int,
    stake_threshold: Optional[int] = None,
    allow_insecure_setup: bool = False,
) -> CertificateInfo: ...

class MithrilInfo(TypedDict):
    signatures: int
    indices: int

def mithril_parameters(k: int, m: int, phi_f: float) -> bytes: ...
def mithril_keygen(seed: Optional[Bytes] = None) -> Tuple[bytes, bytes]: ...
def mithril_register(parties: Sequence[Tuple[Bytes, int]]) -> Tuple[bytes, bytes]:
    """Returns ``(registration, avk)``: for signers and the clerk, and for verifiers."""
def mithril_sign(params: Bytes, registration: Bytes, signing_key: Bytes, message: Bytes) -> Optional[bytes]:
    """The single signature, or ``None`` if it wins no lottery index (not an error in Mithril)."""
def mithril_aggregate(params: Bytes, registration: Bytes, message: Bytes, signatures: Sequence[Bytes]) -> bytes: ...
def mithril_verify(params: Bytes, avk: Bytes, message: Bytes, certificate: Bytes) -> MithrilInfo: ...
