"""The test recipe's pure parts: which test a record names (from its hint,
else from its text), and expected-versus-actual read from a runner's output.
The command that re-runs it is built by `test_runners.select` (escaped for the
runner's own matching, nothing outside the workspace)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from faultlens.classifier.lazyre import lazy_compile

from .test_runners import SingleTest, detect, runner_name

__all__ = ["SingleTest", "expected_actual", "find_test"]

_UNITTEST_HEAD = lazy_compile(
    r"^(?:FAIL|ERROR): (?P<method>\w+) \((?P<dotted>[\w.]+)\)", re.MULTILINE | re.ASCII
)
_PYTEST_ID = lazy_compile(r"(?:FAILED|ERROR) (?P<id>\S+?\.py(?:::\S+)+?)(?: - |\s*$)", re.MULTILINE)
_GO_FAIL = lazy_compile(r"--- FAIL: (?P<name>\S+) \(")
_CARGO_FAIL = lazy_compile(r"^---- (?P<name>[\w:]+) stdout ----", re.MULTILINE | re.ASCII)
_JEST_FAIL = lazy_compile(r"●\s+(?P<title>.+?)\s*$", re.MULTILINE)


def find_test(
    tool: str | None, hint: dict[str, object], text: str, command: Sequence[str] | None
) -> SingleTest | None:
    """The failing test a record names in its hint, else in its text (signal +
    message), as the runner of `command` would be told to run it.  The id is
    only checked here for being one argv element (non-empty, no NUL, not an
    option); where it leads is checked when the command is built
    (`test_runners.select`)."""
    found = detect(command) if command else None
    runner = (
        runner_name(str(hint.get("runner") or hint.get("framework") or ""))
        or runner_name(tool)
        or (found[0].name if found else None)
    )
    if runner is None:
        return None
    tid = hint.get("test_id") or hint.get("nodeid") or hint.get("test") or hint.get("test_name")
    cand = str(tid) if isinstance(tid, str) else ""
    if not cand:
        cand = _from_text(runner, text)
    if not cand or "\x00" in cand or cand.startswith("-"):
        return None
    pkg = hint.get("package")
    path = hint.get("test_path")
    file = hint.get("test_file")
    return SingleTest(
        runner,
        cand,
        package=str(pkg) if isinstance(pkg, str) and runner == "go" else None,
        file=str(file) if isinstance(file, str) and file else None,
        path=tuple(str(p) for p in path) if isinstance(path, list) else (),
    )


def _from_text(runner: str, text: str) -> str:
    if runner == "pytest":
        m = _PYTEST_ID.search(text)
        return m.group("id") if m else ""
    if runner == "unittest":
        m = _UNITTEST_HEAD.search(text)
        if m is None:
            return ""
        dotted, method = m.group("dotted"), m.group("method")
        return dotted if dotted.endswith("." + method) else f"{dotted}.{method}"
    if runner == "go":
        m = _GO_FAIL.search(text)
        return m.group("name") if m else ""
    if runner == "cargo":
        m = _CARGO_FAIL.search(text)
        return m.group("name") if m else ""
    if runner in ("jest", "vitest"):
        m = _JEST_FAIL.search(text)
        return " ".join(m.group("title").split(" › ")) if m else ""
    return ""


_PAIRS: tuple[tuple[re.Pattern[str], bool], ...] = (
    # unittest assertEqual: "AssertionError: first != second" (first is actual by convention).
    (lazy_compile(r"AssertionError: (?P<a>.+?) != (?P<b>.+?)\s*$", re.MULTILINE), False),
    # pytest: "assert 1050 == 1000"
    (lazy_compile(r"^E\s+assert (?P<a>.+?) == (?P<b>.+?)\s*$", re.MULTILINE), False),
    # jest / vitest
    (
        lazy_compile(r"Expected:?\s+(?P<b>.+?)\s*\n\s*Received:?\s+(?P<a>.+?)\s*$", re.MULTILINE),
        False,
    ),
    # go testing convention: got X, want Y
    (lazy_compile(r"got:?\s+(?P<a>.+?),?\s+want:?\s+(?P<b>.+?)\s*$", re.MULTILINE), False),
    # cargo assert_eq!
    (lazy_compile(r"left: (?P<a>.+?)\s*\n\s*right: (?P<b>.+?)\s*$", re.MULTILINE), False),
)


def expected_actual(output: str) -> tuple[str, str] | None:
    """(expected, actual) from a failing test's output, when it says."""
    for pattern, _ in _PAIRS:
        m = pattern.search(output)
        if m:
            return m.group("b").strip()[:300], m.group("a").strip()[:300]
    return None
