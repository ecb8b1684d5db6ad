"""The same output gives the same answer from every front (issue 25's "Done when").

Five real outputs captured in tests/samples (a ruff SARIF report, a pytest
JUnit file, tsc, pytest, a CI job log) go through `faultlens classify`,
`faultlens run`, the language server's `faultlens/ingest` and `faultlens.run`,
the MCP `classify` and `run` tools (the mcp SDK's own client over stdio) and
the Claude Code hook; each front's (category, file, line) set is the same, and
is the set the sample's expected.json names.

Each sample is copied into one git work tree (a folder each); a command
"printing it" is `python show.py <file> <status>`, a script of the test's
own that writes the file's bytes and exits with the captured status.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from pytest_lsp import LanguageClient

from faultlens.recipes import Ledger, Workspace

from .conftest import CONFIG, SAMPLES, command, start, stop, until

pytestmark = pytest.mark.asyncio(loop_scope="module")

# (folder in the work tree, sample, output file, the exit status it was captured with)
CASES = [
    ("sarif", SAMPLES / "structured" / "ruff-sarif", "output.sarif", 1),
    ("junit", SAMPLES / "structured" / "pytest-junit", "output.xml", 1),
    ("tsc", SAMPLES / "typescript" / "tsc-plain-ts2304", "output.txt", 2),
    ("pytest", SAMPLES / "python_test" / "pytest-long-failures", "output.txt", 1),
    ("ci", SAMPLES / "mixed" / "ci-run", "output.txt", 1),
]
IDS = [c[0] for c in CASES]
SHOW = (
    "import sys\n"
    "sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())\n"
    "sys.stdout.flush()\n"
    "sys.exit(int(sys.argv[2]))\n"
)
Found = set[tuple[str, str | None, int | None]]


def found(records: list[dict[str, Any]]) -> Found:
    return {(r["failure_type"], r.get("source_file"), r.get("source_line")) for r in records}


def expected(sample: Path) -> Found:
    return found(json.loads((sample / "expected.json").read_text()))


def printing(root: Path, name: str, out: str, code: int) -> list[str]:
    """The command that prints the captured output (run in the case's folder)."""
    return [sys.executable, str(root / "show.py"), out, str(code)]


def faultlens(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "faultlens.cli", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("parity") / "ws"
    root.mkdir()
    for name, sample, _, _ in CASES:
        shutil.copytree(sample, root / name, ignore=shutil.ignore_patterns(".faultlens"))
    (root / "show.py").write_text(SHOW)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    lsp_client.root = root  # type: ignore[attr-defined]
    await start(lsp_client, root)
    yield
    await stop(lsp_client)


@pytest.fixture
def root(client: LanguageClient) -> Path:
    return client.root  # type: ignore[attr-defined]


def _last_run_records(root: Path, task: str) -> Found:
    ledger = Ledger.open(Workspace.at(root))
    run = ledger.last_run(task)
    assert run is not None, f"no run recorded for {task}"
    return found(ledger.run_records(run.id))


@asynccontextmanager
async def mcp_session(root: Path) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "faultlens.cli", "mcp", "--cwd", str(root), "--agent", "parity"],
        cwd=str(root),
        # the SDK passes on only a few variables by default: the suite's
        # XDG_STATE_HOME (the machine key that signs the shared ledger) among the rest
        env=dict(os.environ),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        yield s


async def _tool(s: ClientSession, name: str, args: dict[str, Any]) -> dict[str, Any]:
    res = await s.call_tool(name, args)
    assert not res.is_error, res.content
    assert res.structured_content is not None
    return res.structured_content


@pytest.mark.parametrize(("name", "sample", "out", "code"), CASES, ids=IDS)
async def test_every_front_gives_the_same_located_failures(
    client: LanguageClient, root: Path, name: str, sample: Path, out: str, code: int
) -> None:
    want = expected(sample)
    assert want, "the sample names what it holds"
    folder = root / name
    argv = printing(root, name, out, code)
    text = (folder / out).read_text()
    answers: dict[str, Found] = {}

    res = faultlens(
        "classify", out, "--format", "json", "--exit-code", str(code),
        "--command", shlex.join(argv), cwd=folder,
    )  # fmt: skip
    assert res.returncode == 1, res.stderr
    answers["cli classify"] = found(json.loads(res.stdout))

    res = faultlens("run", "--format", "json", "--task", f"cli-{name}", "--", *argv, cwd=folder)
    assert res.returncode == code, res.stderr
    summary = json.loads(res.stderr.strip().splitlines()[-1])
    answers["cli run"] = found(summary["records"])

    client.protocol.notify(
        "faultlens/ingest",
        {"output": text, "command": argv, "cwd": name, "exitCode": code, "task": f"ingest-{name}"},
    )
    await until(
        lambda: _stored(root, f"ingest-{name}"), timeout=60, what=f"the ingest of {name} stored"
    )
    answers["server ingest"] = _last_run_records(root, f"ingest-{name}")

    result = await command(
        client, "faultlens.run", {"command": argv, "cwd": name, "task": f"server-{name}"}
    )
    assert result["exitCode"] == code
    await until(
        lambda: _stored(root, f"server-{name}"), timeout=60, what=f"the run of {name} stored"
    )
    answers["server run"] = _last_run_records(root, f"server-{name}")

    async with mcp_session(root) as s:
        got = await _tool(
            s, "classify", {"output": text, "cwd": name, "command": argv, "exit_code": code}
        )
        answers["mcp classify"] = found(got["failures"])
        got = await _tool(s, "run", {"command": argv, "cwd": name, "task": f"mcp-{name}"})
        assert got["exit_code"] == code
        answers["mcp run"] = found(got["failures"])

    hook_payload = {
        "session_id": f"parity-{name}",
        "cwd": str(folder),
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": shlex.join(argv)},
        "tool_use_id": "toolu_1",
        "error": f"Exit code {code}\n{text}",
        "is_interrupt": False,
    }
    res = faultlens("hook", "claude-code", cwd=folder, stdin=json.dumps(hook_payload))
    assert res.returncode == 0, res.stderr
    answers["hook"] = _last_run_records(root, f"claude-code-parity-{name}")

    assert answers == dict.fromkeys(answers, want)


def _stored(root: Path, task: str) -> bool:
    path = root / ".faultlens" / "ledger.sqlite3"
    if not path.is_file():
        return False
    run = Ledger.open(Workspace.at(root)).last_run(task)
    return run is not None and run.exit_code is not None
