#!/bin/sh
# A throwaway repository where `release` and `main` changed one line differently.
set -e
cd "$1"
git init -q -b main .
git config user.email ci@example.com
git config user.name ci
echo "version = 1" > setup.cfg
git add setup.cfg && git commit -qm base
git checkout -qb release && echo "version = 2" > setup.cfg && git commit -qam release
git checkout -q main && echo "version = 3" > setup.cfg && git commit -qam main
