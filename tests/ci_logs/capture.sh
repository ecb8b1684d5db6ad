#!/usr/bin/env bash
# Capture the job logs the `faultlens ci` tests serve from their stand-in API:
# real tsc and eslint runs in a checkout at a GitHub-hosted runner's path
# (/home/runner/work/shop/shop), each step written as actions/runner writes
# it (src/Runner.Worker/Handlers/ScriptHandler.cs: "##[group]Run <first line>",
# the script in bright cyan, "shell: /usr/bin/bash -e {0}", "##[endgroup]",
# "##[error]Process completed with exit code N."; src/Runner.Common/Logging.cs:
# every line prefixed with DateTime.UtcNow.ToString("O") and a space).
# Needs root (it makes /home/runner/work) and tools/node (scripts/setup.d).
#   bash tests/ci_logs/capture.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin="$root/tools/node/node_modules/.bin"
[ -x "$bin/tsc" ] || bin=/work/main/tools/node/node_modules/.bin
work=/home/runner/work/shop/shop
rm -rf /home/runner/work/shop && mkdir -p "$work"
cp -r "$here/shop/." "$work/"

stamp() {  # each line as the runner's paging logger writes it
  while IFS= read -r line || [ -n "$line" ]; do
    printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%S.%N | cut -c1-27)Z" "$line"
  done
}
step() {  # step NAME-OF-LOG COMMAND...: one `run:` step of a job
  local log=$1; shift
  {
    printf '##[group]Run %s\n' "$*"
    printf '\033[36;1m%s\033[0m\n' "$*"
    printf 'shell: /usr/bin/bash -e {0}\n'
    printf '##[endgroup]\n'
    set +e
    (cd "$work" && PATH="$bin:$PATH" "$@") 2>&1
    code=$?
    set -e
    [ "$code" = 0 ] || printf '##[error]Process completed with exit code %s.\n' "$code"
  } | stamp >>"$log"
}
job() {  # job LOG: the runner's opening and closing lines around the steps
  printf 'Current runner version: %s\n' "'2.330.0'" | stamp >"$1"
}
close() {
  printf 'Post job cleanup.\nCleaning up orphan processes\n' | stamp >>"$1"
}

job "$here/typecheck.log"
step "$here/typecheck.log" tsc --version
step "$here/typecheck.log" tsc -p . --pretty false
close "$here/typecheck.log"

job "$here/lint.log"
step "$here/lint.log" eslint --no-config-lookup --rule "no-unused-vars: error" "$work/src"
close "$here/lint.log"

job "$here/build.log"
step "$here/build.log" tsc --version
close "$here/build.log"
{
  echo "tsc $("$bin/tsc" --version), eslint $("$bin/eslint" --version), captured $(date -u +%F)"
  echo "jobs: typecheck.log (fails: TS2304), lint.log (fails: no-unused-vars, absolute runner paths), build.log (passes)"
} >"$here/cmd.txt"
rm -rf /home/runner/work/shop
