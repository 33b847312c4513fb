"""One aggregation spread over many machines, as a tree on Dask distributed.

Leaves run on workers: each makes its signers (``xmss_single_epoch_signers``,
a stand-in for one subnet's validators, which sign one message at one
epoch) and aggregates their signatures into one proof under
``whir-skip-poseidon2``, the setting a merge verifies. The root merges the
leaves' proofs into one (``sigagg.merge``): no signature travels past its
leaf, only keys and a proof of about 250 KB. The client verifies the root
against every participant's key.

A merged proof is not a child again yet, so the tree has one level of
merging: at most 16 leaves under the root.

    python dask_tree.py --signatures 32768 --leaves 16 --workers 4

prints one JSON object: the wall time, each leaf's proving time, the
merge's, the proof's size. Each worker process runs its proofs on
``--threads`` threads (default: the cores shared among the workers).
"""

import argparse
import json
import os
import time

import sigagg

SETTINGS = "whir-skip-poseidon2"
MESSAGE = b"one attestation, every subnet..."
EPOCH = 1234


def leaf(index, size, message=MESSAGE, epoch=EPOCH):
    """Leaf ``index``: ``size`` signers' keys and their aggregate, and the
    seconds the aggregate took."""
    seed = index.to_bytes(4, "little") * 8
    keys, signatures = sigagg.xmss_single_epoch_signers("seed001", size, epoch, message, seed=seed)
    start = time.perf_counter()
    proof = sigagg.aggregate("seed001", keys, signatures, message, epochs=epoch, settings=SETTINGS)
    return keys, proof, time.perf_counter() - start


def root(leaves, message=MESSAGE, epoch=EPOCH):
    """The leaves merged: every participant's key (leaf after leaf), the
    merged proof, and the seconds the merge took."""
    keys = [key for leaf_keys, _, _ in leaves for key in leaf_keys]
    start = time.perf_counter()
    merged = sigagg.merge(keys, message, epoch, [proof for _, proof, _ in leaves])
    return keys, merged, time.perf_counter() - start


def aggregate_tree(client, signatures, leaves, message=MESSAGE, epoch=EPOCH):
    """Aggregates ``signatures`` signatures as ``leaves`` leaves under one
    merge on the Dask ``client``'s workers; verifies the root here and
    returns what it measured."""
    if leaves < 1 or leaves > 16 or signatures % leaves:
        raise ValueError("1 to 16 leaves, each of the same number of signatures")
    start = time.perf_counter()
    futures = [client.submit(leaf, i, signatures // leaves, message, epoch, pure=False) for i in range(leaves)]
    keys, merged, merge_s = client.submit(root, futures, message, epoch, pure=False).result()
    wall_s = time.perf_counter() - start
    sigagg.verify_merged(merged, keys, message, epoch)
    return {
        "signatures": len(keys),
        "leaves": leaves,
        "wall_s": wall_s,
        "leaf_prove_s": [f.result()[2] for f in futures],
        "merge_s": merge_s,
        "proof_bytes": len(merged),
        "children": sigagg.merged_counts(merged),
        "verified": True,
        "keys": keys,
        "proof": merged,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--signatures", type=int, default=1 << 15)
    parser.add_argument("--leaves", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=None, help="proving threads per worker process")
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster

    threads = args.threads or max(1, (os.cpu_count() or 1) // args.workers)
    env = {"RAYON_NUM_THREADS": str(threads)}
    with LocalCluster(
        n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None, env=env
    ) as cluster, Client(cluster) as client:
        result = aggregate_tree(client, args.signatures, args.leaves)
    del result["keys"], result["proof"]
    result.update(workers=args.workers, threads_per_worker=threads)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
