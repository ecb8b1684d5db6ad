"""Secrets in output never come back out: a corpus of real-looking keys
(AWS, GitHub, Slack, private key blocks, JWTs, passwords in URLs and
assignments) printed by a failing command, through `faultlens classify`
(every format), `faultlens run` and `faultlens serve` (diagnostics, hover,
the failure listing, every message the server sends).  No written file
under .faultlens/, no event, diagnostic, hover or CLI output (beyond the
command's own output, which `run` passes through untouched) contains any.

The keys are generated per run (random, valid shapes), never stored.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import shutil
import string
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .conftest import SAMPLES
from .lsp_raw import RawClient

FAULTLENS = [sys.executable, "-m", "faultlens.cli"]


def _rand(alphabet: str, n: int) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(n))


def _b64url(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


UP = string.ascii_uppercase + string.digits
ALNUM = string.ascii_letters + string.digits


@pytest.fixture(scope="module")
def corpus() -> dict[str, str]:
    key_body = base64.b64encode(secrets.token_bytes(600)).decode()
    return {
        "aws_key_id": "AKIA" + _rand(UP, 16),
        "aws_secret": _rand(ALNUM + "+/", 40),
        "github_pat": "ghp_" + _rand(ALNUM, 36),
        "github_fine": "github_pat_" + _rand(ALNUM + "_", 82),
        "slack": f"xoxb-{_rand(string.digits, 12)}-{_rand(string.digits, 13)}-{_rand(ALNUM, 24)}",
        "jwt": ".".join(
            [
                _b64url({"alg": "HS256", "typ": "JWT"}),
                _b64url({"sub": _rand(string.digits, 10), "name": "ci", "iat": 1700000000}),
                _rand(ALNUM + "-_", 43),
            ]
        ),
        "private_key": "-----BEGIN RSA PRIVATE KEY-----\n"
        + "\n".join(textwrap.wrap(key_body, 64))
        + "\n-----END RSA PRIVATE KEY-----",
        "url_password": _rand(ALNUM, 18),
        "db_password": _rand(ALNUM + "!#%", 20),
    }


def _fragments(corpus: dict[str, str]) -> list[str]:
    """What must never appear: each secret whole, its tail, and each line of
    the private key's body."""
    out = []
    for name, value in corpus.items():
        if name == "private_key":
            out += [ln for ln in value.splitlines() if not ln.startswith("-----")]
        else:
            out += [value, value[-12:]]
    return out


def _failing_output(c: dict[str, str]) -> str:
    """A failing build/test log that carries every secret where rules read."""
    return "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "app.py", line 3, in <module>',
            f"    connect(key='{c['aws_key_id']}')",
            f"KeyError: '{c['aws_key_id']}'",
            f"src/a.ts(3,1): error TS2304: Cannot find name '{c['github_pat']}'.",
            f"FAILED tests/test_api.py::test_token - AssertionError: assert '{c['slack']}' == ''",
            f"E       AssertionError: bad token {c['jwt']}",
            f"error: failed to push to https://ci:{c['url_password']}@git.example.com/x.git",
            f"Error: aws_secret_access_key = {c['aws_secret']} rejected",
            f"fatal: DATABASE_PASSWORD={c['db_password']} is not valid",
            f"npm ERR! 401 Unauthorized - token {c['github_fine']}",
            "Error: could not parse key:",
            *c["private_key"].splitlines(),
            "make: *** [Makefile:3: all] Error 1",
            "",
        ]
    )


def _assert_clean(text: str, corpus: dict[str, str], where: str) -> None:
    for frag in _fragments(corpus):
        assert frag not in text, f"a secret ({frag[:6]}...) leaked into {where}"


def _state_files(state: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in state.rglob("*") if p.is_file()}


def _assert_state_clean(state: Path, corpus: dict[str, str]) -> None:
    files = _state_files(state)
    assert files, f"nothing was written under {state}"
    for path, data in files.items():
        # sqlite pages and logs: search the raw bytes
        _assert_clean(data.decode("utf-8", "replace"), corpus, path)


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "sarif", "github"])
def test_classify_prints_no_secret_in_any_format(tmp_path, corpus, fmt):
    log = tmp_path / "build.log"
    log.write_text(_failing_output(corpus))
    res = subprocess.run(
        [*FAULTLENS, "classify", "--format", fmt, "--cwd", str(tmp_path), str(log)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 1, res.stderr
    assert res.stdout.strip()
    _assert_clean(res.stdout + res.stderr, corpus, f"classify --format {fmt}")


def test_run_writes_and_prints_no_secret(tmp_path, corpus):
    script = tmp_path / "build.py"
    script.write_text(f"import sys\nsys.stdout.write({_failing_output(corpus)!r})\nsys.exit(1)\n")
    res = subprocess.run(
        [
            *FAULTLENS,
            "run",
            "--format",
            "json",
            "--task",
            "TASK-1",
            "--cwd",
            str(tmp_path),
            "--",
            sys.executable,
            str(script),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert res.returncode == 1
    assert corpus["aws_key_id"] in res.stdout  # the command's own output, passed through
    _assert_clean(res.stderr, corpus, "faultlens run's summary")
    _assert_state_clean(tmp_path / ".faultlens", corpus)


def test_serve_publishes_and_writes_no_secret(tmp_path, corpus):
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLES / "typescript" / "tsc-plain-ts2304", ws)
    (ws / "app.py").write_text("import boto3\n\n\nconnect(key='x')\n")
    output = _failing_output(corpus)
    c = RawClient(ws, env={**os.environ})
    try:
        c.initialize()
        c.notify("faultlens/ingest", {"output": output, "task": "TASK-9", "exitCode": 1})
        diags = c.diagnostics_for((ws / "app.py").as_uri())
        listing = c.request("faultlens/failures", {})["result"]["failures"]
        assert len(listing) >= 3
        hovers = []
        for msg in list(c.all):
            if msg.get("method") != "textDocument/publishDiagnostics":
                continue
            for d in msg["params"]["diagnostics"]:
                res = c.request(
                    "textDocument/hover",
                    {
                        "textDocument": {"uri": msg["params"]["uri"]},
                        "position": d["range"]["start"],
                    },
                )
                hovers.append(res)
        assert diags and hovers
        # a run through the server too (its log file and events)
        script = ws / "build.py"
        script.write_text(f"import sys\nsys.stdout.write({output!r})\nsys.exit(1)\n")
        c.request(
            "workspace/executeCommand",
            {
                "command": "faultlens.run",
                "arguments": [{"command": [sys.executable, str(script)], "task": "TASK-10"}],
            },
            timeout=120,
        )
    finally:
        c.close()
    sent = json.dumps(c.all)
    _assert_clean(sent, corpus, "the server's messages")
    _assert_clean(b"".join(c.stderr).decode("utf-8", "replace"), corpus, "the server's log")
    _assert_state_clean(ws / ".faultlens", corpus)


def test_a_fine_grained_github_token_is_redacted(corpus):
    from faultlens.classifier.redact import redact

    assert corpus["github_fine"] not in redact(f"token {corpus['github_fine']} refused")


def test_the_log_redactor_keeps_every_line_and_every_other_byte(corpus):
    from faultlens.classifier.logredact import LogRedactor

    raw = (
        b"\x1b[31mplain \xff bytes\r\n" + _failing_output(corpus).encode() + b"tail without newline"
    )
    scrub = LogRedactor()
    out = b"".join(scrub.feed(raw[i : i + 7]) for i in range(0, len(raw), 7)) + scrub.close()
    assert out.count(b"\n") == raw.count(b"\n")
    assert out.startswith(b"\x1b[31mplain \xff bytes\r\n")
    assert out.endswith(b"make: *** [Makefile:3: all] Error 1\ntail without newline")
    _assert_clean(out.decode("utf-8", "replace"), corpus, "the redacted log")
