"""No secret in any output or state file: a property test over a generated
corpus (tests/security/secret_corpus.py).  Each example draws a secret of
every common form into a failing command's output, and secrets of every
command-line form into the command itself, then runs it through everything
faultlens writes or shows:

* `faultlens classify` in each format (text table, json, jsonl, sarif,
  github), with the command given by `--command`;
* `faultlens run --recover` (the run's own messages, the summary in text and
  JSON, the escalation boxes) and `faultlens status` (text, boxes, JSON);
* the server: `faultlens.run` and `faultlens/ingest`, every message it sent
  (diagnostics, hovers, the `faultlens/failures` listing, logMessages,
  progress), its stderr log;
* every file under `.faultlens/` (ledger, events, session and error logs,
  run logs), names and bytes.

The command's own output, which `faultlens run` passes through unchanged
like `tee`, is the only place a secret may appear.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from .lsp_raw import RawClient
from .secret_corpus import ARGV_FORMS, FORMS, Sample, fragments

FORMATS = ("text", "json", "jsonl", "sarif", "github")
SLOW = settings(
    max_examples=2,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),  # a shrink would take many minutes
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

corpora = st.fixed_dictionaries(dict(FORMS))
command_corpora = st.fixed_dictionaries(dict(ARGV_FORMS))


def _output(corpus: dict[str, Sample]) -> str:
    """A failing test run whose failures carry every secret, where rules read."""
    lines = ["============================= FAILURES ============================="]
    for i, (name, sample) in enumerate(sorted(corpus.items())):
        head, *rest = sample.text.splitlines()
        lines.append(f"FAILED tests/test_forms.py::test_{i} - AssertionError: {head}")
        lines += rest
        lines.append(f"E       AssertionError: {name}: {head}")
    lines += ["=========== 23 failed in 0.42s ===========", "make: *** [Makefile:3: test] Error 1"]
    return "\n".join(lines) + "\n"


def _command(commands: dict[str, Sample], script: Path) -> list[str]:
    """One command line holding every command-line secret form (each form's
    own command line becomes arguments of the script: `... curl -H ... mysql -pX`)."""
    env = [a for s in commands.values() if s.argv[0] == "env" for a in s.argv[1:] if "=" in a]
    args: list[str] = []
    for s in commands.values():
        if s.argv[0] != "env":
            args += s.argv
    return ["env", *env, sys.executable, str(script), *args]


def _secrets(corpus: dict[str, Sample], commands: dict[str, Sample]) -> list[str]:
    out = [f for s in corpus.values() for f in fragments(s)]
    return out + [s.secret for s in commands.values()]


def _clean(text: str, secrets: list[str], where: str) -> None:
    for s in secrets:
        assert s not in text, f"a secret ({s[:4]}..., {len(s)} chars) leaked into {where}"


def _walk(state: Path, secrets: list[str]) -> None:
    files = [p for p in state.rglob("*") if p.is_file()]
    assert files
    for p in files:
        _clean(str(p.relative_to(state)), secrets, f"the name of {p}")
        _clean(p.read_bytes().decode("utf-8", "replace"), secrets, str(p))


def _cli(*args: str) -> str:
    from faultlens.cli.main import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        main(list(args))
    return buf.getvalue()


def _workspace(root: Path, corpus: dict[str, Sample]) -> Path:
    (root / ".git").mkdir()  # the workspace root
    script = root / "tests.py"
    script.write_text(
        "import sys\n"
        "if '--exit-only' not in sys.argv:\n"
        f"    sys.stdout.write({_output(corpus)!r})\n"
        "sys.exit(1)\n"
    )
    return script


@SLOW
@given(corpus=corpora, commands=command_corpora)
def test_the_cli_writes_and_shows_no_secret(corpus, commands):
    from faultlens.cli.run import RunReport, run_command, summary_json, summary_text, workspace_for
    from faultlens.cli.status import render
    from faultlens.recipes import Ledger

    secrets = _secrets(corpus, commands)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        script = _workspace(root, corpus)
        argv = _command(commands, script)
        log = root / "ci.log"
        log.write_text(_output(corpus))
        for fmt in FORMATS:
            shown = _cli(
                "classify", "--format", fmt, "--cwd", tmp, "--command", " ".join(argv), str(log)
            )
            assert shown.strip()
            _clean(shown, secrets, f"faultlens classify --format {fmt}")
        ws = workspace_for(type("Args", (), {"workspace": tmp, "state_dir": None})(), root)
        said = ""
        # Every failure classified and logged; then a recovery (its escalation
        # box names the command) on a run whose output nothing explains.
        for cmd, recover in ((argv, False), ([*argv[:-1], "--exit-only"], True)):
            out, err_bytes, err = io.BytesIO(), io.BytesIO(), io.StringIO()
            report: RunReport = run_command(
                cmd,
                cwd=root,
                ws=ws,
                task="T-1",
                recover=recover,
                out=out,
                err_bytes=err_bytes,
                err=err,
            )
            assert report.records
            said += (
                err.getvalue() + summary_text(report, recover) + json.dumps(summary_json(report))
            )
        assert "ERROR:" in said and "API_TOKEN=" in said  # a box, naming the command
        _clean(said, secrets, "faultlens run's messages, summary and boxes")
        status = Ledger.open(ws).status()
        _clean(render(status, True) + json.dumps(status), secrets, "faultlens status")
        _walk(root / ".faultlens", secrets)


PROGRESS = {"window": {"workDoneProgress": True}}  # so progress titles are sent too


@SLOW
@given(corpus=corpora, commands=command_corpora)
def test_the_server_writes_and_shows_no_secret(corpus, commands):
    secrets = _secrets(corpus, commands)
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp)
        script = _workspace(ws, corpus)
        argv = _command(commands, script)
        c = RawClient(ws, env={**os.environ})
        try:
            c.initialize(PROGRESS)
            ran = c.request(
                "workspace/executeCommand",
                {"command": "faultlens.run", "arguments": [{"command": argv, "task": "T-2"}]},
                timeout=180,
            )["result"]
            assert ran["failures"] >= 1
            c.notify(
                "faultlens/ingest",
                {"output": _output(corpus), "command": argv, "task": "CI", "exitCode": 1},
            )
            for _ in range(100):  # the ingest's failures are listed once it is classified
                listing = c.request("faultlens/failures", {})["result"]["failures"]
                if any(f["task"] == "CI" for f in listing):
                    break
            for f in listing:
                if f["uri"] and f["line"] is not None:
                    c.request(
                        "textDocument/hover",
                        {
                            "textDocument": {"uri": f["uri"]},
                            "position": {"line": f["line"], "character": 0},
                        },
                    )
        finally:
            c.close()
        _clean(json.dumps(c.all, ensure_ascii=False), secrets, "the server's messages")
        _clean(b"".join(c.stderr).decode("utf-8", "replace"), secrets, "the server's log")
        _walk(ws / ".faultlens", secrets)
