"""Hook payloads of every agent, of any shape (issue 27: the new fronts).

Hypothesis draws payloads from the captured ones of Claude Code, Codex and
Gemini CLI with hostile values in their fields: a `cwd` of `/`, of a folder
outside the project, of one that does not exist, of the wrong type; commands,
outputs and tool responses of any JSON shape and depth; exit codes of any
size.  The hook runs in this process under the audit hook of
test_property_hostile.py (every open, write, rename, removal and process):
it answers with exit 0 or 1, says at most one line on stderr (never a
traceback), starts no process, and writes nothing outside the agent's
project (and faultlens's own start-up cache, SECURITY.md).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .test_property_hostile import WATCH, _violations

PAYLOADS = Path(__file__).resolve().parents[1] / "agents" / "payloads"
CAPTURED = {
    "claude-code": ["claude-code-PostToolUseFailure-tsc", "claude-code-PostToolUse-ls"],
    "codex": ["codex-PostToolUse-shell"],
    "gemini": ["gemini-AfterTool-tsc"],
}

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
_outputs = st.sampled_from(
    [
        "src/a.ts(3,1): error TS2304: Cannot find name 'X'.",
        "FAILED tests/t.py::test_x - assert 1 == 2",
        "../../etc/passwd:1: error: boom",
        "/etc/shadow:1:1: error: nope",
        "Exit code 99999999999999999999999\nerror",
        "Exit code 1\n" + "E   " * 50,
    ]
) | st.text(max_size=200)


def _cwds(ws: Path, outside: Path) -> st.SearchStrategy[Any]:
    return (
        st.sampled_from(
            [
                "/",
                str(outside),
                str(ws),
                str(ws / "src"),
                str(ws / "gone"),
                "../..",
                "",
                "/proc/self",
            ]
        )
        | _json
    )


@st.composite
def payloads(draw: st.DrawFn, ws: Path, outside: Path) -> tuple[str, str]:
    agent = draw(st.sampled_from(sorted(CAPTURED)))
    name = draw(st.sampled_from(CAPTURED[agent]))
    data: dict[str, Any] = json.loads((PAYLOADS / f"{name}.json").read_text())
    data["cwd"] = draw(_cwds(ws, outside))
    for key in draw(st.sets(st.sampled_from(["tool_input", "tool_response", "error"]))):
        data[key] = draw(st.one_of(_json, _outputs, st.fixed_dictionaries({"command": _json})))
    if draw(st.booleans()):
        data.setdefault("tool_response", {})
        if isinstance(data["tool_response"], dict):
            data["tool_response"]["exit_code"] = draw(st.integers())
            data["tool_response"]["stdout"] = draw(_outputs)
    raw = json.dumps(data)
    if draw(st.integers(0, 9)) == 0:
        raw = "[" * draw(st.integers(1000, 50_000)) + raw  # nested too deeply / not JSON
    return agent, raw


def _hook(agent: str, raw: str, session: Path, project: Path) -> tuple[int, str]:
    from faultlens.cli.hook import run

    stdin = io.TextIOWrapper(io.BytesIO(raw.encode()), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    env = {"CLAUDE_PROJECT_DIR": str(project), "GEMINI_PROJECT_DIR": str(project)}
    old_env = {k: os.environ.get(k) for k in env}
    old_cwd, old_stdin = os.getcwd(), sys.stdin
    os.environ.update(env)
    os.chdir(session)
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run(argparse.Namespace(agent=agent, state_dir=None))
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    if out.getvalue():
        json.loads(out.getvalue())  # the agent's documented JSON
    return code, err.getvalue()


_world: dict[str, Path] = {}


def _paths(tmp: Path) -> tuple[Path, Path]:
    if not _world:
        ws = tmp / "project"
        (ws / ".git").mkdir(parents=True)
        (ws / "src").mkdir()
        (ws / "src" / "a.ts").write_text("let a: X = 1;\n")
        outside = tmp / "elsewhere"
        outside.mkdir()
        (outside / ".faultlens.toml").write_text('disable = ["*"]\n')
        _world.update(ws=ws, outside=outside)
    return _world["ws"], _world["outside"]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_no_hook_payload_escapes_the_project_or_gets_a_traceback(tmp_path_factory, data):
    ws, outside = _paths(tmp_path_factory.getbasetemp() / "hook-world")
    agent, raw = data.draw(payloads(ws, outside))
    WATCH.events.clear()
    WATCH.thread = threading.get_ident()
    WATCH.armed = True
    try:
        code, err = _hook(agent, raw, outside, ws)
    finally:
        WATCH.armed = False
    assert code in (0, 1), err
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 1, err
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    roots = [os.path.realpath(ws), os.path.realpath(os.path.join(cache, "faultlens"))]
    assert _violations(roots) == []
    assert sorted(p.name for p in outside.iterdir()) == [".faultlens.toml"]
