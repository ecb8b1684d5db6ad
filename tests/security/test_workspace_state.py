"""Workspace state (`.faultlens/`) and the paths around it, as a checkout can
leave them (issue 19, items 9, 10 and 18).

* An edit never reaches a `.git` folder: not through a symlinked folder
  (`ln -s .git gl`, then a traceback naming `gl/hooks/x.py`), not in a nested
  repository, not through any letter case.
* A `.faultlens` that is a symlink out of the workspace is not used: nothing
  is written where it points, and the reason is one line.
* A recipe override that is a link to /dev/zero, a FIFO, a link out of the
  state dir or a huge file is ignored at once (bounded memory, no hang), and
  the shipped recipe is used.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from faultlens.recipes import (
    ApplyError,
    TextEdit,
    UnsafeEdit,
    Workspace,
    apply_edits,
    recipe_doc,
)
from faultlens.recipes.safety import inside_workspace

from .bounded import run_bounded
from .hostile import committed_ledger


def _insert(path: str, text: str = "import os\n") -> TextEdit:
    return TextEdit(path, 0, 0, 0, 0, text)


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


# -- item 9: nothing reaches .git ------------------------------------------------------
@pytest.mark.parametrize(
    "link, target",
    [
        ("gl", "gl/hooks/x.py"),  # ln -s .git gl
        ("gl", "gl/config"),
        ("tools/g", "tools/g/hooks/pre-commit"),  # a link deeper in the tree
    ],
)
def test_an_edit_through_a_symlinked_folder_never_reaches_git(tmp_path, link, target):
    (tmp_path / ".git" / "hooks").mkdir(parents=True)
    (tmp_path / ".git" / "config").write_text("[core]\n")
    (tmp_path / link).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / link).symlink_to(tmp_path / ".git", target_is_directory=True)
    before = _tree(tmp_path / ".git")
    with pytest.raises(UnsafeEdit, match="git internals"):
        apply_edits([_insert(target)], Workspace.at(tmp_path))
    assert _tree(tmp_path / ".git") == before
    assert not (tmp_path / ".git" / "hooks" / "x.py").exists()


@pytest.mark.parametrize(
    "target", ["vendor/lib/.git/hooks/post-checkout", "vendor/lib/.git/config", "a/.GIT/hooks/x"]
)
def test_an_edit_inside_a_nested_repositorys_git_folder_is_refused(tmp_path, target):
    nested = tmp_path / Path(target).parent
    nested.mkdir(parents=True)
    with pytest.raises(UnsafeEdit, match="git internals"):
        apply_edits([_insert(target)], Workspace.at(tmp_path))
    assert not (tmp_path / target).exists()


def test_a_folder_linked_into_a_nested_git_folder_is_refused_too(tmp_path):
    (tmp_path / "sub" / ".git" / "hooks").mkdir(parents=True)
    (tmp_path / "h").symlink_to(tmp_path / "sub" / ".git" / "hooks")
    with pytest.raises(UnsafeEdit):
        inside_workspace(Workspace.at(tmp_path), "h/post-merge")


def test_an_edit_into_faultlens_own_state_dir_is_refused(tmp_path):
    ws = Workspace.at(tmp_path)
    with pytest.raises(UnsafeEdit, match="own state"):
        apply_edits([_insert(".faultlens/recipes/compile.md", "+++\n")], ws)
    (tmp_path / "st").symlink_to(tmp_path / ".faultlens", target_is_directory=True)
    with pytest.raises(UnsafeEdit, match="own state"):
        apply_edits([_insert("st/journal/x.json", "{}")], ws)


def test_ordinary_edits_next_to_git_still_apply(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / "gitignore.py").write_text("x = 1\n")
    apply_edits(
        [_insert("gitignore.py"), _insert(".github/workflows/ci.yml", "on: push\n")],
        Workspace.at(tmp_path),
    )
    assert (tmp_path / "gitignore.py").read_text() == "import os\nx = 1\n"
    assert (tmp_path / ".github" / "workflows" / "ci.yml").exists()


# -- item 10: a symlinked .faultlens -------------------------------------------------------
def test_a_state_dir_linked_out_of_the_workspace_is_refused_in_one_line(tmp_path):
    from faultlens.recipes.model import StateUnavailable

    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".faultlens").symlink_to(outside, target_is_directory=True)
    ws = Workspace.at(root)
    assert ws.state_problem is not None and "\n" not in ws.state_problem
    assert ".faultlens" in ws.state_problem and "outside the workspace" in ws.state_problem
    with pytest.raises(StateUnavailable):
        _ = ws.state
    (root / "a.py").write_text("x = 1\n")
    with pytest.raises(ApplyError, match="outside the workspace"):
        apply_edits([_insert("a.py")], ws)
    assert (root / "a.py").read_text() == "x = 1\n"
    assert list(outside.iterdir()) == []


def test_a_state_dir_linked_inside_the_workspace_is_followed(tmp_path):
    (tmp_path / "build" / "state").mkdir(parents=True)
    (tmp_path / ".faultlens").symlink_to(tmp_path / "build" / "state")
    ws = Workspace.at(tmp_path)
    assert ws.state_problem is None
    assert ws.state == (tmp_path / "build" / "state").resolve()


def test_a_state_dir_linked_into_git_is_refused(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".faultlens").symlink_to(tmp_path / ".git")
    assert "git" in (Workspace.at(tmp_path).state_problem or "")


def test_a_state_dir_the_user_chose_outside_the_workspace_is_used(tmp_path):
    chosen = tmp_path / "elsewhere"
    ws = Workspace(roots=[tmp_path / "repo"], state_dir=chosen)
    assert ws.state_problem is None and ws.state == chosen.resolve()


def test_a_state_dir_replaced_by_a_link_after_start_is_noticed(tmp_path):
    from faultlens.recipes.model import StateUnavailable

    ws = Workspace.at(tmp_path)
    assert ws.state == (tmp_path / ".faultlens").resolve()
    outside = tmp_path.parent / f"{tmp_path.name}-out"
    outside.mkdir()
    (tmp_path / ".faultlens").symlink_to(outside, target_is_directory=True)
    with pytest.raises(StateUnavailable):
        _ = ws.state


# -- item 18: hostile recipe overrides ---------------------------------------------------------
_LOAD = """
import sys
from faultlens.recipes import Workspace, recipe_doc
doc = recipe_doc("compile", Workspace.at(sys.argv[1]))
print("overridden" if doc.overridden else "shipped", doc.front_matter.get("automatic"))
"""


def _override(root: Path) -> Path:
    folder = root / ".faultlens" / "recipes"
    folder.mkdir(parents=True)
    return folder / "compile.md"


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "huge", "dev-urandom"])
def test_a_hostile_recipe_override_is_ignored_without_exhausting_memory_or_hanging(tmp_path, kind):
    target = _override(tmp_path)
    if kind == "dev-zero":
        target.symlink_to("/dev/zero")
    elif kind == "dev-urandom":
        target.symlink_to("/dev/urandom")
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        with target.open("wb") as f:  # sparse: 3 GiB of nothing
            f.truncate(3 << 30)
    res = run_bounded(_LOAD, str(tmp_path), timeout=30)
    assert not res.hung, "loading the recipe hung"
    assert res.code == 0, res.err[-2000:]
    assert res.out.split() == ["shipped", "True"]
    assert "MemoryError" not in res.err


def test_an_override_in_a_folder_linked_out_of_the_state_dir_is_not_read(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "compile.md").write_text("+++\nautomatic = false\n+++\n")
    root = tmp_path / "repo"
    (root / ".faultlens").mkdir(parents=True)
    (root / ".faultlens" / "recipes").symlink_to(outside, target_is_directory=True)
    doc = recipe_doc("compile", Workspace.at(root))
    assert not doc.overridden and doc.front_matter["automatic"] is True


def test_a_regular_override_still_applies_and_bad_values_are_dropped(tmp_path):
    _override(tmp_path).write_text(
        "+++\nautomatic = false\n[verify]\ntimeout = 1e12\n[retry]\nattempts = 'many'\n+++\n"
    )
    doc = recipe_doc("compile", Workspace.at(tmp_path))
    assert doc.overridden and doc.front_matter["automatic"] is False
    assert doc.front_matter["verify"]["timeout"] == 600  # the shipped bound is kept
    assert doc.front_matter["retry"]["attempts"] == 1


def test_a_malformed_override_falls_back_to_the_shipped_recipe(tmp_path):
    _override(tmp_path).write_text("+++\nautomatic = \n")
    doc = recipe_doc("compile", Workspace.at(tmp_path))
    assert not doc.overridden


# -- the ledger is data unless this machine made it ----------------------------------------------
def _cli(*args: str) -> list[str]:
    import sys

    return [sys.executable, "-m", "faultlens.cli.main", *args]


def test_a_committed_ledger_never_names_the_command_a_recipe_runs(tmp_path):
    import shutil
    import sqlite3
    import subprocess
    import sys

    from faultlens.classifier import classify_text
    from faultlens.classifier.engine import Options

    from .conftest import SAMPLES

    canary = tmp_path / "canary"
    argv = [sys.executable, "-c", f"open({str(canary)!r}, 'w')"]
    root = tmp_path / "repo"
    shutil.copytree(SAMPLES / "typescript" / "tsc-plain-ts2304", root)
    # A failure the compile recipe fixes and verifies by re-running "its" command.
    (rec,) = classify_text((root / "output.txt").read_text(), Options(cwd=str(root)))
    committed_ledger(root / ".faultlens" / "ledger.sqlite3", rec.to_json(), argv)
    res = subprocess.run(
        [*_cli("recover", rec.id), "--cwd", str(root), "--workspace", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert not canary.exists(), res.stderr
    assert "stored runs and records are dropped" in res.stderr
    db = sqlite3.connect(root / ".faultlens" / "ledger.sqlite3")
    try:
        kinds = db.execute(
            "SELECT type FROM sqlite_master WHERE type IN ('trigger', 'view')"
        ).fetchall()
        attempts = db.execute("SELECT failure_id, state FROM attempts").fetchall()
    finally:
        db.close()
    assert kinds == []  # the trigger that rewrote stored runs is gone
    assert attempts[0] == ("an-earlier-failure", "escalated")  # the history is kept


def test_another_machines_ledger_is_moved_aside(tmp_path):
    from faultlens.recipes import Ledger

    record = {"id": "0123456789abcdef", "failure_type": "compile", "signal": "x"}
    committed_ledger(tmp_path / ".faultlens" / "ledger.sqlite3", record, ["true"], mark=True)
    ledger = Ledger.open(Workspace.at(tmp_path))
    assert ledger.find_record("0123456789abcdef") is None
    assert ledger.history() == []
    aside = list((tmp_path / ".faultlens").glob("ledger.sqlite3.untrusted-*"))
    assert len(aside) == 1


def test_a_ledger_file_that_is_a_symlink_is_not_used(tmp_path):
    from faultlens.recipes import Ledger
    from faultlens.recipes.model import StateUnavailable

    outside = tmp_path / "outside.db"
    outside.write_bytes(b"")
    state = tmp_path / "repo" / ".faultlens"
    state.mkdir(parents=True)
    for name in ("ledger.sqlite3", "ledger.sqlite3-wal"):
        link = state / name
        link.symlink_to(outside)
        with pytest.raises(StateUnavailable, match="symlink"):
            Ledger.open(Workspace.at(tmp_path / "repo"))
        link.unlink()
    assert outside.read_bytes() == b""


def _ledger_with_a_run(root: Path) -> None:
    from faultlens.recipes import Ledger

    (root / ".git").mkdir(parents=True)
    ledger = Ledger.open(Workspace.at(root))
    run_id = ledger.start_run("T", ["make", "check"], ".")
    ledger.finish_run(run_id, 1, [])


def test_a_ledger_this_machine_made_for_another_workspace_is_moved_aside(tmp_path, caplog):
    """Issue 27, item 15: the ledger's mark is bound to its state dir, as a
    journal's is; a copy in another workspace names no run there."""
    # what is said reaches the log at INFO when an earlier in-process CLI call
    # left a reporter set (recipes/statefs.report), at WARNING otherwise
    caplog.set_level(logging.INFO)
    import shutil

    from faultlens.recipes import Ledger, ledgerguard

    first, second = tmp_path / "first", tmp_path / "second"
    _ledger_with_a_run(first)
    (second / ".faultlens").mkdir(parents=True)
    (second / ".git").mkdir()
    for name in ("ledger.sqlite3", "ledger.sqlite3-wal"):
        if (first / ".faultlens" / name).exists():
            shutil.copy(first / ".faultlens" / name, second / ".faultlens" / name)
    assert ledgerguard.provenance(second / ".faultlens" / "ledger.sqlite3") == "elsewhere"
    copied = Ledger.open(Workspace.at(second))
    assert copied.last_run("T") is None
    assert list((second / ".faultlens").glob("ledger.sqlite3.untrusted-*"))
    assert "made on this machine for another state dir" in caplog.text
    assert Ledger.open(Workspace.at(first)).last_run("T") is not None  # the original stands


def test_a_truncated_ledger_is_called_what_it_is(tmp_path, caplog):
    """Issue 27, item 16: not "not made by faultlens on this machine"."""
    # what is said reaches the log at INFO when an earlier in-process CLI call
    # left a reporter set (recipes/statefs.report), at WARNING otherwise
    caplog.set_level(logging.INFO)
    from faultlens.recipes import Ledger

    _ledger_with_a_run(tmp_path)
    path = tmp_path / ".faultlens" / "ledger.sqlite3"
    for extra in ("-wal", "-shm"):
        (tmp_path / ".faultlens" / f"ledger.sqlite3{extra}").unlink(missing_ok=True)
    path.write_bytes(path.read_bytes()[:700])
    from faultlens.recipes import ledger as ledger_module

    ledger_module._READY.discard(path)
    Ledger.open(Workspace.at(tmp_path))
    err = caplog.text
    assert "is not a readable SQLite database (truncated or damaged)" in err
    assert "not made by faultlens on this machine" not in err
