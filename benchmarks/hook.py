"""The hook's start-up: what an agent waits for after each shell call.

`faultlens hook claude-code` runs once per tool call.  Timed here on the
payloads captured from Claude Code (tests/agents/payloads/): a call that
succeeded and printed nothing a rule looks at (the common case: answered
from the cached trigger list, without the classifier), the same call the
first time (the trigger cache is built), a failed `tsc` (the classifier, the
recipe's plan and the ledger), beside the interpreter's own start-up.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAYLOADS = ROOT / "tests" / "agents" / "payloads"
SAMPLE = ROOT / "tests" / "samples" / "typescript" / "tsc-plain-ts2304"


@dataclass(slots=True)
class Timing:
    what: str
    wall_ms: float
    cpu_ms: float
    runs: int


def _once(argv: list[str], stdin: bytes, cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, input=stdin, cwd=cwd, env=env, capture_output=True, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1000, cpu * 1000


def _median(
    what: str, argv: list[str], stdin: bytes, cwd: Path, env: dict[str, str], n: int
) -> Timing:
    runs = [_once(argv, stdin, cwd, env) for _ in range(n)]
    return Timing(
        what,
        statistics.median(w for w, _ in runs),
        statistics.median(c for _, c in runs),
        n,
    )


def measure(repeats: int) -> list[Timing]:
    with tempfile.TemporaryDirectory() as tmp:
        proj = Path(tmp) / "proj"
        proj.mkdir()
        shutil.copytree(SAMPLE / "src", proj / "src")
        shutil.copy(SAMPLE / "tsconfig.json", proj / "tsconfig.json")
        subprocess.run(["git", "init", "-q", str(proj)], check=True)
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp) / "cache")}

        def payload(name: str) -> bytes:
            data = json.loads((PAYLOADS / f"{name}.json").read_text())
            data["cwd"] = str(proj)
            data["session_id"] = f"bench-{name}"
            return json.dumps(data).encode()

        hook = [sys.executable, "-m", "faultlens.cli", "hook", "claude-code"]
        ok = payload("claude-code-PostToolUse-ls")
        bad = payload("claude-code-PostToolUseFailure-tsc")
        out = [
            _median(
                "python -c pass (the interpreter alone)",
                [sys.executable, "-c", "pass"],
                b"",
                proj,
                env,
                repeats,
            )
        ]
        out.append(
            _median("a successful call, first time (trigger cache built)", hook, ok, proj, env, 1)
        )
        out.append(_median("a successful call (no failure: silent)", hook, ok, proj, env, repeats))
        out.append(
            _median(
                "a failed tsc call (classified, planned, ledger written)",
                hook,
                bad,
                proj,
                env,
                repeats,
            )
        )
        return out


def table(timings: list[Timing]) -> list[str]:
    rows = [
        "| faultlens hook claude-code | median wall ms | median CPU ms | runs |",
        "|---|---:|---:|---:|",
    ]
    rows += [f"| {t.what} | {t.wall_ms:.0f} | {t.cpu_ms:.0f} | {t.runs} |" for t in timings]
    return rows
