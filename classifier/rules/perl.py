"""Perl: compile and run-time errors (`perl -c`, `die`), Test::More
failures under prove, and prove's closing summary."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import FALLBACK, Block, Hit, LazyPattern, LineContext
from .registry import rule

ECOSYSTEM = "Perl"

_PERL_AT = r" at (?P<file>\S+?\.(?:pl|pm|t|psgi|cgi|PL)|-e|\(eval \d+\)) line (?P<line>\d+)(?:, (?:near|at) .*)?\.?$"
# Perl's own warnings end the same way as its errors: they are known by
# their text (perldiag's "(W ...)" and "(S ...)" classes seen most).
_WARNINGS = (
    "Use of uninitialized value",
    "Useless use of ",
    'Name "',
    "Scalar value ",
    'Argument "',
    "Possible attempt to ",
    "Possible precedence ",
    "Subroutine ",
    "Odd number of elements",
    "Deep recursion",
    "Found = in conditional",
    "Parentheses missing",
    "Statement unlikely to be reached",
    "Unquoted string ",
    "Reversed ",
    "Wide character",
    "Prototype mismatch",
    "Constant subroutine ",
    "Useless localization",
    "Misplaced _ in number",
    "Possible unintended interpolation",
    '"my" variable ',
    'Variable "',
    "Smartmatch is experimental",
)
_SUMMARIES = (
    "BEGIN failed--compilation aborted",
    "Compilation failed in require",
    "Execution of ",
)
_CANT_LOCATE = lazy_compile(
    r"^Can't locate (?P<path>\S+\.pm) in @INC(?: \(you may need to install the (?P<module>[\w:]+) module\))?"
)
_GLOBAL = lazy_compile(r'^Global symbol "(?P<name>[$@%][\w:]+)" requires explicit package name')
_METHOD = lazy_compile(
    r'^Can\'t locate object method "(?P<name>\w+)" via package "(?P<package>[^"]+)"'
)
_UNDEF_SUB = lazy_compile(r"^Undefined subroutine &(?P<name>[\w:]+) called")
_INFRA = lazy_compile(
    r"Connection refused|No space left on device|Permission denied|Can't connect to "
)


def perl_hint(message: str) -> dict[str, Any]:
    hint: dict[str, Any] = {}
    if m := _CANT_LOCATE.match(message):
        module = m.group("module") or m.group("path").removesuffix(".pm").replace("/", "::")
        hint["module"] = module
    elif m := _GLOBAL.match(message):
        hint["name"] = m.group("name")
    elif m := _METHOD.match(message):
        hint["name"], hint["package"] = m.group("name"), m.group("package")
    elif m := _UNDEF_SUB.match(message):
        hint["name"] = m.group("name")
    return hint


@rule(
    id="perl.error",
    category=FailureType.COMPILE,
    tool="perl",
    pattern=r"^(?P<message>\S.*?)" + _PERL_AT,
    triggers=(
        ".pl line ",
        ".pm line ",
        ".t line ",
        ".psgi line ",
        ".cgi line ",
        ".PL line ",
        "-e line ",
        ") line ",
    ),
    url="https://perldoc.perl.org/perldiag",
)
def perl_error(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A Perl compile or run-time error (`perl -c`, a script that dies).

    What it detects: `Global symbol "$total" requires explicit package name
    ... at lib/Shop/Cart.pm line 27.`, `syntax error at lib/Shop/Cart.pm
    line 36, near "..."`, `Can't locate Shop/Discount.pm in @INC (you may
    need to install the Shop::Discount module) ...` (hint["module"]),
    `Can't locate object method "format" via package "1120" at checkout.pl
    line 8.` (hint["name"]), and any `die` message ending in `at FILE line
    N.`.  Perl's warnings end the same way and are told apart by their
    perldiag text (`Use of uninitialized value ...`, `Useless use of ...`,
    ...): warning hits (`use warnings FATAL => 'all'` makes them errors).  `BEGIN failed--compilation aborted` and
    `Compilation failed in require` only repeat the error above them; `X
    had compilation errors.` is a count.  Lines starting with `#` are
    Test::More's (perl.test_more).

    Example output (`perl -c -Ilib lib/Shop/Cart.pm`, perl 5.36.0):
        Global symbol "$total" requires explicit package name (did you forget to declare "my $total"?) at lib/Shop/Cart.pm line 27.
        lib/Shop/Cart.pm had compilation errors.

    Recipe: compile, escalated with the location (a missing module is named,
    never installed from the message).

    References: https://perldoc.perl.org/perldiag,
    https://perldoc.perl.org/perlrun#-c
    """
    message = m.group("message").strip()
    if message.startswith("#"):
        return None
    if message.startswith(_WARNINGS):
        return Hit(
            signal=ctx.line.strip(),
            message=message,
            file=m.group("file"),
            line=int(m.group("line")),
            warning=True,
        )
    if message.startswith(_SUMMARIES):
        return Hit(
            signal=ctx.line.strip(),
            message=message,
            file=m.group("file"),
            line=int(m.group("line")),
            confidence=0.5,
            key=(FALLBACK, "perl", m.group("file")),
        )
    if message.startswith("Can't locate ") and "@INC" in message:
        message = message.split(" (@INC contains:", 1)[0]
    return Hit(
        signal=ctx.line.strip()[:500],
        message=message,
        file=m.group("file"),
        line=int(m.group("line")),
        category=FailureType.INFRA if _INFRA.search(message) else None,
        hint=perl_hint(message),
    )


class _TestMoreFailure:
    """`#   Failed test 'name'`, `#   at t/cart.t line 10.`, then `#
    got:` / `#     expected:`."""

    max_lines = 60

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.name = m.group("name") or ""
        self.file = m.group("file")
        self.line = int(m.group("line")) if m.group("line") else None
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.lines: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        if not line.startswith("#") or _FAILED_TEST.match(line) or line.startswith("# Looks like"):
            return False
        text = line[1:].strip()
        if self.file is None and (at := re.match(r"^at (?P<file>\S+) line (?P<line>\d+)\.$", text)):
            self.file, self.line = at.group("file"), int(at.group("line"))
        elif text:
            self.lines.append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        hint: dict[str, Any] = {"runner": "prove", "test_id": self.name, "test_name": self.name}
        for text in self.lines:
            if v := re.match(r"^(?P<k>got|expected): (?P<v>.+)$", text):
                hint["actual" if v.group("k") == "got" else "expected"] = v.group("v").strip("'")
        message = " ".join(self.lines) or "test failed"
        if self.file:
            hint["test_file"] = self.file
        return [
            Hit(
                signal=self.signal,
                message=f"{self.name}: {message}" if self.name else message,
                file=self.file,
                line=self.line,
                log_line=self.log_line,
                hint=hint,
                # the same test's `not ok N - name` (prove -v) is one record
                key=("tap", self.name, None),
            )
        ]


_FAILED_TEST = lazy_compile(
    r"^#\s+Failed (?:\(TODO\) )?test (?:'(?P<name>.*)'|in (?P<file>\S+) at line (?P<line>\d+)\.)\s*$"
)


@rule(
    id="perl.test_more",
    category=FailureType.TEST,
    tool="prove",
    pattern=_FAILED_TEST.pattern,
    triggers=("Failed test ",),
    url="https://perldoc.perl.org/Test::More",
)
def perl_test_more(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A failing Test::More test (prove, `perl t/x.t`, `make test`).

    What it detects: the diagnostics Test::More prints on stderr, `#
    Failed test 'counts the quantities'` / `#   at t/cart.t line 10.` (the
    location) / `#          got: '2'` / `#     expected: '3'` (hint["actual"],
    hint["expected"]); an unnamed test says `#   Failed test in t/cart.t
    at line 10.`.  With `prove -v` the same test's `not ok 2 - counts the
    quantities` TAP line is the same record.  `# Failed (TODO) test` is
    expected to fail and gives nothing; `All tests successful.` neither.

    Example output (`prove -l t`, prove 3.44 / Test::More 1.302190):
        #   Failed test 'counts the quantities'
        #   at t/cart.t line 10.
        #          got: '2'
        #     expected: '3'

    Recipe: test. Re-run the test file (`prove -l t/cart.t`); a real
    failure is escalated with expected vs actual.

    References: https://perldoc.perl.org/Test::More,
    https://perldoc.perl.org/prove
    """
    if "(TODO)" in ctx.line:
        return None
    return _TestMoreFailure(m, ctx)


# A failed script in prove's `Test Summary Report`.
_WSTAT = LazyPattern(r"^(?P<file>\S+\.t) \(Wstat: ")


@rule(
    id="perl.prove_failed",
    category=FailureType.TEST,
    tool="prove",
    pattern=r"^Result: FAIL$",
    triggers=("Result: FAIL",),
    url="https://perldoc.perl.org/prove",
)
def perl_prove_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """prove's closing `Result: FAIL`.

    What it detects: the last line of a failed prove run.  It repeats the
    failures above it: a fallback (Hit.key FALLBACK, confidence 0.5),
    dropped when they were read, and the record when a test script died
    without Test::More diagnostics (`Dubious, test returned 255`) or the log
    was cut short.  The failing scripts of the `Test Summary Report` go into
    hint["files"].

    Example output (`prove -l t`, prove 3.44):
        t/cart.t (Wstat: 512 (exited 2) Tests: 3 Failed: 2)
          Failed tests:  2-3
        Files=1, Tests=3,  0 wallclock secs ( 0.02 usr  0.02 sys +  0.09 cusr  0.01 csys =  0.14 CPU)
        Result: FAIL

    Recipe: test: re-run the failing scripts once.

    References: https://perldoc.perl.org/prove
    """
    files = [
        f.group("file")
        for line in ctx.before(200)
        if " (Wstat: " in line and (f := _WSTAT.match(line))
    ]
    hint: dict[str, Any] = {"files": files} if files else {}
    return Hit(
        signal=ctx.line.strip(),
        message=f"prove: {', '.join(files)} failed" if files else "prove: tests failed",
        file=files[0] if files else None,
        confidence=0.5,
        hint=hint,
        key=(FALLBACK, "prove"),
    )
