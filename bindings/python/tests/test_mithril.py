"""Mithril STM through the binding: parameters, keys, registration,
lottery signing (losing is None, not an error), the clerk's certificate,
its verification and its refusals."""

import pytest

import sigagg

MESSAGE = b"snapshot 12"


def world(stakes, k=5, m=40, phi_f=0.9):
    params = sigagg.mithril_parameters(k, m, phi_f)
    keys = [sigagg.mithril_keygen(bytes([i + 1]) * 32) for i in range(len(stakes))]
    registration, avk = sigagg.mithril_register([(key, stake) for (_, key), stake in zip(keys, stakes)])
    return params, [sk for sk, _ in keys], registration, avk


def test_register_sign_aggregate_verify():
    params, sks, registration, avk = world([10, 20, 30, 40])
    sigs = [sigagg.mithril_sign(params, registration, sk, MESSAGE) for sk in sks]
    # Deterministic: signing again gives the same bytes.
    assert sigs == [sigagg.mithril_sign(params, registration, sk, MESSAGE) for sk in sks]
    won = [s for s in sigs if s is not None]
    assert len(won) >= 2
    cert = sigagg.mithril_aggregate(params, registration, MESSAGE, won)
    info = sigagg.mithril_verify(params, avk, MESSAGE, cert)
    assert info["indices"] >= 5 and 1 <= info["signatures"] <= len(won)

    with pytest.raises(sigagg.VerifyError):
        sigagg.mithril_verify(params, avk, b"snapshot 13", cert)
    with pytest.raises(sigagg.VerifyError, match="needed"):
        sigagg.mithril_verify(sigagg.mithril_parameters(info["indices"] + 1, 40, 0.9), avk, MESSAGE, cert)
    with pytest.raises(sigagg.DecodeError):
        sigagg.mithril_verify(params, avk, MESSAGE, cert[:-1])
    tampered = bytearray(cert)
    tampered[len(cert) // 2] ^= 1
    with pytest.raises((sigagg.VerifyError, sigagg.DecodeError)):
        sigagg.mithril_verify(params, avk, MESSAGE, bytes(tampered))
    with pytest.raises(sigagg.ProveError, match="needed"):
        sigagg.mithril_aggregate(sigagg.mithril_parameters(40, 40, 0.9), registration, MESSAGE, won)


def test_losing_the_lottery_is_none():
    params, sks, registration, _ = world([1, 1_000_000], k=1, m=1, phi_f=0.01)
    assert sigagg.mithril_sign(params, registration, sks[0], b"m") is None


def test_refusals_are_typed():
    with pytest.raises(sigagg.ArgumentError):
        sigagg.mithril_parameters(41, 40, 0.9)
    with pytest.raises(sigagg.ArgumentError):
        sigagg.mithril_parameters(1, 40, 1.5)
    sk, key = sigagg.mithril_keygen(b"\x07" * 32)
    _, other = sigagg.mithril_keygen()
    assert len(sk) == 32 and len(key) == 192
    with pytest.raises(sigagg.VerifyError, match="proof of possession"):
        sigagg.mithril_register([(key[:96] + other[96:], 1)])
    with pytest.raises(sigagg.ArgumentError, match="already registered"):
        sigagg.mithril_register([(key, 1), (key, 2)])
    params, _, registration, _ = world([1, 2])
    with pytest.raises(sigagg.ArgumentError, match="not registered"):
        sigagg.mithril_sign(params, registration, sk, b"m")
    with pytest.raises(sigagg.DecodeError):
        sigagg.mithril_sign(params, registration[:-1], sk, b"m")
