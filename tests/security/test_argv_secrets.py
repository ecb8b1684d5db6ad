"""Secrets on the command line are never stored or shown raw (issue 19,
items 4, 5, 24 and 31).

`faultlens run -- env DATABASE_URL=postgres://u:PW@h/db API_TOKEN=T cmd
-H 'Authorization: Bearer B' --user u:P2` must leave none of PW, T, B, P2 in
the ledger, the events and logs, `faultlens status`, the summary or the box;
the server must show none in a message, a title, the failure listing, a
diagnostic, a run log's name or content.  What runs keeps the raw argv in
memory; a stored (redacted) command that held a secret is never run again.
Run logs are named by a hash of their store key: `make a` and `make-a` get
two logs, and the name says nothing of the command.  A secret a scanner
names is masked in the run log too, even when a line shows it before the
scanner names it.

The secrets are random per test, assembled at run time.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import string
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .lsp_raw import RawClient

FAULTLENS = [sys.executable, "-m", "faultlens.cli"]
ALNUM = string.ascii_letters + string.digits


def _rand(n: int) -> str:
    """Letters and digits (at least one of each), no known token shape."""
    while True:
        v = "".join(secrets.choice(ALNUM) for _ in range(n))
        if any(c.isdigit() for c in v) and any(c.isalpha() for c in v):
            return v


@pytest.fixture
def values() -> dict[str, str]:
    return {"db": _rand(14), "token": _rand(20), "bearer": _rand(32), "user": _rand(12)}


def _secret_argv(v: dict[str, str], *cmd: str) -> list[str]:
    return [
        "env",
        f"DATABASE_URL=postgres://app:{v['db']}@db.example.com/app",
        f"API_TOKEN={v['token']}",
        *cmd,
        "-H",
        f"Authorization: Bearer {v['bearer']}",
        "--user",
        f"deploy:{v['user']}",
    ]


def _assert_clean(text: str, v: dict[str, str], where: str) -> None:
    for name, value in v.items():
        assert value not in text, f"the {name} secret leaked into {where}"


def _walk_state(state: Path, v: dict[str, str]) -> list[Path]:
    """Every file under the state dir, names and bytes, holds no secret."""
    files = [p for p in state.rglob("*") if p.is_file()]
    assert files, f"nothing was written under {state}"
    for p in files:
        _assert_clean(str(p.relative_to(state)), v, f"the file name {p}")
        _assert_clean(p.read_bytes().decode("utf-8", "replace"), v, str(p))
    return files


def _faultlens(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*FAULTLENS, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


# -- the command line ----------------------------------------------------------------------
def test_faultlens_run_stores_and_shows_no_secret_of_its_command(tmp_path, values):
    script = tmp_path / "build.py"
    script.write_text("import sys\nprint('something went wrong', file=sys.stderr)\nsys.exit(3)\n")
    argv = _secret_argv(values, sys.executable, str(script))
    res = _faultlens("run", "--recover", "--task", "T-1", "--", *argv, cwd=tmp_path)
    assert res.returncode == 3, res.stderr
    assert "ERROR:" in res.stderr  # the escalation box, naming the command
    assert "API_TOKEN=" in res.stderr  # masked, not dropped
    _assert_clean(res.stderr, values, "faultlens run's summary and box")
    res = _faultlens("run", "--format", "json", "--", *argv, cwd=tmp_path)
    _assert_clean(res.stderr, values, "faultlens run --format json")
    for extra in ([], ["--box"], ["--json"]):
        out = _faultlens("status", *extra, cwd=tmp_path)
        assert out.returncode == 0 and "API_TOKEN=" in out.stdout
        _assert_clean(out.stdout + out.stderr, values, f"faultlens status {extra}")
    _walk_state(tmp_path / ".faultlens", values)


def _refused_failure(tmp_path: Path, values: dict[str, str]) -> str:
    """A transient failure (its recipe re-runs the command), found by a run
    whose command held secrets; its id."""
    script = tmp_path / "fetch.py"
    script.write_text("import socket\nsocket.create_connection(('127.0.0.1', 9))\n")
    argv = _secret_argv(values, sys.executable, str(script))
    res = _faultlens("run", "--format", "json", "--", *argv, cwd=tmp_path)
    summary = json.loads(res.stderr.strip().splitlines()[-1])
    (rec,) = [r for r in summary["records"] if r["failure_type"] == "infra"]
    return str(rec["id"])


def test_recover_refuses_a_stored_command_whose_secret_was_masked(tmp_path, values):
    fid = _refused_failure(tmp_path, values)
    res = _faultlens("recover", fid, cwd=tmp_path)
    assert res.returncode == 1
    assert res.stderr.count("\n") == 1 and "masked" in res.stderr, res.stderr
    assert "faultlens run --recover" in res.stderr
    status = json.loads(_faultlens("status", "--json", cwd=tmp_path).stdout)
    assert all(not t["attempts"] for t in status["tasks"])  # nothing was attempted
    dry = _faultlens("recover", "--dry-run", fid, cwd=tmp_path)
    assert dry.returncode == 0 and "Retry" in dry.stdout  # the plan can still be shown
    _assert_clean(res.stderr + dry.stdout, values, "faultlens recover")


def test_a_masked_argv_is_never_started(tmp_path):
    from faultlens.classifier.redact import redact_argv
    from faultlens.recipes.runner import spawn

    marker = tmp_path / "ran"
    stored = redact_argv(
        [sys.executable, "-c", f"open({str(marker)!r}, 'w')", "--token", "hunter2hunter2"]
    )
    why = spawn(stored, cwd=tmp_path, env=dict(os.environ))
    assert isinstance(why, str) and "masked secret" in why
    assert not marker.exists()


# -- run logs ----------------------------------------------------------------------------------
def test_run_logs_are_named_by_a_hash_of_their_key():
    from faultlens.server.app import run_log_name

    names = {run_log_name(k) for k in ("run:make a", "run:make-a", "run:make_a", "TASK-1")}
    assert len(names) == 4  # `make a` and `make-a` no longer share a log
    for name in names:
        assert re.fullmatch(r"[0-9a-f]{16}\.log", name)
    assert run_log_name("run:make a") == run_log_name("run:make a")  # a re-run replaces it


def test_server_runs_show_and_store_no_secret_of_their_command(tmp_path, values):
    ws = tmp_path / "ws"
    ws.mkdir()
    script = ws / "build.py"
    script.write_text("import sys\nprint('something went wrong')\nsys.exit(3)\n")
    argv = _secret_argv(values, sys.executable, str(script))
    c = RawClient(ws, env={**os.environ})
    try:
        c.initialize({"window": {"workDoneProgress": True}})  # progress titles too
        ran = c.request(
            "workspace/executeCommand",
            {"command": "faultlens.run", "arguments": [{"command": argv}]},
            timeout=120,
        )["result"]
        assert ran["failures"] >= 1
        # the same command as a client-captured output, named by a string
        c.notify(
            "faultlens/ingest",
            {"output": "something went wrong\n", "command": " ".join(argv), "exitCode": 3},
        )
        listing = c.request("faultlens/failures", {})["result"]["failures"]
        assert listing and all(f["task"].startswith("run:env") for f in listing)
        for f in listing:
            uris = [f["uri"]] + [r.get("file") or "" for r in f["record"]["related"]]
            for uri in uris:
                assert "env" not in Path(uri or "").name  # no command in a run log's name
    finally:
        c.close()
    sent = json.dumps(c.all)
    assert "API_TOKEN=" in sent  # the command is named, masked
    _assert_clean(sent, values, "the server's messages")
    _assert_clean(b"".join(c.stderr).decode("utf-8", "replace"), values, "the server's log")
    files = _walk_state(ws / ".faultlens", values)
    logs = [p for p in files if p.parent.name == "runs"]
    assert logs and all(re.fullmatch(r"[0-9a-f]{16}\.log", p.name) for p in logs)


def _scanner_output(secret: str) -> str:
    """gitleaks' and trufflehog's formats: a line shows the secret before
    the scanner names it (no known shape: only the naming tells)."""
    return "\n".join(
        [
            f"loading config value {secret} from deploy/app.env",
            "Finding:     MAILER = " + f'"{secret}"',
            f"Secret:      {secret}",
            "RuleID:      generic-api-key",
            "File:        deploy/app.env",
            "Line:        2",
            "",
            "Found unverified result 🐷🔑❓",
            "Detector Type: Mailer",
            "Decoder Type: PLAIN",
            f"Raw result: {secret}",
            "File: deploy/app.env",
            "Line: 2",
            "",
        ]
    )


def test_a_secret_a_scanner_names_is_masked_in_every_run_log(tmp_path):
    secret = "".join(secrets.choice(string.ascii_lowercase) for _ in range(30))
    ws = tmp_path / "ws"
    ws.mkdir()
    script = ws / "scan.py"
    script.write_text(f"import sys\nsys.stdout.write({_scanner_output(secret)!r})\nsys.exit(1)\n")
    c = RawClient(ws, env={**os.environ})
    try:
        c.initialize()
        c.request(
            "workspace/executeCommand",
            {"command": "faultlens.run", "arguments": [{"command": [sys.executable, str(script)]}]},
            timeout=120,
        )
        c.notify(
            "faultlens/ingest", {"output": _scanner_output(secret), "task": "CI", "exitCode": 1}
        )
        runs = ws / ".faultlens" / "runs"
        deadline = time.monotonic() + 60  # the ingest's log is saved after publishing
        while len(list(runs.glob("*.log"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        listing = c.request("faultlens/failures", {})["result"]["failures"]
        assert {f["task"] for f in listing if f["record"]["failure_type"] == "trust_gate"} == {
            "CI",
            f"run:{sys.executable} {script}",
        }
    finally:
        c.close()
    logs = sorted(runs.glob("*.log"))
    assert len(logs) == 2
    for log in logs:
        text = log.read_text(encoding="utf-8")
        assert "Raw result:" in text and text.count("\n") == _scanner_output(secret).count("\n")
        assert secret not in text and secret[:8] not in text, log.name


def test_a_shell_style_assignment_taken_for_the_program_is_not_shown(tmp_path, values):
    """`faultlens run -- API_TOKEN=x make` (no `env`): the program cannot be
    started, and the message naming it masks the value."""
    res = _faultlens("run", "--", f"API_TOKEN={values['token']}", "make", cwd=tmp_path)
    assert res.returncode == 127 and "cannot run API_TOKEN=" in res.stderr
    _assert_clean(res.stderr, values, "the error message")
    _walk_state(tmp_path / ".faultlens", values)
