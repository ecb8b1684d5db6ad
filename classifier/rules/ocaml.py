"""OCaml: compiler errors (ocamlc, ocamlopt, dune), uncaught exceptions
and Alcotest failures."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, match_above
from .registry import rule
from .stack import Frame, innermost_in_project, related_frames

ECOSYSTEM = "OCaml"

_UNBOUND = lazy_compile(
    r"^Unbound (?P<kind>value|record field|module|constructor|type constructor) (?P<name>[\w.']+)"
)
_DID_YOU_MEAN = lazy_compile(r"Hint: Did you mean (?P<suggestion>[\w.']+)")
_TYPES = lazy_compile(
    r"has type (?P<found>.+?) but an expression was expected of type (?P<required>.+)$"
)
# `Called from Dune__exe__Main in file "bin/main.ml", line 4, characters 13-35`
_FRAME = lazy_compile(
    r'^(?:Raised at|Called from|Re-raised at|Raised by primitive operation at) .*?(?: in)? file "(?P<file>[^"]+)"(?: \(inlined\))?, line (?P<line>\d+)'
)


class _OcamlError:
    """`File "lib/cart.ml", line 11, characters 61-65:`, the excerpt, then
    `Error: ...` (continued on indented lines) or `Warning N [name]: ...`."""

    max_lines = 60

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.file = m.group("file")
        self.line = int(m.group("line"))
        self.end_line = int(m.group("end_line")) if m.group("end_line") else None
        self.column = int(m.group("start")) + 1 if m.group("start") else None
        self.kind: str | None = None  # "error" once an Error line is read
        self.code: str | None = None
        self.message: list[str] = []
        self.hints: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith('File "'):
            return False
        if self.kind is None:
            if err := re.match(
                r"^Error(?: \(warning (?P<warning>\d+)(?: \[(?P<name>[\w-]+)\])?\))?: (?P<message>.*)$",
                line,
            ):
                self.kind = "error"
                self.message.append(err.group("message").strip())
                self.code = f"warning {err.group('warning')}" if err.group("warning") else None
                return True
            warn = re.match(
                r"^(?:Warning|Alert) (?P<code>[\w-]+)(?: \[[\w-]+\])?: (?P<message>.*)$", line
            )
            if warn:
                self.kind = "warning"
                self.code = f"warning {warn.group('code')}"
                self.message.append(warn.group("message").strip())
                return True
            # the excerpt (`11 | ...` and the carets) or a sub-location's note
            return bool(re.match(r"^(?:\s*\d+ \|.*|\s+\^+\s*|\.\.\.+|\s+\S.*)$", line))
        if self.kind and line.startswith(("  ", "\t")) and line.strip():
            self.message.append(line.strip())
            return True
        if self.kind == "error" and line.startswith("Hint: "):
            self.hints.append(line.strip())
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        if self.kind is None:
            return []  # a sub-location of the error before it
        message = " ".join(self.message)
        hint: dict[str, Any] = {}
        if u := _UNBOUND.match(message):
            hint["name"], hint["kind"] = u.group("name"), u.group("kind")
        if t := _TYPES.search(message):
            hint["found"], hint["required"] = t.group("found").strip(), t.group("required").strip()
        for text in self.hints:
            if s := _DID_YOU_MEAN.search(text):
                hint["suggestion"] = s.group("suggestion").rstrip("?")
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=self.file,
                line=self.line,
                column=self.column,
                end_line=self.end_line,
                code=self.code,
                log_line=self.log_line,
                hint=hint,
                warning=self.kind == "warning",
            )
        ]


@rule(
    id="ocaml.compiler",
    category=FailureType.COMPILE,
    tool="ocamlc",
    pattern=r'^File "(?P<file>[^"]+)", lines? (?P<line>\d+)(?:-(?P<end_line>\d+))?(?:, characters (?P<start>\d+)-(?P<end>\d+))?:$',
    triggers=('File "',),
    url="https://ocaml.org/manual/5.2/comp.html",
)
def ocaml_compiler(m: re.Match[str], ctx: LineContext) -> Block:
    """An OCaml compile error (ocamlc, ocamlopt, dune build).

    What it detects: `File "lib/cart.ml", line 11, characters 61-65:` (or
    `lines 3-5, characters ...`), the numbered excerpt and its carets, then
    `Error: Unbound record field cent` (continued on indented lines;
    `Hint: Did you mean cents?` gives hint["suggestion"]).  The column is
    the first character's + 1.  hint["name"] (an unbound value, field or
    module), hint["found"] / hint["required"] of a type error.  dune's dev
    profile makes some warnings errors, `Error (warning 26 [unused-var]):
    unused variable n.` (code `warning 26`); plain `Warning 26
    [unused-var]:` blocks are warning hits (docs/warnings.md), and a second
    `File ...` block that only notes where an unmatched `(` was is nothing.

    Example output (`dune build`, dune 2.9.3, OCaml 4.13.1):
        File "lib/cart.ml", line 11, characters 61-65:
        11 | let total cart = List.fold_left (fun acc item -> acc + (item.cent * item.quantity)) 0 cart
                                                                          ^^^^
        Error: Unbound record field cent
        Hint: Did you mean cents?

    Recipe: compile. The compiler's `Did you mean` is applied; the rest is
    escalated with the location.

    References: https://ocaml.org/manual/5.2/comp.html,
    https://dune.readthedocs.io/en/stable/concepts/ocaml-flags.html
    """
    return _OcamlError(m, ctx)


class _UncaughtException:
    """`Fatal error: exception Not_found` and the `Raised at` / `Called
    from` lines (with OCAMLRUNPARAM=b)."""

    max_lines = 200

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.exc = m.group("exc").strip()
        self.frames: list[Frame] = []
        # dune's `   cart_test alias test/runtest (exit 2)` above: a test executable died
        self.test = match_above(ctx, _DUNE_TEST, 4)

    def feed(self, line: str, line_no: int) -> bool:
        if frame := _FRAME.match(line):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        chosen = innermost_in_project(self.frames, self.ctx, ("/.opam/", "/usr/lib/ocaml/"))
        if chosen is not None and not self.ctx.in_project(chosen[0]):
            chosen = None  # `list.ml` of the standard library
        name = self.exc.split("(", 1)[0].strip()
        hint: dict[str, Any] = {"exception": name}
        # Assert_failure("test/cart_test.ml", 2, 9) carries its own location
        at = _AT_LOCATION.match(self.exc)
        if chosen is None and at and self.ctx.in_project(at.group("file")):
            chosen = (at.group("file"), int(at.group("line")))
        category: FailureType | None = None
        if self.test is not None:
            category = FailureType.TEST
            hint["test_id"] = self.test.group("name")
            hint["runner"] = "dune test"
        return [
            Hit(
                signal=self.signal,
                message=f"exception {self.exc}",
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                category=category,
                log_line=self.log_line,
                hint=hint,
                related=related_frames(self.frames, chosen),
            )
        ]


_AT_LOCATION = lazy_compile(
    r'^(?:Assert_failure|Match_failure) ?\("(?P<file>[^"]+)", (?P<line>\d+), (?P<column>\d+)\)$'
)


@rule(
    id="ocaml.uncaught_exception",
    category=FailureType.COMPILE,
    tool="ocaml",
    pattern=r"^Fatal error: exception (?P<exc>.+)$",
    triggers=("Fatal error: exception ",),
    url="https://ocaml.org/manual/5.2/runtime.html",
)
def ocaml_uncaught_exception(m: re.Match[str], ctx: LineContext) -> Block:
    """An uncaught OCaml exception that ended a program.

    What it detects: `Fatal error: exception Not_found` (or
    `Invalid_argument("index out of bounds")`, `Failure("...")`) and, when
    the program ran with `OCAMLRUNPARAM=b`, the `Raised at ...` / `Called
    from ... in file "bin/main.ml", line 4, ...` backtrace, whose innermost
    frame in the project is the location (the standard library's
    `list.ml` is not); without a backtrace, `Assert_failure("test/t.ml",
    2, 9)` and `Match_failure(...)` give their own location.
    hint["exception"].  Under `dune test` (dune's `   cart_test alias
    test/runtest (exit 2)` just above) a test executable died: the record
    is test, hint["test_id"] the test's name.

    Example output (`OCAMLRUNPARAM=b dune exec ./bin/main.exe`, OCaml 4.13.1):
        Fatal error: exception Not_found
        Raised at Stdlib__List.find in file "list.ml", line 224, characters 10-25
        Called from Dune__exe__Main in file "bin/main.ml", line 4, characters 13-35

    Recipe: compile, escalated with the raising location.

    References: https://ocaml.org/manual/5.2/runtime.html#s:ocamlrun-options
    """
    return _UncaughtException(m, ctx)


_DUNE_TEST = lazy_compile(r"^\s+(?P<name>[\w-]+) alias (?P<dir>\S+)/runtest(?: \(exit \d+\))?$")


class _AlcotestFailure:
    """The boxed `│ [FAIL]  suite  N   name. │` report and what follows it
    up to its closing rule."""

    max_lines = 400

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.suite = m.group("suite")
        self.index = m.group("index")
        self.name = m.group("name").rstrip(".").strip()
        self.signal = f"[FAIL] {self.suite} {self.index} {self.name}"
        self.log_line = ctx.line_no
        self.lines: list[str] = []
        self.frames: list[Frame] = []
        # dune's `   test_cart alias test/runtest (exit 1)` names the test's source
        self.test_file: str | None = None
        if runner := match_above(ctx, _DUNE_TEST, 500):
            candidate = f"{runner.group('dir')}/{runner.group('name')}.ml"
            self.test_file = candidate if ctx.exists(candidate) else None

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if text.startswith("\u2500\u2500\u2500") or text.startswith("Full test results"):
            return False
        if frame := _FRAME.match(text):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
        elif text and not text.startswith(("\u2514", "\u250c", "Logs saved to")):
            self.lines.append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        hint: dict[str, Any] = {
            "runner": "alcotest",
            "test_id": f"{self.suite} {self.index}",
            "test_name": self.name,
        }
        for text in self.lines:
            if v := re.match(r"^(?P<k>Expected|Received): `(?P<v>.*)'$", text):
                hint["expected" if v.group("k") == "Expected" else "actual"] = v.group("v")
        message = next(
            (t for t in self.lines if t.startswith("FAIL ")),
            self.lines[0] if self.lines else "test failed",
        )
        if "expected" in hint and "actual" in hint:
            message = f"{message}: expected {hint['expected']}, received {hint['actual']}"
        chosen = innermost_in_project(self.frames, self.ctx)
        if chosen is not None and not self.ctx.in_project(chosen[0]):
            chosen = None
        file = chosen[0] if chosen else self.test_file
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=file,
                line=chosen[1] if chosen else None,
                log_line=self.log_line,
                hint=hint,
                related=related_frames(self.frames, chosen),
            )
        ]


@rule(
    id="ocaml.alcotest",
    category=FailureType.TEST,
    tool="alcotest",
    pattern=r"^\u2502 \[FAIL\]\s+(?P<suite>\S+)\s+(?P<index>\d+)\s+(?P<name>.+?)\s*\u2502$",
    triggers=("\u2502 [FAIL]",),
    url="https://github.com/mirage/alcotest",
)
def ocaml_alcotest(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing Alcotest test (`dune test`).

    What it detects: the boxed header `│ [FAIL]  cart  1   count.  │` and
    the report under it: `ASSERT count` / `FAIL count`, `Expected: `3'` /
    `Received: `2'` (hint["expected"], hint["actual"]) and the `Raised at`
    / `Called from` backtrace, whose innermost frame in the project is the
    location; when only Alcotest's own frames are printed, the test's source
    named by dune's `test_cart alias test/runtest (exit 1)` line.
    hint["test_id"] is `cart 1` (`./test_cart.exe test cart 1` re-runs
    it).  The progress lines (`> [FAIL] cart 1 count.`) and `1 failure! in
    0.001s. 3 tests run.` are not records.

    Example output (`dune test`, Alcotest 1.6.0):
        │ [FAIL]        cart          1   count.                                       │
        └──────────────────────────────────────────────────────────────────────────────┘
        ASSERT count
        FAIL count

           Expected: `3'
           Received: `2'

    Recipe: test. Re-run the one test; a real failure is escalated with
    expected vs actual.

    References: https://github.com/mirage/alcotest
    """
    return _AlcotestFailure(m, ctx)
