"""Which tests a JavaScript runner's re-run passed or failed, test by test, from
the runner's own listing (pure: text in, results out).

A re-run of several tests that ends with one failure says nothing about the
others from its summary alone; the runners list each test they ran:

    node --test (TAP)      # Subtest: math / ok 2 - flaky one / ok 1 - x # SKIP
    node --test (spec)     ▶ math / ✔ flaky one (0.3ms) / ✖ adds 2 + 2 / ﹣ x # SKIP
    mocha (spec)           math / ✔ flaky one / 1) adds 2 + 2 / - pending
    jest                   math / ✓ flaky one (1 ms) / ✕ adds 2 + 2 / ○ skipped x
    vitest                 ✓ flaky one 5ms / × adds 2 + 2 / ↓ x  (names only, by depth)
    uvu                    FAIL  suite  "name"  (failures only; every test of a listed file ran)

Suites are known from the nesting (TAP's `# Subtest:`, the indentation);
vitest lists only each test's own name at its depth, so a vitest test is
matched by name and depth, and only when no other selected test shares both.
A skipped test is neither passed nor failed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from faultlens.classifier.lazyre import lazy_compile

if TYPE_CHECKING:
    from .fixes.test_runners import SingleTest

Result = Literal["passed", "failed", "skipped"]


@dataclass(slots=True, frozen=True)
class Listed:
    """One test as the runner listed it."""

    suites: tuple[str, ...] | None  # None: the runner does not say (vitest)
    name: str
    depth: int
    result: Result


_DURATION = r"(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?"
_TAP_SUBTEST = lazy_compile(r"^(?P<indent> *)# Subtest: (?P<name>.*)$")
_TAP_RESULT = lazy_compile(
    r"^(?P<indent> *)(?P<not>not )?ok \d+ - (?P<name>.*?)(?P<dir> # (?:SKIP|TODO)\b.*)?$"
)
_NODE_SPEC = lazy_compile(
    rf"^(?P<indent> *)(?P<mark>[✔✖﹣▶])\s(?P<name>.*?){_DURATION}(?P<dir> # .*)?$"
)
_MOCHA_TEST = lazy_compile(rf"^(?P<indent> +)(?P<mark>[✔✓]|\d+\)|-)\s(?P<name>.*?){_DURATION}$")
_JEST_TEST = lazy_compile(
    rf"^(?P<indent> +)(?P<mark>[✓✕√×○✎])\s(?:(?:skipped|todo)\s)?(?P<name>.*?){_DURATION}$"
)
_VITEST_TEST = lazy_compile(
    r"^(?P<indent> {3,})(?P<mark>[✓×↓✗])\s(?P<name>.*?)(?:\s+\d+(?:\.\d+)?m?s)?$"
)


def _unescape_tap(name: str) -> str:
    return re.sub(r"\\(.)", r"\1", name)


def _tap(lines: list[str]) -> list[Listed]:
    out: list[Listed] = []
    stack: list[str] = []
    for line in lines:
        if m := _TAP_SUBTEST.match(line):
            depth = len(m.group("indent")) // 4
            stack = [*stack[:depth], _unescape_tap(m.group("name"))]
        elif m := _TAP_RESULT.match(line):
            depth = len(m.group("indent")) // 4
            result: Result = (
                "skipped" if m.group("dir") else ("failed" if m.group("not") else "passed")
            )
            out.append(Listed(tuple(stack[:depth]), _unescape_tap(m.group("name")), depth, result))
    return out


def _node_spec(lines: list[str]) -> list[Listed]:
    out: list[Listed] = []
    suites: list[tuple[int, str]] = []  # (indent, name) of the open `▶` suites
    for line in lines:
        if line.startswith(("✖ failing tests:", "ℹ tests ")):
            break
        m = _NODE_SPEC.match(line)
        if not m:
            continue
        indent, mark, name = len(m.group("indent")), m.group("mark"), m.group("name")
        if (indent, name) in suites:  # a suite's closing line (✔, ✖ or ▶ with its time)
            suites = [s for s in suites if s[0] < indent]
            continue
        suites = [s for s in suites if s[0] < indent]
        if mark == "▶":
            suites.append((indent, name))
            continue
        result: Result = (
            "skipped" if mark == "﹣" or m.group("dir") else ("passed" if mark == "✔" else "failed")
        )
        out.append(Listed(tuple(s[1] for s in suites), name, len(suites), result))
    return out


def _indented(lines: list[str], test: re.Pattern[str], passed: str, failed: str) -> list[Listed]:
    """mocha's and jest's listing: suite titles and tests, two spaces a level."""
    out: list[Listed] = []
    suites: list[tuple[int, str]] = []
    for line in lines:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent < 2:
            suites = []
            continue
        suites = [s for s in suites if s[0] < indent]
        if m := test.match(line):
            mark = m.group("mark")
            result: Result = (
                "passed"
                if mark in passed
                else ("failed" if mark in failed or mark[0].isdigit() else "skipped")
            )
            out.append(Listed(tuple(s[1] for s in suites), m.group("name"), len(suites), result))
        elif not line.lstrip().startswith(("●", "at ", "Error", "+", "-", ">")):
            suites.append((indent, line.strip()))
    return out


def _vitest(lines: list[str]) -> list[Listed]:
    out: list[Listed] = []
    for line in lines:
        if m := _VITEST_TEST.match(line):
            mark = m.group("mark")
            result: Result = "passed" if mark == "✓" else ("skipped" if mark == "↓" else "failed")
            depth = (len(m.group("indent")) - 3) // 2
            out.append(Listed(None, m.group("name"), depth, result))
    return out


_UVU_FAIL = lazy_compile(r'^   FAIL  (?:(?P<suite>\S(?:.*?\S)?)  )?"(?P<name>.*)"$')
_UVU_FILE = lazy_compile(r"^(?P<file>\S+\.[cm]?[jt]sx?)$")
_UVU_SKIPPED = lazy_compile(r"^\s*Skipped:\s+(?P<n>\d+)\s*$")


def _uvu(lines: list[str]) -> list[Listed]:
    """uvu names only its failures; it runs every test of each file it lists
    (`cart.js` on a line of its own): with nothing skipped, a test of a listed
    file that did not fail passed (per_test decides that, knowing the tests)."""
    out = []
    for line in lines:
        if m := _UVU_FAIL.match(line):
            suites = (m.group("suite"),) if m.group("suite") else ()
            out.append(Listed(suites, m.group("name"), len(suites), "failed"))
    return out


def _uvu_passed(output: str, tests: Sequence[SingleTest], failed: set[str]) -> dict[str, Result]:
    lines = output.splitlines()
    skipped = [int(m.group("n")) for ln in lines if (m := _UVU_SKIPPED.match(ln))]
    if not skipped or skipped[-1] != 0:
        return {}
    files = {m.group("file") for ln in lines if (m := _UVU_FILE.match(ln))}
    out: dict[str, Result] = {}
    for t in tests:
        ran = t.file is not None and any(t.file == f or t.file.endswith("/" + f) for f in files)
        if ran and t.test_id not in failed:
            out[t.test_id] = "passed"
    return out


def listed(runner: str, output: str) -> list[Listed]:
    """Every test the runner's output lists, with its result."""
    lines = output.splitlines()
    if runner == "node":
        if any(_TAP_SUBTEST.match(ln) for ln in lines):
            return _tap(lines)
        return _node_spec(lines)
    if runner == "mocha":
        end = next(
            (i for i, ln in enumerate(lines) if re.match(r"^\s+\d+ passing\b", ln)), len(lines)
        )
        return _indented(lines[:end], _MOCHA_TEST, "✔✓", "")
    if runner == "jest":
        return _indented(lines, _JEST_TEST, "✓√", "✕×")
    if runner == "vitest":
        return _vitest(lines)
    if runner == "uvu":
        return _uvu(lines)
    return []


def per_test(runner: str, output: str, tests: Sequence[SingleTest]) -> dict[str, Result]:
    """The result of each selected test the listing names (by its suites and
    name; vitest by name and depth when that is unambiguous)."""
    seen = listed(runner, output)
    if not seen and runner != "uvu":
        return {}
    out: dict[str, Result] = {}
    keys = [(t.path[-1], len(t.path) - 1) if t.path else (t.test_id, 0) for t in tests]
    for t, (name, depth) in zip(tests, keys, strict=True):
        suites = tuple(t.path[:-1]) if t.path else ()
        found = [
            s
            for s in seen
            if s.name == name
            and s.depth == depth
            and (s.suites == suites if s.suites is not None else keys.count((name, depth)) == 1)
        ]
        if any(s.result == "failed" for s in found):
            out[t.test_id] = "failed"
        elif found and all(s.result == "passed" for s in found):
            out[t.test_id] = "passed"
        elif found:
            out[t.test_id] = "skipped"
    if runner == "uvu":
        failed = {t for t, r in out.items() if r == "failed"}
        out.update(_uvu_passed(output, tests, failed))
    return out
