"""The recipe engine: atomic edits inside the workspace, crash containment, the
anti-loop rule, immediate escalation, recipe documents and overrides."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from faultlens.classifier import classify_text
from faultlens.recipes import (
    ApplyError,
    Plan,
    Refusal,
    TextEdit,
    UnsafeEdit,
    Workspace,
    apply_edits,
    attempt,
    availability,
    conflict_hunks,
    escalate,
    plan,
    recipe_doc,
    recover_interrupted,
    resolve_hunk,
)
from faultlens.recipes.docs import FRONT_MATTER_KEYS, SECTIONS, sections
from faultlens.recipes.edits import TMP_MARK, apply_to_text
from faultlens.recipes.planners import PLANNERS

TYPES = list(PLANNERS)


# -- edits ------------------------------------------------------------------------------------
def test_edits_use_lsp_positions_and_keep_line_endings():
    text = "a\r\nbc\nd"
    out = apply_to_text(
        text,
        [
            TextEdit("f", 1, 1, 1, 2, "X"),  # c -> X
            TextEdit("f", 0, 0, 0, 0, ">"),
            TextEdit("f", 2, 1, 2, 1, "!"),
        ],
    )
    assert out == ">a\r\nbX\nd!"


def test_overlapping_edits_are_refused():
    with pytest.raises(ApplyError):
        apply_to_text("abcdef", [TextEdit("f", 0, 0, 0, 3, "x"), TextEdit("f", 0, 2, 0, 4, "y")])


def test_edits_to_several_files_are_all_or_none(tmp_path):
    (tmp_path / "a.txt").write_text("one\n")
    (tmp_path / "b.txt").write_text("two\n")
    ws = Workspace.at(tmp_path)
    with pytest.raises(ApplyError):
        apply_edits(
            [
                TextEdit("a.txt", 0, 0, 0, 3, "ONE"),
                TextEdit("b.txt", 9, 0, 9, 0, "past the end"),
            ],
            ws,
        )
    assert (tmp_path / "a.txt").read_text() == "one\n"
    apply_edits([TextEdit("a.txt", 0, 0, 0, 3, "ONE"), TextEdit("b.txt", 0, 0, 0, 3, "TWO")], ws)
    assert (tmp_path / "a.txt").read_text() == "ONE\n"
    assert (tmp_path / "b.txt").read_text() == "TWO\n"
    assert not [p for p in tmp_path.iterdir() if TMP_MARK in p.name]


@pytest.mark.parametrize(
    "path", ["../outside.txt", "/etc/passwd", "sub/../../x", ".git/config", ""]
)
def test_paths_outside_the_workspace_are_refused(tmp_path, path):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "ok.txt").write_text("ok\n")
    with pytest.raises(UnsafeEdit):
        apply_edits(
            [TextEdit("ok.txt", 0, 0, 0, 0, "x"), TextEdit(path, 0, 0, 0, 0, "pwned")],
            Workspace.at(proj),
        )
    assert (proj / "ok.txt").read_text() == "ok\n"
    assert not (tmp_path / "outside.txt").exists()


def test_a_symlink_that_leads_out_is_refused(tmp_path):
    proj, outside = tmp_path / "proj", tmp_path / "outside"
    proj.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("keep\n")
    (proj / "link").symlink_to(outside, target_is_directory=True)
    (proj / "file-link.txt").symlink_to(outside / "secret.txt")
    ws = Workspace.at(proj)
    for path in ("link/secret.txt", "file-link.txt"):
        with pytest.raises(UnsafeEdit):
            apply_edits([TextEdit(path, 0, 0, 0, 0, "pwned")], ws)
    assert (outside / "secret.txt").read_text() == "keep\n"


def test_a_new_file_may_be_created_by_an_insertion_at_the_start(tmp_path):
    ws = Workspace.at(tmp_path)
    apply_edits([TextEdit(".gitleaksignore", 0, 0, 0, 0, "abc:rule:3\n")], ws)
    assert (tmp_path / ".gitleaksignore").read_text() == "abc:rule:3\n"


_APPLIER = """
import sys
from pathlib import Path
from faultlens.recipes import TextEdit, Workspace, apply_edits
root = Path(sys.argv[1])
ws = Workspace.at(root)
n = 0
print("ready", flush=True)
while True:
    n += 1
    mark = "B" if n % 2 else "A"
    text = (root / "one.txt").read_text()
    lines = text.count("\\n")
    edits = [TextEdit(name, 0, 0, lines, 0, mark * 300_000 + "\\n" + (mark + "\\n") * (lines - 1))
             for name in ("one.txt", "two.txt")]
    apply_edits(edits, ws)
"""


def _consistent(root: Path) -> str:
    one = (root / "one.txt").read_text()
    two = (root / "two.txt").read_text()
    assert one == two, "the two files were left from different applies"
    marks = set(one.replace("\n", ""))
    assert len(marks) == 1, "a file is half-written"
    return marks.pop()


def _kill_inside_an_apply(proc: subprocess.Popen[str], journal_dir: Path, delay: float) -> None:
    """SIGKILL `proc` once an apply of its has journalled (polled, so the kill
    lands inside one however fast the machine is), or after `delay` seconds
    when it never shows: a kill at a random moment is proved safe as well."""
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline:
        if journal_dir.is_dir() and any(journal_dir.glob("*.json")):
            break
        time.sleep(0.0005)
    assert proc.poll() is None, f"the applier died by itself: {proc.communicate()}"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.mark.slow
def test_kill_9_during_apply_leaves_no_half_written_or_half_applied_change(tmp_path):
    body = "A" * 300_000 + "\n" + "A\n" * 2000
    (tmp_path / "one.txt").write_text(body)
    (tmp_path / "two.txt").write_text(body)
    journal_dir = tmp_path / ".faultlens" / "journal"
    seen = set()
    rolled_back = 0
    # Half the kills wait for a journal to appear (inside an apply), half come
    # at a fixed moment, wherever the applier is then.
    delays = [0.15, 0.3, 0.45, 0.7, 0.21, 0.37, 0.52, 0.11, 0.63, 0.29]
    for kills, delay in enumerate(delays, 1):
        proc = subprocess.Popen(
            [sys.executable, "-c", _APPLIER, str(tmp_path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        if kills % 2:
            _kill_inside_an_apply(proc, journal_dir, 10.0 + delay)
        else:
            time.sleep(delay)
            _kill_inside_an_apply(proc, journal_dir, 0.0)
        rolled_back += recover_interrupted(Workspace.at(tmp_path))
        seen.add(_consistent(tmp_path))
        leftovers = [p.name for p in tmp_path.iterdir() if TMP_MARK in p.name]
        assert not leftovers
        assert not list(journal_dir.glob("*.json"))
    assert seen <= {"A", "B"}
    # Some kills landed inside an apply (its journal was found and rolled back).
    assert rolled_back >= 1


# -- the engine ---------------------------------------------------------------------------------
TSC = "src/app.ts(2,13): error TS2304: Cannot find name 'Thing'.\n"


def _tsc_record(tmp_path: Path, task: str = "TASK-1"):
    (tmp_path / "src").mkdir(exist_ok=True)
    (tmp_path / "src" / "app.ts").write_text("// app\nconst x: Thing = {};\n")
    (tmp_path / "src" / "thing.ts").write_text("export interface Thing {}\n")
    (rec,) = classify_text(TSC)
    rec.task = task
    return rec


def test_a_crashing_recipe_becomes_an_escalated_outcome(tmp_path, monkeypatch):
    from faultlens.recipes.planners import compile as compile_planner

    def boom(ctx):
        raise RuntimeError("planner exploded")

    monkeypatch.setattr(compile_planner, "plan", boom)
    rec = _tsc_record(tmp_path)
    out = attempt(rec, Workspace.at(tmp_path))
    assert out.result == "escalated"
    assert "planner exploded" in out.reason
    assert out.box and "ERROR: Compile" in out.box
    assert out.record.recovery_attempted is True
    assert out.record.recovery_result == "escalated"


def test_one_failure_crashing_does_not_stop_the_others(tmp_path, monkeypatch):
    from faultlens.recipes import single_attempt

    ws = Workspace.at(tmp_path)
    rec = _tsc_record(tmp_path)
    (other,) = classify_text("src/app.ts(2,13): error TS2304: Cannot find name 'Other'.\n")
    real_plan = single_attempt.plan
    monkeypatch.setattr(
        single_attempt,
        "plan",
        lambda r, w, **kw: (
            (_ for _ in ()).throw(OSError("disk on fire"))
            if "Other" in r.signal
            else real_plan(r, w, **kw)
        ),
    )
    first = attempt(other, ws)
    second = attempt(rec, ws)
    assert first.result == "escalated"
    assert "disk on fire" in first.reason
    assert second.result == "applied"  # planned and applied; no command: not verified
    assert "import { Thing } from './thing';" in (tmp_path / "src/app.ts").read_text()


def test_the_same_recipe_is_never_tried_twice_for_a_failure(tmp_path, monkeypatch):
    from faultlens.recipes.planners import compile as compile_planner

    calls = []
    real = compile_planner.plan
    monkeypatch.setattr(compile_planner, "plan", lambda ctx: calls.append(1) or real(ctx))
    ws = Workspace.at(tmp_path)
    rec = _tsc_record(tmp_path)
    still_failing = [sys.executable, "-c", f"print({TSC!r}); raise SystemExit(2)"]
    first = attempt(rec, ws, command=still_failing)  # verification still sees it
    assert first.result == "escalated"
    assert len(calls) == 1
    avail = availability(rec, ws)
    assert (avail.offered, avail.enabled, avail.attempts) == (True, False, 1)
    assert avail.reason and avail.reason.startswith("Recipe already tried for this failure")
    second = attempt(rec, ws, command=still_failing)
    assert len(calls) == 1  # not planned again
    # Asked again: the settled state, with the first attempt's box (no new one).
    assert second.result == "escalated"
    assert second.reason.startswith("already escalated") and "anti-loop" in second.reason
    assert second.box == first.box
    # Another task is a fresh start.
    rec.task = "TASK-2"
    assert availability(rec, ws).enabled is True


def test_trust_gate_is_never_automatic_and_escalates_at_once(tmp_path):
    from faultlens.classifier.record import FailureRecord

    rec = FailureRecord(
        failure_type="trust_gate",
        severity="blocking",
        signal="secret detected: aws-access-token REDACTED",
        source_file="config.py",
        source_line=3,
        auto_recoverable=False,
        recipe="recipes/trust_gate.md",
        id="tg1",
        tool="gitleaks",
    )
    ws = Workspace.at(tmp_path)
    assert availability(rec, ws).offered is False
    assert isinstance(plan(rec, ws), Refusal)
    out = attempt(rec, ws)
    assert out.result == "escalated"
    assert out.tried.startswith("nothing")
    assert "ERROR: Trust gate" in (out.box or "")
    direct = escalate(rec, ws, "nothing", "needs review")
    assert direct.result == "escalated"


def test_a_plan_outside_the_workspace_fails_without_touching_anything(tmp_path, monkeypatch):
    from faultlens.recipes.planners import compile as compile_planner

    victim = tmp_path.parent / f"{tmp_path.name}-victim.txt"
    victim.write_text("intact\n")
    monkeypatch.setattr(
        compile_planner,
        "plan",
        lambda ctx: Plan(
            ctx.record.id,
            "compile",
            "evil",
            "",
            edits=[TextEdit(f"../{victim.name}", 0, 0, 1, 0, "x\n")],
        ),
    )
    rec = _tsc_record(tmp_path)
    out = attempt(rec, Workspace.at(tmp_path))
    assert out.result == "escalated"
    assert "could not be applied" in out.reason
    assert victim.read_text() == "intact\n"


# -- recipe documents --------------------------------------------------------------------------------
@pytest.mark.parametrize("failure_type", TYPES)
def test_every_recipe_document_has_front_matter_and_the_fixed_sections(failure_type):
    doc = recipe_doc(failure_type)
    for key in FRONT_MATTER_KEYS:
        assert key in doc.front_matter, key
    assert doc.front_matter["failure_type"] == failure_type
    assert isinstance(doc.front_matter["steps"], list) and doc.front_matter["steps"]
    assert {"mode", "timeout"} <= set(doc.front_matter["verify"])
    assert {"attempts", "backoff"} <= set(doc.front_matter["retry"])
    assert sections(doc.body_markdown) == list(SECTIONS)
    assert doc.summary


def test_a_project_override_wins(tmp_path):
    override = tmp_path / ".faultlens" / "recipes"
    override.mkdir(parents=True)
    (override / "compile.md").write_text(
        "+++\nautomatic = false\n+++\n# Our compile policy\n\nAsk Dana first.\n\n## Safety\nNone.\n"
    )
    ws = Workspace.at(tmp_path)
    doc = recipe_doc("compile", ws)
    assert doc.overridden
    assert doc.title == "Our compile policy"
    assert doc.summary == "Ask Dana first."
    assert doc.front_matter["automatic"] is False
    assert doc.front_matter["verify"]["mode"] == "rerun"  # merged from the shipped one
    rec = _tsc_record(tmp_path)
    p = plan(rec, ws)
    assert isinstance(p, Plan) and p.automatic is False
    out = attempt(rec, ws)
    assert out.result == "escalated"
    assert "not automatic" in out.reason
    assert "import" not in (tmp_path / "src/app.ts").read_text()


# -- conflict hunks ----------------------------------------------------------------------------------
CONFLICT = "top\n<<<<<<< HEAD\nours 1\nours 2\n=======\ntheirs\n>>>>>>> feature\nbottom\n"


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        ("current", "top\nours 1\nours 2\nbottom\n"),
        ("incoming", "top\ntheirs\nbottom\n"),
        ("both", "top\nours 1\nours 2\ntheirs\nbottom\n"),
    ],
)
def test_conflict_hunks_resolve_to_current_incoming_or_both(choice, expected):
    (hunk,) = conflict_hunks("f.txt", CONFLICT)
    assert (hunk.start_line, hunk.mid_line, hunk.end_line) == (1, 4, 6)
    assert apply_to_text(CONFLICT, [resolve_hunk(hunk, choice)]) == expected


def test_diff3_conflicts_keep_the_base_out_of_current():
    text = "<<<<<<< HEAD\na\n||||||| base\no\n=======\nb\n>>>>>>> x\n"
    (hunk,) = conflict_hunks("f", text)
    assert hunk.ours == "a\n" and hunk.theirs == "b\n" and hunk.base_line == 2


# -- verification with retries (what the infra planner builds on) -------------------------------------
def test_verification_retries_with_injected_backoff_until_the_failure_is_gone(tmp_path):
    from faultlens.recipes import CommandStep, RecipeSettings
    from faultlens.recipes.verify import verify

    slept: list[float] = []
    ws = Workspace.at(tmp_path, settings=RecipeSettings(sleep=slept.append))
    counter = tmp_path / "count"
    script = (
        "from pathlib import Path\n"
        f"p = Path({str(counter)!r})\n"
        "n = int(p.read_text()) + 1 if p.exists() else 1\n"
        "p.write_text(str(n))\n"
        "if n < 3:\n"
        "    print('curl: (7) Failed to connect to example.invalid port 443: Connection refused')\n"
        "    raise SystemExit(7)\n"
    )
    step = CommandStep([sys.executable, "-c", script])
    p = Plan(
        "x", "infra", "retry", "", verify=step, verify_by="exit", retries=3, backoff=(1.0, 2.0, 4.0)
    )
    rec = _tsc_record(tmp_path)
    result, verified = verify(p, ws, rec)
    assert result.ok and verified
    assert slept == [1.0, 2.0, 4.0][:3]
    assert counter.read_text() == "3"
    assert "after 3 retries" in result.reason  # each run after a pause retries the command


def test_mark_reviewed_writes_the_tools_own_allow_list_entry(tmp_path):
    from faultlens.classifier.record import FailureRecord
    from faultlens.recipes import mark_reviewed

    (tmp_path / "app.py").write_text("password = 'hunter2'\nx = 1\n")

    def finding(tool, code=None, hint=None):
        return FailureRecord(
            failure_type="trust_gate",
            severity="blocking",
            signal="finding",
            source_file="app.py",
            source_line=1,
            auto_recoverable=False,
            recipe="recipes/trust_gate.md",
            id="t",
            tool=tool,
            code=code,
            hint=hint or {},
        )

    ws = Workspace.at(tmp_path)
    edit = mark_reviewed(finding("bandit", "B105"), ws)
    assert isinstance(edit, TextEdit)
    apply_edits([edit], ws)
    assert (tmp_path / "app.py").read_text().splitlines()[0] == "password = 'hunter2'  # nosec B105"
    edit = mark_reviewed(finding("gitleaks", hint={"fingerprint": "app.py:generic-api-key:1"}), ws)
    apply_edits([edit], ws)
    assert (tmp_path / ".gitleaksignore").read_text() == "app.py:generic-api-key:1\n"
    with pytest.raises(UnsafeEdit):
        mark_reviewed(finding("gitleaks", hint={"fingerprint": "x\n../../etc"}), ws)
