#!/usr/bin/env bash
# Builds throw-away repositories in a temp dir (fixed names and dates, so the
# hashes are stable), runs the command this sample is about, and leaves here:
# output.txt (its output, 2>&1), cmd.txt and any conflicted file as git left it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
base_repo
printf 'retries = 3\n' >src/settings.py && git add src/settings.py && git commit -qm "settings"
git checkout -qb cleanup
git rm -q src/settings.py && git commit -qm "cleanup: drop settings"
git checkout -q main
sed -i 's/3/5/' src/settings.py && git commit -qam "main: 5 retries"
local_change "Hello, {name}" "Good day, {name}" "main: formal greeting"
git checkout -q cleanup
local_change "Hello, {name}" "Hi there, {name}" "cleanup: friendlier greeting"
git checkout -q main
capture git merge cleanup
mkdir -p "$here/src" && cp src/app.py src/settings.py "$here/src/"
