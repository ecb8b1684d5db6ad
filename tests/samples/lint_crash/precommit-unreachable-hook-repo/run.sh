#!/bin/sh
# pre-commit needs a git repository: run it in a throwaway copy of this folder.
set -e
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cp .pre-commit-config.yaml "$d/"
cd "$d"
git init -q .
git add -A
PRE_COMMIT_HOME="$d/.cache" pre-commit run --all-files
