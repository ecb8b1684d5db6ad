"""The faultlens benchmark: one command, one table (see docs/benchmarks.md).

    python -m benchmarks.run --size 200MB            # the README table
    python -m benchmarks.run --size 1GB --only classify   # peak RSS on 1 GB
    python -m benchmarks.run --size 256KB --repeat 1 # the tiny CI run

It generates a log (benchmarks/generate.py: real tool noise, one real failure
report per --every lines), then, on that same file and in the same run, times
`faultlens classify` and each peer (grep -E with the rules' trigger keywords,
Vim's errorformat with :cgetfile, efm-langserver fed the file by didOpen),
each pinned to one CPU; then the editor timings of `faultlens serve` (start-up,
ingest -> diagnostics beside efm-langserver, hover and code action while a
large output is classified) and the wall-time cost of `faultlens run` on a
command printing --run-size bytes, and the start-up of the agent hook
(`faultlens hook claude-code`) per tool call.  A peer that is not installed is "n/a".
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import editor, peers
from .generate import Stats, generate, parse_size
from .peers import Result

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("classify", "peers", "editor", "run", "hook", "redact", "state", "watch")


def _mb(n: float) -> str:
    return f"{n / 1e6:,.1f}"


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def write_log(path: Path, size: int, every: int, seed: int, max_lines: int = 0) -> Stats:
    st = Stats()
    with open(path, "wb") as f:
        for chunk in generate(size, every, seed, st, max_lines=max_lines):
            f.write(chunk)
    return st


def best(runs: Sequence[Result]) -> Result:
    """The fastest of the repeated runs (the least disturbed by other load)."""
    ok = [r for r in runs if r.wall is not None]
    return min(ok, key=lambda r: r.wall or 0.0) if ok else runs[0]


def repeat(fn: Callable[[], Result], n: int) -> Result:
    return best([fn() for _ in range(max(1, n))])


def throughput_table(results: Sequence[Result], size: int, lines: int) -> list[str]:
    base = results[0]
    rows = [
        "| tool | how | wall s | MB/s | lines/s | CPU s | MB/s per CPU s | peak RSS MB | found | faultlens is |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        if r.wall is None:
            rows.append(f"| {r.name} | {r.what} | {r.note or peers.NA} | | | | | | | |")
            continue
        mbs = size / r.wall
        cpu_mbs = size / r.cpu if r.cpu else None
        if r is base:
            ratio = "—"
        elif base.wall:
            ratio = f"{r.wall / base.wall:.1f}× faster"
            if r.cpu and base.cpu:
                ratio += f" ({r.cpu / base.cpu:.1f}× by CPU)"
        else:
            ratio = ""
        rows.append(
            f"| {r.name} | {r.what} | {r.wall:.2f} | {_mb(mbs)} | {lines / r.wall:,.0f} | "
            f"{r.cpu:.2f} | {_mb(cpu_mbs) if cpu_mbs else ''} | "
            f"{(r.rss_kb or 0) / 1024:.0f} | {r.found if r.found is not None else ''} | {ratio} |"
        )
    notes = [f"- {r.name}: {r.note}" for r in results if r.note and r.wall is not None]
    return rows + (["", *notes] if notes else [])


def compile_bytecode() -> None:
    """Write the bytecode of faultlens (and of the generator) beside the sources,
    as an installed package has it: pip compiles at install, and a checkout
    writes it on first import unless PYTHONDONTWRITEBYTECODE is set (as on our
    machines), which would time compiling every module from source on every
    run instead of `faultlens run`'s start-up."""
    import compileall

    for folder in ("cli", "classifier", "recipes", "server", "agents", "entry", "benchmarks"):
        compileall.compile_dir(ROOT / folder, quiet=1)


@dataclass(slots=True)
class Overhead:
    """One command timed alone and under `faultlens run` (best of the repeats;
    CPU: user + system of the whole process tree, the command's included)."""

    plain: float
    wrapped: float
    plain_cpu: float
    wrapped_cpu: float

    @property
    def pct(self) -> float:
        return (self.wrapped - self.plain) / self.plain * 100


def _timed(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of argv (output to /dev/null)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT, check=False
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def run_overhead(size: int, seed: int, repeats: int, rate: int = 0) -> Overhead:
    """A command printing `size` bytes (the generator itself, at most `rate`
    bytes a second; `size` 0: `true`, which prints nothing), alone and under
    `faultlens run`; best of repeats."""
    cmd = [sys.executable, "-m", "benchmarks.generate", "--size", str(size), "--seed", str(seed)]
    if rate:
        cmd += ["--rate", str(rate)]
    if not size:
        cmd = ["true"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    compile_bytecode()
    plain: list[tuple[float, float]] = []
    wrapped: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        fl = [
            sys.executable,
            "-m",
            "faultlens.cli",
            "run",
            "--cwd",
            tmp,
            "--workspace",
            tmp,
            "--state-dir",
            str(Path(tmp) / "state"),
            "--",
            *cmd,
        ]
        for _ in range(max(1, repeats)):
            plain.append(_timed(cmd, env))
            wrapped.append(_timed(fl, env))
    return Overhead(
        min(w for w, _ in plain),
        min(w for w, _ in wrapped),
        min(c for _, c in plain),
        min(c for _, c in wrapped),
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    p.add_argument("--size", default="200MB", help="generated log size (default 200MB)")
    p.add_argument("--every", type=int, default=1000, help="one failure per N lines")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3, help="runs per tool; the best counts")
    p.add_argument("--cpu", type=int, default=0, help="CPU to pin each tool to (-1: no pinning)")
    p.add_argument("--log", help="use (or keep) the log at this path")
    p.add_argument(
        "--only", action="append", choices=SECTIONS, help="run only these sections (repeatable)"
    )
    p.add_argument("--editor-lines", type=int, default=10_000, help="ingested output, lines")
    p.add_argument("--editor-failures", type=int, default=50, help="failure reports in it")
    p.add_argument("--busy-size", default="20MB", help="output classified during hovers")
    p.add_argument("--run-size", default="100MB", help="what the `faultlens run` command prints")
    p.add_argument(
        "--run-rate",
        action="append",
        default=[],
        help="also time the command paced at this rate (e.g. 10MB: a long build); repeatable",
    )
    a = p.parse_args(argv)
    size = parse_size(a.size)
    cpu = None if a.cpu < 0 else a.cpu
    sections = set(a.only or SECTIONS)
    compile_bytecode()  # every section times faultlens as installed, not compiled afresh
    out: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        out.append(line)

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(a.log) if a.log else Path(tmp) / "bench.log"
        if a.log and log.is_file():  # the same seed, size, rate gave it: count again, not write
            st = Stats()
            for _ in generate(size, a.every, a.seed, st):
                pass
            if st.bytes != log.stat().st_size:
                raise SystemExit(f"{log}: not the log of --size {a.size} --seed {a.seed}")
        else:
            st = write_log(log, size, a.every, a.seed)
        cores = os.cpu_count() or 1
        pin = f"each tool pinned to CPU {cpu} (taskset)" if cpu is not None else "no pinning"
        say(
            f"# faultlens benchmark: {_mb(st.bytes)} MB, {st.lines:,} lines, one failure report "
            f"per {a.every:,} lines ({st.failures:,} reports), seed {a.seed}"
        )
        say(
            f"{cores} CPUs, {pin}, best of {a.repeat}; "
            f"load average before: {_load()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
        )
        say()
        if sections & {"classify", "peers"}:
            results = [repeat(lambda: peers.faultlens_classify(log, cpu), a.repeat)]
            results.append(peers.faultlens_classify(log, cpu, cold=True))
            if "peers" in sections:
                from faultlens.classifier.rules import all_rules

                keywords = sorted({t for r in all_rules() for t in r.triggers})
                results.append(repeat(lambda: peers.grep_keywords(log, cpu, keywords), a.repeat))
                results.append(repeat(lambda: peers.vim_errorformat(log, cpu), 1))
                results.append(repeat(lambda: peers.faultlens_errorformat(log, cpu), 1))
                results.append(repeat(lambda: peers.efm_langserver(log, cpu), 1))
            say("## Throughput (one CPU)")
            say()
            for row in throughput_table(results, st.bytes, st.lines):
                say(row)
            empty = Path(tmp) / "empty.log"
            empty.touch()
            runs = [peers.faultlens_classify(empty, cpu) for _ in range(max(5, a.repeat))]
            fixed = min((r for r in runs if r.cpu is not None), key=lambda r: r.cpu or 0.0)
            say(
                f"\nfixed start-up (the same command on an empty file, least CPU of {len(runs)}): "
                f"{fixed.cpu or 0.0:.2f} s CPU, {fixed.wall or 0.0:.2f} s wall"
            )
            say(f"\nload average after: {_load()}")
            say()
        if "redact" in sections:
            from .redaction import log_redactor

            r = log_redactor(log, a.repeat)
            say("## Log redaction (in-process, one thread, CPU time of feed + close)")
            say()
            say(
                "| MB/s per CPU s | CPU s | lines masked | secret forms | maintained set | read in |"
            )
            say("|---:|---:|---:|---:|---|---:|")
            say(
                f"| {st.bytes / r.seconds / 1e6:,.0f} | {r.seconds:.3f} | {r.lines_changed} |"
                f" {r.detectors} | {r.maintained} | {r.load_ms:.0f} ms |"
            )
            say()
        if "editor" in sections:
            small = Path(tmp) / "editor.log"
            every = max(1, a.editor_lines // max(1, a.editor_failures))
            es = write_log(small, a.editor_lines * 400, every, a.seed, a.editor_lines)
            busy = Path(tmp) / "busy.log"
            write_log(busy, parse_size(a.busy_size), a.every, a.seed + 1)
            starts = editor.startup(Path(tmp), max(3, a.repeat), cpu)
            lat = editor.latency(
                small.read_text("utf-8", "replace"),
                busy.read_text("utf-8", "replace"),
                max(3, a.repeat * 2 + 1),
                cpu,
                cpu,
            )
            say(
                f"## Editor (faultlens serve over stdio, raw LSP client; ingest of {es.lines:,} "
                f"lines with {es.failures} failure reports)"
            )
            say()
            say("| measure | median ms | runs | beside |")
            say("|---|---:|---:|---|")
            say(
                f"| start-up: spawn -> initialize response | {editor.median_ms(starts):.0f} | {len(starts)} | |"
            )
            efm = editor.median_ms(lat.efm)
            beside = (
                f"efm-langserver didOpen -> diagnostics: {efm:.0f} ms"
                if efm is not None
                else f"efm-langserver: {lat.efm_note or peers.NA}"
            )
            fl = editor.median_ms(lat.faultlens)
            fl_cpu = editor.median_ms(lat.faultlens_cpu) or 0.0
            say(
                f"| faultlens/ingest -> last publishDiagnostics ({lat.diagnostics} diagnostics) | "
                f"{fl:.0f} | {len(lat.faultlens)} | server CPU {fl_cpu:.0f} ms per ingest; {beside} |"
                if fl is not None
                else "| faultlens/ingest -> last publishDiagnostics | n/a | 0 | |"
            )
            busy_mb = _mb(busy.stat().st_size)
            for name, values in (("hover", lat.hover), ("code action", lat.code_action)):
                ms = editor.median_ms(values)
                say(
                    f"| {name} while {busy_mb} MB are classified | "
                    f"{f'{ms:.1f}' if ms is not None else 'n/a'} | {len(values)} | "
                    f"{lat.during} requests answered during {lat.busy_seconds:.1f} s of classification |"
                )
            say()
        if "run" in sections:
            run_size = parse_size(a.run_size)
            say(
                f"## faultlens run (a command printing {_mb(run_size)} MB; not pinned;"
                " bytecode compiled first)"
            )
            say()
            say(
                "| the command prints | command alone s | under faultlens run s | added wall time |"
                " CPU s alone | CPU s under faultlens run |"
            )
            say("|---|---:|---:|---:|---:|---:|")
            for rate in (0, *(parse_size(r) for r in a.run_rate)):
                o = run_overhead(run_size, a.seed, a.repeat, rate)
                pace = f"at most {_mb(rate)} MB/s" if rate else "as fast as it can"
                say(
                    f"| {pace} | {o.plain:.2f} | {o.wrapped:.2f} | {o.pct:+.1f}% |"
                    f" {o.plain_cpu:.2f} | {o.wrapped_cpu:.2f} |"
                )
            o = run_overhead(0, a.seed, a.repeat)
            say(
                f"| nothing (`true`: the fixed cost) | {o.plain:.2f} | {o.wrapped:.2f} |"
                f" +{o.wrapped - o.plain:.2f} s | {o.plain_cpu:.2f} | {o.wrapped_cpu:.2f} |"
            )
            say()
        if "hook" in sections:
            from . import hook

            say("## The agent hook (start-up per tool call; not pinned)")
            say()
            for row in hook.table(hook.measure(max(3, a.repeat * 2 + 1))):
                say(row)
            say()
        if "state" in sections:
            from . import state

            say("## Workspace state (in-process; not pinned)")
            say()
            for row in state.table(state.measure(max(5, a.repeat * 5))):
                say(row)
            say()
        if "watch" in sections:
            from . import watch

            say("## Watch mode (real tsc --watch through `faultlens serve`; not pinned)")
            say()
            for row in watch.table(watch.measure(max(3, a.repeat))):
                say(row)
            say()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
