"""sigagg: aggregate hash-based (XMSS, Lamport+) and BLS signatures.

Every function takes and returns ``bytes`` (keys, signatures, group keys,
membership paths, proofs in the Rust crates' encodings); schemes and
proof settings are named by strings (``SCHEMES``, ``SETTINGS``). Failures
raise a subclass of :class:`Error` carrying the Rust error's message.
Heavy calls (key generation, proving, verification) release the GIL.

Secret keys of the hash-based schemes are stateful objects: signing
advances the key (an XMSS epoch, a Lamport+ one-time key), so store
``key.to_bytes()`` durably before releasing a signature and never sign
from two copies of one key.
"""

from sigagg._native import (
    SCHEMES,
    SETTINGS,
    ArgumentError,
    Certificate,
    DecodeError,
    Error,
    InternalError,
    LamportSecretKey,
    ProveError,
    SignError,
    VerifyError,
    XmssSecretKey,
    aggregate,
    atms_aggregate_key,
    atms_check,
    atms_sign,
    atms_verify,
    bls_aggregate,
    bls_aggregate_verify,
    bls_fast_aggregate_verify,
    bls_keygen,
    bls_prove_possession,
    bls_public_key,
    bls_sign,
    bls_verify,
    bls_verify_possession,
    group_key,
    lamport_keygen,
    lamport_verify,
    prove_threshold,
    seed_from_u64,
    verify_aggregate,
    verify_threshold,
    xmss_keygen,
    xmss_verify,
)

__all__ = [
    "SCHEMES",
    "SETTINGS",
    "ArgumentError",
    "Certificate",
    "DecodeError",
    "Error",
    "InternalError",
    "LamportSecretKey",
    "ProveError",
    "SignError",
    "VerifyError",
    "XmssSecretKey",
    "aggregate",
    "atms_aggregate_key",
    "atms_check",
    "atms_sign",
    "atms_verify",
    "bls_aggregate",
    "bls_aggregate_verify",
    "bls_fast_aggregate_verify",
    "bls_keygen",
    "bls_prove_possession",
    "bls_public_key",
    "bls_sign",
    "bls_verify",
    "bls_verify_possession",
    "group_key",
    "lamport_keygen",
    "lamport_verify",
    "prove_threshold",
    "seed_from_u64",
    "verify_aggregate",
    "verify_threshold",
    "xmss_keygen",
    "xmss_verify",
]
