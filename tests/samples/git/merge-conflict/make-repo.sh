#!/usr/bin/env bash
# Builds throw-away repositories in a temp dir (fixed names and dates, so the
# hashes are stable), runs the command this sample is about, and leaves here:
# output.txt (its output, 2>&1), cmd.txt and any conflicted file as git left it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
base_repo
printf '{\n  "name": "app",\n  "port": 8080,\n  "debug": false\n}\n' >src/config.json
git add . && git commit -qm "config"
git checkout -qb feature
local_change "Hello, {name}" "Hi there, {name}" "feature: friendlier greeting"
sed -i 's/8080/9090/' src/config.json && git commit -qam "feature: port 9090"
git checkout -q main
local_change "Hello, {name}" "Good day, {name}" "main: formal greeting"
sed -i 's/8080/8000/' src/config.json && git commit -qam "main: port 8000"
capture git merge feature
mkdir -p "$here/src" && cp src/app.py src/config.json "$here/src/"
