#!/usr/bin/env bash
# Install everything the test suite needs, then run all of it:
# lint (ruff), types (mypy), and pytest (fast tests, real tools, real Neovim,
# real VS Code).  This is the README's test command and what CI runs.
#
#   scripts/test.sh [PYTEST ARGS...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
py=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$py" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
.venv/bin/python -m pip install -q -e ".[test,dev]" 2>&1 | grep -v '^WARNING: Location' || true
.venv/bin/python -c "import faultlens.cli" # the install above must have worked
for setup in scripts/setup.d/*.sh; do
  [ -e "$setup" ] || continue
  echo "== setup: $setup"
  bash "$setup"
done
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy"
scripts/typecheck.sh
echo "== pytest"
# The faultlens processes the tests start read compiled modules, not sources,
# even where PYTHONDONTWRITEBYTECODE is set (tests/conftest.py keeps the
# suite's own; the venv's packages were compiled by pip)
.venv/bin/python -m compileall -q -j 0 agents classifier cli recipes remote server
exec .venv/bin/python -m pytest --durations=30 "$@"
