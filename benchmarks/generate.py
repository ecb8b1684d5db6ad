"""A generator of large, realistic build/CI logs for the benchmark.

Noise is what long CI logs are mostly made of: package installs (pip, npm),
compiler progress (CMake/Ninja, cargo, kbuild, webpack), passing tests
(pytest, go test, cargo test, jest), HTTP request logs, and lines with
tempting words that are not failures ("0 errors", "error_handler.py PASSED",
"found 0 vulnerabilities").  Failures are REAL: at the configured rate, the
complete captured output of one failing tool run is copied from
tests/samples/<family>/<case>/output.txt (every family with a failing text
sample takes part, in turn).

Deterministic: the same seed, size and rate give the same bytes.

    python -m benchmarks.generate --size 200MB --every 1000 --seed 1 -o /tmp/big.log
    python -m benchmarks.generate --size 10MB | faultlens classify
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "samples"
MAX_SAMPLE_LINES = 80  # a failure report longer than this is not used
POOL = 20_000  # distinct noise lines drawn from the templates

_UNITS = {"": 1, "B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}


def parse_size(text: str) -> int:
    """'200MB' -> bytes (KB, MB, GB are powers of 1024)."""
    t = text.strip().upper()
    for unit in ("GB", "MB", "KB", "B", ""):
        if t.endswith(unit) and t[: len(t) - len(unit)].replace(".", "", 1).isdigit():
            return int(float(t[: len(t) - len(unit)]) * _UNITS[unit])
    raise ValueError(f"not a size: {text!r} (e.g. 64KB, 200MB, 1GB)")


@dataclass(frozen=True, slots=True)
class Failure:
    """One real failing run's output, as captured in tests/samples."""

    sample: str  # family/case
    lines: tuple[bytes, ...]
    records: int  # how many records the sample expects


def interleaved(reports: list[Failure]) -> list[Failure]:
    """The reports family by family in turn (the first case of each family,
    then the second, ...): a log of any size holds every family's failures,
    however many cases one family has."""
    by_family: dict[str, list[Failure]] = {}
    for rep in reports:
        by_family.setdefault(rep.sample.split("/", 1)[0], []).append(rep)
    queues = [by_family[f] for f in sorted(by_family)]
    out: list[Failure] = []
    for i in range(max((len(q) for q in queues), default=0)):
        out.extend(q[i] for q in queues if i < len(q))
    return out


def failures(samples: Path = SAMPLES) -> list[Failure]:
    """Every failing text sample short enough to be one report in a long log."""
    found: list[Failure] = []
    for exp in sorted(samples.glob("*/*/expected.json")):
        out = exp.parent / "output.txt"
        if not out.is_file():
            continue  # structured reports (XML, JSON, SARIF) are not log lines
        expected = json.loads(exp.read_text())
        lines = out.read_bytes().splitlines()
        if not expected or not lines or len(lines) > MAX_SAMPLE_LINES:
            continue
        found.append(
            Failure(f"{exp.parent.parent.name}/{exp.parent.name}", tuple(lines), len(expected))
        )
    return _interleaved(found)


def _interleaved(found: list[Failure]) -> list[Failure]:
    """The reports taken one family at a time, in turn (python, rust, ruby,
    ... then each family's second sample): a log of any size holds every
    family's failures, not only the families first in the alphabet."""
    by_family: dict[str, list[Failure]] = {}
    for f in found:
        by_family.setdefault(f.sample.split("/", 1)[0], []).append(f)
    queues = list(by_family.values())
    out: list[Failure] = []
    for i in range(max((len(q) for q in queues), default=0)):
        out.extend(q[i] for q in queues if i < len(q))
    return out


# -- noise -----------------------------------------------------------------------------
_PKGS = [
    "requests",
    "urllib3",
    "idna",
    "certifi",
    "charset-normalizer",
    "numpy",
    "pandas",
    "pydantic",
    "pydantic-core",
    "typing-extensions",
    "attrs",
    "packaging",
    "setuptools",
    "wheel",
    "click",
    "jinja2",
    "markupsafe",
    "pyyaml",
    "sqlalchemy",
    "greenlet",
    "fastapi",
    "starlette",
    "uvicorn",
    "httpx",
    "anyio",
    "sniffio",
    "h11",
    "error-handler",
    "pytest",
    "pluggy",
    "iniconfig",
    "coverage",
    "mypy",
    "ruff",
    "black",
    "isort",
    "tomli",
    "rich",
    "pygments",
]
_NPM = [
    "react",
    "react-dom",
    "lodash",
    "express",
    "typescript",
    "vite",
    "esbuild",
    "rollup",
    "webpack",
    "eslint",
    "@babel/core",
    "@types/node",
    "jest",
    "vitest",
    "chalk",
    "commander",
    "debug",
    "ms",
    "semver",
    "glob",
    "minimatch",
    "inflight",
    "rimraf",
    "uuid",
    "ws",
    "axios",
    "zod",
]
_SRC = [
    "parser",
    "lexer",
    "codegen",
    "runtime",
    "scheduler",
    "error_handler",
    "errors",
    "failover",
    "retry",
    "cache",
    "storage",
    "index",
    "query",
    "planner",
    "router",
    "server",
    "client",
    "config",
    "logger",
    "metrics",
    "auth",
    "session",
]
_CRATES = [
    "serde",
    "serde_json",
    "tokio",
    "hyper",
    "syn",
    "quote",
    "proc-macro2",
    "anyhow",
    "thiserror",
    "regex",
    "libc",
]
_GO = ["api", "handlers", "store", "errors", "internal/retry", "cmd/server", "pkg/auth"]
_PATHS = [
    "/api/v1/users",
    "/api/v1/errors",
    "/api/v1/jobs",
    "/healthz",
    "/static/app.js",
    "/login",
    "/metrics",
]
_METHODS = ["GET", "GET", "GET", "POST", "PUT", "DELETE"]
_STATUS = ["200", "200", "200", "200", "201", "204", "301", "304", "404"]


def _ver(r: random.Random) -> str:
    return f"{r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 20)}"


def _noise_line(r: random.Random) -> str:
    k = r.randrange(24)
    pkg, npm, src = r.choice(_PKGS), r.choice(_NPM), r.choice(_SRC)
    pct = r.randint(0, 100)
    if k == 0:
        return f"Collecting {pkg}=={_ver(r)}"
    if k == 1:
        return f"  Downloading {pkg}-{_ver(r)}-py3-none-any.whl ({r.randint(10, 900)} kB)"
    if k == 2:
        n = r.randint(1, 40)
        return f"     {'━' * n}{' ' * (40 - n)} {r.randint(1, 900)}.{r.randint(0, 9)}/900.0 kB {r.randint(1, 9)}.{r.randint(0, 9)} MB/s eta 0:00:0{r.randint(0, 9)}"
    if k == 3:
        return (
            f"Requirement already satisfied: {pkg}>={_ver(r)} in ./.venv/lib/python3.11/"
            f"site-packages (from {r.choice(_PKGS)}) ({_ver(r)})"
        )
    if k == 4:
        return f"npm warn deprecated {npm}@{_ver(r)}: This version is no longer supported, upgrade to {_ver(r)}"
    if k == 5:
        return f"added {r.randint(1, 900)} packages, and audited {r.randint(1, 900)} packages in {r.randint(1, 40)}s"
    if k == 6:
        return f"[{pct:3d}%] Building CXX object src/CMakeFiles/core.dir/{src}.cpp.o"
    if k == 7:
        return f"[{r.randint(1, 400)}/400] Building C object lib/CMakeFiles/util.dir/{src}.c.o"
    if k == 8:
        return f"   Compiling {r.choice(_CRATES)} v{_ver(r)}"
    if k == 9:
        return f"  CC      kernel/{src}/{r.choice(_SRC)}.o"
    if k == 10:
        return f"tests/test_{src}.py::test_{r.choice(_SRC)}_{r.randint(1, 99)} PASSED{' ' * 20}[{pct:3d}%]"
    if k == 11:
        return (
            f"ok  \tgithub.com/acme/shop/{r.choice(_GO)}\t{r.randint(0, 9)}.{r.randint(100, 999)}s"
        )
    if k == 12:
        return f"test {src}::tests::handles_{r.choice(_SRC)}_{r.randint(1, 99)} ... ok"
    if k == 13:
        return f"  ✓ renders the {src} banner ({r.randint(1, 90)} ms)"
    if k == 14:
        return f"PASS src/components/{src.title()}Boundary.test.tsx ({r.randint(1, 9)}.{r.randint(100, 999)} s)"
    if k == 15:
        return (
            f"10.0.{r.randint(0, 255)}.{r.randint(1, 254)} - - [30/Nov/2026:02:{r.randint(10, 59)}:"
            f'{r.randint(10, 59)} +0000] "{r.choice(_METHODS)} {r.choice(_PATHS)}?page={r.randint(1, 50)} '
            f'HTTP/1.1" {r.choice(_STATUS)} {r.randint(100, 99999)} "-" "Mozilla/5.0 (X11; Linux x86_64)"'
        )
    if k == 16:
        return f'INFO:     127.0.0.1:{r.randint(30000, 65000)} - "{r.choice(_METHODS)} {r.choice(_PATHS)} HTTP/1.1" {r.choice(_STATUS)} OK'
    if k == 17:
        return f"{src}/error_handler.py PASSED"
    if k == 18:
        return f"Compiled {r.randint(10, 400)} files with 0 errors and 0 warnings in {r.randint(1, 9)}.{r.randint(0, 99)}s"
    if k == 19:
        return f"[{r.randint(10, 23)}:{r.randint(10, 59)}:{r.randint(10, 59)}] Found 0 errors. Watching for file changes."
    if k == 20:
        return "found 0 vulnerabilities"
    if k == 21:
        return f"webpack {_ver(r)} compiled successfully in {r.randint(100, 9000)} ms"
    if k == 22:
        return f"2026-11-30 02:{r.randint(10, 59)}:{r.randint(10, 59)},{r.randint(100, 999)} INFO {src}: retrying request {r.randint(1, 9)}/10, no errors so far"
    return f"Successfully installed {pkg}-{_ver(r)} {r.choice(_PKGS)}-{_ver(r)} {r.choice(_PKGS)}-{_ver(r)}"


def noise_pool(seed: int, size: int = POOL) -> list[bytes]:
    r = random.Random(seed)
    return [(_noise_line(r) + "\n").encode() for _ in range(size)]


# -- the log ------------------------------------------------------------------------------
@dataclass(slots=True)
class Stats:
    bytes: int = 0
    lines: int = 0
    failures: int = 0  # failure reports injected
    expected_records: int = 0  # records those samples expect (before de-duplication)


def generate(
    size: int,
    every: int = 1000,
    seed: int = 1,
    stats: Stats | None = None,
    pool: list[bytes] | None = None,
    reports: list[Failure] | None = None,
    max_lines: int = 0,
) -> Iterator[bytes]:
    """Yield chunks until `size` bytes (or `max_lines` lines, when given) were
    produced, cut at a line end.  One failure report per `every` lines on
    average (`every` <= 0: noise only)."""
    st = stats if stats is not None else Stats()
    r = random.Random(seed)
    pool = pool if pool is not None else noise_pool(seed)
    reports = reports if reports is not None else interleaved(failures())
    if not reports:
        every = 0
    turn = r.randrange(len(reports)) if reports else 0
    while st.bytes < size and (not max_lines or st.lines < max_lines):
        if every > 0:  # a report, and noise before it: `every` lines in all, on average
            rep = reports[turn % len(reports)]
            turn += 1
            gap = max(0, r.randint(every // 2, every + every // 2) - len(rep.lines))
            chunk = r.choices(pool, k=gap)
            chunk.extend(line + b"\n" for line in rep.lines)
            st.failures += 1
            st.expected_records += rep.records
        else:
            chunk = r.choices(pool, k=4096)
        data = b"".join(chunk)
        if st.bytes + len(data) > size:  # cut at a line end near the size
            cut = data.rfind(b"\n", 0, size - st.bytes)
            data = data[: cut + 1] if cut >= 0 else data[: data.find(b"\n") + 1]
            if every > 0:  # the report at the chunk's end was cut
                st.failures -= 1
                st.expected_records -= rep.records
        if max_lines and st.lines + len(chunk) > max_lines:  # keep whole lines
            data = b"".join(chunk[: max_lines - st.lines])
            if every > 0 and len(chunk) > max_lines - st.lines:
                st.failures -= 1
                st.expected_records -= rep.records
        st.bytes += len(data)
        st.lines += data.count(b"\n")
        yield data


def write_log(out: BinaryIO, size: int, every: int = 1000, seed: int = 1, rate: int = 0) -> Stats:
    """Write the log; with `rate` (bytes a second), paced like a long build."""
    st = Stats()
    t0 = time.monotonic()
    for data in generate(size, every, seed, st):
        out.write(data)
        if rate:
            out.flush()
            ahead = st.bytes / rate - (time.monotonic() - t0)
            if ahead > 0:
                time.sleep(ahead)
    return st


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.generate", description=__doc__)
    p.add_argument("--size", default="10MB", help="about how much to write (64KB, 200MB, 1GB)")
    p.add_argument("--every", type=int, default=1000, help="one failure per N lines (0: none)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("-o", "--output", help="file to write (default: stdout)")
    p.add_argument(
        "--rate",
        default="",
        help="print at most this many bytes a second (e.g. 20MB; a build's pace)",
    )
    a = p.parse_args(argv)
    size = parse_size(a.size)
    rate = parse_size(a.rate) if a.rate else 0
    if a.output:
        with open(a.output, "wb") as f:
            st = write_log(f, size, a.every, a.seed, rate)
    else:
        st = write_log(sys.stdout.buffer, size, a.every, a.seed, rate)
        sys.stdout.flush()
    print(
        f"{st.bytes} bytes, {st.lines} lines, {st.failures} failure reports "
        f"({st.expected_records} expected records before de-duplication)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
