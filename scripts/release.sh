#!/usr/bin/env bash
# Build and check every artifact of a release into dist/:
#
#   scripts/release.sh                    # all of it
#   scripts/release.sh --targets linux-x64,win32-x64 [--out DIR]
#
#   faultlens-<v>.tar.gz, faultlens-<v>-py3-none-any.whl   sdist and wheel (twine check)
#   faultlens-<v>@<target>.vsix                             VS Code, the server inside, per platform
#   faultlens-<v>.vsix                                      VS Code, universal (faultlens from PATH)
#   faultlens-claude-code-<v>.zip                           the Claude Code plugin
#   SHA256SUMS
#
# It refuses a release whose parts disagree on the version (pyproject.toml,
# the VS Code manifest, the Claude Code plugin manifest, the CHANGELOG).
# Nothing is uploaded: that is a person's decision.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
py=${PYTHON:-$root/.venv/bin/python}
targets="linux-x64,linux-arm64,darwin-x64,darwin-arm64,win32-x64"
out=$root/dist
while [ $# -gt 0 ]; do
  case $1 in
    --targets) targets=$2; shift 2 ;;
    --out) out=$(mkdir -p "$2" && cd "$2" && pwd); shift 2 ;;
    *) echo "usage: $0 [--targets T1,T2,...] [--out DIR]" >&2; exit 2 ;;
  esac
done
say() { echo "release: $*"; }
fail() { echo "release: $*" >&2; exit 1; }

# 1. One version everywhere.
version=$("$py" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
ext_version=$("$py" -c 'import json; print(json.load(open("editors/vscode/package.json"))["version"])')
plugin_version=$("$py" -c 'import json; print(json.load(open("editors/claude-code/.claude-plugin/plugin.json"))["version"])')
[ "$ext_version" = "$version" ] || fail "editors/vscode/package.json says $ext_version, pyproject.toml $version"
[ "$plugin_version" = "$version" ] || fail "the Claude Code plugin says $plugin_version, pyproject.toml $version"
grep -q -E "^## ($version|Unreleased)\$" CHANGELOG.md || fail "CHANGELOG.md has no section for $version"
say "version $version"

rm -rf "$out" && mkdir -p "$out"

# 2. The Python package.
"$py" -m build --sdist --wheel --outdir "$out" . >/dev/null
wheel="$out/faultlens-$version-py3-none-any.whl"
[ -s "$wheel" ] || fail "no wheel $wheel"
"$py" -m twine check --strict "$out/faultlens-$version.tar.gz" "$wheel"
"$py" - "$wheel" "$out/faultlens-$version.tar.gz" <<'EOF'
import sys, tarfile, zipfile
wheel, sdist = sys.argv[1], sys.argv[2]
names = set(zipfile.ZipFile(wheel).namelist())
need = {"faultlens/__main__.py", "faultlens/server/capabilities.json", "faultlens/recipes/compile.md",
        "faultlens/cli/main.py", "faultlens/agents/mcp_server.py"}
missing = need - names
if missing:
    sys.exit(f"release: the wheel lacks {sorted(missing)}")
top = tarfile.open(sdist).getnames()[0].split("/")[0]
snames = set(tarfile.open(sdist).getnames())
for part in ("LICENSE", "CHANGELOG.md", "README.md", "server/capabilities.json", "docs/agents.md"):
    if f"{top}/{part}" not in snames:
        sys.exit(f"release: the sdist lacks {part}")
EOF
say "sdist and wheel checked"

# 3. VS Code: one .vsix per platform with the server inside, and the universal one.
(cd editors/vscode && { [ -x node_modules/.bin/vsce ] || npm ci --no-audit --no-fund --loglevel=error; })
IFS=, read -r -a list <<<"$targets"
for target in "${list[@]}"; do
  "$py" scripts/bundle_vscode.py --target "$target" --wheel "$wheel" --package --out "$out" >/dev/null
  [ -s "$out/faultlens-$version@$target.vsix" ] || fail "no .vsix for $target"
  say "vsix $target"
done
rm -rf editors/vscode/bundled/libs
(cd editors/vscode && npm run -s package-target -- --out "$out/faultlens-$version.vsix" >/dev/null)
say "vsix universal"

# 4. The Claude Code plugin (validated by the CLI when it is installed).
claude="$root/tools/agents/node_modules/.bin/claude"
if [ -x "$claude" ]; then
  "$claude" plugin validate editors/claude-code >/dev/null || fail "claude plugin validate failed"
  "$claude" plugin validate . >/dev/null || fail "the marketplace manifest does not validate"
fi
"$py" -c 'import shutil, sys; shutil.make_archive(sys.argv[1], "zip", "editors/claude-code")' \
  "$out/faultlens-claude-code-$version"
say "claude code plugin"

(cd "$out" && sha256sum -- * >SHA256SUMS)
say "done:"
ls -l "$out" | sed 's/^/  /'
