"""The built artifacts, installed the ways users install them: `pipx install`,
`uvx` (`uv tool run --from`), a bare `pip install --target` with `python -m
faultlens` — each in a fresh environment, each running `faultlens demo` or a
classification.  The dependencies come from the registry (PyPI)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
SAMPLE = ROOT / "tests" / "samples" / "typescript" / "tsc-plain-ts2304"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (whl,) = out.glob(f"faultlens-{VERSION}-*.whl")
    return whl


def _clean_env(tmp: Path) -> dict[str, str]:
    """No venv of ours on PATH, caches and homes in the test's folder."""
    path = os.pathsep.join(
        p for p in os.environ["PATH"].split(os.pathsep) if not p.startswith(str(ROOT / ".venv"))
    )
    return {
        **{k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")},
        "PATH": path,
        "HOME": str(tmp / "home"),
        "XDG_CACHE_HOME": str(tmp / "cache"),
        "PIPX_HOME": str(tmp / "pipx"),
        "PIPX_BIN_DIR": str(tmp / "bin"),
        "UV_TOOL_DIR": str(tmp / "uv-tools"),
        "UV_CACHE_DIR": str(tmp / "uv-cache"),
        "UV_PYTHON_DOWNLOADS": "never",
    }


def _demo_ok(done: subprocess.CompletedProcess[str]) -> None:
    text = done.stdout + done.stderr
    assert done.returncode == 0, text[-3000:]
    assert "Money" in text and "recovered" in text, text[-3000:]


def test_pipx_install_of_the_wheel_runs_the_demo(wheel: Path, tmp_path: Path) -> None:
    env = _clean_env(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "pipx", "install", "--python", sys.executable, str(wheel)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=900,
    )
    exe = tmp_path / "bin" / "faultlens"
    assert exe.exists()
    _demo_ok(
        subprocess.run([str(exe), "demo"], env=env, capture_output=True, text=True, timeout=600)
    )
    version = subprocess.run([str(exe), "--version"], env=env, capture_output=True, text=True)
    assert version.stdout.strip() == f"faultlens {VERSION}"


def test_uvx_runs_the_demo_from_the_wheel(wheel: Path, tmp_path: Path) -> None:
    env = _clean_env(tmp_path)
    uv = Path(sys.executable).parent / "uv"
    done = subprocess.run(
        [
            str(uv),
            "tool",
            "run",
            "--python",
            sys.executable,
            "--from",
            str(wheel),
            "faultlens",
            "demo",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    _demo_ok(done)


def test_python_m_faultlens_is_the_command(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
        timeout=900,
    )
    env = {**_clean_env(tmp_path), "PYTHONPATH": str(site)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "faultlens",
            "classify",
            "--json",
            "--cwd",
            str(SAMPLE),
            str(SAMPLE / "output.txt"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    (rec,) = json.loads(done.stdout)
    assert (rec["source_file"], rec["source_line"]) == ("src/auth/middleware.ts", 42)


def test_every_part_of_a_release_has_the_same_version() -> None:
    ext = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text())
    plugin = json.loads(
        (ROOT / "editors" / "claude-code" / ".claude-plugin" / "plugin.json").read_text()
    )
    assert ext["version"] == plugin["version"] == VERSION
    assert f"## {VERSION}" in (ROOT / "CHANGELOG.md").read_text()


@pytest.mark.real_tool
def test_the_release_script_builds_and_checks_every_artifact(tmp_path: Path) -> None:
    """scripts/release.sh for this machine's platform (all five take ~10 minutes)."""
    if not (ROOT / "editors" / "vscode" / "node_modules" / ".bin" / "vsce").exists():
        pytest.skip("the extension's npm dependencies are missing (scripts/setup.d/40-vscode.sh)")
    done = subprocess.run(
        ["bash", "scripts/release.sh", "--targets", "linux-x64", "--out", str(tmp_path / "dist")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    dist = tmp_path / "dist"
    for name in (
        f"faultlens-{VERSION}.tar.gz",
        f"faultlens-{VERSION}-py3-none-any.whl",
        f"faultlens-{VERSION}@linux-x64.vsix",
        f"faultlens-{VERSION}.vsix",
        f"faultlens-claude-code-{VERSION}.zip",
        "SHA256SUMS",
    ):
        assert (dist / name).stat().st_size > 0, name


def test_the_mason_package_names_this_version_on_pypi() -> None:
    import yaml

    spec = yaml.safe_load(
        (ROOT / "editors" / "nvim" / "mason" / "faultlens" / "package.yaml").read_text()
    )
    assert spec["name"] == "faultlens"
    assert spec["source"]["id"] == f"pkg:pypi/faultlens@{VERSION}"
    assert spec["bin"] == {"faultlens": "pypi:faultlens"}
