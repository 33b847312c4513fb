#!/usr/bin/env python3
"""Draws the plots embedded in BENCHMARKS.md from the benches' JSON files.

Reads every benchmarks/data/*.json written by scripts/bench_sweep.sh (one
`sigagg bench ...` JSON object each, plus a "meta" object) and writes

  benchmarks/xmss-agg.png  STARK aggregation of Seed001 XMSS signatures:
                           throughput and proof size against N, fast and
                           compact settings (median of the runs, bars from
                           the fastest to the slowest run)
  benchmarks/horn.png      Horn: naive and fast verification of a round's
                           collections against participation, and the speedup

For each bench the newest sweep that has runs of it is drawn (or the one given
with --sweep). Plots whose runs were taken on a loaded machine say
"provisional" in their title.

    pip install -r benchmarks/requirements.txt
    python3 scripts/plot_benchmarks.py [--data DIR] [--out DIR] [--sweep ID]
"""

import argparse
import glob
import json
import os
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETTINGS_BY_LOG_BLOWUP = {1: "fast", 3: "compact"}
COLORS = {"fast": "tab:blue", "compact": "tab:orange", "naive": "tab:red"}


def load_runs(data_dir):
    runs = []
    for path in sorted(glob.glob(os.path.join(data_dir, "*.json"))):
        with open(path) as f:
            run = json.load(f)
        if "meta" not in run or "bench" not in run:
            print(f"skipping {path}: not a sweep file (no meta or bench)", file=sys.stderr)
            continue
        runs.append(run)
    return runs


def newest_sweep(runs, bench, wanted=None):
    """The runs of `bench` in sweep `wanted`, or in the newest sweep that has any."""
    sweeps = sorted({r["meta"]["sweep"] for r in runs if r["bench"] == bench})
    if not sweeps:
        return []
    sweep = wanted if wanted else sweeps[-1]
    return [r for r in runs if r["bench"] == bench and r["meta"]["sweep"] == sweep]


def caption(runs):
    """One line naming the machine, date, threads, commit and load of `runs`."""
    meta = runs[0]["meta"]
    machine = meta["machine"]
    cpu = machine["cpu"]
    dates = sorted(r["meta"]["date"] for r in runs)
    threads = sorted({r.get("threads") for r in runs})
    loads = sorted({r["meta"]["load"] for r in runs})
    line = (
        f"{machine['name']}: {cpu.get('model_name')} (family {cpu.get('family')} model {cpu.get('model')}), "
        f"{machine['cores']} cores; {dates[0][:10]}; {'/'.join(map(str, threads))} threads; "
        f"commit {meta['commit']}; sweep {meta['sweep']}"
    )
    provisional = loads != ["quiet"]
    if provisional:
        avgs = [r["meta"]["loadavg_1m_before"] for r in runs]
        line += f"\nPROVISIONAL: machine load {'/'.join(loads)}, load average {min(avgs):.1f}-{max(avgs):.1f} before the runs"
    return line, provisional


def setting_of(run):
    return run.get("settings") or SETTINGS_BY_LOG_BLOWUP.get(run.get("log_blowup"), f"log blowup {run.get('log_blowup')}")


def spread(values):
    """Median and the distances down to the minimum and up to the maximum."""
    mid = statistics.median(values)
    return mid, mid - min(values), max(values) - mid


def plot_xmss_agg(runs, out_dir):
    by = defaultdict(list)
    for r in runs:
        by[(setting_of(r), r["n"])].append(r)
    fig, (ax_rate, ax_size) = plt.subplots(1, 2, figsize=(11, 4.4))
    for setting in sorted({s for s, _ in by}, key=lambda s: (s != "fast", s)):
        ns = sorted(n for s, n in by if s == setting)
        rates = [spread([r["sigs_per_s"] for r in by[(setting, n)]]) for n in ns]
        sizes = [spread([r["proof_bytes"] / 1024 for r in by[(setting, n)]]) for n in ns]
        bits = min(r["security_bits"] for n in ns for r in by[(setting, n)])
        label = f"{setting} ({bits:.1f} proven bits)"
        color = COLORS.get(setting)
        for ax, series in ((ax_rate, rates), (ax_size, sizes)):
            ax.errorbar(
                ns,
                [m for m, _, _ in series],
                yerr=[[lo for _, lo, _ in series], [hi for _, _, hi in series]],
                marker="o",
                capsize=3,
                color=color,
                label=label,
            )
    for ax, ylabel in ((ax_rate, "signatures / s (prove)"), (ax_size, "proof size (KiB)")):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("N (Seed001 signatures, one shared message)")
        ax.set_ylabel(ylabel)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.legend()
    ax_rate.set_title("Throughput")
    ax_size.set_title("Proof size")
    text, provisional = caption(runs)
    fig.suptitle(("PROVISIONAL - " if provisional else "") + "STARK aggregation of Seed001 XMSS (sigagg bench xmss-agg)")
    fig.text(0.5, 0.01, text, ha="center", va="bottom", fontsize=7)
    fig.tight_layout(rect=(0, 0.07, 1, 0.95))
    return save(fig, out_dir, "xmss-agg.png")


def plot_horn(runs, out_dir):
    runs = sorted(runs, key=lambda r: r["participation"])
    xs = [r["participation"] for r in runs]
    verify = [r["verify"] for r in runs]
    fig, (ax_time, ax_speedup) = plt.subplots(1, 2, figsize=(11, 4.4))
    ax_time.plot(xs, [v["naive_s"] for v in verify], marker="o", color=COLORS["naive"], label="naive: add each set bit's key, one pairing check per collection")
    ax_time.plot(xs, [v["fast_s"] for v in verify], marker="o", color=COLORS["fast"], label="fast: shared subtraction + one batched pairing check")
    ax_time.set_yscale("log")
    ax_time.set_ylabel("seconds to verify all collections")
    ax_time.set_title("Verification time")
    ax_speedup.plot(xs, [v["speedup"] for v in verify], marker="o", color="tab:green")
    ax_speedup.set_ylabel("naive / fast")
    ax_speedup.set_ylim(bottom=0)
    ax_speedup.set_title("Speedup")
    for ax in (ax_time, ax_speedup):
        ax.set_xlabel("participation (probability that a validator votes)")
        ax.grid(True, alpha=0.3, which="both")
    ax_time.legend(fontsize=7)
    first = runs[0]
    text, provisional = caption(runs)
    fig.suptitle(
        ("PROVISIONAL - " if provisional else "")
        + f"Horn (sigagg bench horn): {first['validators']} validators, {first['verify']['collections']} collections of {first['committee_size']} bits"
    )
    fig.text(0.5, 0.01, text, ha="center", va="bottom", fontsize=7)
    fig.tight_layout(rect=(0, 0.07, 1, 0.95))
    return save(fig, out_dir, "horn.png")


def save(fig, out_dir, name):
    path = os.path.join(out_dir, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=os.path.join(ROOT, "benchmarks", "data"))
    parser.add_argument("--out", default=os.path.join(ROOT, "benchmarks"))
    parser.add_argument("--sweep", help="draw this sweep (its id, e.g. 20261124T050000Z-full) instead of the newest")
    args = parser.parse_args()
    runs = load_runs(args.data)
    drawn = 0
    for bench, plot in (("xmss-agg", plot_xmss_agg), ("horn", plot_horn)):
        selected = newest_sweep(runs, bench, args.sweep)
        if not selected:
            print(f"no {bench} runs in {args.data}", file=sys.stderr)
            continue
        path = plot(selected, args.out)
        print(f"{path}: {len(selected)} runs of sweep {selected[0]['meta']['sweep']}")
        drawn += 1
    return 0 if drawn else 1


if __name__ == "__main__":
    sys.exit(main())
