#!/usr/bin/env bash
# The agent CLI behind the agent-interface end-to-end test
# (tests/agents/test_claude_code_e2e.py): Claude Code from npm into
# tools/agents, run headless against a local stand-in for the model API.
# Idempotent: nothing is fetched when it is already there.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="$root/tools/agents"
if [ ! -x "$dir/node_modules/.bin/claude" ]; then
  mkdir -p "$dir"
  cd "$dir"
  [ -f package.json ] || echo '{"name":"faultlens-agent-clis","private":true}' >package.json
  npm install --no-audit --no-fund --loglevel=error @anthropic-ai/claude-code@2.1.197
fi
"$dir/node_modules/.bin/claude" --version
