"""XMSS through the binding: keys, stateful signing, verification, rejections."""

import pickle
import threading

import pytest

import sigagg

MESSAGE = bytes(range(32))


@pytest.fixture
def key():
    return sigagg.xmss_keygen("test", 0, 64, seed=b"\x07" * 32)


def test_sign_and_verify():
    # leansig-prod keys take 25 s to make: test_vectors.py covers that set.
    for scheme, size in [("test", 424), ("seed001", 2780)]:
        pk, sk = sigagg.xmss_keygen(scheme)
        sig = sk.sign(1, MESSAGE)
        assert len(sig) == size
        assert sk.public_key() == pk and sk.scheme == scheme
        sigagg.xmss_verify(scheme, pk, 1, MESSAGE, sig)
        with pytest.raises(sigagg.VerifyError):
            sigagg.xmss_verify(scheme, pk, 1, bytes(32), sig)


def test_signing_advances_the_key_and_the_state_travels_in_its_bytes(key):
    pk, sk = key
    assert sk.next_usable_epoch == 0 and sk.activation_interval == (0, 64)
    sk.sign(10, MESSAGE)
    assert sk.next_usable_epoch == 11
    with pytest.raises(sigagg.SignError, match="already used"):
        sk.sign(10, MESSAGE)
    with pytest.raises(sigagg.SignError):
        sk.sign(9, bytes(32))
    restored = sigagg.XmssSecretKey.from_bytes("test", sk.to_bytes())
    assert restored.next_usable_epoch == 11 and restored.public_key() == pk
    with pytest.raises(sigagg.SignError):
        restored.sign(10, MESSAGE)
    sigagg.xmss_verify("test", pk, 40, MESSAGE, restored.sign(40, MESSAGE))
    with pytest.raises(sigagg.SignError, match="outside the activation window"):
        restored.sign(64, MESSAGE)


def test_seeded_keys_are_deterministic(key):
    pk, _ = key
    assert sigagg.xmss_keygen("test", 0, 64, seed=b"\x07" * 32)[0] == pk
    assert sigagg.xmss_keygen("test", 0, 64, seed=b"\x08" * 32)[0] != pk
    assert sigagg.xmss_keygen("test", 0, 64)[0] != pk


def test_rejections_name_the_problem(key):
    pk, sk = key
    sig = sk.sign(3, MESSAGE)
    tampered = bytearray(sig)
    tampered[-5] ^= 1
    with pytest.raises(sigagg.VerifyError):
        sigagg.xmss_verify("test", pk, 3, MESSAGE, bytes(tampered))
    with pytest.raises(sigagg.VerifyError):
        sigagg.xmss_verify("test", pk, 4, MESSAGE, sig)
    with pytest.raises(sigagg.DecodeError, match="expected 424 bytes, got 423"):
        sigagg.xmss_verify("test", pk, 3, MESSAGE, sig[:-1])
    with pytest.raises(sigagg.DecodeError):
        sigagg.xmss_verify("test", pk[:-1], 3, MESSAGE, sig)
    with pytest.raises(sigagg.DecodeError, match="non-canonical"):
        sigagg.xmss_verify("test", b"\xff" * len(pk), 3, MESSAGE, sig)
    with pytest.raises(sigagg.ArgumentError, match="32 bytes"):
        sigagg.xmss_verify("test", pk, 3, MESSAGE[:31], sig)
    with pytest.raises(sigagg.ArgumentError, match="unknown scheme"):
        sigagg.xmss_verify("xmss", pk, 3, MESSAGE, sig)
    with pytest.raises(sigagg.ArgumentError, match="not available for lamport-plus"):
        sigagg.xmss_keygen("lamport-plus")
    with pytest.raises(sigagg.ArgumentError):
        sigagg.xmss_keygen("test", 0, 0)
    with pytest.raises(sigagg.ArgumentError, match="32 bytes"):
        sigagg.xmss_keygen("test", seed=b"short")
    with pytest.raises(sigagg.DecodeError, match="parameter set"):
        sigagg.XmssSecretKey.from_bytes("seed001", sk.to_bytes())
    with pytest.raises(sigagg.DecodeError):
        sigagg.XmssSecretKey.from_bytes("test", sk.to_bytes()[:-1])
    # Every error is a sigagg.Error, and an Exception.
    assert issubclass(sigagg.DecodeError, sigagg.Error) and issubclass(sigagg.Error, Exception)


def test_secret_keys_cannot_be_copied_by_pickling(key):
    with pytest.raises(TypeError):
        pickle.dumps(key[1])
    assert "next_usable_epoch=0" in repr(key[1])


def test_concurrent_signing_with_one_key_never_reuses_an_epoch(key):
    pk, sk = key
    results, errors = [], []

    def sign(epoch):
        try:
            results.append((epoch, sk.sign(epoch, MESSAGE)))
        except sigagg.SignError as e:
            errors.append(e)

    threads = [threading.Thread(target=sign, args=(20,)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 1 and len(errors) == 7
    sigagg.xmss_verify("test", pk, 20, MESSAGE, results[0][1])
