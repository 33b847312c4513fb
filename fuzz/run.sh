#!/usr/bin/env bash
# Runs the given targets (default: all), one at a time, single job, each
# for 10^6 inputs or `LIMIT` seconds (default 180), whichever comes first,
# with -max_len a tenth above the largest seed, and prints one summary line
# per target: inputs run, seconds, peak RSS, exit status, crash lines.
# Logs go to logs/<target>.log, crashing inputs to artifacts/<target>/.
set -u
cd "$(dirname "$0")"
LIMIT=${LIMIT:-180}
mkdir -p logs
targets=${*:-$(ls fuzz_targets | sed 's/\.rs$//')}
for t in $targets; do
  seed_max=$(find "corpus/$t" -name 'seed-*' -printf '%s\n' | sort -n | tail -1)
  max_len=$((seed_max + seed_max / 10 + 64))
  start=$(date +%s)
  cargo +nightly fuzz run -s none "$t" -- -runs=1000000 -max_total_time="$LIMIT" -rss_limit_mb=2048 \
    -max_len="$max_len" -print_final_stats=1 > "logs/$t.log" 2>&1
  rc=$?
  stat() { grep -o "stat::$1:[[:space:]]*[0-9]*" "logs/$t.log" | awk '{print $2}'; }
  crash=$(grep -c -E '^==[0-9]+== ERROR|panicked at|deadly signal' "logs/$t.log")
  echo "$t inputs=$(stat number_of_executed_units) seconds=$(($(date +%s) - start))" \
    "peak_rss_mb=$(stat peak_rss_mb) max_len=$max_len exit=$rc crash_lines=$crash"
done
