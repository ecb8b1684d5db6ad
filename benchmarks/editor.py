"""Editor-side timings of `faultlens serve` over stdio (a raw LSP client).

* start-up: process start -> `initialize` response;
* ingest latency: `faultlens/ingest` of an output -> the last
  `textDocument/publishDiagnostics` it causes (beside efm-langserver's
  didOpen -> publishDiagnostics for the same output);
* responsiveness: hover and code-action round trips while a large output is
  being classified.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .lsp_client import LspClient
from .peers import Efm, pinned

PUBLISH = "textDocument/publishDiagnostics"
QUIET = 0.3  # no further publish for this long: the last one has arrived


def serve_argv() -> list[str]:
    return [sys.executable, "-m", "faultlens.cli", "serve", "--stdio"]


def startup(root: Path, runs: int, cpu: int | None) -> list[float]:
    """Seconds from spawning `faultlens serve` to its initialize response."""
    times = []
    for _ in range(runs):
        c = LspClient(pinned(serve_argv(), cpu), cwd=str(root))
        try:
            times.append(c.initialize(root))
        finally:
            c.close()
    return times


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process (all its threads) used so far."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


@dataclass(slots=True)
class Latency:
    faultlens: list[float] = field(default_factory=list)
    faultlens_cpu: list[float] = field(default_factory=list)  # server CPU seconds per ingest
    diagnostics: int = 0  # diagnostics in the last round's publishes
    efm: list[float] = field(default_factory=list)
    efm_note: str = ""
    hover: list[float] = field(default_factory=list)
    code_action: list[float] = field(default_factory=list)
    during: int = 0  # requests answered before the large output's diagnostics came
    busy_seconds: float = 0.0  # how long the large output took to classify and publish


def _ingest(c: LspClient, output: str, task: str) -> tuple[float, int, list[Any]]:
    """(seconds to the last publish, diagnostics published, the publishes)."""
    data = c.encode(
        {
            "jsonrpc": "2.0",
            "method": "faultlens/ingest",
            "params": {"output": output, "command": "make test", "exitCode": 1, "task": task},
        }
    )
    after = len(c.notifications)
    t0 = time.perf_counter()
    c.send_raw(data)
    last = c.wait_quiet(PUBLISH, after, QUIET, timeout=600)
    pubs = [m.body["params"] for m in c.notifications[after:] if m.body.get("method") == PUBLISH]
    return last - t0, sum(len(p["diagnostics"]) for p in pubs), pubs


def latency(
    output: str, busy_output: str, runs: int, cpu: int | None, efm_cpu: int | None
) -> Latency:
    res = Latency()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        c = LspClient(pinned(serve_argv(), cpu), cwd=str(root))
        try:
            c.initialize(root)
            pubs: list[Any] = []
            for _ in range(runs + 1):  # the first round warms up (rules compiled)
                before = cpu_seconds(c.proc.pid)
                seconds, res.diagnostics, pubs = _ingest(c, output, "bench")
                res.faultlens.append(seconds)
                res.faultlens_cpu.append(cpu_seconds(c.proc.pid) - before)
            res.faultlens = res.faultlens[1:]
            res.faultlens_cpu = res.faultlens_cpu[1:]
            target = next((p for p in pubs if p["diagnostics"]), None)
            if target is not None:
                _responsive(c, busy_output, target, res)
        finally:
            c.close()
        try:
            efm = Efm(root, efm_cpu)
        except (FileNotFoundError, TimeoutError, OSError) as exc:
            res.efm_note = f"n/a ({exc})"
            return res
        try:
            for i in range(runs + 1):
                path = root / f"output-{i}.log"
                path.write_text(output)
                seconds, _ = efm.open_and_wait(path, output)
                res.efm.append(seconds)
            res.efm = res.efm[1:]
        except TimeoutError:
            res.efm_note = "n/a (no diagnostics)"
        finally:
            efm.close()
    return res


def _responsive(c: LspClient, busy_output: str, target: Any, res: Latency) -> None:
    """Hover and code actions on a published diagnostic while `busy_output`
    is being classified (until its diagnostics are published)."""
    uri = target["uri"]
    rng = target["diagnostics"][0]["range"]
    doc = {"uri": uri}
    hover = {"textDocument": doc, "position": rng["start"]}
    action = {
        "textDocument": doc,
        "range": rng,
        "context": {"diagnostics": target["diagnostics"][:1]},
    }
    data = c.encode(
        {
            "jsonrpc": "2.0",
            "method": "faultlens/ingest",
            "params": {"output": busy_output, "command": "make all", "exitCode": 1, "task": "busy"},
        }
    )
    after = len(c.notifications)
    t0 = time.perf_counter()
    c.send_raw(data)
    done = False
    while not done:
        for method, params, out in (
            ("textDocument/hover", hover, res.hover),
            ("textDocument/codeAction", action, res.code_action),
        ):
            seconds, _ = c.request(method, params, timeout=120)
            out.append(seconds)
        # (the busy task's own diagnostics: a previous ingest's late publishes,
        # which clear or re-send other files, must not end the measure)
        done = any(_publishes_task(m.body, "busy") for m in c.notifications[after:])
        if not done:
            res.during += 2
    last = c.wait_quiet(PUBLISH, after, QUIET, timeout=600)
    res.busy_seconds = last - t0


def _publishes_task(body: dict[str, Any], task: str) -> bool:
    """Whether a notification publishes a diagnostic of `task`'s records."""
    if body.get("method") != PUBLISH:
        return False
    diagnostics = (body.get("params") or {}).get("diagnostics") or []
    return any((d.get("data") or {}).get("task") == task for d in diagnostics)


def median_ms(values: list[float]) -> float | None:
    return statistics.median(values) * 1000 if values else None
