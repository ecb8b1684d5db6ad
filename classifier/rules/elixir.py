"""Elixir: compile and run-time errors (`** (CompileError) ...`, Elixir
1.15+ diagnostics), `--warnings-as-errors` and ExUnit failures."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import FALLBACK, Block, Hit, LineContext, match_above
from .causes import environment_cause
from .registry import rule
from .stack import Frame, innermost_in_project, related_frames

ECOSYSTEM = "Elixir"

_ERRORS_DOCS = "https://hexdocs.pm/elixir/main/compatibility-and-deprecations.html"
# `    (shop 0.1.0) lib/shop/cart.ex:12: Shop.Cart.total/1` or
# `       test/shop/cart_test.exs:16: (test)`
FRAME = lazy_compile(
    r"^\s+(?:\((?P<app>[\w@.-]+)(?: [\w.+-]+)?\) )?(?P<file>[^\s:()][^:()]*?\.(?:exs?|erl|hrl)):(?P<line>\d+): "
)
_LOCATED = lazy_compile(
    r"^(?P<file>[^\s:][^:]*?\.(?:exs?|eex|heex|leex)):(?P<line>\d+)(?::(?P<column>\d+))?: (?P<message>.*)$"
)
_LIBRARY = ("/lib/elixir/", "/lib/erlang/", "deps/", "/usr/lib/")
_UNDEFINED = lazy_compile(
    r"undefined function (?P<name>[\w?!]+)/(?P<arity>\d+)|function (?P<module>[\w.]+)\.(?P<fname>[\w?!]+)/\d+ is undefined"
)
# Mix refusing to run for the environment's sake: the Elixir version, Hex, a
# dependency that cannot be fetched.
_MIX_ENV = lazy_compile(
    r"You're trying to run :\w+ on Elixir v|Could not find (?:Hex|an SCM for dependency)"
    r"|Unchecked dependencies|dependenc(?:y|ies) .* (?:not available|could not be fetched)"
    r"|Could not fetch|failed to fetch|Could not resolve"
)
_INFRA = lazy_compile(
    r"econnrefused|nxdomain|:timeout\b|ConnectionError|enospc|eacces", re.IGNORECASE
)


def elixir_hint(exc: str | None, message: str) -> dict[str, Any]:
    hint: dict[str, Any] = {"exception": exc} if exc else {}
    if m := _UNDEFINED.search(message):
        hint["name"] = m.group("name") or m.group("fname")
        if m.group("module"):
            hint["module"] = m.group("module")
    return hint


class _ElixirError:
    """`** (Kind) message` and what follows it: further message lines and
    the indented stacktrace."""

    max_lines = 300

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.exc = m.group("exc")
        self.rest = m.group("rest").strip()
        self.frames: list[Frame] = []

    def feed(self, line: str, line_no: int) -> bool:
        if frame := FRAME.match(line):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        if self.frames:
            return False
        return line.startswith(" ") or not line.strip()

    def finish(self) -> Iterable[Hit]:
        message = self.rest
        located = _LOCATED.match(self.rest)
        chosen: Frame | None = None
        column: int | None = None
        key: tuple[Any, ...] | None = None
        if located:
            message = located.group("message")
            chosen = (located.group("file"), int(located.group("line")))
            column = int(located.group("column")) if located.group("column") else None
        elif m := re.match(
            r"^(?P<file>\S+?\.exs?): (?P<message>cannot compile (?:module|file) .*)$", self.rest
        ):
            # Elixir 1.15+: the errors were logged above with their lines.
            message = m.group("message")
            key = (FALLBACK, "elixir", m.group("file"))
            return [
                Hit(
                    signal=self.signal,
                    message=message,
                    file=m.group("file"),
                    log_line=self.log_line,
                    confidence=0.5,
                    hint={"exception": self.exc},
                    key=key,
                )
            ]
        else:
            chosen = innermost_in_project(self.frames, self.ctx, _LIBRARY)
        infra = _INFRA.search(self.rest) or (self.exc == "Mix" and _MIX_ENV.search(self.rest))
        category = FailureType.INFRA if infra else FailureType.COMPILE
        return [
            Hit(
                signal=self.signal,
                message=f"{self.exc}: {message}",
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                column=column,
                category=category,
                log_line=self.log_line,
                hint=elixir_hint(self.exc, message),
                related=related_frames(self.frames, chosen),
            )
        ]


@rule(
    id="elixir.error",
    category=FailureType.COMPILE,
    tool="elixir",
    pattern=r"(?:^|(?<=\s))\*\* \((?P<exc>[A-Z][\w.]*)\) (?P<rest>.*)$",
    triggers=("** (",),
    url="https://hexdocs.pm/elixir/main/Kernel.html#raise/2",
)
def elixir_error(m: re.Match[str], ctx: LineContext) -> Block:
    """An Elixir compile error or an uncaught exception (mix compile, mix
    run, elixir script.exs).

    What it detects: `** (CompileError) lib/shop/cart.ex:12: undefined
    function cents/1 ...` and `** (SyntaxError) lib/shop/cart.ex:9:73:
    unexpected token: ) ...` (located where they say); an uncaught
    exception, `** (FunctionClauseError) no function clause matching in
    Shop.Cart.add/4`, with its indented stacktrace (`    (shop 0.1.0)
    lib/shop/cart.ex:7: Shop.Cart.add/4`), located at the innermost frame in
    the project.  Elixir 1.15+ logs the errors first and then raises
    `** (CompileError) lib/shop/cart.ex: cannot compile module Shop.Cart
    (errors have been logged)`: that line is a fallback, dropped when the
    logged errors were read (elixir.diagnostic).  hint["exception"],
    hint["name"] (an undefined function).  Connection errors are infra, and
    so is Mix refusing to run for the environment's sake (`** (Mix) You're
    trying to run :shop on Elixir v1.14.0 but it has declared ... ~>
    1.17`, `Could not find an SCM for dependency :decimal`, after Mix's Hex
    prompt on the same line).

    Example output (`mix compile`, Elixir 1.14.0):
        == Compilation error in file lib/shop/cart.ex ==
        ** (CompileError) lib/shop/cart.ex:12: undefined function cents/1 (expected Shop.Cart to define such a function or for it to be imported, but none are available)

    Recipe: compile, escalated with the location and the undefined name.

    References: https://hexdocs.pm/elixir/main/Kernel.html#raise/2,
    https://hexdocs.pm/mix/Mix.Tasks.Compile.html
    """
    return _ElixirError(m, ctx)


_DIAGNOSTIC = lazy_compile(r"^\s*(?P<sev>error|warning): (?P<message>.+)$")


@rule(
    id="elixir.diagnostic",
    category=FailureType.COMPILE,
    tool="elixir",
    pattern=r"^\s*└─ (?P<file>[^\s:][^:]*?\.(?:exs?|eex|heex)):(?P<line>\d+)(?::(?P<column>\d+))?(?:: (?P<where>.*))?$",
    triggers=("└─ ",),
    url="https://hexdocs.pm/mix/Mix.Tasks.Compile.html",
)
def elixir_diagnostic(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A compile error as Elixir 1.15 and later log it.

    What it detects: `error: undefined function cents/1 (expected
    Shop.Cart to define such a function ...)`, the framed snippet, and the
    location line `└─ lib/shop/cart.ex:14:87: Shop.Cart.total/1`, which is
    the record's file, line and column.  A `warning:` diagnostic is not a
    failure (see elixir.warnings_as_errors).

    Example output (`mix compile`, Elixir 1.17's documented format; Debian
    12 packages 1.14):
            error: undefined function cents/1 (expected Shop.Cart to define such a function or for it to be imported, but none are available)
            │
         14 │     Enum.reduce(cart, Price.new(0), fn {_, price, q}, sum -> Price.add(sum, Price.new(cents(price) * q)) end)
            │                                                                                       ^^^^^
            │
            └─ lib/shop/cart.ex:14:87: Shop.Cart.total/1

    Recipe: compile, as for elixir.error.

    References: https://hexdocs.pm/mix/Mix.Tasks.Compile.html
    """
    head = match_above(ctx, _DIAGNOSTIC, 40)
    if head is None or head.group("sev") != "error":
        return None
    message = head.group("message").strip()
    return Hit(
        signal=head.group(0).strip(),
        message=message,
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("column")) if m.group("column") else None,
        hint=elixir_hint(None, message),
    )


_WARNING_AT = lazy_compile(
    r"^\s+(?:└─ )?(?P<file>[^\s:][^:]*?\.(?:exs?|eex|heex)):(?P<line>\d+)(?::(?P<column>\d+))?(?:: |$)"
)


@rule(
    id="elixir.warnings_as_errors",
    category=FailureType.COMPILE,
    tool="mix",
    pattern=r"^Compilation failed due to warnings while using the --warnings-as-errors option",
    triggers=("Compilation failed due to warnings",),
    url="https://hexdocs.pm/mix/Mix.Tasks.Compile.Elixir.html",
)
def elixir_warnings_as_errors(m: re.Match[str], ctx: LineContext) -> Block:
    """Warnings that failed `mix compile --warnings-as-errors`.

    What it detects: `Compilation failed due to warnings while using the
    --warnings-as-errors option`; each `warning: ...` printed before it,
    with its location line (`  lib/shop/cart.ex:7: Shop.Cart.empty?/2`, or
    `└─ lib/shop/cart.ex:7:20: ...` from Elixir 1.15), becomes a record of
    its own: those warnings are what failed the run.  Without the flag the
    same warnings give nothing (mix-test-pass-warnings).

    Example output (`mix compile --warnings-as-errors`, Elixir 1.14.0):
        warning: variable "unused" is unused (if the variable is not meant to be used, prefix it with an underscore)
          lib/shop/cart.ex:7: Shop.Cart.empty?/2

        Compilation failed due to warnings while using the --warnings-as-errors option

    Recipe: compile, escalated with each warning's location.

    References: https://hexdocs.pm/mix/Mix.Tasks.Compile.Elixir.html
    """
    return _WarningsFailed(ctx)


class _WarningsFailed:
    """Not a multi-line report: the hits come from the lines above it."""

    max_lines = 1

    def __init__(self, ctx: LineContext) -> None:
        self.hits: list[Hit] = []
        before = ctx.before(400)
        for i, line in enumerate(before):
            head = _DIAGNOSTIC.match(line) if "warning: " in line else None
            if head is None or head.group("sev") != "warning":
                continue
            for after in before[i + 1 : i + 12]:
                if at := _WARNING_AT.match(after):
                    message = head.group("message").strip()
                    self.hits.append(
                        Hit(
                            signal=line.strip(),
                            message=message,
                            file=at.group("file"),
                            line=int(at.group("line")),
                            column=int(at.group("column")) if at.group("column") else None,
                            log_line=ctx.line_no - len(before) + i,
                            hint={"warning": True, "warnings_fail": "--warnings-as-errors"},
                        )
                    )
                    break
        if not self.hits:
            self.hits.append(Hit(signal=ctx.line.strip(), message=ctx.line.strip(), confidence=0.5))

    def feed(self, line: str, line_no: int) -> bool:
        return False

    def finish(self) -> Iterable[Hit]:
        return self.hits


# -- ExUnit ----------------------------------------------------------------------
class _ExUnitFailure:
    """`  1) test counts the quantities (Shop.CartTest)`, the test's
    `file:line`, the assertion or exception, `code:`/`left:`/`right:` and
    the stacktrace."""

    max_lines = 400

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.kind = m.group("kind")
        self.name = m.group("name")
        self.module = m.group("module")
        self.test_at: Frame | None = None
        self.lines: list[str] = []
        self.frames: list[Frame] = []
        self._trace = False

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if _EXUNIT_HEAD.match(line) or line.startswith(("Finished in ", "Randomized with seed")):
            return False
        if self.test_at is None and (at := re.match(r"^(?P<file>\S+\.exs?):(?P<line>\d+)$", text)):
            self.test_at = (at.group("file"), int(at.group("line")))
            return True
        if text == "stacktrace:":
            self._trace = True
            return True
        if self._trace:
            if frame := FRAME.match(line):
                self.frames.append((frame.group("file"), int(frame.group("line"))))
                return True
            return line.startswith("       ") and bool(text)
        if text:
            self.lines.append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        hint: dict[str, Any] = {
            "runner": "exunit",
            "test_name": f"{self.kind} {self.name}",
            "test_module": self.module,
        }
        if self.test_at:
            hint["test_id"] = f"{self.test_at[0]}:{self.test_at[1]}"
        exc: str | None = None
        message = self.lines[0] if self.lines else "test failed"
        if err := re.match(r"^\*\* \((?P<exc>[\w.]+)\) (?P<message>.*)$", message):
            exc = err.group("exc")
            hint.update(elixir_hint(exc, err.group("message")))
            message = f"{exc}: {err.group('message')}"
        for text in self.lines:
            if v := re.match(r"^(?P<k>left|right):\s+(?P<v>.+)$", text):
                hint["actual" if v.group("k") == "left" else "expected"] = v.group("v")
        chosen = innermost_in_project(self.frames, self.ctx, _LIBRARY) or self.test_at
        # `{:error, :econnrefused}`, `:nxdomain`, an unset variable: the
        # environment failed the test (rules/causes.py), where the code met it
        # (the address in the test's `code:` line when the error names none)
        code = [t.removeprefix("code:").strip() for t in self.lines if t.startswith("code:")]
        cause = environment_cause([t for t in self.lines if not t.startswith("code:")], code)
        if cause is not None:
            hint.update(cause.hint)
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                category=cause.category if cause is not None else None,
                log_line=self.log_line,
                hint=hint,
                related=related_frames(self.frames, chosen),
            )
        ]


_EXUNIT_HEAD = lazy_compile(
    r"^\s+\d+\) (?P<kind>test|doctest|property) (?P<name>.+) \((?P<module>[\w.]+)\)$"
)


@rule(
    id="elixir.exunit",
    category=FailureType.TEST,
    tool="exunit",
    pattern=_EXUNIT_HEAD.pattern,
    triggers=(") test ", ") doctest ", ") property "),
    url="https://hexdocs.pm/ex_unit/ExUnit.html",
)
def elixir_exunit(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing ExUnit test (`mix test`).

    What it detects: `  1) test counts the quantities (Shop.CartTest)`
    (doctests and properties too), the test's `test/shop/cart_test.exs:11`
    (hint["test_id"]: `mix test test/shop/cart_test.exs:11` re-runs it),
    the assertion (`Assertion with == failed`, `left:` / `right:`:
    hint["actual"], hint["expected"]) or the exception (`** (Undefined
    FunctionError) ...`: hint["exception"], hint["name"]) and the
    `stacktrace:`, whose innermost project frame is the location.  `3
    tests, 0 failures` gives nothing.  A test failed by its environment
    (`{:error, :econnrefused}`, `:nxdomain`, httpc's `{:failed_connect,
    [{:to_address, {'localhost', 4000}}, …]}`, `System.EnvError` for a
    variable that is not set) is that cause's infra record at the same
    frame (rules/causes.py: `kind`, `host`, `variable`), the test kept in
    its hint.

    Example output (`mix test`, Elixir 1.14.0):
          1) test counts the quantities (Shop.CartTest)
             test/shop/cart_test.exs:11
             Assertion with == failed
             code:  assert Cart.count(cart()) == 3
             left:  2
             right: 3
             stacktrace:
               test/shop/cart_test.exs:12: (test)

    Recipe: test. Re-run the one test (`mix test
    test/shop/cart_test.exs:11`); a real failure is escalated with expected
    vs actual.

    References: https://hexdocs.pm/ex_unit/ExUnit.html,
    https://hexdocs.pm/mix/Mix.Tasks.Test.html
    """
    return _ExUnitFailure(m, ctx)
