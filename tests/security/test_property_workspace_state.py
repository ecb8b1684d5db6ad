"""Hostile workspaces, generated (issue 19: make the suite find this class of
hole by itself).

Hypothesis builds checkouts whose `.faultlens/` holds what a repository can
commit: journals (the old unsigned format aimed at files outside, the signed
format with a forged MAC, garbage), a ledger naming a command to re-run,
recipe overrides, logs; any state path replaced by a symlink (to a file or a
folder outside, to /dev/zero, /dev/urandom, into `.git`, dangling), a FIFO,
a folder or junk bytes; `.faultlens` itself linked out; a folder of the
workspace linked to `.git` or outside.

A child process then does everything faultlens does with a workspace's
state: a start's recovery, an apply, events and text logs, the ledger,
recipe documents and a whole recipe attempt, with a memory ceiling and a
deadline (bounded.py) and an audit hook that records every file opened by
path, every SQLite database and every process started.  The invariants:

* nothing outside the workspace is written, chmodded or deleted (a snapshot
  of a folder beside it, and of `.git`);
* nothing outside the roots is opened or connected to, except the Python
  installation, faultlens' own source, /proc, /dev/null and the machine key;
* no command from the hostile state runs (its canary never appears, no argv
  carries its marker);
* the user's files are never lost: each is as it was, or holds the recipe's
  edit on top of every line it had;
* nothing hangs or exhausts memory, and no step raises anything but the
  refusals it documents.

The number of examples is FAULTLENS_PROPERTY_EXAMPLES (default 20; the explicit examples always run).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from .bounded import ROOT, run_bounded
from .conftest import SAMPLES
from .hostile import committed_ledger

EXAMPLES = int(os.environ.get("FAULTLENS_PROPERTY_EXAMPLES", "20"))
SAMPLE = SAMPLES / "typescript" / "tsc-plain-ts2304"
MARK = "FAULTLENS_CANARY_7f3a"

STATE_PATHS = (
    "events.jsonl",
    "logs",
    "logs/errors",
    "logs/errors/default-failure.log",
    "logs/errors/T-1-failure.log",
    "journal",
    "recipes",
    "recipes/compile.md",
    "recipes/test.md",
    "ledger.sqlite3",
    "ledger.sqlite3-wal",
    "ledger.sqlite3-shm",
    "ledger.sqlite3-journal",
    "runs",
    "tmp",
    "apply.lock",
)
LINK_TARGETS = (
    "outside-file",
    "outside-dir",
    "/dev/zero",
    "/dev/urandom",
    "git-dir",
    "git-hook",
    "dangling",
)


@dataclass(frozen=True)
class Plant:
    kind: str  # link | fifo | junk | dir | journal-old | journal-forged | journal-junk | ledger
    where: str = ""
    target: str = ""
    data: bytes = b""


def _plants() -> st.SearchStrategy[Plant]:
    at = st.sampled_from(STATE_PATHS)
    return st.one_of(
        st.builds(Plant, st.just("link"), at, st.sampled_from(LINK_TARGETS)),
        st.builds(Plant, st.just("fifo"), at),
        st.builds(Plant, st.just("junk"), at, st.just(""), st.binary(max_size=2048)),
        st.builds(Plant, st.just("dir"), at),
        st.builds(
            Plant,
            st.just("journal-old"),
            st.just(""),
            st.sampled_from(("outside-file", "inside-file", "inside-delete", "git-hook")),
        ),
        st.builds(
            Plant, st.just("journal-forged"), st.just(""), st.sampled_from(("outside", "inside"))
        ),
        st.builds(
            Plant, st.just("journal-junk"), st.just(""), st.just(""), st.binary(max_size=512)
        ),
        st.builds(Plant, st.just("ledger"), st.just(""), st.sampled_from(("plain", "forged-mark"))),
    )


@st.composite
def workspaces(draw: st.DrawFn) -> dict[str, object]:
    return {
        "plants": draw(st.lists(_plants(), min_size=1, max_size=6)),
        "state_link": draw(st.sampled_from((None, "outside-dir", "git-dir", "dangling"))),
        "gl": draw(st.booleans()),  # ln -s .git gl
    }


def _target(name: str, root: Path, outside: Path) -> str:
    return {
        "outside-file": str(outside / "victim.txt"),
        "outside-dir": str(outside / "dir"),
        "git-dir": str(root / ".git"),
        "git-hook": str(root / ".git" / "hooks" / "pre-commit"),
        "dangling": str(outside / "nothing-here"),
    }.get(name, name)


def _journal_old(root: Path, outside: Path, target: str) -> dict[str, object]:
    path = {
        "outside-file": str(outside / "victim.txt"),
        "inside-file": str(root / "src" / "auth" / "middleware.ts"),
        "inside-delete": str(root / "src" / "models" / "user.ts"),
        "git-hook": str(root / ".git" / "hooks" / "pre-commit"),
    }[target]
    original = None if target == "inside-delete" else base64.b64encode(MARK.encode()).decode()
    return {
        "pid": 1,
        "targets": [
            {"path": path, "tmp": str(outside / "victim.txt"), "original": original, "mode": 0o4777}
        ],
    }


def _plant(root: Path, outside: Path, plant: Plant, record: dict[str, object], n: int) -> None:
    state = root / ".faultlens"
    if plant.kind in ("journal-old", "journal-forged", "journal-junk"):
        jdir = state / "journal"
        if jdir.is_symlink() or (jdir.exists() and not jdir.is_dir()):
            return
        jdir.mkdir(parents=True, exist_ok=True)
        if plant.kind == "journal-old":
            body = json.dumps(_journal_old(root, outside, plant.target)).encode()
            (jdir / f"{1000 + n}-0123456789ab.json").write_bytes(body)
        elif plant.kind == "journal-forged":
            rel = "../outside/victim.txt" if plant.target == "outside" else "src/auth/middleware.ts"
            doc = json.dumps(
                {
                    "v": 1,
                    "kind": "edits",
                    "state": str(state),
                    "owner": {"pid": 1, "start": None, "boot": None},
                    "created_ns": 0,
                    "updated_ns": 0,
                    "data": {
                        "targets": [
                            {
                                "path": rel,
                                "tmp": None,
                                "original": None,
                                "old": None,
                                "new": "0" * 64,
                                "size": 1,
                                "mode": 511,
                            }
                        ]
                    },
                },
                sort_keys=True,
                separators=(",", ":"),
            )
            body = json.dumps({"doc": doc, "mac": "f" * 64}).encode()
            (jdir / f"edits-{1000 + n}-0123456789ab.json").write_bytes(body)
        else:
            (jdir / f"edits-{1000 + n}-00000000000{n % 10}.json").write_bytes(plant.data)
        return
    if plant.kind == "ledger":
        path = state / "ledger.sqlite3"
        if os.path.lexists(path) or not state.is_dir() or state.is_symlink():
            return
        canary = outside / "canary"
        argv = [sys.executable, "-c", f"open({str(canary)!r}, 'w').write({MARK!r})"]
        # built aside and moved in: a planted sidecar (a `ledger.sqlite3-wal`
        # folder) would stop sqlite from writing it in place
        aside = root.parent / f"ledger-{n}.sqlite3"
        committed_ledger(aside, record, argv, mark=plant.target == "forged-mark")
        os.replace(aside, path)
        return
    path = state / plant.where
    if os.path.lexists(path):
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        return  # a parent was planted as a file or a link: this plant is moot
    if path.parent.is_symlink() or not path.parent.resolve().is_relative_to(state.resolve()):
        return
    if plant.kind == "link":
        path.symlink_to(_target(plant.target, root, outside))
    elif plant.kind == "fifo":
        os.mkfifo(path)
    elif plant.kind == "junk":
        path.write_bytes(plant.data)
    else:
        path.mkdir()


def _tree(folder: Path, skip: tuple[str, ...] = ()) -> dict[str, tuple[str, bytes, int]]:
    """Every entry under `folder` (never following a link): kind, bytes or
    link target, mode."""
    out: dict[str, tuple[str, bytes, int]] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        rel_dir = Path(dirpath).relative_to(folder)
        if rel_dir.parts and rel_dir.parts[0] in skip:
            dirnames[:] = []
            continue
        for name in [*dirnames, *filenames]:
            p = Path(dirpath) / name
            rel = (rel_dir / name).as_posix()
            if rel.split("/")[0] in skip:
                continue
            st_ = os.lstat(p)
            if stat.S_ISLNK(st_.st_mode):
                out[rel] = ("link", os.readlink(p).encode(), 0)
            elif stat.S_ISREG(st_.st_mode):
                out[rel] = ("file", p.read_bytes(), stat.S_IMODE(st_.st_mode))
            elif stat.S_ISDIR(st_.st_mode):
                out[rel] = ("dir", b"", stat.S_IMODE(st_.st_mode))
            else:
                out[rel] = ("special", b"", stat.S_IMODE(st_.st_mode))
    return out


def _allowed_open(path: str, root: Path, key_home: str) -> bool:
    real = os.path.realpath(path)
    allowed = [
        str(root.resolve()),
        os.path.realpath(sys.prefix),
        os.path.realpath(sys.base_prefix),
        str(ROOT),
        os.path.realpath(key_home),
        "/proc",
        "/dev/null",
        "/usr/lib",
        "/usr/share/zoneinfo",
        "/etc/localtime",
    ]
    inside = any(real == a or real.startswith(a.rstrip("/") + "/") for a in allowed)
    if not inside:
        return False
    # Inside the workspace, never through a link out or into .git.
    if real.startswith(str(root.resolve()) + "/"):
        parts = Path(real).relative_to(root.resolve()).parts
        return ".git" not in parts
    return True


def _build(base: Path, spec: dict[str, object]) -> tuple[Path, Path, str]:
    root = base / "repo"
    shutil.copytree(SAMPLE, root)
    outside = base / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "victim.txt").write_text("the user's file outside the workspace\n")
    (outside / "dir" / "notes.txt").write_text("notes\n")
    (root / ".git" / "hooks").mkdir(parents=True)
    (root / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    from faultlens.classifier import classify_text
    from faultlens.classifier.engine import Options

    (record,) = classify_text((root / "output.txt").read_text(), Options(cwd=str(root)))
    if spec["gl"]:
        (root / "gl").symlink_to(root / ".git", target_is_directory=True)
    link = spec["state_link"]
    if link is not None:
        (root / ".faultlens").symlink_to(
            _target(str(link), root, outside), target_is_directory=True
        )
    else:
        (root / ".faultlens").mkdir()
        for n, plant in enumerate(spec["plants"]):  # type: ignore[arg-type]
            _plant(root, outside, plant, record.to_json(), n)
    return root, outside, record.id


def _lines_kept(old: bytes, new: bytes) -> bool:
    have = new.splitlines()
    return all(line in have for line in old.splitlines())


@pytest.mark.slow
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(spec=workspaces())
@example(spec={"plants": [Plant("ledger", "", "plain")], "state_link": None, "gl": False})
@example(spec={"plants": [Plant("fifo", "events.jsonl")], "state_link": None, "gl": True})
@example(
    spec={"plants": [Plant("link", "events.jsonl", "git-hook")], "state_link": None, "gl": False}
)
@example(
    spec={
        "plants": [Plant("link", "recipes/compile.md", "/dev/zero")],
        "state_link": None,
        "gl": False,
    }
)
@example(
    spec={"plants": [Plant("journal-old", "", "outside-file")], "state_link": None, "gl": True}
)
@example(spec={"plants": [Plant("link", "logs", "outside-dir")], "state_link": None, "gl": False})
@example(spec={"plants": [], "state_link": "outside-dir", "gl": False})
def test_a_hostile_workspace_state_never_reaches_outside_the_roots(tmp_path_factory, spec):
    base = tmp_path_factory.mktemp("hostile")
    root, outside, _ = _build(base, spec)
    user_before = _tree(root, skip=(".faultlens", ".git"))
    git_before = _tree(root / ".git")
    outside_before = _tree(outside)
    key_home = os.environ.get("XDG_STATE_HOME", "")
    res = run_bounded(
        "import runpy, sys; sys.argv = sys.argv[:1] + sys.argv[1:]; "
        "runpy.run_module('tests.security.workers.hostile_state', run_name='__main__')",
        str(root),
        timeout=120,
    )
    assert not res.hung, f"faultlens hung on {spec}"
    assert res.code == 0, f"{spec}\n{res.err[-3000:]}"
    report = json.loads(res.out.strip().splitlines()[-1])
    assert not report["errors"], f"{spec}\n" + "\n".join(report["errors"])
    # Nothing outside written, chmodded, deleted; .git untouched.
    assert _tree(outside) == outside_before, spec
    assert _tree(root / ".git") == git_before, spec
    assert not (outside / "canary").exists(), spec
    # Nothing outside read; no hostile command run.
    bad_opens = [p for p in report["opens"] if not _allowed_open(p, root, key_home)]
    assert not bad_opens, f"{spec}: opened {bad_opens[:5]}"
    bad_db = [d for d in report["databases"] if not _allowed_open(d, root, key_home)]
    assert not bad_db, f"{spec}: connected to {bad_db}"
    assert not [a for a in report["spawned"] if MARK in " ".join(a)], spec
    # The user's files: as they were, or with the recipe's edit on top.
    after = _tree(root, skip=(".faultlens", ".git"))
    for rel, (kind, data, _mode) in user_before.items():
        assert rel in after, f"{spec}: {rel} was deleted"
        if after[rel][1] != data:
            assert kind == "file" and _lines_kept(data, after[rel][1]), f"{spec}: {rel} lost text"
