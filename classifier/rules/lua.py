"""Lua: interpreter errors (lua, luajit, luac), luacheck and busted."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext
from .registry import rule
from .stack import Frame, innermost_in_project, related_frames

ECOSYSTEM = "Lua"

_AT = lazy_compile(r"^(?P<file>[^\s:\[][^:]*?\.lua):(?P<line>\d+): (?P<message>.*)$")
_FRAME = lazy_compile(r"^\t(?P<file>[^\s:\[][^:]*?\.lua):(?P<line>\d+): in ")
_NAMED = lazy_compile(
    r"(?:\(|attempt to \w+ )(?:global|local|field|method|upvalue|constant) '(?P<name>[^']+)'"
)
_NO_MODULE = lazy_compile(r"module '(?P<module>[^']+)' not found")
_VERSIONED = tuple(f"{name}5.{minor}" for name in ("lua", "luac") for minor in range(1, 5))
_INTERPRETERS = ("lua", "luajit", "luac", "texlua", "resty", *_VERSIONED)


def lua_hint(message: str) -> dict[str, Any]:
    hint: dict[str, Any] = {}
    if m := _NAMED.search(message):
        hint["name"] = m.group("name")
    if m := _NO_MODULE.search(message):
        hint["module"] = m.group("module")
    return hint


class _LuaError:
    """`lua5.4: ./shop/cart.lua:24: attempt to ...`, a second message line
    (`error loading module ... from file ...:` is followed by the real
    error), and the `stack traceback:` frames."""

    max_lines = 400

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.tool = m.group("interp")
        self.rest = m.group("rest").strip()
        self.detail: str | None = None
        self.frames: list[Frame] = []
        self._trace = False

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith("stack traceback:"):
            self._trace = True
            return True
        if self._trace:
            if frame := _FRAME.match(line):
                self.frames.append((frame.group("file"), int(frame.group("line"))))
                return True
            return line.startswith("\t")
        if line.startswith("\t"):
            if self.detail is None and self.rest.endswith(":"):
                self.detail = line.strip()
            return True  # package.path's "no file ..." list
        return False

    def finish(self) -> Iterable[Hit]:
        where = _AT.match(self.detail) if self.detail else None
        where = where or _AT.match(self.rest)
        message = self.rest if not self.detail else f"{self.rest} {self.detail}"
        chosen: Frame | None = None
        if where and self.ctx.in_project(where.group("file")):
            chosen = (where.group("file"), int(where.group("line")))
            message = where.group("message") if not self.detail else message
        else:
            chosen = innermost_in_project(
                self.frames, self.ctx, ("/usr/share/lua/", "/usr/local/share/lua/")
            )
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                tool=self.tool,
                log_line=self.log_line,
                hint=lua_hint(message),
                related=related_frames(self.frames, chosen),
            )
        ]


@rule(
    id="lua.error",
    category=FailureType.COMPILE,
    tool="lua",
    pattern=r"^(?P<interp>" + "|".join(re.escape(i) for i in _INTERPRETERS) + r"): (?P<rest>.+)$",
    triggers=tuple(f"{i}: " for i in _INTERPRETERS),
    url="https://www.lua.org/manual/5.4/manual.html#lua.c",
)
def lua_error(m: re.Match[str], ctx: LineContext) -> Block:
    """A Lua error that stopped the interpreter (lua, luajit, luac -p).

    What it detects: `lua5.4: ./shop/cart.lua:24: attempt to perform
    arithmetic on a nil value (field 'cent')` with its `stack traceback:`
    (`\\tmain.lua:4: in main chunk`), a syntax error (`luac5.4:
    shop/cart.lua:26: 'end' expected (to close 'function' at line 21) near
    ')'`; through `require`, `error loading module 'shop.cart' from file
    './shop/cart.lua':` with the error on the next line), and `module
    'shop.discount' not found:` with package.path's `no file` list (the
    location is the `require` line).  The location is the error's own
    position when it is in the project, else the innermost project frame.
    hint["name"] (the nil field, method or global), hint["module"].

    Example output (`lua5.4 main.lua`, Lua 5.4.4):
        lua5.4: ./shop/cart.lua:24: attempt to perform arithmetic on a nil value (field 'cent')
        stack traceback:
            ./shop/cart.lua:24: in function 'shop.cart.total'
            main.lua:4: in main chunk

    Recipe: compile, escalated with the location and the nil name.

    References: https://www.lua.org/manual/5.4/manual.html#lua.c,
    https://www.lua.org/manual/5.4/manual.html#pdf-require
    """
    return _LuaError(m, ctx)


@rule(
    id="lua.luacheck",
    category=FailureType.COMPILE,
    tool="luacheck",
    pattern=r"^\s*(?P<file>[^\s:][^:]*?\.(?:lua|rockspec|luacheckrc)):(?P<line>\d+):(?P<column>\d+)(?:-(?P<end_column>\d+))?: (?:\((?P<code>[EW]\d{3})\) )?(?P<message>.+)$",
    triggers=(".lua:", ".rockspec:", ".luacheckrc:"),
    url="https://luacheck.readthedocs.io/en/stable/cli.html",
)
def lua_luacheck(m: re.Match[str], ctx: LineContext) -> Hit:
    """A luacheck warning or error.

    What it detects: the indented lines under `Checking shop/cart.lua  3
    warnings`, `    shop/cart.lua:13:21: unused argument 'unused'`, with
    `--codes` (`(W212)`, the code; `E011` for a syntax error) and
    `--ranges` (`13:21-26`, the end column), and the same lines unindented
    (`--formatter plain`).  luacheck exits non-zero for warnings too, so
    each is a record; hint["name"] is the quoted variable.  `Total: 0
    warnings / 0 errors` gives nothing.

    Example output (`luacheck --no-color shop main.lua`, Luacheck 1.1.0):
        Checking shop/cart.lua                            3 warnings

            shop/cart.lua:13:21: unused argument 'unused'

    Recipe: compile, escalated with the location and the variable.

    References: https://luacheck.readthedocs.io/en/stable/cli.html,
    https://luacheck.readthedocs.io/en/stable/warnings.html
    """
    message = m.group("message").strip()
    hint: dict[str, Any] = {}
    if name := re.search(r"'(?P<name>[^']+)'", message):
        hint["name"] = name.group("name")
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("column")),
        end_column=int(m.group("end_column")) + 1 if m.group("end_column") else None,
        code=m.group("code"),
        hint=hint,
    )


class _BustedFailure:
    """`Failure → spec/cart_spec.lua @ 12`, the test's name, the message
    (`spec/cart_spec.lua:13: Expected objects to be equal.`) and the
    `Passed in:` / `Expected:` values.

    A failure's details end at a blank line, which busted prints between
    failures, but the last failure of a run has none after it: whatever
    runs next (`make -k`'s next target, a CI job's next step) follows at
    once.  So after the message only what busted prints there is read (the
    value labels, `(type) value` lines, indented table bodies and traceback
    frames, `stack traceback:`); the first other line ends the failure and
    goes to the other rules."""

    max_lines = 200

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.kind = m.group("kind")
        self.spec = m.group("file")
        self.spec_line = int(m.group("line"))
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.name: str | None = None
        self.lines: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith(("Failure ", "Error ")) and _BUSTED_HEAD.match(line):
            return False
        if self.name is None:
            self.name = line.strip()
            return True
        if not line.strip() and self.lines:
            return False
        if self.lines and not _BUSTED_DETAIL.match(line):
            return False  # another tool's output after the run's last failure
        self.lines.append(line.rstrip())
        return True

    def finish(self) -> Iterable[Hit]:
        first = self.lines[0].strip() if self.lines else "test failed"
        file: str | None = self.spec
        line: int | None = self.spec_line
        message = first
        if at := _AT.match(first):
            file, line, message = at.group("file"), int(at.group("line")), at.group("message")
        hint: dict[str, Any] = {
            "runner": "busted",
            "test_id": self.name or self.spec,
            "spec": f"{self.spec}:{self.spec_line}",
        }
        hint.update(lua_hint(" ".join(self.lines)))
        for label, key in (("Passed in:", "actual"), ("Expected:", "expected")):
            if label in self.lines:
                i = self.lines.index(label)
                if i + 1 < len(self.lines):
                    hint[key] = re.sub(r"^\(\w+\) ", "", self.lines[i + 1].strip())
        category = None
        detail = " ".join(x.strip() for x in self.lines)
        if "error loading module" in detail:
            category = FailureType.COMPILE  # the code under test does not load
            if inner := next(
                (_AT.match(x.strip()) for x in self.lines[1:] if _AT.match(x.strip())), None
            ):
                file, line = inner.group("file"), int(inner.group("line"))
            message = detail
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=file,
                line=line,
                category=category,
                log_line=self.log_line,
                hint=hint,
            )
        ]


# What busted prints under a failure's message line.
_BUSTED_DETAIL = lazy_compile(r"^(?:[\s(]|(?:Passed in|Expected|stack traceback):\s*$)")
_BUSTED_HEAD = lazy_compile(r"^(?P<kind>Failure|Error) (?:→|->) (?P<file>\S+) @ (?P<line>\d+)$")


@rule(
    id="lua.busted",
    category=FailureType.TEST,
    tool="busted",
    pattern=_BUSTED_HEAD.pattern,
    triggers=("Failure \u2192 ", "Error \u2192 ", "Failure -> ", "Error -> "),
    url="https://lunarmodules.github.io/busted/",
)
def lua_busted(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing busted test (utfTerminal and plainTerminal output).

    What it detects: `Failure → spec/cart_spec.lua @ 12` (`Error → ...` for
    an error; `->` in plainTerminal), the test's full name (`cart counts
    the quantities`, hint["test_id"]), the message with its location
    (`spec/cart_spec.lua:13: Expected objects to be equal.`) and the
    `Passed in:` / `Expected:` values (hint["actual"], hint["expected"]).
    A spec file whose module does not load (`error loading module
    'shop.cart' ...`) is compile, at the broken file's line.  `3 successes /
    0 failures / 0 errors` gives nothing.

    Example output (`busted -o utfTerminal spec`, busted 2.1.1):
        Failure → spec/cart_spec.lua @ 12
        cart counts the quantities
        spec/cart_spec.lua:13: Expected objects to be equal.
        Passed in:
        (number) 2
        Expected:
        (number) 3

    Recipe: test. Re-run the one test (`busted --filter "counts the
    quantities"`); a real failure is escalated with expected vs actual.

    References: https://lunarmodules.github.io/busted/
    """
    return _BustedFailure(m, ctx)
