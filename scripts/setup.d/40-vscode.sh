#!/usr/bin/env bash
# What the real-VS Code tests (pytest -m vscode) need, on a fresh machine:
#   - Debian: chromium (driven by playwright-core), libkrb5-dev and ripgrep (code-server's
#     native modules and search);
#   - the code-server + playwright-core harness (editors/vscode-e2e, npm ci);
#   - the extension's dependencies, bundle and package (editors/vscode/faultlens.vsix);
#   - the platform .vsix that carries its server (dist/faultlens-<version>@<target>.vsix,
#     scripts/bundle_vscode.py: faultlens and its dependencies from PyPI's wheels).
# Idempotent: each step is skipped when its result is already there and up to date.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
e2e=$root/editors/vscode-e2e
ext=$root/editors/vscode
t0=$SECONDS
say() { echo "40-vscode: $* (+$((SECONDS - t0))s)"; }

# A stamp holds the hash of what produced a folder; a step runs again only when it differs.
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }
hash_of() { cat "$@" | sha256sum | cut -d' ' -f1; }

# 1. The extension's dependencies, in the background while the rest installs
#    (the registry is slow to answer; the harness spends its time compiling).
ext_pid=""
ext_lock=$(hash_of "$ext/package-lock.json")
if ! stamp_ok "$ext/node_modules/.faultlens-stamp" "$ext_lock"; then
  (cd "$ext" && npm ci --no-audit --no-fund --loglevel=error >"${TMPDIR:-/tmp}/faultlens-ext-npm.log" 2>&1 &&
    echo "$ext_lock" >"$ext/node_modules/.faultlens-stamp") &
  ext_pid=$!
fi

# 2. Debian packages.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "40-vscode: need root to apt-get install ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  say "installed ${missing[*]}"
fi

# 3. The harness: code-server 4.100.3 (VS Code 1.100.3, the last on Node 20) + playwright-core.
lock_hash=$(hash_of "$e2e/package-lock.json")
if ! stamp_ok "$e2e/node_modules/.faultlens-stamp" "$lock_hash" || [ ! -x "$e2e/node_modules/.bin/code-server" ]; then
  # @vscode/ripgrep's postinstall downloads rg from GitHub, which is out of reach here:
  # pre-seed its cache with Debian's rg 13.0.0, the version it asks for.
  cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-1.15.11"
  tarball="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
  if [ ! -s "$tarball" ]; then
    mkdir -p "$cache"
    tmp=$(mktemp -d)
    cp "$(command -v rg)" "$tmp/rg"
    tar -C "$tmp" -czf "$tarball" rg
    rm -rf "$tmp"
  fi
  # node-pty's postinstall runs `npx node-gyp` (yes), as root npm needs unsafe-perm,
  # node-gyp builds against the system Node's headers (nodedir) instead of downloading
  # them, on every core (JOBS; the native modules take most of the time).
  (cd "$e2e" && npm_config_yes=true npm_config_unsafe_perm=true npm_config_nodedir=/usr \
    JOBS=max npm_config_jobs=max npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock_hash" >"$e2e/node_modules/.faultlens-stamp"
  say "harness installed (npm ci)"
fi

# 4. The extension: type check + esbuild bundle + vsce package.
if [ -n "$ext_pid" ]; then
  if ! wait "$ext_pid"; then
    cat "${TMPDIR:-/tmp}/faultlens-ext-npm.log" >&2
    echo "40-vscode: npm ci in editors/vscode failed" >&2
    exit 1
  fi
  say "extension dependencies installed (npm ci)"
fi
sources=$(cd "$ext" && find src package.json package-lock.json tsconfig.json .vscodeignore README.md LICENSE CHANGELOG.md -type f | sort)
src_hash=$(cd "$ext" && hash_of $sources)
if ! stamp_ok "$ext/dist/.faultlens-stamp" "$src_hash" || [ ! -s "$ext/faultlens.vsix" ]; then
  log="${TMPDIR:-/tmp}/faultlens-ext-package.log"
  (cd "$ext" && npm run -s package >"$log" 2>&1) || { cat "$log" >&2; exit 1; }
  echo "$src_hash" >"$ext/dist/.faultlens-stamp"
  say "built editors/vscode/faultlens.vsix"
fi
# 5. The platform .vsix with the bundled server, for this machine's platform.
case "$(uname -m)" in
  x86_64) target=linux-x64 ;;
  aarch64) target=linux-arm64 ;;
  *) target="" ;;
esac
if [ -n "$target" ]; then
  version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/pyproject.toml" | head -n 1)
  out="$root/dist/faultlens-$version@$target.vsix"
  py_sources=$(cd "$root" && find agents classifier cli recipes server entry editors/vscode/bundled/tool -name '*.py' -o -name '*.json' -o -name '*.md' | grep -v __pycache__ | sort)
  bundle_hash=$( (echo "$src_hash"; cd "$root" && hash_of pyproject.toml $py_sources scripts/bundle_vscode.py) | sha256sum | cut -d' ' -f1)
  if ! stamp_ok "$root/dist/.vsix-$target-stamp" "$bundle_hash" || [ ! -s "$out" ]; then
    log="${TMPDIR:-/tmp}/faultlens-bundle.log"
    "$root/.venv/bin/python" "$root/scripts/bundle_vscode.py" --target "$target" --package >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
    echo "$bundle_hash" >"$root/dist/.vsix-$target-stamp"
    say "built ${out#$root/}"
  fi
fi
say "ready"
