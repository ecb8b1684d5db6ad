"""The packaged VS Code extension alone, in a real VS Code: no faultlens on
PATH, no setting, a plain Python on the machine.

The platform .vsix (dist/faultlens-<version>@<target>.vsix, built by
scripts/bundle_vscode.py from the registry's wheels: scripts/setup.d/40-vscode.sh)
carries faultlens and its dependencies; the extension finds Debian's own
/usr/bin/python3 (3.11, no faultlens, no pydantic: a plain interpreter) on a PATH
that holds nothing else of ours, and runs the bundled server on it.  The seed's
TypeScript example (tsc: TS2304 at src/auth/middleware.ts:42) is built through a
`faultlens` task; the failure must reach the Problems panel, its hover and its
quick fix, and the re-run must come back clean.
"""

from __future__ import annotations

import json
import platform
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from .test_vscode_e2e import ARTIFACTS, HARNESS, ROOT, _locations, _missing, harness_node

SAMPLE = ROOT / "tests" / "samples" / "typescript" / "tsc-plain-ts2304"
TSC = ROOT / "tools" / "node" / "node_modules" / ".bin" / "tsc"
PLAIN_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
TARGETS = {"x86_64": "linux-x64", "aarch64": "linux-arm64"}

pytestmark = [pytest.mark.vscode, pytest.mark.slow]


def _platform_vsix() -> Path:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    target = TARGETS.get(platform.machine(), "")
    return ROOT / "dist" / f"faultlens-{version}@{target}.vsix"


def test_the_platform_vsix_carries_the_server_for_each_python(tmp_path: Path) -> None:
    import zipfile

    vsix = _platform_vsix()
    if not vsix.exists():
        _missing(str(vsix.relative_to(ROOT)))
    z = zipfile.ZipFile(vsix)
    names = set(z.namelist())
    assert "extension/bundled/tool/launch.py" in names
    info = json.loads(z.read("extension/bundled/libs/BUNDLE.json"))
    assert info["pythons"] == ["3.11", "3.12", "3.13", "3.14"], info
    for py in info["pythons"]:
        tag = "cp" + py.replace(".", "")
        assert any(n.startswith(f"extension/bundled/libs/{tag}/pydantic_core/") for n in names), tag
    assert any(n.startswith("extension/bundled/libs/common/faultlens/server/") for n in names)
    manifest = z.read("extension.vsixmanifest").decode()
    assert f'TargetPlatform="{TARGETS[platform.machine()]}"' in manifest


def test_the_extension_alone_shows_the_seed_failure_with_hover_and_quick_fix(
    tmp_path: Path,
) -> None:
    node = harness_node(chromium=False)
    vsix = _platform_vsix()
    if not vsix.exists():
        _missing(str(vsix.relative_to(ROOT)))
    if not TSC.exists():
        _missing("tools/node (tsc)")
    plain = subprocess.run(
        [
            "/usr/bin/python3",
            "-c",
            "import sys, importlib.util as u; "
            "print(sys.version_info >= (3, 11), u.find_spec('pydantic') is None, u.find_spec('faultlens') is None)",
        ],
        capture_output=True,
        text=True,
        env={"PATH": PLAIN_PATH},
        check=False,
    )
    if plain.stdout.split() != ["True", "True", "True"]:
        pytest.skip(
            f"/usr/bin/python3 is not a plain Python 3.11+ here: {plain.stdout or plain.stderr}"
        )
    assert shutil.which("faultlens", path=PLAIN_PATH) is None

    ws = tmp_path / "seed"
    shutil.copytree(SAMPLE / "src", ws / "src")
    shutil.copy(SAMPLE / "tsconfig.json", ws / "tsconfig.json")
    (ws / ".vscode").mkdir()
    tasks = {
        "version": "2.0.0",
        "tasks": [{"label": "build", "type": "faultlens", "command": f"{TSC} -p ."}],
    }
    (ws / ".vscode" / "tasks.json").write_text(json.dumps(tasks, indent=2))
    artifacts = ARTIFACTS.parent / "vscode-bundled"
    artifacts.mkdir(parents=True, exist_ok=True)
    result_file = tmp_path / "result.json"
    scenario = {
        "workspace": str(ws),
        "vsix": str(vsix),
        "artifacts": str(artifacts),
        "result": str(result_file),
        "path": PLAIN_PATH,
        "settings": {},
        "run": {"via": "task", "label": "build"},
        "expectProblems": 1,
        "hover": {"file": "src/auth/middleware.ts", "line": 42},
        "quickFix": {
            "file": "src/auth/middleware.ts",
            "line": 42,
            "title": r"faultlens: .*UserProfile",
        },
        "rerun": {"via": "task", "label": "build", "expectProblems": 0, "gone": "UserProfile"},
    }
    scenario_file = tmp_path / "scenario.json"
    scenario_file.write_text(json.dumps(scenario, indent=2))
    done = subprocess.run(
        [node, "run-e2e.mjs", str(scenario_file)],
        cwd=HARNESS,
        capture_output=True,
        text=True,
        timeout=480,
        check=False,
    )
    assert result_file.exists(), done.stdout + done.stderr
    result = json.loads(result_file.read_text())
    assert "error" not in result, (
        f"{result['error']}\n{done.stderr[-3000:]}\nextension log: {result.get('extensionLog', '')[-3000:]}\nsee {artifacts}"
    )
    assert ("middleware.ts", 42, "compile") in _locations(result["problems"]), result["problems"]
    assert "TS2304" in result["hover"] and "compile" in result["hover"], result["hover"]
    assert re.search(r"faultlens: .*UserProfile", result["chosenFix"])
    assert "import { UserProfile } from '../models/user'" in result["fileAfter"]
    assert _locations(result["problemsAfterRerun"]) == [], result["problemsAfterRerun"]
    # The extension says how it started the server (its output channel's log).
    assert re.search(
        r"server: the bundled server on Python 3\.11 \(PATH\)", result["extensionLog"]
    ), result["extensionLog"][-3000:]
    assert (
        "starting /usr/bin/python3 -I " in result["extensionLog"]
        or "starting python3 -I " in result["extensionLog"]
    )
