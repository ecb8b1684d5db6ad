"""What a re-run really proved (pass, flaky, recovered).  Pure (text in, findings out).

- A re-run of some tests counts as a pass only when the runner's own summary
  says at least one test ran and passed and none failed: vitest "485 skipped",
  pytest "no tests ran" (exit 5), go "no tests to run", cargo "0 passed; ...
  filtered out", mocha "0 passing", unittest "Ran 0 tests", node:test "# tests
  0", phpunit "No tests executed!" are never a pass, whatever the exit status.
- A test is *flaky* only when it failed, then passed on its own re-run with
  nothing changed in between (the caller guarantees "nothing changed").
- A failure is *recovered* only when the original command, re-run, no longer
  reports it and reports no failure that was not there before (`compare`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from faultlens.classifier.lazyre import lazy_compile

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .fixes.test_runners import SingleTest

_ANSI = lazy_compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def plain(output: str) -> str:
    return _ANSI.sub("", output).replace("\r\n", "\n")


@dataclass(slots=True)
class Tally:
    """A runner's own count of what ran."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    # The summary line it was read from (shown when a re-run proves nothing).
    line: str = ""

    @property
    def ran(self) -> int:
        return self.passed + self.failed


def _count(text: str, word: str) -> int:
    m = re.search(rf"(\d+) {word}", text)
    return int(m.group(1)) if m else 0


def _last(pattern: str, text: str, flags: int = re.MULTILINE) -> re.Match[str] | None:
    found = None
    for found in re.finditer(pattern, text, flags):  # noqa: B007 - the last one
        pass
    return found


def _tally_pytest(text: str) -> Tally | None:
    # [ \t], not \s: the match stays on the summary's own line.
    m = _last(r"^=*[ \t]*((?:\d+ \w+(?:, )?)+|no tests ran)(?: in [\d.]+s.*)?[ \t]*=*[ \t]*$", text)
    if m is None:
        return None
    s = m.group(1)
    return Tally(
        _count(s, "passed") + _count(s, "xpassed"),
        _count(s, "failed") + _count(s, "error"),
        _count(s, "skipped") + _count(s, "deselected") + _count(s, "xfailed"),
        m.group(0).strip(" ="),
    )


def _tally_unittest(text: str) -> Tally | None:
    ran = _last(r"^Ran (\d+) tests? in ", text)
    if ran is None:
        return None
    end = _last(r"^(OK|FAILED)(?: \((.*)\))?\s*$", text)
    detail = end.group(2) or "" if end else ""
    failed = _count_kw(detail, "failures") + _count_kw(detail, "errors")
    failed += _count_kw(detail, "unexpected successes")
    skipped = _count_kw(detail, "skipped") + _count_kw(detail, "expected failures")
    total = int(ran.group(1))
    return Tally(max(0, total - failed - skipped), failed, skipped, ran.group(0).strip())


def _count_kw(detail: str, key: str) -> int:
    m = re.search(rf"{key}=(\d+)", detail)
    return int(m.group(1)) if m else 0


def _tally_go(text: str) -> Tally | None:
    passed = len(re.findall(r"^\s*--- PASS: ", text, re.MULTILINE))
    failed = len(re.findall(r"^\s*--- FAIL: ", text, re.MULTILINE))
    skipped = len(re.findall(r"^\s*--- SKIP: ", text, re.MULTILINE))
    if not (passed or failed or skipped) and not re.search(r"^(?:ok|FAIL)\s", text, re.M):
        return None
    line = "no tests to run" if "no tests to run" in text else f"{passed} passed, {failed} failed"
    return Tally(passed, failed, skipped, line)


def _tally_cargo(text: str) -> Tally | None:
    rows = re.findall(
        r"test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured;"
        r" (\d+) filtered out",
        text,
    )
    if not rows:
        return None
    p = sum(int(r[0]) for r in rows)
    f = sum(int(r[1]) for r in rows)
    s = sum(int(r[2]) + int(r[3]) for r in rows)
    return Tally(p, f, s, f"{p} passed; {f} failed; {s} ignored or filtered out")


def _tests_line(pattern: str, text: str) -> Tally | None:
    """jest's and vitest's summary line (`Tests:  1 failed, 3 passed, 4 total`,
    ` Tests  3 passed (3)`): the counts of its group 1, todo counted skipped."""
    m = _last(pattern, text)
    if m is None:
        return None
    s = m.group(1)
    return Tally(
        _count(s, "passed"),
        _count(s, "failed"),
        _count(s, "skipped") + _count(s, "todo"),
        m.group(0).strip(),
    )


def _tally_jest(text: str) -> Tally | None:
    return _tests_line(r"^Tests:\s+(.*)$", text)


def _tally_vitest(text: str) -> Tally | None:
    found = _tests_line(r"^\s*Tests\s+(\d.*)$", text)
    if found is None and re.search(r"No test files found|No test found", text):
        return Tally(line="no test found")
    return found


def _tally_mocha(text: str) -> Tally | None:
    m = _last(r"^\s*(\d+) passing\b.*$", text)
    if m is None:
        return None
    tail = text[m.start() :]
    return Tally(
        int(m.group(1)),
        _count(tail, "failing"),
        _count(tail, "pending"),
        m.group(0).strip(),
    )


def _tally_node(text: str) -> Tally | None:
    # TAP ("# tests 3") or the spec reporter ("ℹ tests 3").
    tests = _last(r"^(?:#|ℹ) tests (\d+)\s*$", text)
    if tests is None:
        return None
    tail = text[tests.start() :]

    def n(word: str) -> int:
        m = re.search(rf"^(?:#|ℹ) {word} (\d+)\s*$", tail, re.MULTILINE)
        return int(m.group(1)) if m else 0

    return Tally(
        n("pass"),
        n("fail") + n("cancelled"),
        n("skipped") + n("todo"),
        f"tests {tests.group(1)}, pass {n('pass')}, fail {n('fail')}",
    )


def _tally_uvu(text: str) -> Tally | None:
    total = _last(r"^\s*Total:\s+(\d+)\s*$", text)
    if total is None:
        return None
    tail = text[total.start() :]
    passed = re.search(r"^\s*Passed:\s+(\d+)", tail, re.MULTILINE)
    skipped = re.search(r"^\s*Skipped:\s+(\d+)", tail, re.MULTILINE)
    p = int(passed.group(1)) if passed else 0
    k = int(skipped.group(1)) if skipped else 0
    n = int(total.group(1))
    return Tally(p, max(0, n - p - k), k, f"Total {n}, Passed {p}, Skipped {k}")


def _tally_maven(text: str) -> Tally | None:
    m = _last(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)", text)
    if m is None:
        return Tally(line="no tests were executed") if "No tests" in text else None
    run, fail, err, skip = (int(x) for x in m.groups())
    return Tally(run - fail - err - skip, fail + err, skip, m.group(0))


def _tally_rspec(text: str) -> Tally | None:
    m = _last(r"^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?", text)
    if m is None:
        return None
    total, failed = int(m.group(1)), int(m.group(2))
    pending = int(m.group(3) or 0)
    return Tally(total - failed - pending, failed, pending, m.group(0))


def _tally_minitest(text: str) -> Tally | None:
    # "2 runs, 2 assertions, 1 failures, 0 errors, 0 skips" (minitest 5)
    m = _last(r"^(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) skips", text)
    if m is None:
        return None
    runs, failed, errors, skips = (int(x) for x in m.groups())
    return Tally(runs - failed - errors - skips, failed + errors, skips, m.group(0))


def _tally_phpunit(text: str) -> Tally | None:
    if "No tests executed" in text:
        return Tally(line="No tests executed!")
    ok = _last(r"^OK \((\d+) tests?, \d+ assertions?\)", text)
    if ok is not None:
        return Tally(int(ok.group(1)), 0, 0, ok.group(0))
    m = _last(r"^Tests: (\d+), Assertions: \d+(.*)$", text)
    if m is None:
        return None
    rest = m.group(2)
    failed = _count_colon(rest, "Failures") + _count_colon(rest, "Errors")
    skipped = _count_colon(rest, "Skipped") + _count_colon(rest, "Incomplete")
    return Tally(int(m.group(1)) - failed - skipped, failed, skipped, m.group(0))


def _count_colon(text: str, key: str) -> int:
    m = re.search(rf"{key}: (\d+)", text)
    return int(m.group(1)) if m else 0


def _tally_gradle(text: str) -> Tally | None:
    # Gradle prints no count by default; `--tests X` that matches nothing fails
    # the build ("No tests found for given includes").
    if "No tests found for given includes" in text:
        return Tally(line="No tests found for given includes")
    m = _last(r"(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?", text)
    if m is not None:
        total, failed = int(m.group(1)), int(m.group(2))
        return Tally(total - failed, failed, int(m.group(3) or 0), m.group(0))
    if "BUILD SUCCESSFUL" in text:
        return Tally(1, 0, 0, "BUILD SUCCESSFUL")
    return None


TALLIES: dict[str, Callable[[str], Tally | None]] = {
    "pytest": _tally_pytest,
    "unittest": _tally_unittest,
    "go": _tally_go,
    "cargo": _tally_cargo,
    "jest": _tally_jest,
    "vitest": _tally_vitest,
    "mocha": _tally_mocha,
    "node": _tally_node,
    "uvu": _tally_uvu,
    "maven": _tally_maven,
    "gradle": _tally_gradle,
    "rspec": _tally_rspec,
    "minitest": _tally_minitest,
    "phpunit": _tally_phpunit,
}


def tally(runner: str, output: str) -> Tally | None:
    """The runner's own summary of a run, or None when it printed none."""
    func = TALLIES.get(runner)
    return func(plain(output)) if func else None


def proves_a_pass(runner: str, output: str, exit_code: int | None) -> tuple[bool, str]:
    """Whether a re-run passed by the runner's own word: (passed, why not)."""
    t = tally(runner, output)
    if exit_code != 0:
        return False, f"exit {exit_code}"
    if t is None:
        return False, f"{runner} printed no summary of what ran"
    if t.failed:
        return False, t.line
    if t.passed < 1:
        return False, f"no test ran ({t.line})" if t.line else "no test ran"
    return True, t.line


# -- per-test results of a re-run ---------------------------------------------------------
def _unittest_ids(text: str, outcome: str) -> set[str]:
    out = set()
    for m in re.finditer(
        r"^(?P<method>\w+) \((?P<dotted>[\w.]+)\)(?:\n[^\n]*)? \.\.\. (?P<res>ok|FAIL|ERROR)\b",
        text,
        re.MULTILINE,
    ):
        if m.group("res") != outcome:
            continue
        dotted, method = m.group("dotted"), m.group("method")
        out.add(dotted if dotted.endswith("." + method) else f"{dotted}.{method}")
    return out


def passed_ids(runner: str, output: str) -> set[str]:
    """The test ids the runner itself reported as passed (where it names them)."""
    text = plain(output)
    if runner == "pytest":
        return {m.strip() for m in re.findall(r"^PASSED (.+)$", text, re.MULTILINE)}
    if runner == "unittest":
        return _unittest_ids(text, "ok")
    if runner == "go":
        return set(re.findall(r"^\s*--- PASS: (\S+) \(", text, re.MULTILINE))
    if runner == "cargo":
        return set(re.findall(r"^test (.+?) \.\.\. ok$", text, re.MULTILINE))
    return set()


def failed_ids(runner: str, output: str) -> set[str]:
    """The test ids the runner itself reported as failed (where it names them)."""
    text = plain(output)
    if runner == "pytest":
        found = re.findall(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", text, re.MULTILINE)
        return {f.strip() for f in found}
    if runner == "unittest":
        return _unittest_ids(text, "FAIL") | _unittest_ids(text, "ERROR")
    if runner == "go":
        return set(re.findall(r"^\s*--- FAIL: (\S+) \(", text, re.MULTILINE))
    if runner == "cargo":
        return set(re.findall(r"^test (.+?) \.\.\. FAILED$", text, re.MULTILINE))
    return set()


def record_tests(records: Iterable[FailureRecord]) -> set[str]:
    """Every test id a set of records names (their own and their group's)."""
    out: set[str] = set()
    for r in records:
        tid = r.hint.get("test_id")
        if isinstance(tid, str) and tid:
            out.add(tid)
        for loc in r.related:
            if loc.test:
                out.add(loc.test)
    return out


TestResult = Literal["passed", "failed", "not_run"]


@dataclass(slots=True)
class RerunResult:
    """What one re-run of some tests showed, test by test."""

    runner: str
    results: dict[str, TestResult] = field(default_factory=dict)
    summary: str = ""
    exit_code: int | None = None


def judge_rerun(
    runner: str,
    tests: Sequence[SingleTest],
    output: str,
    exit_code: int | None,
    records: Sequence[FailureRecord] = (),
) -> RerunResult:
    """Each re-run test's result: `passed` only on the runner's own evidence (it
    names the test as passed — pytest, unittest, go, cargo, and the JS runners'
    listings, recipes/js_results.py —, or its summary counts every selected
    test as passed with none failed and the run exited 0, and it did not list
    the test as skipped), `failed` when the runner or the classifier reports it
    failing, else `not_run`."""
    t = tally(runner, output)
    failing = failed_ids(runner, output) | record_tests(records)
    passing = passed_ids(runner, output)
    unique = {s.test_id for s in tests}
    all_passed = (
        exit_code == 0 and t is not None and t.failed == 0 and t.passed >= max(1, len(unique))
    )
    from .js_results import per_test

    listing = per_test(runner, plain(output), tests)  # JS runners: each test's line
    res = RerunResult(runner, summary=t.line if t else "no summary printed", exit_code=exit_code)
    for s in tests:
        seen = listing.get(s.test_id)
        if s.test_id in failing or _named_in(s, failing) or seen == "failed":
            res.results[s.test_id] = "failed"
        elif s.test_id in passing or seen == "passed" or (all_passed and seen != "skipped"):
            res.results[s.test_id] = "passed"
        else:
            res.results[s.test_id] = "not_run"
    return res


def _named_in(test: SingleTest, names: set[str]) -> bool:
    """A JS test whose full title (suite names and test name) is among `names`."""
    return bool(test.path) and " ".join(test.path) in names


# -- the final comparison ------------------------------------------------------------------------
def base_id(failure_id: str) -> str:
    """The fingerprint without the `.2` suffix the engine adds to repeats."""
    head, _, tail = failure_id.rpartition(".")
    return head if head and tail.isdigit() else failure_id


@dataclass(slots=True)
class Comparison:
    """The original run's failures against a re-run of the original command."""

    gone: list[str] = field(default_factory=list)  # ids no longer reported
    still: list[str] = field(default_factory=list)  # ids still reported
    new: list[FailureRecord] = field(default_factory=list)  # failures that were not there


def compare(before: Sequence[FailureRecord], after: Sequence[FailureRecord]) -> Comparison:
    """Which of `before` are gone from `after`, which remain, which are new
    (matched by the stable fingerprint, which survives line shifts)."""
    after_ids = {base_id(r.id) for r in after}
    before_ids = {base_id(r.id) for r in before}
    out = Comparison()
    for r in before:
        (out.still if base_id(r.id) in after_ids else out.gone).append(r.id)
    out.new = [r for r in after if base_id(r.id) not in before_ids]
    return out
