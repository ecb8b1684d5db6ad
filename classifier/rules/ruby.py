"""Ruby: syntax errors (`ruby -c`), uncaught exceptions, RuboCop and Standard.

The backtrace reader lives here and is shared with `ruby_test.py` (RSpec,
Minitest and test-unit print interpreter backtraces inside their reports).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext
from .registry import rule
from .stack import Frame, innermost_in_project, related_frames

ECOSYSTEM = "Ruby"

_EXCEPTIONS_DOCS = "https://docs.ruby-lang.org/en/3.1/Exception.html"

# `lib/x.rb:18:in `total'` (Ruby <= 3.3) or `lib/x.rb:18:in 'Cart#total'`
# (3.4), as a backtrace line: bare, `\tfrom `-prefixed, `# `-prefixed
# (RSpec) or indented (Minitest).
FRAME = lazy_compile(
    r"^\s*(?:from |# )?(?P<file>[^\s:'`][^:]*?|<internal:[^>]+>):(?P<line>\d+)(?::in [`'](?P<func>[^'`]*)')?\s*$"
)
_LIBRARY_MARKERS = ("/gems/", "/lib/ruby/", "<internal:", "/vendor/bundle/", "/rubygems/")

_UNDEFINED_METHOD = lazy_compile(r"undefined (?:local variable or )?method [`'](?P<name>[^'`]+)'")
_UNINITIALIZED = lazy_compile(r"uninitialized constant (?P<constant>[\w:]+)")
_CANNOT_LOAD = lazy_compile(r"cannot load such file -- (?P<feature>\S+)")
_DID_YOU_MEAN = lazy_compile(r"^\s*Did you mean\?\s+(?P<suggestion>\S+)")
# Exceptions that say the environment is wrong, not the code.
_INFRA_EXCEPTIONS = frozenset(
    {
        "Errno::ECONNREFUSED",
        "Errno::ECONNRESET",
        "Errno::ETIMEDOUT",
        "Errno::EHOSTUNREACH",
        "Errno::ENOSPC",
        "Errno::EACCES",
        "SocketError",
        "Net::OpenTimeout",
        "Net::ReadTimeout",
        "Timeout::Error",
        "OpenSSL::SSL::SSLError",
        "NoMemoryError",
    }
)


def project_frame(frames: Sequence[Frame], ctx: LineContext) -> Frame | None:
    """Of frames listed innermost first: the innermost inside the project;
    else the innermost outside the interpreter's and the gems' folders."""
    return innermost_in_project(frames, ctx, _LIBRARY_MARKERS)


def exception_hint(exc: str, message: str, extra: Sequence[str] = ()) -> dict[str, Any]:
    """What a recipe needs from a Ruby exception: the undefined method or
    constant, the feature `require` could not load, Ruby's own suggestion."""
    hint: dict[str, Any] = {"exception": exc}
    if m := _UNDEFINED_METHOD.search(message):
        hint["name"] = m.group("name")
    elif m := _UNINITIALIZED.search(message):
        hint["name"] = m.group("constant").rsplit("::", 1)[-1]
        hint["constant"] = m.group("constant")
    elif m := _CANNOT_LOAD.search(message):
        hint["module"] = m.group("feature")
    for line in extra:
        if s := _DID_YOU_MEAN.match(line):
            hint["suggestion"] = s.group("suggestion")
            break
    return hint


def exception_category(exc: str, message: str, lines: Sequence[str] = ()) -> FailureType:
    """Network, disk and permission errors are infra, and so is a KeyError
    from `ENV.fetch` (a missing environment variable); the rest is the code's
    fault: compile."""
    if exc in _INFRA_EXCEPTIONS:
        return FailureType.INFRA
    if exc == "KeyError" and any("ENV" in line for line in lines):
        return FailureType.INFRA
    return FailureType.COMPILE


# -- ruby -c and the parser's errors --------------------------------------------
_PRISM_CODE = lazy_compile(r"^\s*(?:>\s*)?\d+ \| ")
_PRISM_CARET = lazy_compile(r"^\s+\| (?P<pad>\s*)\^+ ?(?P<message>.*)$")


class _SyntaxError:
    """`file:14: syntax error, ...` and what the parser prints under it:
    Ruby <= 3.3 a truncated excerpt and a caret (the column cannot be told
    from it), Prism (3.4) numbered source lines and a caret line carrying
    the message."""

    max_lines = 30

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.signal = ctx.line.strip()
        self.file = m.group("file")
        self.line = int(m.group("line"))
        self.message = m.group("message").strip().removesuffix("(SyntaxError)").strip()
        self.log_line = ctx.line_no
        self.column: int | None = None
        self.details: list[str] = []
        self._seen = 0

    def feed(self, line: str, line_no: int) -> bool:
        self._seen += 1
        if _PRISM_CODE.match(line):
            return True
        if caret := _PRISM_CARET.match(line):
            if self.column is None:
                self.column = len(caret.group("pad")) + 1
            if caret.group("message"):
                self.details.append(caret.group("message").strip())
            return True
        # the excerpt of Ruby <= 3.3, and its caret
        return (self._seen <= 2 and line.startswith("...")) or bool(re.match(r"^\s*\^~*\s*$", line))

    def finish(self) -> Iterable[Hit]:
        message = self.message
        if self.details:
            message = f"{message}: {'; '.join(self.details)}"
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=self.file,
                line=self.line,
                column=self.column,
                log_line=self.log_line,
                hint={"exception": "SyntaxError"},
            )
        ]


@rule(
    id="ruby.syntax_error",
    category=FailureType.COMPILE,
    tool="ruby",
    pattern=r"^(?:ruby: |.*?:in [`'][^'`]*': )?(?P<file>[^\s:<>][^:<>]*?\.(?:rb|rake|ru|gemspec)|Rakefile|Gemfile):(?P<line>\d+): (?P<message>syntax errors?\b.*)$",
    triggers=(": syntax error",),
    url="https://docs.ruby-lang.org/en/3.1/SyntaxError.html",
)
def ruby_syntax_error(m: re.Match[str], ctx: LineContext) -> Block:
    """A Ruby syntax error (`ruby -c`, or any run that loads the file).

    What it detects: `lib/shop/cart.rb:25: syntax error, unexpected
    end-of-input, expecting `end'` (Ruby <= 3.3: an excerpt and a caret may
    follow; each further error is a line of its own) and Prism's `ruby:
    lib/x.rb:14: syntax errors found (SyntaxError)` (Ruby 3.4) with its
    numbered source lines, whose caret line carries the message.  Loaded
    through `require`, the line starts with the requiring frame
    (`...:in `require': lib/x.rb:14: syntax error, ...`): the file is the
    broken one.  `Syntax OK` and `-w` warnings are not failures.

    Example output (`ruby -c lib/shop/cart.rb`, ruby 3.1.2):
        lib/shop/cart.rb:25: syntax error, unexpected end-of-input, expecting `end'

    Recipe: compile. Escalated with the location: the parser's message
    names what is unbalanced, not the fix.

    References: https://docs.ruby-lang.org/en/3.1/SyntaxError.html,
    https://ruby.github.io/prism/
    """
    return _SyntaxError(m, ctx)


# -- uncaught exceptions ---------------------------------------------------------
class _Backtrace:
    """An uncaught exception: the first line (innermost frame, message,
    class), the message's further lines (error_highlight's excerpt,
    did_you_mean's suggestion) and the `\\tfrom ...` frames."""

    max_lines = 400

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.exc = m.group("exc")
        self.message = m.group("message").strip()
        self.log_line = ctx.line_no
        self.frames: list[tuple[str, int]] = [(m.group("file"), int(m.group("line")))]
        self.extra: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith("\tfrom "):
            if frame := FRAME.match(line):
                self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        if len(self.frames) == 1 and (not line.strip() or line.startswith((" ", "Did you mean?"))):
            self.extra.append(line)  # the message's excerpt and suggestion
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        chosen = project_frame(self.frames, self.ctx)
        hint = exception_hint(self.exc, self.message, self.extra)
        return [
            Hit(
                signal=self.signal,
                message=f"{self.exc}: {self.message}",
                file=chosen[0] if chosen else None,
                line=chosen[1] if chosen else None,
                category=exception_category(self.exc, self.message, self.extra),
                log_line=self.log_line,
                hint=hint,
                related=related_frames(self.frames, chosen),
            )
        ]


@rule(
    id="ruby.exception",
    category=FailureType.COMPILE,
    tool="ruby",
    pattern=r"^(?P<file>[^\s:][^:]*?|<internal:[^>]+>):(?P<line>\d+):in [`'](?P<func>[^'`]*)': (?P<message>.*) \((?P<exc>[A-Z][\w]*(?:::[A-Z]\w*)*)\)$",
    triggers=(":in `", ":in '"),
    url=_EXCEPTIONS_DOCS,
)
def ruby_exception(m: re.Match[str], ctx: LineContext) -> Block | None:
    """An uncaught Ruby exception and its backtrace.

    What it detects: `lib/shop/cart.rb:18:in `total': undefined method
    `cent' for #<Shop::Price ...> (NoMethodError)` (Ruby 3.4 quotes
    `'Shop::Cart#total'`), error_highlight's excerpt and did_you_mean's
    `Did you mean?  cents` under it (hint["suggestion"]), and the `\\tfrom
    bin/checkout:8:in `<main>'` frames.  The location is the innermost
    frame inside the project (a LoadError's first frame is rubygems'
    `<internal:...kernel_require.rb>`: the project's `require` line is
    chosen), the other frames are related locations.  hint["exception"],
    hint["name"] (the undefined method or constant), hint["module"] (the
    feature a `require` could not load).  Network, disk and permission
    errors (Errno::ECONNREFUSED, SocketError, Errno::ENOSPC, ...) and a
    KeyError from `ENV.fetch` are infra; the rest compile.  SystemExit and
    Interrupt are not failures.

    Example output (`ruby bin/checkout`, ruby 3.1.2):
        /work/shop/lib/shop/cart.rb:18:in `block in total': undefined method `cent' for #<Shop::Price:0x00007fb536220220 @cents=350, @currency="EUR"> (NoMethodError)

              @items.map { |item| Price.new(item.price.cent * item.quantity) }
                                                      ^^^^^
        Did you mean?  cents
            from /work/shop/lib/shop/cart.rb:18:in `map'
            from bin/checkout:8:in `<main>'

    Recipe: compile (a misspelt method with Ruby's suggestion, a missing
    `require`), escalated with the location; infra errors are escalated
    with what a human must fix.

    References: https://docs.ruby-lang.org/en/3.1/Exception.html,
    https://github.com/ruby/error_highlight
    """
    if m.group("exc") in ("SystemExit", "Interrupt", "SignalException"):
        return None
    if m.group("exc") == "SyntaxError" and "syntax error" in m.group("message"):
        return None  # the broken file's own line: ruby.syntax_error reads it
    return _Backtrace(m, ctx)


# -- RuboCop and Standard --------------------------------------------------------
_RUBOCOP_DOCS = "https://docs.rubocop.org/rubocop/formatters.html"
_SEVERITY = {
    "I": "info",
    "R": "refactor",
    "C": "convention",
    "W": "warning",
    "E": "error",
    "F": "fatal",
}


def _cop_hit(m: re.Match[str], ctx: LineContext, signal: str, tool: str) -> Hit:
    cop = m.group("code")
    hint: dict[str, Any] = {"cop": cop}
    sev = m.groupdict().get("sev")
    if sev:
        hint["severity"] = _SEVERITY.get(sev, sev)
    if m.group("fix"):
        hint["correctable"] = True
    # Security cops (eval, YAML.load, Marshal.load, open with a pipe) need a
    # human's review, as every security linter's findings do.
    category = FailureType.TRUST_GATE if cop.startswith("Security/") else None
    return Hit(
        signal=signal,
        message=f"{cop}: {m.group('message').strip()}",
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("column")),
        code=cop,
        tool=tool,
        category=category,
        hint=hint,
    )


_COP = r"(?P<fix>\[(?:Correctable|Corrected|Todo)\] )?(?P<code>[A-Z][A-Za-z]*/[A-Z][A-Za-z0-9]*): (?P<message>.+)$"


@rule(
    id="ruby.rubocop",
    category=FailureType.COMPILE,
    tool="rubocop",
    pattern=r"^(?P<file>[^\s:][^:]*?):(?P<line>\d+):(?P<column>\d+): (?P<sev>[IRCWEF]): " + _COP,
    triggers=(": C: ", ": W: ", ": E: ", ": F: ", ": R: ", ": I: "),
    url=_RUBOCOP_DOCS,
)
def ruby_rubocop(m: re.Match[str], ctx: LineContext) -> Hit:
    """A RuboCop offense (progress, clang and emacs formatters).

    What it detects: `lib/shop.rb:3:18: C: [Correctable]
    Style/StringLiterals: Prefer single-quoted strings ...` (the default
    formatter; the source line and a caret follow) and the same line with an
    absolute path (`--format emacs`).  RuboCop exits non-zero for every
    offense at or above its fail level, so each is a record: code and
    hint["cop"] are the cop, hint["severity"] the letter's name, and
    hint["correctable"] says `rubocop -a` can fix it.  A `Security/` cop is
    trust_gate (never fixed automatically); `Lint/Syntax` is the parser's
    error.  `3 files inspected, no offenses detected` gives nothing.

    Example output (`rubocop lib`, RuboCop 1.39.0):
        lib/shop/cart.rb:33:7: W: Lint/UselessAssignment: Useless assignment to variable - unused.
              unused = price.currency
              ^^^^^^

    Recipe: compile. A correctable offense can be fixed with `rubocop -a
    FILE`; the rest are escalated with the cop's message.

    References: https://docs.rubocop.org/rubocop/formatters.html,
    https://docs.rubocop.org/rubocop/usage/basic_usage.html
    """
    return _cop_hit(m, ctx, ctx.line.strip(), "rubocop")


_STANDARD_OFFENSE = lazy_compile(
    r"^  (?P<file>[^\s:][^:]*?):(?P<line>\d+):(?P<column>\d+): " + _COP
)


class _StandardReport:
    """Standard's header and the indented offense lines under it."""

    max_lines = 100_000

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.hits: list[Hit] = []

    def feed(self, line: str, line_no: int) -> bool:
        if line.startswith("standard: "):
            return True
        if m := _STANDARD_OFFENSE.match(line):
            hit = _cop_hit(m, self.ctx, line.strip(), "standardrb")
            hit.log_line = line_no
            self.hits.append(hit)
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        return self.hits


@rule(
    id="ruby.standard",
    category=FailureType.COMPILE,
    tool="standardrb",
    pattern=r"^standard: Use Ruby Standard Style",
    triggers=("standard: Use Ruby Standard Style",),
    url="https://github.com/standardrb/standard",
    priority=21,  # before js_lint.standard, whose banner pattern also fits
)
def ruby_standard(m: re.Match[str], ctx: LineContext) -> Block:
    """Offenses reported by Standard (`standardrb`), RuboCop's wrapper.

    What it detects: the header `standard: Use Ruby Standard Style
    (https://github.com/standardrb/standard)` and the indented offense lines
    under it, `  lib/shop.rb:3:18: [Correctable] Style/StringLiterals:
    Prefer double-quoted strings ...` (no severity letter: Standard fails on
    every offense).  One record per offense, as for ruby.rubocop.

    Example output (`standardrb lib`, Standard's documented formatter; not
    installable here):
        standard: Use Ruby Standard Style (https://github.com/standardrb/standard)
          lib/shop/cart.rb:33:7: Lint/UselessAssignment: Useless assignment to variable - `unused`.

    Recipe: compile. `standardrb --fix FILE` fixes the correctable ones;
    the rest are escalated.

    References: https://github.com/standardrb/standard
    """
    return _StandardReport(ctx)
