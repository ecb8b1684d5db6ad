#!/usr/bin/env bash
# Scanners the trust_gate recipe's tests run to check that "mark reviewed" is
# accepted by the tool itself (tests/test_recipe_trust.py): bandit and
# detect-secrets from PyPI into tools/pysec, ESLint's security plugin from npm
# into tools/node-sec.  semgrep (a wheel carrying its engine) too, so its
# allow-list test runs in CI like the others.
# Idempotent: nothing is fetched when the tools are already there.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pysec="$root/tools/pysec"
if [ ! -x "$pysec/bin/bandit" ] || [ ! -x "$pysec/bin/detect-secrets-hook" ] || [ ! -x "$pysec/bin/semgrep" ]; then
  [ -x "$pysec/bin/python" ] || python3 -m venv "$pysec"
  "$pysec/bin/pip" install -q bandit==1.9.4 detect-secrets==1.5.0 semgrep==1.185.0
fi
nodesec="$root/tools/node-sec"
if [ ! -d "$nodesec/node_modules/eslint-plugin-security" ]; then
  mkdir -p "$nodesec"
  cd "$nodesec"
  [ -f package.json ] || echo '{"name":"faultlens-security-tools","private":true}' >package.json
  npm install --no-audit --no-fund --loglevel=error eslint@9.39.5 eslint-plugin-security@3.0.1
fi
