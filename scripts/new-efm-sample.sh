#!/usr/bin/env bash
# Capture real tool output for the errorformat differential test: the output
# a Vim compiler plugin's tool prints, read by real Vim and by faultlens with
# that plugin's errorformat (tests/test_errorformat_vim.py).
#
#   scripts/new-efm-sample.sh COMPILER CASE [--version "tool --version"] -- CMD [ARGS...]
#
# Runs CMD inside tests/errorformat/COMPILER/CASE/ (put the broken input there
# first, as the plugin's makeprg would be run), writes the combined output to
# output.txt and the command, with the tool's version, to cmd.txt.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 COMPILER CASE [--version CMD] -- CMD..." >&2; exit 2; }
compiler=$1 case=$2; shift 2
version_cmd=""
if [ "${1:-}" = "--version" ]; then version_cmd=$2; shift 2; fi
[ "${1:-}" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/tests/errorformat/$compiler/$case"
mkdir -p "$dir"
cd "$dir"
version=""
if [ -n "$version_cmd" ]; then version=$(bash -c "$version_cmd" 2>&1 | sed -n 1p); fi
set +e
"$@" >output.txt 2>&1
status=$?
set -e
{
  printf '%s' "$*"
  [ -n "$version" ] && printf '   (%s)' "$version"
  printf '\n# exit status %s\n' "$status"
} >cmd.txt
echo "captured $dir (exit $status)"
