"""CommonJS: `require` a missing name in the requiring file's own style
(recipes/fixes/cjs_exports.py finds where it comes from).

A named export is required as `const { Money } = require('./money')` (merged
into an existing one-line destructuring of the same module), a whole module or
a package as `const toCamelCase = require('./lib/toCamelCase')`.  The
declaration keyword, quotes, semicolons, `.js` extensions and the `node:`
prefix follow the file's existing requires; a package's require goes beside the
other packages', a local module's beside the local ones.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from faultlens.classifier.lazyre import lazy_compile

from ..model import TextEdit
from .cjs_exports import Provider

# A top-level require statement on one line: `const x = require('y');`, `require('y')`.
_REQUIRE_LINE = lazy_compile(
    r"^(?:(?P<decl>const|let|var)\s+(?P<binding>[^=]+?)\s*=\s*)?"
    r"require\((?P<q>['\"])(?P<spec>[^'\"]+)(?P=q)\)(?P<tail>[^;]*?)(?P<semi>;?)\s*(?://.*)?$"
)
# The first line of a multi-line destructuring require: `const {`.
_OPEN_DESTRUCTURING = lazy_compile(r"^(?:const|let|var)\s*\{[^}]*$")
_CLOSE_REQUIRE = lazy_compile(r"^\s*\}\s*=\s*require\((['\"])(?P<spec>[^'\"]+)\1\)")


# -- the file's requires -----------------------------------------------------------------------
@dataclass(slots=True)
class _Require:
    start: int  # 0-based line
    end: int
    spec: str
    decl: str
    binding: str


def _requires(lines: list[str]) -> list[_Require]:
    """The file's top-level require statements (a line starting at column 0)."""
    out: list[_Require] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _REQUIRE_LINE.match(line)
        if m and not m.group("tail").strip(" )"):
            out.append(
                _Require(i, i, m.group("spec"), m.group("decl") or "", m.group("binding") or "")
            )
        elif _OPEN_DESTRUCTURING.match(line):
            for j in range(i + 1, min(len(lines), i + 200)):
                close = _CLOSE_REQUIRE.match(lines[j])
                if close:
                    decl = line.split(None, 1)[0]
                    out.append(_Require(i, j, close.group("spec"), decl, "{...}"))
                    i = j
                    break
                if not re.match(r"^\s+[\w$]+(?:\s*:\s*[\w$]+)?\s*,?\s*(?://.*)?$", lines[j]):
                    break
        i += 1
    return out


@dataclass(slots=True)
class RequireStyle:
    decl: str = "const"
    quote: str = "'"
    semicolon: bool = True
    js_extension: bool = False
    node_prefix: bool = False


def detect_style(text: str, *neighbours: str) -> RequireStyle:
    """The file's require style; where the file shows no quotes, the quotes of
    the first of `neighbours` that shows some (files of the same project)."""
    lines = text.splitlines()
    reqs = _requires(lines)
    decls: Counter[str] = Counter(r.decl for r in reqs if r.decl)
    quotes: Counter[str] = Counter()
    semis: Counter[bool] = Counter()
    for r in reqs:
        m = re.search(r"require\((['\"])[^'\"]+\1\)(;?)", lines[r.end])
        if m:
            quotes[m.group(1)] += 1
            semis[bool(m.group(2))] += 1
    if not semis:
        code = [
            ln.rstrip()
            for ln in lines
            if ln.strip() and not ln.lstrip().startswith(("//", "*", "/*"))
        ]
        semis[True] = sum(1 for ln in code if ln.endswith(";"))
        semis[False] = sum(1 for ln in code if not ln.endswith((";", "{", "}", ",", "(", "[")))
    if not quotes:
        for sample in (text, *neighbours):
            quotes["'"], quotes['"'] = sample.count("'"), sample.count('"')
            if quotes["'"] != quotes['"']:
                break
    specs = [r.spec for r in reqs]
    return RequireStyle(
        decl=decls.most_common(1)[0][0] if decls else "const",
        quote=quotes.most_common(1)[0][0] if quotes else "'",
        semicolon=semis[True] > semis[False],
        js_extension=any(s.startswith(".") and s.endswith((".js", ".cjs")) for s in specs),
        node_prefix=any(s.startswith("node:") for s in specs),
    )


def specifier(from_file: Path, provider: Provider, style: RequireStyle) -> str:
    if provider.path is None:
        pkg = provider.package or ""
        return f"node:{pkg}" if provider.builtin and style.node_prefix else pkg
    from .ts_imports import ImportStyle
    from .ts_imports import specifier as relative

    rel = relative(from_file, provider.path, ImportStyle(js_extension=False))
    if style.js_extension and not rel.endswith((".", "/")) and provider.path.stem != "index":
        rel += provider.path.suffix
    return rel


def binds(text: str, name: str) -> bool:
    """Whether the file already binds `name` by a require (or an ES import)."""
    n = re.escape(name)
    bound = rf"(?<![\w$]){n}(?![\w$])"
    if re.search(rf"(?:const|let|var)\s+{n}\s*=\s*require\s*\(", text):
        return True
    for m in re.finditer(r"(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\s*\(", text, re.S):
        clause = re.sub(r"[\w$]+\s*:\s*", "", m.group(1))  # `{ a: b }` binds b
        if re.search(bound, clause):
            return True
    from .ts_imports import imports_name

    return imports_name(text, name)


def require_edit(
    rel_path: str, text: str, name: str, provider: Provider, spec: str, style: RequireStyle
) -> TextEdit | None:
    """The edit that requires `name` from `spec`: merged into an existing one-line
    `const { ... } = require(spec)`, else a new statement beside the file's
    requires of its kind (packages before local modules); None when the file
    already binds the name (an edit is never made twice)."""
    if binds(text, name):
        return None
    lines = text.splitlines()
    reqs = _requires(lines)
    if provider.kind == "named":
        for r in reqs:
            if r.spec != spec or r.start != r.end:
                continue
            m = re.match(r"^((?:const|let|var)\s*\{)([^}]*)(\}\s*=.*)$", lines[r.start])
            if m:
                inner = m.group(2)
                body = inner.rstrip()
                trail = inner[len(body) :]
                sep = ", " if body.strip() else " "
                col = len(m.group(1))
                return TextEdit(
                    rel_path,
                    r.start,
                    col,
                    r.start,
                    col + len(inner),
                    f"{body}{sep}{name}{trail or ' '}",
                )
    binding = f"{{ {name} }}" if provider.kind == "named" else name
    q = style.quote
    new_line = f"{style.decl} {binding} = require({q}{spec}{q}){';' if style.semicolon else ''}\n"
    local = spec.startswith(".")
    if reqs:
        mine = [r for r in reqs if r.spec.startswith(".") == local]
        if mine:
            at = mine[-1].end + 1
        elif local:
            at = reqs[-1].end + 1
        else:  # the first package among local requires: before them
            at = reqs[0].start
        return TextEdit(rel_path, at, 0, at, 0, new_line)
    # No requires: after a leading comment header and the 'use strict' directive.
    at = 0
    in_comment = False
    while at < len(lines):
        s = lines[at].strip()
        if in_comment or s.startswith("/*"):
            in_comment = "*/" not in s
        elif not (
            s.startswith(("#!", "//"))
            or s in ("'use strict'", '"use strict"', "'use strict';", '"use strict";')
        ):
            break
        at += 1
    if at > 0 and at < len(lines) and lines[at].strip() == "":
        # Keep the blank line that separates the header from the code above the require.
        return TextEdit(rel_path, at + 1, 0, at + 1, 0, new_line + "\n")
    gap = "\n" if at < len(lines) and lines[at].strip() else ""
    return TextEdit(rel_path, at, 0, at, 0, new_line + gap)
