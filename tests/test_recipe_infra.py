"""The infra recipe: transient failures retried with backoff 1 s, 2 s, 4 s (at most 3
retries, the pauses injected), permanent ones escalated with what a human needs.
End to end with real commands: a script that fails to connect twice then succeeds,
one that never succeeds, real bash failures."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import Plan, RecipeSettings, Refusal, Workspace, attempt, plan
from faultlens.recipes.fixes.infra_needs import is_transient

from .helpers import faultlens_run_recover, run_classified, workspace_beside

ROOT = Path(__file__).resolve().parent.parent

FLAKY = """\
import socket, sys
from pathlib import Path
counter = Path("count.txt")
n = int(counter.read_text()) + 1 if counter.exists() else 1
counter.write_text(str(n))
if n <= int(sys.argv[2]):
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
print("fetched on run", n)
"""


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run_and_classify(proj: Path, cmd: list[str]) -> list[FailureRecord]:
    _, recs = run_classified(proj, cmd)
    return [r for r in recs if r.failure_type == "infra"]


def workspace(proj: Path, slept: list[float]) -> Workspace:
    return workspace_beside(proj, settings=RecipeSettings(sleep=slept.append))


@pytest.fixture
def proj(tmp_path):
    p = tmp_path / "proj"
    p.mkdir()
    (p / "flaky.py").write_text(FLAKY)
    return p


@pytest.mark.real_tool
def test_a_connection_refused_twice_is_retried_with_backoff_and_recovers(proj):
    cmd = [sys.executable, "flaky.py", str(closed_port()), "2"]
    [rec] = run_and_classify(proj, cmd)
    assert is_transient(rec)
    slept: list[float] = []
    out = attempt(rec, workspace(proj, slept))
    assert out.result == "recovered", out.reason
    assert slept == [1.0, 2.0]  # failed once more after 1 s, passed after 2 s
    assert (proj / "count.txt").read_text() == "3"


@pytest.mark.real_tool
def test_a_connection_that_never_comes_back_is_escalated_after_three_retries(proj):
    cmd = [sys.executable, "flaky.py", str(closed_port()), "99"]
    [rec] = run_and_classify(proj, cmd)
    slept: list[float] = []
    out = attempt(rec, workspace(proj, slept))
    assert out.result == "escalated"
    assert slept == [1.0, 2.0, 4.0]
    assert (proj / "count.txt").read_text() == "4"  # the run + 3 retries
    assert "still reported" in out.reason
    assert "Retries: at most 3 (after 1 s, 2 s, 4 s)" in out.details
    assert out.box and "ERROR: Infrastructure" in out.box


def test_the_delays_come_from_the_settings_or_the_projects_recipe(proj, tmp_path):
    rec = FailureRecord(
        failure_type="infra",
        severity="blocking",
        signal="curl: (7) Failed to connect",
        auto_recoverable=False,
        recipe="recipes/infra.md",
        id="i1",
        hint={"kind": "refused", "transient": True, "command": ["curl", "http://x"]},
    )
    ws = Workspace(roots=[proj], settings=RecipeSettings(backoff=(0.5,), infra_max_retries=2))
    p = plan(rec, ws)
    assert isinstance(p, Plan)
    assert (p.backoff, p.retries) == ((0.5, 0.5), 1)
    override = proj / ".faultlens" / "recipes"
    override.mkdir(parents=True)
    (override / "infra.md").write_text("+++\n[retry]\nbackoff = [0.1, 0.2]\nattempts = 2\n+++\n")
    p = plan(rec, Workspace(roots=[proj]))
    assert isinstance(p, Plan)
    assert p.backoff == (0.1, 0.2)
    (override / "infra.md").write_text("+++\n[retry]\nbackoff = [-1, 'x']\n+++\n")
    p = plan(rec, Workspace(roots=[proj]))
    assert isinstance(p, Plan) and p.backoff == (1.0, 2.0, 4.0)


@pytest.mark.real_tool
def test_a_missing_variable_is_escalated_at_once_with_its_name(proj):
    cmd = ["bash", "-c", ': "${FAULTLENS_TEST_DEPLOY_TOKEN:?}"']
    env_has = os.environ.pop("FAULTLENS_TEST_DEPLOY_TOKEN", None)
    assert env_has is None
    [rec] = run_and_classify(proj, cmd)
    slept: list[float] = []
    p = plan(rec, workspace(proj, slept))
    assert isinstance(p, Refusal)
    assert "permanent" in p.reason
    assert any(
        d.startswith("Variable: FAULTLENS_TEST_DEPLOY_TOKEN (not set or empty") for d in p.details
    )
    out = attempt(rec, workspace(proj, slept))
    assert out.result == "escalated" and slept == []


@pytest.mark.real_tool
def test_permission_denied_is_escalated_with_the_paths_mode(proj):
    script = proj / "deploy.sh"
    script.write_text("#!/bin/sh\necho deployed\n")
    script.chmod(0o644)
    [rec] = run_and_classify(proj, ["bash", "-c", "./deploy.sh"])
    p = plan(rec, workspace(proj, []))
    assert isinstance(p, Refusal)
    text = "\n".join(p.details)
    assert "Path: ./deploy.sh" in text
    assert "mode -rw-r--r--" in text and "executable: False" in text
    assert "Free space on its file system" in text


def test_disk_full_reports_the_free_space_where_the_file_was_going(proj):
    output = (ROOT / "tests/samples/infra/disk-full/output.txt").read_text()
    [rec] = [r for r in classify_text(output, Options(cwd=str(proj))) if r.failure_type == "infra"]
    p = plan(rec, workspace(proj, []))
    assert isinstance(p, Refusal)
    text = "\n".join(p.details)
    assert "Kind: disk-full" in text and "It does not exist" in text
    assert "Free space on its file system" in text and "% free)" in text


def test_a_transient_failure_without_a_known_command_is_escalated(proj):
    rec = FailureRecord(
        failure_type="infra",
        severity="blocking",
        signal="curl: (6) Could not resolve host: x.invalid",
        auto_recoverable=False,
        recipe="recipes/infra.md",
        id="i2",
        hint={"kind": "dns", "transient": True, "host": "x.invalid"},
    )
    p = plan(rec, Workspace(roots=[proj], state_dir=proj.parent / "st"))
    assert isinstance(p, Refusal) and "not known" in p.reason
    assert "Host: x.invalid" in p.details


@pytest.mark.real_tool
def test_faultlens_run_recover_retries_a_flaky_connection(proj):
    override = proj / ".faultlens" / "recipes"
    override.mkdir(parents=True)
    (override / "infra.md").write_text("+++\n[retry]\nbackoff = [0.05, 0.1, 0.2]\n+++\n")
    res = faultlens_run_recover([sys.executable, "flaky.py", str(closed_port()), "2"], proj)
    assert "recovered  infra" in res.stderr, res.stderr
    assert res.returncode == 0
    assert (proj / "count.txt").read_text() == "3"


TWO_HOSTS = """\
import socket, sys, traceback
from pathlib import Path
counter = Path("count.txt")
counter.write_text(str(int(counter.read_text()) + 1 if counter.exists() else 1))
failed = False
for host, port in (("127.0.0.1", int(sys.argv[1])), ("db.invalid", 5432)):
    try:
        socket.create_connection((host, port), timeout=5)
    except OSError:
        traceback.print_exc()
        failed = True
sys.exit(1 if failed else 0)
"""


@pytest.mark.real_tool
def test_two_transient_failures_of_one_run_share_one_backoff_sequence(proj):
    """One attempt per failure type per run: a refused connection and a failed
    DNS lookup are retried by ONE sequence (1 s, 2 s, 4 s), not one each."""
    from faultlens.cli.run import run_command

    from .helpers import _Sink

    (proj / "two.py").write_text(TWO_HOSTS)
    (proj / ".git").mkdir()
    cmd = [sys.executable, "two.py", str(closed_port())]
    slept: list[float] = []
    ws = Workspace.at(proj, settings=RecipeSettings(sleep=slept.append))
    out, err = _Sink(), _Sink()
    report = run_command(
        cmd, cwd=proj, ws=ws, task="T", recover=True, out=out, err_bytes=err, err=err
    )
    infra = [o for o in report.outcomes if o.record.failure_type == "infra"]
    assert len(infra) == 2, [o.record.signal for o in report.outcomes]
    assert slept == [1.0, 2.0, 4.0]
    assert (proj / "count.txt").read_text() == "4"  # the run + 3 retries, for both
    assert all(o.result == "escalated" for o in infra)
    assert all(o.reason.endswith("(after 3 retries)") for o in infra)
    assert report.exit_code == 1
