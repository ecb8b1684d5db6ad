"""Coverage gates: a test run whose tests passed but whose coverage is
below the threshold the project set (jest, vitest, pytest-cov, coverage.py).

The tests are the project's own; what failed is that they leave too much of
the code unexercised: test, at the configuration that sets the threshold
(the line naming it, classifier/manifests.py), with what was measured and
what was required in the hint.
"""

from __future__ import annotations

import re

from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

ECOSYSTEM = "Any tool (coverage gates)"

# Where each tool's threshold is usually set, and the word that names it there.
_CONFIGS: dict[str, tuple[tuple[str, ...], str]] = {
    "jest": (
        (*(f"jest.config.{e}" for e in ("js", "ts", "mjs", "cjs", "json")), "package.json"),
        "coverageThreshold",
    ),
    "vitest": (
        tuple(f"{n}.config.{e}" for n in ("vitest", "vite") for e in ("ts", "js", "mts", "mjs")),
        "thresholds",
    ),
    "pytest-cov": (("pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"), "cov-fail-under"),
    "coverage": ((".coveragerc", "pyproject.toml", "setup.cfg", "tox.ini"), "fail_under"),
}


@rule(
    id="coverage.threshold",
    category=FailureType.TEST,
    tool="coverage",
    pattern=(
        r"^(?:Jest: Coverage for (?P<jmetric>\w+) \((?P<jgot>[\d.]+)%\) does not meet "
        r"\"(?P<jscope>[^\"]+)\" threshold \((?P<jwant>[\d.]+)%\)"
        r"|Jest: \"(?P<oscope>[^\"]+)\" coverage threshold for (?P<ometric>\w+) \((?P<owant>[\d.]+)%\)"
        r" not met: (?P<ogot>[\d.]+)%"
        r"|ERROR: Coverage for (?P<vmetric>\w+) \((?P<vgot>[\d.]+)%\) does not meet "
        r"(?:(?P<vglobal>global)|\"(?P<vscope>[^\"]+)\") threshold \((?P<vwant>[\d.]+)%\)"
        r"|FAIL Required test coverage of (?P<pwant>[\d.]+)% not reached\. "
        r"Total coverage: (?P<pgot>[\d.]+)%"
        r"|Coverage failure: total of (?P<cgot>[\d.]+) is less than fail-under=(?P<cwant>[\d.]+))\s*$"
    ),
    triggers=(
        "Jest: Coverage for ",
        "coverage threshold for ",
        "ERROR: Coverage for ",
        "FAIL Required test coverage of ",
        "Coverage failure: total of ",
    ),
    url="https://jestjs.io/docs/configuration#coveragethreshold-object",
)
def coverage_threshold(m: re.Match[str], ctx: LineContext) -> Hit:
    """A coverage threshold the run did not reach.

    What it detects: jest's `Jest: Coverage for lines (50%) does not meet
    "global" threshold (90%)` (jest 30; `Jest: "global" coverage threshold
    for lines (90%) not met: 50%` before), vitest's `ERROR: Coverage for
    lines (33.33%) does not meet global threshold (90%)`, pytest-cov's
    `FAIL Required test coverage of 90% not reached. Total coverage:
    66.67%` and `coverage report`'s `Coverage failure: total of 75 is less
    than fail-under=90`; pytest-cov's `Required test coverage of 50%
    reached.` is no failure. The record is in the tool's usual config file
    that exists (jest.config.* or package.json, vitest.config.*,
    pytest.ini / pyproject.toml / setup.cfg / tox.ini, .coveragerc), at the
    line naming the threshold when it is there.

    Example output (`jest --coverage`, jest 30.5.2):
        Jest: Coverage for lines (50%) does not meet "global" threshold (90%)

    Recipe: test: write the missing tests (the uncovered lines are in the
    coverage table above), or change the threshold; escalated with both
    numbers. hint: metric, actual, threshold, scope.

    References: https://jestjs.io/docs/configuration#coveragethreshold-object,
    https://vitest.dev/config/#coverage-thresholds,
    https://pytest-cov.readthedocs.io/en/latest/config.html,
    https://coverage.readthedocs.io/en/latest/config.html#report-fail-under
    """
    g = m.groupdict()
    if g["jmetric"] or g["ometric"]:
        tool = "jest"
        metric, got, want = (
            (g["jmetric"], g["jgot"], g["jwant"])
            if g["jmetric"]
            else (g["ometric"], g["ogot"], g["owant"])
        )
        scope = g["jscope"] or g["oscope"]
    elif g["vmetric"]:
        tool, metric, got, want = "vitest", g["vmetric"], g["vgot"], g["vwant"]
        scope = g["vscope"] or "global"
    elif g["pwant"]:
        tool, metric, got, want, scope = "pytest-cov", "total", g["pgot"], g["pwant"], "total"
    else:
        tool, metric, got, want, scope = "coverage", "total", g["cgot"], g["cwant"], "total"
    files, option = _CONFIGS[tool]
    config = next((f for f in files if ctx.exists(f)), None)
    hint = {"metric": metric, "actual": got, "threshold": want, "scope": scope}
    if config is not None:
        hint["config_option"] = option
    return Hit(
        signal=ctx.line.strip(),
        message=f"{tool}: {metric} coverage {got}% is below the {want}% threshold ({scope})",
        file=config,
        tool=tool,
        code="coverage-threshold",
        hint=hint,
        key=("coverage", tool, scope, metric),
    )
