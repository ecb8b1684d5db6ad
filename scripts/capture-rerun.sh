#!/usr/bin/env bash
# Capture what a test runner prints when it re-runs a selection of tests (the
# evidence the test recipe's verdict reads: recipes/verdict.py).
#
#   scripts/capture-rerun.sh CASE [--version "tool --version"] -- CMD [ARGS...]
#
# Runs CMD inside tests/rerun_samples/CASE/ (put the small test project there
# first), writing its combined output to output.txt and the command, its exit
# status and the tool's version to cmd.txt.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 CASE [--version CMD] -- CMD..." >&2; exit 2; }
case=$1; shift
version_cmd=""
if [ "${1:-}" = "--version" ]; then version_cmd=$2; shift 2; fi
[ "${1:-}" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/tests/rerun_samples/$case"
mkdir -p "$dir"
cd "$dir"
version=""
if [ -n "$version_cmd" ]; then version=$(bash -c "$version_cmd" 2>&1 | sed -n 1p); fi
set +e
NO_COLOR=1 FORCE_COLOR=0 "$@" >output.txt 2>&1
status=$?
set -e
{
  printf '%s' "$*"
  [ -n "$version" ] && printf '   (%s)' "$version"
  printf '\n# exit status %s\n' "$status"
} >cmd.txt
