"""Every helper process faultlens starts is reaped as a group (issue 27,
item 7): a `git fetch` that times out is killed with its transport (the ssh
it started, and what that started), not alone.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from .gitrepo import diverged


def _pids(path: Path) -> list[int]:
    for _ in range(400):  # the transport writes its pids once it is started
        if path.exists() and path.read_text().count("\n") >= 2:
            break
        time.sleep(0.05)
    return [int(x) for x in path.read_text().split()]


def test_a_fetch_that_times_out_is_killed_with_its_transport(tmp_path, monkeypatch):
    from faultlens.recipes import proctree
    from faultlens.recipes.fixes.gitcore import Git

    _origin, repo = diverged(tmp_path)
    pids = tmp_path / "transport.pids"
    ssh = tmp_path / "hanging-ssh"
    # The user's own ssh command (their environment is trusted): it starts a
    # child of its own and never answers, as a stuck connection does.
    ssh.write_text(f"#!/bin/sh\nsleep 600 &\necho $! >> {pids}\necho $$ >> {pids}\nwait\n")
    ssh.chmod(ssh.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("GIT_SSH_COMMAND", str(ssh))
    with (repo / ".git" / "config").open("a") as fh:
        fh.write('[remote "slow"]\n\turl = ssh://git@example.invalid/x.git\n')
    res = Git(repo, timeout=3).run("fetch", "--no-write-fetch-head", "slow")
    assert res.code != 0
    # SIGKILL to the group is delivered and the orphans reaped asynchronously:
    # give a busy machine time (a process still there after 20 s is left)
    deadline = time.monotonic() + 20
    left = [p for p in _pids(pids) if proctree.exists(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = [p for p in left if proctree.exists(p)]
    for p in left:  # do not leave them to the next test either way
        os.kill(p, 9)
    assert left == []
