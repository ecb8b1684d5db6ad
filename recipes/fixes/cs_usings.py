"""C#: `using System.Collections.Generic;` put among the file's usings (in
order; at the top when it has none), one edit a namespace, so the records of
one file planning the same namespace plan the same edit; and the file's
names nothing binds (the ones a `using` of the base class library would),
as a batch of one attempt.  Pure."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..model import TextEdit

_NAMESPACE = re.compile(r"[A-Z]\w*(?:\.[A-Z]\w*)*")
_USING = re.compile(r"^\s*using\s+(?!static\b)(?![\w.]+\s*=)([A-Z][\w.]*)\s*;")
_ANY_USING = re.compile(r"^\s*(?:global\s+)?using\s+[^(]")
_BLANK = re.compile(
    r'/\*.*?\*/|//[^\n]*|@"(?:""|[^"])*"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S
)
_TYPE_USE = re.compile(r"(?<![\w.])([A-Z]\w*)\b")
_MEMBER_CALL = re.compile(r"\.\s*([A-Z]\w*)\s*(?=[(<])")
_DECLARES = re.compile(
    r"\b(?:class|struct|interface|enum|record|delegate\s+[\w<>\[\],. ]+?)\s+([A-Z]\w*)"
    r"|<\s*([A-Z]\w*)\s*(?=[,>])"
)


def imported(text: str) -> set[str]:
    return {m.group(1) for ln in text.splitlines() if (m := _USING.match(ln))}


def using_edit(rel: str, text: str, namespace: str) -> TextEdit | None:
    """The edit adding `using namespace;`; None when it is odd or there already."""
    if not _NAMESPACE.fullmatch(namespace) or namespace in imported(text):
        return None
    lines = text.splitlines()
    usings = [(i, m.group(1)) for i, ln in enumerate(lines) if (m := _USING.match(ln))]
    stmt = f"using {namespace};\n"
    if usings:
        before = [i for i, ns in usings if ns <= namespace]
        at = before[-1] + 1 if before else usings[0][0]
        return TextEdit(rel, at, 0, at, 0, stmt)
    if any(_ANY_USING.match(ln) for ln in lines):
        return None  # only aliases or global usings: where to put it is the author's
    return TextEdit(rel, 0, 0, 0, 0, stmt)


def unbound_names(text: str, declared_elsewhere: set[str]) -> tuple[list[str], list[str]]:
    """(capitalised names the file's code uses not after a `.` that it does
    not declare, nor `declared_elsewhere`; the names it calls as members,
    `.Where(`: extension methods a using would bring), in order of first use."""
    code = _BLANK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    code = "\n".join(ln for ln in code.splitlines() if not _ANY_USING.match(ln))
    code = re.sub(r"^\s*namespace\s+[\w.]+", "", code, flags=re.M)
    bound = {n for m in _DECLARES.finditer(code) for n in m.groups() if n} | declared_elsewhere
    uses = [n for n in dict.fromkeys(_TYPE_USE.findall(code)) if n not in bound]
    calls = list(dict.fromkeys(_MEMBER_CALL.findall(code)))
    return uses, calls


def batch(
    rel: str,
    text: str,
    declared_elsewhere: set[str],
    of_type: Callable[[str], list[str]],
    of_extension: Callable[[str], list[str]],
) -> list[str]:
    """The namespaces one `using` each would bind the file's unbound names
    with (a name of one namespace only), in order."""
    uses, calls = unbound_names(text, declared_elsewhere)
    found: dict[str, None] = {}
    for names, lookup in ((uses, of_type), (calls, of_extension)):
        for name in names:
            spaces = lookup(name)
            if len(spaces) == 1:
                found[spaces[0]] = None
    have = imported(text)
    return [ns for ns in found if ns not in have]
