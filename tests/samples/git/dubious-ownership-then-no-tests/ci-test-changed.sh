#!/bin/bash
# A CI step: run the tests of the files a checkout holds, in a workspace
# another user owns (a container running as root over the runner's checkout).
set -u
work=$(mktemp -d)
git init -q "$work/repo"
mkdir -p "$work/repo/tests" "$work/repo/src"
printf 'def test_ok():\n    assert True\n' > "$work/repo/tests/test_ok.py"
printf 'VALUE = 1\n' > "$work/repo/src/app.py"
chown -R nobody "$work/repo"
cd "$work/repo"
tests=$(git ls-files 'tests/test_*.py')
python3 -m pytest -q -p no:cacheprovider $tests src
status=$?
rm -rf "$work"
exit $status
