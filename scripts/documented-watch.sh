#!/usr/bin/env bash
# Build a watch-mode sample for a watcher that cannot be installed here
# (cargo-watch, watchexec: crates only), from its documented format: the
# watcher's own banners, printed as its source prints them, around the REAL
# output of the command it would run, once per state of the input.
#
#   scripts/documented-watch.sh CASE_DIR BEGIN END FILE=STATE... -- CMD ARGS...
#
# BEGIN and END are printf formats; END gets the command's exit status.  The
# first run is on the broken input as it is; before each further run, FILE
# gets the content of STATE (then the input is put back).  The output goes to
# output.txt; cmd.txt says how it was made.
set -euo pipefail
case=$1 begin=$2 end=$3; shift 3
changes=()
while [ "$1" != "--" ]; do changes+=("$1"); shift; done
shift
cd "$case"
run() {
  # shellcheck disable=SC2059
  printf "$begin\n"
  set +e; "$@" 2>&1; status=$?; set -e
  # shellcheck disable=SC2059
  printf "$end\n" "$status"
}
declare -A saved
{
  run "$@"
  for c in "${changes[@]}"; do
    f=${c%%=*}
    if [ -z "${saved[$f]+x}" ]; then
      saved[$f]=$(mktemp)
      cp "$f" "${saved[$f]}"
    fi
    cp "${c#*=}" "$f"
    run "$@"
  done
} >output.txt
for f in "${!saved[@]}"; do cp "${saved[$f]}" "$f"; rm -f "${saved[$f]}"; done
