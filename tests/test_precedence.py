"""Precedence between categories when one failure is seen by several rules
(docs/precedence.md): first on records built by hand, row by row, then on
real outputs, alone and mixed in one log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faultlens.classifier import precedence
from faultlens.classifier.fingerprint import fingerprint
from faultlens.classifier.record import FailureRecord
from faultlens.classifier.taxonomy import FailureType, category
from faultlens.cli.main import main

SAMPLES = Path(__file__).parent / "samples"


def rec(
    ft: FailureType,
    signal: str,
    *,
    message: str = "",
    line: int | None = None,
    file: str | None = None,
    rule: str = "x.rule",
    code: str | None = None,
    hint: dict | None = None,
) -> FailureRecord:
    cat = category(ft)
    return FailureRecord(
        failure_type=ft,
        severity=cat.severity,
        signal=signal,
        source_file=file,
        source_line=None,
        auto_recoverable=cat.auto_recoverable,
        recipe=cat.recipe,
        id=fingerprint(ft.value, code, file, message or signal),
        message=message or signal,
        log_line=line,
        rule=rule,
        code=code,
        hint=hint or {},
    )


def kinds(records: list[FailureRecord]) -> list[str]:
    return [r.failure_type.value for r in records]


# -- row 1: compile over test ------------------------------------------------------


def test_a_test_record_naming_the_compile_records_failure_is_merged_into_it():
    compile_ = rec(
        FailureType.COMPILE,
        "ModuleNotFoundError: No module named 'requests'",
        message="No module named 'requests'",
        line=40,
        file="app/client.py",
    )
    test = rec(
        FailureType.TEST,
        "FAILED tests/test_client.py::test_get - ModuleNotFoundError: No module named 'requests'",
        line=400,
        file="tests/test_client.py",
        hint={"test_id": "tests/test_client.py::test_get"},
    )
    out = precedence.apply([compile_, test])
    assert out == [compile_]
    assert compile_.hint["test_id"] == "tests/test_client.py::test_get"
    assert compile_.hint["also_seen_as"][0]["failure_type"] == "test"
    assert compile_.related[0].file == "tests/test_client.py"


def test_a_test_that_failed_on_an_import_error_alone_becomes_compile():
    test = rec(FailureType.TEST, "E   ImportError: cannot import name 'x' from 'y'", line=3)
    old_id = test.id
    (out,) = precedence.apply([test])
    assert out.failure_type == FailureType.COMPILE
    assert (out.severity.value, out.recipe, out.auto_recoverable) == (
        "blocking",
        "recipes/compile.md",
        True,
    )
    assert out.id != old_id
    assert "recategorised" in out.hint


def test_an_assertion_failure_stays_a_test_failure():
    test = rec(FailureType.TEST, "AssertionError: assert 401 == 200", line=3)
    assert kinds(precedence.apply([test])) == ["test"]


def test_a_test_expecting_an_import_error_is_not_a_compile_failure():
    test = rec(FailureType.TEST, "Failed: DID NOT RAISE <class 'ImportError'>", line=3)
    assert kinds(precedence.apply([test])) == ["test"]


# -- row 2: mcp_startup over infra ------------------------------------------------------


def test_connection_refused_next_to_an_mcp_start_failure_is_the_mcp_failure():
    mcp = rec(FailureType.MCP_STARTUP, "MCP server 'search' failed to start", line=10)
    refused = rec(FailureType.INFRA, "connect ECONNREFUSED 127.0.0.1:8765", line=14)
    far = rec(FailureType.INFRA, "No space left on device", line=400)
    out = precedence.apply([mcp, refused, far])
    assert out == [mcp, far]
    assert mcp.hint["also_seen_as"][0]["failure_type"] == "infra"


def test_an_infra_record_that_names_an_mcp_server_becomes_mcp_startup():
    refused = rec(FailureType.INFRA, "MCP server github: connection refused", line=2)
    assert kinds(precedence.apply([refused])) == ["mcp_startup"]


def test_connection_refused_with_no_mcp_in_sight_stays_infra():
    refused = rec(FailureType.INFRA, "curl: (7) Failed to connect to 127.0.0.1 port 9", line=2)
    assert kinds(precedence.apply([refused])) == ["infra"]


# -- rows 3 and 4: branch_divergence and infra around a push ------------------------------------


def test_a_generic_push_failure_next_to_a_rejected_push_is_the_divergence():
    rejected = rec(
        FailureType.BRANCH_DIVERGENCE, " ! [rejected] main -> main (non-fast-forward)", line=2
    )
    failed = rec(FailureType.INFRA, "error: failed to push some refs to 'origin'", line=3)
    assert precedence.apply([rejected, failed]) == [rejected]


def test_an_infra_record_that_says_non_fast_forward_becomes_branch_divergence():
    failed = rec(FailureType.INFRA, "remote: error: denied (non-fast-forward)", line=3)
    assert kinds(precedence.apply([failed])) == ["branch_divergence"]


def test_a_push_that_failed_on_authentication_is_infra():
    push = rec(
        FailureType.BRANCH_DIVERGENCE,
        "git@github.com: Permission denied (publickey).",
        line=1,
        rule="fallback",
    )
    assert kinds(precedence.apply([push])) == ["infra"]


def test_an_auth_failure_absorbs_a_nearby_divergence_claim():
    auth = rec(FailureType.INFRA, "git@host: Permission denied (publickey).", line=1)
    claim = rec(
        FailureType.BRANCH_DIVERGENCE,
        "fatal: Could not read from remote repository.",
        line=2,
    )
    assert precedence.apply([auth, claim]) == [auth]


# -- row 5: trust_gate over compile -------------------------------------------------------------


def test_an_eslint_security_finding_reported_as_lint_is_a_trust_gate():
    lint = rec(
        FailureType.COMPILE,
        "Found child_process.exec() with non Literal first argument  security/detect-child-process",
        line=3,
        code="security/detect-child-process",
    )
    assert kinds(precedence.apply([lint])) == ["trust_gate"]


def test_an_ordinary_eslint_error_stays_compile():
    lint = rec(FailureType.COMPILE, "'x' is defined but never used  no-unused-vars", line=3)
    assert kinds(precedence.apply([lint])) == ["compile"]


# -- row 6: CI step summaries ---------------------------------------------------------------------


def test_a_ci_step_summary_yields_to_the_failure_its_step_printed():
    test = rec(FailureType.TEST, "AssertionError: assert 1 == 2", line=5)
    step = rec(
        FailureType.INFRA,
        "##[error]Process completed with exit code 1.",
        line=9,
        rule="infra.github_actions",
        hint={"kind": "ci", "step": "npm test"},
    )
    assert precedence.apply([test, step]) == [test]
    assert test.hint["ci_steps_failed"] == ["npm test"]


def test_a_ci_step_summary_alone_stands():
    step = rec(
        FailureType.INFRA,
        "##[error]Process completed with exit code 1.",
        line=9,
        rule="infra.github_actions",
    )
    assert kinds(precedence.apply([step])) == ["infra"]


# -- real outputs ---------------------------------------------------------------------------------------


def classify(path: Path, cwd: Path, *extra: str) -> list[dict]:
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main(["classify", "--json", "--cwd", str(cwd), *extra, str(path)])
    return json.loads(buf.getvalue())


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("mixed/pytest-import-in-test", ["compile"]),
        ("python_test/pytest-collection-error", ["compile"]),
        ("mcp/ts-sdk-http-refused", ["mcp_startup"]),
        ("mcp/py-sdk-http-refused", ["mcp_startup"]),
        ("git/push-rejected-non-fast-forward", ["branch_divergence"]),
        ("git/push-rejected-fetch-first", ["branch_divergence"]),
        ("mixed/git-push-publickey", ["infra"]),
    ],
)
def test_real_output_is_classified_by_the_winning_category(case, expected):
    d = SAMPLES / case
    records = classify(d / "output.txt", d)
    assert sorted(set(r["failure_type"] for r in records)) == expected


def test_a_publickey_push_is_infra_even_when_classified_from_the_git_command():
    d = SAMPLES / "mixed" / "git-push-publickey"
    records = classify(
        d / "output.txt", d, "--command", "git push origin main", "--exit-code", "128"
    )
    assert [r["failure_type"] for r in records] == ["infra"]


def test_one_log_with_several_real_failures_keeps_each_winner(tmp_path):
    parts = [
        "mixed/pytest-import-in-test",
        "mcp/ts-sdk-http-refused",
        "git/push-rejected-non-fast-forward",
        "mixed/git-push-publickey",
    ]
    log = tmp_path / "ci.log"
    log.write_text("\n".join((SAMPLES / p / "output.txt").read_text() for p in parts))
    records = classify(log, tmp_path)
    got = [r["failure_type"] for r in records]
    assert "test" not in got
    assert got.count("compile") == 1
    assert got.count("mcp_startup") == 1
    assert got.count("branch_divergence") == 1
    assert got.count("infra") == 1
    infra = next(r for r in records if r["failure_type"] == "infra")
    assert "publickey" in infra["signal"]
