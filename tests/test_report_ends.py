"""Where a multi-line report ends, on every captured sample.

A report's last block has no next report after it: what follows is whatever
the job printed next (another tool's failure, a CI runner's progress lines).
A block that reads on past its report's end hides the next failure from the
other rules, or turns the noise into records of its own.  Both were found on
real runs (busted's last failure read `make -k`'s next target; pip-audit's
table read the benchmark log's progress lines as vulnerable packages)."""

from __future__ import annotations

import json

import pytest

from benchmarks.generate import noise_pool
from faultlens.classifier.engine import Options, classify_bytes

from .samples_lib import samples

# A whole CI job log ends with the job (the runner's "Cleaning up orphan
# processes"): nothing a next step prints can follow it, and a line after it is
# no step's failure.
FAILING = [
    s
    for s in samples()
    if s.expected
    and s.output.name == "output.txt"
    and not s.output.read_bytes().rstrip().endswith(b"Cleaning up orphan processes")
]

# What the next step of a job could print: a compiler's error line and a
# Python traceback (both from real samples: c/gcc-undeclared-in-function,
# python/name-error), for files that are not the sample's own.
NEXT_FAILURES = {
    "gcc": b"src/extra.c:3:5: error: 'zzz' undeclared (first use in this function)\n",
    "python": (
        b"Traceback (most recent call last):\n"
        b'  File "/tmp/elsewhere/extra.py", line 3, in <module>\n'
        b"    zzz()\n"
        b"NameError: name 'zzz' is not defined\n"
    ),
}


def _output(sample) -> bytes:
    data = sample.output.read_bytes()
    return data if data.endswith(b"\n") else data + b"\n"


@pytest.mark.parametrize("kind", sorted(NEXT_FAILURES))
def test_the_failure_printed_right_after_a_report_still_gets_its_record(kind):
    missed = []
    for sample in FAILING:
        recs = classify_bytes(_output(sample) + NEXT_FAILURES[kind], Options(cwd=str(sample.dir)))
        if not any("zzz" in r.message and "extra" in (r.source_file or "") for r in recs):
            missed.append(sample.id)
    assert len(FAILING) > 400
    assert missed == []


def test_a_ci_jobs_progress_lines_after_a_report_add_no_record():
    noise = b"".join(noise_pool(seed=7, size=300))
    grew = []
    for sample in FAILING:
        opts = Options(cwd=str(sample.dir))
        alone = classify_bytes(_output(sample), opts)
        after = classify_bytes(_output(sample) + noise, opts)
        if len(after) > len(alone):
            extra = [r.signal for r in after if r.id not in {a.id for a in alone}]
            grew.append((sample.id, json.dumps(extra)[:200]))
    assert grew == []
