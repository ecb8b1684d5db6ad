#!/usr/bin/env bash
# One CI job's log with three failures in it: a merge conflict (git), a
# failing test (pytest) and a hard-coded AWS secret (bandit). Builds the
# repository in a temp dir, runs the three steps as a CI script would (each
# step announced with "##[group]Run ..."), and leaves here: output.txt, cmd.txt
# and the files the records point at (CHANGELOG.md as git left it, the test,
# the settings module).
# The secret is AWS's documentation example key, never a live one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
export PATH="$root/.venv/bin:$root/tools/pysec/bin:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp GIT_CONFIG_NOSYSTEM=1 LC_ALL=C PYTHONDONTWRITEBYTECODE=1 PYTEST_DISABLE_PLUGIN_AUTOLOAD=1
export GIT_AUTHOR_NAME=CI GIT_AUTHOR_EMAIL=ci@example.com GIT_COMMITTER_NAME=CI GIT_COMMITTER_EMAIL=ci@example.com
export GIT_AUTHOR_DATE=2026-01-20T10:00:00Z GIT_COMMITTER_DATE=2026-01-20T10:00:00Z
git config --global init.defaultBranch main
cd "$tmp" && git init -q repo && cd repo
mkdir -p app tests
printf '# Changelog\n\n## Unreleased\n\n- nothing yet\n' >CHANGELOG.md
printf '' >app/__init__.py
cat >app/settings.py <<'PY'
"""Deployment settings."""

SETTINGS = {
    "region": "eu-west-1",
    "bucket": "reports",
}
AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
SETTINGS["aws_secret_access_key"] = AWS_SECRET_ACCESS_KEY
PY
cat >tests/test_settings.py <<'PY'
from app.settings import SETTINGS


def test_region_is_the_default():
    assert SETTINGS == {"region": "us-east-1", "bucket": "reports"}
PY
git add . && git commit -qm "base"
git checkout -qb feature
sed -i 's/- nothing yet/- feature: export reports as CSV/' CHANGELOG.md && git commit -qam "feature changelog"
git checkout -q main
sed -i 's/- nothing yet/- fix: retry uploads/' CHANGELOG.md && git commit -qam "main changelog"
step() {
  echo "##[group]Run $*"
  set +e
  "$@" 2>&1
  local status=$?
  set -e
  echo "##[endgroup]"
  [ $status -eq 0 ] || echo "##[error]Process completed with exit code $status."
}
{
  step git merge feature
  step python -m pytest -q -p no:cacheprovider tests
  step bandit -q -r app
} >"$here/output.txt"
mkdir -p "$here/app" "$here/tests"
cp CHANGELOG.md "$here/"
cp app/settings.py "$here/app/"
cp tests/test_settings.py "$here/tests/"
{
  echo "bash ci.sh: git merge feature; python -m pytest -q -p no:cacheprovider tests; bandit -q -r app   ($(git --version), $(python -m pytest --version 2>&1), $(bandit --version | head -n 1))"
  echo "# each step's exit status is in the log (##[error]Process completed with exit code N.)"
  echo "# repository built by make-repo.sh (run it to capture again)"
} >"$here/cmd.txt"
