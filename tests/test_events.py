"""The lifecycle log (events.jsonl, the seed's text logs) and the boxed display."""

from __future__ import annotations

import json
import multiprocessing as mp
from datetime import UTC, datetime
from pathlib import Path

import pytest

from faultlens.classifier import classify_text
from faultlens.recipes import EVENTS, EventLog, Option, RecipeSettings, Workspace
from faultlens.recipes.box import BoxContent, box_lines_aligned, display_width, render_box

FIXED = datetime(2026, 1, 20, 10, 25, 0, tzinfo=UTC)
TSC = "src/auth/middleware.ts(42,15): error TS2304: Cannot find name 'UserProfile'.\n"


def _ws(tmp_path: Path, **kw) -> Workspace:
    return Workspace.at(
        tmp_path, settings=RecipeSettings(clock=lambda: FIXED, worker="worker-2", **kw)
    )


def _record(task="TASK-007"):
    (rec,) = classify_text(TSC)
    rec.task = task
    return rec


def test_every_event_is_one_json_line_carrying_the_record(tmp_path):
    log = EventLog(_ws(tmp_path))
    rec = _record()
    for name in EVENTS:
        log.emit(name, rec, tried="x", reason="y")
    lines = (tmp_path / ".faultlens" / "events.jsonl").read_text().splitlines()
    assert [json.loads(ln)["event"] for ln in lines] == list(EVENTS)
    first = json.loads(lines[0])
    assert first["record"] == rec.to_json()
    assert first["ts"] == "2026-01-20T10:25:00Z"
    assert first["task"] == "TASK-007"
    assert first["failure_id"] == rec.id


def test_unknown_events_are_refused(tmp_path):
    with pytest.raises(ValueError):
        EventLog(_ws(tmp_path)).emit("recovery.maybe", _record())


def test_escalation_is_logged_in_the_seed_format(tmp_path):
    log = EventLog(_ws(tmp_path))
    log.emit(
        "recovery.escalated",
        _record(),
        tried="Import UserProfile",
        reason="still failing",
        options=["[retry TASK-007]", "[skip TASK-007]", "[stop]"],
    )
    log.info("user selected: retry", task="TASK-007")
    session = (tmp_path / ".faultlens/logs/session-2026-01-20.log").read_text()
    lines = session.splitlines()
    assert lines[0] == "[2026-01-20T10:25:00Z] ERROR worker-2 TASK-007 build"
    assert lines[1] == "  Phase: build"
    assert lines[2] == "  Error: error TS2304: Cannot find name 'UserProfile'"
    assert lines[3].startswith(
        "  Details: src/auth/middleware.ts:42; compile, blocking; tool tsc; id "
    )
    assert "tried: Import UserProfile; failed: still failing" in lines[3]
    assert lines[4] == "  Action: Escalated; offering [retry TASK-007], [skip TASK-007], [stop]"
    assert lines[5] == ""
    assert lines[6] == "[2026-01-20T10:25:00Z] INFO user selected: retry"
    errors = (tmp_path / ".faultlens/logs/errors/TASK-007-failure.log").read_text()
    assert errors == session  # the task's error log has its ERROR block and the choice


def test_info_lines_of_successes_stay_out_of_the_error_log(tmp_path):
    log = EventLog(_ws(tmp_path))
    log.emit("recovery.succeeded", _record(), note="import added")
    session = (tmp_path / ".faultlens/logs/session-2026-01-20.log").read_text()
    assert session.startswith("[2026-01-20T10:25:00Z] INFO worker-2 recovered TASK-007 compile")
    assert not (tmp_path / ".faultlens/logs/errors/TASK-007-failure.log").exists()


def test_a_hostile_task_id_cannot_escape_the_errors_folder(tmp_path):
    log = EventLog(_ws(tmp_path))
    log.emit("failure.classified", _record(task="../../etc/passwd"))
    files = list((tmp_path / ".faultlens/logs/errors").iterdir())
    assert [f.name for f in files] == ["etc_passwd-failure.log"]


def _append_many(state: str, worker: int, n: int) -> None:
    ws = Workspace(roots=[Path(state).parent], state_dir=Path(state))
    log = EventLog(ws)
    (rec,) = classify_text(TSC)
    rec.task = f"TASK-{worker}"
    rec.hint["padding"] = "x" * 3000  # long lines make torn writes visible
    for _ in range(n):
        log.emit("failure.classified", rec)


@pytest.mark.slow  # several processes: the full suite's, not the inner loop's
def test_two_processes_appending_events_never_interleave(tmp_path):
    state = tmp_path / ".faultlens"
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_append_many, args=(str(state), w, 200)) for w in (1, 2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    lines = (state / "events.jsonl").read_text().splitlines()
    assert len(lines) == 400
    tasks = [json.loads(ln)["task"] for ln in lines]  # every line parses
    assert tasks.count("TASK-1") == tasks.count("TASK-2") == 200


# -- the boxed display -------------------------------------------------------------------------
def _content(**kw) -> BoxContent:
    base = dict(
        category="Test",
        task="TASK-007",
        title="npm test",
        phase="implement",
        error="3 tests failing in message-tools.test.ts",
        details=["Expected array of 3, received array of 2"],
        options=[
            Option("retry", "[retry TASK-007]", "Try again with fresh context"),
            Option("skip", "[skip to TASK-008]", "Continue with remaining tasks"),
            Option("stop", "[stop]", "Stop here (TASK-006 remains merged)"),
        ],
        progress=["TASK-006: completed (merged)", "TASK-007: failed"],
    )
    base.update(kw)
    return BoxContent(**base)


def test_the_box_has_the_seed_layout():
    box = render_box(_content())
    lines = box.splitlines()
    assert lines[0].startswith("╔") and lines[0].endswith("╗")
    assert lines[1].startswith("║  ERROR: Test")
    assert lines[2].startswith("╠") and lines[2].endswith("╣")
    assert lines[-1].startswith("╚") and lines[-1].endswith("╝")
    body = "\n".join(ln.strip("║ ") for ln in lines)
    for piece in (
        "Task: TASK-007 - npm test",
        "Phase: implement",
        "Error: 3 tests failing in message-tools.test.ts",
        "Details:",
        "Options:",
        "[retry TASK-007] - Try again with fresh context",
        "[stop] - Stop here (TASK-006 remains merged)",
        "Progress so far:",
        "- TASK-006: completed (merged)",
        "- TASK-007: failed",
    ):
        assert piece in body
    assert box_lines_aligned(box)
    assert display_width(lines[0]) == 66


def test_long_text_wraps_and_the_box_stays_aligned():
    long_word = "node_modules/" + "a" * 150 + "/index.js"
    box = render_box(
        _content(
            error="x " * 200,
            details=[
                long_word,
                "tab\there",
                "bell\x07 and \x1b[31mcolour\x1b[0m",
                "全角文字の説明" * 10,
            ],
        )
    )
    assert box_lines_aligned(box)
    assert "\x07" not in box and "\x1b" not in box
    assert max(display_width(ln) for ln in box.splitlines()) == 66
    joined = "".join(ln[3:-1].strip() for ln in box.splitlines())
    assert "a" * 50 in joined  # the long word is broken, not lost


@pytest.mark.parametrize("width", [40, 66, 100])
def test_any_width_keeps_alignment(width):
    assert box_lines_aligned(render_box(_content(), width=width))
