"""Merged aggregates through the binding: two Seed001 aggregates of one
message (each made with "whir-skip-poseidon2") merge into one proof that
verifies for their keys; another message, epoch, split or order of keys,
a tampered proof, and a child that is not under the recursion setting are
refused with typed errors. The merged proof merges again beside a third
aggregate (depth 2); a threshold certificate merges beside an aggregate,
verified against its committee; signers of several messages merge with a
message and epoch per key, and the merged proof splits into one message's
part."""

import pytest

import sigagg

EPOCH = 3
MESSAGE = b"\x5a" * 32
CHILD = "whir-skip-poseidon2"


def child(seed, n=2):
    pairs = [sigagg.xmss_keygen("seed001", 0, 1, seed=bytes([seed + i]) * 32) for i in range(n)]
    pks = [pk for pk, _ in pairs]
    sigs = [sk.sign(EPOCH, MESSAGE) for _, sk in pairs]
    return pks, sigs, sigagg.aggregate("seed001", pks, sigs, MESSAGE, epochs=EPOCH, settings=CHILD)


@pytest.fixture(scope="module")
def merged():
    a_pks, a_sigs, a = child(10)
    b_pks, _, b = child(20)
    keys = a_pks + b_pks
    proof = sigagg.merge(keys, MESSAGE, EPOCH, [a, b])
    return keys, a_pks, a_sigs, a, b, proof


def test_merge_round_trip(merged):
    keys, _, _, _, _, proof = merged
    assert proof.startswith(b"SGMERG")
    assert sigagg.merged_counts(proof) == [2, 2]
    sigagg.verify_merged(proof, keys, MESSAGE, EPOCH)


def test_a_verifying_key_verifies_every_proof_of_its_shape(merged):
    keys, _, _, a, b, proof = merged
    key = sigagg.MergeKey(proof)
    key.verify(proof, keys, MESSAGE, EPOCH)
    c_pks, _, c = child(60)
    a_pks = keys[:2]
    other = sigagg.merge(a_pks + c_pks, MESSAGE, EPOCH, [a, c])
    key.verify(other, a_pks + c_pks, MESSAGE, EPOCH)
    with pytest.raises(sigagg.VerifyError):
        key.verify(other, keys, MESSAGE, EPOCH)
    with pytest.raises(sigagg.ArgumentError):
        key.verify(sigagg.merge(a_pks, MESSAGE, EPOCH, [a]), a_pks, MESSAGE, EPOCH)
    with pytest.raises(sigagg.DecodeError):
        sigagg.MergeKey(a)
    assert "seed001" in repr(key)


def test_compact_final_proof(merged):
    keys, _, _, a, b, proof = merged
    compact = sigagg.merge(keys, MESSAGE, EPOCH, [a, b], settings="whir-skip-compact")
    assert len(compact) * 10 < len(proof) * 8
    sigagg.verify_merged(compact, keys, MESSAGE, EPOCH, settings="whir-skip-compact")
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(compact, keys, MESSAGE, EPOCH)


def test_merged_proof_merges_again(merged):
    keys, _, _, _, _, proof = merged
    c_pks, _, c = child(30)
    deeper = sigagg.merge(keys + c_pks, MESSAGE, EPOCH, [proof, c])
    assert sigagg.merged_counts(deeper) == [[2, 2], 2]
    sigagg.verify_merged(deeper, keys + c_pks, MESSAGE, EPOCH)
    # The merged child's keys after the aggregate's: another statement.
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(deeper, c_pks + keys, MESSAGE, EPOCH)


def test_raw_signatures_beside_children(merged):
    keys, _, _, _, _, proof = merged
    d_pks, d_sigs, _ = child(40)
    signed = sigagg.merge(keys + d_pks, MESSAGE, EPOCH, [proof], signatures=d_sigs)
    assert sigagg.merged_counts(signed) == [[2, 2], 2]
    sigagg.verify_merged(signed, keys + d_pks, MESSAGE, EPOCH)
    # A signature on another message among them.
    other = sigagg.xmss_keygen("seed001", 0, 1, seed=bytes([50]) * 32)
    bad = other[1].sign(EPOCH, b"\x5b" * 32)
    with pytest.raises(sigagg.ProveError):
        sigagg.merge(keys + [other[0]], MESSAGE, EPOCH, [proof], signatures=[bad])
    with pytest.raises(sigagg.ArgumentError):
        sigagg.merge(keys[:1], MESSAGE, EPOCH, [], signatures=d_sigs)


def test_several_messages(merged):
    # A raw signer of another message at another epoch beside an
    # aggregate of MESSAGE: message and epoch given per key.
    _, a_pks, _, a, _, _ = merged
    pk, sk = sigagg.xmss_keygen("seed001", 0, 1, seed=bytes([60]) * 32)
    other = b"\x6c" * 32
    keys = a_pks + [pk]
    messages, epochs = [MESSAGE, MESSAGE, other], [EPOCH, EPOCH, EPOCH + 1]
    proof = sigagg.merge(keys, messages, epochs, [a], signatures=[sk.sign(EPOCH + 1, other)])
    assert sigagg.merged_counts(proof) == [2, 1]
    sigagg.verify_merged(proof, keys, messages, epochs)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(proof, keys, [MESSAGE, other, MESSAGE], epochs)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(proof, keys, MESSAGE, epochs)
    with pytest.raises(sigagg.ArgumentError):
        sigagg.verify_merged(proof, keys, messages[:2], epochs)
    # Split: the same proof for the aggregate's part alone, the raw
    # signer's withheld; verified without its key or message.
    part = sigagg.split_merged(proof, keys, messages, epochs, keep=[0])
    assert sigagg.merged_counts(part) == [2, "withheld"]
    sigagg.verify_merged(part, a_pks, MESSAGE, EPOCH)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(part, a_pks, other, EPOCH)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(part, keys, messages, epochs)
    with pytest.raises(sigagg.ArgumentError):
        sigagg.split_merged(proof, keys, messages, epochs, keep=[2])


def test_threshold_certificate_child(merged):
    keys, _, _, a, _, _ = merged
    pairs = [sigagg.xmss_keygen("seed001", 0, 1, seed=bytes([60 + i]) * 32) for i in range(3)]
    members = [pk for pk, _ in pairs]
    group, paths = sigagg.group_key("seed001", members)
    signers = [(members[i], pairs[i][1].sign(EPOCH, MESSAGE), paths[i]) for i in (0, 2)]
    certificate = sigagg.prove_threshold(
        "seed001", group, 2, MESSAGE, signers, epoch=EPOCH, disclose=True, settings=CHILD
    )
    a_keys = keys[:2]
    proof = sigagg.merge(a_keys, MESSAGE, EPOCH, [a, certificate], committees=[(group, 2)])
    assert sigagg.merged_counts(proof) == [2, "threshold"]
    sigagg.verify_merged(proof, a_keys, MESSAGE, EPOCH, committees=[(group, 2)])
    # Without its committee, at a threshold above its count, or another
    # group: refused.
    for committees in ([], [(group, 3)], [(sigagg.group_key("seed001", a_keys)[0], 2)]):
        with pytest.raises(sigagg.VerifyError):
            sigagg.verify_merged(proof, a_keys, MESSAGE, EPOCH, committees=committees)
    with pytest.raises(sigagg.ArgumentError):
        sigagg.merge(a_keys, MESSAGE, EPOCH, [a, certificate])


def test_merge_rejections(merged):
    keys, a_pks, a_sigs, a, b, proof = merged
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(proof, keys, b"\x5b" * 32, EPOCH)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(proof, keys, MESSAGE, EPOCH + 1)
    # The children's keys swapped: another statement.
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(proof, keys[2:] + keys[:2], MESSAGE, EPOCH)
    # A key dropped: the counts no longer split the keys.
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(proof, keys[:3], MESSAGE, EPOCH)
    for at in (len(proof) // 3, len(proof) // 2, len(proof) - 40):
        tampered = bytearray(proof)
        tampered[at] ^= 0x10
        with pytest.raises((sigagg.VerifyError, sigagg.DecodeError)):
            sigagg.verify_merged(bytes(tampered), keys, MESSAGE, EPOCH)
    with pytest.raises(sigagg.DecodeError):
        sigagg.merged_counts(b"SGMERG")
    # A child under other settings does not verify as a recursion child.
    test_child = sigagg.aggregate("seed001", a_pks, a_sigs, MESSAGE, epochs=EPOCH, settings="test")
    with pytest.raises(sigagg.ProveError, match="child 0"):
        sigagg.merge(keys, MESSAGE, EPOCH, [test_child, b])
    # A signer in two children.
    with pytest.raises(sigagg.ArgumentError):
        sigagg.merge(a_pks + a_pks, MESSAGE, EPOCH, [a, a])
    with pytest.raises(sigagg.ArgumentError):
        sigagg.merge(keys, MESSAGE, EPOCH, [a, b], settings="fast")


def test_leansig_children_merge():
    """leanSig production aggregates (leanSpec's bare proof_data) merge
    the same way; their keys in another order, or read as Seed001 keys,
    are refused, and a scheme without aggregates to merge is an argument
    error."""
    a_pks, a_sigs = sigagg.xmss_single_epoch_signers("leansig-prod", 2, EPOCH, MESSAGE, seed=b"\x01" * 32)
    b_pks, b_sigs = sigagg.xmss_single_epoch_signers("leansig-prod", 2, EPOCH, MESSAGE, seed=b"\x02" * 32)
    a = sigagg.aggregate_signatures(a_pks, a_sigs, MESSAGE, EPOCH, settings=CHILD)
    b = sigagg.aggregate_signatures(b_pks, b_sigs, MESSAGE, EPOCH, settings=CHILD)
    keys = a_pks + b_pks
    proof = sigagg.merge(keys, MESSAGE, EPOCH, [a, b], scheme="leansig-prod")
    sigagg.verify_merged(proof, keys, MESSAGE, EPOCH, scheme="leansig-prod")
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(proof, b_pks + a_pks, MESSAGE, EPOCH, scheme="leansig-prod")
    with pytest.raises(sigagg.DecodeError):
        sigagg.verify_merged(proof, keys, MESSAGE, EPOCH)
    with pytest.raises(sigagg.ArgumentError):
        sigagg.merge(keys, MESSAGE, EPOCH, [a, b], scheme="lamport-plus")
