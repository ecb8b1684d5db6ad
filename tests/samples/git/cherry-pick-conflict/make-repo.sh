#!/usr/bin/env bash
# Builds throw-away repositories in a temp dir (fixed names and dates, so the
# hashes are stable), runs the command this sample is about, and leaves here:
# output.txt (its output, 2>&1), cmd.txt and any conflicted file as git left it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
base_repo
git checkout -qb hotfix
local_change "Bye, {name}" "Goodbye, {name}" "hotfix: goodbye"
git checkout -q main
local_change "Bye, {name}" "See you, {name}" "main: see you"
capture git cherry-pick hotfix
mkdir -p "$here/src" && cp src/app.py "$here/src/"
