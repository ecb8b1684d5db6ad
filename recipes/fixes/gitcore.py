"""git, run safely, and what it says about a repository (read-only queries).

`Git` runs git with an argv list (never a shell), hooks switched off
(`-c core.hooksPath=/dev/null`), no auto-stash, no editor and no terminal
prompt, and with no program that the repository's own configuration names:
a hostile `.git/config` (an unpacked artefact, a copied checkout) can name
programs git runs by itself.  `SAFE_CONFIG` switches off those faultlens
never needs (the fsmonitor, an external diff, signing, the `ext::`
transport, submodule recursion); `repo_overrides` reads which of the
program-naming keys the repository's own scope (`.git/config`, its
includes, `config.worktree`) sets and neutralises each: a filter driver's
`smudge`/`clean`/`process`, a merge driver, a diff driver's `textconv` and
`command`, `core.sshCommand`, `core.askPass`, `core.gitProxy`,
`core.alternateRefsCommand`, and credential helpers (the repository's are
dropped, yours from the global and system config kept).  Keys that a `-c`
cannot override get an option instead: `remote.<name>.uploadpack` (git takes
the first one given) becomes `fetch --upload-pack=git-upload-pack`, and every
diff is run with `--no-ext-diff --no-textconv`.  Your own global and system
configuration is trusted like your shell's.  `state` is what the branch_divergence planner looks at; the sync
command (gitsync.py) and its journal (gitjournal.py) build on `Git`,
`operation_in_progress` and `not_restored` from here.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .gitrefs import short_branch, valid_ref, valid_remote

SAFE_CONFIG = (
    "core.hooksPath=/dev/null",
    "rebase.autoStash=false",
    "merge.autoStash=false",
    "rebase.autoSquash=false",
    "rebase.updateRefs=false",
    "core.editor=true",
    "advice.detachedHead=false",
    "core.fsmonitor=false",
    "diff.external=",
    "protocol.ext.allow=never",
    "commit.gpgSign=false",
    "tag.gpgSign=false",
    "merge.verifySignatures=false",
    "log.showSignature=false",
    "submodule.recurse=false",
    "fetch.recurseSubmodules=false",
    "core.pager=cat",
)

# The keys whose value is a program git runs by itself, as `git config
# --get-regexp` spells them (lower case but the subsection).
_PROGRAM_KEYS = (
    r"^(filter\..+\.(smudge|clean|process|required)|merge\..+\.driver"
    r"|diff\..+\.(textconv|command)|core\.(sshcommand|askpass|gitproxy|alternaterefscommand)"
    r"|credential\.(.+\.)?helper)$"
)
_REPO_SCOPES = frozenset({"local", "worktree"})
# What each of them becomes when the repository sets it: no program.
_NEUTRAL = {
    "smudge": "",
    "clean": "",
    "process": "",
    "required": "false",
    "driver": "",
    "textconv": "",
    "command": "",
    "core.sshcommand": "ssh",
    "core.askpass": "",
    "core.gitproxy": "none",
    "core.alternaterefscommand": "",
}


def repo_overrides(cwd: Path) -> list[str]:
    """`-c` values that neutralise every program the repository's own config
    (scope local or worktree, includes counted) names (see the module doc)."""
    try:
        proc = subprocess.run(
            [
                "git",
                "-c",
                "core.fsmonitor=false",
                "config",
                "--show-scope",
                "-z",
                "--get-regexp",
                _PROGRAM_KEYS,
            ],
            cwd=cwd,
            env=git_env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    entries = _scoped_entries(proc.stdout.decode("utf-8", "surrogateescape"))
    out: list[str] = []
    helpers = [(scope, key, value) for scope, key, value in entries if key.endswith(".helper")]
    for scope, key, _value in entries:
        if scope not in _REPO_SCOPES or key.endswith(".helper"):
            continue
        neutral = _NEUTRAL.get(key, _NEUTRAL.get(key.rpartition(".")[2]))
        if neutral is not None:
            out.append(f"{key}={neutral}")
    if any(scope in _REPO_SCOPES for scope, _k, _v in helpers):
        out.append("credential.helper=")  # an empty helper empties the list so far
        out += [f"{k}={v}" for scope, k, v in helpers if scope not in _REPO_SCOPES and v]
    return list(dict.fromkeys(out))


def _scoped_entries(text: str) -> list[tuple[str, str, str]]:
    """(scope, key, value) of `git config --show-scope -z --get-regexp`
    output: `scope NUL key LF value NUL` per entry."""
    parts = text.split("\0")
    out: list[tuple[str, str, str]] = []
    for scope, entry in zip(parts[0::2], parts[1::2], strict=False):
        key, _, value = entry.partition("\n")
        out.append((scope, key, value))
    return out


# Subcommands given an option for what a `-c` cannot override.
_OPTIONS = {
    "fetch": ("--upload-pack=git-upload-pack",),
    "diff": ("--no-ext-diff", "--no-textconv"),
    "log": ("--no-ext-diff", "--no-textconv"),
    "show": ("--no-ext-diff", "--no-textconv"),
}


def git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_EDITOR": "true",
            "GIT_SEQUENCE_EDITOR": "true",
            "GIT_MERGE_AUTOEDIT": "no",
            # A query (`git status`) never rewrites the index to refresh it: a
            # look at the repository leaves its files byte for byte as they were.
            "GIT_OPTIONAL_LOCKS": "0",
            "LC_ALL": "C",
            "LANGUAGE": "C",
        }
    )
    return env


@dataclass(slots=True)
class GitResult:
    code: int
    out: str
    err: str


class Git:
    """git in one directory, argv only."""

    def __init__(self, cwd: Path, timeout: float = 120.0) -> None:
        self.cwd = cwd
        self.timeout = timeout
        self._overrides: list[str] | None = None

    def argv(self, *args: str) -> list[str]:
        if self._overrides is None:
            self._overrides = repo_overrides(self.cwd) if self.cwd.is_dir() else []
        out = ["git"]
        for c in (*SAFE_CONFIG, *self._overrides):
            out += ["-c", c]
        if args and args[0] in _OPTIONS:
            args = (args[0], *[o for o in _OPTIONS[args[0]] if o not in args], *args[1:])
        return [*out, *args]

    def run(self, *args: str, timeout: float | None = None) -> GitResult:
        from faultlens.recipes.proctree import run_group

        try:
            proc = run_group(
                self.argv(*args), cwd=self.cwd, env=git_env(), timeout=timeout or self.timeout
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return GitResult(127, "", str(exc))
        return GitResult(
            proc.returncode,
            proc.stdout.decode("utf-8", "replace"),
            proc.stderr.decode("utf-8", "replace"),
        )

    def out(self, *args: str) -> str | None:
        res = self.run(*args)
        return res.out.strip() if res.code == 0 else None


@dataclass(slots=True)
class RepoState:
    """What the planner needs to know before touching a repository."""

    toplevel: Path | None = None
    branch: str | None = None  # None: detached HEAD
    head: str | None = None
    operation: str | None = None  # rebase | merge | cherry-pick | revert | am
    dirty: list[str] = field(default_factory=list)  # tracked changes (porcelain lines)
    remote: str | None = None
    upstream_ref: str | None = None  # refs/remotes/origin/main (or refs/heads/x for ".")
    upstream: str | None = None  # origin/main
    bad_config: str | None = None  # an upstream setting that failed validation
    ahead: int | None = None
    behind: int | None = None


def operation_in_progress(git: Git) -> str | None:
    """The multi-step operation git is in the middle of, if any."""
    checks = (
        ("rebase-merge", "rebase"),
        ("rebase-apply", "rebase"),
        ("MERGE_HEAD", "merge"),
        ("CHERRY_PICK_HEAD", "cherry-pick"),
        ("REVERT_HEAD", "revert"),
    )
    for name, op in checks:
        path = git.out("rev-parse", "--git-path", name)
        if path is None:
            continue
        full = Path(path) if Path(path).is_absolute() else git.cwd / path
        if full.exists():
            if name == "rebase-apply" and (full / "applying").exists():
                return "am"
            return op
    return None


def dirty_paths(git: Git) -> list[str]:
    """Tracked files with staged or unstaged changes (untracked files are left
    alone: git itself refuses to overwrite them)."""
    res = git.run("status", "--porcelain=v1", "--untracked-files=no", "--ignore-submodules=none")
    if res.code != 0:
        return [f"(git status failed: {res.err.strip()})"]
    return [ln for ln in res.out.splitlines() if ln.strip()]


def ahead_behind(git: Git) -> tuple[int, int] | None:
    """(ahead, behind) of HEAD against its upstream, from `git status --porcelain=v2 --branch`."""
    res = git.run("status", "--porcelain=v2", "--branch", "--untracked-files=no")
    if res.code != 0:
        return None
    for ln in res.out.splitlines():
        if ln.startswith("# branch.ab "):
            parts = ln.split()
            try:
                return int(parts[2].lstrip("+")), int(parts[3].lstrip("-"))
            except (IndexError, ValueError):
                return None
    return None


def state(cwd: Path) -> RepoState:
    """The repository around `cwd` (read-only queries)."""
    git = Git(cwd)
    st = RepoState()
    top = git.out("rev-parse", "--show-toplevel")
    if not top:
        return st
    st.toplevel = Path(top)
    st.head = git.out("rev-parse", "--verify", "-q", "HEAD")
    st.branch = git.out("symbolic-ref", "-q", "--short", "HEAD")
    st.operation = operation_in_progress(git)
    st.dirty = dirty_paths(git)
    if st.branch is None:
        return st
    if not valid_ref(st.branch):
        st.bad_config = f"current branch name {st.branch!r}"
        return st
    remote = git.out("config", "--get", f"branch.{st.branch}.remote")
    merge = git.out("config", "--get", f"branch.{st.branch}.merge")
    if remote is None or merge is None:
        return st
    if not valid_remote(remote):
        st.bad_config = f"branch.{st.branch}.remote = {remote!r}"
        return st
    if not valid_ref(merge):
        st.bad_config = f"branch.{st.branch}.merge = {merge!r}"
        return st
    full = git.out("rev-parse", "--symbolic-full-name", "@{upstream}")
    if not full or not valid_ref(full):
        if full:
            st.bad_config = f"upstream {full!r}"
        return st
    st.remote = remote
    st.upstream_ref = full
    if full.startswith("refs/remotes/"):
        st.upstream = full[len("refs/remotes/") :]
    else:
        st.upstream = short_branch(full)
    ab = ahead_behind(git)
    if ab is not None:
        st.ahead, st.behind = ab
    return st


def display_ref(ref: str) -> str:
    """`refs/remotes/origin/main` → `origin/main`, `refs/heads/x` → `x`."""
    return ref[len("refs/remotes/") :] if ref.startswith("refs/remotes/") else short_branch(ref)


def not_restored(git: Git, head: str) -> str | None:
    """None when HEAD is `head` and index and work tree are clean, else what is wrong."""
    now = git.out("rev-parse", "--verify", "-q", "HEAD")
    if now != head:
        return f"HEAD is {now}, was {head}"
    op = operation_in_progress(git)
    if op:
        return f"a {op} is still in progress"
    dirty = dirty_paths(git)
    if dirty:
        return "the work tree is not clean: " + ", ".join(dirty[:5])
    return None
