"""The benchmark still works: its generator is realistic and deterministic, and
the benchmark command runs end to end at a tiny size (no timing is asserted:
the numbers live in docs/benchmarks.md, measured by `python -m benchmarks.run`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.generate import Stats, failures, generate, noise_pool, parse_size
from faultlens.classifier.engine import Options, classify_bytes

ROOT = Path(__file__).resolve().parents[1]


def test_sizes_parse_in_binary_units():
    assert parse_size("64KB") == 64 * 1024
    assert parse_size("200MB") == 200 * 1024 * 1024
    assert parse_size("1GB") == 1 << 30
    with pytest.raises(ValueError):
        parse_size("lots")


def test_generator_is_deterministic_for_a_seed():
    a = b"".join(generate(200_000, 500, seed=7))
    b = b"".join(generate(200_000, 500, seed=7))
    c = b"".join(generate(200_000, 500, seed=8))
    assert a == b
    assert a != c
    assert a.endswith(b"\n")
    assert 200_000 <= len(a) < 200_000 + 10_000


def test_generator_stops_at_a_line_count():
    st = Stats()
    data = b"".join(generate(10**9, 200, seed=1, stats=st, max_lines=5000))
    assert data.count(b"\n") == 5000 == st.lines
    assert 20 <= st.failures <= 30


def test_noise_alone_is_never_a_failure(tmp_path):
    """The noise has tempting words ("0 errors", "error_handler.py PASSED",
    "found 0 vulnerabilities", request logs) and must give no record."""
    noise = b"".join(noise_pool(seed=3, size=20_000))
    assert b"0 errors" in noise and b"error_handler.py PASSED" in noise
    assert classify_bytes(noise, Options(cwd=str(tmp_path))) == []


def test_injected_failures_are_real_samples_and_are_found(tmp_path):
    reports = failures()
    families = {f.sample.split("/")[0] for f in reports}
    assert {"python", "typescript", "rust", "c", "go", "java", "js_test"} <= families
    st = Stats()
    data = b"".join(generate(2_000_000, 400, seed=1, stats=st))
    assert st.failures > 50
    records = classify_bytes(data, Options(cwd=str(tmp_path)))
    assert len({r.failure_type for r in records}) >= 6


@pytest.mark.slow
def test_benchmark_command_prints_its_tables_at_a_tiny_size():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.run",
            "--size",
            "128KB",
            "--every",
            "200",
            "--repeat",
            "1",
            "--editor-lines",
            "1000",
            "--editor-failures",
            "5",
            "--busy-size",
            "256KB",
            "--run-size",
            "256KB",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = proc.stdout
    assert "## Throughput (one CPU)" in out
    assert "fixed start-up (the same command on an empty file" in out
    rows = {line.split("|")[1].strip(): line for line in out.splitlines() if line.startswith("| ")}
    for tool in ("faultlens classify", "grep -E", "vim errorformat", "efm-langserver"):
        assert tool in rows, out
    classify = [c.strip() for c in rows["faultlens classify"].split("|")]
    assert float(classify[3]) > 0 and int(classify[9]) > 0  # wall seconds, records found
    assert "faultlens/ingest -> last publishDiagnostics" in out
    assert "start-up: spawn -> initialize response" in out
    assert "## faultlens run" in out


@pytest.mark.slow  # several processes: the full suite's, not the inner loop's
def test_the_recover_benchmark_runs_end_to_end_at_a_tiny_size():
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.recover",
            "--tests",
            "3",
            "--repeat",
            "1",
            "--runner",
            "unittest",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    (row,) = [line for line in res.stdout.splitlines() if line.startswith("| unittest")]
    assert "(exit 1)" in row and row.count("(exit 0)") == 1  # broken bare, recovered


@pytest.mark.slow  # several processes: the full suite's, not the inner loop's
def test_the_triage_benchmark_runs_end_to_end_at_a_tiny_size():
    res = subprocess.run(
        [sys.executable, "-m", "benchmarks.triage", "--repeat", "1", "--runs", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    rows = [line for line in res.stdout.splitlines() if line.startswith("| ")]
    assert any("stale branch" in r for r in rows) and any("history()" in r for r in rows)


def test_the_fix_rate_breakages_are_deterministic_and_of_each_kind(tmp_path):
    from benchmarks.fixrate import PROJECTS, cases

    (tmp_path / "src" / "cachetools").mkdir(parents=True)
    (tmp_path / "src" / "cachetools" / "m.py").write_text(
        "import time\nfrom functools import wraps\n\n\ndef timed(func, label):\n"
        "    @wraps(func)\n    def inner(*args):\n        start = time.monotonic()\n"
        "        return func(*args), label, time.monotonic() - start\n\n    return inner\n"
    )
    (python,) = [p for p in PROJECTS if p.name == "cachetools"]
    first = cases(python, tmp_path, 5, 3, 2, seed=1)
    again = cases(python, tmp_path, 5, 3, 2, seed=1)
    assert [c.text for c in first] == [c.text for c in again]
    kinds = {c.kind for c in first}
    assert kinds == {"import", "typo", "drop"}
    (gone,) = [c for c in first if c.what == "import time"]
    assert "import time" not in gone.text and "from functools import wraps" in gone.text
    for typo in (c for c in first if c.kind == "typo"):
        assert typo.text != (tmp_path / "src" / "cachetools" / "m.py").read_text()


def test_the_fix_rate_breaks_code_not_comments_or_strings_and_a_use_with_its_attributes():
    import random

    from benchmarks.fixrate import _import_cases, _typo_cases

    rust = '#[cfg(feature = "x")]\nuse x::y;\nuse core::str;\n'
    gone = {c.what: c.text for c in _import_cases("rust", "lib.rs", rust)}
    assert gone["use x::y;"] == "use core::str;\n"  # the attribute went with it
    ts = "import type {\n  A,\n  B,\n} from './a'\nimport { C } from './c'\nconst x = 1\n"
    gone = {c.what: c.text for c in _import_cases("typescript", "i.ts", ts)}
    assert gone["import type {"] == "import { C } from './c'\nconst x = 1\n"  # all its lines
    assert (
        gone["import { C } from './c'"] == "import type {\n  A,\n  B,\n} from './a'\nconst x = 1\n"
    )
    js = (
        "/*\n * val is a value\n */\nfunction f () {\n  var val = g()\n"
        "  if (!val) throw new TypeError('argument val is invalid')\n  return val\n}\n"
    )
    typos = _typo_cases("javascript", "i.js", js, random.Random(3))
    assert typos and all(c.what.startswith(("i.js:6 ", "i.js:7 ")) for c in typos)
    assert all("'argument val is invalid'" in c.text for c in typos)
    ts = "function f () {\n  const value = g()\n  h(value)\n  return { done: false, value: 1 }\n}\n"
    typos = _typo_cases("typescript", "i.ts", ts, random.Random(3))
    assert [c.what.split(" ")[0] for c in typos] == ["i.ts:3"]  # not the key `value:`
