"""Watch mode as an editor sees it: `faultlens serve` follows the real
`npx tsc --watch --preserveWatchOutput -p .` on the seed's TypeScript example
(tests/samples/typescript/tsc-plain-ts2304, TS2304 at middleware.ts:42).

Timed, from the client's side (wall clock, not pinned: tsc is the cost):
the `faultlens.run` answer once the server has loaded (the client is
never blocked), the first cycle's
TS2304 published, then per round the fix written to disk -> the diagnostic
cleared and the break written back -> the diagnostic shown again (one tsc
incremental cycle each, plus faultlens' classify and publish), and
`faultlens.stopTask` -> no process left in the project.

    python -m benchmarks.run --size 256KB --only watch
"""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .lsp_client import LspClient

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "samples" / "typescript" / "tsc-plain-ts2304"
TSC_BIN = ROOT / "tools" / "node" / "node_modules" / ".bin"
FILE = "src/auth/middleware.ts"
PUBLISH = "textDocument/publishDiagnostics"
CYCLE_TIMEOUT = 180.0


@dataclass(slots=True)
class WatchTimes:
    answer: float = 0.0  # faultlens.run -> its response
    first: float = 0.0  # faultlens.run -> the first cycle's TS2304 published
    cleared: list[float] = field(default_factory=list)  # fix on disk -> published empty
    shown: list[float] = field(default_factory=list)  # break on disk -> published again
    stop: float = 0.0  # faultlens.stopTask -> no process left
    note: str = ""


def processes_in(folder: Path) -> list[int]:
    """Live (not zombie) processes whose working folder is inside `folder`."""
    real = folder.resolve()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cwd = Path(os.readlink(f"/proc/{name}/cwd"))
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        if stat[stat.rfind(b")") + 2 :][:1] != b"Z" and (cwd == real or real in cwd.parents):
            found.append(int(name))
    return found


def _published(c: LspClient, after: int, target: str, empty: bool) -> float:
    """Arrival time of the first publish for `target` (from index `after`)
    that is empty, or not."""
    msg = c.wait_for(
        lambda m: (
            m.body.get("method") == PUBLISH
            and m.body["params"]["uri"] == target
            and (not m.body["params"]["diagnostics"]) == empty
        ),
        after,
        CYCLE_TIMEOUT,
    )
    return msg.at


def measure(rounds: int = 3) -> WatchTimes:
    res = WatchTimes()
    if not (TSC_BIN / "tsc").exists():
        res.note = "n/a (tools/node is missing: scripts/install-tools.sh test)"
        return res
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns(".faultlens"))
        (root / "node_modules").symlink_to(TSC_BIN.parent)
        env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
        env["PATH"] = os.pathsep.join([str(TSC_BIN), env.get("PATH", "")])
        env.update({"NO_COLOR": "1", "npm_config_yes": "false"})
        argv = [sys.executable, "-m", "faultlens.cli", "serve", "--stdio"]
        c = LspClient(argv, cwd=tmp, env=env)  # not in root: only the watcher runs there
        path = root / FILE
        broken = path.read_text()
        lines = broken.splitlines(keepends=True)
        lines[1] = "import type { UserProfile } from '../models/user';\n"  # line 2 is blank
        fixed = "".join(lines)
        target = path.as_uri()
        task: Any = None
        try:
            c.initialize(root)
            # the server has loaded (fast_init answers initialize before it does)
            c.request("workspace/executeCommand", {"command": "faultlens.clear", "arguments": [{}]})
            after = len(c.notifications)
            cmd = "npx tsc --watch --preserveWatchOutput -p ."
            res.answer, msg = c.request(
                "workspace/executeCommand",
                {"command": "faultlens.run", "arguments": [{"command": cmd}]},
            )
            t0 = msg.at - res.answer
            task = msg.body["result"]["task"]
            res.first = _published(c, after, target, empty=False) - t0
            for _ in range(rounds):
                for text, empty, into in ((fixed, True, res.cleared), (broken, False, res.shown)):
                    time.sleep(0.3)  # tsc's watcher coalesces changes for 250 ms anyway
                    after = len(c.notifications)
                    t0 = time.perf_counter()
                    path.write_text(text)
                    into.append(_published(c, after, target, empty=empty) - t0)
            t0 = time.perf_counter()
            c.request(
                "workspace/executeCommand",
                {"command": "faultlens.stopTask", "arguments": [{"task": task}]},
            )
            while processes_in(root) and time.perf_counter() - t0 < 30:
                time.sleep(0.02)
            res.stop = time.perf_counter() - t0
            if processes_in(root):
                res.note = "processes were left after faultlens.stopTask"
        except TimeoutError as exc:
            res.note = f"timed out ({exc})"
        finally:
            c.close()
            for pid in processes_in(root):  # never leave a watcher behind
                with contextlib.suppress(OSError):
                    os.killpg(os.getpgid(pid), 9)
    return res


def table(res: WatchTimes) -> list[str]:
    if res.note and not res.cleared:
        return [res.note]

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:,.0f}" if values else "n/a"

    rows = [
        ("faultlens.run answered", ms([res.answer])),
        ("first cycle's TS2304 published", ms([res.first])),
        (f"fix on disk -> diagnostic cleared (median of {len(res.cleared)})", ms(res.cleared)),
        (f"break on disk -> diagnostic shown (median of {len(res.shown)})", ms(res.shown)),
        ("faultlens.stopTask -> no process left", ms([res.stop])),
    ]
    out = ["| tsc --watch, seen by the editor | ms |", "|---|---:|"]
    out += [f"| {k} | {v} |" for k, v in rows]
    return out + ([res.note] if res.note else [])
