#!/usr/bin/env bash
# A remote with one branch (main) and a clone of it: what the job fetches from.
set -euo pipefail
rm -rf remote.git work
git init -q --bare -b main remote.git
git init -q -b main work
git -C work -c user.name=ci -c user.email=ci@example.invalid commit -q --allow-empty -m initial
git -C work remote add origin "$PWD/remote.git"
git -C work push -q origin main
