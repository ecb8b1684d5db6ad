"""Rust: rustc/cargo build errors, clippy, cargo test panics, cargo summaries."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..taxonomy import FailureType
from .base import FALLBACK, Block, Hit, LineContext, hit_from_match
from .registry import rule

_RUSTC_DOCS = "https://doc.rust-lang.org/rustc/json.html"
_ERROR_INDEX = "https://doc.rust-lang.org/error_codes/error-index.html"
_CLIPPY_DOCS = "https://doc.rust-lang.org/clippy/usage.html"
_TEST_DOCS = "https://doc.rust-lang.org/cargo/commands/cargo-test.html"

_SPAN = re.compile(r"^\s*(?P<arrow>-->|:::) (?P<file>.+?):(?P<line>\d+):(?P<column>\d+)$")
# A source line of a snippet or a suggestion: "3 |     subtotl + 1", "1 + use x;".
_CODE = re.compile(r"^\s*(?P<line>\d+)\s?(?P<op>[|+~-])(?: (?P<text>.*))?$")
# A label under a snippet: "  |     ^^^^^^^ use of undeclared type `HashMap`".
_LABEL = re.compile(r"^(?P<gutter>\s*\| )(?P<pad>\s*)(?P<marks>[\^~+-]+)(?: (?P<label>.*))?$")
_GUTTER = re.compile(r"^\s*\|\s*$")
_HELP = re.compile(r"^(?P<indent>\s*=\s*)?help: (?P<message>.+)$")
_INLINE_SUGGESTION = re.compile(r"^(?P<message>.+?): `(?P<text>[^`]+)`$")
_NOTE = re.compile(r"^\s*(?:= )?note: (?P<message>.+)$")
_LINT = re.compile(r"-D (?P<lint>[\w:-]+)` implied by|#\[deny\((?P<deny>[\w:]+)\)\]")
_NAME = re.compile(
    r"^cannot find (?:value|type|function|struct|macro|trait|crate|module) `(?P<name>[^`]+)`"
)
_UNRESOLVED = re.compile(r"^unresolved import `(?P<module>[^`]+)`")
_WORD = re.compile(r"\w+")
_UNCODED = re.compile(r"^error: (?P<message>.+)$")
_DIAG_START = re.compile(r"^(?:error|warning)(?:\[\w+\])?: ")


def _lint_code(lint: str) -> str:
    """`clippy::needless-return` (as in `-D`) -> `clippy::needless_return`."""
    return lint.replace("-", "_")


def _changed_word(before: str, after: str) -> str | None:
    """The one word a similar-name suggestion changed, when exactly one did."""
    old, new = _WORD.findall(before), _WORD.findall(after)
    if len(old) != len(new):
        return None
    changed = [b for a, b in zip(old, new, strict=True) if a != b]
    return changed[0] if len(changed) == 1 else None


class _RustDiagnostic:
    """One rustc diagnostic: the `error...:` line up to the blank line ending it.

    Reads the primary span (`-->`), secondary spans (`:::`), the snippet, the
    labels, `note:` lines, the lint that made it an error, and every `help:`
    with its suggestion (inline `` `text` `` or a diff of source lines).
    """

    max_lines = 400

    def __init__(self, message: str, code: str | None, line: str, log_line: int) -> None:
        self.signal = line.strip()
        self.message = message.strip()
        self.code = code
        self.log_line = log_line
        self.file: str | None = None
        self.line: int | None = None
        self.column: int | None = None
        self.end_column: int | None = None
        self.related: list[tuple[str, int | None, int | None, str]] = []
        self.source: dict[int, str] = {}  # the primary snippet, by line number
        self.notes: list[str] = []
        self.advice: list[str] = []
        self.lint: str | None = None
        self.suggestions: list[dict[str, Any]] = []
        self._help: dict[str, Any] | None = None  # the help section being read
        self._last_code_line: int | None = None

    # -- reading -----------------------------------------------------------
    def feed(self, line: str, line_no: int) -> bool:
        if not line.strip():
            return False
        if _DIAG_START.match(line):
            return False
        span = _SPAN.match(line)
        if span:
            self.feed_span(span)
            return True
        help_ = _HELP.match(line)
        if help_:
            self._start_help(help_.group("message").strip(), inline=bool(help_.group("indent")))
            return True
        note = _NOTE.match(line)
        if note:
            self._note(note.group("message").strip())
            return True
        code = _CODE.match(line)
        if code and not _GUTTER.match(line):
            self._code_line(int(code.group("line")), code.group("op"), code.group("text") or "")
            return True
        label = _LABEL.match(line)
        if label:
            self._label(label)
            return True
        return line.startswith((" ", "\t", "|", "..."))

    def feed_span(self, m: re.Match[str]) -> None:
        file, ln, col = m.group("file"), int(m.group("line")), int(m.group("column"))
        if m.group("arrow") == "-->" and self.file is None:
            self.file, self.line, self.column = file, ln, col
        else:
            self.related.append((file, ln, col, ""))
        self._help = None

    def _start_help(self, message: str, inline: bool) -> None:
        if inline:
            # `= help:` is advice without a suggested edit ("to override
            # `-D warnings` add ...", "for further information visit ...").
            self.advice.append(message)
            self._help = None
            return
        sug = _INLINE_SUGGESTION.match(message)
        entry: dict[str, Any] = {"message": message}
        if sug:
            entry = {"message": sug.group("message"), "replacement": sug.group("text")}
            if self.file is not None:
                entry.update(file=self.file, line=self.line, column=self.column)
        self.suggestions.append(entry)
        # A bare `help:` without inline text may show a diff of source lines.
        self._help = None if sug else entry

    def _note(self, message: str) -> None:
        lint = _LINT.search(message)
        if lint:
            self.lint = self.lint or _lint_code(lint.group("lint") or lint.group("deny"))
        elif not message.startswith("for more information"):
            self.notes.append(message)

    def _code_line(self, number: int, op: str, text: str) -> None:
        self._last_code_line = number
        if self._help is None:
            if op == "|":
                self.source.setdefault(number, text)
            return
        edits = self._help.setdefault("edits", [])
        edits.append({"line": number, "op": op, "text": text})
        if self.file is not None:
            self._help.setdefault("file", self.file)

    def _label(self, m: re.Match[str]) -> None:
        label = (m.group("label") or "").strip()
        column = len(m.group("pad")) + 1
        width = len(m.group("marks"))
        primary = self._help is None and self.end_column is None and m.group("marks")[0] == "^"
        if primary and self._last_code_line == self.line and self.column == column:
            self.end_column = column + width
        if not label.startswith("help: "):
            return
        sug = _INLINE_SUGGESTION.match(label[len("help: ") :])
        if not sug:
            return
        entry: dict[str, Any] = {"message": sug.group("message"), "replacement": sug.group("text")}
        if self.file is not None and self._last_code_line is not None:
            entry.update(
                file=self.file,
                line=self._last_code_line,
                column=column,
                end_column=column + width,
            )
        self.suggestions.append(entry)

    # -- result ------------------------------------------------------------
    def finish(self) -> Iterable[Hit]:
        if self.file is None and self.code is None:
            return []
        hint: dict[str, Any] = {}
        name = _NAME.match(self.message)
        if name:
            hint["name"] = name.group("name")
        unresolved = _UNRESOLVED.match(self.message)
        if unresolved:
            hint["module"] = unresolved.group("module")
        if self.suggestions:
            hint["suggestions"] = self.suggestions
            self._similar_name(hint)
        if self.notes:
            hint["notes"] = self.notes
        if self.advice:
            hint["help"] = self.advice
        code = self.code
        rule_id = "rust.error"
        if self.lint:
            hint["lint"] = self.lint
            code = code or self.lint
            if self.lint.startswith("clippy::"):
                rule_id = "rust.clippy"
        return [
            Hit(
                signal=self.signal,
                message=self.message,
                file=self.file,
                line=self.line,
                column=self.column,
                end_line=self.line if self.end_column else None,
                end_column=self.end_column,
                code=code,
                log_line=self.log_line,
                hint=hint,
                related=self.related,
                rule_id=rule_id,
            )
        ]

    def _similar_name(self, hint: dict[str, Any]) -> None:
        """For "a ... with a similar name exists": the name suggested."""
        for sug in self.suggestions:
            if "similar name" not in sug["message"]:
                continue
            if "replacement" in sug:
                hint["suggestion"] = sug["replacement"]
                return
            for edit in sug.get("edits", []):
                before = self.source.get(edit["line"])
                word = _changed_word(before, edit["text"]) if before is not None else None
                if word:
                    hint["suggestion"] = word
                    return


@rule(
    id="rust.error",
    category=FailureType.COMPILE,
    tool="rustc",
    pattern=r"^error\[(?P<code>E\d{4})\]: (?P<message>.+)$|^\s*--> (?P<file>.+?):(?P<line>\d+):(?P<column>\d+)$",
    triggers=("error[E", "--> "),
    url=_ERROR_INDEX,
)
def rust_error(m: re.Match[str], ctx: LineContext) -> Block | None:
    """rustc errors as cargo build / cargo check / rustc print them.

    What it detects: `error[Ennnn]: message` (or `error: message` directly
    followed by a `--> file:line:col` span, as for lints denied by
    `-D warnings`), read as one block up to the blank line that ends the
    diagnostic.  The primary `-->` span is the location; `:::` spans are
    related locations.  Warnings are not failures and are not matched.
    Every `help:` goes into hint["suggestions"]: inline ones (`help: a local
    variable with a similar name exists: `x``, or a label's `help: ...:
    `_x``) with their replacement text and span, diff-style ones (`help:
    consider importing this struct` then `1 + use std::collections::HashMap;`)
    with their edited lines (op `+` insert, `-` delete, `~`/`|` replace).
    The missing name (`cannot find value `x``) is hint["name"] and a
    similar-name suggestion hint["suggestion"].  A diagnostic whose lint is
    a clippy lint is reported under rust.clippy.

    Example output (`cargo build`, cargo 1.95.0):
        error[E0425]: cannot find value `subtotl` in this scope
         --> src/main.rs:3:5
          |
        3 |     subtotl + 1
          |     ^^^^^^^
          |
        help: a local variable with a similar name exists
          |
        3 |     subtotal + 1
          |           +

    Recipe: compile. The recipe applies the suggestion (the similar name,
    the `use` line to import) or adds the missing import.

    References: https://doc.rust-lang.org/error_codes/error-index.html,
    https://doc.rust-lang.org/rustc/json.html
    """
    if m.group("code"):
        return _RustDiagnostic(m.group("message"), m.group("code"), ctx.line, ctx.line_no)
    # An uncoded `error: message` is only rustc's when a span follows it; the
    # rule starts on the span so that other tools' `error:` lines stay theirs.
    previous = ctx.before(1)
    head = _UNCODED.match(previous[0]) if previous else None
    if head is None:
        return None
    diag = _RustDiagnostic(head.group("message"), None, previous[0], ctx.line_no - 1)
    span = _SPAN.match(ctx.line)
    if span:
        diag.feed_span(span)
    return diag


@rule(
    id="rust.clippy",
    category=FailureType.COMPILE,
    tool="clippy",
    pattern=r"^\s*= note: `-D (?P<lint>clippy::[\w-]+)` implied by `-D warnings`",
    triggers=("= note: `-D clippy::",),
    url=_CLIPPY_DOCS,
)
def rust_clippy(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """clippy lints turned into errors (`cargo clippy -- -D warnings`).

    What it detects: an `error: message` diagnostic with a `-->` span whose
    lint note names a clippy lint (`= note: `-D clippy::needless-return`
    implied by `-D warnings``, or `#[deny(clippy::...)]`).  The rust.error
    block reads such a diagnostic and reports it under this rule, with the
    lint (`clippy::needless_return`) as the code and its `help:` suggestion
    in hint["suggestions"].  The pattern itself matches the lint note when
    it arrives outside a diagnostic block (a block cut at its line limit);
    the error line and span are then looked up in the lines before it, and
    when rust.error already reported that error the lint joins its hint.
    Rustc lints denied the same way (`-D unused-variables`) stay rust.error
    with the lint as the code.

    Example output (`cargo clippy -- -D warnings`, clippy 0.1.95):
        error: unneeded `return` statement
         --> src/main.rs:2:5
          |
        2 |     return w * h;
          |     ^^^^^^^^^^^^
          |
          = note: `-D clippy::needless-return` implied by `-D warnings`

    Recipe: compile; the lint's suggestion (`help: remove `return``) is the
    machine-applicable fix.

    References: https://doc.rust-lang.org/clippy/usage.html,
    https://rust-lang.github.io/rust-clippy/master/index.html
    """
    error: str | None = None
    span: re.Match[str] | None = None
    for earlier in reversed(ctx.before(60)):
        span = span or _SPAN.match(earlier)
        if earlier.startswith("error: "):
            error = earlier
            break
    if error is None:
        return None
    lint = _lint_code(m.group("lint"))
    return Hit(
        signal=error.strip(),
        message=error[len("error: ") :].strip(),
        file=span.group("file") if span else None,
        line=int(span.group("line")) if span else None,
        column=int(span.group("column")) if span else None,
        hint={"lint": lint},
    )


@rule(
    id="rust.short",
    category=FailureType.COMPILE,
    tool="rustc",
    pattern=r"^(?P<file>[^\s:][^:]*\.rs):(?P<line>\d+):(?P<column>\d+): error(?:\[(?P<code>E\d{4})\])?: (?P<message>.+)$",
    triggers=(".rs:",),
    url="https://doc.rust-lang.org/cargo/reference/external-tools.html",
)
def rust_short(m: re.Match[str], ctx: LineContext) -> Hit:
    """rustc errors in the short format (`--message-format=short`,
    `--error-format=short`).

    What it detects: `src/main.rs:3:5: error[E0425]: message`, one line per
    error; warnings in the same format are not failures.

    Example output (`cargo build --message-format=short`, cargo 1.95.0):
        src/main.rs:3:5: error[E0425]: cannot find value `subtotl` in this scope

    Recipe: compile, as for rust.error (no suggestions are printed in this
    format).

    References: https://doc.rust-lang.org/cargo/reference/external-tools.html,
    https://doc.rust-lang.org/rustc/command-line-arguments.html#--error-format-control-how-errors-are-produced
    """
    hint: dict[str, Any] = {}
    name = _NAME.match(m.group("message"))
    if name:
        hint["name"] = name.group("name")
    return hit_from_match(m, ctx, hint=hint)


_PANIC_NEW = re.compile(
    r"^thread '(?P<thread>[^']+)'(?: \(\d+\))? panicked at (?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+):$"
)
_PANIC_OLD = re.compile(
    r"^thread '(?P<thread>[^']+)'(?: \(\d+\))? panicked at '(?P<message>.*)', "
    r"(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+)$"
)
_SIDE = re.compile(r"^\s*(?P<side>left|right): `?(?P<value>.*?)`?,?$")
_FRAME_AT = re.compile(r"^\s+at (?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+)$")
_FRAME_FN = re.compile(r"^\s+\d+: ")


class _RustPanic:
    """A panic in a test thread: the header, the message lines (with the
    assert_eq! left/right values) and the backtrace frames in the project."""

    max_lines = 300

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.thread = m.group("thread")
        self.file = m.group("file")
        self.line = int(m.group("line"))
        self.column = int(m.group("column"))
        self.log_line = ctx.line_no
        old = m.groupdict().get("message")
        self.lines: list[str] = [old] if old else []
        self.sides: dict[str, str] = {}
        self.frames: list[tuple[str, int | None, int | None, str]] = []
        self.state = "message" if not old else "after"
        self._closure = False

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
                    self.frames.append(
                        (at.group("file"), int(at.group("line")), int(at.group("column")), "")
                    )
                return True
            if _FRAME_FN.match(line):
                self._closure = line.rstrip().endswith("{{closure}}")
                return True
            if line.startswith("note: "):
                return True
        return False

    def finish(self) -> Iterable[Hit]:
        message = " ".join(x for x in self.lines if x).strip() or "panicked"
        hint: dict[str, Any] = {"test_id": self.thread}
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
        return [
            Hit(
                signal=f"{self.signal} {first}",
                message=message,
                file=self.file,
                line=self.line,
                column=self.column,
                log_line=self.log_line,
                hint=hint,
                related=frames,
            )
        ]


@rule(
    id="rust.test_panic",
    category=FailureType.TEST,
    tool="cargo test",
    pattern=r"^thread '(?P<thread>[^']+)'(?: \(\d+\))? panicked at ",
    triggers=(" panicked at ",),
    url=_TEST_DOCS,
)
def rust_test_panic(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A failing Rust test: a panic in a test thread (`cargo test`).

    What it detects: `thread 'tests::it_works' panicked at src/lib.rs:10:9:`
    (since Rust 1.73, with the thread id `(12345)` since 1.87) or the older
    `thread 'x' panicked at 'message', src/lib.rs:10:9`, followed by the
    panic message and, for assert_eq!/assert_ne!, the `left:`/`right:`
    values.  The thread name is the test path and becomes hint["test_id"];
    `left` is hint["actual"] and `right` hint["expected"] (the
    assert_eq!(actual, expected) convention).  Backtrace frames inside the
    project are related locations.  The `test x ... FAILED` lines and the
    `failures:` list repeat what the panic said and are not records; a panic
    of the `main` thread (cargo run) is not a test failure and is left out.

    Example output (`cargo test`, cargo 1.95.0):
        thread 'tests::it_works' (10514) panicked at src/lib.rs:15:9:
        assertion `left == right` failed
          left: 5
         right: 4

    Recipe: test. Re-run the one test (`cargo test tests::it_works --
    --exact`) to tell flaky from real; a real assertion is escalated with
    expected vs actual.

    References: https://doc.rust-lang.org/cargo/commands/cargo-test.html,
    https://doc.rust-lang.org/std/macro.assert_eq.html
    """
    full = _PANIC_NEW.match(ctx.line) or _PANIC_OLD.match(ctx.line)
    if full is None or full.group("thread") == "main":
        return None
    return _RustPanic(full, ctx)


@rule(
    id="rust.cargo_failed",
    category=FailureType.COMPILE,
    tool="cargo",
    pattern=(
        r"^error: (?:could not compile `(?P<crate>[^`]+)`(?P<what>.*)"
        r"|aborting due to (?P<count>.+)"
        r"|test failed, to rerun pass `(?P<target>[^`]*)`)$"
    ),
    triggers=("error: could not compile `", "error: aborting due to ", "error: test failed, "),
    url="https://doc.rust-lang.org/cargo/commands/cargo-build.html",
)
def rust_cargo_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """cargo's closing summary of a failed build or test run.

    What it detects: `error: could not compile `crate` (bin "x") due to 2
    previous errors`, rustc's `error: aborting due to 2 previous errors` and
    cargo test's `error: test failed, to rerun pass `--lib``.  These repeat
    what the detailed diagnostics said, so the record is a fallback
    (Hit.key FALLBACK, confidence 0.5): it is dropped when any more specific
    record was found, and stands when the details are missing (a log cut to
    its tail, a diagnostic format no rule reads), so a failed run is never
    reported as clean.  "test failed" is a test failure, the others compile.

    Example output (`cargo build 2>&1 | tail -n 1`, cargo 1.95.0):
        error: could not compile `inventory` (bin "inventory") due to 2 previous errors

    Recipe: compile (or test): nothing to apply without the details; the
    recipe re-runs the command to get them.

    References: https://doc.rust-lang.org/cargo/commands/cargo-build.html,
    https://doc.rust-lang.org/cargo/commands/cargo-test.html
    """
    hint: dict[str, Any] = {}
    category = FailureType.COMPILE
    if m.group("crate"):
        hint["crate"] = m.group("crate")
    if m.group("target") is not None:
        category = FailureType.TEST
        hint["rerun_args"] = m.group("target")
    return Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip()[len("error: ") :],
        tool="cargo" if m.group("count") is None else "rustc",
        category=category,
        confidence=0.5,
        hint=hint,
        key=(FALLBACK, "cargo", ctx.line.strip()),
    )
