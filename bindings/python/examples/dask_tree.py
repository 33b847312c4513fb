"""One aggregation spread over many machines, as a tree on Dask distributed.

Leaves run on workers: each makes its signers (``xmss_single_epoch_signers``,
a stand-in for one subnet's validators, which sign one message at one
epoch) and aggregates their signatures into one proof under
``whir-skip-poseidon2``, the setting a merge verifies. Merges run on
workers too, up the tree, ``--fan-in`` children to a merge
(``sigagg.merge``: a merged proof is a child again): no signature travels
past its leaf, only keys and proofs of about 250-400 KB. The client
verifies the root against every participant's key.

    python dask_tree.py --signatures 32768 --leaves 16 --fan-in 2 --workers 4

prints one JSON object: the wall time, each leaf's proving time, each
level's merge times, the root proof's size. Each worker process runs its
proofs on ``--threads`` threads (default: the cores shared among the
workers).
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


def merge(children, message=MESSAGE, epoch=EPOCH):
    """Children (leaves or merges) merged: every participant's key (child
    after child), the merged proof, and the seconds the merge took."""
    keys = [key for child_keys, _, _ in children for key in child_keys]
    start = time.perf_counter()
    merged = sigagg.merge(keys, message, epoch, [proof for _, proof, _ in children])
    return keys, merged, time.perf_counter() - start


def aggregate_tree(client, signatures, leaves, message=MESSAGE, epoch=EPOCH, fan_in=16):
    """Aggregates ``signatures`` signatures as ``leaves`` leaves, merged up
    a tree of ``fan_in`` children to a merge, on the Dask ``client``'s
    workers; verifies the root here and returns what it measured."""
    if leaves < 1 or signatures % leaves or not 2 <= fan_in <= 16:
        raise ValueError("at least 1 leaf, each of the same number of signatures; a fan-in of 2 to 16")
    start = time.perf_counter()
    futures = [client.submit(leaf, i, signatures // leaves, message, epoch, pure=False) for i in range(leaves)]
    levels, level = [], futures
    while len(level) > 1 or not levels:
        level = [
            client.submit(merge, level[i : i + fan_in], message, epoch, pure=False)
            for i in range(0, len(level), fan_in)
        ]
        levels.append(level)
    keys, merged, _ = level[0].result()
    wall_s = time.perf_counter() - start
    sigagg.verify_merged(merged, keys, message, epoch)
    return {
        "signatures": len(keys),
        "leaves": leaves,
        "fan_in": fan_in,
        "depth": len(levels),
        "wall_s": wall_s,
        "leaf_prove_s": [f.result()[2] for f in futures],
        "merge_s": [[f.result()[2] for f in lv] for lv in levels],
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
    parser.add_argument("--fan-in", type=int, default=16, help="children to a merge (2 to 16)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=None, help="proving threads per worker process")
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster

    threads = args.threads or max(1, (os.cpu_count() or 1) // args.workers)
    env = {"RAYON_NUM_THREADS": str(threads)}
    with LocalCluster(
        n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None, env=env
    ) as cluster, Client(cluster) as client:
        result = aggregate_tree(client, args.signatures, args.leaves, fan_in=args.fan_in)
    del result["keys"], result["proof"]
    result.update(workers=args.workers, threads_per_worker=threads)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
