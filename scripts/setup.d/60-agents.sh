#!/usr/bin/env bash
# The agent CLIs behind the agent-interface end-to-end tests
# (tests/agents/test_claude_code_e2e.py, test_gemini_cli_e2e.py): Claude Code
# and Gemini CLI from npm into tools/agents, run headless against local
# stand-ins for their model APIs.
# Idempotent: nothing is fetched when it is already there.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="$root/tools/agents"
if [ ! -x "$dir/node_modules/.bin/claude" ] || [ ! -x "$dir/node_modules/.bin/gemini" ]; then
  mkdir -p "$dir"
  cd "$dir"
  [ -f package.json ] || echo '{"name":"faultlens-agent-clis","private":true}' >package.json
  npm install --no-audit --no-fund --loglevel=error @anthropic-ai/claude-code@2.1.197 @google/gemini-cli@0.61.0
fi
"$dir/node_modules/.bin/claude" --version
"$dir/node_modules/.bin/gemini" --version
