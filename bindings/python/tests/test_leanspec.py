"""leanSpec's aggregation API, driven as leanSpec's
``subspecs/xmss/aggregation.py`` drives its prover library: SSZ keys and
signatures of leanSig production signatures, ``aggregate_signatures`` for
the bare proof (wrapped by the caller into ``AggregatedSignatureProof``),
``verify_aggregated_signatures`` on that ``proof_data``; and the container
itself (``lean_aggregate``, ``lean_verify``). Wrong statements and damaged
bytes raise the package's typed errors.

The signatures are leanSig's own (its known-answer vectors, what leanSpec
would hand over); a production key takes about 25 s to generate in a
release build (about 5 minutes in a debug wheel), so only the opt-in test
regenerates one (SIGAGG_SLOW_TESTS=1)."""

import json
import os
import re
from pathlib import Path

import pytest

import sigagg

SETTINGS = "test-whir-skip"  # insecure, fast: tests only


def valid_cases(vectors):
    v = json.loads((vectors / "xmss" / "leansig-prod.json").read_text())
    return [c for c in v["cases"] if c["kind"] == "valid"], v["keys"]


@pytest.fixture(scope="module")
def signed(vectors):
    """leanSig's first valid signature: (public key, signature, message, slot), SSZ."""
    cases, _ = valid_cases(vectors)
    c = cases[0]
    return (bytes.fromhex(c["public_key"]), bytes.fromhex(c["signature"]), bytes.fromhex(c["message"]), c["epoch"])


@pytest.fixture(scope="module")
def other_key(vectors):
    """The public key of leanSig's second vector key."""
    cases, _ = valid_cases(vectors)
    return bytes.fromhex(next(c for c in cases if c["key_index"] == 1)["public_key"])


@pytest.fixture(scope="module")
def proof_data(signed):
    pk, sig, message, slot = signed
    return sigagg.aggregate_signatures([pk], [sig], message, slot, settings=SETTINGS, mode="prod")


def ssz_container(participants_bits, proof_data):
    """leanSpec's SSZ AggregatedSignatureProof: two offsets, the bitlist, the proof."""
    n = len(participants_bits)
    bitlist = bytearray(n // 8 + 1)
    for i, bit in enumerate(participants_bits):
        bitlist[i // 8] |= bit << (i % 8)
    bitlist[n // 8] |= 1 << (n % 8)
    return (8).to_bytes(4, "little") + (8 + len(bitlist)).to_bytes(4, "little") + bytes(bitlist) + proof_data


def test_leanspec_calls_aggregate_and_verify(signed, proof_data):
    pk, _, message, slot = signed
    assert isinstance(proof_data, bytes) and 0 < len(proof_data) <= 1 << 20
    # leanSpec: verify_aggregated_signatures(pks, message, proof_data, epoch, mode=mode)
    sigagg.verify_aggregated_signatures([pk], message, proof_data, slot, settings=SETTINGS, mode="prod")
    # The same call, positionally.
    sigagg.verify_aggregated_signatures([pk], message, proof_data, slot, SETTINGS)


def test_wrong_statements_raise_verify_error(signed, other_key, proof_data):
    pk, _, message, slot = signed
    wrong_message = bytes([message[0] ^ 1]) + message[1:]
    for pks, m, s in [([pk], wrong_message, slot), ([pk], message, slot + 1), ([other_key], message, slot)]:
        with pytest.raises(sigagg.VerifyError):
            sigagg.verify_aggregated_signatures(pks, m, proof_data, s, settings=SETTINGS)
    with pytest.raises(sigagg.VerifyError):  # the proof is of one signature
        sigagg.verify_aggregated_signatures([pk, other_key], message, proof_data, slot, settings=SETTINGS)


def test_damaged_proofs_raise_typed_errors(signed, proof_data):
    pk, _, message, slot = signed
    for bad in [b"", proof_data[:-1], proof_data[: len(proof_data) // 2], b"\x00" + proof_data[1:]]:
        with pytest.raises(sigagg.DecodeError):
            sigagg.verify_aggregated_signatures([pk], message, bad, slot, settings=SETTINGS)
    flipped = bytearray(proof_data)
    flipped[len(flipped) // 2] ^= 0x04
    with pytest.raises((sigagg.DecodeError, sigagg.VerifyError)):
        sigagg.verify_aggregated_signatures([pk], message, bytes(flipped), slot, settings=SETTINGS)


def test_bad_calls_raise_typed_errors(signed, other_key, vectors):
    pk, sig, message, slot = signed
    with pytest.raises(sigagg.ArgumentError, match="2 public keys for 1 signatures"):
        sigagg.aggregate_signatures([pk, other_key], [sig], message, slot, settings=SETTINGS)
    with pytest.raises(sigagg.ArgumentError):
        sigagg.aggregate_signatures([pk], [sig], message[:31], slot, settings=SETTINGS)
    with pytest.raises(sigagg.ArgumentError, match="prod"):
        sigagg.aggregate_signatures([pk], [sig], message, slot, settings=SETTINGS, mode="test")
    with pytest.raises(sigagg.ArgumentError):
        sigagg.aggregate_signatures([pk], [sig], message, slot, settings="fastest")
    with pytest.raises(sigagg.DecodeError, match="public key 0"):
        sigagg.aggregate_signatures([pk[:-1]], [sig], message, slot, settings=SETTINGS)
    with pytest.raises(sigagg.DecodeError, match="signature 0"):
        sigagg.aggregate_signatures([pk], [sig[:-1]], message, slot, settings=SETTINGS)
    # A signature under another key, of another message, at another slot.
    with pytest.raises(sigagg.ProveError, match="signature 0 is invalid"):
        sigagg.aggregate_signatures([other_key], [sig], message, slot, settings=SETTINGS)
    with pytest.raises(sigagg.ProveError):
        sigagg.aggregate_signatures([pk], [sig], bytes(32), slot, settings=SETTINGS)
    with pytest.raises(sigagg.ProveError):
        sigagg.aggregate_signatures([pk], [sig], message, slot + 1, settings=SETTINGS)
    # leanSig's own invalid signatures of this key and message are refused.
    v = json.loads((vectors / "xmss" / "leansig-prod.json").read_text())
    flipped = next(c for c in v["cases"] if c["kind"] == "signature_byte_flipped" and c["epoch"] == slot)
    with pytest.raises((sigagg.ProveError, sigagg.DecodeError)):
        sigagg.aggregate_signatures([pk], [bytes.fromhex(flipped["signature"])], message, slot, settings=SETTINGS)


def test_the_container_is_leanspecs_ssz(signed, proof_data):
    pk, sig, message, slot = signed
    # The container leanSpec builds around proof_data verifies here.
    sigagg.lean_verify(ssz_container([1], proof_data), [pk], message, slot, settings=SETTINGS)
    # The container made here: validator 3 of a 4-bit list.
    container = sigagg.lean_aggregate(bytes([0b11000]), [pk], [sig], message, slot, settings=SETTINGS)
    assert container[:9] == bytes([8, 0, 0, 0, 9, 0, 0, 0, 0b11000])
    sigagg.lean_verify(container, [pk], message, slot, settings=SETTINGS)
    sigagg.verify_aggregated_signatures([pk], message, container[9:], slot, settings=SETTINGS)
    # Every key when no participants are given.
    assert sigagg.lean_aggregate(None, [pk], [sig], message, slot, settings=SETTINGS)[8] == 0b11


def test_damaged_containers_raise_typed_errors(signed, proof_data):
    pk, sig, message, slot = signed
    container = ssz_container([1], proof_data)
    with pytest.raises(sigagg.VerifyError, match="0 participants for 1 public keys"):
        sigagg.lean_verify(ssz_container([0], proof_data), [pk], message, slot, settings=SETTINGS)
    with pytest.raises(sigagg.VerifyError):
        sigagg.lean_verify(container, [pk], message, slot + 1, settings=SETTINGS)
    for bad in [container[:7], container[:9], b"\x09" + container[1:], container[:8] + b"\x00" + container[9:]]:
        with pytest.raises(sigagg.DecodeError):
            sigagg.lean_verify(bad, [pk], message, slot, settings=SETTINGS)
    with pytest.raises(sigagg.ArgumentError, match="2 participants for 1 public keys"):
        sigagg.lean_aggregate(bytes([0b111]), [pk], [sig], message, slot, settings=SETTINGS)
    with pytest.raises(sigagg.DecodeError, match="participants"):
        sigagg.lean_aggregate(b"\x00", [pk], [sig], message, slot, settings=SETTINGS)


@pytest.mark.skipif(not os.environ.get("SIGAGG_SLOW_TESTS"), reason="a production key: SIGAGG_SLOW_TESTS=1")
def test_regenerated_key_signs_and_aggregates(vectors):
    """Key generation and signing through the package, then aggregation."""
    _, keys = valid_cases(vectors)
    key = keys[0]
    seed = sigagg.seed_from_u64(int(key["rng"].rsplit("(", 1)[1].rstrip(")")))
    pk, sk = sigagg.xmss_keygen("leansig-prod", 0, 1, seed=seed)
    message, slot = bytes(range(32)), 1000
    sig = sk.sign(slot, message)
    proof = sigagg.aggregate_signatures([pk], [sig], message, slot, settings=SETTINGS)
    sigagg.verify_aggregated_signatures([pk], message, proof, slot, settings=SETTINGS)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_aggregated_signatures([pk], message, proof, slot + 1, settings=SETTINGS)


def test_readme_example_runs(signed):
    """The README's leanSpec example, with leanSig's signature and the default settings."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    code = next(b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "aggregate_signatures" in b)
    scope = {}
    exec(compile(code, "README.md", "exec"), scope)
    pk, sig, message, slot = signed
    container = scope["aggregate_and_check"]([pk], [sig], message, slot)
    assert container[:9] == bytes([8, 0, 0, 0, 9, 0, 0, 0, 0b11])
    with pytest.raises(sigagg.VerifyError):
        sigagg.lean_verify(container, [pk], message, slot + 1)


def test_leansig_prod_threshold_certificate(signed, other_key):
    """A 1-of-2 certificate over a group of two leanSig production keys
    (leanSig's own signature of the first), through the package's
    threshold calls: it verifies, names its signer, and a wrong message,
    slot or threshold is refused."""
    pk, sig, message, slot = signed
    group, paths = sigagg.group_key("leansig-prod", [pk, other_key])
    proof = sigagg.prove_threshold(
        "leansig-prod", group, 1, message, [(pk, sig, paths[0])], epoch=slot, disclose=True, settings=SETTINGS
    )
    cert = sigagg.verify_threshold("leansig-prod", proof, group, 1, message, epoch=slot, settings=SETTINGS)
    assert (cert.count, cert.signers) == (1, [0])
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_threshold("leansig-prod", proof, group, 1, bytes(32), epoch=slot, settings=SETTINGS)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_threshold("leansig-prod", proof, group, 1, message, epoch=slot + 1, settings=SETTINGS)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_threshold("leansig-prod", proof, group, 2, message, epoch=slot, settings=SETTINGS)
    with pytest.raises(sigagg.ProveError):
        sigagg.prove_threshold(
            "leansig-prod", group, 2, message, [(pk, sig, paths[0])], epoch=slot, settings=SETTINGS
        )
    # The signer's key under the other member's path is not a member there.
    with pytest.raises(sigagg.ProveError):
        sigagg.prove_threshold("leansig-prod", group, 1, message, [(pk, sig, paths[1])], epoch=slot, settings=SETTINGS)
