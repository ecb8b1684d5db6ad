"""Secrets are never echoed: not in a trust_gate record, not in any other
record that happens to carry one, in no output format of the CLI.

The secrets are assembled at run time from random parts, so this file holds
no credential-shaped string a scanner would flag.
"""

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path

import pytest

from faultlens.classifier import redact
from faultlens.classifier.engine import Options, classify_text
from faultlens.cli.main import main

FORMATS = ("json", "jsonl", "text", "sarif", "github")


def _rand(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.fixture(scope="module")
def secrets() -> dict[str, str]:
    rng = random.Random(20260120)
    up, alnum = string.ascii_uppercase + string.digits, string.ascii_letters + string.digits
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = _b64url(json.dumps({"sub": "ci-bot", "iat": 1768903200}).encode())
    key_body = "".join(_rand(rng, alnum + "+/", 64) + "\\n" for _ in range(4))
    return {
        "aws": "AK" + "IA" + _rand(rng, up, 16),
        "github": "gh" + "p_" + _rand(rng, alnum, 36),
        "github_pat": "github" + "_pat_" + _rand(rng, alnum + "_", 82),
        "slack": "xo" + "xb-" + _rand(rng, string.digits, 12) + "-" + _rand(rng, alnum, 24),
        "jwt": f"{header}.{payload}.{_rand(rng, alnum + '-_', 43)}",
        "password": _rand(rng, alnum, 10) + "-" + _rand(rng, string.digits, 4),
        "named": _rand(rng, alnum, 32),  # no known shape: only the scanner says it is secret
        "raw": "postgres://admin:" + _rand(rng, alnum, 18) + "@db.internal.example/app",
        "private_key": "-----BEGIN RSA "
        + "PRIVATE KEY-----\\n"
        + key_body
        + "-----END RSA PRIVATE KEY-----",
    }


def _ci_log(s: dict[str, str]) -> str:
    """Real output formats (tsc, pytest, gitleaks, trufflehog, bandit,
    detect-secrets), with the secrets where those tools print them."""
    return "\n".join(
        [
            f"src/config.ts(3,7): error TS2322: Type '\"{s['github']}\"' is not assignable to type 'number'.",
            f"src/auth.ts(9,3): error TS2304: Cannot find name 'token'. token={s['slack']}",
            "=================================== FAILURES ===================================",
            "_________________________________ test_login _________________________________",
            "",
            "    def test_login():",
            ">       assert login(jwt) == 200",
            f"E       AssertionError: assert 401 == 200 (jwt={s['jwt']})",
            "",
            "tests/test_login.py:7: AssertionError",
            "=========================== short test summary info ============================",
            f"FAILED tests/test_login.py::test_login - AssertionError: assert 401 == 200 (Authorization: Bearer {s['jwt']})",
            "1 failed in 0.12s",
            "",
            f"Finding:     aws_access_key_id = {s['aws']}",
            f"Secret:      {s['aws']}",
            "RuleID:      aws-access-token",
            "File:        deploy/aws.env",
            "Line:        2",
            "",
            f'Finding:     SERVICE_TOKEN = "{s["named"]}"',
            f"Secret:      {s['named']}",
            "RuleID:      generic-api-key",
            "File:        deploy/app.env",
            "Line:        4",
            "",
            "Found unverified result 🐷🔑❓",
            "Detector Type: Postgres",
            "Decoder Type: PLAIN",
            f"Raw result: {s['raw']}",
            "File: deploy/db.env",
            "Line: 1",
            "",
            f">> Issue: [B105:hardcoded_password_string] Possible hardcoded password: '{s['password']}'",
            "   Severity: Low   Confidence: Medium",
            "   Location: app/settings.py:3:14",
            f'3\tDB_PASSWORD = "{s["password"]}"',
            "--------------------------------------------------",
            f"src/pat.ts(1,1): error TS1005: ';' expected. GITHUB_TOKEN={s['github_pat']}",
            # a tool that echoes the named secret again, after it was named
            f"src/late.ts(2,2): error TS2322: Type '\"{s['named']}\"' is not assignable to type 'boolean'.",
            "",
        ]
    )


def _fallback_log(s: dict[str, str]) -> str:
    return (
        "starting service...\n"
        f'fatal: could not load TLS key "{s["private_key"]}"\n'
        f"error: upstream refused credentials password={s['password']} for {s['aws']}\n"
    )


def _leaks(text: str, s: dict[str, str]) -> list[str]:
    found = [name for name, value in s.items() if value in text]
    # nor any 12-character piece of a secret's body (a truncating printer's leftovers)
    for name, value in s.items():
        body = value.split("-----")[2] if name == "private_key" else value
        pieces = {body[i : i + 12] for i in range(4, max(5, len(body) - 12))}
        if any(p in text for p in pieces if p.strip("\\n")):
            found.append(f"{name} (fragment)")
    return found


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_cli_format_echoes_a_secret(fmt, secrets, tmp_path, capsys):
    log = tmp_path / "ci.log"
    log.write_text(_ci_log(secrets))
    status = main(["classify", "--format", fmt, "--cwd", str(tmp_path), str(log)])
    out = capsys.readouterr().out
    assert status == 1
    assert out.strip()
    assert _leaks(out, secrets) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_fallback_record_does_not_echo_a_secret(fmt, secrets, tmp_path, capsys):
    log = tmp_path / "run.log"
    log.write_text(_fallback_log(secrets))
    argv = ["classify", "--format", fmt, "--command", "./serve", "--exit-code", "1"]
    status = main([*argv, "--cwd", str(tmp_path), str(log)])
    out = capsys.readouterr().out
    assert status == 1
    assert _leaks(out, secrets) == []


def test_every_record_is_redacted_field_by_field(secrets, tmp_path):
    records = classify_text(_ci_log(secrets), Options(cwd=str(tmp_path)))
    kinds = {(r.failure_type.value, r.tool) for r in records}
    assert ("compile", "tsc") in kinds
    assert ("trust_gate", "gitleaks") in kinds
    assert ("trust_gate", "bandit") in kinds
    assert ("trust_gate", "trufflehog") in kinds
    for r in records:
        blob = json.dumps(r.to_json(), ensure_ascii=False)
        assert _leaks(blob, secrets) == [], r.rule


def test_a_masked_secret_keeps_at_most_four_characters_and_its_length(secrets, tmp_path):
    records = classify_text(_ci_log(secrets), Options(cwd=str(tmp_path)))
    gitleaks = [r for r in records if r.tool == "gitleaks"]
    aws = next(r for r in gitleaks if r.code == "aws-access-token")
    assert aws.hint["secret"] == f"{secrets['aws'][:4]}…(20 chars)"
    assert f"{secrets['aws'][:4]}…(20 chars)" in aws.signal
    named = next(r for r in gitleaks if r.code == "generic-api-key")
    assert named.hint["secret"] == f"{secrets['named'][:4]}…(32 chars)"


def test_a_secret_named_by_a_scanner_is_masked_in_records_made_before_and_after():
    name = "Qz7" + "xK2mP9vL4nR8tW1yB5cD"
    out = (
        f"src/a.ts(1,1): error TS2322: Type '\"{name}\"' is not assignable to type 'number'.\n"
        f"Finding:     SERVICE = {name}\n"
        f"Secret:      {name}\n"
        "RuleID:      generic-api-key\n"
        "File:        a.env\n"
        "Line:        1\n"
        "\n"
        f"src/b.ts(2,1): error TS2322: Type '\"{name}\"' is not assignable to type 'number'.\n"
    )
    records = classify_text(out)
    assert len(records) == 3
    for r in records:
        assert name not in json.dumps(r.to_json())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("password=hunter2-prod", "password=…(12 chars)"),
        ('"api_key": "abc123def456"', '"api_key": "…(12 chars)"'),
        ("https://deploy:pa55w0rd@host/x", "https://deploy:…(8 chars)@host/x"),
        ("gitleaks generic-api-key: secret in a.env", "gitleaks generic-api-key: secret in a.env"),
        ("max_tokens: 4096, token: 1234", "max_tokens: 4096, token: 1234"),
        ("password: ********", "password: ********"),
        ("secret=${DEPLOY_SECRET}", "secret=${DEPLOY_SECRET}"),
    ],
    ids=["assignment", "json", "url-password", "plain-word", "numbers", "stars", "variable"],
)
def test_generic_values_are_masked_and_plain_words_left_alone(text, expected):
    assert redact.redact(text) == expected


def test_redaction_is_idempotent(secrets):
    once = redact.redact(_ci_log(secrets), {secrets["named"]})
    assert redact.redact(once, {secrets["named"]}) == once


def test_the_mixed_ci_sample_masks_the_key_in_the_test_failure_too(capsys):
    case = Path(__file__).parent / "samples" / "mixed" / "ci-run"
    main(["classify", "--json", "--cwd", str(case), str(case / "output.txt")])
    out = capsys.readouterr().out
    source = (case / "app" / "settings.py").read_text()
    key = source.split("AWS_SECRET_ACCESS_KEY = ")[1].split('"')[1]
    assert len(key) == 40
    assert key not in out
    assert key[-12:] not in out  # pytest's truncated repr shows the tail
    assert f"{key[:4]}…(40 chars)" in out


def test_redaction_of_a_very_long_line_takes_linear_time():
    """Two patterns used to backtrack over every start position of a long
    word run (quadratic): a 60 KB line took minutes."""
    import time

    from faultlens.classifier.redact import redact

    line = "a" * 200_000 + " password=hunter22 " + "b_" * 200_000
    start = time.perf_counter()
    out = redact(line)
    assert "hunter22" not in out
    assert time.perf_counter() - start < 5  # linear: ~0.1 s; quadratic: hours
