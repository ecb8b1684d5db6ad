#!/usr/bin/env bash
# Builds throw-away repositories in a temp dir (fixed names and dates, so the
# hashes are stable), runs the command this sample is about, and leaves here:
# output.txt (its output, 2>&1), cmd.txt and any conflicted file as git left it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.com GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.com
export GIT_AUTHOR_DATE=2026-01-20T10:00:00Z GIT_COMMITTER_DATE=2026-01-20T10:00:00Z
git config --global init.defaultBranch main
# capture "CMD..." : run it in the current repo, record output and command
capture() {
  set +e
  "$@" >"$here/output.txt" 2>&1
  local status=$?
  set -e
  { echo "$*   ($(git --version))"; echo "# exit status $status"; echo "# repository built by make-repo.sh (run it to capture again)"; } >"$here/cmd.txt"
}
# base repo with src/app.py, an "origin" bare clone and a second clone "other"
base_repo() {
  cd "$tmp" && git init -q repo && cd repo
  mkdir src
  printf '"""The app."""\n\n\ndef greet(name: str) -> str:\n    return f"Hello, {name}"\n\n\ndef farewell(name: str) -> str:\n    return f"Bye, {name}"\n' >src/app.py
  git add . && git commit -qm "base"
  git clone -q --bare . "$tmp/origin.git"
  git remote add origin "$tmp/origin.git" && git fetch -q origin && git branch -q -u origin/main
  git clone -q "$tmp/origin.git" "$tmp/other"
}
# a commit in "other", pushed to origin
upstream_change() {
  (cd "$tmp/other" && sed -i "s/$1/$2/" src/app.py && git commit -qam "${3:-upstream change}" && git push -q origin main)
}
local_change() {
  sed -i "s/$1/$2/" src/app.py && git commit -qam "${3:-local change}"
}
base_repo
upstream_change "Hello, {name}" "Hey, {name}" "upstream: hey"
local_change "Hello, {name}" "Howdy, {name}" "local: howdy"
git pull -q --no-rebase origin main >/dev/null 2>&1 || true
capture git status --short --branch
mkdir -p "$here/src" && cp src/app.py "$here/src/"
