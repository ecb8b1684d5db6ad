"""Erlang: erlc errors (alone or under rebar3), EUnit failures (plain and
rebar3's report), rebar3's closing lines and uncaught exceptions that end a
program (a boot crash, an escript)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import FALLBACK, Block, Hit, LineContext, match_above
from .registry import rule

ECOSYSTEM = "Erlang"

_ERLC = lazy_compile(
    r"^(?P<file>[^\s:][^:]*?\.(?:erl|hrl|escript|yrl|xrl)):(?P<line>\d+)(?::(?P<column>\d+))?: (?P<message>.+)$"
)
_UNDEFINED = lazy_compile(r"^function (?P<name>[\w']+)/(?P<arity>\d+) undefined$")
_NO_INCLUDE = lazy_compile(r"can't find include (?:lib|file) \"(?P<module>[^\"]+)\"")


class _ErlcError:
    """An erlc diagnostic and its `%   13| source` / `%     |   ^` excerpt."""

    max_lines = 3

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        message = m.group("message").strip()
        warning = message.startswith(("Warning: ", "warning: "))
        message = message.split(": ", 1)[1] if warning else message
        hint: dict[str, Any] = {}
        if u := _UNDEFINED.match(message):
            hint["name"], hint["arity"] = u.group("name"), int(u.group("arity"))
        elif inc := _NO_INCLUDE.search(message):
            hint["module"] = inc.group("module")
        if any("warnings being treated as errors" in x for x in ctx.before(30)):
            hint["warnings_fail"] = "warnings_as_errors"
        self.hit = Hit(
            signal=ctx.line.strip(),
            message=message,
            file=m.group("file"),
            line=int(m.group("line")),
            column=int(m.group("column")) if m.group("column") else None,
            log_line=ctx.line_no,
            hint=hint,
            warning=warning,
        )

    def feed(self, line: str, line_no: int) -> bool:
        return line.startswith("% ")

    def finish(self) -> Iterable[Hit]:
        return [self.hit]


@rule(
    id="erlang.erlc",
    category=FailureType.COMPILE,
    tool="erlc",
    pattern=_ERLC.pattern,
    triggers=(".erl:", ".hrl:", ".escript:", ".yrl:", ".xrl:"),
    url="https://www.erlang.org/doc/man/erlc.html",
)
def erlang_erlc(m: re.Match[str], ctx: LineContext) -> Block | None:
    """An Erlang compile error (erlc, rebar3 compile, erlang.mk).

    What it detects: `src/shop_cart.erl:13:27: function cents/1 undefined`
    (OTP 24+ print the column; older releases `file:line:`), `...: syntax
    error before: ')'`, and the `%   13| ...` / `%     |   ^` excerpt under
    it (OTP 25+).  hint["name"] and hint["arity"] of an undefined function,
    hint["module"] of a missing include.  `Warning:` lines are warning hits;
    with `-Werror` / `warnings_as_errors` erlc prints `compile: warnings
    being treated as errors` and the warnings without their prefix, which
    then are records (hint["warnings_fail"]).

    Example output (`erlc -o ebin src/shop_cart.erl`, Erlang/OTP 25):
        src/shop_cart.erl:13:27: function cents/1 undefined
        %   13| total(Cart) -> lists:sum([cents(P) * Q || {_, P, Q} <- Cart]).
        %     |                           ^

    Recipe: compile, escalated with the location and the undefined name.

    References: https://www.erlang.org/doc/man/erlc.html,
    https://www.erlang.org/doc/man/compile.html
    """
    message = m.group("message")
    if re.match(r"^in (?:function|call from) ", message):
        return None
    return _ErlcError(m, ctx)


# -- EUnit -------------------------------------------------------------------------
_IN_FUNCTION = lazy_compile(r"^in function (?P<mfa>\S+) \((?P<file>[^,()]+), line (?P<line>\d+)\)$")
_TERM = lazy_compile(r"\{(?P<key>expected|value),(?P<v>.+?)\}(?:\]\}|,)\s*$")


class _EunitFailure:
    """`shop_cart_tests: count_test...*failed*`, the `in function ...
    (file, line N)` frames and the `**error:{assertEqual, [...]}` term."""

    max_lines = 200

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.module = m.group("module")
        self.test = m.group("test")
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.at: tuple[str, int] | None = None
        self.error: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip() or line.startswith("===="):
            return False
        if fn := _IN_FUNCTION.match(line):
            if self.at is None:
                self.at = (fn.group("file"), int(fn.group("line")))
            return True
        if line.startswith(("in call from ", "  output:")):
            return True
        self.error.append(line.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        term = " ".join(self.error)
        message = term.removeprefix("**")
        hint: dict[str, Any] = {"runner": "eunit", "test_id": f"{self.module}:{self.test}"}
        for part in self.error:
            if v := _TERM.search(part):
                hint["expected" if v.group("key") == "expected" else "actual"] = v.group("v")
        if kind := re.match(r"^\*\*error:\{(?P<kind>\w+),", term):
            message = f"{kind.group('kind')} failed"
            if "expected" in hint and "actual" in hint:
                message += f": expected {hint['expected']}, got {hint['actual']}"
        return [
            Hit(
                signal=self.signal,
                message=message or "test failed",
                file=self.at[0] if self.at else None,
                line=self.at[1] if self.at else None,
                log_line=self.log_line,
                hint=hint,
                key=("eunit", self.module, self.test),
            )
        ]


@rule(
    id="erlang.eunit",
    category=FailureType.TEST,
    tool="eunit",
    pattern=r"^(?P<module>[a-z][\w@]*): (?P<test>[\w'@]+?)(?: \((?P<desc>[^)]*)\))?\.\.\.\*failed\*$",
    triggers=("...*failed*",),
    url="https://www.erlang.org/doc/apps/eunit/chapter.html",
)
def erlang_eunit(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing EUnit test (eunit:test/2's default report, erlang.mk).

    What it detects: `shop_cart_tests: count_test...*failed*`, the first
    `in function shop_cart_tests:count_test/0 (test/shop_cart_tests.erl,
    line 8)` frame (the location) and the `**error:{assertEqual,[...
    {expected,3}, {value,2}]}` term (hint["expected"], hint["actual"]).
    hint["test_id"] is `shop_cart_tests:count_test`.  `Failed: 2.
    Skipped: 0.  Passed: 1.` is a count; `All 3 tests passed.` gives
    nothing.

    Example output (`erl -noshell -pa ebin -eval 'eunit:test(shop_cart_tests, [])'`,
    Erlang/OTP 25):
        shop_cart_tests: count_test...*failed*
        in function shop_cart_tests:count_test/0 (test/shop_cart_tests.erl, line 8)
        **error:{assertEqual,[{module,shop_cart_tests},
                      {line,8},
                      {expression,"shop_cart : count ( cart ( ) )"},
                      {expected,3},
                      {value,2}]}

    Recipe: test. Re-run the one test (`eunit:test({shop_cart_tests,
    count_test})`); a real failure is escalated with expected vs actual.

    References: https://www.erlang.org/doc/apps/eunit/chapter.html
    """
    return _EunitFailure(m, ctx)


_REBAR_ITEM = lazy_compile(r"^\s+\d+\) (?P<module>[a-z][\w@]*):(?P<test>[\w'@]+)/(?P<arity>\d+)$")


class _RebarEunitFailure:
    """rebar3's report of a failed EUnit test: `Failure/Error:` then the
    expected/got lines and `%% file:line:in ...` frames."""

    max_lines = 100

    def __init__(self, ctx: LineContext, item: re.Match[str]) -> None:
        self.ctx = ctx
        self.module = item.group("module")
        self.test = item.group("test")
        self.signal = f"{item.group(0).strip()}: {ctx.line.strip()}"
        self.log_line = ctx.line_no
        self.message = ctx.line.split("Failure/Error:", 1)[1].strip()
        self.lines: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        if _REBAR_ITEM.match(line) or not line.startswith("     "):
            return False
        self.lines.append(line.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        hint: dict[str, Any] = {"runner": "rebar3 eunit", "test_id": f"{self.module}:{self.test}"}
        for text in self.lines:
            if v := re.match(r"^(?P<k>expected|got): (?P<v>.+)$", text):
                hint["expected" if v.group("k") == "expected" else "actual"] = v.group("v")
        file: str | None = None
        for candidate in (f"test/{self.module}.erl", f"src/{self.module}.erl"):
            if self.ctx.exists(candidate):
                file = candidate
                break
        return [
            Hit(
                signal=self.signal,
                message=self.message,
                file=file,
                log_line=self.log_line,
                hint=hint,
                key=("eunit", self.module, self.test),
            )
        ]


@rule(
    id="erlang.rebar3_eunit",
    category=FailureType.TEST,
    tool="rebar3",
    pattern=r"^\s+Failure/Error: ",
    triggers=("Failure/Error: ",),
    url="https://rebar3.org/docs/testing/eunit/",
    priority=1,
)
def erlang_rebar3_eunit(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A failing EUnit test as `rebar3 eunit` reports it.

    What it detects: under `Failures:`, `  1) shop_cart_tests:count_test/0`
    and `     Failure/Error: ?assertEqual(3, shop_cart : count ( cart ( ) ))`
    with `expected: 3` / `got: 2` (hint["expected"], hint["actual"]).
    rebar3's frames name eunit's own files, not the test's line: the record
    is at the test module's file (test/<module>.erl) with no line.  The
    numbered item is an Erlang `module:function/arity`, which tells this
    report from RSpec's, whose shape it borrows.

    Example output (`rebar3 eunit`, rebar 3.19.0 on Erlang/OTP 25):
          1) shop_cart_tests:count_test/0
             Failure/Error: ?assertEqual(3, shop_cart : count ( cart ( ) ))
               expected: 3
                    got: 2

    Recipe: test. Re-run the one test (`rebar3 eunit
    --test=shop_cart_tests:count_test`); a real failure is escalated with
    expected vs actual.

    References: https://rebar3.org/docs/testing/eunit/
    """
    item = match_above(ctx, _REBAR_ITEM, 2)
    if item is None:
        return None
    return _RebarEunitFailure(ctx, item)


@rule(
    id="erlang.rebar3_failed",
    category=FailureType.COMPILE,
    tool="rebar3",
    pattern=r"^===> (?P<message>Compiling (?P<file>\S+) failed|Error running tests|Failed to compile|Errors loading plugin|Compilation failed.*)$",
    triggers=("===> ",),
    url="https://rebar3.org/docs/commands/",
)
def erlang_rebar3_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """rebar3's line saying a step failed.

    What it detects: `===> Compiling src/shop_cart.erl failed` (before the
    compiler's errors) and `===> Error running tests` (after the test
    report).  They only name the step: a fallback (Hit.key FALLBACK,
    confidence 0.5), dropped when the errors or failures were read.  The
    tests line is test, the rest compile.

    Example output (`rebar3 compile`, rebar 3.19.0):
        ===> Compiling src/shop_cart.erl failed

    Recipe: compile or test: re-run to get the details.

    References: https://rebar3.org/docs/commands/
    """
    message = m.group("message")
    test = message == "Error running tests"
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=m.group("file"),
        category=FailureType.TEST if test else FailureType.COMPILE,
        confidence=0.5,
        key=(FALLBACK, "rebar3", message),
    )


# `{cart,main,0,[{file,"cart.erl"},{line,4}]}` in a crash's stack term
_TERM_FRAME = lazy_compile(r'\{file,"(?P<file>[^"]+)"\},\{line,(?P<line>\d+)\}')
# `  in function  cart:main/1 (cart.escript, line 4)`, `  in call from init:do_boot/3 `
_CRASH_FRAME = lazy_compile(
    r"^\s+in (?:function|call from)\s+(?P<where>\S+)(?: \((?P<file>[^,()]+), line (?P<line>\d+)\))?\s*$"
)


class _ErlangCrash:
    """An uncaught exception's `in function` / `in call from` lines
    (escript, the shell); a boot crash's stack is on its own line."""

    max_lines = 60

    def __init__(self, ctx: LineContext, message: str, frames: list[tuple[str, int]]) -> None:
        self.ctx = ctx
        self.message = message
        self.frames = frames
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no

    def feed(self, line: str, line_no: int) -> bool:
        if frame := _CRASH_FRAME.match(line):
            if frame.group("file"):
                self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        # the boot crash's short repeat and the crash dump note
        return line.startswith(("init terminating in do_boot (", "Crash dump is being written"))

    def finish(self) -> Iterable[Hit]:
        ours = [f for f in self.frames if self.ctx.in_project(f[0])]
        at = ours[0] if ours else None
        return [
            Hit(
                signal=self.signal,
                message=self.message,
                file=at[0] if at else None,
                line=at[1] if at else None,
                log_line=self.log_line,
                hint={"runner": "erlang", "why": self.message[:500]},
                related=[(f, n, None, "") for f, n in ours[1:6]],
                key=("erlang crash", self.log_line),
            )
        ]


@rule(
    id="erlang.crash",
    category=FailureType.COMPILE,
    tool="erlang",
    pattern=r'^(?:\{"init terminating in do_boot",(?P<term>.*)\}|(?:escript: |\*\* )(?P<exc>exception (?:error|exit|throw): .*))$',
    triggers=(
        '{"init terminating in do_boot"',
        "exception error: ",
        "exception exit: ",
        "exception throw: ",
    ),
    url="https://www.erlang.org/doc/system/errors.html",
)
def erlang_crash(m: re.Match[str], ctx: LineContext) -> Block:
    """An Erlang program that died of an uncaught exception.

    What it detects: a boot crash (`erl -noshell -s cart main`, `erl -eval`,
    a release's start), `{"init terminating in do_boot",{Reason,Stack}}`
    with its stack frames `{cart,main,0,[{file,"cart.erl"},{line,4}]}`; and
    an escript's or the shell's `escript: exception error: no match of
    right hand side value {error,empty}` with its `in function  m:f/1
    (cart.escript, line 4)` and `in call from ...` lines.  The record sits
    at the innermost frame whose file is in the project (erl_eval's,
    escript's and init's frames are skipped; the next project frames are
    related); an interpreted escript's frames are all erl_eval's, so it
    has no location.  The reason is hint["why"].

    Example output (`erl -noshell -pa ebin -s shop_cart main -s init stop`, OTP 25):
        {"init terminating in do_boot",{{badkey,pear},[{erlang,map_get,[pear,#{apple=>3}],[{error_info,#{module=>erl_erts_errors}}]},{shop_cart,price,2,[{file,"src/shop_cart.erl"},{line,5}]},{shop_cart,main,0,[{file,"src/shop_cart.erl"},{line,9}]},{init,start_em,1,[]},{init,do_boot,3,[]}]}}
        init terminating in do_boot ({{badkey,pear},[{erlang,map_get,[pear,],[{_}]},{shop_cart,price,2,[{_},{_}]},{shop_cart,main,0,[{_},{_}]},{init,start_em,1,[]},{init,do_boot,3,[]}]})

        Crash dump is being written to: erl_crash.dump...done

    Recipe: compile: the crash is the code's; nothing is changed
    automatically, the record is escalated with the reason and the frames.

    References: https://www.erlang.org/doc/system/errors.html,
    https://www.erlang.org/doc/apps/erts/escript_cmd.html
    """
    term = m.group("term")
    if term is None:
        return _ErlangCrash(ctx, m.group("exc"), [])
    # the reason is the term before the stack list: `{badkey,pear}` of `{{badkey,pear},[{...`
    reason = term[1 : term.find(",[{")] if term.startswith("{") and ",[{" in term else term
    frames = [(f.group("file"), int(f.group("line"))) for f in _TERM_FRAME.finditer(term)]
    return _ErlangCrash(ctx, f"init terminating in do_boot: {reason}", frames)
