"""BLS and ATMS through the binding: round trips and rejections."""

import pytest

import sigagg


def pairs(n, start=1):
    return [sigagg.bls_keygen(bytes([start + i]) * 32) for i in range(n)]


def test_keys_sign_verify_and_possession():
    (sk, pk), (sk2, pk2) = pairs(2)
    assert len(sk) == 32 and len(pk) == 48 and sigagg.bls_public_key(sk) == pk
    assert sigagg.bls_keygen(bytes([1]) * 32) == (sk, pk)  # IETF KeyGen is deterministic
    assert sigagg.bls_keygen()[1] != pk
    sig = sigagg.bls_sign(sk, b"hello")
    assert len(sig) == 96
    sigagg.bls_verify(pk, b"hello", sig)
    with pytest.raises(sigagg.VerifyError):
        sigagg.bls_verify(pk, b"hellO", sig)
    with pytest.raises(sigagg.VerifyError):
        sigagg.bls_verify(pk2, b"hello", sig)
    pop = sigagg.bls_prove_possession(sk)
    sigagg.bls_verify_possession(pk, pop)
    with pytest.raises(sigagg.VerifyError):
        sigagg.bls_verify_possession(pk2, pop)
    with pytest.raises(sigagg.VerifyError):  # a signature is not a proof of possession
        sigagg.bls_verify_possession(pk, sigagg.bls_sign(sk, pk))


def test_malformed_bytes_are_decode_errors():
    sk, pk = pairs(1)[0]
    sig = sigagg.bls_sign(sk, b"m")
    with pytest.raises(sigagg.DecodeError, match="expected 48 bytes"):
        sigagg.bls_verify(pk[:-1], b"m", sig)
    with pytest.raises(sigagg.DecodeError):
        sigagg.bls_verify(pk, b"m", bytes(96))
    with pytest.raises(sigagg.DecodeError, match="identity"):
        sigagg.bls_verify(b"\xc0" + bytes(47), b"m", sig)
    with pytest.raises(sigagg.DecodeError):
        sigagg.bls_sign(bytes(32), b"m")
    with pytest.raises(sigagg.ArgumentError):
        sigagg.bls_keygen(b"short")


def test_aggregates_need_every_signer_and_possession():
    keys = pairs(3)
    pks = [pk for _, pk in keys]
    pops = [sigagg.bls_prove_possession(sk) for sk, _ in keys]
    sigs = [sigagg.bls_sign(sk, b"block") for sk, _ in keys]
    agg = sigagg.bls_aggregate(sigs)
    sigagg.bls_fast_aggregate_verify(pks, pops, b"block", agg)
    sigagg.bls_fast_aggregate_verify(pks, None, b"block", agg)
    with pytest.raises(sigagg.VerifyError):
        sigagg.bls_fast_aggregate_verify(pks[:2], pops[:2], b"block", agg)
    with pytest.raises(sigagg.VerifyError):
        sigagg.bls_fast_aggregate_verify(pks, pops, b"other", agg)
    with pytest.raises(sigagg.VerifyError, match="proof of possession"):
        sigagg.bls_fast_aggregate_verify(pks, [pops[1], pops[0], pops[2]], b"block", agg)
    with pytest.raises(sigagg.ArgumentError, match="duplicate"):
        sigagg.bls_fast_aggregate_verify([pks[0], pks[0]], None, b"block", agg)
    with pytest.raises(sigagg.ArgumentError):
        sigagg.bls_fast_aggregate_verify(pks, pops[:2], b"block", agg)
    with pytest.raises(sigagg.ArgumentError):
        sigagg.bls_aggregate([])
    messages = [b"a", b"b", b"c"]
    agg = sigagg.bls_aggregate([sigagg.bls_sign(sk, m) for (sk, _), m in zip(keys, messages)])
    sigagg.bls_aggregate_verify(pks, pops, messages, agg)
    with pytest.raises(sigagg.VerifyError):
        sigagg.bls_aggregate_verify(pks, pops, messages[::-1], agg)


def test_atms_threshold_signatures():
    keys = pairs(5, start=10)
    pks = [pk for _, pk in keys]
    pops = [sigagg.bls_prove_possession(sk) for sk, _ in keys]
    avk = sigagg.atms_aggregate_key(pks, pops)
    assert len(avk) == 88
    sigagg.atms_check(pks, pops, avk)
    with pytest.raises(sigagg.VerifyError):
        sigagg.atms_check(pks[:4], pops[:4], avk)
    with pytest.raises(sigagg.VerifyError, match="proof of possession"):
        sigagg.atms_aggregate_key(pks, pops[::-1])
    signers = [(i, sigagg.bls_sign(keys[i][0], b"m")) for i in (0, 2, 3)]
    signature = sigagg.atms_sign(3, b"m", pks, signers)
    sigagg.atms_verify(3, b"m", avk, signature)
    with pytest.raises(sigagg.VerifyError):
        sigagg.atms_verify(4, b"m", avk, signature)
    with pytest.raises(sigagg.VerifyError):
        sigagg.atms_verify(3, b"x", avk, signature)
    with pytest.raises(sigagg.VerifyError):
        sigagg.atms_verify(3, b"m", sigagg.atms_aggregate_key(pks[:4], pops[:4]), signature)
    with pytest.raises(sigagg.DecodeError):
        sigagg.atms_verify(3, b"m", avk, signature[:-1])
    with pytest.raises(sigagg.ArgumentError, match="below the threshold"):
        sigagg.atms_sign(4, b"m", pks, signers)
    with pytest.raises(sigagg.ArgumentError, match="past the 5 keys"):
        sigagg.atms_sign(1, b"m", pks, [(9, signers[0][1])])
    with pytest.raises(sigagg.VerifyError, match="does not verify"):
        sigagg.atms_sign(1, b"m", pks, [(1, signers[0][1])])
    with pytest.raises(sigagg.ArgumentError):
        sigagg.atms_verify(0, b"m", avk, signature)
