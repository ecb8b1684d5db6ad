"""Reading a cargo test panic: the header, the message lines (with the
assert_eq! left/right values), the backtrace frames in the project, and a
doc test's header (the rules are in rust.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .causes import environment_cause, infra_env

PANIC_NEW = lazy_compile(
    r"^thread '(?P<thread>[^']+)'(?: \(\d+\))? panicked at (?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+):$"
)
PANIC_OLD = lazy_compile(
    r"^thread '(?P<thread>[^']+)'(?: \(\d+\))? panicked at '(?P<message>.*)', "
    r"(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+)$"
)
_SIDE = lazy_compile(r"^\s*(?P<side>left|right): `?(?P<value>.*?)`?,?$")
_FRAME_AT = lazy_compile(r"^\s+at (?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+)$")
_FRAME_FN = lazy_compile(r"^\s+\d+: ")


class RustPanic:
    """A panic in a test thread: the header, the message lines (with the
    assert_eq! left/right values) and the backtrace frames in the project."""

    max_lines = 300

    def __init__(
        self, m: re.Match[str], ctx: LineContext, doc: re.Match[str] | None = None
    ) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.thread = m.group("thread")
        self.file = m.group("file")
        self.line = int(m.group("line"))
        self.column = int(m.group("column"))
        # A doc test's panic ("thread 'main' panicked at src/lib.rs:5:1",
        # a line of rustdoc's generated program): the test is the doc
        # example, named and placed by its `---- src/lib.rs - f (line 7)`.
        self.doc = doc
        self.log_line = ctx.line_no
        old = m.groupdict().get("message")
        self.lines: list[str] = [old] if old else []
        self.sides: dict[str, str] = {}
        self.frames: list[tuple[str, int | None, int | None, str]] = []
        self.state = "message" if not old else "after"
        self._closure = False
        self._fn = ""  # the function of the backtrace frame being read
        self.test_at: tuple[str, int] | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if self.state == "message":
            if line == "stack backtrace:":
                self.state = "backtrace"
                return True
            if not line.strip() or line.startswith(("---- ", "test ", "failures:")):
                return False
            if line.startswith("note: "):
                self.state = "after"
                return True
            side = _SIDE.match(line)
            if side and len(self.lines) > 0:
                self.sides[side.group("side")] = side.group("value")
            else:
                self.lines.append(line.strip())
            return True
        if self.state in ("backtrace", "after"):
            at = _FRAME_AT.match(line)
            if at:
                if not self._closure and self.ctx.in_project(at.group("file")):
                    where = (at.group("file"), int(at.group("line")))
                    self.frames.append((*where, int(at.group("column")), ""))
                    if self._fn.endswith("::" + self.thread) and self.test_at is None:
                        self.test_at = where  # the test function's own frame
                return True
            fn = _FRAME_FN.match(line)
            if fn:
                self._fn = line[fn.end() :].strip()
                self._closure = self._fn.endswith("{{closure}}")
                return True
            if line.startswith("note: "):
                return True
        return False

    def finish(self) -> Iterable[Hit]:
        message = " ".join(x for x in self.lines if x).strip() or "panicked"
        doc = self.doc
        test_id = doc.group("name") if doc else self.thread
        hint: dict[str, Any] = {"runner": "cargo", "test_id": test_id, "why": message[:500]}
        if doc is None:
            hint["test_path"] = test_id.split("::")
            if self.test_at is not None:
                hint["test_file"] = self.ctx.resolve(self.test_at[0].removeprefix("./"))
                hint["test_line"] = self.test_at[1]
        else:
            hint.update(doc_hint(doc, self.ctx))
        if "left" in self.sides and "right" in self.sides:
            # assert_eq!(actual, expected): the convention of the std docs.
            hint.update(
                actual=self.sides["left"],
                expected=self.sides["right"],
                left=self.sides["left"],
                right=self.sides["right"],
            )
        first = self.lines[0] if self.lines else "panicked"
        frames = [
            f for f in self.frames if (f[0].removeprefix("./"), f[1]) != (self.file, self.line)
        ]
        category: FailureType | None = None
        # `.expect("X must be set")` on std::env::var: "X must be set: NotPresent";
        # an io::Error: "Os { code: 111, kind: ConnectionRefused, ... }"
        cause = environment_cause(self.lines)
        if cause is None and _NOT_PRESENT.search(message):
            cause = infra_env(None)
        if cause is not None and doc is None:
            category = cause.category
            hint.update(cause.hint)
        file: str = self.file
        line: int = self.line
        column: int | None = self.column
        # one record per test: tests generated by one macro fail at one line
        key: tuple[str, ...] = ("cargo", self.thread)
        if doc is not None:
            file, line, column = doc.group("file"), int(doc.group("line")), None
            key = ("cargo-doc", test_id)
        return [
            Hit(
                signal=f"{self.signal} {first}",
                message=message,
                file=file,
                line=line,
                column=column,
                category=category,
                log_line=self.log_line,
                hint=hint,
                related=frames,
                key=key,
            )
        ]


class ProgramPanic(RustPanic):
    """The `main` thread's panic of a program (`cargo run`, a built binary):
    read like a test's panic, reported as the program's crash."""

    def finish(self) -> Iterable[Hit]:
        message = " ".join(x for x in self.lines if x).strip() or "panicked"
        hint: dict[str, Any] = {"runner": "cargo", "panic": message[:500], "why": message[:500]}
        category: FailureType | None = None
        cause = environment_cause(self.lines)
        if cause is None and _NOT_PRESENT.search(message):
            cause = infra_env(None)
        if cause is not None:
            category = cause.category
            hint.update(cause.hint)
        at: tuple[str, int | None, int | None] = (self.file, self.line, self.column)
        frames = self.frames
        if not self.ctx.in_project(self.file) and frames:
            # a panic inside a dependency: the innermost frame of the project
            at, frames = frames[0][:3], frames[1:]
        related = [f for f in frames if (f[0].removeprefix("./"), f[1]) != at[:2]]
        return [
            Hit(
                signal=f"{self.signal} {self.lines[0] if self.lines else 'panicked'}",
                message=message,
                file=at[0],
                line=at[1],
                column=at[2],
                category=category,
                log_line=self.log_line,
                hint=hint,
                related=related,
                key=("rust panic", self.log_line),
            )
        ]


_NOT_PRESENT = lazy_compile(r"\bNotPresent\b")
# cargo test's header of one doc test's output: `---- src/lib.rs - with_vat (line 7) stdout ----`
DOC_TEST = lazy_compile(
    r"^---- (?P<name>(?P<file>\S+\.rs) - (?:(?P<item>.+?) )?\(line (?P<line>\d+)\)) stdout ----$"
)


def doc_hint(doc: re.Match[str], ctx: LineContext) -> dict[str, Any]:
    return {
        "doc_test": True,
        "target": "--doc",
        "test_file": ctx.resolve(doc.group("file")),
        "test_line": int(doc.group("line")),
        "item": doc.group("item") or "",  # empty: the module's own documentation
    }


# `buildrs v0.1.0 (/src/shop/buildrs)`: the package and its folder
_PACKAGE_DIR = lazy_compile(r"^(?P<name>\S+) v\S+ \((?P<dir>/[^)]+)\)$")


class BuildScriptFailure:
    """`error: failed to run custom build command for `pkg``, its `Caused
    by:` and the build script's indented `--- stdout` / `--- stderr`."""

    max_lines = 400

    def __init__(self, package: str, ctx: LineContext) -> None:
        self.ctx = ctx
        self.package = package
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.output: list[str] = []  # the script's stderr (and stdout), unindented
        self.panic: tuple[str, int, int] | None = None
        self.panic_lines: list[str] = []
        self._in_panic = False

    def feed(self, line: str, line_no: int) -> bool:
        if line.strip() and not line.startswith(" ") and line.strip() != "Caused by:":
            return False  # cargo's next line: `warning: build failed, ...`, another error
        text = line.strip()
        if not text or text in ("--- stdout", "--- stderr", "Caused by:"):
            self._in_panic = False
            return True
        panic = PANIC_NEW.match(text) if " panicked at " in text else None
        if panic:
            self.panic = (panic.group("file"), int(panic.group("line")), int(panic.group("column")))
            self._in_panic = True
            return True
        if self._in_panic and not text.startswith("note: "):
            self.panic_lines.append(text)
        elif not text.startswith(("process didn't exit successfully", "note: ")):
            self.output.append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        lines = self.panic_lines or self.output[-5:]
        message = " ".join(lines).strip() or "build script failed"
        hint: dict[str, Any] = {"package": self.package.split(" ", 1)[0], "why": message[:500]}
        category: FailureType | None = None
        cause = environment_cause(lines)
        if cause is None and _NOT_PRESENT.search(message):
            cause = infra_env(None)
        if cause is not None:
            category = cause.category
            hint.update(cause.hint)
        file: str | None = None
        line: int | None = None
        column: int | None = None
        if self.panic is not None:
            file, line, column = self.panic
            package = _PACKAGE_DIR.match(self.package)
            if package and not file.startswith("/"):  # build.rs of that package's folder
                file = f"{package.group('dir')}/{file}"
        return [
            Hit(
                signal=self.signal,
                message=f"build script of {hint['package']} failed: {message}"[:500],
                file=file,
                line=line,
                column=column,
                category=category,
                log_line=self.log_line,
                hint=hint,
                key=("cargo build script", self.package),
            )
        ]
