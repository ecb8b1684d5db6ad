"""The wheel holds the faultlens package tree and nothing else: the root
folders classifier/, server/, recipes/, cli/ install as faultlens.*."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (whl,) = out.glob("faultlens-*.whl")
    return whl


@pytest.mark.slow
def test_wheel_holds_only_the_faultlens_package_tree(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    stray = [n for n in names if not n.startswith(("faultlens/", "faultlens-"))]
    assert not stray, stray
    tops = {n.split("/")[1] for n in names if n.startswith("faultlens/")}
    assert {"classifier", "server", "recipes", "cli"} <= tops
    assert not any(n.startswith(("faultlens/tests/", "faultlens/editors/")) for n in names)


@pytest.mark.slow
def test_wheel_ships_every_module_of_the_source_tree(wheel):
    """A package folder missing from pyproject.toml's list would be left out
    silently (a rule family split into a package, say), and its rules with it."""
    names = set(zipfile.ZipFile(wheel).namelist())
    source = [
        f"faultlens/{f.relative_to(ROOT).as_posix()}"
        for top in ("agents", "cli", "classifier", "recipes", "remote", "server")
        for f in (ROOT / top).rglob("*.py")
    ]
    assert source
    missing = sorted(n for n in source if n not in names)
    assert not missing, missing


@pytest.mark.slow
def test_wheel_ships_every_recipe_document(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    from faultlens.classifier.taxonomy import FailureType

    missing = [ft.value for ft in FailureType if f"faultlens/recipes/{ft.value}.md" not in names]
    assert not missing


@pytest.mark.slow
def test_wheel_installs_and_its_command_runs(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert not (target / "classifier").exists() and not (target / "server").exists()
    sample = ROOT / "tests/samples/typescript/tsc-plain-ts2304"
    env = {"PYTHONPATH": str(target)}
    import os

    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "faultlens.cli",
            "classify",
            "--json",
            "--cwd",
            str(sample),
            str(sample / "output.txt"),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    assert '"source_line": 42' in proc.stdout
