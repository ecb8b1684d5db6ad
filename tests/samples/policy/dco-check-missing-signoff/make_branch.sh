#!/bin/sh
# A throwaway repository: main, and a feature branch with one signed-off
# commit and one without a Signed-off-by trailer.
set -e
cd "$1"
git init -q -b main .
git config user.email dev@example.com
git config user.name "A Developer"
echo "VAT = 20" > tax.py && git add -A && git commit -qm base
git checkout -qb feature
echo "VAT = 21" > tax.py && git commit -qs -am "Raise VAT"
echo "RATE = 2" >> tax.py && git commit -q -am "Add the rate"
