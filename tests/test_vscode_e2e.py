"""The VS Code extension, in a real VS Code.

code-server 4.100.3 (VS Code 1.100.3) runs headless with the freshly packaged
editors/vscode/faultlens.vsix installed; Debian's Chromium, driven by
playwright-core (editors/vscode-e2e/run-e2e.mjs), opens a temp copy of
examples/broken-app, runs its build through a `faultlens` task, reads the
Problems panel, hovers the compile failure, applies its quick fix, and re-runs
the build through Faultlens: Run Command…  The harness reports what it saw as
JSON; this module asserts on it.  Screenshots land in build/artifacts/vscode/.

Everything here is installed by scripts/setup.d/40-vscode.sh.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXTENSION = ROOT / "editors" / "vscode"
HARNESS = ROOT / "editors" / "vscode-e2e"
EXAMPLE = ROOT / "examples" / "broken-app"
ARTIFACTS = ROOT / "build" / "artifacts" / "vscode"
VENV_BIN = ROOT / ".venv" / "bin"
SETUP = "scripts/setup.d/40-vscode.sh"

pytestmark = pytest.mark.vscode


def _missing(what: str) -> None:
    """Fail in CI (the setup must have installed it), skip elsewhere."""
    message = f"{what} is missing: run {SETUP}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def harness_node(*, chromium: bool = True) -> str:
    """node, once the harness (code-server) and, with `chromium`, the browser
    are there (a skip, or in CI a failure, naming what is missing)."""
    node = shutil.which("node")
    if node is None:
        _missing("node")
    if not (HARNESS / "node_modules" / ".bin" / "code-server").exists():
        _missing("editors/vscode-e2e/node_modules (code-server)")
    if chromium and not Path("/usr/bin/chromium").exists():
        _missing("/usr/bin/chromium")
    assert node is not None
    return node


def _npm(args: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["npm", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


def _newest_source(folder: Path) -> float:
    files = [*folder.joinpath("src").rglob("*.ts"), folder / "package.json"]
    return max(f.stat().st_mtime for f in files)


@pytest.fixture(scope="module")
def vsix() -> Path:
    """The packaged extension, rebuilt when a source is newer than it."""
    if shutil.which("npm") is None:
        _missing("npm")
    if not (EXTENSION / "node_modules" / ".bin" / "vsce").exists():
        _missing("editors/vscode/node_modules")
    out = EXTENSION / "faultlens.vsix"
    if not out.exists() or out.stat().st_mtime < _newest_source(EXTENSION):
        done = _npm(["run", "-s", "package"], EXTENSION, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_extension_glue_tests_pass(vsix: Path) -> None:
    """node --test over the extension's modules with a stubbed `vscode` module."""
    done = _npm(["test"], EXTENSION, timeout=300)
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-4000:]
    passed = re.search(r"^# pass (\d+)$", report, re.M)
    assert passed and int(passed.group(1)) >= 20, report[-2000:]
    assert re.search(r"^# fail 0$", report, re.M), report[-2000:]


def test_vsix_holds_only_the_bundle_and_the_manifest(vsix: Path) -> None:
    """`vsce package --no-dependencies` works because the bundle carries the dependencies."""
    import zipfile

    names = set(zipfile.ZipFile(vsix).namelist())
    assert "extension/dist/extension.js" in names
    assert "extension/package.json" in names
    assert not any("node_modules" in n or n.endswith(".ts") for n in names), sorted(names)
    manifest = json.loads(zipfile.ZipFile(vsix).read("extension/package.json"))
    assert manifest["activationEvents"] == ["onStartupFinished"]
    assert manifest["engines"]["vscode"] == "^1.100.0"


def _locations(rows: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    """(file name, line, failure_type) of every faultlens row of the Problems panel."""
    found: list[tuple[str, int, str]] = []
    current = ""
    for row in rows:
        file_row = re.match(r"\d+ problems? in file (\S+)", row["ariaLabel"])
        if row["isFile"] and file_row:
            current = file_row.group(1)
            continue
        marker = re.search(r"faultlens\W+(\w+)\W+\[Ln (\d+), Col \d+\]", row["text"])
        if marker:
            found.append((current, int(marker.group(2)), marker.group(1)))
    return found


def _line_of(path: Path, pattern: str) -> int:
    """1-based number of the first line of `path` matching `pattern` (not a comment)."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if re.search(pattern, line) and not line.lstrip().startswith("#"):
            return number
    raise AssertionError(f"{pattern!r} not found in {path}")


def _write_workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "broken-app"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("__pycache__", ".faultlens"))
    (ws / ".vscode").mkdir()
    tasks = {
        "version": "2.0.0",
        "tasks": [{"label": "build", "type": "faultlens", "command": "python -m unittest"}],
    }
    (ws / ".vscode" / "tasks.json").write_text(json.dumps(tasks, indent=2))
    return ws


@pytest.mark.slow
def test_real_vscode_shows_hovers_and_fixes_the_example_failures(
    tmp_path: Path, vsix: Path
) -> None:
    node = harness_node()
    if not (VENV_BIN / "faultlens").exists():
        _missing(".venv/bin/faultlens")
    ws = _write_workspace(tmp_path)
    cart_before = (ws / "shop" / "cart.py").read_text()
    # Where the example's two failures are: the first use of Money, the failing assertion.
    money_line = _line_of(ws / "shop" / "cart.py", r"\bMoney\(")
    assert_line = _line_of(ws / "tests" / "test_pricing.py", r"assertEqual\(total_with_tax")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob("*.png"):
        old.unlink()
    result_file = tmp_path / "result.json"
    scenario = {
        "workspace": str(ws),
        "vsix": str(vsix),
        "artifacts": str(ARTIFACTS),
        "result": str(result_file),
        "extraPath": str(VENV_BIN),
        "settings": {
            "faultlens.serverPath": str(VENV_BIN / "faultlens"),
            "faultlens.runCommands": {"build": "python -m unittest"},
        },
        "run": {"via": "task", "label": "build"},
        "expectProblems": 2,
        "hover": {"file": "shop/cart.py", "line": money_line},
        "quickFix": {"file": "shop/cart.py", "line": money_line, "title": r"faultlens: .*Money"},
        "rerun": {"via": "command", "name": "build", "expectProblems": 1, "gone": "Money"},
    }
    scenario_file = tmp_path / "scenario.json"
    scenario_file.write_text(json.dumps(scenario, indent=2))

    done = subprocess.run(
        [node, "run-e2e.mjs", str(scenario_file)],
        cwd=HARNESS,
        capture_output=True,
        text=True,
        timeout=420,
        check=False,
    )
    assert result_file.exists(), done.stdout + done.stderr
    result = json.loads(result_file.read_text())
    progress = done.stderr[-3000:]
    assert "error" not in result, f"{result['error']}\n{progress}\nsee {ARTIFACTS}"
    assert done.returncode == 0, progress

    # Both failures of the example, at their files and lines, each in its category.
    locations = _locations(result["problems"])
    assert ("cart.py", money_line, "compile") in locations, result["problems"]
    assert ("test_pricing.py", assert_line, "test") in locations, result["problems"]
    status = " ".join(i["text"] for i in result["statusAfterRun"])
    assert "compile 1" in status and "test 1" in status, result["statusAfterRun"]

    # The hover names the category and the signal.
    hover = result["hover"]
    assert "compile" in hover and "Money" in hover, hover

    # The compile quick fix imports Money, on disk.
    assert re.search(r"faultlens: .*Money", result["chosenFix"])
    after = (ws / "shop" / "cart.py").read_text()
    assert after == result["fileAfter"]
    assert "from shop.money import Money" in after
    assert "from shop.money import Money" not in cart_before

    # Run Command… re-runs the build: only the real test failure is left.
    rerun = _locations(result["problemsAfterRerun"])
    assert rerun == [("test_pricing.py", assert_line, "test")], result["problemsAfterRerun"]

    for name in ("build-output", "problems", "hover", "quickfix", "after-fix", "after-rerun"):
        assert (ARTIFACTS / f"{name}.png").stat().st_size > 10_000, name
