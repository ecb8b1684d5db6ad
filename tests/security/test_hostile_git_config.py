"""A hostile `.git/config` runs no program through faultlens's own git calls
(issue 27, item 5).

A repository's own configuration (an unpacked artefact, a copied checkout:
`.git/` is not versioned, so anything can be in it) can name programs git
runs by itself: `core.fsmonitor` on every status, a filter driver's
`smudge`/`clean`/`process` on checkout (the triage worktree) and diff, a merge
driver on a conflicting merge, `diff.external` and a diff driver's
`textconv`, `remote.<name>.uploadpack` on a fetch from a path,
`core.sshCommand` and `core.gitProxy` on a fetch, the `ext::` transport when
the config allows it, `gpg.program` when it asks for signed commits.  Here a
real repository names each of them as `touch <marker>` (directly and through
an `include.path`), and faultlens's git layer (recipes/fixes/gitcore.py, which
every git call of faultlens goes through) runs status, fetch, diff, a
worktree, a conflicting merge and a commit on it: no marker may appear.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

from .conftest import ROOT
from .gitrepo import commit, diverged


def _hostile(tmp: Path) -> tuple[Path, Path]:
    marks = tmp / "marks"
    marks.mkdir()
    _origin, repo = diverged(tmp, conflicting=True)
    commit(repo, ".gitattributes", "* filter=x merge=y diff=z\n", "attributes")

    def run(name: str) -> str:
        return f'"touch {marks}/{name}; false"'

    config = f"""
[core]
	fsmonitor = {run("fsmonitor")}
	sshCommand = {run("sshCommand")}
	gitProxy = {run("gitProxy")}
	askPass = {run("askPass")}
[filter "x"]
	clean = {run("clean")}
	process = {run("process")}
	required = true
[merge "y"]
	driver = {run("mergedriver")}
[diff "z"]
	textconv = {run("textconv")}
	command = {run("diffcommand")}
[diff]
	external = {run("diffexternal")}
[remote "origin"]
	uploadpack = "touch {marks}/uploadpack; git-upload-pack"
[remote "viassh"]
	url = ssh://git@example.invalid/x.git
[remote "viagit"]
	url = git://example.invalid/x.git
[remote "viaext"]
	url = "ext::sh -c touch% {marks}/ext"
[protocol]
	allow = always
[commit]
	gpgSign = true
[gpg]
	program = {run("gpg")}
[credential]
	helper = "!touch {marks}/credential"
[include]
	path = more.cfg
"""
    with (repo / ".git" / "config").open("a") as fh:
        fh.write(config)
    (repo / ".git" / "more.cfg").write_text(f'[filter "x"]\n\tsmudge = {run("smudge")}\n')
    return repo, marks


def test_a_hostile_git_config_runs_nothing_through_faultlens_git_calls(tmp_path):
    from faultlens.recipes.fixes import gitcore
    from faultlens.recipes.triage_check import _git_bytes

    repo, marks = _hostile(tmp_path)
    (repo / "app.txt").write_text("one\nLOCAL\nthree\n")  # a change to diff
    g = gitcore.Git(repo, timeout=60)
    st = gitcore.state(repo)
    for remote in ("origin", "viassh", "viagit", "viaext"):
        g.run("fetch", "--no-write-fetch-head", remote)
    codes = {"diff": g.run("diff", "HEAD").code, "log": g.run("log", "-p", "-1").code}
    patch = _git_bytes(repo, ["diff", "HEAD", "--binary"])
    (repo / "app.txt").write_text("one\nOURS\nthree\n")
    tree = tmp_path / "tree"
    codes["worktree"] = g.run("worktree", "add", "--detach", str(tree), "HEAD").code
    t = gitcore.Git(tree, timeout=60)
    t.run("merge", "--no-edit", "origin/main")  # conflicts: the merge driver's moment
    t.run("merge", "--abort")
    t.run("commit", "--allow-empty", "-m", "signed?")
    t.run("status")
    assert sorted(p.name for p in marks.iterdir()) == []
    assert st.toplevel is not None and not isinstance(patch, str)
    assert codes == {"diff": 0, "log": 0, "worktree": 0}


def test_the_repository_s_credential_helper_is_dropped_and_yours_kept(tmp_path):
    from faultlens.recipes.fixes import gitcore

    repo, _marks = _hostile(tmp_path)
    argv = gitcore.Git(repo).argv("fetch", "origin")
    values = [argv[i + 1] for i, a in enumerate(argv) if a == "-c"]
    assert "credential.helper=" in values
    assert not any("touch" in v and "helper" in v for v in values)
    assert "--upload-pack=git-upload-pack" in argv


# Folders of other people's Python inside the checkout: installed packages (the
# editors' node_modules hold Python 2 files), the tools scripts/install-tools.sh
# puts in tools/, build output, caches and dot-folders (.venv, .git).
_NOT_OURS = {"node_modules", "__pycache__", "build", "dist"}


def _own_python_files() -> list[Path]:
    """Every .py file of the checkout but those in `_NOT_OURS` folders."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        here = Path(folder)
        dirs[:] = [
            d
            for d in dirs
            if d not in _NOT_OURS and not d.startswith(".") and not (here == ROOT and d == "tools")
        ]
        found += [here / f for f in files if f.endswith(".py")]
    return found


def test_every_git_call_of_faultlens_goes_through_the_safe_git_layer():
    """No module but gitcore starts `git` from an argv of its own."""
    allowed = {Path("recipes/fixes/gitcore.py"), Path("cli/demo.py")}  # the demo makes its repo
    offenders = []
    skipped = {"tests", "benchmarks", "fuzz", "eval"}
    sources = [p for p in _own_python_files() if p.relative_to(ROOT).parts[0] not in skipped]
    assert len(sources) > 50, "the walk found almost nothing"
    for path in sources:
        rel = path.relative_to(ROOT)
        if rel in allowed:
            continue
        tree = ast.parse(path.read_text(), str(rel))
        for node in ast.walk(tree):
            if isinstance(node, ast.List) and node.elts:
                first = node.elts[0]
                if isinstance(first, ast.Constant) and first.value == "git":
                    offenders.append(f"{rel}:{node.lineno}")
    assert offenders == []
