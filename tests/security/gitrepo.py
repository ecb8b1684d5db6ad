"""Real git repositories for the git-safety and hostile-output tests, and a
byte-for-byte snapshot of everything a recipe must not disturb."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "LC_ALL": "C",
}


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", *args], cwd=cwd, env=ENV, capture_output=True, check=check)


def out(cwd: Path, *args: str) -> str:
    return git(cwd, *args).stdout.decode()


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def commit(repo: Path, name: str, text: str, msg: str) -> None:
    write(repo / name, text)
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", msg)


def diverged(tmp: Path, conflicting: bool = False) -> tuple[Path, Path]:
    """origin (bare) and a clone on `main` whose branch has diverged from
    origin/main (one commit each side; the same line when `conflicting`)."""
    origin = tmp / "origin.git"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(origin))
    seed = tmp / "seed"
    git(tmp, "clone", "-q", str(origin), str(seed))
    git(seed, "checkout", "-q", "-b", "main")
    commit(seed, "app.txt", "one\ntwo\nthree\n", "base")
    git(seed, "push", "-q", "origin", "main")
    repo = tmp / "repo"
    git(tmp, "clone", "-q", str(origin), str(repo))
    commit(seed, "app.txt" if conflicting else "theirs.txt", "one\nTHEIRS\nthree\n", "theirs")
    git(seed, "push", "-q", "origin", "main")
    commit(repo, "app.txt" if conflicting else "ours.txt", "one\nOURS\nthree\n", "ours")
    git(repo, "fetch", "-q")
    return origin, repo


@dataclass(frozen=True)
class Snapshot:
    head: bytes
    head_file: bytes
    refs: bytes
    index: bytes
    cached_diff: bytes
    status: bytes
    stash: bytes
    operation: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...]


def snapshot(repo: Path) -> Snapshot:
    """HEAD, branches, index (ls-files -s, diff --cached), work tree (file
    bytes and status --porcelain) and the stash list, byte for byte."""
    files = []
    for p in sorted(repo.rglob("*")):
        rel = p.relative_to(repo)
        if rel.parts[0] == ".git" or not p.is_file() or p.is_symlink():
            continue
        files.append((rel.as_posix(), p.read_bytes()))
    gitdir = repo / ".git"
    ops = tuple(
        n
        for n in ("rebase-merge", "rebase-apply", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD")
        if (gitdir / n).exists()
    )
    return Snapshot(
        head=git(repo, "rev-parse", "HEAD").stdout,
        head_file=(gitdir / "HEAD").read_bytes(),
        refs=git(repo, "for-each-ref", "refs/heads", "refs/stash").stdout,
        index=git(repo, "ls-files", "-s").stdout,
        cached_diff=git(repo, "diff", "--cached", "--binary").stdout,
        status=git(repo, "status", "--porcelain=v1", "-z", "--untracked-files=all").stdout,
        stash=git(repo, "stash", "list").stdout,
        operation=ops,
        files=tuple(files),
    )
