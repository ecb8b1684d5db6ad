"""CommonJS: what a module exports, and where a missing name can be required
from (a workspace module, a declared dependency, a Node built-in).

What a CommonJS module exports, as Node's own module loader (and its
cjs-module-lexer, for ES importers) reads it:

    module.exports = { Money, format: fmt }     named: Money, format
    exports.Money = ...  module.exports.Money = ...   named: Money
    module.exports = class Money {...}          the whole module is Money
    module.exports = function toCamelCase () {} the whole module is toCamelCase
    module.exports = Money                      the whole module is Money
    module.exports = (x) => ...  in toCamelCase.js    the file's name says which

A package provides a name when the name is its conventional binding
(`content-type` → `contentType`, declared in the nearest package.json), a Node
built-in likewise (`path`, `fs`, `child_process` → `childProcess`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from faultlens.classifier.files import read_text
from faultlens.classifier.lazyre import lazy_compile

from ..names import js_names
from .packages import NODE_BUILTINS
from .scan import read_small, walk_sources

CJS_EXTS = (".js", ".cjs")
Kind = Literal["named", "module"]

# Node's built-in modules a program binds under their own (camel-cased) name:
# all but the `console` global and the deprecated, experimental or test-only ones.
BUILTINS = NODE_BUILTINS - {"console", "constants", "domain", "test", "trace_events", "wasi"}

_ESM_SYNTAX = lazy_compile(
    r"^\s*(?:import\s*[\w{*'\"]|export\s+(?:default|const|class|function|\{|\*))", re.M
)
_REQUIRE_USE = lazy_compile(
    r"(?<![\w$.])require\s*\(|(?<![\w$.])module\.exports\b|^\s*exports\.", re.M
)


def camel(package: str) -> str:
    """The conventional binding of a package or built-in: `content-type` →
    `contentType`, `@scope/fast-json` → `fastJson`, `child_process` →
    `childProcess`."""
    base = package.rsplit("/", 1)[-1] if package.startswith("@") else package
    parts = [p for p in re.split(r"[-_.]", base) if p]
    if not parts:
        return ""
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def is_commonjs(source: Path, text: str, root: Path) -> bool:
    """Whether `source` is a CommonJS module: `.cjs`, or a `.js` file that
    requires or exports the CommonJS way and has no ES import/export, or a
    `.js` file with neither outside a `"type": "module"` package."""
    from .ts_imports import node_esm

    if source.suffix == ".cjs":
        return True
    if source.suffix != ".js":
        return False
    if _ESM_SYNTAX.search(text):
        return False
    if _REQUIRE_USE.search(text):
        return True
    return not node_esm(source, root)


# -- what a module exports ---------------------------------------------------------------------
def _object_keys(text: str, start: int) -> list[str]:
    """The top-level keys of the object literal whose `{` is at `start`
    (`{ a, b: x, c() {}, ...d }` → a, b, c); bounded to 64 KiB."""
    depth, i, end = 0, start, min(len(text), start + 65536)
    items: list[str] = []
    current: list[str] = []
    quote = ""
    while i < end:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
            if depth == 1:
                current.append(ch)
        elif ch in "'\"`":
            quote = ch
            if depth == 1:
                current.append(ch)
        elif ch in "{([":
            depth += 1
            if depth > 1:
                current.append(ch)
        elif ch in "})]":
            depth -= 1
            if depth == 0:
                items.append("".join(current))
                break
            current.append(ch)
        elif ch == "," and depth == 1:
            items.append("".join(current))
            current = []
        elif depth >= 1:
            current.append(ch)
        i += 1
    keys = []
    for item in items:
        item = re.sub(r"//[^\n]*|/\*.*?\*/", "", item, flags=re.S).strip()
        m = re.match(
            r"(?:async\s+|get\s+|set\s+)?['\"]?([A-Za-z_$][\w$]*)['\"]?\s*(?:[:(]|$)", item
        )
        if m and not item.startswith("..."):
            keys.append(m.group(1))
    return keys


def exports_of(path: Path, text: str, name: str) -> Kind | None:
    """How the CommonJS module `path` exports `name`: as a named export, as the
    whole module, or not at all."""
    stem = path.parent.name if path.stem == "index" else path.stem
    if name not in text and name != stem:
        return None
    n = re.escape(name)
    if re.search(
        rf"(?<![\w$.])(?:module\.)?exports\s*(?:\.\s*{n}|\[\s*['\"]{n}['\"]\s*\])\s*=(?!=)", text
    ):
        return "named"
    if re.search(rf"Object\.defineProperty\(\s*(?:module\.)?exports\s*,\s*['\"]{n}['\"]", text):
        return "named"
    for m in re.finditer(r"(?<![\w$.])module\.exports\s*=(?!=)\s*", text):
        rest = text[m.end() : m.end() + 200]
        if rest.startswith("{"):
            if name in _object_keys(text, m.end()):
                return "named"
            continue
        if re.match(rf"(?:async\s+)?(?:function\s*\*?|class)\s+{n}(?![\w$])", rest):
            return "module"
        if re.match(rf"{n}\s*(?:;|$|\n)", rest):
            return "module"
        # `module.exports = (...) => ...` / an anonymous function: the file's name says what it is.
        if stem == name and not re.match(r"require\s*\(", rest):
            return "module"
    return None


@dataclass(slots=True, frozen=True)
class Provider:
    """Where a missing name can be required from."""

    kind: Kind
    path: Path | None = None  # a workspace module
    package: str | None = None  # a declared dependency or a built-in

    @property
    def builtin(self) -> bool:
        return self.path is None and self.package in BUILTINS


def find_exports(root: Path, name: str, exclude: Path | None = None) -> list[Provider]:
    """Workspace CommonJS modules that export `name` (named or as the whole module)."""
    out: list[Provider] = []
    skip = exclude.resolve() if exclude is not None else None
    for path in walk_sources(root, CJS_EXTS):
        if skip is not None and path.resolve() == skip:
            continue
        text = read_small(path)
        if text is None:
            continue
        kind = exports_of(path, text, name)
        if kind is not None:
            out.append(Provider(kind, path=path))
    return out


def _manifest(source: Path, root: Path) -> dict[str, object] | None:
    folder = source.parent
    while True:
        manifest = folder / "package.json"
        if manifest.is_file():
            try:
                data = json.loads(read_text(manifest, 1 << 20))
            except (OSError, ValueError):
                return None
            return data if isinstance(data, dict) else None
        if folder == root or root not in folder.parents:
            return None
        folder = folder.parent


def package_providing(source: Path, root: Path, name: str) -> Provider | None:
    """The one declared dependency (nearest package.json) or Node built-in whose
    conventional binding is `name`."""
    data = _manifest(source, root) or {}
    found: set[str] = set()
    for key in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
        deps = data.get(key)
        if isinstance(deps, dict):
            found.update(p for p in deps if isinstance(p, str) and camel(p) == name)
    if not found:
        found.update(b for b in BUILTINS if camel(b) == name)
    if not found:  # a built-in's named export (`readFileSync`: fs), asked of node
        named = js_names.builtin_providers(name)
        return Provider("named", package=named[0]) if len(named) == 1 else None
    if len(found) != 1:
        return None
    return Provider("module", package=found.pop())
