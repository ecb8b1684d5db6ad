""":FaultlensInstall in a real headless Neovim, from a checkout of the plugin alone.

The plugin folder (editors/nvim) is copied on its own; no faultlens is on PATH;
`:FaultlensInstall <wheel>` creates the venv under stdpath('data') with the
wheel built from this tree (its dependencies from PyPI), :checkhealth names it,
and a buffer of the seed's TypeScript example gets the TS2304 diagnostic from
the server it runs.  Script: tests/nvim/install.lua."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .test_nvim_e2e import SCRIPTS, nvim_binary

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "samples" / "typescript" / "tsc-plain-ts2304"

pytestmark = [pytest.mark.nvim, pytest.mark.slow]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (whl,) = out.glob("faultlens-*.whl")
    return whl


def test_faultlens_install_gives_a_working_server_from_the_plugin_alone(
    tmp_path: Path, wheel: Path
) -> None:
    plugin = tmp_path / "faultlens.nvim"
    shutil.copytree(ROOT / "editors" / "nvim", plugin)
    ws = tmp_path / "seed"
    shutil.copytree(SAMPLE / "src", ws / "src")
    shutil.copy(SAMPLE / "tsconfig.json", ws / "tsconfig.json")
    xdg = tmp_path / "xdg"
    ours = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if p != ours)
    assert shutil.which("faultlens", path=path) is None
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NVIM", "VIRTUAL_ENV"))}
    env.update(
        {
            "PATH": path,
            "XDG_CONFIG_HOME": str(xdg / "config"),
            "XDG_DATA_HOME": str(xdg / "data"),
            "XDG_STATE_HOME": str(xdg / "state"),
            "XDG_CACHE_HOME": str(xdg / "cache"),
            "FAULTLENS_NVIM": str(plugin),
            "TESTS_NVIM": str(SCRIPTS),
            "WHEEL": str(wheel),
            # The interpreter the test suite's venv was made from: a plain Python 3.11+.
            "PYTHON_FOR_VENV": getattr(sys, "_base_executable", sys.executable),
        }
    )
    done = subprocess.run(
        [str(nvim_binary()), "--headless", "-u", "NONE", "-l", str(SCRIPTS / "install.lua")],
        cwd=ws,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=900,
    )
    lines = done.stdout.rstrip().splitlines()
    report = f"exit {done.returncode}\n--- stdout\n{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-2000:]}"
    assert done.returncode == 0 and lines and lines[-1] == "PASS", report
    venv = xdg / "data" / "nvim" / "faultlens" / "venv"
    assert (venv / "bin" / "faultlens").exists()
    assert "installed: " + str(venv / "bin" / "faultlens") in done.stdout
