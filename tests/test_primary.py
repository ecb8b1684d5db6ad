"""One primary record per classification that has failures: the verdict.

On real captured outputs (tests/samples): exactly one record is primary
and it comes first; a run known to have succeeded has none; in a CI job log
the failing step's own error beats lines of steps that succeeded, the
runner's verdict on the job beats what it cut short, a cause beats its
consequences, and `Process completed with exit code N` is primary only
alone.  Every front lists the primary first.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faultlens.classifier.engine import Options, classify_bytes
from faultlens.cli.main import main

from .samples_lib import samples

SAMPLES = Path(__file__).parent / "samples"
JOBS = [s for s in samples() if s.family in ("infra", "mixed") and s.output.suffix == ".txt"]


def records(case: str, **options):
    d = SAMPLES / case
    return classify_bytes((d / "output.txt").read_bytes(), Options(cwd=str(d), **options))


@pytest.mark.parametrize("sample", JOBS, ids=[s.id for s in JOBS])
def test_exactly_one_record_is_primary_and_it_comes_first(sample):
    recs = classify_bytes(sample.output.read_bytes(), Options(cwd=str(sample.dir)))
    if not recs:
        return
    assert [r.primary for r in recs].count(True) == 1
    assert recs[0].primary


def test_a_run_that_exited_0_has_no_primary_record():
    recs = records("mixed/ci-run", exit_code=0)
    assert not any(r.primary for r in recs)


def test_a_successful_job_with_error_shaped_lines_has_no_failure():
    assert records("mixed/gitlab-job-succeeded-with-errors") == []


def test_the_failing_steps_error_is_primary_and_a_succeeded_steps_record_is_context():
    for case in ("mixed/gha-probe-then-test-failure", "mixed/buildkite-probe-then-test-failure"):
        (primary,) = records(case)
        assert (primary.rule, primary.source_file, primary.primary) == (
            "pytest.failure",
            "test_price.py",
            True,
        )
        (context,) = primary.hint["incidental"]
        assert context["rule"] == "c.compiler_error"
        assert "zstd.h" in context["signal"]


def test_the_primary_record_names_its_failed_step_and_exit_code():
    (primary,) = records("infra/gha-fetch-missing-ref")
    assert primary.rule == "infra.missing_ref"
    assert primary.hint["job_step"] == "git -C work fetch --depth=1 origin release-2.x"
    assert primary.hint["job_step_exit_code"] == 128


def test_a_conflict_in_the_first_failed_step_beats_later_steps_failures():
    recs = records("mixed/ci-run")
    assert recs[0].rule == "git.conflict" and recs[0].primary
    assert {r.failure_type.value for r in recs[1:]} == {"test", "trust_gate"}


def test_the_runners_verdict_beats_what_it_cut_short():
    # a lost runner, then the cancel it caused: one failure, the verdict's
    (rec,) = records("infra/gha-runner-shutdown")
    assert rec.rule == "infra.runner_lost" and rec.primary and rec.hint["transient"] is True
    assert [s["rule"] for s in rec.hint["also_seen_as"]] == ["infra.job_cancelled"]


@pytest.mark.parametrize(
    ("case", "verdict", "folded"),
    [
        ("infra/gha-step-timeout-interrupted", "infra.job_timeout", ["python.traceback"]),
        (
            "infra/gha-runner-shutdown-interrupted",
            "infra.runner_lost",
            ["python.traceback", "infra.job_cancelled"],
        ),
    ],
)
def test_a_stopped_steps_keyboardinterrupt_is_the_runners_verdict(case, verdict, folded):
    # the runner stops a step with SIGINT first: Python's traceback says where it was
    (rec,) = records(case)
    assert (rec.rule, rec.primary) == (verdict, True)
    assert [s["rule"] for s in rec.hint["also_seen_as"]] == folded
    assert [(loc.file, loc.line) for loc in rec.related] == [("wait_for_export.py", 9)]
    assert rec.source_file is None


def test_a_keyboardinterrupt_with_no_runner_verdict_stands():
    # the same traceback as a terminal shows it (Ctrl-C): no runner stopped it
    d = SAMPLES / "infra/gha-step-timeout-interrupted"
    lines = (d / "output.txt").read_text().splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.endswith("Traceback (most recent call last):")
    )
    end = next(i for i, line in enumerate(lines) if line.endswith(" KeyboardInterrupt"))
    text = "\n".join(line.split(" ", 1)[1] for line in lines[start : end + 1]) + "\n"
    (rec,) = classify_bytes(text.encode(), Options(cwd=str(d)))
    assert (rec.rule, rec.hint["kind"]) == ("python.traceback", "interrupted")


def test_the_step_summary_is_primary_only_when_nothing_else_explains_the_failure():
    (alone,) = records("infra/github-actions-exit-code")
    assert alone.rule == "infra.github_actions" and alone.primary
    permission = records("infra/gha-github-token-permission")
    assert permission[0].rule == "infra.cloud_permission"  # the body's words, not curl's status
    assert "infra.github_actions" not in {r.rule for r in permission}


def test_permanent_and_transient_runner_failures_say_so():
    transient = {
        "infra/gha-step-timeout": "infra.job_timeout",
        "infra/gitlab-job-timeout": "infra.job_timeout",
        "infra/gha-run-cancelled": "infra.job_cancelled",
        "infra/gha-github-api-rate-limit": "infra.api_rate_limit",
    }
    permanent = {
        "infra/gha-fetch-missing-ref": "infra.missing_ref",
        "infra/gha-checkout-missing-ref": "infra.checkout_missing_ref",
        "infra/aws-access-denied": "infra.cloud_permission",
        "infra/gha-action-unresolved": "infra.action_unresolved",
        "infra/gitlab-image-pull-manifest-unknown": "infra.image_pull",
    }
    for cases, want in ((transient, True), (permanent, False)):
        for case, rule in cases.items():
            primary = records(case)[0]
            assert (primary.rule, primary.hint["transient"]) == (rule, want), case


@pytest.mark.parametrize("fmt", ["json", "github", "text"])
def test_every_output_format_shows_the_primary_first(fmt, capsys):
    d = SAMPLES / "mixed/ci-run"
    main(["classify", "--format", fmt, "--cwd", str(d), str(d / "output.txt")])
    out = capsys.readouterr().out
    if fmt == "json":
        assert json.loads(out)[0]["primary"] is True
        return
    first = next(line for line in out.splitlines() if "CHANGELOG" in line or "test_" in line)
    assert "CHANGELOG" in first


def test_the_agents_answer_lists_the_primary_first():
    from faultlens.agents.compact import classify_result

    recs = records("mixed/gcc-then-other-tools")
    shuffled = [*recs[1:], recs[0]]
    result = classify_result(shuffled, lambda r: (True, ""))
    assert result.failures[0].id == recs[0].id


# Agent CLIs captured against the model stand-in (cmd.txt: `# exit status 0`):
# the session answered without the MCP server or hook that did not start.
STARTED_WITHOUT = [
    "mcp/claude-code-stream-json-failed",
    "mcp/claude-code-startup-failures",
    "plugin/claude-code-hook-failures",
    "plugin/claude-code-plugin-manifest-invalid",
    "mcp/codex-server-startup-log",  # Codex CLI 0.171.0, RUST_LOG at warn for codex_mcp
    "mcp/gemini-cli-startup-failures",  # Gemini CLI 0.61.0 --debug
]


@pytest.mark.parametrize("case", STARTED_WITHOUT)
def test_what_did_not_start_is_the_verdict_on_an_agent_run_that_exited_0(case):
    recs = records(case, exit_code=0)
    assert recs[0].primary and [r.primary for r in recs].count(True) == 1
    assert recs[0].failure_type.value in ("mcp_startup", "plugin_startup")


def test_a_required_mcp_server_that_never_answers_is_its_start_up_timeout():
    (rec,) = records("mcp/codex-required-server-timeout", exit_code=1)
    assert (rec.failure_type.value, rec.hint["server"], rec.hint["stage"], rec.primary) == (
        "mcp_startup",
        "ledger-index",
        "initialize-timeout",
        True,
    )


@pytest.mark.parametrize(
    ("case", "config", "line"),
    [
        ("mcp/gemini-cli-workspace-server-missing", ".gemini/settings.json", 3),
        ("mcp/codex-project-server-missing", ".codex/config.toml", 3),  # [mcp_servers.ledger-docs]
    ],
)
def test_a_server_that_did_not_start_is_placed_on_its_entry_in_the_projects_config(
    case, config, line
):
    (rec,) = records(case)
    assert (rec.source_file, rec.source_line, rec.hint["config"]) == (config, line, config)
    assert rec.hint["server_command"] == ["ledger-docs-mcp", "--stdio"]


def test_the_mcp_probe_reads_a_codex_config_toml():
    from faultlens.recipes.fixes.mcp_probe import load_spec

    d = SAMPLES / "mcp/codex-project-server-missing"
    text = (d / ".codex/config.toml").read_text()
    spec = load_spec(text, "ledger-docs", {}, d, toml=True)
    assert (spec.command, spec.args) == ("ledger-docs-mcp", ["--stdio"])
