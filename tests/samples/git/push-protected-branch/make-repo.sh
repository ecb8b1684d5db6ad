#!/usr/bin/env bash
# Builds throw-away repositories in a temp dir (fixed names and dates, so the
# hashes are stable), runs the command this sample is about, and leaves here:
# output.txt (its output, 2>&1) and cmd.txt.
# The remote protects main the way a server-side hook does (GitHub's protected
# branches answer the same way, with a GH006 message in the hook's output).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
base_repo
cat >"$tmp/origin.git/hooks/pre-receive" <<'HOOK'
#!/bin/sh
while read -r old new ref; do
  if [ "$ref" = "refs/heads/main" ]; then
    echo "error: GH006: Protected branch update failed for refs/heads/main." >&2
    echo "error: Changes must be made through a pull request." >&2
    exit 1
  fi
done
HOOK
chmod +x "$tmp/origin.git/hooks/pre-receive"
local_change "Bye, {name}" "Later, {name}" "local: later"
capture git push origin main
echo "# the remote's hook prints GitHub's documented GH006 text (protected branches); the rest is real git output" >>"$here/cmd.txt"
