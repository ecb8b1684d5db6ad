"""The same output read from a CI runner's log gives the same records.

Runners change every line: Windows runners end lines with CRLF, GitHub
Actions' downloaded logs put an ISO-8601 timestamp before each line, GitLab's
raw job logs (runner 17 with FF_TIMESTAMPS, every runner since 18.7) put a
timestamp and the stream (`2026-12-01T10:00:00.123456Z 00O `), Buildkite an
APC escape (`ESC _ bk;t=<ms> BEL`).  A container build runs the tool inside a
BuildKit step (`#12 3.456 `), docker compose inside a service's column
(`web-1  | `), and `gh run view --log-failed` puts the job's and step's
names before the runner's line (`test\tRun pytest\t2026-…Z `).  The
prefixes are from the tools' documentation and source; the outputs
are every captured sample.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from faultlens.classifier.engine import Options, classify_bytes
from faultlens.classifier.text import decode_line

from .samples_lib import samples

FAILING = [s for s in samples() if s.expected and s.output.name == "output.txt"]


def _each_line(prefix: bytes) -> Callable[[bytes], bytes]:
    return lambda data: b"".join(prefix + line for line in data.splitlines(keepends=True))


RUNNERS: dict[str, Callable[[bytes], bytes]] = {
    "crlf": lambda data: data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"),
    "github-actions": _each_line(b"2026-12-01T10:00:00.1234567Z "),
    "gitlab-stdout": _each_line(b"2026-12-01T10:00:00.123456Z 00O "),
    "gitlab-stderr": _each_line(b"2026-12-01T10:00:00.123456Z 01E "),
    "buildkite": _each_line(b"\x1b_bk;t=1764583200123\x07"),
    # `gh run view --log-failed`: the job's and step's names, then the runner's line
    "gh-run-view-log": _each_line(
        b"test (3.12)\tRun python -m pytest\t2026-12-01T10:00:00.1234567Z "
    ),
    "docker-build": _each_line(b"#12 3.456 "),
    "docker-compose": _each_line(b"web-1  | "),
    "compose-in-a-build-step": _each_line(b"#7 12.001 api_1  | "),
}


def _records(data: bytes, sample) -> list[tuple[object, ...]]:
    recs = classify_bytes(data, Options(cwd=str(sample.dir)))
    # (a record without a file or line sorts before one with: None is not comparable)
    return sorted(
        ((r.rule, r.failure_type.value, r.source_file, r.source_line, r.message) for r in recs),
        key=lambda t: tuple((x is not None, x) for x in t),
    )


@pytest.mark.parametrize("runner", sorted(RUNNERS))
def test_every_sample_read_from_a_runners_log_gives_the_same_records(runner):
    changed = []
    for sample in FAILING:
        data = sample.output.read_bytes()
        data = data if data.endswith(b"\n") else data + b"\n"
        if _records(RUNNERS[runner](data), sample) != _records(data, sample):
            changed.append(sample.id)
    assert len(FAILING) > 400
    assert changed == []


def test_gitlabs_header_is_removed_for_both_streams_and_continued_lines():
    for meta in (b"00O ", b"00E ", b"0aO+"):
        assert decode_line(b"2026-12-01T10:00:00.123456Z " + meta + b"x.py:1: error") == (
            "x.py:1: error"
        )
    # a line that only starts like a header keeps its text
    assert decode_line(b"2026-12-01T10:00:00Z 00Ox") == "00Ox"


def test_a_container_prefix_is_removed_but_text_that_only_looks_like_one_stays():
    assert decode_line(b"#8 0.412 src/app.ts(3,5): error TS2304") == "src/app.ts(3,5): error TS2304"
    assert decode_line(b"worker_2    | Traceback (most recent call last):") == (
        "Traceback (most recent call last):"
    )
    for kept in ("#8 [build 3/5] RUN npm ci", "# comment | pipe", "a | b", "x-1 |y"):
        assert decode_line(kept.encode()) == kept


def test_gh_run_views_job_and_step_names_go_only_before_a_runners_stamp():
    line = b"lint\tRun npx eslint .\t2026-12-01T10:00:00.1234567Z src/a.js:3:9  error  x"
    assert decode_line(line) == "src/a.js:3:9  error  x"
    # tab-separated output of a tool (a TSV, make's recipe lines) keeps its text
    for kept in ("name\tvalue\t2026 was a year Z ok", "a\tb\tc Z d", "\tindented Z line"):
        assert decode_line(kept.encode()) == kept
