#!/usr/bin/env bash
# Builds throw-away repositories in a temp dir (fixed names and dates, so the
# hashes are stable), runs the command this sample is about, and leaves here:
# output.txt (its output, 2>&1) and cmd.txt.  A CI step that shows the status
# before pulling: one divergence, told by `git status` and again by `git pull`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
base_repo
upstream_change "Hello, {name}" "Hey, {name}" "upstream: hey"
local_change "Bye, {name}" "Later, {name}" "local: later"
git fetch -q origin
capture bash -c "git status && git pull origin main"
