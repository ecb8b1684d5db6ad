"""What a JavaScript tool's output says about where and what: V8 stack
frames, the frame inside the project, a module specifier's package, and
expected/actual from a printed diff.  Pure parsing, shared by the build
rules (rules/javascript/) and the test runners (rules/js_test.py and its
helpers)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..lazyre import lazy_compile
from .base import LineContext

# `    at fn (file:line:col)`, `    at file:line:col`, `    at async fn (file:l:c)`.
V8_FRAME = lazy_compile(
    r"^\s*at (?:(?P<func>.*?) \()?(?P<file>[^()\s][^()]*?):(?P<line>\d+):(?P<column>\d+)\)?\s*$"
)
_BARE_FRAME = lazy_compile(
    r"^\s*(?:(?P<func>[^()]*?) \()?(?P<file>[^()\s][^()]*?):(?P<line>\d+):(?P<column>\d+)\)?\s*$"
)
# `<anonymous_script>`: the text JSON.parse was given (Node prints it as the throw site)
_INTERNAL = ("node:", "internal/", "<anonymous>", "<anonymous_script>", "native", "evalmachine.")


@dataclass(frozen=True, slots=True)
class Frame:
    """One stack frame as printed."""

    func: str
    file: str
    line: int
    column: int

    @property
    def internal(self) -> bool:
        f = self.file
        return (
            f.startswith(_INTERNAL)
            or "/node_modules/" in f
            or "\\node_modules\\" in f
            or f.startswith("node_modules/")
        )


def parse_frame(line: str, *, bare: bool = False) -> Frame | None:
    """A V8 stack frame (`at fn (file:l:c)`); `bare` also accepts the
    `fn (file:l:c)` form without `at` (node:test TAP `stack:` lines)."""
    # (each form is tried only on lines holding what it needs)
    m = V8_FRAME.match(line) if "at " in line else None
    if m is None and bare and ":" in line:
        m = _BARE_FRAME.match(line)
    if m is None:
        return None
    func, file = m.group("func") or "", m.group("file")
    if not func and file.startswith("async "):
        # `at async file:///app/main.mjs:1:13`: a module's top-level await
        func, file = "async", file[len("async ") :]
    return Frame(func, file, int(m.group("line")), int(m.group("column")))


def project_frame(frames: Sequence[Frame], ctx: LineContext) -> Frame | None:
    """The innermost frame inside the project: first a frame whose file
    exists in the working tree, else the first frame that is not Node's own
    or an installed package's (output from another machine)."""
    outside = [f for f in frames if not f.internal]
    for f in outside:
        if ctx.in_project(f.file):
            return f
    return outside[0] if outside else None


def same_file(a: str, b: str) -> bool:
    """Whether two printed paths name the same file (one may be absolute,
    a file:// URL or relative to another directory)."""
    a = a.removeprefix("file://").replace("\\", "/").removeprefix("./")
    b = b.removeprefix("file://").replace("\\", "/").removeprefix("./")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def related(
    frames: Iterable[Frame], chosen: Frame | None
) -> list[tuple[str, int | None, int | None, str]]:
    """The other non-internal frames, for the record's `related` list."""
    out: list[tuple[str, int | None, int | None, str]] = [
        (f.file, f.line, f.column, f.func or "frame")
        for f in frames
        if not f.internal and f != chosen
    ]
    return out[:5]


def package_name(specifier: str) -> str | None:
    """The npm package a bare import specifier names (`@a/b/c` -> `@a/b`)."""
    if specifier.startswith((".", "/", "file:", "node:")) or re.match(
        r"^[A-Za-z]:[\\/]", specifier
    ):
        return None
    parts = specifier.split("/")
    name = "/".join(parts[:2]) if specifier.startswith("@") else parts[0]
    return name if re.fullmatch(r"(?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*", name, re.I) else None


def module_hint(specifier: str) -> dict[str, Any]:
    hint: dict[str, Any] = {"module": specifier}
    pkg = package_name(specifier)
    if pkg:
        hint["package"] = pkg
    return hint


@dataclass(slots=True)
class DiffValues:
    """Expected/actual values read from a printed assertion diff.

    `minus_is_expected` says which side the `-` lines are (jest and vitest:
    `- Expected`; mocha: `+ expected - actual`)."""

    minus_is_expected: bool = True
    active: bool = False
    minus: list[str] = field(default_factory=list)
    plus: list[str] = field(default_factory=list)

    def feed(self, text: str) -> None:
        s = text.strip()
        if not self.active:
            header = "- Expected" if self.minus_is_expected else "+ expected - actual"
            self.active = s.startswith(header)
            return
        if re.match(r"^(?:\+ Received\b|- Expected\b)", s):
            return
        if s.startswith("- ") or (s.startswith("-") and not s.startswith("--")):
            self.minus.append(s[1:].strip())
        elif s.startswith("+ ") or (s.startswith("+") and not s.startswith("++")):
            self.plus.append(s[1:].strip())

    def values(self) -> dict[str, str]:
        if not (self.minus or self.plus):
            return {}
        exp, act = (self.minus, self.plus) if self.minus_is_expected else (self.plus, self.minus)
        return {"expected": "\n".join(exp), "actual": "\n".join(act)}
