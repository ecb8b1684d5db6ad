"""Java and C#: the one name visible at a line that a misspelt one meant, as
an IDE's "Change to" reads it, from a bounded scan (no parser): javac's
`cannot find symbol ... variable inex` and C#'s CS0103 name none.

The methods are the brace walk of js_scope (a `{` after `name(...)`, a
Java `throws` clause allowed); the names visible in one are the typed
declarations (`int index`, `List<String> items =`, `out var val`,
`foreach (var x :`/`in`) of its outermost enclosing method, parameters
included, and of the code outside every method (the fields); C#'s property
accessors (`get {`, `set {`: its implicit `value`) are methods too.  The name must
appear once in its method and nothing visible may bind it; a tie names the
candidates and chooses none.  Pure."""

from __future__ import annotations

import re

from . import js_names, js_scope
from .nearest import ranked

_DECLARED = re.compile(
    r"(?:\b(?:[A-Z]\w*|int|long|short|byte|bool|boolean|char|double|float|decimal|string|"
    r"object|var|uint|ulong)(?:\s*<[^<>;(){}]*(?:<[^<>;(){}]*>)?[^<>;(){}]*>)?(?:\s*\[\s*\])*"
    r"\??\s+)([a-z_]\w*)\s*(?=[=;,):]|\bin\b)"
)


def declared(code: str) -> set[str]:
    return {m.group(1) for m in _DECLARED.finditer(code)}


def near_misses(text: str, line1: int | None, name: str, col1: int | None = None) -> list[str]:
    """The visible names nearest to `name` at 1-based `line1` (several on a
    tie; the place is 1-based `col1` of the line, else its code's start),
    when `name` appears once in its method and nothing visible binds it."""
    if len(text) > js_names.MAX_TEXT:
        return []
    offset = js_scope.place(text, line1, col1)
    if offset is None:
        return []
    code = js_names.code_only(text)
    regions = js_scope.functions(code)
    around = [r for r in regions if r.start <= offset <= r.end]
    if not around:
        return []
    outer, inner = around[0], around[-1]
    fields = list(code)
    for r in regions:
        fields[r.start : r.end + 1] = re.sub(r"[^\n]", " ", code[r.start : r.end + 1])
    names = declared("".join(fields)) | declared(code[outer.start : outer.end + 1])
    if any(code.startswith(("set", "init"), r.start) for r in around):
        names.add("value")  # a C# setter's implicit parameter
    if name in names:
        return []
    uses = re.findall(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", code[inner.start : inner.end + 1])
    if len(uses) != 1:
        return []
    return ranked(name, names - {name})
