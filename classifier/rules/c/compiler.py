"""The C and C++ compiler rule: a gcc or clang diagnostic with what follows
it (the source excerpt, the caret, fix-its, notes, the include chain)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext, lines_above
from ..registry import all_rules, rule, rules_version

_GCC_DOCS = "https://gcc.gnu.org/onlinedocs/gcc/Diagnostic-Message-Formatting-Options.html"
_CLANG_DOCS = "https://clang.llvm.org/docs/UsersManual.html#formatting-of-diagnostics"

# Opening and closing quotes as gcc prints them in a UTF-8 locale (‘x’) or
# in the C locale ('x'), and as clang and ld print them ('x', `x').
_Q = "[‘'`\"]"
_QE = "[’'\"]"
# The files a C/C++ compiler reports on (sources, headers, the extension-less
# standard C++ headers under an include/ folder).
_C_FILE = (
    r"(?P<file>[^\s:][^:]*?(?:\.(?:c|h|cc|cp|cpp|cxx|c\+\+|C|hh|hpp|hxx|h\+\+|H|inl|ipp|tcc|m|mm|i|ii|cu|cuh)"
    r"|/include/[^:]*))"
)
_DIAG = lazy_compile(
    rf"^{_C_FILE}:(?P<line>\d+)(?::(?P<column>\d+))?: (?P<severity>fatal error|error|warning|note|remark): (?P<message>.*)$"
)
_CONTEXT = lazy_compile(
    rf"^(?P<file>.+?): (?:In (?:static )?(?:member )?(?:function|constructor|destructor|lambda function) {_Q}(?P<function>.+){_QE}|(?P<top>At top level)):$"
)
_INCLUDED = lazy_compile(r"^(?:In file included|\s+) from (?P<file>[^\s:][^:]*):(?P<line>\d+)[:,]$")
_FIXIT = lazy_compile(
    r'^fix-it:"(?P<file>(?:[^"\\]|\\.)*)":\{(?P<line>\d+):(?P<column>\d+)-(?P<end_line>\d+):(?P<end_column>\d+)\}:"(?P<text>(?:[^"\\]|\\.)*)"$'
)
_GCC_SNIPPET = lazy_compile(r"^\s*(?:\d+|\+\+\+)? \|")
_GCC_INSERT = lazy_compile(r"^\s*\+\+\+ \|\+(?P<text>.*)$")
_CARET = lazy_compile(r"^\s*[~^]+[~^ ]*$|^\s*~*\^~*$")
_ESCAPE = lazy_compile(r"\\(.)")

_DID_YOU_MEAN = lazy_compile(rf"did you mean {_Q}(?P<suggestion>[^’'\"]+){_QE}")
_NAME = lazy_compile(
    rf"^{_Q}(?P<name>[^’'\"]+){_QE} (?:undeclared|was not declared|is not a member)"
    rf"|(?:undeclared identifier|unknown type name|use of undeclared identifier|implicit declaration of function|implicitly declaring library function|call to undeclared (?:library )?function) {_Q}(?P<name2>[^’'\"]+){_QE}"
)
_HEADER = lazy_compile(
    rf"^(?P<gcc>.+): No such file or directory$|^{_Q}(?P<clang>.+){_QE} file not found$"
)
_INCLUDE = lazy_compile(
    rf"did you forget to {_Q}#include (?P<gcc><[^>]+>|\"[^\"]+\"){_QE}"
    r"|include the header (?P<clang><[^>]+>)"
    rf"|include {_Q}(?P<gcc2><[^>]+>){_QE} or provide a declaration"
)


def _starts_another_report(line: str) -> bool:
    """Whether some registered rule reads `line` as a failure of its own (a tsc,
    pytest, rustc, npm or git error printed right after a compiler error)."""
    automaton, owners, rules = _trigger_index()
    tried: set[int] = set()
    for idx in automaton.find_matches_as_indexes(line, overlapping=True):
        for r in owners[idx[0]]:
            if r not in tried:
                tried.add(r)
                if rules[r].pattern.search(line) is not None:
                    return True
    return False


_index: tuple[int, Any] = (-1, None)


def _trigger_index() -> Any:
    """Every rule's triggers in one automaton (rebuilt when the rule set
    changes): a free line is tried only against the rules it names.

    The library's own choice of automaton (an NFA for these ~3,000 words):
    a DFA scans faster but takes 20 ms to build, and it only ever sees the
    few free lines after a compiler error, not the whole output."""
    global _index
    if _index[0] != rules_version():
        rules = all_rules()
        from ahocorasick_rs import AhoCorasick

        owners: dict[str, list[int]] = {}
        for i, r in enumerate(rules):
            for t in r.triggers:
                owners.setdefault(t, []).append(i)
        words = list(owners)
        automaton = AhoCorasick(words or ["\x00never\x00"])
        _index = (rules_version(), (automaton, [owners[w] for w in words], rules))
    return _index[1]


# gcc's instantiation context line: `main.cpp:10:14:   required from here`
_REQUIRED_HERE = lazy_compile(rf"^{_C_FILE}:(?P<line>\d+):(?P<column>\d+):   required from here$")


def _unescape(text: str) -> str:
    return _ESCAPE.sub(lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def _context(
    ctx: LineContext, file: str
) -> tuple[str | None, list[tuple[str, int | None, int | None, str]]]:
    """The function gcc named before the error (`file: In function 'f':`)
    and the `In file included from` chain printed right above it."""
    included: list[tuple[str, int | None, int | None, str]] = []
    for earlier in lines_above(ctx, 60):
        inc = _INCLUDED.match(earlier)
        if not inc:
            break
        included.append((inc.group("file"), int(inc.group("line")), None, "included from here"))
    for earlier in lines_above(ctx, 60):
        # (every _CONTEXT match ends with `:`: the lines that do not are
        # passed over without the regex, which scans each of them)
        m = _CONTEXT.match(earlier) if earlier.endswith((":", ":\n")) else None
        if m is None:
            continue
        if m.group("file") != file or m.group("top"):
            return None, included
        return m.group("function"), included
    return None, included


class _CompilerDiagnostic:
    """A gcc/clang error and what belongs to it: the source excerpt (with
    gcc's fix-it line), `fix-it:` lines, and the `note:` diagnostics after
    it (with their own excerpts)."""

    max_lines = 200

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.signal = ctx.line.strip()
        self.message = m.group("message").strip()
        self.file = m.group("file")
        self.line = int(m.group("line"))
        self.column = int(m.group("column")) if m.group("column") else None
        self.log_line = ctx.line_no
        self.fatal = m.group("severity") == "fatal error"
        self.warning = m.group("severity") == "warning"
        self.function, self.related = _context(ctx, self.file)
        self.notes: list[str] = []
        self.fixits: list[dict[str, Any]] = []
        self.include: str | None = None
        self._note_at: tuple[str, int, int | None] | None = None
        self._free = 1  # clang's excerpt: one source line before the caret line
        self._after_caret = False
        self._gcc_excerpt = False  # a `  8 | ...` gutter: gcc (display columns)
        # An error inside a header outside the project (the standard library's
        # stl_algo.h) that a template instantiated from the project's code:
        # the project's line is where to fix it.  gcc prints that line above
        # the error (`main.cpp:10:14:   required from here`), clang in a note
        # after it (`main.cpp:10:10: note: in instantiation of ... requested here`).
        self.ctx = ctx
        self.outside = not ctx.in_project(self.file)
        self.instantiated_at: tuple[str, int, int | None] | None = None
        if self.outside:
            for earlier in lines_above(ctx, 40):
                if ": error: " in earlier:
                    break
                here = _REQUIRED_HERE.match(earlier) if "required from here" in earlier else None
                if here and ctx.in_project(here.group("file")):
                    self.instantiated_at = (
                        here.group("file"),
                        int(here.group("line")),
                        int(here.group("column")),
                    )
                    break

    def feed(self, line: str, line_no: int) -> bool:
        # (each regex is tried only on lines holding what its matches must:
        # most lines are source excerpts and carets)
        diag = _DIAG.match(line) if ": " in line else None
        if diag:
            if diag.group("severity") != "note":
                return False
            self._note(diag)
            return True
        fixit = _FIXIT.match(line) if line.startswith('fix-it:"') else None
        if fixit:
            self.fixits.append(
                {
                    "file": _unescape(fixit.group("file")),
                    "line": int(fixit.group("line")),
                    "column": int(fixit.group("column")),
                    "end_line": int(fixit.group("end_line")),
                    "end_column": int(fixit.group("end_column")),
                    "text": _unescape(fixit.group("text")),
                }
            )
            return True
        insert = _GCC_INSERT.match(line) if "+++ |+" in line else None
        if insert and self._note_at is not None:
            file, ln, col = self._note_at
            self.fixits.append(
                {"file": file, "line": ln, "column": col or 1, "insert_line": insert.group("text")}
            )
            return True
        if " |" in line and _GCC_SNIPPET.match(line):
            self._free = 0  # gcc's excerpt has a gutter: no free source line follows
            self._gcc_excerpt = True
            return True
        if ("^" in line or "~" in line) and _CARET.match(line):
            self._after_caret = True
            self._free = 0
            return True
        if self._after_caret and line.startswith(" ") and line.strip():
            self._after_caret = False  # clang's fix-it text under the caret
            return True
        if (
            self._free > 0
            and line.strip()
            and not line.endswith(" generated.")
            and not _starts_another_report(line)
        ):
            self._free -= 1  # clang's source line (no gutter)
            return True
        return False

    def _column_unit(self) -> str:
        """What the column counts: gcc 11 and later count display columns (a tab
        to the next multiple of 8, a wide character as 2), clang (and older
        gcc) count bytes.  gcc is known by its excerpt's gutter, or by the
        typographic quotes and `In function` context it prints."""
        if self._gcc_excerpt or self.function or "‘" in self.message:
            return "display"
        return "byte"

    def _note(self, m: re.Match[str]) -> None:
        message = m.group("message").strip()
        self.notes.append(message)
        ln, col = int(m.group("line")), int(m.group("column")) if m.group("column") else None
        if (m.group("file"), ln) != (self.file, self.line):
            self.related.append((m.group("file"), ln, col, message))
        self._note_at = (m.group("file"), ln, col)
        if (
            self.outside
            and self.instantiated_at is None
            and message.endswith(" requested here")
            and self.ctx.in_project(m.group("file"))
        ):
            self.instantiated_at = (m.group("file"), ln, col)
        self._free = 1
        self._after_caret = False
        inc = _INCLUDE.search(message)
        if inc and self.include is None:
            self.include = inc.group("gcc") or inc.group("clang") or inc.group("gcc2")

    def finish(self) -> Iterable[Hit]:
        hint: dict[str, Any] = {}
        name = _NAME.search(self.message)
        if name:
            hint["name"] = name.group("name") or name.group("name2")
        mean = _DID_YOU_MEAN.search(self.message)
        if mean:
            hint["suggestion"] = mean.group("suggestion")
        header = _HEADER.match(self.message)
        if header is not None and (self.fatal or header.group("clang")):
            hint["missing_header"] = header.group("gcc") or header.group("clang")
        if self.function:
            hint["function"] = self.function
        if self.include:
            hint["include"] = self.include
        if self.fixits:
            hint["fixits"] = self.fixits
        if self.notes:
            hint["notes"] = self.notes
        if self.column is not None:
            hint["column_unit"] = self._column_unit()
        file, line, column, related = self.file, self.line, self.column, self.related
        if self.instantiated_at is not None:
            file, line, column = self.instantiated_at
            related = [(self.file, self.line, self.column, "the error, in the template")]
            related += [r for r in self.related if (r[0], r[1], r[2]) != self.instantiated_at]
            hint["instantiated_from"] = True
        return [
            Hit(
                signal=self.signal,
                message=self.message,
                file=file,
                line=line,
                column=column,
                log_line=self.log_line,
                hint=hint,
                related=related,
                warning=self.warning,
            )
        ]


@rule(
    id="c.compiler_error",
    category=FailureType.COMPILE,
    tool="cc",
    pattern=rf"^{_C_FILE}:(?P<line>\d+)(?::(?P<column>\d+))?: (?P<severity>fatal error|error|warning): (?P<message>.+)$",
    triggers=(": error: ", ": fatal error: ", ": warning: "),
    url=_GCC_DOCS,
)
def c_compiler_error(m: re.Match[str], ctx: LineContext) -> Block:
    """gcc, g++ and clang errors (and warnings, failures only when the run
    failed because of them: docs/warnings.md).

    What it detects: `file:line:col: error: message` and `file:line:col:
    fatal error: message` on a C/C++ source or header, read with what
    follows it: the source excerpt, `note:` lines (attached as related
    locations and hint["notes"], never records of their own), gcc's and
    clang's fix-its; a line another rule reads as a failure of its own (a
    tsc, rustc or pytest error printed right after) always ends the report.
    The `file: In function 'f':` context printed before
    it becomes hint["function"]; an `In file included from` chain right
    above it becomes related locations.  An error inside a header outside
    the project (the standard library's `stl_algo.h`) that a template
    instantiation of the project's code caused is placed at the project's
    line: gcc's `cart.cpp:12:14:   required from here` above the error,
    clang's `cart.cpp:12:10: note: in instantiation of ... requested here`
    after it (hint["instantiated_from"]; the header's line becomes the
    first related location).  From the message: the missing name
    (hint["name"]), "did you mean 'x'?" (hint["suggestion"]), the missing
    header of a fatal `x.h: No such file or directory` / clang `'x.h' file
    not found` (hint["missing_header"]); from the notes, gcc's "did you
    forget to '#include <x>'?" and clang's "include the header <x>"
    (hint["include"]).  The column is the compiler's own: hint["column_unit"]
    says what it counts ("display": gcc 11 and later, "byte": clang, older
    gcc), so that the editor highlights the right token on a line with tabs
    or non-ASCII text.  Machine-applicable edits go into hint["fixits"]:
    `fix-it:"file":{l:c-l:c}:"text"` lines (`-fdiagnostics-parseable-fixits`,
    gcc and clang) and gcc's `+++ |+#include <iostream>` insertion.

    Example output (`gcc -Wall -fdiagnostics-parseable-fixits -c report.c`,
    gcc 12.2.0):
        report.c: In function ‘sum’:
        report.c:8:12: error: ‘totl’ undeclared (first use in this function); did you mean ‘total’?
            8 |     return totl;
              |            ^~~~
              |            total
        fix-it:"report.c":{8:12-8:16}:"total"

    Recipe: compile. The fix-it (or the suggested name, or the `#include`)
    is applied; a missing project header is looked up in the workspace.

    References: https://gcc.gnu.org/onlinedocs/gcc/Diagnostic-Message-Formatting-Options.html,
    https://clang.llvm.org/docs/UsersManual.html#formatting-of-diagnostics
    """
    return _CompilerDiagnostic(m, ctx)
