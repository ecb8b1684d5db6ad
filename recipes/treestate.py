"""Where a run happened: the commit, and a key of the work tree's content (the
commit plus every changed and untracked file, tool folders left out).  Two runs
with the same key ran on the same code; recipes/history.py stores the key with
each run (`runs.head`, `runs.tree`) and reads flakiness from it, triage's
worktree copies leave the same tool folders out (`tool_path`).

Read-only: git is asked not to refresh the index (GIT_OPTIONAL_LOCKS=0), and
the key gives up (None) past MAX_CHANGED_FILES or MAX_CHANGED_BYTES.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

# How much of the work tree the state key may read before it gives up (the key
# is then unknown and no flip is ever inferred from it).
MAX_CHANGED_FILES = 500
MAX_CHANGED_BYTES = 32 << 20
GIT_TIMEOUT_S = 5.0


@dataclass(frozen=True, slots=True)
class TreeState:
    """The commit a run was made on, and a key of the work tree's content
    (None when it could not be told: too many changes, git failed)."""

    head: str
    tree: str | None


def _file_digest(path: Path, budget: list[int]) -> str:
    """A digest of one work-tree path as it is now (content, link target or
    absence); "" when the budget of bytes is spent."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "absent"
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    if stat.S_ISLNK(st.st_mode):
        return "link:" + hashlib.sha256(os.fsencode(os.readlink(path))).hexdigest()
    if not stat.S_ISREG(st.st_mode):
        return f"mode:{stat.S_IFMT(st.st_mode):o}"
    budget[0] -= st.st_size
    if budget[0] < 0:
        return ""
    h = hashlib.sha256()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    with os.fdopen(fd, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return f"{st.st_mode & 0o111:o}:" + h.hexdigest()


def tool_path(top: Path, rel: str, seen: dict[str, bool] | None = None) -> bool:
    """Whether a work-tree path lies in a tool folder, not in the project's
    code: an untracked `node_modules`, or a virtualenv (a folder holding
    `pyvenv.cfg`) — left out of the tree key and out of triage's copies."""
    parts = rel.split("/")
    if "node_modules" in parts[:-1]:
        return True
    cache = {} if seen is None else seen
    for i in range(1, min(len(parts), 4)):
        folder = "/".join(parts[:i])
        if folder not in cache:
            cache[folder] = (top / folder / "pyvenv.cfg").is_file()
        if cache[folder]:
            return True
    return False


def status_paths(
    porcelain_z: str, keep: Callable[[str], bool] = lambda _p: True
) -> list[str] | None:
    """The paths `git status --porcelain=v1 -z --no-renames` names that `keep`
    accepts; None when there are more than MAX_CHANGED_FILES."""
    paths = [e[3:] for e in porcelain_z.split("\0") if len(e) > 3 and keep(e[3:])]
    return None if len(paths) > MAX_CHANGED_FILES else sorted(set(paths))


def clean_tree(head: str) -> str:
    """The work-tree key of a clean checkout of commit `head` (tree_state's
    key with no changed file)."""
    return hashlib.sha256(head.encode()).hexdigest()


def tree_state(
    cwd: Path, timeout: float = GIT_TIMEOUT_S, exclude: Sequence[Path] = ()
) -> TreeState | None:
    """Where a run in `cwd` happens: the commit, and the key of the work tree
    (HEAD + every changed or untracked file's content, but what is under
    `exclude`: faultlens' own state dir).  None outside git.  Read-only: git
    is asked not to refresh the index (GIT_OPTIONAL_LOCKS=0)."""
    from .fixes.gitcore import Git

    git = Git(cwd, timeout=timeout)
    res = git.run("rev-parse", "--show-toplevel", "HEAD")
    lines = res.out.split("\n")
    if res.code != 0 or len(lines) < 2 or len(lines[1].strip()) < 40:
        return None
    top, head = Path(lines[0].strip()), lines[1].strip()
    res = Git(top, timeout=timeout).run(
        "status", "--porcelain=v1", "-z", "--no-renames", "--untracked-files=all"
    )
    seen: dict[str, bool] = {}
    paths = status_paths(res.out, lambda p: not tool_path(top, p, seen)) if res.code == 0 else None
    if paths is None:
        return TreeState(head, None)
    skip = []
    for folder in exclude:
        try:
            skip.append(Path(os.path.realpath(folder)).relative_to(top).as_posix() + "/")
        except ValueError:
            continue
    paths = [p for p in paths if not any(p.startswith(s) or p + "/" == s for s in skip)]
    h = hashlib.sha256(head.encode())
    budget = [MAX_CHANGED_BYTES]
    for rel in paths:
        digest = _file_digest(top / rel, budget)
        if not digest:
            return TreeState(head, None)
        h.update(b"\0" + os.fsencode(rel) + b"\0" + digest.encode())
    return TreeState(head, h.hexdigest())


class TreeProbe:
    """`tree_state(cwd)` taken on a thread while the command runs (it must not
    delay the command's start); `result()` waits for it."""

    def __init__(self, cwd: Path, exclude: Sequence[Path] = ()) -> None:
        import threading

        self._state: TreeState | None = None
        self._thread = threading.Thread(target=self._probe, args=(cwd, exclude), daemon=True)
        self._thread.start()

    def _probe(self, cwd: Path, exclude: Sequence[Path]) -> None:
        try:
            self._state = tree_state(cwd, exclude=exclude)
        except Exception:  # a look at git never breaks a run
            self._state = None

    def result(self) -> TreeState | None:
        self._thread.join(GIT_TIMEOUT_S * 3)
        return self._state
