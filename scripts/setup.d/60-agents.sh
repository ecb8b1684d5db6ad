#!/usr/bin/env bash
# The agent CLIs behind the agent-interface end-to-end tests
# (tests/agents/test_claude_code_e2e.py, test_gemini_cli_e2e.py) and the agent
# samples: Claude Code, Gemini CLI and Codex CLI (a Rust binary shipped through
# npm; runs offline against a loopback stand-in) from npm into tools/agents, run
# headless against local stand-ins for their model APIs.
# Idempotent: nothing is fetched when it is already there.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="$root/tools/agents"
if [ ! -x "$dir/node_modules/.bin/claude" ] || [ ! -x "$dir/node_modules/.bin/gemini" ] \
  || [ ! -x "$dir/node_modules/.bin/codex" ]; then
  mkdir -p "$dir"
  cd "$dir"
  [ -f package.json ] || echo '{"name":"faultlens-agent-clis","private":true}' >package.json
  npm install --no-audit --no-fund --loglevel=error @anthropic-ai/claude-code@2.1.197 @google/gemini-cli@0.61.0 \
    @openai/codex@0.171.0
fi
"$dir/node_modules/.bin/claude" --version
"$dir/node_modules/.bin/gemini" --version
"$dir/node_modules/.bin/codex" --version
