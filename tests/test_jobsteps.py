"""A CI job log is read as a job: its steps, and which of them failed.

The GitHub Actions, GitLab and Buildkite logs are samples of real commands
wrapped as those runners write a job log (scripts/ci_job_log.py, their
cmd.txt); Jenkins and Azure Pipelines lines are built here in the formats
their runners write (jobsteps.py names the sources).
"""

from __future__ import annotations

from pathlib import Path

from faultlens.classifier.engine import Classifier, Options
from faultlens.classifier.jobsteps import JobLayout, StepStatus

SAMPLES = Path(__file__).parent / "samples"


def layout_of(data: bytes) -> JobLayout:
    c = Classifier(Options(cwd="."))
    c.feed(data)
    c.close()
    layout = c.job_layout()
    assert layout is not None
    return layout


def statuses(layout: JobLayout) -> list[tuple[str, str]]:
    return [(s.name, s.status.value) for s in layout.steps]


def sample(case: str) -> bytes:
    return (SAMPLES / case / "output.txt").read_bytes()


def test_github_actions_steps_are_the_run_groups_and_the_one_closed_with_an_exit_code_failed():
    layout = layout_of(sample("mixed/gha-probe-then-test-failure"))
    (probe, tests, done) = layout.steps
    assert probe.name.startswith('echo "checking for zstd')
    assert probe.status is StepStatus.SUCCEEDED
    assert tests.name == "python -m pytest -q -p no:cacheprovider test_price.py"
    assert (tests.status, tests.exit_code) == (StepStatus.FAILED, 1)
    assert done.name == "Complete job" and done.post


def test_a_crlf_github_actions_log_has_the_same_steps():
    data = sample("mixed/gha-probe-then-test-failure")
    assert statuses(layout_of(data.replace(b"\n", b"\r\n"))) == statuses(layout_of(data))


def test_gitlab_sections_and_the_jobs_verdict_decide_the_failed_section():
    ok = layout_of(sample("mixed/gitlab-job-succeeded-with-errors"))
    assert ok.job_failed is False
    assert statuses(ok) == [("step_script", "succeeded"), ("cleanup_file_variables", "succeeded")]
    timed_out = layout_of(sample("infra/gitlab-job-timeout"))
    assert timed_out.job_failed is True
    assert [s.name for s in timed_out.failed] == ["step_script"]


def test_gitlab_sections_written_with_caret_escapes_are_read_the_same():
    data = sample("mixed/gitlab-job-succeeded-with-errors")
    carets = data.replace(b"\x1b", b"^[")
    assert statuses(layout_of(carets)) == statuses(layout_of(data))


def test_a_nested_gitlab_section_that_closed_before_the_failure_succeeded():
    log = (
        b"section_start:1:step_script\r\x1b[0KExecuting step_script\n"
        b"section_start:2:lint[collapsed=true]\r\x1b[0KLint\n"
        b"lint ok\n"
        b"section_end:3:lint\r\x1b[0K\n"
        b"running tests\n"
        b"section_end:4:step_script\r\x1b[0Ksection_start:4:after_script\r\x1b[0KRunning after_script\n"
        b"section_end:5:after_script\r\x1b[0K\n"
        b"\x1b[31;1mERROR: Job failed: exit code 2\n"
    )
    layout = layout_of(log)
    assert statuses(layout) == [
        ("step_script", "failed"),
        ("lint", "succeeded"),
        ("after_script", "succeeded"),
    ]
    assert layout.steps[0].exit_code == 2
    assert layout.step_at(5) is layout.steps[0]  # after the nested section: its parent's
    assert layout.step_at(3) is layout.steps[1]


def test_buildkite_headers_are_steps_and_the_one_with_the_agents_error_failed():
    layout = layout_of(sample("mixed/buildkite-probe-then-test-failure"))
    assert statuses(layout) == [
        ("Running commands", "succeeded"),
        (":c: optional zstd", "succeeded"),
        (":pytest: tests", "failed"),
    ]
    assert layout.steps[-1].exit_code == 1


def test_go_test_verdicts_and_diff_headers_are_no_buildkite_steps():
    log = b"~~~ Running commands\n--- FAIL: TestAdd (0.00s)\n--- a/x.go\n+++ b/x.go\n--- test\n"
    assert [s.name for s in layout_of(log).steps] == ["Running commands", "test"]
    # without the agent's own header, `--- ` starts nothing
    c = Classifier(Options(cwd="."))
    c.feed(b"--- FAIL: TestAdd (0.00s)\n--- summary\n")
    c.close()
    layout = c.job_layout()
    assert layout is None or layout.steps == []


def test_jenkins_stages_the_last_one_that_ran_failed_when_the_pipeline_failed():
    log = (
        b"[Pipeline] stage\n[Pipeline] { (Build)\n[Pipeline] sh\n+ make\n[Pipeline] }\n"
        b"[Pipeline] // stage\n[Pipeline] stage\n[Pipeline] { (Test)\n[Pipeline] sh\n+ make test\n"
        b"[Pipeline] }\n[Pipeline] // stage\n[Pipeline] stage\n[Pipeline] { (Deploy)\n"
        b'Stage "Deploy" skipped due to earlier failure(s)\n[Pipeline] }\n[Pipeline] // stage\n'
        b"[Pipeline] End of Pipeline\nERROR: script returned exit code 1\nFinished: FAILURE\n"
    )
    stamped = b"".join(b"22:44:59  " + line for line in log.splitlines(keepends=True))
    for data in (log, stamped):
        layout = layout_of(data)
        assert statuses(layout) == [
            ("Build", "succeeded"),
            ("Test", "failed"),
            ("Deploy", "succeeded"),
        ]
        assert layout.job_failed is True


def test_azure_pipelines_sections_and_an_error_inside_one():
    stamp = b"2026-12-01T10:00:00.1234567Z "
    lines = [
        b"##[section]Starting: Install",
        b"npm ci",
        b"##[section]Finishing: Install",
        b"##[section]Starting: Test",
        b"##[error]Bash exited with code '1'.",
        b"##[section]Finishing: Test",
    ]
    layout = layout_of(b"".join(stamp + line + b"\n" for line in lines))
    assert statuses(layout) == [("Install", "succeeded"), ("Test", "failed")]
    assert layout.steps[1].exit_code == 1


def test_a_runners_verdict_printed_inside_a_step_is_output_not_the_jobs():
    log = (
        b"section_start:1:step_script\r\x1b[0Kscript\n"
        b"ERROR: Job failed: exit code 1\n"  # a test of the runner printing it
        b"section_end:2:step_script\r\x1b[0K\n"
        b"Job succeeded\n"
    )
    layout = layout_of(log)
    assert layout.job_failed is False
    assert statuses(layout) == [("step_script", "succeeded")]


def test_what_follows_a_github_actions_job_s_end_is_in_none_of_its_steps():
    # Two captured outputs one after the other, as `cat job.log local.log`
    # (or a benchmark's long log) gives them: the runner's "Cleaning up orphan
    # processes" ends the job, so the later test failures are no step's
    # context but failures of their own.
    job = sample("infra/gha-run-cancelled")
    local = sample("python_test/pytest-short")
    c = Classifier(Options(cwd="."))
    c.feed(job + local)
    records = c.close()
    layout = c.job_layout()
    assert layout is not None and layout.steps[-1].name == "Complete job"
    after = layout.steps[-1].end
    assert after is not None and layout.step_at(after + 1) is None
    alone = Classifier(Options(cwd="."))
    alone.feed(local)
    expected = {(r.failure_type, r.source_file, r.source_line) for r in alone.close()}
    found = {(r.failure_type, r.source_file, r.source_line) for r in records}
    assert expected and expected <= found
    assert any(r.rule == "infra.job_cancelled" for r in records)
