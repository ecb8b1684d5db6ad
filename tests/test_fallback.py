"""Nothing unexplained: a failed command that no rule matched still gets one
record, classified from the command, with the most error-like lines as its
signal, rule "fallback" and a low confidence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faultlens.classifier import fallback
from faultlens.classifier.engine import UNCLAIMED_LINES, Classifier, Options, classify_text
from faultlens.classifier.taxonomy import FailureType
from faultlens.cli.main import main

SAMPLES = Path(__file__).parent / "samples"
T, C, B, P, INF, TG = (
    FailureType.TEST,
    FailureType.COMPILE,
    FailureType.BRANCH_DIVERGENCE,
    FailureType.PROMPT_DELIVERY,
    FailureType.INFRA,
    FailureType.TRUST_GATE,
)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("pytest -x tests", T),
        ("python -m pytest -q", T),
        ("python3.11 -m unittest discover", T),
        ("uv run pytest", T),
        ("npm test", T),
        ("npm run test:unit", T),
        ("pnpm vitest run", T),
        ("npx jest --ci", T),
        ("cargo test --workspace", T),
        ("go test ./...", T),
        ("make test", T),
        ("node --test", T),
        ("env CI=1 timeout 60 pytest", T),
        ("FORCE_COLOR=0 jest", T),
        ("tsc -p .", C),
        ("npx tsc --noEmit", C),
        ("npm run build", C),
        ("yarn lint", C),
        ("cargo build --release", C),
        ("go vet ./...", C),
        ("/usr/bin/gcc -c main.c", C),
        ("make", C),
        ("cmake --build build", C),
        ("mvn -q compile", C),
        ("./gradlew build", C),
        ("mypy --strict src", C),
        ("git push origin main", B),
        ("git pull --ff-only", B),
        ("gh pr merge 42", B),
        ("claude -p 'fix the build'", P),
        ("codex exec 'add tests'", P),
        ("aider --message hi", P),
        ("docker build .", INF),
        ("kubectl rollout status deploy/app", INF),
        ("terraform apply", INF),
        ("./deploy.sh", INF),
        ("python scripts/migrate.py", INF),
        ("", INF),
        # linters, formatters and type checkers: compile
        ("bundle exec rubocop", C),
        ("vendor/bin/phpstan analyse src", C),
        ("npx tslint -p .", C),
        ("remark --frail docs", C),
        ("misspell -error .", C),
        ("puppet-lint manifests", C),
        ("buf lint", C),
        ("cargo fmt --check", C),
        # security scanners: trust_gate
        ("bandit -r src", TG),
        ("npm audit --audit-level=high", TG),
        ("pip-audit", TG),
        ("cargo audit", TG),
        ("detect-secrets-hook --baseline .secrets.baseline", TG),
        ("brakeman -q", TG),
        # package managers and network tools: infra
        ("pip install -r requirements.txt", INF),
        ("npm ci", INF),
        ("bundle install", INF),
        ("curl -fsS https://example.test/health", INF),
        ("docker compose up --wait", INF),
        ("go mod download", INF),
        # a command known to none of those: its name, else compile (never infra by default)
        ("./scripts/check-release.sh", C),
        ("tools/run_tests.sh", T),
        ("./scripts/security-scan", TG),
        ("./tools/frobnicate", C),
        ("python -c 'import app'", C),
    ],
)
def test_the_command_decides_the_category(command, expected):
    assert fallback.command_category(command) == expected


def test_an_unknown_command_whose_output_is_a_failing_test_report_is_test(run):
    out = "running 3 cases\ncase login ... FAILED\n1 failed, 2 passed\n"
    _status, records = run(out, "./tools/frobnicate", 1)
    assert [(r["failure_type"], r["rule"]) for r in records] == [("test", "fallback")]


def test_an_unknown_linter_exiting_1_is_compile_not_infra(run):
    _status, records = run("3 problems in 2 files\n", "acme-lint src", 1)
    assert [(r["failure_type"], r["rule"]) for r in records] == [("compile", "fallback")]


def test_an_argv_list_is_classified_like_the_string():
    assert fallback.command_category(["python", "-m", "pytest", "-k", "login"]) == T
    assert fallback.command_category(None) == INF


def test_the_most_error_like_lines_are_picked_in_output_order():
    lines = list(
        enumerate(
            [
                "Compiling widgets v0.1.0",
                "warning: unused variable",
                "Segmentation fault (core dumped)",
                "done in 3s",
                "FATAL: worker crashed: out of memory",
            ],
            start=1,
        )
    )
    picked = fallback.pick_lines(lines, n=2)
    assert [no for no, _ in picked] == [3, 5]


def test_without_error_like_lines_the_last_line_is_the_signal():
    assert fallback.pick_lines([(1, "step 1"), (2, "step 2"), (3, "")]) == [(2, "step 2")]


@pytest.fixture
def run(tmp_path, capsys):
    def go(out: str, command: str, code: int) -> tuple[int, list[dict]]:
        log = tmp_path / "out.log"
        log.write_text(out)
        argv = ["classify", "--json", "--command", command, "--exit-code", str(code)]
        status = main([*argv, "--cwd", str(tmp_path), str(log)])
        return status, json.loads(capsys.readouterr().out)

    return go


def test_a_failed_run_no_rule_explains_gets_one_low_confidence_record(run):
    out = "collecting...\nrunning 12 checks\nSegmentation fault (core dumped)\n"
    status, records = run(out, "pytest -q", 139)
    assert status == 1
    (r,) = records
    assert (r["failure_type"], r["rule"], r["confidence"]) == ("test", "fallback", 0.3)
    assert r["signal"] == "Segmentation fault (core dumped)"
    assert r["log_line"] == 3
    assert r["hint"]["command"] == "pytest -q"
    assert r["hint"]["exit_code"] == 139
    assert r["code"] == "exit-139"


def test_a_successful_run_gets_no_fallback(run):
    status, records = run("Segmentation fault (core dumped)\n", "pytest -q", 0)
    assert (status, records) == (0, [])


def test_no_fallback_when_a_rule_explained_the_failure(run):
    out = "src/a.ts(3,1): error TS2304: Cannot find name 'X'.\n"
    status, records = run(out, "npx tsc", 2)
    assert status == 1
    assert [r["rule"] for r in records] == ["tsc.plain"]


def test_a_silent_failure_still_gets_a_record(run):
    status, records = run("", "make deploy", 2)
    assert status == 1
    (r,) = records
    assert r["signal"] == "make deploy exited with status 2"
    assert r["log_line"] is None
    assert r["failure_type"] == "compile"


def test_an_agent_cli_failure_is_prompt_delivery(run):
    status, records = run("session closed\n", "claude -p 'go'", 1)
    assert status == 1
    assert [(r["failure_type"], r["rule"]) for r in records] == [("prompt_delivery", "fallback")]


def test_a_git_push_refused_for_want_of_a_key_is_infra_not_divergence(tmp_path, capsys):
    case = SAMPLES / "mixed" / "git-push-publickey"
    argv = ["classify", "--json", "--command", "git push origin main", "--exit-code", "128"]
    assert main([*argv, "--cwd", str(case), str(case / "output.txt")]) == 1
    records = json.loads(capsys.readouterr().out)
    assert [r["failure_type"] for r in records] == ["infra"]
    assert "Permission denied (publickey)" in records[0]["signal"]


def test_an_auth_failure_overrides_the_command_category():
    fb = fallback.build(
        "git push", 128, [(1, "git@host: Permission denied (publickey)."), (2, "fatal: x")]
    )
    assert fb.category == INF
    assert fb.signal == "git@host: Permission denied (publickey)."


def test_the_fallback_uses_the_lines_the_prefilter_saw_and_the_tail():
    # "Severity: " is a trigger of the npm audit rule; this line matches no rule.
    out = "Severity: unknown failure in step 3\n" + "ok\n" * 200 + "error: deploy aborted\n"
    (r,) = classify_text(out, Options(command="./deploy.sh", exit_code=1))
    assert r.rule == "fallback"
    assert r.signal == "error: deploy aborted"
    assert r.log_line == 202
    assert "Severity: unknown failure in step 3" in r.message


def test_the_unclaimed_line_buffer_is_bounded():
    c = Classifier(Options(command="x", exit_code=1))
    c.feed(b"Severity: nothing to see\n" * 500)
    assert len(c.unclaimed) == UNCLAIMED_LINES
    (r,) = c.close()
    assert r.rule == "fallback"


def test_transient_errors_of_a_run_that_succeeded_are_no_failure(run):
    out = "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server\nok\n"
    assert run(out, "./wait-for-it.sh", 0) == (0, [])


def test_transient_errors_of_a_run_that_failed_stay(run):
    out = "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server\n"
    _status, records = run(out, "./wait-for-it.sh", 7)
    assert [(r["failure_type"], r["hint"]["transient"]) for r in records] == [("infra", True)]
