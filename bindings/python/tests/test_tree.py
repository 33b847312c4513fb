"""The Dask example (examples/dask_tree.py) on a local cluster of two
worker processes: four leaves of two signers each, proven on the workers,
merged into one proof that verifies here (under one merge, and up a
binary tree of merges on the workers); the root refuses another message
or another order of its keys."""

import importlib.util
from pathlib import Path

import pytest
from dask.distributed import Client, LocalCluster

import sigagg

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "dask_tree.py"


def example():
    spec = importlib.util.spec_from_file_location("dask_tree", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_tree_on_worker_processes_verifies_at_the_root():
    tree = example()
    env = {"RAYON_NUM_THREADS": "1"}
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, env=env
    ) as cluster, Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        result = tree.aggregate_tree(client, 8, 4)
        binary = tree.aggregate_tree(client, 8, 4, fan_in=2)
    assert result["verified"] and result["signatures"] == 8
    assert result["children"] == [2, 2, 2, 2]
    assert (binary["verified"], binary["depth"], binary["children"]) == (True, 2, [[2, 2], [2, 2]])
    sigagg.verify_merged(binary["proof"], binary["keys"], tree.MESSAGE, tree.EPOCH)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(binary["proof"], binary["keys"][4:] + binary["keys"][:4], tree.MESSAGE, tree.EPOCH)
    keys, proof = result["keys"], result["proof"]
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(proof, keys, b"\x00" * 32, tree.EPOCH)
    with pytest.raises(sigagg.VerifyError):
        sigagg.verify_merged(proof, keys[2:] + keys[:2], tree.MESSAGE, tree.EPOCH)
    with pytest.raises(ValueError):
        tree.aggregate_tree(None, 9, 4)
    with pytest.raises(ValueError):
        tree.aggregate_tree(None, 8, 4, fan_in=1)
