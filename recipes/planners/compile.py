"""The compile recipe's planner (see recipes/compile.md).

In order, the first that applies: the tool's machine-applicable suggestions;
a missing name imported from the workspace module that defines it (TS/JS,
Python) or from the standard library (Go); the tool's "did you mean"; a
"consider importing" / "#include" hint; a missing third-party package
(installed when the project declares it, suggested otherwise).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from faultlens.classifier.columns import column_unit

from ..context import PlanContext
from ..fixes import (
    c_headers,
    cjs_exports,
    cjs_imports,
    go_imports,
    py_imports,
    py_names,
    rust_help,
    suggest,
    tool_fixers,
    ts_imports,
)
from ..fixes.packages import ecosystem_of, install_plan, package_for
from ..fixes.scan import (
    import_statement,
    include_header,
    missing_module,
    missing_name,
    record_text,
    suggestion,
)
from ..model import CommandStep, Plan, Refusal
from ..names import c_std, go_names, typed_scope
from . import compile_names
from .compile_names import plan_of

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord
from ..safety import to_workspace_relative, valid

C_EXTS = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".m")
TS_EXTS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def _uncorrected_name_error(rec: FailureRecord) -> bool:
    """A NameError (never an ImportError: that name lives in another module)
    of a name that is not a standard module left unimported."""
    named = rec.hint.get("exception") == "NameError" or (rec.message or "").startswith("NameError:")
    return named and not rec.hint.get("stdlib")


def _said(rec: FailureRecord) -> str:
    """The record's text and the helps the classifier kept in its hint."""
    helps = [str(a) for a in rec.hint.get("advice") or []]
    helps += [
        str(s.get("message", "")) for s in rec.hint.get("suggestions") or [] if isinstance(s, dict)
    ]
    return "\n".join([record_text(rec), *helps])


def _already(ctx: PlanContext, title: str, src: str) -> Plan:
    """The fix is already in the file (another process, or an earlier apply,
    made it): nothing to edit; the re-run says whether the failure is gone."""
    return plan_of(ctx, f"{title} (already in {src})", "the import is already there", [])


def _to_rel(ctx: PlanContext) -> object:
    def conv(path: str) -> str | None:
        return ctx.rel(path)

    return conv


def _one_module(
    ctx: PlanContext, found: list[Path], notes: list[str], several: str, none: str
) -> Path | None:
    """The one workspace module found; else None, noting `several` (and
    where they are) or `none`."""
    if len(found) > 1:
        where = ", ".join(to_workspace_relative(ctx.ws, p) for p in found[:5])
        notes.append(f"{several}: {where}")
        return None
    if not found:
        notes.append(none)
        return None
    return found[0]


def _workspace_import(
    ctx: PlanContext, src: str, text: str, name: str, notes: list[str]
) -> Plan | None:
    abs_src = ctx.root / src
    if src.endswith(TS_EXTS):
        return _js_import(ctx, src, text, name, notes)
    if src.endswith(".py"):
        if not valid("identifier", name) or "$" in name:
            return None
        definitions = py_imports.find_definitions(ctx.root, name, exclude=abs_src)
        if not definitions:
            module_plan = _python_module_import(ctx, src, text, name)
            if module_plan is not None:
                return module_plan
        definer = _one_module(
            ctx,
            definitions,
            notes,
            f"'{name}' is defined in several modules",
            f"no workspace module defines '{name}'",
        )
        if definer is None:
            return None
        line = py_imports.import_line_for(abs_src, definer, ctx.root, name, text)
        module = line.split()[1]
        if not valid("py_module", module.lstrip(".")) and module.strip(".") != "":
            return None
        py_edit = py_imports.import_edit(src, text, line)
        if py_edit is None:
            return _already(ctx, f"Import {name} from {module}", src)
        return plan_of(
            ctx,
            f"Import {name} from {module}",
            f"add `{line}` (defined in {to_workspace_relative(ctx.ws, definer)})",
            [py_edit],
        )
    if src.endswith(".go"):
        paths = [p for p in go_imports.std_path_for(name) if go_names.fits_package(text, name, p)]
        if not paths:
            respelt = compile_names.go_respell(ctx, src, text, name, notes)
            if respelt is not None:
                return respelt
        if len(paths) > 1:
            notes.append(f"'{name}' names several standard packages: {', '.join(paths)}")
            return None
        if not paths:
            notes.append(f"'{name}' is not a standard-library package")
            return None
        go_edit = go_imports.import_edit(src, text, paths[0])
        if go_edit is None:
            notes.append(f'"{paths[0]}" is already imported')
            return None
        return plan_of(ctx, f'Import "{paths[0]}"', f'add "{paths[0]}" to the imports', [go_edit])
    return None


def _js_import(ctx: PlanContext, src: str, text: str, name: str, notes: list[str]) -> Plan | None:
    """A name another workspace module exports: an ES import (`import { Money }
    from './money.js'`, Node's own form in an ES module), or in a CommonJS file a
    require (`const { Money } = require('./money')`, also of a declared package
    or a Node built-in bound under its usual name)."""
    if not valid("identifier", name):
        return None
    abs_src = ctx.root / src
    commonjs = cjs_exports.is_commonjs(abs_src, text, ctx.root)
    esm = ts_imports.find_exporters(ctx.root, name, exclude=abs_src)
    cjs = cjs_exports.find_exports(ctx.root, name, exclude=abs_src)
    if commonjs:
        return _require(ctx, src, text, name, cjs, esm, notes)
    named = {ts_imports.module_path_without_ext(p): p for p in esm}
    for prov in cjs:  # Node reads a CommonJS module's named exports for ES importers
        if prov.kind == "named" and prov.path is not None:
            named.setdefault(ts_imports.module_path_without_ext(prov.path), prov.path)
    if not named:
        builtin = compile_names.node_builtin_import(ctx, src, text, name, notes)
        if builtin is not None:
            return builtin
    exporter = _one_module(
        ctx,
        list(named.values()),
        notes,
        f"'{name}' is exported by several modules",
        f"no workspace module exports '{name}'",
    )
    if exporter is None:
        return None
    style = ts_imports.detect_style(text)
    esm_node = not style.js_extension and ts_imports.node_esm(abs_src, ctx.root)
    spec = ts_imports.specifier(abs_src, exporter, style, esm=esm_node)
    edit = ts_imports.import_edit(src, text, name, spec, style)
    if edit is None:
        return _already(ctx, f"Import {name} from '{spec}'", src)
    return plan_of(
        ctx,
        f"Import {name} from '{spec}'",
        f"add an import of {name} (exported by {to_workspace_relative(ctx.ws, exporter)})",
        [edit],
    )


def _require(
    ctx: PlanContext,
    src: str,
    text: str,
    name: str,
    cjs: list[cjs_exports.Provider],
    esm: list[Path],
    notes: list[str],
) -> Plan | None:
    abs_src = ctx.root / src
    if len(cjs) > 1:
        where = ", ".join(to_workspace_relative(ctx.ws, p.path) for p in cjs[:5] if p.path)
        notes.append(f"'{name}' is exported by several modules: {where}")
        return None
    provider = cjs[0] if cjs else cjs_exports.package_providing(abs_src, ctx.root, name)
    if provider is None:
        if esm:
            where = ", ".join(to_workspace_relative(ctx.ws, p) for p in esm[:5])
            notes.append(
                f"'{name}' is exported by an ES module ({where}), which {src} cannot require"
            )
        else:
            notes.append(f"no workspace module exports '{name}'")
        return None
    # Where the file itself shows no quotes: the module required, then the test's file.
    near = [to_workspace_relative(ctx.ws, provider.path)] if provider.path else []
    near.append(ctx.rel(str(ctx.record.hint.get("test_file") or "")) or "")
    style = cjs_imports.detect_style(text, *(ctx.read(n) or "" for n in near if n))
    spec = cjs_imports.specifier(abs_src, provider, style)
    binding = f"{{ {name} }}" if provider.kind == "named" else name
    title = f"Require {name} from '{spec}'"
    edit = cjs_imports.require_edit(src, text, name, provider, spec, style)
    if edit is None:
        return _already(ctx, title, src)
    origin = (
        f"exported by {to_workspace_relative(ctx.ws, provider.path)}"
        if provider.path is not None
        else ("a Node built-in" if provider.builtin else "a dependency in package.json")
    )
    return plan_of(
        ctx, title, f"add `{style.decl} {binding} = require('{spec}')` ({origin})", [edit]
    )


def _python_module_import(ctx: PlanContext, src: str, text: str, name: str) -> Plan | None:
    """A missing name that is a module: a sibling in the file's package (`from .
    import keys`, or absolute as the file imports), or the standard library
    (`import functools`)."""
    abs_src = ctx.root / src
    sibling = py_imports.sibling_module(abs_src, name)
    if sibling is not None:
        package, _ = py_imports.module_name(sibling.parent / "__init__.py", ctx.root)
        if py_imports.uses_relative_imports(text) or not package:
            line = f"from . import {name}"
        else:
            line = f"from {package} import {name}"
        title = f"Import {name} ({line})"
    elif py_imports.stdlib_module(name):
        line = f"import {name}"
        title = f"Import {name} from the standard library"
    else:
        return None
    edit = py_imports.import_edit(src, text, line)
    if edit is None:
        return _already(ctx, title, src)
    return plan_of(ctx, title, f"add `{line}`", [edit])


def _tool_fixer(ctx: PlanContext, src: str | None) -> Plan | None:
    """The failing check's own fixer (fixes/tool_fixers.py) for the file it
    named; for a linter's finding only when the tool marks it fixable."""
    rec = ctx.record
    if src is None:
        return None
    argv = tool_fixers.fixer_for(ctx.command, [rec.source_file or src])
    if argv is None or (tool_fixers.is_lint(argv) and rec.hint.get("fixable") is not True):
        return None
    step = ctx.step(argv, timeout=float(ctx.setting("fixer.timeout", 300)))
    return Plan(
        failure_id=rec.id,
        failure_type="compile",
        title=f"Run the tool's fixer ({step.display()})",
        summary="the check's own fixer, on the file it named",
        commands=[step],
        verify=ctx.rerun_step(),
    )


def _install(ctx: PlanContext, src: str | None, module: str) -> Plan | Refusal | None:
    rec = ctx.record
    eco = ecosystem_of(src or rec.source_file, rec.tool)
    if eco is None:
        return None
    package = package_for(eco, module)
    if package is None:
        if module.startswith((".", "/")):
            return Refusal(f"'{module}' is a local module that does not exist (not a package)")
        return Refusal(f"refusing package name from output: {module!r}")
    top = module.split(".")[0] if eco == "python" else module
    if eco == "python" and (
        ctx.exists(f"{top}.py") or ctx.exists(f"{top}/__init__.py") or ctx.exists(f"src/{top}")
    ):
        return Refusal(f"'{module}' is part of this workspace, not a third-party package")
    start = ctx.root / src if src else ctx.cwd_path
    inst = install_plan(eco, module, start, ctx.root, ctx.python(), ctx.command)
    if inst is None:
        hint = {"python": f"python -m pip install {package}", "node": f"npm install {package}"}
        return Refusal(
            f"'{package}' is missing and no package manifest was found",
            suggestions=[hint.get(eco, f"cargo add {package}")],
        )
    step = CommandStep(
        argv=inst.argv,
        cwd=to_workspace_relative(ctx.ws, inst.cwd) if inst.cwd != ctx.root else ".",
        env=dict(ctx.env),
        timeout=float(ctx.setting("install.timeout", 900)),
    )
    if not inst.declared or not ctx.setting("install.auto_install_declared", True):
        return Refusal(
            f"'{package}' is not declared in {inst.manifest}; not installing a package "
            "named only by the output",
            suggestions=[step.display()],
            details=[f"Package manager: {inst.manager} ({inst.manifest})"],
        )
    return Plan(
        failure_id=rec.id,
        failure_type="compile",
        title=f"Install {package} ({step.display()})",
        summary=f"{package} is declared in {inst.manifest} but not installed",
        commands=[step],
        verify=ctx.rerun_step(),
    )


def plan(ctx: PlanContext) -> Plan | Refusal:
    rec = ctx.record
    src = ctx.source
    text = ctx.read(src) if src else None
    notes: list[str] = []

    fixits = rec.hint.get("fixits")
    if isinstance(fixits, list) and fixits:
        # clang/gcc fix-its; a parseable fix-it and gcc's `+++ |+` line for the same
        # insertion are one edit (the parseable form wins).
        ranged = [f for f in fixits if isinstance(f, dict) and "end_line" in f]
        edits = suggest.structured_edits(ranged or fixits, src, _to_rel(ctx))
        if edits:  # gcc and clang count a fix-it's columns in bytes
            edits = suggest.in_code_points(edits, ctx.read, "byte")
        if edits:
            first = edits[0].new_text.strip().splitlines()
            title = "Apply the compiler's fix-it" + (f" ({first[0]})" if first else "")
            return plan_of(ctx, title, "the compiler's machine-applicable fix-it", edits)
        notes.append("the compiler's fix-its could not be placed")

    structured = rec.hint.get("suggestions")
    spans = (
        [s for s in structured if isinstance(s, dict) and "end_line" in s]
        if isinstance(structured, list)
        else []
    )
    if spans:
        edits = suggest.structured_edits(spans, src, _to_rel(ctx))
        if edits:
            return plan_of(
                ctx, "Apply the compiler's suggested fix", "machine-applicable suggestion", edits
            )
        notes.append("the tool's suggestion is not machine-applicable")

    if src and text is not None and src.endswith((".rs", ".java", ".cs", *C_EXTS)):
        terminated = compile_names.rust_terminator(ctx, src, text)
        if terminated is not None:
            return terminated

    if src and text is not None and src.endswith(".py"):
        closed = compile_names.closing_bracket(ctx, src, text)
        if closed is not None:
            return closed
    if src and text is not None and src.endswith(".go"):
        closed = compile_names.go_closer(ctx, src, text)
        if closed is not None:
            return closed
    if src and text is not None and src.endswith((".js", ".mjs", ".cjs")):
        closed = compile_names.js_closer(ctx, src, text)
        if closed is not None:
            return closed
    if src and text is not None and src.endswith((".ts", ".tsx", ".mts", ".cts")):
        closed = compile_names.ts_closer(ctx, src, text) or compile_names.ts_implementation_name(
            ctx, src, text
        )
        if closed is not None:
            return closed

    fixer = _tool_fixer(ctx, src)
    if fixer is not None:
        return fixer

    dependency = rec.hint.get("dependency")
    if isinstance(dependency, str):  # classifier/dependency_errors.py
        n = rec.hint.get("dependency_errors")
        return Refusal(
            f"the {n} errors are inside the installed dependency {dependency}: nothing there "
            "is the project's to edit; choose its version (or the compiler's) by hand",
            suggestions=[str(a) for a in rec.hint.get("advice") or []][:1],
        )

    script = rec.hint.get("missing_script")
    if isinstance(script, str):  # classifier/rules/npm.py
        scripts = [str(s) for s in rec.hint.get("scripts") or []]
        shown = ", ".join(scripts[:10]) + (", ..." if len(scripts) > 10 else "")
        return Refusal(
            f'{rec.source_file or "package.json"} has no script "{script}"; a script is '
            "never added or renamed automatically, and the command naming it is yours",
            suggestions=[str(a) for a in rec.hint.get("advice") or []][:3]
            + ([f"the scripts it has: {shown}"] if scripts else []),
        )

    entry = rec.hint.get("manifest_entry")
    if isinstance(entry, str):  # cargo: the manifest names a crate it cannot find
        return Refusal(
            f"{rec.source_file or 'the manifest'} depends on `{entry}`, which cargo cannot "
            "find; a dependency is never renamed or added automatically",
            details=notes,
        )

    module = missing_module(rec)
    name = missing_name(rec)
    if module and (not name or name == module):
        found = _install(ctx, src, module)
        if found is not None:
            return found

    if src is None or text is None:
        return Refusal(
            "the failure names no readable file in the workspace",
            details=notes,
        )

    if name and src.endswith(".py") and valid("identifier", name):
        batch = compile_names.python_batch(ctx, src, text, name)
        if batch is not None:
            return batch

    stmt = import_statement(rec)
    if stmt and src.endswith(".rs"):  # rustc's import help before its similar-name one
        edit = suggest.rust_use_edit(src, text, stmt)
        if edit is not None:
            return plan_of(ctx, f"Add `{stmt}`", "rustc's import suggestion", [edit])

    if name and src.endswith(".cs") and valid("identifier", name):
        cs = compile_names.cs_using(ctx, src, text, name)
        if cs is not None:
            return cs

    if name and src.endswith(".java") and valid("identifier", name):
        java = compile_names.java_import(ctx, src, text, name)
        if java is None:
            java = compile_names.java_static_import(ctx, src, text, name)
        if java is not None:
            return java

    if name:
        p = _workspace_import(ctx, src, text, name, notes)
        if p is not None:
            return p
        if src.endswith(TS_EXTS):
            declared = compile_names.js_misspelt_declaration(ctx, src, text, name)
            if declared is not None:
                return declared
        sugg, why = suggestion(rec), "the tool's suggestion"
        if sugg and src.endswith(TS_EXTS):
            nearer = compile_names.nearer_than_tsc(
                text, rec.source_line, name, sugg, rec.source_column
            )
            if nearer:
                notes.append(f"tsc suggests '{sugg}'; '{nearer}', in scope, is nearer")
                sugg, why = nearer, "the nearest name in scope (nearer than tsc's)"
        if not sugg and src.endswith(".py") and _uncorrected_name_error(rec):
            # Python before 3.12 prints no "Did you mean" in a test runner's report
            sugg, why = py_names.near_miss(text, rec.source_line, name), "the nearest name in scope"
        if not sugg and src.endswith((".java", ".cs")) and name[:1].islower():
            # javac and C# compilers name no near name for a misspelt local
            near = typed_scope.near_misses(text, rec.source_line, name, rec.source_column)
            if len(near) > 1:
                notes.append(
                    f"several names in scope are as near to '{name}': {', '.join(near[:5])}"
                )
            sugg, why = (near[0] if len(near) == 1 else None), "the nearest name in scope"
        if not sugg and src.endswith(TS_EXTS):
            sugg, why = (
                compile_names.js_near_miss(text, rec.source_line, name, notes, rec.source_column),
                "the nearest name in scope",
            )
        if (
            sugg
            and src.endswith(".rs")
            and rust_help.unconfirmed_similar_name(_said(rec), text, name, sugg)
        ):
            return Refusal(
                f"rustc names '{sugg}' as similar to '{name}' (MaybeIncorrect), and no other "
                "name the file declares is as near; a hint, not an edit",
                suggestions=[f"{name} -> {sugg}"],
                details=notes,
            )
        if sugg and sugg != name and compile_names.names_another_thing(sugg, name):
            return Refusal(
                f"the tool suggests '{sugg}', which names another thing than '{name}' "
                "(another namespace); a hint, not an edit",
                suggestions=[sugg],
                details=notes,
            )
        if sugg and sugg != name:
            unit = column_unit(rec.hint.get("column_unit"))
            edit = suggest.replace_name(
                src, text, rec.source_line, rec.source_column, name, sugg, unit
            )
            if edit is not None:  # never `Shop::Shop::Price`
                before = text.splitlines()[edit.start_line][: edit.start_col]
                sugg = compile_names.unqualified_where_written(sugg, before)
                edit = replace(edit, new_text=sugg)
            if edit is not None:
                return plan_of(ctx, f"Change '{name}' to '{sugg}'", why, [edit])
            notes.append(f"could not place the suggestion '{sugg}' on line {rec.source_line}")

    header, why = include_header(rec), "the compiler's include hint"
    if not header and src.endswith(C_EXTS):
        header = c_headers.header_for(
            ctx.root, ctx.root / src, text, rec.source_line, rec.message or ""
        )
    if not header and src.endswith(C_EXTS) and name and valid("identifier", name):
        # a macro gcc names no header for (`'DBL_EPSILON' undeclared`)
        header, said = c_std.header_for(c_std.compiler_of(ctx.command), [name], text)
        notes += said
        why = f"the one system header defining {name} (the compiler's include folders)"
    if header and src.endswith(C_EXTS):
        edit = suggest.include_edit(src, text, header)
        if edit is not None:
            return plan_of(ctx, f"Add #include {header}", why, [edit])

    if module:
        found = _install(ctx, src, module)
        if found is not None:
            return found

    reason = "; ".join(notes) if notes else "no safe automatic fix for this compile error"
    return Refusal(reason)
