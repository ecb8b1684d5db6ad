#!/usr/bin/env bash
# mypy (strict) on the installed package layout: faultlens.{agents,cli,classifier,recipes,remote,server}.
# The folders live at the repo root; a link tree under build/typecheck gives
# mypy the import names they have once installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
stage="$root/build/typecheck"
rm -rf "$stage" && mkdir -p "$stage/faultlens"
for pkg in agents cli classifier recipes remote server; do ln -s "$root/$pkg" "$stage/faultlens/$pkg"; done
cd "$stage"
exec "$root/.venv/bin/mypy" --config-file "$root/pyproject.toml" --cache-dir "$root/build/mypy-cache" \
  -p faultlens.agents -p faultlens.cli -p faultlens.classifier -p faultlens.recipes -p faultlens.remote -p faultlens.server
