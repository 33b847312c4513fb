"""The shared known-answer vectors, read through the binding and checked
byte for byte: XMSS keys regenerated from the reference seeds, every
verification outcome, re-signed signatures; the Ethereum BLS vectors."""

import json

import pytest
import yaml

import sigagg

P = 0x7F000001  # KoalaBear
R_INV = pow(1 << 32, -1, P)


def load_json(vectors, name):
    return json.loads((vectors / "xmss" / name).read_text())


def seed_of(key):
    """The n of the recipe "rand 0.x StdRng::seed_from_u64(n)"."""
    return int(key["rng"].rsplit("(", 1)[1].rstrip(")"))


def regenerate(scheme, key):
    pk, sk = sigagg.xmss_keygen(
        scheme,
        key["keygen_activation_epoch_arg"],
        key["keygen_num_active_epochs_arg"],
        seed=sigagg.seed_from_u64(seed_of(key)),
    )
    assert sk.activation_interval == tuple(key["activation_interval"])
    return pk, sk


def check_cases(scheme, cases, keys, encode_pk, encode_sig):
    """Every case's verification outcome; every valid signature of a
    regenerated key (`keys[i]` is `None` where not regenerated) re-signed,
    byte for byte (signing is deterministic)."""
    assert len(cases) == 16
    for case in cases:
        pk = encode_pk(bytes.fromhex(case["public_key"]))
        sig = encode_sig(bytes.fromhex(case["signature"]))
        message = bytes.fromhex(case["message"])
        if case["expected"]:
            sigagg.xmss_verify(scheme, pk, case["epoch"], message, sig)
        else:
            with pytest.raises((sigagg.VerifyError, sigagg.DecodeError)):
                sigagg.xmss_verify(scheme, pk, case["epoch"], message, sig)
    valid = sorted((c for c in cases if c["kind"] == "valid"), key=lambda c: c["epoch"])
    resigned = 0
    for case in valid:
        if keys[case["key_index"]] is not None:
            _, sk = keys[case["key_index"]]
            ours = sk.sign(case["epoch"], bytes.fromhex(case["message"]))
            assert ours == encode_sig(bytes.fromhex(case["signature"])), case["id"]
            resigned += 1
    assert resigned == 2 * sum(pair is not None for pair in keys)  # two valid cases per key


@pytest.mark.parametrize(
    "scheme,name,regenerated",
    [
        ("test", "leansig-test.json", 2),
        # A production key covers 2 x 2^16 epochs: about 25 s on two cores
        # each. One is regenerated here; the Rust tests regenerate both.
        ("leansig-prod", "leansig-prod.json", 1),
    ],
)
def test_leansig_vectors(vectors, scheme, name, regenerated):
    v = load_json(vectors, name)
    keys = [regenerate(scheme, key) if i < regenerated else None for i, key in enumerate(v["keys"])]
    for pair, key in zip(keys, v["keys"]):
        if pair is not None:
            assert pair[0] == bytes.fromhex(key["public_key_ssz"])
    check_cases(scheme, v["cases"], keys, lambda b: b, lambda b: b)


# hash-sig's file is bincode with Montgomery-form field elements; the
# binding speaks SSZ with canonical ones. Convert, then compare bytes.


def canonical_fes(data):
    words = [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]
    return b"".join(((w * R_INV) % P).to_bytes(4, "little") for w in words)


def hashsig_pk_to_ssz(data):
    assert len(data) == 48  # root (7) || parameter (5): the SSZ order too
    return canonical_fes(data)


def hashsig_sig_to_ssz(data):
    n_path = int.from_bytes(data[:8], "little")
    at = 8 + 28 * n_path
    co_path, rho = data[8:at], data[at : at + 24]
    n_hashes = int.from_bytes(data[at + 24 : at + 32], "little")
    hashes = data[at + 32 :]
    assert (n_path, n_hashes, len(hashes)) == (20, 78, 78 * 28)
    path_offset = 4 + len(rho) + 4
    hashes_offset = path_offset + 4 + len(co_path)
    return b"".join(
        [
            path_offset.to_bytes(4, "little"),
            canonical_fes(rho),
            hashes_offset.to_bytes(4, "little"),
            (4).to_bytes(4, "little"),
            canonical_fes(co_path),
            canonical_fes(hashes),
        ]
    )


def test_hashsig_vectors(vectors):
    v = load_json(vectors, "hashsig-lifetime20-w2.json")
    keys = [regenerate("seed001", key) for key in v["keys"]]
    for (pk, _), key in zip(keys, v["keys"]):
        assert pk == hashsig_pk_to_ssz(bytes.fromhex(key["public_key_bincode"]))
    check_cases("seed001", v["cases"], keys, hashsig_pk_to_ssz, hashsig_sig_to_ssz)


# --- Ethereum BLS vectors (ethereum/bls12-381-tests). hash_to_G2 and
# batch_verify have no binding and are checked by the Rust tests only.


def h(s):
    return bytes.fromhex(s[2:] if s.startswith("0x") else s)


def bls_cases(vectors, handler):
    files = sorted((vectors / "bls" / handler).glob("*.yaml"))
    assert files, handler
    return [(f.stem, yaml.safe_load(f.read_text())) for f in files]


def outcome(call):
    """True if `call` returns, False if it raises a sigagg error."""
    try:
        call()
        return True
    except sigagg.Error:
        return False


def test_bls_sign(vectors):
    for name, case in bls_cases(vectors, "sign"):
        i = case["input"]
        if case["output"] is None:
            with pytest.raises(sigagg.DecodeError):
                sigagg.bls_sign(h(i["privkey"]), h(i["message"]))
        else:
            assert sigagg.bls_sign(h(i["privkey"]), h(i["message"])) == h(case["output"]), name


def test_bls_verify(vectors):
    for name, case in bls_cases(vectors, "verify"):
        i = case["input"]
        got = outcome(lambda: sigagg.bls_verify(h(i["pubkey"]), h(i["message"]), h(i["signature"])))
        assert got == case["output"], name


def test_bls_aggregate(vectors):
    for name, case in bls_cases(vectors, "aggregate"):
        sigs = [h(s) for s in case["input"]]
        if case["output"] is None:
            with pytest.raises(sigagg.ArgumentError):
                sigagg.bls_aggregate(sigs)
        else:
            assert sigagg.bls_aggregate(sigs) == h(case["output"]), name


def test_bls_fast_aggregate_verify(vectors):
    # The vectors' keys come without proofs of possession (Ethereum checks
    # them at deposit): pops=None.
    for name, case in bls_cases(vectors, "fast_aggregate_verify"):
        i = case["input"]
        pks = [h(k) for k in i["pubkeys"]]
        got = outcome(lambda: sigagg.bls_fast_aggregate_verify(pks, None, h(i["message"]), h(i["signature"])))
        assert got == case["output"], name


def test_bls_aggregate_verify(vectors):
    for name, case in bls_cases(vectors, "aggregate_verify"):
        i = case["input"]
        pks, msgs = [h(k) for k in i["pubkeys"]], [h(m) for m in i["messages"]]
        got = outcome(lambda: sigagg.bls_aggregate_verify(pks, None, msgs, h(i["signature"])))
        assert got == case["output"], name


def test_bls_deserialization(vectors):
    sk, _ = sigagg.bls_keygen(b"\x01" * 32)
    sig = sigagg.bls_sign(sk, b"m")
    for name, case in bls_cases(vectors, "deserialization_G1"):
        pk = h(case["input"]["pubkey"])
        try:
            sigagg.bls_verify(pk, b"m", sig)
            decodes = True
        except sigagg.VerifyError:
            decodes = True
        except sigagg.DecodeError as e:
            # A well-encoded identity is a G1 point that KeyValidate refuses.
            decodes = "identity" in str(e)
        assert decodes == case["output"], name
    for name, case in bls_cases(vectors, "deserialization_G2"):
        raw = h(case["input"]["signature"])
        if case["output"]:
            assert sigagg.bls_aggregate([raw]) == raw, name
        else:
            with pytest.raises(sigagg.DecodeError):
                sigagg.bls_aggregate([raw])
