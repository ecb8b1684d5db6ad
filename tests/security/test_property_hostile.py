"""Property tests (hypothesis): hostile output in a hostile workspace never
makes faultlens read, write or run anything outside the workspace roots.

The output is generated from the line formats of real tools (tsc, gcc,
Python tracebacks, pytest, go test, cargo, node, ESLint, MCP and plugin
errors) with the paths, test ids, module and package names a hostile
dependency or test could print: `..` chains, absolute paths (/etc/passwd,
/dev/zero, a folder next to the workspace), Windows and file:// forms, NUL,
`.git/hooks/...`, and the special files the workspace holds (a FIFO, a
symlink to /dev/zero, a symlink out of the workspace, a symlink to `.git`, a
1.5 GB sparse file).  Each output goes the way the editor takes it:
classified, placed (the server reads the text of each file that shows a
failure), offered as code actions (the recipe engine plans a fix) and
explained on hover.  Meanwhile a Python audit hook records every file opened,
written, renamed, removed, every folder made and every process started.

Invariants:

* no file outside the roots (and Python's own installation) is opened;
* nothing outside the roots is written, renamed, removed or made;
* no process is started while planning, and every planned command runs in a
  folder inside the roots, with every path-like argument inside them;
* every planned edit lands inside a root, never under `.git`.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pygls.workspace import PositionCodec

from faultlens.classifier import Options, classify_text
from faultlens.recipes import Plan, RecipeSettings, Workspace

from .conftest import ROOT

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)
BIG = 1536 * 1024 * 1024


# -- the audit hook ---------------------------------------------------------------------
class Watch:
    """What the process did while armed (from one thread: the test's)."""

    def __init__(self) -> None:
        self.armed = False
        self.thread: int | None = None
        self.events: list[tuple[str, tuple[Any, ...]]] = []


WATCH = Watch()
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_EVENTS = {
    "open",
    "os.rename",
    "os.replace",
    "os.remove",
    "os.rmdir",
    "os.mkdir",
    "os.symlink",
    "os.link",
    "os.truncate",
    "os.chmod",
    "shutil.rmtree",
    "shutil.copyfile",
    "subprocess.Popen",
    "os.posix_spawn",
    "os.exec",
    "os.system",
    "sqlite3.connect",
}


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if WATCH.armed and event in _EVENTS and threading.get_ident() == WATCH.thread:
        WATCH.events.append((event, args))


sys.addaudithook(_hook)  # cannot be removed; it records nothing unless armed


def _real(p: Any) -> str | None:
    if isinstance(p, bytes):
        p = os.fsdecode(p)
    if not isinstance(p, str | os.PathLike):
        return None  # a file descriptor
    p = os.fspath(p)
    if "\x00" in p or not os.path.isabs(p):
        return None  # refused by the OS / relative to a dir_fd (statefs): not judged here
    return os.path.realpath(p)


def _under(path: str, bases: list[str]) -> bool:
    return any(path == b or path.startswith(b.rstrip("/") + "/") for b in bases)


def _python_bases() -> list[str]:
    bases = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(ROOT)}
    bases |= {p for p in sys.path if p and os.path.isdir(p)}
    state = os.environ.get("XDG_STATE_HOME")  # the machine key (tests/conftest.py sets it)
    if state:
        bases.add(state)
    return [*sorted(os.path.realpath(b) for b in bases), "/dev/null", "/dev/urandom", "/proc/self"]


def _machine_key_dir() -> list[str]:
    """Where statesafe's per-machine key and the start-up caches
    (classifier/cachefile.py: compiled patterns, the detectors) live: outside
    any workspace, by design."""
    home = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return [os.path.realpath(os.path.join(d, "faultlens")) for d in (home, cache)]


def _probe_dir(path: object) -> bool:
    """The empty folder a name index's toolchain probe runs in
    (recipes/names/probe.py: a fixed argv, `node -e <probe>`, `go list std`, the
    interpreter's own `-I -c`; nothing of the output or the workspace in it)."""
    real = _real(path) if isinstance(path, str | os.PathLike) else None
    if real is None:
        return False
    tmp = os.path.realpath(tempfile.gettempdir())
    rel = os.path.relpath(real, tmp)
    return not rel.startswith("..") and rel.split(os.sep)[0].startswith("faultlens-probe-")


def _violations(roots: list[str]) -> list[str]:
    allowed_reads = roots + _python_bases() + _machine_key_dir()
    writable = [*roots, *_machine_key_dir(), "/dev/null"]
    out = []
    for event, args in WATCH.events:
        if event == "open":
            path, mode, flags = [*args, None, None, None][:3]
            real = _real(path)
            if real is None:
                continue
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS
            )
            if _probe_dir(real):
                continue
            if not _under(real, writable if writes else allowed_reads):
                out.append(f"{'wrote' if writes else 'read'} {path!r} -> {real}")
        elif event in ("subprocess.Popen", "os.posix_spawn", "os.exec", "os.system"):
            if event == "subprocess.Popen" and len(args) > 2 and _probe_dir(args[2]):
                continue  # a name index's toolchain probe, in its own empty folder
            out.append(f"started a process while planning: {args!r}")
        elif event == "sqlite3.connect":
            real = _real(args[0])
            if real is not None and not _under(real, roots):
                out.append(f"opened a database outside the roots: {args[0]!r}")
        else:  # rename, remove, mkdir, symlink, chmod ...
            for a in args[:2]:
                real = _real(a)
                if real is not None and not _under(real, writable) and not _probe_dir(real):
                    out.append(f"{event} outside the roots: {a!r}")
    return out


# -- the hostile workspace ----------------------------------------------------------------
@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("hostile")
    ws = base / "ws"
    outside = base / "outside"
    for d in (ws / "src", ws / "tests", ws / ".git" / "hooks", outside / "src"):
        d.mkdir(parents=True)
    (outside / "secret.ts").write_text("export const key = 'outside';\n")
    (outside / "src" / "app.ts").write_text("let a = b;\n")
    (ws / "src" / "app.ts").write_text("let a = b;\nlet c = d;\n")
    (ws / "src" / "util.c").write_text('int f(void) {\n\treturn "é日本" + missing;\n}\n')
    (ws / "app.py").write_text("import missing_mod\n")
    (ws / "src" / "models").mkdir()
    (ws / "src" / "models" / "user.ts").write_text("export interface UserProfile { id: string }\n")
    (ws / "tests" / "test_x.py").write_text("def test_x():\n    assert 1 == 2\n")
    (ws / "package.json").write_text('{"name": "w", "dependencies": {"left-pad": "1"}}\n')
    (ws / "pyproject.toml").write_text('[project]\nname = "w"\ndependencies = ["requests"]\n')
    (ws / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    os.mkfifo(ws / "src" / "pipe.ts")
    (ws / "src" / "zero.c").symlink_to("/dev/zero")
    (ws / "src" / "out.ts").symlink_to(outside / "secret.ts")
    (ws / "src" / "outdir").symlink_to(outside, target_is_directory=True)
    (ws / "gl").symlink_to(ws / ".git", target_is_directory=True)
    with open(ws / "src" / "big.py", "wb") as fh:
        fh.truncate(BIG)
    return {"base": base, "ws": ws, "outside": outside}


OUTSIDE = "@OUTSIDE@"  # replaced by the folder next to the workspace
HOSTILE_PATHS = [
    "src/app.ts",
    "src/app.ts",
    "tests/test_x.py",
    "src/pipe.ts",
    "src/zero.c",
    "src/big.py",
    "src/out.ts",
    "src/outdir/secret.ts",
    "src/outdir/src/app.ts",
    "gl/hooks/pre-commit",
    ".git/hooks/pre-commit",
    "../outside/secret.ts",
    "src/../../outside/secret.ts",
    "../../../../../../etc/passwd",
    "/etc/passwd",
    "/etc/shadow",
    "/dev/zero",
    "/proc/self/environ",
    f"{OUTSIDE}/secret.ts",
    f"file://{OUTSIDE}/secret.ts",
    "D:\\a\\..\\..\\..\\outside\\secret.ts",
    "C:/Windows/System32/drivers/etc/hosts",
    "~/.bashrc",
    "src/app.ts\x00.c",
    "a" * 300 + "/" + "b" * 300 + ".ts",
]


NAMES = st.sampled_from(
    [
        "x",
        "../../x",
        "../../../../tmp/pwned",
        "/etc/passwd",
        "-oProxyCommand=x",
        "--upload-pack=x",
        "os; touch pwned",
        "$(touch pwned)",
        "left-pad",
        "requests",
        "missing_mod",
        "UserProfile",
        "x",
        "..",
        "a\x00b",
    ]
)


def _reports(path: str, name: str, other: str) -> list[list[str]]:
    """One failure report in each of several real tools' formats (the lines a
    report takes), naming `path`, `name` and `other`."""
    return [
        [f"{path}(1,9): error TS2304: Cannot find name '{name}'."],
        [f"{path}:2:12: error: ‘{name}’ undeclared (first use in this function)"],
        [
            "Traceback (most recent call last):",
            f'  File "{path}", line 1, in <module>',
            f"    import {name}",
            f"ModuleNotFoundError: No module named '{name}'",
        ],
        [f"FAILED {path}::test_{name} - AssertionError: assert 1 == 2"],
        [f"--- FAIL: Test{name} (0.00s)", f"    {path}:3: boom", f"FAIL\t{other}\t0.01s"],
        [f"FAILED {other}::test_{name} - AssertionError"],
        [f"error[E0425]: cannot find value `{name}` in this scope", f" --> {path}:2:9"],
        [f"Error: Cannot find module '{name}'", f"    at Object.<anonymous> ({path}:1:1)"],
        [path, f"  1:1  error  '{name}' is not defined  no-undef"],
        [f'MCP server "{name}": failed to start: spawn {path} ENOENT'],
        [f"[plugin {name}] failed to load manifest {path}: Unexpected token"],
    ]


@st.composite
def outputs(draw: st.DrawFn, paths: list[str]) -> str:
    """Up to five failure reports, each of one tool, naming hostile things."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        path, name, other = draw(st.sampled_from(paths)), draw(NAMES), draw(NAMES)
        lines += draw(st.sampled_from(_reports(path, name, other)))
    return "\n".join(lines) + "\n"


# -- the checks on plans -------------------------------------------------------------------
def _inside(path: str, roots: list[str]) -> bool:
    return _under(os.path.realpath(path), roots)


def _check_plan(p: Plan, ws: Workspace, roots: list[str]) -> list[str]:
    problems = []
    for e in p.edits:
        target = os.path.realpath(ws.root / e.path)
        if not _under(target, roots) or ".git" in Path(target).parts:
            problems.append(f"edit outside the roots or in .git: {e.path!r}")
    steps = [*p.commands, *([p.verify] if p.verify else [])]
    for step in steps:
        cwd = os.path.join(ws.root, step.cwd or ".")
        if not _inside(cwd, roots):
            problems.append(f"command runs outside the roots: cwd {step.cwd!r}")
        for arg in step.argv[1:]:
            value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
            parts = Path(value.split("::")[0]).parts
            if ".." in parts or value.startswith("/"):
                where = value.split("::")[0]
                if not _inside(os.path.join(cwd, where), roots) and not _python_path(where):
                    problems.append(f"argument outside the roots: {step.argv!r}")
    return problems


def _python_path(value: str) -> bool:
    return _under(os.path.realpath(value), _python_bases())


@pytest.fixture(scope="module")
def server(world: dict[str, Path]) -> Iterator[Any]:
    from faultlens.server.assemble import create_server

    old = os.getcwd()
    os.chdir(world["ws"])  # the server without a client takes its cwd as the root
    try:
        ls = create_server()
        assert ls.root == world["ws"]
        yield ls
    finally:
        os.chdir(old)


@given(text=outputs(HOSTILE_PATHS))
@example(text="--- FAIL: Testx (0.00s)\n    src/app.ts:3: boom\nFAIL\t../../x\t0.01s\n")
@example(text="FAILED ../../../../tmp/pwned/test_x.py::test_x - AssertionError\n")
@example(text="src/outdir/secret.ts(1,9): error TS2304: Cannot find name 'UserProfile'.\n")
@example(text="gl/hooks/pre-commit:2:12: error: ‘x’ undeclared (first use in this function)\n")
@example(text="ModuleNotFoundError: No module named '../../x'\n")
@SETTINGS
def test_hostile_output_never_reads_writes_or_runs_outside_the_roots(world, server, text):
    from faultlens.server import actions, convert
    from faultlens.server.features import hover_text

    ws_path = world["ws"]
    roots = [os.path.realpath(ws_path)]
    text = text.replace(OUTSIDE, str(world["outside"]))
    ws = Workspace(roots=[ws_path], settings=RecipeSettings(sleep=lambda s: None))
    WATCH.events.clear()
    WATCH.thread = threading.get_ident()
    WATCH.armed = True
    problems: list[str] = []
    try:
        records = classify_text(text, Options(cwd=str(ws_path), exit_code=1))
        for entry in server.place_all(records, ws_path):
            if entry.placement is not None:
                lines = server._disk_lines(entry.placement.path) or ["\n"]
                convert.diagnostic_json(entry, lines, PositionCodec(), recipe_href=None)
            offer = actions.offer(entry.record, "t", ws, None, ".")
            print(
                "STAT",
                entry.record.failure_type,
                type(offer.plan).__name__,
                getattr(offer.plan, "reason", "")[:80]
                if offer.plan is not None and not isinstance(offer.plan, Plan)
                else "",
            )
            if isinstance(offer.plan, Plan):
                problems += _check_plan(offer.plan, ws, roots)
            hover_text(server, entry.record, ws)
    finally:
        WATCH.armed = False
    problems += _violations(roots)
    assert not problems, "\n".join(dict.fromkeys(problems)) + f"\n--- output:\n{text}"


def test_the_hostile_workspace_holds_what_the_tests_expect(world):
    ws = world["ws"]
    assert stat.S_ISFIFO(os.lstat(ws / "src" / "pipe.ts").st_mode)
    assert os.path.realpath(ws / "src" / "zero.c") == "/dev/zero"
    assert (ws / "src" / "big.py").stat().st_size == BIG
    assert os.path.realpath(ws / "gl") == os.path.realpath(ws / ".git")
