"""The plugin_startup recipe's planner (see recipes/plugin_startup.md).

What is unambiguous is fixed:

* a manifest that is not valid JSON and has exactly one obvious repair (a
  trailing comma, a missing comma between members, brackets left open at the
  end: recipes/fixes/json_repair.py), applied as minimal edits, checked by
  re-parsing before it is proposed and verified by re-running the command;
* a missing plugin package: installed with the project's own package manager
  (npm/pnpm/yarn from the lock file, pip/uv/poetry/pipenv), the name
  validated; automatic when the project declares the package (the
  environment is merely out of sync), a proposal a human applies otherwise.

The rest (unknown hooks, plugins that do not exist, activation errors) is
escalated with what a human needs: the plugin, the manifest and where in it.
"""

from __future__ import annotations

import json

from ..context import PlanContext
from ..fixes import pytest_hooks
from ..fixes.json_repair import candidates
from ..fixes.packages import install_plan, package_for
from ..model import CommandStep, Plan, Refusal, VerifyResult
from ..safety import to_workspace_relative

ECOSYSTEMS = {"npm": "node", "node": "node", "pypi": "python", "python": "python"}


def _where(ctx: PlanContext, rel: str | None) -> str:
    rec = ctx.record
    if rel is None:
        return rec.source_file or "-"
    line = f":{rec.source_line}" if rec.source_line and ctx.source == rel else ""
    col = f":{rec.source_column}" if line and rec.source_column else ""
    return f"{rel}{line}{col}"


def _human_details(ctx: PlanContext, manifest: str | None) -> list[str]:
    hint = ctx.record.hint
    out: list[str] = []
    for key, label in (("plugin", "Plugin"), ("hook", "Hook"), ("kind", "Kind")):
        value = hint.get(key)
        if isinstance(value, str) and value:
            out.append(f"{label}: {value}")
    if manifest or ctx.record.source_file:
        out.append(f"Manifest: {_where(ctx, manifest)}")
    for key, label in (("json_error", "JSON error"), ("path", "Path")):
        value = hint.get(key)
        if isinstance(value, str) and value:
            out.append(f"{label}: {value}")
    return out


def _manifest(ctx: PlanContext) -> str | None:
    value = ctx.record.hint.get("manifest")
    rel = ctx.rel(value) if isinstance(value, str) else None
    return rel or ctx.source


def _json_plan(ctx: PlanContext, rel: str, text: str) -> Plan | Refusal:
    details = _human_details(ctx, rel)
    try:
        json.loads(text)
    except ValueError as exc:
        details.append(f"Parser: {exc}")
    else:
        return Refusal(f"{rel} is valid JSON now; re-run the command", details=details)
    found = candidates(text)
    if not found:
        return Refusal(f"{rel} is not valid JSON and has no single obvious repair", details=details)
    if len(found) > 1:
        kinds = ", ".join(r.kind for r in found)
        return Refusal(f"{rel} could be repaired in several ways ({kinds})", details=details)
    repair = found[0]
    for e in repair.edits:
        e.path = rel
    step = ctx.rerun_step()

    def reparse() -> VerifyResult:
        now = ctx.read(rel)
        try:
            json.loads(now or "")
        except ValueError as exc:
            return VerifyResult(False, f"{rel} still does not parse: {exc}")
        return VerifyResult(True, f"{rel} parses")

    return Plan(
        failure_id=ctx.record.id,
        failure_type="plugin_startup",
        title=f"Repair {rel}: {repair.description}",
        summary=f"{rel} is not valid JSON; {repair.description}",
        edits=repair.edits,
        verify=step,
        verify_by="id" if step is not None else "check",
        check=None if step is not None else reparse,
        success_note=f"{rel} repaired ({repair.kind})",
        details=details,
    )


def _install(ctx: PlanContext, manifest: str | None) -> Plan | Refusal:
    hint = ctx.record.hint
    dependency = hint.get("dependency")
    eco = ECOSYSTEMS.get(str(hint.get("ecosystem") or "").lower())
    details = _human_details(ctx, manifest)
    if not isinstance(dependency, str) or eco is None:
        return Refusal("the missing plugin's package is not known", details=details)
    package = package_for(eco, dependency)
    if package is None:
        return Refusal(f"refusing package name from the output: {dependency!r}", details=details)
    start = ctx.root / manifest if manifest else ctx.cwd_path
    inst = install_plan(eco, dependency, start, ctx.root, ctx.python(), ctx.command)
    if inst is None:
        hintcmd = f"npm install --save-dev {package}" if eco == "node" else f"pip install {package}"
        return Refusal(
            f"the plugin package '{package}' is missing and no package manifest was found",
            suggestions=[hintcmd],
            details=details,
        )
    cwd = to_workspace_relative(ctx.ws, inst.cwd) if inst.cwd != ctx.root else "."
    step = CommandStep(
        argv=inst.argv,
        cwd=cwd,
        env=dict(ctx.env),
        timeout=float(ctx.setting("install.timeout", 900)),
    )
    declared = f"declared in {inst.manifest}" if inst.declared else f"not in {inst.manifest}"
    details.append(f"Package manager: {inst.manager} ({inst.manifest}); {package} is {declared}")
    return Plan(
        failure_id=ctx.record.id,
        failure_type="plugin_startup",
        title=f"Install {package} ({step.display()})",
        summary=f"the plugin package {package} is missing ({declared})",
        commands=[step],
        verify=ctx.rerun_step(),
        verify_by="id",
        # A package the project does not declare is only proposed: a name read
        # from output is never installed on its own say-so.
        automatic=inst.declared,
        success_note=f"{package} installed",
        details=details,
    )


def _hook_rename(ctx: PlanContext) -> Plan | Refusal | None:
    """pluggy's unknown hook in a conftest/plugin: renamed to the one close pytest hook."""
    rec = ctx.record
    hook = rec.hint.get("hook")
    src = ctx.source
    text = ctx.read(src) if src else None
    if not isinstance(hook, str) or src is None or text is None or not src.endswith(".py"):
        return None
    args = pytest_hooks.defined_args(text, hook)
    if args is None:
        return None
    hooks = pytest_hooks.known_hooks(ctx.python())
    if not hooks:
        return None
    target, close = pytest_hooks.close_hook(hook, hooks, args)
    details = _human_details(ctx, src)
    if target is None:
        why = (
            f"several known hooks are close to {hook}: {', '.join(close)}"
            if len(close) > 1
            else f"no known pytest hook both close to {hook} and taking ({', '.join(args)})"
        )
        return Refusal(why, details=details)
    if pytest_hooks.defined_args(text, target) is not None:
        return Refusal(f"{src} already defines {target}", details=details)
    edit = pytest_hooks.rename_edit(src, text, rec.source_line, hook, target)
    if edit is None:
        return None
    return Plan(
        failure_id=rec.id,
        failure_type="plugin_startup",
        title=f"Rename {hook} to {target}",
        summary=f"{hook} is not a pytest hook; {target} is the one close hook its arguments fit",
        edits=[edit],
        verify=ctx.rerun_step(),
        success_note=f"misspelt hook renamed to {target}",
        details=details,
    )


def plan(ctx: PlanContext) -> Plan | Refusal:
    hint = ctx.record.hint
    manifest = _manifest(ctx)
    if hint.get("dependency"):
        return _install(ctx, manifest)
    if manifest and (hint.get("json_error") or manifest.endswith(".json")):
        text = ctx.read(manifest)
        if text is not None:
            return _json_plan(ctx, manifest, text)
    kind = str(hint.get("kind") or "")
    if kind == "unknown_hook":
        found = _hook_rename(ctx)
        if found is not None:
            return found
    reason = {
        "unknown_hook": "the plugin defines a hook the host does not know",
        "not_found": "the plugin is not installed or not where the host looks",
        "hook_load": "a hook failed to load",
        "activation": "the extension failed to activate",
    }.get(kind, "no unambiguous repair for this plugin failure")
    return Refusal(reason, details=_human_details(ctx, manifest))
