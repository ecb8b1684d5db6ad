#!/usr/bin/env bash
# Capture an agent CLI's real output against the local model stand-in.
#
#   scripts/capture-agent.sh FAMILY CASE PORT SCRIPT.json [--version "cli --version"] -- CMD [ARGS...]
#
# Starts scripts/llm_standin.py on 127.0.0.1:PORT answering from SCRIPT.json
# (a file in the case folder), runs CMD in tests/samples/FAMILY/CASE/ through
# scripts/new-sample.sh with a scratch HOME (the folder's home/, removed after)
# and the three CLIs pointed at the stand-in, then stops the stand-in's process
# group and records the scripted answers and the requests seen in cmd.txt.
# Agent CLIs on PATH: npm install @anthropic-ai/claude-code @openai/codex
# @google/gemini-cli (scripts/install-tools.sh agents).
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 FAMILY CASE PORT SCRIPT.json [--version CMD] -- CMD..." >&2; exit 2; }
family=$1 case=$2 port=$3 script=$4; shift 4
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/tests/samples/$family/$case"
[ -f "$dir/$script" ] || { echo "$0: no $dir/$script" >&2; exit 2; }
# CAPTURE_SCRATCH: where the scratch HOME goes (default: the temp dir). Codex CLI
# will not write its helpers under the temp dir, and says so: put it elsewhere.
scratch=$(mktemp -d "${CAPTURE_SCRATCH:-${TMPDIR:-/tmp}}/capture-agent.XXXXXX")
setsid python3 "$root/scripts/llm_standin.py" "$port" "$dir/$script" --log "$scratch/requests.log" &
standin=$!
trap 'kill -- -$standin 2>/dev/null || true; rm -rf "$scratch"' EXIT
sleep 0.5
export HOME="$scratch/home" && mkdir -p "$HOME"
export ANTHROPIC_BASE_URL="http://127.0.0.1:$port" ANTHROPIC_API_KEY=sk-ant-standin
export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 CLAUDE_CODE_MAX_RETRIES=${CLAUDE_CODE_MAX_RETRIES:-1}
# Codex CLI reads its provider's base_url from $CODEX_HOME/config.toml (the case's home/.codex/)
export OPENAI_BASE_URL="http://127.0.0.1:$port/v1" OPENAI_API_KEY=sk-standin CODEX_HOME="$HOME/.codex"
export GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$port" GEMINI_API_KEY=standin-key
if [ -d "$dir/home" ]; then cp -r "$dir/home/." "$HOME/"; fi
"$root/scripts/new-sample.sh" "$family" "$case" "$@"
{
  echo "# model API: scripts/llm_standin.py $port $script on 127.0.0.1 (scratch HOME; CLAUDE_CODE_MAX_RETRIES=$CLAUDE_CODE_MAX_RETRIES), answers in order:"
  sed 's/^/#   /' "$dir/$script"
  echo "# requests the stand-in saw:"
  sed 's/^/#   /' "$scratch/requests.log" 2>/dev/null || echo "#   none"
} >>"$dir/cmd.txt"
