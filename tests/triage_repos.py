"""Real git repositories for the triage tests: a bare remote on disk and two
clones of a small Python project (real pytest), one the upstream's
developer's, one the local developer's with a commit of its own."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CALC_BUGGY = "def add(a, b):\n    return a - b\n"
CALC_FIXED = "def add(a, b):\n    return a + b\n"
TEST_CALC = """\
from calc import add


def test_add():
    assert add(2, 3) == 5


def test_add_zero():
    assert add(0, 0) == 0
"""
MUL = "def mul(a, b):\n    return a * b\n"
MUL_BUGGY = "def mul(a, b):\n    return a + b\n"
TEST_MUL = """\
from mul import mul


def test_mul():
    assert mul(3, 4) == 12
"""

# The project's own command, as a developer runs it (no plugins: fast and bare).
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
ENV = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def git(cwd: Path, *args: str, check: bool = True) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "dev",
        "GIT_AUTHOR_EMAIL": "dev@example.com",
        "GIT_COMMITTER_NAME": "dev",
        "GIT_COMMITTER_EMAIL": "dev@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    res = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env)
    if check and res.returncode != 0:
        raise AssertionError(f"git {' '.join(args)}: {res.stderr}")
    return res.stdout.strip()


@dataclass
class Repos:
    remote: Path
    upstream: Path  # the other developer's clone (pushes to the remote)
    local: Path  # ours: faultlens runs here

    def commit_upstream(self, files: dict[str, str], message: str) -> None:
        for name, text in files.items():
            (self.upstream / name).parent.mkdir(parents=True, exist_ok=True)
            (self.upstream / name).write_text(text)
        git(self.upstream, "add", "-A")
        git(self.upstream, "commit", "-qm", message)
        git(self.upstream, "push", "-q", "origin", "main")

    def commit_local(self, files: dict[str, str], message: str) -> None:
        for name, text in files.items():
            (self.local / name).parent.mkdir(parents=True, exist_ok=True)
            (self.local / name).write_text(text)
        git(self.local, "add", "-A")
        git(self.local, "commit", "-qm", message)


def make_repos(tmp_path: Path, *, src: bool = False) -> Repos:
    """A remote with the project (add() has a bug its test catches), cloned
    twice; with `src`, the code lives in `src/` (found through PYTHONPATH or an
    installed package, as a src layout is)."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(remote), str(seed))
    git(seed, "checkout", "-q", "-b", "main")
    (seed / "tests").mkdir()
    code = seed / "src" if src else seed
    code.mkdir(exist_ok=True)
    (code / "calc.py").write_text(CALC_BUGGY)
    (seed / "tests" / "test_calc.py").write_text(TEST_CALC)
    (seed / ".gitignore").write_text("__pycache__/\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-qm", "calc with tests")
    git(seed, "push", "-q", "-u", "origin", "main")
    upstream = tmp_path / "upstream-dev"
    local = tmp_path / "local-dev"
    git(tmp_path, "clone", "-q", str(remote), str(upstream))
    git(tmp_path, "clone", "-q", str(remote), str(local))
    return Repos(remote, upstream, local)


def snapshot(repo: Path) -> dict[str, object]:
    """What the user owns in a repository, byte for byte: HEAD, its branch,
    the index, every work-tree file (faultlens' own state dir left out), the
    stash list, the branches and the worktrees."""
    files = {}
    for path in sorted(repo.rglob("*")):
        rel = path.relative_to(repo)
        if rel.parts[0] in (".git", ".faultlens") or not path.is_file():
            continue
        files[str(rel)] = path.read_bytes()
    return {
        "head": git(repo, "rev-parse", "HEAD"),
        "branch": git(repo, "symbolic-ref", "HEAD"),
        "index": (repo / ".git" / "index").read_bytes(),
        "files": files,
        "stash": stash_list(repo),
        "branches": git(repo, "for-each-ref", "--format=%(refname)", "refs/heads"),
    }


def worktrees(repo: Path) -> list[str]:
    return [
        ln.split(" ", 1)[1]
        for ln in git(repo, "worktree", "list", "--porcelain").splitlines()
        if ln.startswith("worktree ")
    ]


def faultlens_env() -> dict[str, str]:
    return {**os.environ, **ENV, "PYTHONUNBUFFERED": "1"}


def with_token() -> list[int]:
    """Our processes that carry a triage check's token (recipes/triage_check.py)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        if b"FAULTLENS_TRIAGE_TOKEN=" in env:
            found.append(int(name))
    return found


def wait_for(cond: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def recover_until_the_check_runs(repo: Path) -> subprocess.Popen[bytes]:
    """`faultlens run --recover` started in `repo`, returned once its triage
    check's test runs (the project's test sleeps there: SLOW_IN_CHECK)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "faultlens.cli", "run", "--recover", "--", *PYTEST],
        cwd=repo,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=faultlens_env(),
    )
    try:
        wait_for(lambda: bool(with_token()), 240, "the triage check to start")
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return proc


def stash_list(repo: Path) -> str:
    """The stash entries, each with its commit: a dropped and re-made entry differs."""
    return git(repo, "stash", "list", "--format=%H %gd %gs")


def no_leftovers(repo: Path, *, stash: str = "") -> None:
    """Nothing a recipe made is left: no worktree (nor its admin folder), no
    branch but main, no stash but the user's own (`stash`), no scratch space,
    no journal entry, no process."""
    assert worktrees(repo) == [str(repo)]
    assert not list((repo / ".git" / "worktrees").glob("*"))
    assert git(repo, "for-each-ref", "--format=%(refname)", "refs/heads") == "refs/heads/main"
    assert stash_list(repo) == stash
    tmp = repo / ".faultlens" / "tmp"
    assert not tmp.exists() or not any(tmp.iterdir())
    journal = repo / ".faultlens" / "journal"
    assert not journal.exists() or not [p for p in journal.iterdir() if p.suffix == ".json"]
    assert with_token() == []


# The project's test, slow only where a triage check runs it (its environment
# carries the check's token): a kill or an abort lands while the check runs.
SLOW_IN_CHECK = """\
import os
import time

from calc import add


def test_add():
    if os.environ.get("FAULTLENS_TRIAGE_TOKEN"):
        time.sleep(120)
    assert add(2, 3) == 5
"""


# The same project in JavaScript, tested with Node's own runner (node --test),
# its helper installed in an ignored node_modules/ (never committed).
JS_CALC_BUGGY = "const { pad } = require('tiny-pad');\n\nexports.add = (a, b) => a - b;\nexports.show = (n) => pad(String(n));\n"
JS_CALC_FIXED = JS_CALC_BUGGY.replace("a - b", "a + b")
JS_TEST = """\
const test = require('node:test');
const assert = require('node:assert');
const { add, show } = require('../lib/calc.js');

test('add', () => {
  assert.strictEqual(add(2, 3), 5);
});

test('show', () => {
  assert.strictEqual(show(7), ' 7');
});
"""
JS_PAD = "exports.pad = (s) => ' '.repeat(Math.max(0, 2 - s.length)) + s;\n"
NODE_TEST = ["node", "--test", "test/"]


def make_js_repos(tmp_path: Path) -> Repos:
    """A remote with the JS project (add() has a bug its test catches), cloned
    twice; each clone gets its node_modules as `npm install` would leave it."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(remote), str(seed))
    git(seed, "checkout", "-q", "-b", "main")
    (seed / "lib").mkdir()
    (seed / "test").mkdir()
    (seed / "lib" / "calc.js").write_text(JS_CALC_BUGGY)
    (seed / "test" / "calc.test.js").write_text(JS_TEST)
    (seed / "package.json").write_text('{"name": "calc", "dependencies": {"tiny-pad": "1.0.0"}}\n')
    (seed / ".gitignore").write_text("node_modules/\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-qm", "calc with tests")
    git(seed, "push", "-q", "-u", "origin", "main")
    upstream, local = tmp_path / "upstream-dev", tmp_path / "local-dev"
    for clone in (upstream, local):
        git(tmp_path, "clone", "-q", str(remote), str(clone))
        pad = clone / "node_modules" / "tiny-pad"
        pad.mkdir(parents=True)
        (pad / "index.js").write_text(JS_PAD)
        (pad / "package.json").write_text('{"name": "tiny-pad", "version": "1.0.0"}\n')
    return Repos(remote, upstream, local)
