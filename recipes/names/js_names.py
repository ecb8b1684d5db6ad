"""JavaScript/TypeScript: the names a file declares (a bounded scan, no
parser: `const|let|var` bindings and destructurings, functions, classes,
parameters, imports and requires) and the names Node itself provides (its
globals and built-in modules with their exports, asked of the installed
`node` once per version and kept in the cache folder)."""

from __future__ import annotations

import json
import re
import shutil

from faultlens.classifier.lazyre import lazy_compile

from . import cache, probe

PREFIX = "jsnames"
TIMEOUT = 20.0
MAX_TEXT = 2 * 1024 * 1024
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
# On one line: a string, a template without `${`, a line comment.  Line by line, so
# a quote inside a regular expression literal blanks the rest of its line only.
_ON_A_LINE = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`(?:\\.|[^`\\])*`|//.*")
_BINDINGS = (
    re.compile(r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)"),
    re.compile(r"\b(?:const|let|var)\s*[{\[]([^}\]=]*)[}\]]"),
    re.compile(r"\b(?:function\*?|class)\s+([A-Za-z_$][\w$]*)"),
    re.compile(r"\bfunction\*?\s*[\w$]*\s*\(([^)]*)\)"),
    re.compile(r"\(([^()]*)\)\s*(?::\s*[\w<>\[\], |]+)?\s*=>"),
    re.compile(r"\b([A-Za-z_$][\w$]*)\s*=>"),
    re.compile(r"\bimport\s+(?:type\s+)?([A-Za-z_$][\w$]*)"),
    re.compile(r"\bimport\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}"),
    re.compile(r"\bcatch\s*\(\s*([A-Za-z_$][\w$]*)"),
    re.compile(
        r"^\s*(?:(?:public|private|protected|readonly|async|static)\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*[:{]",
        re.M,
    ),
)
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_INTERFACE = lazy_compile(r"\binterface\s+[A-Za-z_$][\w$]*[^{;()]*\{")
_PROBE = (
    "const m=require('module');const out={globals:Object.getOwnPropertyNames(globalThis),"
    "builtins:{}};for(const n of m.builtinModules){if(n.startsWith('_'))continue;"
    "try{out.builtins[n]=Object.keys(require(n)).filter(k=>/^[A-Za-z_$][\\w$]*$/.test(k))}"
    "catch(e){}}process.stdout.write(JSON.stringify({version:process.version,...out}))"
)
_MEMO: dict[str, dict[str, object]] = {}


def code_only(text: str) -> str:
    """`text` with comments and strings blanked (same length, same lines)."""
    text = _BLOCK_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return "\n".join(
        _ON_A_LINE.sub(lambda m: " " * len(m.group(0)), line) for line in text.split("\n")
    )


def _without_interfaces(code: str) -> str:
    """`code` with the bodies of TypeScript interfaces blanked: a member
    `decode?: (str: string) => string` binds no `str`."""
    out = list(code)
    for m in _INTERFACE.finditer(code):
        depth = 0
        for i in range(m.end() - 1, len(code)):
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            if depth == 0:
                out[m.end() : i] = re.sub(r"[^\n]", " ", code[m.end() : i])
                break
    return "".join(out)


def declared(text: str) -> set[str]:
    """The names the file binds anywhere (scopes are not told apart)."""
    if len(text) > MAX_TEXT:
        return set()
    code = _without_interfaces(code_only(text))
    out: set[str] = set()
    for pattern in _BINDINGS:
        for m in pattern.finditer(code):
            for part in m.group(1).split(","):
                # `a = 1`, `b: renamed`, `...rest`, `c?: T`: the bound name
                part = part.split("=")[0].strip().lstrip(".")
                if ":" in part and pattern.pattern.startswith(r"\b(?:const"):
                    part = part.split(":")[-1]
                if " as " in part:
                    part = part.split(" as ")[-1]
                words = _WORD.findall(part)
                if words:
                    out.add(words[0] if ":" not in part else _WORD.findall(part.split(":")[0])[0])
    return out - {"if", "for", "while", "switch", "catch", "function", "return", "typeof"}


def node_names() -> dict[str, object]:
    """{"version", "globals": [...], "builtins": {module: [exports]}} of the
    installed node; empty when node cannot run."""
    node = shutil.which("node")
    if node is None:
        return {}
    identity = cache.file_identity(node)
    name = cache.key(PREFIX, identity, _PROBE)
    found = _MEMO.get(name) or cache.load(name)
    if found is None:
        # a script on stdin (`node -`), not `node -e`: eval code sees every
        # built-in module as a global (`fs`, `v8`, `vm`), a script does not;
        # and no file is written outside the workspace for it
        out = probe.run([node, "-"], TIMEOUT, script=_PROBE)
        try:
            found = json.loads(out) if out else None
        except ValueError:
            found = None
        if not isinstance(found, dict):
            return {}
        cache.store(name, PREFIX, found, [])
    _MEMO[name] = found
    return found


def globals_of_node() -> set[str]:
    names = node_names().get("globals")
    return {str(n) for n in names} if isinstance(names, list) else set()


def builtin_modules() -> set[str]:
    found = node_names().get("builtins")
    return {str(m) for m in found} if isinstance(found, dict) else set()


def builtin_named(name: str) -> str | None:
    """The Node built-in module whose name `name` is (`path`), or is with its
    first letter capitalised (`Stream`: stream); None for any other."""
    mods = builtin_modules()
    for mod in (name, name[:1].lower() + name[1:]):
        if mod in mods and mod.isalpha():
            return mod
    return None


def builtin_providers(name: str) -> list[str]:
    """The Node built-in modules exporting `name` by name (`readFileSync`:
    fs), a variant (`path/posix`, `fs/promises`) left out when its parent
    module exports the name too."""
    found = node_names().get("builtins")
    if not isinstance(found, dict):
        return []
    mods = sorted(str(m) for m, names in found.items() if isinstance(names, list) and name in names)
    return [m for m in mods if m.split("/")[0] == m or m.split("/")[0] not in mods]
