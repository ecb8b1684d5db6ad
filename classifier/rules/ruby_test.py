"""Ruby test runners: RSpec (Minitest and test-unit are in `ruby_xunit.py`).

The report reader here (message, exception, expected/actual, location) is
shared with `ruby_xunit.py`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import CARET_LINE, Block, Hit, LineContext, match_above
from .causes import environment_cause, infra_env
from .registry import rule
from .ruby import FRAME, exception_category, exception_hint, project_frame
from .stack import related_frames

ECOSYSTEM = "Ruby"

_EXC_LINE = lazy_compile(
    r"^(?P<exc>(?:[A-Z]\w*::)*(?:[A-Z]\w*(?:Error|Exception|NotFound|Invalid)|E[A-Z]+)):(?: (?P<message>.*))?$"
)
_SYNTAX_AT = lazy_compile(r"^(?P<file>[^\s:][^:]*?\.rb):(?P<line>\d+): ")


def _values(lines: list[str]) -> dict[str, str]:
    """expected/actual from `expected: 3` / `got: 2` (RSpec), `Expected: 3`
    / `Actual: 2` (Minitest) and `<3> expected but was\\n<2>` (test-unit)."""
    found: dict[str, str] = {}
    for i, text in enumerate(lines):
        # (each regex is tried only on lines starting as it does)
        first = text[:1]
        if first in "eE" and (m := re.match(r"^(?:expected|Expected):? (?P<v>.+)$", text)):
            found.setdefault("expected", m.group("v").strip())
        elif first in "gA" and (m := re.match(r"^(?:got|Actual):? (?P<v>.+)$", text)):
            found.setdefault("actual", m.group("v").strip())
        elif (
            first == "<" and (m := re.match(r"^<(?P<v>.*)> expected but was$", text))
        ) and i + 1 < len(lines):
            found["expected"] = m.group("v")
            found["actual"] = lines[i + 1].strip().removeprefix("<").removesuffix(">")
    return found if "expected" in found and "actual" in found else {}


def _message(lines: list[str]) -> tuple[str, str | None]:
    """The first paragraph of a report's message, and the exception class
    when the report is an error (`NoMethodError:` / `NoMethodError: msg`)."""
    para: list[str] = []
    for text in lines:
        if not text:
            if para:
                break
            continue
        if CARET_LINE.match(text):
            continue
        para.append(text)
    exc: str | None = None
    if para and (m := _EXC_LINE.match(para[0])):
        exc = m.group("exc")
        rest = [m.group("message")] if m.group("message") else []
        return f"{exc}: {' '.join(rest + para[1:2])}".strip(), exc
    return " ".join(para), exc


def report_hit(
    ctx: LineContext,
    *,
    runner: str,
    signal: str,
    log_line: int,
    lines: list[str],
    frames: list[tuple[str, int]],
    at: tuple[str, int] | None,
    hint: dict[str, Any],
    key: tuple[Any, ...],
    code: Sequence[str] = (),
) -> Hit:
    message, exc = _message(lines)
    if exc == "SyntaxError" and (where := next(filter(None, map(_SYNTAX_AT.match, lines)), None)):
        at = (where.group("file"), int(where.group("line")))  # the broken file, not its loader
    chosen = at or project_frame(frames, ctx)
    hint = {"runner": runner, **hint}
    category: FailureType | None = None
    if exc:
        hint.update(exception_hint(exc, message, lines))
        if exception_category(exc, message, [*lines, *code]) is FailureType.INFRA:
            category = FailureType.INFRA
            hint.update(_cause(exc, message, lines, code))
    hint.update(_values(lines))
    return Hit(
        signal=signal,
        message=message or "test failed",
        file=chosen[0] if chosen else None,
        line=chosen[1] if chosen else None,
        category=category,
        log_line=log_line,
        hint=hint,
        related=related_frames(frames, chosen),
        key=key,
    )


_KEY_NOT_FOUND = lazy_compile(r"key not found: \"(?P<key>[A-Za-z_][A-Za-z0-9_]*)\"")


def _cause(exc: str, message: str, lines: list[str], code: Sequence[str]) -> dict[str, Any]:
    """What the infra recipe needs of an environment cause: the host and port
    of a refused connection (`connect(2) for "127.0.0.1" port 9`), the
    variable `ENV.fetch` did not find."""
    cause = environment_cause([message, *lines], code)
    if cause is not None:
        return cause.hint
    if exc == "KeyError" and (m := _KEY_NOT_FOUND.search(message)):
        return infra_env(m.group("key")).hint
    return {}


# -- RSpec -----------------------------------------------------------------------
_RSPEC_DOCS = "https://rspec.info/features/3-12/rspec-core/command-line/"
_EXAMPLE = lazy_compile(r"^\s+\d+\) (?P<desc>.+)$")
_SECTION = lazy_compile(r"^(?P<section>Failures|Pending):")


class _RSpecFailure:
    """One numbered report of RSpec's Failures section: `Failure/Error:` and
    the code, the message, then `# ./spec/x_spec.rb:14:in ...` frames."""

    max_lines = 400

    def __init__(self, ctx: LineContext, desc: str) -> None:
        self.ctx = ctx
        self.desc = desc
        # Two examples failing on one library line print the same
        # Failure/Error line: the description tells them apart.
        self.signal = f"{desc}: {ctx.line.strip()}"
        self.log_line = ctx.line_no
        code = ctx.line.split("Failure/Error:", 1)[1].strip()
        self.code_lines = bool(not code)  # the code follows on its own lines
        self.code: list[str] = [code] if code else []
        self.lines: list[str] = []
        self.frames: list[tuple[str, int]] = []

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if _EXAMPLE.match(line) or line.startswith(("Finished in ", "Failed examples:")):
            return False
        if text.startswith("# ") and (frame := FRAME.match(line)):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        if self.frames:
            return bool(text) and text.startswith("#")  # `# --- Caused by: ---` and its frames
        if self.code_lines:
            self.code_lines = bool(text)
            if text:
                self.code.append(text)
            return True
        self.lines.append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        return [
            report_hit(
                self.ctx,
                runner="rspec",
                signal=self.signal,
                log_line=self.log_line,
                lines=self.lines,
                frames=self.frames,
                at=None,
                hint={"test_name": self.desc},
                key=("rspec", self.desc),
                code=self.code,
            )
        ]


@rule(
    id="rspec.failure",
    category=FailureType.TEST,
    tool="rspec",
    pattern=r"^\s*Failure/Error:",
    triggers=("Failure/Error:",),
    url=_RSPEC_DOCS,
)
def rspec_failure(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A failing RSpec example.

    What it detects: a numbered report of the `Failures:` section, `  1)
    Shop::Cart adds up the quantities` / `Failure/Error: expect(cart.count).to
    eq(3)` (or the code on the lines after `Failure/Error:`), the message
    (`expected: 3` / `got: 2`: hint["expected"] and hint["actual"]; or
    `NoMethodError:` and its message: hint["exception"], hint["name"]) and
    the `# ./spec/cart_spec.rb:14:in ...` frames.  The location is the
    innermost frame in the project: the expectation's line in the spec, or
    the library line that raised.  hint["test_name"] is the description;
    the `rspec ./spec/cart_spec.rb:12 # ...` line of `Failed examples:`
    adds hint["test_id"] (see rspec.rerun).  Reports under `Pending:`
    ("Failures listed here are expected") are not failures, nor is `3
    examples, 0 failures`.

    Example output (`rspec -I lib spec`, RSpec 3.12):
          1) Shop::Cart adds up the quantities
             Failure/Error: expect(cart.count).to eq(3)

               expected: 3
                    got: 2

               (compared using ==)
             # ./spec/cart_spec.rb:14:in `block (2 levels) in <top (required)>'

    Recipe: test. Re-run the one example (`rspec ./spec/cart_spec.rb:12`)
    to tell flaky from real; a real failure is escalated with expected vs
    actual.

    References: https://rspec.info/features/3-12/rspec-core/command-line/,
    https://rspec.info/features/3-12/rspec-expectations/
    """
    example = match_above(ctx, _EXAMPLE, 3)
    if example is None:
        return None
    section = match_above(ctx, _SECTION, 2000)
    if section is not None and section.group("section") == "Pending":
        return None
    return _RSpecFailure(ctx, example.group("desc").strip())


@rule(
    id="rspec.rerun",
    category=FailureType.TEST,
    tool="rspec",
    pattern=r"^rspec (?P<file>\S+?\.rb):(?P<line>\d+)(?::\d+)* # (?P<desc>.+)$|^rspec (?P<idfile>\S+?\.rb)\[(?P<ids>[\d:,]+)\] # (?P<desc2>.+)$",
    triggers=("rspec ./", "rspec spec/"),
    url=_RSPEC_DOCS,
)
def rspec_rerun(m: re.Match[str], ctx: LineContext) -> Hit:
    """A line of RSpec's `Failed examples:` list.

    What it detects: `rspec ./spec/cart_spec.rb:12 # Shop::Cart adds up the
    quantities` (or `rspec ./spec/cart_spec.rb[1:2] # ...` for examples
    RSpec cannot tell apart by line).  It names the same failure as the
    report above it and is merged into it (same key), adding hint["test_id"],
    the argument that re-runs the example; alone (a log cut to its tail) it
    is the record, at the example's line.

    Example output (`rspec -I lib spec`, RSpec 3.12):
        Failed examples:

        rspec ./spec/cart_spec.rb:12 # Shop::Cart adds up the quantities

    Recipe: test: `rspec ./spec/cart_spec.rb:12` re-runs the example once.

    References: https://rspec.info/features/3-12/rspec-core/command-line/
    """
    desc = (m.group("desc") or m.group("desc2")).strip()
    if m.group("file"):
        test_id = f"{m.group('file')}:{m.group('line')}"
        file, line = m.group("file"), int(m.group("line"))
    else:
        test_id = f"{m.group('idfile')}[{m.group('ids')}]"
        file, line = m.group("idfile"), None
    return Hit(
        signal=ctx.line.strip(),
        message=desc,
        file=file,
        line=line,
        hint={"runner": "rspec", "test_name": desc, "test_id": test_id},
        key=("rspec", desc),
    )


class _RSpecLoadError:
    """`An error occurred while loading ./spec/x_spec.rb.` and the exception
    and frames under it."""

    max_lines = 200

    def __init__(self, ctx: LineContext, spec: str) -> None:
        self.ctx = ctx
        self.spec = spec
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.lines: list[str] = []
        self.frames: list[tuple[str, int]] = []

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if text.startswith("# ") and (frame := FRAME.match(line)):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        if self.frames or text.startswith(
            ("An error occurred ", "No examples found", "Finished in ")
        ):
            return False
        if text.startswith("rspec ") and not self.lines:
            return True  # a "Did you mean?" suggestion of another spec to run
        if not text.startswith("Failure/Error:"):
            self.lines.append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        hit = report_hit(
            self.ctx,
            runner="rspec",
            signal=self.signal,
            log_line=self.log_line,
            lines=self.lines,
            frames=self.frames,
            at=None,
            hint={"test_file": self.spec},
            key=("rspec", "load", self.spec),
        )
        if hit.category is None:
            hit.category = FailureType.COMPILE
        if hit.file is None:
            hit.file = self.spec
        return [hit]


@rule(
    id="rspec.load_error",
    category=FailureType.COMPILE,
    tool="rspec",
    pattern=r"^An error occurred while loading (?P<spec>\S+?)\.?(?: - Did you mean\?)?$",
    triggers=("An error occurred while loading ",),
    url=_RSPEC_DOCS,
)
def rspec_load_error(m: re.Match[str], ctx: LineContext) -> Block:
    """A spec file RSpec could not load.

    What it detects: `An error occurred while loading ./spec/cart_spec.rb.`,
    then `Failure/Error: require "shop/receipt"`, the exception (`LoadError:`
    / `cannot load such file -- shop/receipt`: hint["module"]; a NameError
    or SyntaxError in the code the spec loads) and its frames.  No example
    of the file ran: compile (the code, not a test, is broken), at the
    innermost project frame.  RSpec may end the heading with ` - Did you
    mean?` and list specs to run instead (`rspec ./spec/cart_spec.rb`) when
    a `require_relative` fails: the suggestions are not the error.  The closing `0 examples, 0 failures, 1 error
    occurred outside of examples` is not a record of its own.

    Example output (`rspec -I lib spec`, RSpec 3.12):
        An error occurred while loading ./spec/cart_spec.rb.
        Failure/Error: require "shop/receipt"

        LoadError:
          cannot load such file -- shop/receipt
        # ./spec/cart_spec.rb:4:in `<top (required)>'

    Recipe: compile: the missing file or gem is named; escalated with it.

    References: https://rspec.info/features/3-12/rspec-core/command-line/
    """
    return _RSpecLoadError(ctx, m.group("spec"))
