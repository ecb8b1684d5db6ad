#!/bin/sh
# Run jq's own test driver (tests/manonigtest, which sources tests/setup and
# runs `jq --run-tests tests/manonig.test`) from the jqlang/jq snapshot at
# 579e6f76, against Debian's jq.
set -eu
mirror=/work/.mirror/jqlang+jq/repo
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
git --git-dir="$mirror" archive 579e6f76 tests/setup tests/manonigtest tests/manonig.test | tar -x -C "$d"
# every expectation as the project wrote it
JQ=/usr/bin/jq sh "$d/tests/manonigtest"
