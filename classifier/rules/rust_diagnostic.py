"""Reading one rustc diagnostic (the rust.error and rust.clippy rules are in
rust.py): the primary and secondary spans, the snippet, the labels, the
notes, the lint that made it an error, and every `help:` with its
suggestion (inline text, or a diff of source lines).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from .base import Hit

SPAN = lazy_compile(r"^\s*(?P<arrow>-->|:::) (?P<file>.+?):(?P<line>\d+):(?P<column>\d+)$")
# A source line of a snippet or a suggestion: "3 |     subtotl + 1", "1 + use x;".
_CODE = lazy_compile(r"^\s*(?P<line>\d+)\s?(?P<op>[|+~-])(?: (?P<text>.*))?$")
# A label under a snippet: "  |     ^^^^^^^ use of undeclared type `HashMap`".
_LABEL = lazy_compile(r"^(?P<gutter>\s*\| )(?P<pad>\s*)(?P<marks>[\^~+-]+)(?: (?P<label>.*))?$")
_GUTTER = lazy_compile(r"^\s*\|\s*$")
_HELP = lazy_compile(r"^(?P<indent>\s*=\s*)?help: (?P<message>.+)$")
_INLINE_SUGGESTION = lazy_compile(r"^(?P<message>.+?): `(?P<text>[^`]+)`$")
_NOTE = lazy_compile(r"^\s*(?:= )?note: (?P<message>.+)$")
_LINT = lazy_compile(r"-D (?P<lint>[\w:-]+)` implied by|#\[deny\((?P<deny>[\w:]+)\)\]")
NAME = lazy_compile(
    r"^cannot find (?:value|type|function|struct|macro|trait|crate|module) `(?P<name>[^`]+)`"
)
_UNRESOLVED = lazy_compile(r"^unresolved import `(?P<module>[^`]+)`")
_WORD = lazy_compile(r"\w+")
UNCODED = lazy_compile(r"^error: (?P<message>.+)$")
_DIAG_START = lazy_compile(r"^(?:error|warning)(?:\[\w+\])?: ")


def lint_code(lint: str) -> str:
    """`clippy::needless-return` (as in `-D`) -> `clippy::needless_return`."""
    return lint.replace("-", "_")


def _changed_word(before: str, after: str) -> str | None:
    """The one word a similar-name suggestion changed, when exactly one did."""
    old, new = _WORD.findall(before), _WORD.findall(after)
    if len(old) != len(new):
        return None
    changed = [b for a, b in zip(old, new, strict=True) if a != b]
    return changed[0] if len(changed) == 1 else None


class RustDiagnostic:
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
        # (each regex is tried only on lines holding its literal part)
        if line.startswith(("error", "warning")) and _DIAG_START.match(line):
            return False
        span = SPAN.match(line) if "--> " in line or "::: " in line else None
        if span:
            self.feed_span(span)
            return True
        help_ = _HELP.match(line) if "help: " in line else None
        if help_:
            self._start_help(help_.group("message").strip(), inline=bool(help_.group("indent")))
            return True
        note = _NOTE.match(line) if "note: " in line else None
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
            self.lint = self.lint or lint_code(lint.group("lint") or lint.group("deny"))
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
        name = NAME.match(self.message)
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
        advice = [f"help: {s['message']}" for s in self.suggestions] + [
            f"help: {a}" for a in self.advice
        ]
        if advice:  # rustc's own suggestions, verbatim, for a person to read
            hint["advice"] = advice
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
