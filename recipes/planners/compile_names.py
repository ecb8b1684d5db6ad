"""The compile recipe's plans made from what the names index and the tools'
helps say (see compile.py for the order): a Python file's undefined names in
one batch, a misspelt Go name the file declares, rustc's `add `;` here`, a
qualified "did you mean" kept as a hint."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from faultlens.classifier.columns import column_unit
from faultlens.classifier.lazyre import lazy_compile

from ..context import PlanContext
from ..fixes import (
    cs_usings,
    go_brackets,
    java_imports,
    py_batch,
    py_brackets,
    rust_help,
    suggest,
    ts_imports,
)
from ..fixes.scan import read_small, suggestion, walk_sources
from ..model import Plan, Refusal, TextEdit
from ..names import cs_index, go_names, java_index, js_names, js_scope
from ..names.nearest import distance, nearest
from ..safety import valid

_QUALIFIED = lazy_compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)+", re.ASCII)


def plan_of(
    ctx: PlanContext, title: str, summary: str, edits: list[TextEdit], **kw: object
) -> Plan:
    return Plan(
        failure_id=ctx.record.id,
        failure_type="compile",
        title=title,
        summary=summary,
        edits=edits,
        verify=ctx.rerun_step(),
        **kw,  # type: ignore[arg-type]
    )


def go_respell(ctx: PlanContext, src: str, text: str, name: str, notes: list[str]) -> Plan | None:
    """An undefined Go name one or two edits from exactly one name declared
    in its function (or at the top level): a misspelt local is no missing
    package (go_names.respell: the misspelt side is the one written once)."""
    found = go_names.respell(text, ctx.record.source_line, name)
    if found is None:
        return None
    wrong, right, places = found
    edits = [TextEdit(src, line, col, line, col + len(wrong), right) for line, col in places]
    return plan_of(
        ctx, f"Change '{wrong}' to '{right}'", "the nearest name declared in its function", edits
    )


def python_batch(ctx: PlanContext, src: str, text: str, name: str) -> Plan | Refusal | None:
    """The file's undefined names fixed together (fixes/py_batch.py), when the
    one the failure names is among them; a refusal listing the candidates when
    several modules provide it."""
    rec = ctx.record
    exception = rec.hint.get("exception")
    if (exception and exception != "NameError") or "cannot import name" in (rec.message or ""):
        return None  # an ImportError: the name is another module's to define
    told = suggestion(rec)
    if told is not None and not valid("identifier", told):
        return None  # a qualified or odd suggestion: the single-name path weighs it
    python = py_batch.interpreter(ctx.command, ctx.cwd_path, ctx.python(), ctx.env.get("PATH"))
    batch = py_batch.plan_batch(ctx.root, ctx.root / src, src, text, name, python, told)
    if batch is None:
        return None
    if name in batch.candidates:
        return Refusal(
            f"'{name}' is provided by several modules; which one is yours to choose",
            suggestions=batch.candidates[name],
            details=[f"candidates: {'; '.join(batch.candidates[name])}"],
        )
    if not batch.fixes(name) or not batch.edits:
        return None
    summary = py_batch.summary(batch)
    if not batch.imports and list(batch.respelt) == [name] and not batch.unknown:
        summary = "the tool's suggestion" if told else "the nearest name in scope"
    return plan_of(ctx, py_batch.title(batch, name), summary, batch.edits)


def rust_terminator(ctx: PlanContext, src: str, text: str) -> Plan | None:
    rec = ctx.record
    found = rust_help.terminator_edit(
        rec.message or "",
        src,
        text,
        rec.source_line,
        rec.source_column,
        column_unit(rec.hint.get("column_unit")),
    )
    if found is None:
        return None
    tok, edit = found
    tool = "rustc" if src.endswith(".rs") else "the compiler"
    return plan_of(ctx, f"Add `{tok}` ({tool}'s help)", f"{tool}: add `{tok}` here", [edit])


def _segments(name: str) -> list[str]:
    return [s for s in re.split(r"::|\.", name) if s]


def names_another_thing(suggested: str, name: str) -> bool:
    """Whether a "did you mean" names the same constant or class under a
    namespace (`Erubi::CaptureBlockEngine` for `CaptureBlockEngine`): the
    name is right and its definition not loaded (the real fix is a require
    or an import), so putting the suggestion in place would double the
    namespace.  A respelling (`Shop::Price` for `Prise`) is not this."""
    if _QUALIFIED.fullmatch(suggested) is None:
        return False
    return _segments(suggested)[-1] == _segments(name)[-1]


def unqualified_where_written(suggested: str, line_before: str) -> str:
    """The suggestion without the namespace the code already writes before
    the name (`Shop::` + `Prise` takes `Price`, not `Shop::Shop::Price`)."""
    parts = _segments(suggested)
    for i in range(len(parts) - 1, 0, -1):
        sep = "::" if "::" in suggested else "."
        if line_before.endswith(sep.join(parts[:i]) + sep):
            return sep.join(parts[i:])
    return suggested


def closing_bracket(ctx: PlanContext, src: str, text: str) -> Plan | None:
    """Python's "'(' was never closed": the one closing place that parses."""
    rec = ctx.record
    bracket = py_brackets.opener("\n".join([rec.message or "", str(rec.hint.get("why") or "")]))
    if bracket is None:
        return None
    edit = py_brackets.close_edit(src, text, rec.source_line, bracket)
    if edit is None:
        return None
    return plan_of(
        ctx,
        f"Close the '{bracket}' of line {rec.source_line}",
        "the one place the closer makes the file parse",
        [edit],
    )


def go_closer(ctx: PlanContext, src: str, text: str) -> Plan | None:
    """A Go syntax error a dropped closer explains (fixes/go_brackets.py)."""
    rec = ctx.record
    if not go_brackets.is_syntax_error(rec.message or ""):
        return None
    found = go_brackets.close_edit(src, text, rec.source_line)
    if found is None:
        return None
    closer, edit = found
    return plan_of(
        ctx,
        f"Add the missing '{closer}' (line {edit.start_line + 1})",
        "the one line end where the closer makes the file parse (gofmt -e)",
        [edit],
    )


def js_near_miss(
    text: str, line1: int | None, name: str, notes: list[str], col1: int | None = None
) -> str | None:
    """The one name a JS/TS file declares (or Node provides globally) one or
    two edits from `name`, when `name` appears once in the file's code (a
    name used in several places was lost, not mistyped); else the one such
    name visible in the function at `line1`, when `name` appears once there
    and nothing visible binds it (a function's misspelt parameter); a tie is
    no name, its candidates noted."""
    code = js_names.code_only(text)
    if len(re.findall(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", code)) != 1:
        near = js_scope.near_misses_in_function(text, line1, name, col1)
        if len(near) > 1:
            notes.append(f"several names in scope are as near to '{name}': {', '.join(near[:5])}")
        return near[0] if len(near) == 1 else None
    return nearest(name, (js_names.declared(text) | js_names.globals_of_node()) - {name})


def js_misspelt_declaration(ctx: PlanContext, src: str, text: str, name: str) -> Plan | None:
    """A JS/TS local declared misspelt while the function uses the right name
    several times (js_scope.misspelt_declaration): the one declaration renamed."""
    found = js_scope.misspelt_declaration(text, ctx.record.source_line, name)
    if found is None:
        return None
    offset, declared = found
    line0 = text.count("\n", 0, offset)
    col0 = offset - (text.rfind("\n", 0, offset) + 1)
    edit = TextEdit(src, line0, col0, line0, col0 + len(declared), name)
    return plan_of(
        ctx,
        f"Rename '{declared}' to '{name}' where it is declared (line {line0 + 1})",
        f"'{declared}' is declared and never used; the function uses '{name}'",
        [edit],
    )


def nearer_than_tsc(
    text: str, line1: int | None, name: str, said: str, col1: int | None = None
) -> str | None:
    """tsc ranks its "Did you mean" by Levenshtein distance, where two
    neighbouring letters swapped cost two edits: for `strat` it names `str`
    (two letters left out) as readily as `start`.  The one name visible in
    the function at `line1` strictly nearer to `name` than `said`, a
    transposition counted as one edit (names/nearest.py), else None."""
    near = js_scope.near_misses_in_function(text, line1, name, col1)
    if len(near) != 1 or near[0] == said:
        return None
    far = 2 * (len(name) + len(said) + len(near[0]))
    return near[0] if distance(name, near[0], far) < distance(name, said, far) else None


def _only_attributes(text: str, name: str) -> bool:
    """Whether each use of `name` in the code is `name.member`."""
    code = js_names.code_only(text)
    uses = list(re.finditer(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", code))
    return bool(uses) and all(code.startswith(".", m.end()) for m in uses)


def node_builtin_import(
    ctx: PlanContext, src: str, text: str, name: str, notes: list[str]
) -> Plan | None:
    """An ES module's missing name that one Node built-in exports by name
    (`readFileSync`: `import { readFileSync } from 'node:fs'`), asked of node;
    a name used only by its attributes that is a built-in's own name (`path`
    in `path.join(...)`, `Stream` in `Stream.Writable`): that module, whole
    (`import * as path from 'node:path'`)."""
    whole = js_names.builtin_named(name)
    if whole and _only_attributes(text, name):
        spec = f"node:{whole}"
        style = ts_imports.detect_style(text)
        edit = ts_imports.import_edit(src, text, name, spec, style, whole=True)
        if edit is None:
            return None
        return plan_of(
            ctx, f"Import {name} from '{spec}' (the module)", f"a Node built-in ({spec})", [edit]
        )
    mods = js_names.builtin_providers(name)
    if len(mods) > 1:
        notes.append(f"'{name}' is exported by several Node built-ins: {', '.join(mods[:5])}")
        return None
    if not mods:
        return None
    spec = f"node:{mods[0]}"
    edit = ts_imports.import_edit(src, text, name, spec, ts_imports.detect_style(text))
    if edit is None:
        return None
    return plan_of(ctx, f"Import {name} from '{spec}'", f"a Node built-in ({spec})", [edit])


_JS_SYNTAX = lazy_compile(
    r"missing \) after argument list|Unexpected token '?[)}\]]|Unexpected end of input"
)


def js_closer(ctx: PlanContext, src: str, text: str) -> Plan | None:
    """node's "missing ) after argument list": the closer put at the one line
    end where `node --check` then parses a temporary copy."""
    rec = ctx.record
    node = shutil.which("node")
    if node is None or _JS_SYNTAX.search(rec.message or "") is None:
        return None
    suffix = Path(src).suffix if src.endswith((".mjs", ".cjs")) else ".js"
    parses = go_brackets.checker([node, "--check"], suffix)
    found = go_brackets.close_edit(
        src, text, rec.source_line, parses, js_names.code_only(text).splitlines()
    )
    if found is None:
        return None
    closer, edit = found
    return plan_of(
        ctx,
        f"Add the missing '{closer}' (line {edit.start_line + 1})",
        "the one line end where the closer makes the file parse (node --check)",
        [edit],
    )


_TS_IMPLEMENTATION = lazy_compile(r"\bTS2389\b.*?must be '(?P<name>[A-Za-z_$][\w$]*)'")
_WORD_AT = lazy_compile(r"[A-Za-z_$][\w$]*")


def ts_implementation_name(ctx: PlanContext, src: str, text: str) -> Plan | None:
    """tsc's "TS2389: Function implementation name must be 'fromPromise'": an
    overloaded function's implementation misspelt, renamed as tsc says."""
    rec = ctx.record
    m = _TS_IMPLEMENTATION.search(f"{rec.code or ''} {rec.message or ''}")
    lines = text.split("\n")
    if m is None or not rec.source_line or not rec.source_column or rec.source_line > len(lines):
        return None
    word = _WORD_AT.match(lines[rec.source_line - 1], rec.source_column - 1)
    if word is None or word.group(0) == m.group("name"):
        return None
    edit = suggest.replace_name(
        src, text, rec.source_line, rec.source_column, word.group(0), m.group("name")
    )
    if edit is None:
        return None
    return plan_of(
        ctx,
        f"Change '{word.group(0)}' to '{m.group('name')}'",
        "the name tsc says the overloads' implementation must have",
        [edit],
    )


_TS_SYNTAX = lazy_compile(r"\bTS1(?:005|109|135|128)\b|'\)' expected|Argument expression expected")
_TS_PARSES = (
    "const ts=require(process.argv[1]);const t=require('fs').readFileSync(process.argv[2],'utf8');"
    "const f=ts.createSourceFile(process.argv[2],t,ts.ScriptTarget.Latest,true);"
    "process.exit(f.parseDiagnostics.length?1:0)"
)


def ts_closer(ctx: PlanContext, src: str, text: str) -> Plan | None:
    """tsc's syntax errors of a dropped closer: put at the one line end where
    the TypeScript the failing command runs (its own parser, by node) then
    parses a temporary copy."""
    rec = ctx.record
    said = f"{rec.code or ''} {rec.message or ''}"
    node = shutil.which("node")
    tsc = shutil.which(ctx.command[0]) if ctx.command else None
    if node is None or tsc is None or _TS_SYNTAX.search(said) is None:
        return None
    package = Path(os.path.realpath(tsc)).parent.parent
    if not (package / "package.json").is_file() or package.name != "typescript":
        return None
    parses = go_brackets.checker([node, "-e", _TS_PARSES, str(package)], Path(src).suffix)
    found = go_brackets.close_edit(
        src, text, rec.source_line, parses, js_names.code_only(text).splitlines()
    )
    if found is None:
        return None
    closer, edit = found
    return plan_of(
        ctx,
        f"Add the missing '{closer}' (line {edit.start_line + 1})",
        "the one line end where the closer makes the file parse (TypeScript's parser)",
        [edit],
    )


def several_candidates(name: str, where: str, found: list[str], statements: list[str]) -> Refusal:
    """The refusal of a name several providers have (`where`: "in several
    namespaces"): the first five, each with the statement that would bring it."""
    return Refusal(
        f"'{name}' is {where}; which one is yours to choose",
        suggestions=statements[:5],
        details=[f"candidates: {', '.join(found[:5])}"],
    )


def java_import(ctx: PlanContext, src: str, text: str, name: str) -> Plan | Refusal | None:
    """javac's `cannot find symbol ... class List`: the one public JDK class of
    that name (java.base's first) imported, with the file's other unbound
    names that one JDK class provides, in one edit; several: the candidates."""
    rec = ctx.record
    kind = rec.hint.get("symbol_kind")
    if kind not in ("class", "variable") or not name[:1].isupper():
        return None
    home = java_index.jdk_home(ctx.command, ctx.env.get("JAVA_HOME") or os.environ.get("JAVA_HOME"))
    if home is None:
        return None
    folder = (ctx.root / src).parent
    same_package = {p.stem for p in folder.glob("*.java")} if folder.is_dir() else set()
    if name in same_package:
        return None
    found = java_index.providers(home, name)
    if len(found) > 1:
        return several_candidates(
            name, "a class of several JDK packages", found, [f"import {c};" for c in found]
        )
    if not found:
        return None
    classes = [found[0]]
    for other in java_imports.unresolved_classes(text, same_package) or []:
        more = java_index.providers(home, other) if other != name else []
        if len(more) == 1:
            classes.append(more[0])
    edits = java_imports.import_edits(src, text, classes)
    if not edits:
        return None
    title = f"Import {found[0]}" + (f" (and {len(classes) - 1} more)" if len(classes) > 1 else "")
    return plan_of(ctx, title, f"the JDK's classes ({home})", edits)


MAX_JAVA_FILES = 3000


def java_static_import(ctx: PlanContext, src: str, text: str, name: str) -> Plan | Refusal | None:
    """javac's `cannot find symbol ... method assertEquals(int,int)`: the one
    class the workspace's other files import that member from statically
    (`import static org.junit.Assert.assertEquals;`), with the file's other
    unqualified uses of members imported so elsewhere, in one edit; several
    classes: the candidates.  The JDK's members are not indexed (every class
    would be read with javap): its statics are mostly written qualified."""
    if ctx.record.hint.get("symbol_kind") not in ("method", "variable"):
        return None
    ways: dict[str, set[str]] = {}
    for n, path in enumerate(walk_sources(ctx.root, (".java",))):
        if n >= MAX_JAVA_FILES:
            break
        if path.resolve() != (ctx.root / src).resolve():
            for cls, member in java_imports.static_imports(read_small(path) or ""):
                ways.setdefault(member, set()).add(cls)
    found = sorted(ways.get(name, set()))
    if len(found) > 1:
        return several_candidates(
            name,
            "imported statically from several classes in the workspace",
            found,
            [f"import static {c}.{name};" for c in found],
        )
    if not found:
        return None
    have = {m for _, m in java_imports.static_imports(text)}
    members = [(found[0], name)] + [
        (next(iter(classes)), member)
        for member, classes in sorted(ways.items())
        if member != name
        and len(classes) == 1
        and member not in have
        and java_imports.uses_unqualified(text, member)
        and not java_imports.declares_member(text, member)
    ]
    edit = java_imports.static_import_edit(src, text, members)
    if edit is None:
        return None
    title = f"Import static {found[0]}.{name}" + (
        f" (and {len(members) - 1} more)" if len(members) > 1 else ""
    )
    return plan_of(ctx, title, "as the workspace's other files import it", [edit])


_CS_MISSING_USING = lazy_compile(r"Are you missing [`'](?P<ns>[A-Z][\w.]*)' using directive")
_CS_CODES = ("CS0246", "CS0103", "CS1061", "CS1929", "CS0305")
MAX_CS_FILES = 300


def _cs_declared(root: Path) -> set[str]:
    """The type names the workspace's C# files declare (bounded)."""
    out: set[str] = set()
    for n, path in enumerate(walk_sources(root, (".cs",))):
        if n >= MAX_CS_FILES:
            break
        body = read_small(path) or ""
        out |= {m.group(1) for m in _CS_TYPE_DECL.finditer(body)}
    return out


_CS_TYPE_DECL = lazy_compile(r"\b(?:class|struct|interface|enum|record)\s+([A-Z]\w*)")


def cs_using(ctx: PlanContext, src: str, text: str, name: str) -> Plan | Refusal | None:
    """C#'s CS0246/CS0103 (and a missing extension method): the namespace the
    compiler names (mcs: "Are you missing `System.Text' using directive?"), else
    the one the base class library's index has for the name; with the
    namespaces the file's other unbound names need, one edit each, one
    attempt.  Several namespaces for the name: the candidates."""
    rec = ctx.record
    if rec.code not in _CS_CODES:
        return None
    told = _CS_MISSING_USING.search(rec.message or "")
    declared = _cs_declared(ctx.root)
    if name in declared:
        return None  # the workspace's own type: not a base class library using
    lookup = cs_index.namespaces_of_extension if rec.code in ("CS1061", "CS1929") else None
    spaces = [told.group("ns")] if told else (lookup or cs_index.namespaces_of_type)(name)
    if rec.code == "CS0305":  # the generic one was found: the other namespaces' type was meant
        generic = str(rec.hint.get("generic") or "")
        found_in = generic.rpartition(".")[0] if "." in generic else None
        spaces = [ns for ns in spaces if ns != found_in and ns not in cs_usings.imported(text)]
    if len(spaces) > 1:
        return several_candidates(
            name, "in several namespaces", spaces, [f"using {ns};" for ns in spaces]
        )
    if not spaces:
        return None
    more = cs_usings.batch(
        src, text, declared, cs_index.namespaces_of_type, cs_index.namespaces_of_extension
    )
    wanted = list(dict.fromkeys([spaces[0], *more]))
    edits = [e for ns in wanted if (e := cs_usings.using_edit(src, text, ns)) is not None]
    if not edits:
        return None
    why = "the compiler's using hint" if told else "the base class library's namespaces (mono)"
    title = f"Add using {spaces[0]};" + (f" (and {len(edits) - 1} more)" if len(edits) > 1 else "")
    return plan_of(ctx, title, why, edits)
