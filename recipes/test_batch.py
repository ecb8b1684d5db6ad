"""The test recipe's one attempt: every failing test of a run re-run once, in one
command per runner (with the tests' files, so the runner does not collect the
whole suite), before anything was changed, to tell flaky from real.

A test is flaky only when the runner itself says it passed (recipes/rerun_proof.py);
a re-run that ran nothing proves nothing, and the failure stays real.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from faultlens.classifier.files import read_text, text_or_none
from faultlens.classifier.redact import shown_command

from .fixes.test_runners import Refused, Selection, SingleTest, runner_name, script_invocation
from .fixes.test_runners import select as select_commands
from .model import CommandStep, UnsafeEdit, Workspace
from .rerun_proof import RerunResult, judge_rerun
from .runner import Sink, run_step
from .safety import inside_workspace

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

OUTPUT_CAP = 8 << 20  # what one re-run may print that is kept for the verdict


@dataclass(slots=True)
class RerunFinding:
    """What the re-run showed for one failure (one record, maybe a group)."""

    record_id: str
    verdict: str  # flaky | real | not_run | refused
    reason: str
    tests: list[str] = field(default_factory=list)
    command: str = ""


def tests_of(record: FailureRecord, runner: str | None, cwd: Path, root: Path) -> list[SingleTest]:
    """The tests a record names: its own (hint) and its group's (related)."""
    hint = record.hint
    name = runner_name(str(hint.get("runner") or "")) or runner_name(record.tool) or runner
    if name is None:
        return []
    path = hint.get("test_path")
    file = hint.get("test_file")
    package = hint.get("package")
    pkg_dir = go_package_dir(str(package), cwd, root) if name == "go" and package else None
    target = hint.get("target")
    if name == "cargo" and isinstance(target, str) and target:
        pkg_dir = target  # the test binary: `--lib`, `--doc`, `--test NAME`
    out: list[SingleTest] = []
    tid = hint.get("test_id") or hint.get("test_name")
    if isinstance(tid, str) and tid:
        out.append(
            SingleTest(
                name,
                tid,
                package=pkg_dir,
                file=str(file) if isinstance(file, str) and file else None,
                path=tuple(str(p) for p in path) if isinstance(path, list) else (),
            )
        )
    # node:test 20 matches a test by its own name: the group's other tests' names
    # are their full names without the suites the record's own test is in.
    suites = " ".join(str(p) for p in path[:-1]) + " " if isinstance(path, list) and path else ""
    for loc in record.related:
        if loc.test and all(t.test_id != loc.test for t in out):
            js_file = loc.file if name in ("jest", "vitest", "mocha", "node") else None
            leaf: tuple[str, ...] = ()
            if name == "node" and suites.strip() and loc.test.startswith(suites):
                leaf = (*path[:-1], loc.test[len(suites) :])  # type: ignore[index]
            out.append(SingleTest(name, loc.test, package=pkg_dir, file=js_file, path=leaf))
    return out


def go_package_dir(package: str, cwd: Path, root: Path) -> str | None:
    """A Go package named by its import path as a directory (`./pkg`) of the
    module around cwd; None when it is not in that module."""
    if package.startswith("./") or package == ".":
        return package
    folder = cwd
    while True:
        mod = folder / "go.mod"
        if mod.is_file():
            m = re.search(r"^module\s+(\S+)", text_or_none(mod, 1 << 20) or "", re.M)
            if m is None:
                return None
            module = m.group(1).strip('"')
            if package == module:
                rel = "."
            elif package.startswith(module + "/"):
                rel = package[len(module) + 1 :]
            else:
                return None
            rel_dir = os.path.relpath(folder / rel, cwd).replace(os.sep, "/")
            return "." if rel_dir == "." else "./" + rel_dir
        if folder == root or folder.parent == folder:
            return None
        folder = folder.parent


def _inside(ws: Workspace, cwd: Path) -> object:
    def check(path: str) -> bool:
        p = Path(path)
        full = p if p.is_absolute() else cwd / p
        try:
            rel = os.path.relpath(os.path.normpath(full), ws.root)
            if rel == ".":
                return True
            inside_workspace(ws, rel.replace(os.sep, "/"))
        except (UnsafeEdit, ValueError):
            return False
        return True

    return check


def _script(cwd: Path, command: Sequence[str]) -> str | None:
    name = script_invocation(command)
    if name is None:
        return None
    import json

    try:
        data = json.loads(read_text(cwd / "package.json", 1 << 20))
    except (OSError, ValueError):
        return None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    value = scripts.get(name) if isinstance(scripts, dict) else None
    return value if isinstance(value, str) else None


def plan_reruns(
    records: Sequence[FailureRecord],
    ws: Workspace,
    command: Sequence[str],
    cwd_rel: str,
) -> tuple[list[Selection], dict[str, list[SingleTest]], dict[str, str]]:
    """(the commands to run, each record's tests, each unrunnable record's reason)."""
    from .fixes.test_runners import detect

    cwd = ws.root if cwd_rel in ("", ".") else inside_workspace(ws, cwd_rel)
    found = detect(command)
    default_runner = found[0].name if found else None
    script = _script(cwd, command)
    if default_runner is None and script is not None:
        import shlex

        try:
            inner = detect(shlex.split(script))
        except ValueError:
            inner = None
        default_runner = inner[0].name if inner else None
    per_record: dict[str, list[SingleTest]] = {}
    refused: dict[str, str] = {}
    for rec in records:
        tests = tests_of(rec, default_runner, cwd, ws.root)
        if not tests:
            refused[rec.id] = "the failing test could not be identified in the output"
            continue
        per_record[rec.id] = tests
    wanted = [t for ts in per_record.values() for t in ts]
    if not wanted:
        return [], per_record, refused
    inside = _inside(ws, cwd)
    try:
        selections = select_commands(wanted, command, inside, script=script)  # type: ignore[arg-type]
    except Refused as exc:
        for rid in per_record:
            refused[rid] = str(exc)
        return [], {}, refused
    return selections, per_record, refused


def run_reruns(
    selections: Sequence[Selection],
    ws: Workspace,
    cwd_rel: str,
    env: dict[str, str],
    timeout: float,
    echo: Sink | None,
) -> list[tuple[Selection, RerunResult]]:
    """Run each selection once; each test's result by the runner's own word."""
    from faultlens.classifier.structured import Recogniser

    from .observe import recogniser

    out = []
    for sel in selections:
        cwd = posixpath.normpath(posixpath.join(cwd_rel or ".", sel.cwd or "."))
        step = CommandStep(argv=list(sel.argv), cwd=cwd, env=dict(env), timeout=timeout)
        kept = bytearray()

        def keep(chunk: bytes, kept: bytearray = kept) -> None:
            if len(kept) < OUTPUT_CAP:
                kept.extend(chunk[: OUTPUT_CAP - len(kept)])

        classifier = recogniser(ws.root / (cwd if cwd != "." else ""), task=None, command=sel.argv)

        def feed(chunk: bytes, classifier: Recogniser = classifier) -> None:
            keep(chunk)
            classifier.feed(chunk)

        result = run_step(step, ws, on_data=feed, echo=echo)
        classifier.options.exit_code = result.exit_code
        records = classifier.close() if not result.error else []
        text = kept.decode("utf-8", "replace")
        judged = judge_rerun(sel.runner, sel.tests, text, result.exit_code, records)
        if result.error:
            judged.summary = f"could not start: {result.error}"
        elif result.timed_out:
            judged.summary = f"timed out after {timeout:g} s"
        out.append((sel, judged))
    return out


def alone(sel: Selection, tests: Sequence[SingleTest], command: Sequence[str]) -> str:
    """The command that runs only `tests` (what a human copies to reproduce one
    failure), built like `sel`; `sel`'s own command when it cannot be."""

    ids = {t.test_id for t in tests}
    if ids == {t.test_id for t in sel.tests}:
        return shown_command(sel.argv)
    try:
        (one,) = select_commands(list(tests), command, lambda _p: True)[:1]
    except (Refused, ValueError):
        return shown_command(sel.argv)
    return shown_command(one.argv)


def verdicts(
    records: Sequence[FailureRecord],
    per_record: dict[str, list[SingleTest]],
    refused: dict[str, str],
    runs: Sequence[tuple[Selection, RerunResult]],
    command: Sequence[str] = (),
) -> list[RerunFinding]:
    """One verdict per record: flaky when every one of its tests passed on the
    re-run, real when one failed again, not_run when the runner ran none."""
    results: dict[str, tuple[str, Selection, RerunResult]] = {}
    for sel, judged in runs:
        for tid, res in judged.results.items():
            results[tid] = (res, sel, judged)
    out = []
    for rec in records:
        if rec.id in refused:
            out.append(RerunFinding(rec.id, "refused", refused[rec.id]))
            continue
        tests = per_record.get(rec.id, [])
        names = [t.test_id for t in tests]
        got = [results.get(t.test_id) for t in tests]
        first = got[0] if got else None
        cmd = alone(first[1], tests, command) if first and command else ""
        states = [g[0] if g else "not_run" for g in got]
        summary = next((g[2].summary for g in got if g), "")
        if states and all(s == "passed" for s in states):
            n = len(names)
            what = names[0] if n == 1 else f"all {n} tests"
            out.append(
                RerunFinding(
                    rec.id, "flaky", f"{what} passed when re-run alone ({summary})", names, cmd
                )
            )
        elif any(s == "failed" for s in states):
            bad = [n for n, s in zip(names, states, strict=True) if s == "failed"]
            what = bad[0] if len(bad) == 1 else f"{len(bad)} of {len(names)} tests"
            if len(names) > 1 and command:  # to reproduce it, one failing test is enough
                i = states.index("failed")
                again = got[i]
                cmd = alone(again[1], tests[i : i + 1], command) if again else cmd
            out.append(
                RerunFinding(rec.id, "real", f"{what} failed again when re-run alone", names, cmd)
            )
        else:
            out.append(
                RerunFinding(
                    rec.id,
                    "not_run",
                    f"the re-run did not run the test ({summary or 'no summary'}): not a pass",
                    names,
                    cmd,
                )
            )
    return out
