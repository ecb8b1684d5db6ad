"""What one run tells the team (pure): a run row and its failures'
occurrence rows, each with an idempotent key, every text redacted.

Sent: the failure's id, the test's id, category, the signal (redacted, cut),
the triage verdict; the run's command (redacted), commit and work-tree key,
host, the CI job's URL when the CI says it, exit status and timings.  Never
source code, never a file's content.
"""

from __future__ import annotations

import os
import shlex
import socket
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from ..treestate import TreeState

MAX_SIGNAL = 300


@dataclass(frozen=True, slots=True)
class OccurrenceFact:
    key: str
    failure_id: str
    test_id: str | None
    failure_type: str
    verdict: str | None
    signal: str


@dataclass(frozen=True, slots=True)
class RunFact:
    key: str
    workspace: str
    host: str
    ci_url: str | None
    commit: str | None
    tree: str | None
    command: str
    exit_code: int | None
    started: float
    duration: float | None
    front: str
    mass_failure: bool
    occurrences: tuple[OccurrenceFact, ...] = field(default_factory=tuple)
    tests_total: int | None = None  # the runner's own count, when it printed one
    tests_failed: int | None = None

    def to_json(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__slots__ if k != "occurrences"}
        out["occurrences"] = [{k: getattr(o, k) for k in o.__slots__} for o in self.occurrences]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunFact:
        occ = tuple(OccurrenceFact(**o) for o in data.get("occurrences", []))
        optional = ("tests_total", "tests_failed")  # facts queued by an older version lack them
        fields = {k: data[k] for k in cls.__slots__ if k != "occurrences" and k not in optional}
        fields.update({k: data.get(k) for k in optional})
        return cls(**fields, occurrences=occ)


def ci_job_url(env: Mapping[str, str]) -> str | None:
    """The CI job's page, as the CI says it (GitHub Actions, GitLab,
    Buildkite, Jenkins, Azure Pipelines, CircleCI)."""
    if env.get("GITHUB_RUN_ID") and env.get("GITHUB_REPOSITORY"):
        server = env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
        url = f"{server}/{env['GITHUB_REPOSITORY']}/actions/runs/{env['GITHUB_RUN_ID']}"
        attempt = env.get("GITHUB_RUN_ATTEMPT")
        return f"{url}/attempts/{attempt}" if attempt and attempt != "1" else url
    for name in ("CI_JOB_URL", "BUILDKITE_BUILD_URL", "BUILD_URL", "CIRCLE_BUILD_URL"):
        if env.get(name, "").startswith(("https://", "http://")):
            return env[name]
    return None


def is_mass_failure(
    records: Sequence[FailureRecord],
    share: float,
    tests_total: int | None = None,
    tests_failed: int | None = None,
) -> bool:
    """Most of a run's tests failed: the runner's summary says how many ran
    (`tests_total`, or a record's hint of that name) and how many failed
    (else the test failures' count), and failing tests above `share` of them
    is infrastructure, not flakiness."""
    total = tests_total or 0
    for r in records:
        value = r.hint.get("tests_total")
        if isinstance(value, int) and value > total:
            total = value
    failing = (
        tests_failed
        if tests_failed is not None
        else sum(r.affected for r in records if r.failure_type.value == "test")
    )
    return total >= 5 and failing / total > share


def run_fact(
    *,
    workspace: str,
    command: Sequence[str],
    tree: TreeState | None,
    exit_code: int | None,
    records: Sequence[FailureRecord],
    started: float,
    duration: float | None,
    front: str,
    mass_share: float = 0.8,
    env: Mapping[str, str] | None = None,
    key: str | None = None,
    tests_total: int | None = None,
    tests_failed: int | None = None,
) -> RunFact:
    from faultlens.classifier.redact import redact, redact_argv

    env = os.environ if env is None else env
    run_key = key or uuid.uuid4().hex
    occurrences = []
    for i, r in enumerate(records):
        test = r.hint.get("test_id")
        occurrences.append(
            OccurrenceFact(
                key=f"{run_key}:{i}",
                failure_id=r.id,
                test_id=redact(test)[:500] if isinstance(test, str) and test else None,
                failure_type=r.failure_type.value,
                verdict=r.triage.verdict if r.triage is not None else None,
                signal=redact(r.signal)[:MAX_SIGNAL],
            )
        )
    return RunFact(
        key=run_key,
        workspace=workspace,
        host=socket.gethostname()[:200],
        ci_url=ci_job_url(env),
        commit=tree.head if tree is not None else None,
        tree=tree.tree if tree is not None else None,
        command=shlex.join(redact_argv(list(command)))[:2000],
        exit_code=exit_code,
        started=started,
        duration=duration,
        front=front,
        mass_failure=is_mass_failure(records, mass_share, tests_total, tests_failed),
        occurrences=tuple(occurrences),
        tests_total=tests_total,
        tests_failed=tests_failed,
    )
