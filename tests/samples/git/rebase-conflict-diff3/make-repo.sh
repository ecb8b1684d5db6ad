#!/usr/bin/env bash
# Builds throw-away repositories in a temp dir (fixed names and dates, so the
# hashes are stable), runs the command this sample is about, and leaves here:
# output.txt (its output, 2>&1), cmd.txt and any conflicted file as git left it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
base_repo
git checkout -qb feature
local_change "Hello, {name}" "Hi there, {name}" "feature: friendlier greeting"
git checkout -q main
local_change "Hello, {name}" "Good day, {name}" "main: formal greeting"
git checkout -q feature
capture git -c merge.conflictStyle=diff3 rebase main
mkdir -p "$here/src" && cp src/app.py "$here/src/"
