#!/usr/bin/env bash
# Fuzz the classifier and the structured parsers with atheris (libFuzzer).
#
#   fuzz/run.sh [seconds] [target...]
#
# seconds: how long EACH target runs (default 600); targets: any of
# classifier junit sarif cargo_json early_init config (default: all six, run
# side by side).
# Corpora grow in build/fuzz/corpus/<target> (seeded from tests/samples and
# fuzz/seeds);
# a crash is written to build/fuzz/crashes/<target>-crash-* and the run fails.
# Needs `pip install atheris` in .venv (a manylinux wheel; no compiler).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py="${PYTHON:-$root/.venv/bin/python}"
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(classifier junit sarif cargo_json early_init config)
out="$root/build/fuzz"
mkdir -p "$out/crashes" "$out/logs"
pids=()
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t"
  "$py" "$root/fuzz/fuzz.py" "$t" "$out/corpus/$t" \
    -max_total_time="$seconds" -max_len=65536 -timeout=20 -rss_limit_mb=4096 \
    -artifact_prefix="$out/crashes/$t-" -print_final_stats=1 \
    >"$out/logs/$t.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  t="${targets[$i]}"
  if wait "${pids[$i]}"; then result=ok; else result="FAILED (see $out/logs/$t.log)"; status=1; fi
  execs=$(grep -aEo 'stat::number_of_executed_units: *[0-9]+' "$out/logs/$t.log" | grep -Eo '[0-9]+$' || echo '?')
  corpus=$(find "$out/corpus/$t" -type f | wc -l)
  echo "$t: $result; executions $execs; corpus $corpus files"
done
exit $status
