"""Where a test is defined in its file, from its id.

A record that only knows its test (pytest's summary line under
`--tb=no`, a Go test with no log line, a mocha failure with no frame in the
test file) is placed on the line that defines the test, never on line 1:
`def test_y(` (inside `class TestC:` for `TestC::test_y`), `it("title"` /
`test('title'`, `func TestX(`, `fn name(`.

:func:`definition_line` is pure (text in, line out); :func:`place` reads
the test files through `locate.read_in_tree` (regular files inside the
working tree, bounded in size), each file once.
"""

from __future__ import annotations

import re
from pathlib import Path

from .locate import read_in_tree
from .record import FailureRecord

MAX_TEST_FILE = 2 * 1024 * 1024
MAX_FILES = 200  # test files read for one output


def _python(text: str, test_id: str, runner: str) -> int | None:
    # pytest: file::Class::test_x[param]; unittest: module.Class.test_x
    parts = test_id.split("::")[1:] if runner == "pytest" else test_id.split(".")[-2:]
    if not parts:
        return None
    func = parts[-1].split("[", 1)[0]
    classes = parts[:-1]
    lines = text.splitlines()
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


def _javascript(text: str, names: list[str]) -> int | None:
    if not names:
        return None
    pat = re.compile(_JS_CALL.format(title=re.escape(names[-1])))
    for i, line in enumerate(text.splitlines()):
        if pat.search(line):
            return i + 1
    return None


def _go(text: str, test_id: str) -> int | None:
    top = test_id.partition("/")[0]
    pat = re.compile(rf"^func\s+{re.escape(top)}\s*\(")
    for i, line in enumerate(text.splitlines()):
        if pat.match(line):
            return i + 1
    return None


def _rust(text: str, test_id: str) -> int | None:
    name = test_id.rsplit("::", 1)[-1]
    pat = re.compile(rf"^\s*(?:pub\s+)?(?:async\s+)?fn\s+{re.escape(name)}\s*\(")
    for i, line in enumerate(text.splitlines()):
        if pat.match(line):
            return i + 1
    return None


def definition_line(text: str, record: FailureRecord) -> int | None:
    """The line of `text` (the test's file) that defines the record's test."""
    h = record.hint
    runner = h.get("runner")
    test_id = h.get("test_id")
    if not isinstance(runner, str) or not isinstance(test_id, str) or not test_id:
        return None
    if runner in ("pytest", "unittest"):
        return _python(text, test_id, runner)
    if runner in ("jest", "vitest", "mocha", "node:test"):
        path = h.get("test_path")
        names = [n for n in path if isinstance(n, str)] if isinstance(path, list) else [test_id]
        return _javascript(text, names)
    if runner == "go":
        return _go(text, test_id)
    if runner == "cargo":
        return _rust(text, test_id)
    return None


def place(records: list[FailureRecord], cwd: Path) -> None:
    """Put every record that knows its test but no line on the test's
    definition (and give its hint the `test_line`)."""
    cache: dict[str, str | None] = {}
    for r in records:
        file = r.hint.get("test_file")
        if not isinstance(file, str) or not file:
            continue
        if r.source_line is not None and isinstance(r.hint.get("test_line"), int):
            continue
        if file not in cache:
            if len(cache) >= MAX_FILES:
                continue
            cache[file] = read_in_tree(cwd, file, MAX_TEST_FILE)
        text = cache[file]
        line = definition_line(text, r) if text is not None else None
        if line is None:
            continue
        r.hint.setdefault("test_line", line)
        if r.source_line is None:
            r.source_file = file
            r.source_line = line
