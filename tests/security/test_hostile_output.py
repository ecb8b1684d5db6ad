"""Hostile output: what a dependency's build script, a test's message or a
branch name can print must never become a shell command, an option, an
unvalidated argv element or an edit outside the workspace.

* No module of faultlens can run a shell (checked on the source: no
  `shell=True`, `os.system`, `os.popen`, `create_subprocess_shell`, ...).
* Records from the real sample corpus of every failure type, with each of
  their string fields from the output (hint values, source file, code)
  replaced by hostile values: shell metacharacters, `$(...)`, backticks,
  `;`, option injection (`--upload-pack=...`, a leading `-`), `..`, an
  absolute path and a symlink out of the workspace.  Every plan is checked:
  no command step, environment or working folder carries the hostile value,
  every edit resolves inside the workspace roots, nothing ran a shell
  (subprocess is watched), and the canary file the payloads would create
  never appears.
* The command runner passes metacharacters through as literal argv.
* Edits through `..`, absolute paths, symlinked files and folders, and
  `.git/` are refused before any file is touched.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from faultlens.classifier.engine import Options
from faultlens.classifier.record import FailureRecord
from faultlens.classifier.structured import classify_path
from faultlens.recipes import (
    CommandStep,
    Plan,
    RecipeSettings,
    TextEdit,
    UnsafeEdit,
    Workspace,
    apply_edits,
    plan,
)
from faultlens.recipes.safety import inside_workspace

from .conftest import ROOT, SAMPLES

PACKAGES = ["cli", "classifier", "recipes", "server"]
PER_TYPE = 5  # sample records per failure type
MARK = "PWNED" + secrets.token_hex(4)


def _payloads(canary: Path) -> list[str]:
    c = str(canary)
    return [
        f"$(touch {c})",
        f"`touch {c}`",
        f"x; touch {c}",
        f"x && touch {c} #",
        f"x|touch {c}",
        f"--upload-pack=touch {c}",
        f"-oProxyCommand=touch {c}",
        f"-{MARK}",
        f"x\ntouch {c}",
        f"../../../../tmp/{canary.name}",
        f"{MARK}' ; touch {c} ; echo '",
    ]


# -- no shell anywhere in the source --------------------------------------------------
_SHELL_CALLS = {
    ("os", "system"),
    ("os", "popen"),
    ("subprocess", "getoutput"),
    ("subprocess", "getstatusoutput"),
    ("asyncio", "create_subprocess_shell"),
}


def _shell_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for kw in node.keywords:
            if kw.arg == "shell" and not (
                isinstance(kw.value, ast.Constant) and kw.value.value is False
            ):
                found.append(f"{path}:{node.lineno}: shell={ast.unparse(kw.value)}")
        f = node.func
        if (
            isinstance(f, ast.Attribute)
            and isinstance(f.value, ast.Name)
            and (f.value.id, f.attr) in _SHELL_CALLS
        ):
            found.append(f"{path}:{node.lineno}: {f.value.id}.{f.attr}")
        if isinstance(f, ast.Attribute) and f.attr in ("create_subprocess_shell", "getoutput"):
            found.append(f"{path}:{node.lineno}: {ast.unparse(f)}")
    return found


def test_no_module_of_faultlens_can_run_a_shell():
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    assert len(files) > 50
    uses = [u for p in files for u in _shell_uses(p)]
    assert uses == []


# -- watching subprocess ----------------------------------------------------------------
@dataclass
class Spawned:
    calls: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)


@pytest.fixture
def spawned(monkeypatch: pytest.MonkeyPatch) -> Iterator[Spawned]:
    """Every process started through subprocess (and asyncio, which uses it),
    with its arguments; os.system / os.popen fail the test outright."""
    seen = Spawned()
    real = subprocess.Popen

    class Watched(real):  # type: ignore[misc,valid-type]
        def __init__(self, args: Any, *a: Any, **kw: Any) -> None:
            seen.calls.append((args, dict(kw)))
            super().__init__(args, *a, **kw)

    def no_shell(*a: Any, **kw: Any) -> Any:
        raise AssertionError(f"a shell was asked for: {a!r}")

    monkeypatch.setattr(subprocess, "Popen", Watched)
    monkeypatch.setattr(os, "system", no_shell)
    monkeypatch.setattr(os, "popen", no_shell)
    yield seen
    for args, kw in seen.calls:
        assert not kw.get("shell"), f"shell=True for {args!r}"
        assert isinstance(args, (list, tuple)), f"a command line string: {args!r}"
        assert kw.get("executable") is None or "sh" not in Path(str(kw["executable"])).name
        for a in args:
            assert MARK not in str(a), f"hostile value in argv: {args!r}"


# -- records from the sample corpus, made hostile -----------------------------------------
def _corpus_records(tmp: Path) -> list[tuple[Path, FailureRecord]]:
    """Up to PER_TYPE records (distinct rules) of every failure type, each
    classified from a copy of its sample folder (the broken project)."""
    by_type: dict[str, list[tuple[Path, FailureRecord]]] = {}
    rules_seen: set[str] = set()
    for exp in sorted(SAMPLES.glob("*/*/expected.json")):
        d = exp.parent
        outs = sorted(p for p in d.iterdir() if p.is_file() and p.name.startswith("output."))
        if not outs:
            continue
        for rec in classify_path(outs[0], Options(cwd=str(d), exit_code=1)):
            ft = rec.failure_type.value
            if rec.rule in rules_seen or len(by_type.get(ft, [])) >= PER_TYPE:
                continue
            rules_seen.add(rec.rule)
            work = tmp / "ws" / d.parent.name / d.name
            if not work.exists():
                shutil.copytree(d, work, symlinks=True)
            by_type.setdefault(ft, []).append((work, rec))
    return [x for recs in by_type.values() for x in recs]


def _hostile_variants(rec: FailureRecord, payloads: list[str]) -> Iterator[FailureRecord]:
    for key, value in rec.hint.items():
        if isinstance(value, str):
            for p in payloads:
                yield dataclasses.replace(copy.deepcopy(rec), hint={**rec.hint, key: p})
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            for p in payloads[:4]:
                hint = {**rec.hint, key: [p, *value[1:]]}
                yield dataclasses.replace(copy.deepcopy(rec), hint=hint)
    for p in payloads:
        yield dataclasses.replace(rec, source_file=p)
        yield dataclasses.replace(rec, code=p)
    yield dataclasses.replace(rec, source_file="link_out/x.py")
    yield dataclasses.replace(rec, source_file="/etc/passwd")


def _check_plan(p: Plan, ws: Workspace) -> None:
    steps: list[CommandStep] = [*p.commands, *([p.verify] if p.verify else [])]
    for step in steps:
        assert isinstance(step.argv, list) and all(isinstance(a, str) for a in step.argv)
        for a in [*step.argv, step.cwd, *step.env.values()]:
            assert MARK not in a, f"hostile value reached a command: {step.argv!r}"
        if step.cwd not in (".", ""):
            inside_workspace(ws, step.cwd)
        assert "sh" not in Path(step.argv[0]).name or step.argv[0].endswith(".sh") is False
    for e in p.edits:
        target = inside_workspace(ws, e.path)  # raises when outside
        assert os.path.realpath(target).startswith(str(ws.root))
        assert MARK not in e.path


def test_hostile_values_in_records_never_reach_a_command_or_leave_the_workspace(
    tmp_path, spawned, monkeypatch
):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.py").write_text("SAFE = 1\n")
    canary = tmp_path / f"{MARK}-canary"
    payloads = _payloads(canary)
    records = _corpus_records(tmp_path)
    types = {r.failure_type.value for _, r in records}
    assert len(types) == 8, types
    planned = refused = 0
    for work, rec in records:
        link = work / "link_out"
        if not link.exists():
            link.symlink_to(outside, target_is_directory=True)
        ws = Workspace(
            roots=[work],
            state_dir=tmp_path / "state",
            settings=RecipeSettings(sleep=lambda s: None),
        )
        for variant in _hostile_variants(rec, payloads):
            result = plan(variant, ws, command=None, cwd=".")
            if isinstance(result, Plan):
                planned += 1
                _check_plan(result, ws)
            else:
                refused += 1
    assert not canary.exists()
    assert (outside / "x.py").read_text() == "SAFE = 1\n"
    assert planned + refused > 500
    assert refused > 0
    print(f"hostile variants: {planned} planned, {refused} refused, {len(spawned.calls)} processes")


def test_a_command_printed_in_the_output_never_becomes_the_command_a_verify_runs(tmp_path):
    """A Docker build prints the failed step's shell line (an MCP host log, a
    server's command).  It goes under its own hint key: hint["command"] stays
    the run's own command line, the one `recover` re-runs to verify a fix."""
    work = tmp_path / "proj"
    work.mkdir()
    (work / ".git").mkdir()
    canary = tmp_path / f"{MARK}-step"
    output = (SAMPLES / "infra" / "docker-build-step-failed" / "output.txt").read_text()
    output = output.replace("npm ci --omit=dev", f"touch {canary}")
    (work / "out.txt").write_text(output)
    argv = [
        sys.executable,
        "-c",
        "import sys; sys.stdout.write(open('out.txt').read()); sys.exit(1)",
    ]
    state = tmp_path / "state"
    run = [sys.executable, "-m", "faultlens.cli", "run", "--recover", "--state-dir", str(state)]
    done = subprocess.run(
        [*run, "--", *argv],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    events = [json.loads(x) for x in (state / "events.jsonl").read_text().splitlines()]
    records = [e["record"] for e in events if e["event"] == "failure.classified"]
    assert [r["rule"] for r in records] == ["infra.docker_build"]
    assert records[0]["hint"]["command"] == argv
    assert records[0]["hint"]["step_command"] == f"/bin/sh -c touch {canary}"
    assert not canary.exists()


# -- the runner: metacharacters are literal argv ------------------------------------------
def test_the_command_runner_passes_metacharacters_through_as_literal_arguments(tmp_path, spawned):
    from faultlens.recipes.runner import run_step

    canary = tmp_path / f"{MARK}-canary"
    payloads = _payloads(canary)
    script = "import sys; print('\\x00'.join(sys.argv[1:]))"
    step = CommandStep(argv=[sys.executable, "-c", script, *payloads], cwd=".")
    ws = Workspace.at(tmp_path)
    chunks: list[bytes] = []
    try:
        res = run_step(step, ws, echo=chunks.append)
    finally:
        spawned.calls.clear()  # this argv carries the marker on purpose
    assert res.exit_code == 0
    assert not canary.exists()
    # what the child saw is exactly what was passed (no expansion, no splitting)
    printed = b"".join(chunks).decode()
    assert printed.rstrip("\n").split("\x00") == payloads


# -- edits out of the workspace ---------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        "../outside/x.py",
        "sub/../../outside/x.py",
        "/tmp/x.py",
        "link_out/x.py",
        "file_link.py",
        ".git/config",
        ".git/hooks/pre-commit",
        "a\x00b.py",
        "C:/x.py",
        "..\\outside\\x.py",
        "",
        ".",
    ],
)
def test_an_edit_outside_the_workspace_is_refused_and_nothing_is_touched(tmp_path, path):
    root = tmp_path / "ws"
    outside = tmp_path / "outside"
    for d in (root / "sub", root / ".git" / "hooks", outside):
        d.mkdir(parents=True)
    (outside / "x.py").write_text("SAFE = 1\n")
    (root / ".git" / "config").write_text("[core]\n")
    (root / "link_out").symlink_to(outside, target_is_directory=True)
    (root / "file_link.py").symlink_to(outside / "x.py")
    (root / "ok.py").write_text("A = 1\n")
    ws = Workspace.at(root)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and not p.is_symlink()}
    edits = [
        TextEdit("ok.py", 0, 0, 0, 0, "# first\n"),  # a good edit in the same change
        TextEdit(path, 0, 0, 0, 0, f"import os  # {MARK}\n"),
    ]
    with pytest.raises(UnsafeEdit):
        apply_edits(edits, ws)
    after = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and not p.is_symlink()}
    assert after == before
    assert not (Path("/tmp") / "x.py").exists() or MARK not in (Path("/tmp") / "x.py").read_text()


def test_an_edit_in_a_second_root_is_allowed_but_not_beyond_it(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (b / "y.py").write_text("B = 1\n")
    (a / "to_b").symlink_to(b, target_is_directory=True)
    (a / "to_tmp").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / "z.py").write_text("Z = 1\n")
    ws = Workspace(roots=[a, b])
    # through a link into the second root: inside the workspace, so allowed
    apply_edits([TextEdit("to_b/y.py", 0, 0, 0, 0, "# x\n")], ws)
    assert (b / "y.py").read_text() == "# x\nB = 1\n"
    # through a link to their common parent: outside every root
    with pytest.raises(UnsafeEdit):
        apply_edits([TextEdit("to_tmp/z.py", 0, 0, 0, 0, "# x\n")], ws)
    assert (tmp_path / "z.py").read_text() == "Z = 1\n"
    with pytest.raises(UnsafeEdit):
        apply_edits([TextEdit("../c/z.py", 0, 0, 0, 0, "# x\n")], ws)
    assert not (tmp_path / "c").exists()
