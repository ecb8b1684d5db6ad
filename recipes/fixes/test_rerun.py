"""The test recipe's pure parts: the command that re-runs one failing test,
and expected-versus-actual read from a test runner's output.

Every value taken from output (node id, test name, package) is validated
before it becomes an argv element; a value that fails is never used.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..safety import valid

_UNITTEST_HEAD = re.compile(
    r"^(?:FAIL|ERROR): (?P<method>\w+) \((?P<dotted>[\w.]+)\)", re.MULTILINE | re.ASCII
)
_PYTEST_ID = re.compile(r"(?:FAILED|ERROR) (?P<id>[\w./-]+\.py(?:::[\w\[\].,=+-]+)+)", re.ASCII)
_GO_FAIL = re.compile(r"--- FAIL: (?P<name>\w+(?:/[\w-]+)*)", re.ASCII)
_CARGO_FAIL = re.compile(r"^---- (?P<name>[\w:]+) stdout ----", re.MULTILINE | re.ASCII)
_JEST_FAIL = re.compile(r"●\s+(?P<title>.+?)\s*$", re.MULTILINE)


@dataclass(slots=True, frozen=True)
class SingleTest:
    """One failing test, as a runner can be told to run it alone."""

    framework: str  # pytest | unittest | jest | vitest | go | cargo
    test_id: str  # pytest node id / unittest dotted id / title / Go or Rust name
    package: str | None = None  # go package (./pkg) when known


def _frame_tool(argv: Sequence[str]) -> str | None:
    """Which runner a command is: pytest, unittest, jest, vitest, go, cargo."""
    names = [os.path.basename(a) for a in argv]
    if "pytest" in names or "py.test" in names:
        return "pytest"
    if len(argv) >= 3 and names[0].startswith("python") and argv[1] == "-m":
        return {"pytest": "pytest", "unittest": "unittest"}.get(argv[2])
    if "jest" in names:
        return "jest"
    if "vitest" in names:
        return "vitest"
    if names and names[0] == "go" and "test" in argv[1:2]:
        return "go"
    if names and names[0] == "cargo" and "test" in argv[1:3]:
        return "cargo"
    return None


def find_test(
    tool: str | None, hint: dict[str, object], text: str, command: Sequence[str] | None
) -> SingleTest | None:
    """The failing test named by a record's hint or its text (signal + message)."""
    runner = hint.get("runner") or hint.get("framework")
    framework = str(runner or tool or "").lower() or (_frame_tool(command) if command else "") or ""
    if command and framework not in {"pytest", "unittest", "jest", "vitest", "go", "cargo"}:
        framework = _frame_tool(command) or framework
    tid = hint.get("test_id") or hint.get("nodeid") or hint.get("test")
    name = hint.get("test_name") or hint.get("name")
    pkg = hint.get("package")
    if framework == "pytest":
        cand = str(tid) if tid else ""
        if not cand:
            m = _PYTEST_ID.search(text)
            cand = m.group("id") if m else ""
        return SingleTest("pytest", cand) if valid("pytest_id", cand) else None
    if framework == "unittest":
        cand = str(tid) if tid else ""
        if not cand:
            m = _UNITTEST_HEAD.search(text)
            if m:
                dotted, method = m.group("dotted"), m.group("method")
                cand = dotted if dotted.endswith("." + method) else f"{dotted}.{method}"
        return SingleTest("unittest", cand) if valid("unittest_id", cand) else None
    if framework == "go":
        cand = str(tid or name or "")
        if not cand:
            m = _GO_FAIL.search(text)
            cand = m.group("name") if m else ""
        package = str(pkg) if isinstance(pkg, str) and valid("go_package", pkg) else None
        return SingleTest("go", cand, package) if valid("go_test", cand) else None
    if framework == "cargo":
        cand = str(tid or name or "")
        if not cand:
            m = _CARGO_FAIL.search(text)
            cand = m.group("name") if m else ""
        return SingleTest("cargo", cand) if valid("cargo_test", cand) else None
    if framework in ("jest", "vitest"):
        cand = str(name or tid or "")
        if not cand:
            m = _JEST_FAIL.search(text)
            cand = m.group("title").split(" › ")[-1] if m else ""
        return SingleTest(framework, cand) if valid("test_title", cand) else None
    return None


def _regex_escape(title: str) -> str:
    return re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", title)


def rerun_argv(ref: SingleTest, command: Sequence[str] | None, python: str) -> list[str]:
    """The argv that runs only `ref` (reusing the original runner invocation)."""
    cmd = list(command or [])
    if ref.framework == "pytest":
        head = _prefix_until(cmd, ("pytest", "py.test")) or [python, "-m", "pytest"]
        return [*head, "-p", "no:cacheprovider", "-q", ref.test_id]
    if ref.framework == "unittest":
        head = _prefix_until(cmd, ("unittest",)) or [python, "-m", "unittest"]
        return [*head, ref.test_id]
    if ref.framework in ("jest", "vitest"):
        head = _prefix_until(cmd, (ref.framework,)) or ["npx", ref.framework]
        if ref.framework == "vitest" and "run" not in head:
            head.append("run")
        return (
            [*head, "-t", f"^{_regex_escape(ref.test_id)}$"]
            if ref.framework == "jest"
            else [
                *head,
                "-t",
                _regex_escape(ref.test_id),
            ]
        )
    if ref.framework == "go":
        top = ref.test_id.split("/")
        pattern = "/".join(f"^{_regex_escape(p)}$" for p in top)
        return ["go", "test", "-count=1", "-run", pattern, ref.package or "./..."]
    if ref.framework == "cargo":
        return ["cargo", "test", ref.test_id, "--", "--exact"]
    raise ValueError(ref.framework)


def _prefix_until(cmd: list[str], names: tuple[str, ...]) -> list[str] | None:
    for i, arg in enumerate(cmd):
        if os.path.basename(arg) in names:
            return cmd[: i + 1]
    return None


_PAIRS: tuple[tuple[re.Pattern[str], bool], ...] = (
    # unittest assertEqual: "AssertionError: first != second" (first is actual by convention).
    (re.compile(r"AssertionError: (?P<a>.+?) != (?P<b>.+?)\s*$", re.MULTILINE), False),
    # pytest: "assert 1050 == 1000"
    (re.compile(r"^E\s+assert (?P<a>.+?) == (?P<b>.+?)\s*$", re.MULTILINE), False),
    # jest / vitest
    (
        re.compile(r"Expected:?\s+(?P<b>.+?)\s*\n\s*Received:?\s+(?P<a>.+?)\s*$", re.MULTILINE),
        False,
    ),
    # go testing convention: got X, want Y
    (re.compile(r"got:?\s+(?P<a>.+?),?\s+want:?\s+(?P<b>.+?)\s*$", re.MULTILINE), False),
    # cargo assert_eq!
    (re.compile(r"left: (?P<a>.+?)\s*\n\s*right: (?P<b>.+?)\s*$", re.MULTILINE), False),
)


def expected_actual(output: str) -> tuple[str, str] | None:
    """(expected, actual) from a failing test's output, when it says."""
    for pattern, _ in _PAIRS:
        m = pattern.search(output)
        if m:
            return m.group("b").strip()[:300], m.group("a").strip()[:300]
    return None
