"""Scratch folders and temporary worktrees never outlive their operation
(issue 16 item 4, on the journal of issue 19): removed when the block ends,
whether it succeeds or raises, and at the next start after a kill -9.  A
journal can make the clean-up remove nothing outside `<state>/tmp/`."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.recipes import Workspace
from faultlens.recipes.crash_restore import recover_state
from faultlens.recipes.scratch import temp_dir, temporary_worktree

from .gitrepo import ENV, commit, git, out

ROOT = Path(__file__).resolve().parents[2]

_DIE_INSIDE = """
import os, signal, sys
from pathlib import Path
from faultlens.recipes import Workspace
from faultlens.recipes.scratch import temp_dir, temporary_worktree
ws = Workspace.at(sys.argv[1])
if sys.argv[2] == "dir":
    with temp_dir(ws, "triage") as folder:
        (folder / "half.txt").write_text("x")
        print(folder, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
else:
    with temporary_worktree(ws, Path(sys.argv[1]), "HEAD", "bisect") as tree:
        print(tree, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch):
    for k, v in ENV.items():
        if k.startswith("GIT_"):
            monkeypatch.setenv(k, v)


def _die_inside(root: Path, what: str) -> Path:
    proc = subprocess.run(
        [sys.executable, "-c", _DIE_INSIDE, str(root), what],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    return Path(proc.stdout.strip())


def test_a_scratch_folder_is_removed_on_success_and_on_failure(tmp_path):
    ws = Workspace.at(tmp_path)
    with temp_dir(ws, "triage") as folder:
        (folder / "x").write_text("x")
    assert not folder.exists()
    with pytest.raises(RuntimeError), temp_dir(ws, "triage") as folder2:
        raise RuntimeError("the recipe failed")
    assert not folder2.exists()
    assert not list((tmp_path / ".faultlens" / "journal").glob("*.json"))


def test_a_scratch_folder_left_by_a_kill_is_removed_at_the_next_start(tmp_path):
    folder = _die_inside(tmp_path, "dir")
    assert folder.is_dir() and folder.parent == (tmp_path / ".faultlens" / "tmp").resolve()
    notices = recover_state(Workspace.at(tmp_path))
    assert not folder.exists()
    assert any("removed the scratch space" in n.message for n in notices)


def _repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    commit(tmp_path, "a.txt", "a\n", "a")
    return tmp_path


def test_a_temporary_worktree_is_removed_and_pruned_when_the_block_ends(tmp_path):
    repo = _repo(tmp_path)
    with temporary_worktree(Workspace.at(repo), repo, "HEAD", "bisect") as tree:
        assert (tree / "a.txt").read_text() == "a\n"
        assert str(tree) in out(repo, "worktree", "list")
    assert not tree.exists()
    assert str(tree) not in out(repo, "worktree", "list")


def test_a_temporary_worktree_left_by_a_kill_is_removed_at_the_next_start(tmp_path):
    repo = _repo(tmp_path)
    tree = _die_inside(repo, "worktree")
    assert tree.is_dir() and str(tree) in out(repo, "worktree", "list")
    recover_state(Workspace.at(repo))
    assert not tree.exists()
    assert str(tree) not in out(repo, "worktree", "list")
    assert out(repo, "status", "--porcelain", "--untracked-files=no") == ""


def test_a_cleanup_journal_cannot_remove_a_project_file(tmp_path):
    (tmp_path / "src").mkdir()
    keep = tmp_path / "src" / "a.py"
    keep.write_text("precious\n")
    code = (
        "import json, sys\n"
        "from faultlens.recipes import Workspace, journal\n"
        "journal.begin(Workspace.at(sys.argv[1]), 'paths', json.loads(sys.argv[2]))\n"
    )
    victims = [
        str(keep),
        str(tmp_path / "src"),
        str(tmp_path / ".faultlens" / "tmp" / ".." / "ledger.sqlite3"),
    ]
    subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), json.dumps({"paths": victims})],
        cwd=ROOT,
        check=True,
    )
    recover_state(Workspace.at(tmp_path))
    assert keep.read_text() == "precious\n"
