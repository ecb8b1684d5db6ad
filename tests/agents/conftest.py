"""Fixtures of the agent-interface tests: a workspace holding the seed's
TypeScript example (real `tsc -p .` output: TS2304 at middleware.ts:42), and
the hook payloads captured from the real agent CLIs (payloads/README.md)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "samples" / "typescript" / "tsc-plain-ts2304"
PAYLOADS = Path(__file__).parent / "payloads"
TSC_OUTPUT = (SAMPLE / "output.txt").read_text()


def tool(name: str) -> str | None:
    local = ROOT / "tools" / "node" / "node_modules" / ".bin" / name
    return str(local) if local.exists() else shutil.which(name)


@pytest.fixture
def ts_project(tmp_path: Path) -> Path:
    """A git work tree with the seed example (TS2304: UserProfile not imported)."""
    proj = tmp_path / "proj"
    proj.mkdir()
    shutil.copytree(SAMPLE / "src", proj / "src")
    shutil.copy(SAMPLE / "tsconfig.json", proj / "tsconfig.json")
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    return proj


def payload(name: str, **changes: Any) -> dict[str, Any]:
    """A captured payload (payloads/<name>.json) with some fields replaced."""
    data: dict[str, Any] = json.loads((PAYLOADS / f"{name}.json").read_text())
    data.update(changes)
    return data


@pytest.fixture(autouse=True, scope="session")
def _own_cache_home(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The hook's trigger cache ($XDG_CACHE_HOME/faultlens) in a folder of the suite's."""
    import os

    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache-home"))
