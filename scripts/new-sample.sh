#!/usr/bin/env bash
# Capture a sample of real tool output for a detection rule.
#
#   scripts/new-sample.sh FAMILY CASE [--version "tool --version"] -- CMD [ARGS...]
#
# Runs CMD inside tests/samples/FAMILY/CASE/ (create the broken input there
# first), writes its combined output to output.txt and the command, with the
# tool's version, to cmd.txt.  Writes an expected.json skeleton when none is
# there; check it by hand (`faultlens classify --json --cwd DIR DIR/output.txt`).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 FAMILY CASE [--version CMD] -- CMD..." >&2; exit 2; }
family=$1 case=$2; shift 2
version_cmd=""
if [ "${1:-}" = "--version" ]; then version_cmd=$2; shift 2; fi
[ "${1:-}" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
# FAULTLENS_SAMPLES_DIR: another corpus (scripts/new-efm-sample.sh), without expected.json.
corpus=${FAULTLENS_SAMPLES_DIR:-tests/samples}
dir="$root/$corpus/$family/$case"
mkdir -p "$dir"
cd "$dir"
version=""
if [ -n "$version_cmd" ]; then version=$(bash -c "$version_cmd" 2>&1 | sed -n 1p); fi
set +e
"$@" >output.txt 2>&1
status=$?
set -e
{
  printf '%s' "$*"
  [ -n "$version" ] && printf '   (%s)' "$version"
  printf '\n# exit status %s\n' "$status"
} >cmd.txt
if [ "$corpus" = tests/samples ] && [ ! -f expected.json ]; then
  "$root/.venv/bin/faultlens" classify --json --cwd "$dir" output.txt >expected.full.json || true
  python3 - "$dir" <<'PY'
import json, sys, pathlib
d = pathlib.Path(sys.argv[1])
recs = json.loads((d / "expected.full.json").read_text() or "[]")
keep = ("failure_type", "source_file", "source_line", "rule")
(d / "expected.json").write_text(json.dumps([{k: r[k] for k in keep} for r in recs], indent=2) + "\n")
(d / "expected.full.json").unlink()
PY
fi
if [ "$corpus" = tests/samples ]; then echo "captured $dir (exit $status); review expected.json"; else echo "captured $dir (exit $status)"; fi
