#!/usr/bin/env bash
# Runs the benchmark sweep behind the plots in BENCHMARKS.md and writes one
# JSON file per run into benchmarks/data/ (the bench's own JSON object plus a
# "meta" object: date, machine, commit, command, load). Then run
#   python3 scripts/plot_benchmarks.py
# to redraw benchmarks/*.png from those files.
#
#   scripts/bench_sweep.sh full    # N = 1024..8192, fast and compact, 3 runs
#                                  # each; Horn at 2^20 validators, 8
#                                  # participation levels (about 10-15 min on
#                                  # 2 quiet cores, estimated from recorded
#                                  # prove times; peak memory ~13 GiB)
#   scripts/bench_sweep.sh quick   # N = 128..1024, 1 run; Horn at 2^16
#                                  # validators, 6 levels (1-2 minutes):
#                                  # checks the pipeline, not for the tables
#
# Environment:
#   SIGAGG   the CLI binary (default: ${CARGO_TARGET_DIR:-target}/release/sigagg,
#            built with `cargo build --release -p sigagg-cli`)
#   OUT      output folder (default: benchmarks/data)
#   MACHINE  a short name for the host, recorded in every file (default: hostname)
#   LOAD     "quiet" or "shared", recorded in every file; default: "quiet" when
#            the CPUs were less than 15% busy over the 2 seconds before the
#            run (the load average lags the sweep's own runs), else "shared"
#   REPEATS  runs per (N, setting) (default: 3 full, 1 quick)
#   BENCHES  which benches to run: "xmss-agg horn" (default) or a subset
#
# Every run uses RAYON_NUM_THREADS=2 (the project's reference machine has two
# cores). Runs alternate the settings within each N so that a change of load
# during the sweep hits both alike.
set -euo pipefail

mode=${1:-}
case "$mode" in
  full)
    ns=(1024 2048 4096 8192)
    repeats=${REPEATS:-3}
    horn_args=()
    participations=(0.5 0.6 0.6667 0.75 0.8 0.9 0.95 0.99)
    ;;
  quick)
    ns=(128 256 512 1024)
    repeats=${REPEATS:-1}
    horn_args=(--committees 2)
    participations=(0.5 0.6667 0.8 0.9 0.95 0.99)
    ;;
  *)
    echo "usage: $0 full|quick   (see the comment at the top of this script)" >&2
    exit 2
    ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${SIGAGG:-${CARGO_TARGET_DIR:-target}/release/sigagg}
out=${OUT:-benchmarks/data}
benches=${BENCHES:-xmss-agg horn}
if [[ ! -x $bin ]]; then
  echo "no CLI binary at $bin: cargo build --release -p sigagg-cli (or set SIGAGG)" >&2
  exit 2
fi
mkdir -p "$out"
export RAYON_NUM_THREADS=2

sweep=$(date -u +%Y%m%dT%H%M%SZ)-$mode
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if ! git diff --quiet HEAD -- crates Cargo.toml Cargo.lock 2>/dev/null; then
  commit="$commit+dirty"
fi

# xmss-agg takes named settings where the CLI has them, else a log blowup.
if "$bin" bench xmss-agg --help | grep -q -- '--settings'; then
  setting_args() { echo "--settings $1"; }
else
  setting_args() { case $1 in fast) echo "--log-blowup 1" ;; compact) echo "--log-blowup 3" ;; esac; }
fi

loadavg() { cut -d' ' -f1 /proc/loadavg; }

# busy: percent of CPU time spent outside idle over the next 2 seconds. The
# load average cannot tell an idle machine from the sweep's own previous
# run (it lags by a minute), so a run is "quiet" when the CPUs are idle
# right before it starts.
busy() {
  local a b
  a=($(head -n1 /proc/stat)); sleep 2; b=($(head -n1 /proc/stat))
  awk -v a="${a[*]}" -v b="${b[*]}" 'BEGIN {
    n = split(a, x, " "); split(b, y, " "); total = 0
    for (i = 2; i <= n; i++) total += y[i] - x[i]
    idle = (y[5] - x[5]) + (y[6] - x[6])
    pct = (total > 0) ? 100 * (total - idle) / total : 0
    printf "%.0f", pct }'
}

# run NAME ARGS...: one bench run; its JSON plus meta goes to $out/<sweep>-NAME.json.
run() {
  local name=$1
  shift
  local file="$out/$sweep-$name.json" before after load started cpu_busy
  before=$(loadavg)
  cpu_busy=$(busy)
  load=${LOAD:-$(awk -v b="$cpu_busy" 'BEGIN { print (b < 15) ? "quiet" : "shared" }')}
  started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  echo "[$started] $name: $bin $* (load average $before, CPU busy $cpu_busy% before)" >&2
  local json
  json=$("$bin" "$@" 2> >(grep -v '^\s*$' | tail -n 3 >&2))
  after=$(loadavg)
  BENCH_JSON=$json META_SWEEP=$sweep META_MODE=$mode META_DATE=$started META_COMMIT=$commit \
    META_COMMAND="RAYON_NUM_THREADS=2 sigagg $*" META_LOAD=$load META_BEFORE=$before META_AFTER=$after META_BUSY=$cpu_busy \
    META_MACHINE=${MACHINE:-$(hostname)} python3 - "$file" <<'PY'
import json, os, platform, subprocess, sys

def cpu():
    info = {}
    try:
        for line in open("/proc/cpuinfo"):
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key in ("model name", "cpu family", "model", "flags") and key not in info:
                info[key] = value
    except OSError:
        pass
    flags = set(info.get("flags", "").split())
    return {
        "model_name": info.get("model name"),
        "family": info.get("cpu family"),
        "model": info.get("model"),
        "features": sorted(flags & {"avx2", "avx512f", "sha_ni", "adx", "bmi2"}),
    }

def mem_gib():
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        return None

def rustc():
    try:
        return subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return None

env = os.environ
result = json.loads(env["BENCH_JSON"])
result["meta"] = {
    "sweep": env["META_SWEEP"],
    "mode": env["META_MODE"],
    "date": env["META_DATE"],
    "commit": env["META_COMMIT"],
    "command": env["META_COMMAND"],
    "load": env["META_LOAD"],
    "loadavg_1m_before": float(env["META_BEFORE"]),
    "loadavg_1m_after": float(env["META_AFTER"]),
    "cpu_busy_percent_before": int(env["META_BUSY"]),
    "machine": {
        "name": env["META_MACHINE"],
        "cpu": cpu(),
        "cores": os.cpu_count(),
        "mem_gib": mem_gib(),
        "os": platform.platform(),
        "rustc": rustc(),
    },
}
with open(sys.argv[1], "w") as f:
    json.dump(result, f, indent=1, sort_keys=True)
    f.write("\n")
PY
}

for bench in $benches; do
  case $bench in
    xmss-agg)
      for ((r = 1; r <= repeats; r++)); do
        for n in "${ns[@]}"; do
          for s in fast compact; do
            # shellcheck disable=SC2046 # setting_args prints two words on purpose
            run "xmss-agg-n$n-$s-r$r" bench xmss-agg --n "$n" $(setting_args $s) --json
          done
        done
      done
      ;;
    horn)
      for p in "${participations[@]}"; do
        run "horn-p$p" bench horn "${horn_args[@]}" --participation "$p" --json
      done
      ;;
    *)
      echo "unknown bench $bench (xmss-agg, horn)" >&2
      exit 2
      ;;
  esac
done
echo "sweep $sweep done: $out/$sweep-*.json" >&2
