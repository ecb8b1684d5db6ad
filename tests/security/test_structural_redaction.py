"""Every text faultlens stores or shows passes one redactor, whoever built it
(issue 27, item 1).

The hole: a test recipe's refusal reason joined the raw argv (``Why it
failed: `env DB_PASSWORD=… sh -c python3 -m unittest` is not a test runner
faultlens knows``), and from there the command's secret reached the box,
the events, the ledger, the logs, `status`, `explain`, the MCP results and
the editor's.  Now each of those has a sink (classifier/redact.py `scrub`):
the ledger's write connection, the event log's writer, the box's wrapper,
the CLI's standard streams, the logging handlers, the MCP tools' answers and
the language server's outgoing messages.  The tests give each sink raw text
built by nobody who remembered to redact it, and run the wrapped command of
the report end to end.  The property test draws wrapped commands (`env
VAR=secret`, `sh -c`, `sudo -E`, `docker run -e`) whose secrets are plain
lower-case words (no token shape: only their place says they are secret).
"""

from __future__ import annotations

import io
import json
import logging
import secrets
import sqlite3
import string
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FAULTLENS = [sys.executable, "-m", "faultlens.cli"]


def _word() -> str:
    return "".join(secrets.choice(string.ascii_lowercase) for _ in range(14))


def _walk(state: Path, secret: str) -> int:
    files = [p for p in state.rglob("*") if p.is_file()]
    for p in files:
        assert secret not in str(p.relative_to(state)), p
        assert secret not in p.read_bytes().decode("utf-8", "replace"), f"the secret is in {p}"
    return len(files)


def _failing_unittest(root: Path) -> None:
    (root / ".git").mkdir()
    (root / "test_fails.py").write_text(
        "import unittest\n\n"
        "class T(unittest.TestCase):\n"
        "    def test_one(self):\n"
        "        self.assertEqual(1, 2)\n"
    )


def test_a_wrapped_test_command_s_secret_reaches_no_store_and_no_output(tmp_path):
    secret = _word()
    _failing_unittest(tmp_path)
    cmd = ["env", f"DB_PASSWORD={secret}", "sh", "-c", f"{sys.executable} -m unittest"]
    ran = subprocess.run(
        [*FAULTLENS, "run", "--recover", "--task", "T-1", "--", *cmd],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    said = ran.stderr + ran.stdout.split("Traceback", 1)[-1]
    assert "not a test runner faultlens knows" in said  # the refusal reason is shown
    assert secret not in ran.stderr
    shown = ran.stderr
    for args in (("status",), ("status", "--json")):
        out = subprocess.run(
            [*FAULTLENS, *args], capture_output=True, text=True, timeout=120, cwd=tmp_path
        )
        shown += out.stdout + out.stderr
    db = sqlite3.connect(tmp_path / ".faultlens" / "ledger.sqlite3")
    ids = {r[0] for r in db.execute("SELECT failure_id FROM attempts")}
    db.close()
    for fid in ids:
        out = subprocess.run(
            [*FAULTLENS, "explain", fid], capture_output=True, text=True, timeout=120, cwd=tmp_path
        )
        shown += out.stdout + out.stderr
    assert secret not in shown
    assert _walk(tmp_path / ".faultlens", secret) >= 3


# -- each sink, given text nobody redacted -------------------------------------------------
def _raw(secret: str) -> str:
    return f"Why it failed: `env DB_PASSWORD={secret} sh -c python3 -m unittest` is refused"


def test_the_test_recipe_s_refusal_reason_names_the_command_redacted():
    from faultlens.recipes.fixes.test_runners import Refused, select

    secret = _word()
    cmd = ["env", f"DB_PASSWORD={secret}", "sh", "-c", "python3 -m unittest"]
    try:
        select([], cmd, lambda _path: True)
    except Refused as exc:
        assert "DB_PASSWORD=" in str(exc) and secret not in str(exc)
    else:
        raise AssertionError("a wrapped command is no runner faultlens knows")


def test_the_ledger_stores_no_secret_whoever_built_the_row(tmp_path):
    from faultlens.recipes import Ledger, Workspace

    secret = _word()
    (tmp_path / ".git").mkdir()
    ws = Workspace(roots=[tmp_path], state_dir=tmp_path / ".faultlens")
    ledger = Ledger.open(ws)
    ledger.set_task_status("T", "escalated", note=_raw(secret))
    with ledger._tx() as db:
        db.execute("CREATE TABLE IF NOT EXISTS probe(a TEXT, b TEXT)")
        db.execute(
            "INSERT INTO probe VALUES (?, ?)", (_raw(secret), json.dumps({"r": _raw(secret)}))
        )
    raw = (tmp_path / ".faultlens" / "ledger.sqlite3").read_bytes()
    wal = tmp_path / ".faultlens" / "ledger.sqlite3-wal"
    raw += wal.read_bytes() if wal.exists() else b""
    assert secret.encode() not in raw
    assert b"DB_PASSWORD=" in raw


def test_the_event_log_writes_no_secret_whoever_built_the_line(tmp_path):
    from faultlens.recipes import Workspace
    from faultlens.recipes.events import EventLog

    secret = _word()
    (tmp_path / ".git").mkdir()
    log = EventLog(Workspace(roots=[tmp_path], state_dir=tmp_path / ".faultlens"))
    log.info(_raw(secret), task="T")
    obj = log.notice("state.refused", _raw(secret), detail={"why": _raw(secret)})
    assert secret not in json.dumps(obj)
    assert _walk(tmp_path / ".faultlens", secret) >= 2


def test_the_box_frames_no_secret():
    from faultlens.recipes.box import BoxContent, render_box

    secret = _word()
    box = render_box(BoxContent("test", "T", error=_raw(secret), details=[_raw(secret)]))
    assert secret not in box.replace("║", "").replace("\n", "")
    assert "DB_PASSWORD=" in box


def test_the_cli_streams_print_no_secret():
    from faultlens.cli.shown import ScrubbedStream

    secret = _word()
    raw = io.StringIO()
    stream = ScrubbedStream(raw)
    stream.write(_raw(secret)[:30])  # a line written in pieces is masked whole
    stream.write(_raw(secret)[30:] + "\n")
    stream.flush()
    assert secret not in raw.getvalue() and "refused" in raw.getvalue()


def test_a_many_line_write_is_masked_line_by_line_and_a_key_block_whole():
    from faultlens.cli.shown import ScrubbedStream

    secret = _word()
    body = "".join(secrets.choice(string.ascii_letters) for _ in range(64))
    key = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\n"
    lines = [f'  "line {i}": "ok",\n' for i in range(500)]
    lines[250] = f'  "message": "{_raw(secret)}",\n'
    for text in ("".join(lines), "".join(lines) + key):  # one write, as json.dump makes
        raw = io.StringIO()
        stream = ScrubbedStream(raw)
        stream.write(text)
        stream.flush()
        shown = raw.getvalue()
        assert secret not in shown and body not in shown
        assert '"line 0": "ok",\n' in shown and '"line 499": "ok",\n' in shown


def test_log_records_carry_no_secret():
    from faultlens.cli.shown import ScrubbingFilter

    secret = _word()
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(ScrubbingFilter())
    log = logging.getLogger("faultlens.test.sink")
    log.addHandler(handler)
    try:
        log.warning("refused: %s", _raw(secret))
        try:
            raise ValueError(_raw(secret))
        except ValueError:
            log.exception("crashed")
    finally:
        log.removeHandler(handler)
    assert secret not in out.getvalue() and "refused" in out.getvalue()


def test_mcp_answers_carry_no_secret():
    from faultlens.agents.mcp_server import _guard
    from faultlens.agents.service import RecoverResult

    secret = _word()
    got = _guard(
        lambda: RecoverResult(failure_id="f", result="escalated", tried="", reason=_raw(secret))
    )
    assert isinstance(got, RecoverResult) and secret not in got.model_dump_json()


def test_language_server_messages_carry_no_secret_but_edits_keep_the_file_text():
    from faultlens.server.protocol import shown_message

    secret = _word()
    msg = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "message": _raw(secret),
            "command": ["env", f"DB_PASSWORD={secret}", "make"],
            "edit": {"changes": {"file:///a": [{"newText": f"password={secret}\n"}]}},
        },
    }
    shown = json.dumps(shown_message(msg))
    assert shown.count(secret) == 1  # only the edit's new text, the user's own file
    assert f'"newText": "password={secret}' in shown


# -- the property: wrapped commands, every sink ----------------------------------------------
_plain = st.text(string.ascii_lowercase, min_size=10, max_size=18)
_names = st.sampled_from(["DB_PASSWORD", "API_TOKEN", "PGPASSWORD", "SECRET_KEY", "AUTH_TOKEN"])
_inner = st.sampled_from(
    [["python3", "-m", "unittest"], ["pytest", "-x"], ["npm", "test"], ["make", "check"]]
)


@st.composite
def wrapped(draw: st.DrawFn) -> tuple[list[str], str]:
    secret = draw(_plain)
    name = draw(_names)
    inner = draw(_inner)
    form = draw(st.sampled_from(["env", "sh -c", "sudo -E", "docker -e", "option", "nested"]))
    if form == "env":
        cmd = ["env", f"{name}={secret}", *inner]
    elif form == "sh -c":
        cmd = ["sh", "-c", f"{name}={secret} {' '.join(inner)}"]
    elif form == "sudo -E":
        cmd = ["sudo", "-E", f"{name}={secret}", *inner]
    elif form == "docker -e":
        cmd = ["docker", "run", "--rm", "-e", f"{name}={secret}", "img:1", *inner]
    elif form == "option":
        cmd = [*inner, "--password", secret]
    else:
        cmd = ["env", f"{name}={secret}", "sh", "-c", f"sshpass -p {secret} {' '.join(inner)}"]
    return cmd, secret


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=wrapped())
def test_no_wrapped_command_s_secret_reaches_any_sink(drawn):
    from faultlens.agents.mcp_server import _shown
    from faultlens.classifier.redact import redact_argv, scrub, shown_command
    from faultlens.recipes.box import BoxContent, render_box
    from faultlens.recipes.ledger_sink import stored
    from faultlens.server.protocol import shown_message

    cmd, secret = drawn
    texts = [
        f"`{' '.join(cmd)}` is not a test runner faultlens knows",
        f"ran {cmd!r}",
        json.dumps({"reason": " ".join(cmd), "argv": cmd}),
    ]
    assert secret not in shown_command(cmd) and secret not in json.dumps(redact_argv(cmd))
    for text in texts:
        assert secret not in scrub(text), text
        assert secret not in str(stored(text))
        assert secret not in str(_shown(text))
        assert secret not in json.dumps(shown_message({"message": text, "command": cmd}))
        box = render_box(BoxContent("test", "T", error=text))
        assert secret not in box.replace("║", "").replace("\n", "").replace(" ", "")
