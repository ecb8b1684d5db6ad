"""Java: `import a.b.C;` put where the file's imports go (among them in
order, else after the `package` line, else at the top), as an IDE's "Import
class" does; `import static a.b.C.m;` the same among the static imports
(after the others, a blank line between, when there is none yet).  Pure."""

from __future__ import annotations

import re

from ..model import TextEdit

_FQN = re.compile(r"[a-z][\w]*(?:\.[a-z_][\w]*)*\.[A-Z]\w*")
_IMPORT = re.compile(r"^\s*import\s+(static\s+)?([\w.]+(?:\.\*)?)\s*;")
_PACKAGE = re.compile(r"^\s*package\s+[\w.]+\s*;")


def imports_simple_name(text: str, name: str) -> bool:
    """Whether the file already imports a class of this simple name."""
    return re.search(rf"^\s*import\s+[\w.]+\.{re.escape(name)}\s*;", text, re.M) is not None


def import_edits(rel: str, text: str, fqns: list[str]) -> list[TextEdit]:
    """The edits importing each of `fqns` (the ones at one place merged into
    one); none when one is odd or a class of its simple name is imported
    already (an import is never added twice)."""
    at: dict[int, list[str]] = {}
    for fqn in sorted(set(fqns)):
        if not _FQN.fullmatch(fqn) or imports_simple_name(text, fqn.rsplit(".", 1)[1]):
            return []
        line, lead, trail = _place(text, fqn)
        at.setdefault(line, [lead]).append(f"import {fqn};\n")
        at[line][0] = lead
        at.setdefault(-line - 1, [trail])
    return [
        TextEdit(rel, line, 0, line, 0, parts[0] + "".join(parts[1:]) + at[-line - 1][0])
        for line, parts in sorted(at.items())
        if line >= 0
    ]


def _place(text: str, fqn: str) -> tuple[int, str, str]:
    """(0-based line, text before, text after) where `import fqn;` goes."""
    lines = text.splitlines()
    plain = [
        (i, m.group(2))
        for i, ln in enumerate(lines)
        if (m := _IMPORT.match(ln)) is not None and not m.group(1)
    ]
    if plain:
        before = [i for i, target in plain if target <= fqn]
        return (before[-1] + 1 if before else plain[0][0]), "", ""
    static = [i for i, ln in enumerate(lines) if _IMPORT.match(ln)]
    if static:
        return static[0], "", "\n"
    package = next((i for i, ln in enumerate(lines) if _PACKAGE.match(ln)), None)
    if package is not None:
        return package + 1, "\n", ""
    return 0, "", "\n"


_BLANK = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_USED = re.compile(r"(?<![\w.@])([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)\b")
_DECLARES = re.compile(
    r"\b(?:class|interface|enum|record)\s+([A-Z]\w*)|<\s*([A-Z]\w*)\s*(?:extends\b|[,>])"
)


def unresolved_classes(text: str, same_package: set[str]) -> list[str] | None:
    """The capitalised names the file uses in its code (not after a `.`) that
    nothing in it binds: not declared in it (its classes, type parameters),
    not imported by name, not a class of its own package (`same_package`),
    in order of first use.  None when an on-demand import (`import a.*;`)
    may bind any of them: then only the names the compiler reports are
    known to be unresolved."""
    if re.search(r"^\s*import\s+(?!static\b)[\w.]+\.\*\s*;", text, re.M):
        return None
    code = _BLANK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    code = "\n".join(ln for ln in code.splitlines() if not re.match(r"\s*(?:import|package)\s", ln))
    bound = {n for m in _DECLARES.finditer(code) for n in m.groups() if n} | same_package
    bound |= {m.group(1) for m in re.finditer(r"^\s*import\s+[\w.]+\.(\w+)\s*;", text, re.M)}
    return [n for n in dict.fromkeys(_USED.findall(code)) if n not in bound]


_STATIC = re.compile(r"^\s*import\s+static\s+([a-z][\w]*(?:\.\w+)*\.[A-Z]\w*)\.(\w+)\s*;", re.M)
_NOT_A_TYPE = frozenset(["return", "new", "throw", "else", "case", "yield", "assert"])


def static_imports(text: str) -> list[tuple[str, str]]:
    """(class, member) of each `import static a.b.C.m;` of the file (not `.*`)."""
    return [(m.group(1), m.group(2)) for m in _STATIC.finditer(text)]


def declares_member(text: str, name: str) -> bool:
    """Whether the file declares a method or field `name` (`int max(`,
    `static final int LIMIT =`), so an unqualified use is its own."""
    code = _BLANK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    for m in re.finditer(rf"\b([\w>\]]+)\s+{re.escape(name)}\s*[(=;]", code):
        if m.group(1) not in _NOT_A_TYPE:
            return True
    return False


def uses_unqualified(text: str, name: str) -> bool:
    code = _BLANK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    code = "\n".join(ln for ln in code.splitlines() if not re.match(r"\s*(?:import|package)\s", ln))
    return re.search(rf"(?<![\w.$]){re.escape(name)}\b", code) is not None


def static_import_edit(rel: str, text: str, members: list[tuple[str, str]]) -> TextEdit | None:
    """One edit importing each (class, member) statically, at the place of
    the first in order: after the last static import sorting before it, else
    before the first; with none, after the plain imports (a blank line
    between), else after the `package` line."""
    wanted = sorted({f"{c}.{m}" for c, m in members if _FQN.fullmatch(c)})
    if not wanted or len(wanted) != len({(c, m) for c, m in members}):
        return None
    lines = text.splitlines()
    static = [(i, f"{c}.{m}") for i, ln in enumerate(lines) for c, m in static_imports(ln)]
    block = "".join(f"import static {w};\n" for w in wanted)
    if static:
        before = [i for i, target in static if target <= wanted[0]]
        line = before[-1] + 1 if before else static[0][0]
        return TextEdit(rel, line, 0, line, 0, block)
    plain = [i for i, ln in enumerate(lines) if _IMPORT.match(ln)]
    package = next((i for i, ln in enumerate(lines) if _PACKAGE.match(ln)), None)
    after = plain[-1] if plain else package
    if after is None:
        return TextEdit(rel, 0, 0, 0, 0, block + "\n")
    return TextEdit(rel, after + 1, 0, after + 1, 0, "\n" + block)
