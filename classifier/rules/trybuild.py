"""Compile-fail (UI) tests of Rust crates: trybuild's report, whose quoted
rustc diagnostics are a test's expected and actual output, not errors of
the build that runs them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

ECOSYSTEM = "Rust"
_DOTTED = "┈" * 20  # trybuild's snippet frame is 60 of them
_HEADINGS = ("EXPECTED:", "ACTUAL OUTPUT:", "STDOUT:", "STDERR:", "WARNINGS:")
_KINDS = {
    "Expected test case to fail to compile, but it succeeded.": "compiled",
    "Test case failed at runtime.": "runtime",
    "Execution of the test case was unsuccessful but there was no output.": "runtime",
}


class _UiTest:
    """From `test tests/ui/x.rs ... mismatch` (or `... error`) through the
    snippets trybuild prints under it."""

    max_lines = 20_000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.path = m.group("path")
        self.outcome = m.group("outcome")
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.section = ""
        self.in_snippet = False
        self.first: dict[str, str] = {}  # a snippet's first diagnostic line, by heading
        self.kind = "mismatch" if self.outcome == "mismatch" else "failed_to_build"

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if text.startswith(_DOTTED):
            self.in_snippet = not self.in_snippet
            if self.in_snippet and not self.section:
                self.section = "BUILD"  # `... error` then the failed build's stderr
            return True
        if self.in_snippet:
            if text and self.section not in self.first:
                self.first[self.section] = text
            return True
        if text in _HEADINGS:
            self.section = text[:-1]
            return True
        if text in _KINDS:
            self.kind = _KINDS[text]
            return True
        if text.startswith("note: If the actual output is the correct output"):
            return True
        if text.startswith("your test with the environment variable TRYBUILD="):
            return True
        return not text

    def finish(self) -> Iterable[Hit]:
        hint: dict[str, Any] = {"runner": "trybuild", "test_id": self.path, "kind": self.kind}
        if "EXPECTED" in self.first:
            hint["expected"] = self.first["EXPECTED"]
        if "ACTUAL OUTPUT" in self.first:
            hint["actual"] = self.first["ACTUAL OUTPUT"]
        what = {
            "mismatch": "the compiler's output differs from the expected .stderr",
            "compiled": "expected to fail to compile, but it compiled",
            "runtime": "the test case failed at run time",
            "failed_to_build": "the test case did not build",
        }[self.kind]
        yield Hit(
            signal=self.signal,
            message=f"UI test {self.path}: {what}",
            file=self.path,
            code=self.kind,
            log_line=self.log_line,
            hint=hint,
        )


@rule(
    id="trybuild.ui_test",
    category=FailureType.TEST,
    tool="trybuild",
    pattern=r"^test (?P<path>\S+\.rs)(?: \[should (?:pass|fail to compile)\])? \.\.\. (?P<outcome>mismatch|error)\s*$",
    triggers=(".rs ... mismatch", ".rs ... error", "] ... mismatch", "] ... error"),
    url="https://docs.rs/trybuild",
    priority=20,
)
def ui_test(m: re.Match[str], ctx: LineContext) -> _UiTest:
    """A compile-fail (UI) test that failed under trybuild.

    What it detects: `test tests/ui/x.rs ... mismatch` and the `EXPECTED:`
    and `ACTUAL OUTPUT:` snippets under it (each between trybuild's dotted
    lines): the rustc diagnostics quoted there are the test's expected and
    actual output, so they are one test record at the UI test's file, not
    compile errors (hint `expected`, `actual`: each snippet's first line).
    `test x.rs ... error` with `Expected test case to fail to compile, but
    it succeeded.`, `Test case failed at runtime.` or the failed build's
    output is the same record with its `kind`. trybuild's closing panic
    (`1 of 2 tests failed`) repeats it. trybuild needs crates.io, which our
    machines do not reach: the sample is built from the format its source
    prints (src/message.rs).

    Example output (documented format, `cargo test --test ui`):
        test tests/ui/missing-field.rs ... mismatch

        EXPECTED:
        ┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈
        error[E0063]: missing field `b` in initializer of `S`
        ┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈

        ACTUAL OUTPUT:
        ┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈
        error[E0063]: missing fields `b` and `c` in initializer of `S`
        ┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈┈

    Recipe: test (bless it with `TRYBUILD=overwrite` when the new output is
    right; a human decides).

    References: https://docs.rs/trybuild, https://github.com/dtolnay/trybuild
    """
    return _UiTest(m, ctx)
