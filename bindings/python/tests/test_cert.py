"""Succinct BLS threshold certificates through the binding: a ceremony, a
committee, certificates in both modes, and their refusals."""

import hashlib
import os

import pytest

import sigagg


def members(n):
    keys = [sigagg.bls_keygen(bytes([i + 1]) * 32) for i in range(n)]
    pks = [pk for _, pk in keys]
    pops = [sigagg.bls_prove_possession(sk) for sk, _ in keys]
    return keys, pks, pops


def test_ceremony_committee_and_certificates():
    keys, pks, pops = members(5)
    setup = sigagg.cert_ceremony_start(5)
    with pytest.raises(sigagg.VerifyError, match="no contribution"):
        sigagg.cert_verify_ceremony(setup)
    with pytest.raises(sigagg.ArgumentError, match="32 bytes"):
        sigagg.cert_contribute(setup, b"short")
    setup = sigagg.cert_contribute(setup, os.urandom(64))
    setup = sigagg.cert_contribute(setup, os.urandom(64))
    assert sigagg.cert_verify_ceremony(setup) == 2

    committee, committee_key = sigagg.cert_committee(setup, pks, pops, weights=[10, 20, 30, 40, 50])
    # 632 bytes (600 and the setup's 32-byte digest), plus the weight
    # column's commitment and the total stake.
    assert len(committee_key) == 632 + 97 + 8 < len(committee)
    message = b"checkpoint 42"
    signers = [(i, sigagg.bls_sign(keys[i][0], message)) for i in (0, 2, 3)]

    counting = sigagg.cert_certify(setup, committee, message, signers)
    info = sigagg.cert_verify(committee_key, counting, message, 3, stake_threshold=80)
    digest = hashlib.sha256(setup).digest()
    assert info == {"count": 3, "stake": 80, "signers": None, "insecure_setup": False, "setup_digest": digest}

    accountable = sigagg.cert_certify(setup, committee, message, signers, accountable=True)
    assert sigagg.cert_verify(committee_key, accountable, message, 3)["signers"] == bytes([0b01101])

    aggregate = sigagg.bls_aggregate([sig for _, sig in signers])
    from_aggregate = sigagg.cert_certify_aggregate(setup, committee, message, bytes([0b01101]), aggregate)
    assert sigagg.cert_verify(committee, from_aggregate, message, 3)["count"] == 3

    with pytest.raises(sigagg.VerifyError, match="below the threshold"):
        sigagg.cert_verify(committee_key, counting, message, 4)
    with pytest.raises(sigagg.VerifyError, match="stake"):
        sigagg.cert_verify(committee_key, counting, message, 3, stake_threshold=81)
    with pytest.raises(sigagg.VerifyError):
        sigagg.cert_verify(committee_key, counting, b"another message", 3)
    with pytest.raises(sigagg.DecodeError):
        sigagg.cert_verify(committee_key, counting[:-1], message, 3)
    tampered = bytearray(counting)
    tampered[-60] ^= 1
    with pytest.raises((sigagg.VerifyError, sigagg.DecodeError)):
        sigagg.cert_verify(committee_key, bytes(tampered), message, 3)


def test_the_prover_refuses_bad_signers_and_the_dev_setup_is_marked():
    keys, pks, pops = members(3)
    setup = sigagg.cert_development_setup(3)
    with pytest.raises(sigagg.VerifyError, match="INSECURE"):
        sigagg.cert_verify_ceremony(setup)
    committee, committee_key = sigagg.cert_committee(setup, pks, pops)
    message = b"m"
    outsider_sk, _ = sigagg.bls_keygen(b"\x09" * 32)
    with pytest.raises(sigagg.ProveError):
        sigagg.cert_certify(setup, committee, message, [(1, sigagg.bls_sign(outsider_sk, message))])
    with pytest.raises(sigagg.ArgumentError, match="past the 3 members"):
        sigagg.cert_certify(setup, committee, message, [(7, sigagg.bls_sign(keys[0][0], message))])
    with pytest.raises(sigagg.VerifyError, match="proof of possession"):
        sigagg.cert_committee(setup, pks, pops[::-1])
    cert = sigagg.cert_certify(setup, committee, message, [(0, sigagg.bls_sign(keys[0][0], message))])
    with pytest.raises(sigagg.VerifyError, match="INSECURE"):
        sigagg.cert_verify(committee_key, cert, message, 1)
    assert sigagg.cert_verify(committee_key, cert, message, 1, allow_insecure_setup=True)["insecure_setup"] is True


def test_committees_refuse_unverified_setups():
    keys, pks, pops = members(2)
    start = sigagg.cert_ceremony_start(2)
    with pytest.raises(sigagg.VerifyError, match="no contribution"):
        sigagg.cert_committee(start, pks, pops)
