"""Where a test is defined in its file, from its id; and which variable an
unset-variable failure is about, from the line it points at.

A record that only knows its test (pytest's summary line under
`--tb=no`, a Go test with no log line, a mocha failure with no frame in the
test file) is placed on the line that defines the test, never on line 1:
`def test_y(` (inside `class TestC:` for `TestC::test_y`), `it("title"` /
`test('title'`, `func TestX(`, `fn name(`.

:func:`definition_line` is pure (lines in, line out); :func:`place` reads
the test files through `locate.read_in_tree` (regular files inside the
working tree, bounded in size), each file once.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .lazyre import lazy_compile
from .locate import read_in_tree
from .record import FailureRecord
from .rules.causes import env_reads

MAX_TEST_FILE = 1024 * 1024
MAX_FILES = 100  # test files read for one output
MAX_WALK = 2_000  # entries looked at when a JS test's file must be found
_JS_RUNNERS = ("jest", "vitest", "mocha", "node:test")
_JS_TEST_FILE = lazy_compile(r"(?:\.(?:test|spec)\.[cm]?[jt]sx?|_test\.[cm]?[jt]s)$")
_TEST_DIRS = frozenset({"test", "tests", "spec", "__tests__"})
_SKIP_DIRS = frozenset({"node_modules", ".git", "dist", "build", "coverage", ".next", "out"})


def _python(lines: list[str], test_id: str, runner: str) -> int | None:
    # pytest: file::Class::test_x[param]; unittest: module.Class.test_x
    parts = test_id.split("::")[1:] if runner == "pytest" else test_id.split(".")[-2:]
    if not parts:
        return None
    func = parts[-1].split("[", 1)[0]
    classes = parts[:-1]
    start = 0
    for cls in classes:
        pat = re.compile(rf"^\s*class\s+{re.escape(cls)}\b")
        found = next((i for i in range(start, len(lines)) if pat.match(lines[i])), None)
        if found is not None:
            start = found + 1
    pat = re.compile(rf"^\s*(?:async\s+)?def\s+{re.escape(func)}\s*\(")
    return next((i + 1 for i in range(start, len(lines)) if pat.match(lines[i])), None)


_JS_CALL = (
    r"""\b(?:it|test|specify|describe|suite|context)(?:\.\w+)*\s*\(\s*(?P<q>['"`]){title}(?P=q)"""
)


def _javascript(lines: list[str], names: list[str]) -> int | None:
    if not names:
        return None
    pat = re.compile(_JS_CALL.format(title=re.escape(names[-1])))
    for i, line in enumerate(lines):
        if pat.search(line):
            return i + 1
    return None


def _go(lines: list[str], test_id: str) -> int | None:
    top = test_id.partition("/")[0]
    pat = re.compile(rf"^func\s+{re.escape(top)}\s*\(")
    for i, line in enumerate(lines):
        if pat.match(line):
            return i + 1
    return None


def _rust(lines: list[str], test_id: str) -> int | None:
    name = test_id.rsplit("::", 1)[-1]
    pat = re.compile(rf"^\s*(?:pub\s+)?(?:async\s+)?fn\s+{re.escape(name)}\s*\(")
    for i, line in enumerate(lines):
        if pat.match(line):
            return i + 1
    return None


def definition_line(lines: list[str], record: FailureRecord) -> int | None:
    """The line of `lines` (the test's file) that defines the record's test."""
    h = record.hint
    runner = h.get("runner")
    test_id = h.get("test_id")
    if not isinstance(runner, str) or not isinstance(test_id, str) or not test_id:
        return None
    if runner in ("pytest", "unittest"):
        return _python(lines, test_id, runner)
    if runner in ("jest", "vitest", "mocha", "node:test"):
        path = h.get("test_path")
        names = [n for n in path if isinstance(n, str)] if isinstance(path, list) else [test_id]
        return _javascript(lines, names)
    if runner == "go":
        return _go(lines, test_id)
    if runner == "cargo":
        return _rust(lines, test_id)
    return None


def place(records: list[FailureRecord], cwd: Path) -> None:
    """Put every record that knows its test but no line on the test's
    definition (and give its hint the `test_line`)."""
    cache: dict[str, list[str] | None] = {}
    for r in records:
        file = r.hint.get("test_file")
        if not isinstance(file, str) or not file:
            continue
        if r.source_line is not None and isinstance(r.hint.get("test_line"), int):
            continue
        if file not in cache:
            if len(cache) >= MAX_FILES:
                continue
            text = read_in_tree(cwd, file, MAX_TEST_FILE)
            cache[file] = text.splitlines() if text is not None else None
        lines = cache[file]
        line = definition_line(lines, r) if lines is not None else None
        if line is None:
            continue
        r.hint.setdefault("test_line", line)
        if r.source_line is None:
            r.source_file = file
            r.source_line = line


def name_variables(records: list[FailureRecord], cwd: Path) -> None:
    """An unset variable reported without its name (Rust's `NotPresent`
    from `std::env::var(...).unwrap()`): the variable the source line the
    failure points at reads (`env::var("X")`, `os.environ["X"]`,
    `process.env.X`, `os.Getenv("X")`), when it reads exactly one."""
    cache: dict[str, list[str] | None] = {}
    for r in records:
        h = r.hint
        if h.get("kind") != "env" or h.get("variable") or not r.source_file or not r.source_line:
            continue
        file = r.source_file
        if file not in cache:
            if len(cache) >= MAX_FILES:
                continue
            text = read_in_tree(cwd, file, MAX_TEST_FILE)
            cache[file] = text.splitlines() if text is not None else None
        lines = cache[file]
        if lines is None or r.source_line > len(lines):
            continue
        reads = env_reads([lines[r.source_line - 1]])
        if len(reads) == 1:
            h["variable"] = reads[0]


def _js_test_files(cwd: Path) -> list[str]:
    """The project's JavaScript/TypeScript test files (bounded walk, no
    vendored or built folders, no symlinked folders), relative to cwd."""
    found: list[str] = []
    seen = 0
    for dirpath, dirnames, filenames in os.walk(cwd, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
        rel_dir = os.path.relpath(dirpath, cwd)
        in_tests = any(part in _TEST_DIRS for part in Path(rel_dir).parts)
        for name in sorted(filenames):
            seen += 1
            if seen > MAX_WALK or len(found) >= MAX_FILES:
                return found
            if _JS_TEST_FILE.search(name) or (
                in_tests and name.endswith((".js", ".mjs", ".cjs", ".ts"))
            ):
                found.append(os.path.normpath(os.path.join(rel_dir, name)))
    return found


def find_js_test_files(records: list[FailureRecord], cwd: Path) -> None:
    """A JS test failure the runner reported without its file (mocha prints
    no file for an error thrown outside the test body, a refused connection
    in a callback): the one test file that defines a test of that title
    under its first suite's title, when exactly one does."""
    wanted = [
        r
        for r in records
        if r.hint.get("runner") in _JS_RUNNERS
        and not r.hint.get("test_file")
        and isinstance(r.hint.get("test_path"), list)
        and r.hint["test_path"]
    ]
    if not wanted:
        return
    texts: list[tuple[str, list[str]]] = []
    for file in _js_test_files(cwd):
        text = read_in_tree(cwd, file, MAX_TEST_FILE)
        if text is not None:
            texts.append((file, text.splitlines()))
    for r in wanted:
        names = [n for n in r.hint["test_path"] if isinstance(n, str)]
        hits = []
        for file, lines in texts:
            line = _javascript(lines, names)
            if line is not None and (len(names) < 2 or _javascript(lines, names[:1])):
                hits.append((file, line))
        if len(hits) != 1:
            continue  # no file, or several: a guess would mislead
        file, line = hits[0]
        r.hint["test_file"] = file
        r.hint.setdefault("test_line", line)
        if r.source_file is None:
            r.source_file, r.source_line = file, line
