"""Aggregate and threshold proofs through the binding (insecure "test"
settings, so that each proof takes about a second), with every claim
changed refused, and the GIL released while proving."""

import threading
import time

import pytest

import sigagg

EPOCH = 5
MESSAGE = b"\x42" * 32


def keys(scheme, n, seed=1):
    if scheme == "seed001":
        return [sigagg.xmss_keygen(scheme, 0, 1, seed=bytes([seed + i]) * 32) for i in range(n)]
    return [sigagg.lamport_keygen(scheme, seed=bytes([seed + i]) * 32) for i in range(n)]


def sign(scheme, sk, message):
    return sk.sign(EPOCH, message) if scheme == "seed001" else sk.sign(message)


@pytest.fixture(scope="module")
def seed001_aggregate():
    pairs = keys("seed001", 3)
    pks = [pk for pk, _ in pairs]
    sigs = [sign("seed001", sk, MESSAGE) for _, sk in pairs]
    proof = sigagg.aggregate("seed001", pks, sigs, MESSAGE, epochs=EPOCH, settings="test")
    return pks, sigs, proof


def test_seed001_aggregate_round_trip(seed001_aggregate):
    pks, _, proof = seed001_aggregate
    assert proof.startswith(b"SGXAGG")
    sigagg.verify_aggregate("seed001", proof, pks, MESSAGE, epochs=EPOCH, settings="test")
    # One message and epoch per entry is the same statement.
    sigagg.verify_aggregate("seed001", proof, pks, [MESSAGE] * 3, epochs=[EPOCH] * 3, settings="test")


def test_seed001_aggregate_rejections(seed001_aggregate):
    pks, sigs, proof = seed001_aggregate

    def verify(proof=proof, pks=pks, message=MESSAGE, epochs=EPOCH, settings="test"):
        sigagg.verify_aggregate("seed001", proof, pks, message, epochs=epochs, settings=settings)

    with pytest.raises(sigagg.VerifyError):
        verify(message=b"\x43" * 32)
    with pytest.raises(sigagg.VerifyError):
        verify(epochs=EPOCH + 1)
    with pytest.raises(sigagg.VerifyError):
        verify(pks=[pks[1], pks[0], pks[2]])
    with pytest.raises(sigagg.VerifyError):
        verify(pks=pks[:2])
    with pytest.raises(sigagg.VerifyError, match="other settings"):
        verify(settings="fast")
    for at in (len(proof) // 3, len(proof) // 2, len(proof) - 40):
        tampered = bytearray(proof)
        tampered[at] ^= 0x10
        with pytest.raises((sigagg.VerifyError, sigagg.DecodeError)):
            verify(proof=bytes(tampered))
    with pytest.raises(sigagg.DecodeError):
        verify(proof=proof[:-1])
    with pytest.raises(sigagg.DecodeError):
        verify(proof=b"")
    with pytest.raises(sigagg.ArgumentError, match="one epoch"):
        verify(epochs=[EPOCH, EPOCH])
    with pytest.raises(sigagg.ArgumentError):
        verify(settings="fastest")
    with pytest.raises(sigagg.ProveError, match="signature 1 is invalid"):
        sigagg.aggregate("seed001", pks, [sigs[0], sigs[0], sigs[2]], MESSAGE, epochs=EPOCH, settings="test")
    with pytest.raises(sigagg.ArgumentError):
        sigagg.aggregate("seed001", pks, sigs[:2], MESSAGE, epochs=EPOCH, settings="test")
    with pytest.raises(sigagg.ArgumentError, match="not available for test"):
        sigagg.aggregate("test", pks, sigs, MESSAGE, epochs=EPOCH, settings="test")


@pytest.mark.parametrize("scheme", ["lamport-plus", "lamport-plus-mined"])
def test_lamport_aggregate(scheme):
    pairs = keys(scheme, 3)
    pks = [pk for pk, _ in pairs]
    messages = [b"block %d" % i for i in range(3)]
    sigs = [sign(scheme, sk, m) for (_, sk), m in zip(pairs, messages)]
    proof = sigagg.aggregate(scheme, pks, sigs, messages, settings="test")
    assert proof.startswith(b"SGLPAG")
    sigagg.verify_aggregate(scheme, proof, pks, messages, settings="test")
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_aggregate(scheme, proof, pks, messages[::-1], settings="test")
    with pytest.raises(sigagg.ArgumentError, match="no epoch"):
        sigagg.verify_aggregate(scheme, proof, pks, messages, epochs=1, settings="test")
    with pytest.raises(sigagg.ArgumentError, match="same message"):
        sigagg.aggregate(scheme, pks, sigs, b"one message", settings="test")
    other = "lamport-plus-mined" if scheme == "lamport-plus" else "lamport-plus"
    with pytest.raises(sigagg.Error):
        sigagg.verify_aggregate(other, proof, pks, messages, settings="test")


@pytest.mark.parametrize("settings", ["whir", "whir-compact", "whir-skip"])
def test_multilinear_settings(settings):
    """The multilinear backend's named settings (real grinding, one
    signature): the proof verifies under its own settings only."""
    (pk, sk), = keys("lamport-plus", 1, seed=40)
    sig = sign("lamport-plus", sk, b"block 1")
    proof = sigagg.aggregate("lamport-plus", [pk], [sig], [b"block 1"], settings=settings)
    sigagg.verify_aggregate("lamport-plus", proof, [pk], [b"block 1"], settings=settings)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_aggregate("lamport-plus", proof, [pk], [b"block 2"], settings=settings)
    for other in ("fast", "whir-compact" if settings == "whir" else "whir"):
        with pytest.raises(sigagg.VerifyError):
            sigagg.verify_aggregate("lamport-plus", proof, [pk], [b"block 1"], settings=other)


@pytest.mark.parametrize("scheme", ["seed001", "lamport-plus", "lamport-plus-mined"])
def test_threshold(scheme):
    pairs = keys(scheme, 5, seed=20)
    pks = [pk for pk, _ in pairs]
    group, paths = sigagg.group_key(scheme, pks)
    assert len(group) == 36 and len(paths) == 5
    epoch = EPOCH if scheme == "seed001" else None
    members = [4, 1, 3]
    signers = [(pks[i], sign(scheme, pairs[i][1], MESSAGE), paths[i]) for i in members]
    proof = sigagg.prove_threshold(scheme, group, 3, MESSAGE, signers, epoch=epoch, disclose=True, settings="test")
    cert = sigagg.verify_threshold(scheme, proof, group, 3, MESSAGE, epoch=epoch, settings="test")
    assert (cert.count, cert.signers) == (3, [1, 3, 4])
    assert repr(cert) == "Certificate(count=3, signers=[1, 3, 4])"
    hidden = sigagg.prove_threshold(scheme, group, 2, MESSAGE, signers[:2], epoch=epoch, settings="test")
    cert = sigagg.verify_threshold(scheme, hidden, group, 2, MESSAGE, epoch=epoch, settings="test")
    assert (cert.count, cert.signers) == (2, None)

    def verify(threshold=3, message=MESSAGE, group=group, proof=proof):
        sigagg.verify_threshold(scheme, proof, group, threshold, message, epoch=epoch, settings="test")

    with pytest.raises(sigagg.VerifyError):
        verify(threshold=4)
    with pytest.raises(sigagg.VerifyError):
        verify(message=b"\x00" * 32)
    other_group, _ = sigagg.group_key(scheme, pks[:4])
    with pytest.raises(sigagg.VerifyError):
        verify(group=other_group)
    with pytest.raises(sigagg.DecodeError):
        verify(group=group[:-1])
    with pytest.raises(sigagg.DecodeError):
        verify(proof=proof[:100])
    with pytest.raises(sigagg.ArgumentError):
        verify(threshold=0)
    with pytest.raises(sigagg.ProveError):
        sigagg.prove_threshold(scheme, group, 4, MESSAGE, signers, epoch=epoch, settings="test")
    with pytest.raises(sigagg.ProveError):
        sigagg.prove_threshold(scheme, group, 2, MESSAGE, [signers[0], signers[0]], epoch=epoch, settings="test")
    wrong_path = [(signers[0][0], signers[0][1], paths[0]), signers[1]]
    with pytest.raises(sigagg.ProveError):
        sigagg.prove_threshold(scheme, group, 2, MESSAGE, wrong_path, epoch=epoch, settings="test")


def test_threshold_epochs_belong_to_seed001():
    with pytest.raises(sigagg.ArgumentError, match="needs an epoch"):
        sigagg.verify_threshold("seed001", b"", bytes(36), 1, MESSAGE, settings="test")
    with pytest.raises(sigagg.ArgumentError, match="no epoch"):
        sigagg.verify_threshold("lamport-plus", b"", bytes(36), 1, MESSAGE, epoch=1, settings="test")


def test_groups_refuse_empty_and_repeated_keys():
    pk, _ = sigagg.lamport_keygen("lamport-plus")
    with pytest.raises(sigagg.ArgumentError):
        sigagg.group_key("lamport-plus", [])
    with pytest.raises(sigagg.ArgumentError):
        sigagg.group_key("lamport-plus", [pk, pk])
    with pytest.raises(sigagg.DecodeError, match="public key 1"):
        sigagg.group_key("lamport-plus", [pk, pk[:-1]])


def counting_rate(call):
    """Increments per second of a Python counting thread while `call` runs."""
    ticks = [0]
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        start, before = time.perf_counter(), ticks[0]
        call()
        return (ticks[0] - before) / (time.perf_counter() - start)
    finally:
        done.set()
        counter.join()


def test_proving_releases_the_gil(seed001_aggregate):
    """A Python thread keeps running while a proof is made. Were the GIL
    held, the counting thread would run at most one switch interval (5 ms)
    of the whole proof, about 1% of its free rate."""
    pks, sigs, _ = seed001_aggregate
    free = counting_rate(lambda: time.sleep(0.3))
    proving = counting_rate(
        lambda: sigagg.aggregate("seed001", pks, sigs, MESSAGE, epochs=EPOCH, settings="test")
    )
    assert proving > 0.1 * free, f"{proving:.0f} ticks/s while proving, {free:.0f} free"
