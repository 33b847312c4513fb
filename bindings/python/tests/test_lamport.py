"""Lamport+ through the binding: one-time keys, signing, verification, rejections."""

import pytest

import sigagg

SIZES = {"lamport-plus": 8216, "lamport-plus-mined": 7192}


@pytest.mark.parametrize("scheme", sorted(SIZES))
def test_one_time_key_signs_one_message(scheme):
    pk, sk = sigagg.lamport_keygen(scheme, seed=b"\x03" * 32)
    assert len(pk) == 32 and not sk.is_used and sk.scheme == scheme
    sig = sk.sign(b"block 42")
    assert len(sig) == SIZES[scheme] and sk.is_used
    sigagg.lamport_verify(scheme, pk, b"block 42", sig)
    with pytest.raises(sigagg.VerifyError):
        sigagg.lamport_verify(scheme, pk, b"block 43", sig)
    assert sk.sign(b"block 42") == sig  # the same message again: the same signature
    with pytest.raises(sigagg.SignError, match="already"):
        sk.sign(b"block 43")
    restored = sigagg.LamportSecretKey.from_bytes(scheme, sk.to_bytes())
    assert restored.is_used and restored.public_key() == pk
    with pytest.raises(sigagg.SignError):
        restored.sign(b"block 43")


def test_rejections():
    pk, sk = sigagg.lamport_keygen("lamport-plus")
    sig = sk.sign(b"m")
    tampered = bytearray(sig)
    tampered[100] ^= 1
    with pytest.raises((sigagg.VerifyError, sigagg.DecodeError)):
        sigagg.lamport_verify("lamport-plus", pk, b"m", bytes(tampered))
    other_pk, _ = sigagg.lamport_keygen("lamport-plus")
    with pytest.raises(sigagg.VerifyError):
        sigagg.lamport_verify("lamport-plus", other_pk, b"m", sig)
    with pytest.raises(sigagg.DecodeError):
        sigagg.lamport_verify("lamport-plus", pk, b"m", sig[:-1])
    with pytest.raises(sigagg.DecodeError):
        sigagg.lamport_verify("lamport-plus-mined", pk, b"m", sig)
    with pytest.raises(sigagg.DecodeError):
        sigagg.LamportSecretKey.from_bytes("lamport-plus-mined", sk.to_bytes())
    with pytest.raises(sigagg.ArgumentError):
        sigagg.lamport_keygen("seed001")
    with pytest.raises(sigagg.ArgumentError):
        sigagg.lamport_keygen("lamport-plus", seed=b"\x00" * 33)


def test_seeded_keys_are_deterministic_and_sets_differ():
    a = sigagg.lamport_keygen("lamport-plus", seed=b"\x09" * 32)[0]
    assert sigagg.lamport_keygen("lamport-plus", seed=b"\x09" * 32)[0] == a
    assert sigagg.lamport_keygen("lamport-plus-mined", seed=b"\x09" * 32)[0] != a
