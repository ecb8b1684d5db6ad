"""TAP (Test Anything Protocol) output: node --test's tap reporter, tape,
prove, pytest-tap, bats."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .js_causes import js_cause
from .js_test_hit import suite_path
from .registry import rule

_YAML_KEY = lazy_compile(r"^\s*(?P<key>[A-Za-z_]\w*):\s?(?P<value>.*)$")
_FRAME = lazy_compile(
    r"\(?(?P<file>(?:/|\./|[\w@.-]+/)[^():\s]+\.\w+):(?P<line>\d+)(?::(?P<col>\d+))?\)?"
)


def _scalar(value: str) -> str:
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        v = v[1:-1]
    return v


_SUBTEST = lazy_compile(r"^(?P<indent>\s*)# Subtest: (?P<name>.+?)\s*$")


class _TapFailure:
    """`not ok N - name` and the YAML diagnostics block under it."""

    max_lines = 300

    def __init__(self, ctx: LineContext, indent: str, number: str, name: str) -> None:
        self.ctx = ctx
        self.indent = indent
        self.number = number
        self.name = name
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.in_yaml = False
        self.done = False
        self.fields: dict[str, str] = {}
        self.block_key: str | None = None
        self.blocks: dict[str, list[str]] = {}

    def feed(self, line: str, line_no: int) -> bool:
        stripped = line.strip()
        if not self.in_yaml:
            if stripped == "---" and line.startswith(self.indent + "  "):
                self.in_yaml = True
                return True
            return False
        if stripped == "..." and line.startswith(self.indent + "  "):
            self.in_yaml = False
            return False if self.done else self._end()
        m = _YAML_KEY.match(line)
        key_indent = len(self.indent) + 2
        if m and len(line) - len(line.lstrip()) == key_indent:
            value = m.group("value")
            if value in ("|-", "|", ">-", ">"):
                self.block_key = m.group("key")
                self.blocks[self.block_key] = []
            else:
                self.block_key = None
                self.fields[m.group("key")] = _scalar(value)
        elif self.block_key:
            self.blocks[self.block_key].append(stripped)
        return True

    def _end(self) -> bool:
        self.done = True
        return True

    def finish(self) -> Iterable[Hit]:
        if self.fields.get("failureType") == "subtestsFailed":
            return  # a suite that failed because a test inside it did: not a failure of its own
        file = line = col = None
        for frame in [*self.blocks.get("stack", []), self.fields.get("at", "")]:
            m = _FRAME.search(frame)
            if m and self.ctx.in_project(m.group("file")):
                file, line, col = m.group("file"), int(m.group("line")), m.group("col")
                break
        thrown = file is not None  # the frame that threw, not the test's own place
        if file is None:
            loc = _FRAME.search(self.fields.get("location", "") or self.fields.get("at", ""))
            if loc:
                file, line, col = loc.group("file"), int(loc.group("line")), loc.group("col")
        error = self.blocks.get("error") or [
            self.fields.get("error", "") or self.fields.get("message", "")
        ]
        message = next((e for e in error if e), self.name)
        # node:test's TAP names the test's own place (`location:`) and the
        # kind of failure; other TAP producers (tape, prove, bats) do not
        node = "failureType" in self.fields
        path = (
            [
                *suite_path(self.ctx.before(300), len(self.indent), _SUBTEST, "# Subtest: "),
                self.name,
            ]
            if node
            else [self.name]
        )
        hint: dict[str, object] = {
            "test_id": " ".join(path),
            "test_name": self.name,
            "runner": "node:test" if node else "tap",
        }
        if node:
            hint["test_path"] = path
        for k in ("expected", "actual", "operator", "failureType"):
            if k in self.fields:
                hint[k] = self.fields[k]
        own = _FRAME.search(self.fields.get("location", "")) if node else None
        if own:
            hint["test_file"] = self.ctx.resolve(own.group("file"))
            hint["test_line"] = int(own.group("line"))
        elif file:
            hint["test_file"] = self.ctx.resolve(file)
        kind = self.fields.get("name", "")
        why = f"{kind}: {message}" if kind and message != self.name else message
        hint["why"] = why[:500]
        # a ReferenceError, a missing module, a refused connection: the cause's record
        cause = js_cause(why, self.blocks.get("error", [])) if kind else None
        category = None
        code = None
        if cause is not None:
            category = cause.category
            code = kind
            hint.update(cause.hint)
            if cause.at_throw and not thrown:
                file = line = col = None  # where it threw is not known: not the test's line
        yield Hit(
            signal=self.signal,
            message=f"{self.name}: {message}",
            file=file,
            line=line,
            column=int(col) if col else None,
            code=code,
            category=category,
            log_line=self.log_line,
            hint=hint,
            key=("tap", self.name, file),
        )


@rule(
    id="tap.not_ok",
    category=FailureType.TEST,
    tool="tap",
    pattern=r"^(?P<indent>\s*)not ok (?P<number>\d+)(?: -)? ?(?P<name>[^#]*?)\s*(?:#\s*(?P<directive>\w+).*)?$",
    triggers=("not ok ",),
    url="https://testanything.org/tap-version-13-specification.html",
)
def not_ok(m: re.Match[str], ctx: LineContext) -> _TapFailure | None:
    """A failed TAP test point with its YAML diagnostics.

    What it detects: `not ok N - name` (at any subtest indent), except points
    marked `# TODO` or `# SKIP`, which TAP counts as passing; the YAML block
    under it (`---` … `...`) gives the location (the first stack frame inside
    the project, else `location:`/`at:`), the error text and
    `expected`/`actual`.

    Example output (`node --test --test-reporter=tap`, node v20.20.2):
        not ok 2 - joins words with dashes
          ---
          location: '/…/test/slugify.test.js:9:1'
          expected: 'hello-world'
          actual: 'hello_world'

    A suite point that failed only because a test inside it did
    (`failureType: 'subtestsFailed'`) is not a failure of its own.

    Recipe: test (re-run only this test once: the name is in hint["test_id"],
    the file in hint["test_file"]).

    References: https://testanything.org/tap-version-13-specification.html
    """
    directive = (m.group("directive") or "").lower()
    if directive in ("todo", "skip"):
        return None
    return _TapFailure(ctx, m.group("indent"), m.group("number"), m.group("name").strip())
