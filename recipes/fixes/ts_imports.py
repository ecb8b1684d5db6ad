"""TypeScript / JavaScript: import a name that another workspace module exports,
in the importing file's own style (quotes, semicolons, `.js` extensions)."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from faultlens.classifier.lazyre import lazy_compile

from ..model import TextEdit
from .scan import read_small, walk_sources

EXTS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_STRIP_EXT = (".d.ts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_IMPORT_START = lazy_compile(r"^\s*import[\s{*'\"]")
_FROM = lazy_compile(r"""from\s+(['"])(?P<spec>[^'"]+)\1\s*(?P<semi>;?)""")
_PASSED_ON = lazy_compile(r"""\s*from\s*['"]""")
_BARE = lazy_compile(r"""^\s*import\s+(['"])(?P<spec>[^'"]+)\1\s*(?P<semi>;?)""")


def _export_patterns(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    n = re.escape(name)
    decl = re.compile(
        r"^\s*export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?"
        rf"(?:interface|type|class|function\*?|const|let|var|enum|namespace)\s+{n}(?![\w$])",
        re.MULTILINE,
    )
    listed = re.compile(
        rf"^\s*export\s*(?:type\s*)?\{{[^}}]*(?<![\w$]){n}(?![\w$])[^}}]*\}}", re.MULTILINE
    )
    return decl, listed


def find_exporters(root: Path, name: str, exclude: Path | None = None) -> list[Path]:
    """Workspace modules that export `name` (named exports only).  A module
    that only passes it on from another (`export { Result } from './result'`,
    a barrel such as index.ts) is left out when some module declares it:
    the import comes from where the name is made, as an IDE's first choice."""
    decl, listed = _export_patterns(name)
    found: list[Path] = []
    passed_on: set[Path] = set()
    for path in walk_sources(root, EXTS):
        if exclude is not None and path.resolve() == exclude.resolve():
            continue
        text = read_small(path)
        if text is None or name not in text:
            continue
        if decl.search(text):
            found.append(path)
        elif any(_PASSED_ON.match(text, m.end()) for m in listed.finditer(text)):
            found.append(path)
            passed_on.add(path)
        elif listed.search(text):
            found.append(path)
    if len(passed_on) < len(found):
        found = [p for p in found if p not in passed_on]
    # A .d.ts beside its .ts/.js twin is the same module.
    mods: dict[str, Path] = {}
    for p in found:
        mods.setdefault(module_path_without_ext(p), p)
    return list(mods.values())


def module_path_without_ext(path: Path) -> str:
    s = str(path)
    for ext in _STRIP_EXT:
        if s.endswith(ext):
            return s[: -len(ext)]
    return s


@dataclass(slots=True)
class ImportStyle:
    quote: str = "'"
    semicolon: bool = True
    js_extension: bool = False


@dataclass(slots=True)
class _ImportStmt:
    start: int  # 0-based line
    end: int  # 0-based line where the statement ends
    spec: str
    text: str


def _statements(lines: list[str]) -> list[_ImportStmt]:
    """The file's top-level import statements (single- and multi-line)."""
    out: list[_ImportStmt] = []
    i = 0
    in_block_comment = False
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if in_block_comment:
            if "*/" in stripped:
                in_block_comment = False
            i += 1
            continue
        if stripped.startswith("/*") and "*/" not in stripped:
            in_block_comment = True
            i += 1
            continue
        if _IMPORT_START.match(line) and not stripped.startswith("import("):
            j = i
            joined = line
            while j < len(lines) - 1 and not (_FROM.search(joined) or _BARE.match(joined)):
                j += 1
                joined += "\n" + lines[j]
                if j - i > 200:
                    break
            m = _FROM.search(joined) or _BARE.match(joined)
            out.append(_ImportStmt(i, j, m.group("spec") if m else "", joined))
            i = j + 1
            continue
        i += 1
    return out


def detect_style(text: str) -> ImportStyle:
    lines = text.splitlines()
    stmts = _statements(lines)
    quotes: Counter[str] = Counter()
    semis: Counter[bool] = Counter()
    js_ext = False
    for st in stmts:
        m = _FROM.search(st.text) or _BARE.match(st.text)
        if not m:
            continue
        quotes[m.group(1)] += 1
        semis[bool(m.group("semi"))] += 1
        if st.spec.startswith(".") and st.spec.endswith(".js"):
            js_ext = True
    if not semis:
        # No imports: follow the file's statements.
        code = [ln.rstrip() for ln in lines if ln.strip() and not ln.strip().startswith("//")]
        semis[True] = sum(1 for ln in code if ln.endswith(";"))
        semis[False] = sum(1 for ln in code if not ln.endswith((";", "{", "}", ",", "(", "[")))
    return ImportStyle(
        quote=quotes.most_common(1)[0][0] if quotes else "'",
        semicolon=semis[True] >= semis[False] if semis else True,
        js_extension=js_ext,
    )


def node_esm(source: Path, root: Path) -> bool:
    """Whether Node runs `source` as an ES module itself (`.mjs`, or `.js` under a
    package.json with "type": "module"): its relative imports need the file's
    full name (`./money.js`); nothing resolves `./money` or a folder's index."""
    if source.suffix == ".mjs":
        return True
    if source.suffix != ".js":
        return False
    folder = source.parent
    while True:
        manifest = folder / "package.json"
        if manifest.is_file():
            try:
                data = json.loads(manifest.read_text("utf-8")[: 1 << 20])
            except (OSError, ValueError):
                return False
            return isinstance(data, dict) and data.get("type") == "module"
        if folder == root or root not in folder.parents:
            return False
        folder = folder.parent


def specifier(from_file: Path, target: Path, style: ImportStyle, *, esm: bool = False) -> str:
    """The relative module specifier from one file to another (`../models/user`);
    with `esm`, Node's own ES module form (`../models/user.js`)."""
    if esm:
        rel = os.path.relpath(target, from_file.parent).replace(os.sep, "/")
        return rel if rel.startswith(".") else "./" + rel
    base = module_path_without_ext(target)
    rel = os.path.relpath(base, from_file.parent).replace(os.sep, "/")
    if rel.endswith("/index"):
        rel = rel[: -len("/index")]
    elif rel == "index":
        rel = "."
    if not rel.startswith("."):
        rel = "./" + rel
    if style.js_extension and not rel.endswith((".", "/")) and not target.name.startswith("index."):
        # The name the compiled file has: `.mts` → `.mjs`, `.cts`/`.cjs` → `.cjs`.
        rel += {".mjs": ".mjs", ".mts": ".mjs", ".cjs": ".cjs", ".cts": ".cjs"}.get(
            target.suffix, ".js"
        )
    return rel


def imports_name(text: str, name: str) -> bool:
    """Whether an import statement of the file already binds `name`."""
    n = re.escape(name)
    bound = rf"(?<![\w$]){n}(?![\w$])"
    for m in re.finditer(r"^\s*import\s+(?:type\s+)?([^;'\"]*?)\s+from\s", text, re.M | re.S):
        clause = re.sub(r"\b[\w$]+\s+as\s+", "", m.group(1))
        if re.search(bound, clause):
            return True
    return False


def import_edit(
    rel_path: str, text: str, name: str, spec: str, style: ImportStyle, whole: bool = False
) -> TextEdit | None:
    """The edit that imports `name` from `spec`: merged into an existing single-line
    `import { ... } from spec`, else a new line after the file's last import; None
    when the file already imports the name (an edit is never made twice).  `whole`:
    the module itself as `name` (`import * as path from 'node:path'`)."""
    if imports_name(text, name):
        return None
    lines = text.splitlines()
    stmts = _statements(lines)
    for st in stmts if not whole else []:
        if st.spec != spec or st.start != st.end:
            continue
        line = lines[st.start]
        m = re.match(r"^(\s*import\s+(?:type\s+)?\{)([^}]*)(\}.*)$", line)
        if m and not re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", m.group(2)):
            inner = m.group(2)
            body = inner.rstrip()
            trail = inner[len(body) :]
            sep = ", " if body.strip() else " "
            new_inner = f"{body}{sep}{name}{trail or ' '}"
            col_start = len(m.group(1))
            return TextEdit(
                rel_path, st.start, col_start, st.start, col_start + len(inner), new_inner
            )
    q = style.quote
    binding = f"* as {name}" if whole else f"{{ {name} }}"
    new_line = f"import {binding} from {q}{spec}{q}{';' if style.semicolon else ''}\n"
    if stmts:
        after = stmts[-1].end + 1
        return TextEdit(rel_path, after, 0, after, 0, new_line)
    # No imports: after a leading comment header / directive prologue.
    at = 0
    while at < len(lines) and (
        lines[at].startswith(("#!", "//"))
        or lines[at].strip() in ("'use strict';", '"use strict";')
    ):
        at += 1
    return TextEdit(rel_path, at, 0, at, 0, new_line)
