"""The trust_gate recipe: never automatic, escalated at once for human review with
the secret redacted; a human's "mark reviewed" writes the scanner's own allow-list
entry, and the real scanner (bandit, detect-secrets, ESLint's security plugin,
semgrep where installed) then accepts the line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import (
    Refusal,
    TextEdit,
    UnsafeEdit,
    apply_edits,
    attempt,
    availability,
    mark_reviewed,
)
from faultlens.recipes.context import PlanContext
from faultlens.recipes.docs import recipe_doc
from faultlens.recipes.fixes.allowlist import comment_prefix
from faultlens.recipes.planners import trust_gate

from .helpers import faultlens_run_recover
from .helpers import workspace_beside as ws_of

ROOT = Path(__file__).resolve().parent.parent
SECRET = "hunter2-correct-horse"
AWS_KEY = "AKIAIOSFODNN7EXAMPLF"


def tool(name: str) -> str | None:
    for cand in (
        ROOT / ".venv" / "bin" / name,
        ROOT / "tools" / "pysec" / "bin" / name,
        ROOT / "tools" / "node-sec" / "node_modules" / ".bin" / name,
    ):
        if cand.exists():
            return str(cand)
    return shutil.which(name)


def scan(proj: Path, argv: list[str], **env: str) -> tuple[int, list[FailureRecord]]:
    res = subprocess.run(
        argv, cwd=proj, capture_output=True, text=True, env={**os.environ, **env}, timeout=120
    )
    out = res.stdout + res.stderr
    recs = classify_text(out, Options(cwd=str(proj), command=argv, exit_code=res.returncode))
    return res.returncode, [r for r in recs if r.failure_type == "trust_gate"]


def needs(name: str) -> str:
    path = tool(name)
    if path is None:
        pytest.skip(f"{name} is not installed (scripts/setup.d/50-recipe-scanners.sh)")
    return path


@pytest.fixture
def proj(tmp_path):
    p = tmp_path / "proj"
    p.mkdir()
    return p


# -- never automatic --------------------------------------------------------------------------
@pytest.mark.real_tool
def test_a_bandit_finding_is_escalated_at_once_with_the_secret_redacted(proj):
    bandit = needs("bandit")
    (proj / "app.py").write_text(f'import os\n\npassword = "{SECRET}"\n')
    before = (proj / "app.py").read_bytes()
    _, recs = scan(proj, [bandit, "-q", "app.py"])
    [rec] = [r for r in recs if r.code == "B105"]
    ws = ws_of(proj)
    refusal = trust_gate.plan(PlanContext(rec, ws, recipe_doc("trust_gate", ws)))
    assert isinstance(refusal, Refusal)
    assert refusal.reason.startswith("needs human review")
    assert refusal.result == "escalated"
    text = json.dumps([refusal.reason, refusal.details, refusal.suggestions])
    assert SECRET not in text
    assert "Scanner: bandit (rule B105)" in refusal.details
    assert "Where: app.py:3" in refusal.details
    assert any("# nosec <test id>" in d for d in refusal.details)

    avail = availability(rec, ws)
    assert not avail.offered and not avail.enabled
    out = attempt(rec, ws)
    assert out.result == "escalated"
    assert "needs human review" in out.reason
    assert "Scanner: bandit (rule B105)" in out.details  # the planner's review details
    assert out.box and "# nosec <test id>" in out.box.replace("\n║    ", " ")
    assert (proj / "app.py").read_bytes() == before
    logs = (proj.parent / "state").rglob("*")
    logged = "".join(p.read_text() for p in logs if p.suffix in (".jsonl", ".log"))
    assert SECRET not in logged and SECRET not in (out.box or "")


def test_a_push_refused_by_the_remote_is_escalated_with_push_advice_not_secret_advice(proj):
    """The real protected-branch refusal (tests/samples/git/push-protected-branch)."""
    sample = ROOT / "tests" / "samples" / "git" / "push-protected-branch" / "output.txt"
    [rec] = classify_text(
        sample.read_text(), Options(cwd=str(proj), command=["git", "push"], exit_code=1)
    )
    assert rec.rule == "git.push_declined"
    ws = ws_of(proj)
    refusal = trust_gate.plan(PlanContext(rec, ws, recipe_doc("trust_gate", ws)))
    assert isinstance(refusal, Refusal) and refusal.result == "escalated"
    assert "refused the push by policy" in refusal.reason
    text = " ".join(refusal.suggestions)
    assert "pull request" in text and "secret" not in text and "reviewed" not in text
    assert any(d.startswith("Push: main -> main") for d in refusal.details)
    assert any("Protected branch update failed" in d for d in refusal.details)
    with pytest.raises(UnsafeEdit, match="not a finding"):
        mark_reviewed(rec, ws)
    out = attempt(rec, ws, command=["git", "push"], cwd=".")
    assert out.result == "escalated" and "pull request" in (out.box or "").replace("\n║    ", " ")


# -- mark reviewed, accepted by the real scanner ------------------------------------------------
@pytest.mark.real_tool
def test_bandit_accepts_the_nosec_entry(proj):
    bandit = needs("bandit")
    (proj / "app.py").write_text(f'import os\n\npassword = "{SECRET}"\nx = 1\n')
    code, recs = scan(proj, [bandit, "-q", "app.py"])
    assert code == 1
    [rec] = [r for r in recs if r.code == "B105"]
    edit = mark_reviewed(rec, ws_of(proj))
    assert isinstance(edit, TextEdit)
    apply_edits([edit], ws_of(proj))
    assert (proj / "app.py").read_text().splitlines()[2] == f'password = "{SECRET}"  # nosec B105'
    code, recs = scan(proj, [bandit, "-q", "app.py"])
    assert code == 0 and recs == []
    with pytest.raises(UnsafeEdit, match="already marked"):
        mark_reviewed(rec, ws_of(proj))


@pytest.mark.real_tool
def test_detect_secrets_accepts_the_allowlist_pragma(proj):
    hook = needs("detect-secrets-hook")
    (proj / "settings.toml").write_text(f'region = "eu"\naws_access_key_id = "{AWS_KEY}"\n')
    code, recs = scan(proj, [hook, "settings.toml"])
    assert code == 1
    [rec] = recs
    assert rec.tool == "detect-secrets" and rec.source_line == 2
    edit = mark_reviewed(rec, ws_of(proj))
    apply_edits([edit], ws_of(proj))
    assert (
        (proj / "settings.toml")
        .read_text()
        .splitlines()[1]
        .endswith("  # pragma: allowlist secret")
    )
    code, recs = scan(proj, [hook, "settings.toml"])
    assert code == 0 and recs == []


@pytest.mark.real_tool
def test_eslint_security_accepts_the_disable_next_line_comment(proj):
    eslint = needs("eslint")
    node_sec = ROOT / "tools" / "node-sec" / "node_modules"
    if not (node_sec / "eslint-plugin-security").is_dir():
        pytest.skip("eslint-plugin-security is not installed (tools/node-sec)")
    (proj / "eslint.config.js").write_text(
        'const security = require("eslint-plugin-security");\n'
        "module.exports = [security.configs.recommended];\n"
    )
    (proj / "files.js").write_text(
        'const fs = require("fs");\n\nfunction read(name) {\n'
        "  return fs.readFileSync(name);\n}\nmodule.exports = { read };\n"
    )
    argv = [eslint, "--max-warnings", "0", "files.js"]
    code, recs = scan(proj, argv, NODE_PATH=str(node_sec))
    assert code == 1
    [rec] = recs
    assert rec.code == "security/detect-non-literal-fs-filename"
    edit = mark_reviewed(rec, ws_of(proj))
    apply_edits([edit], ws_of(proj))
    lines = (proj / "files.js").read_text().splitlines()
    assert lines[3] == (
        "  // eslint-disable-next-line security/detect-non-literal-fs-filename"
        " -- reviewed by a human"
    )
    code, recs = scan(proj, argv, NODE_PATH=str(node_sec))
    assert code == 0 and recs == []


@pytest.mark.real_tool
@pytest.mark.slow
def test_semgrep_accepts_the_nosemgrep_rule_id(proj):
    semgrep = needs("semgrep")
    (proj / "rules.yml").write_text(
        "rules:\n  - id: python-eval-user-input\n    pattern: eval(...)\n"
        "    message: eval of input\n    languages: [python]\n    severity: ERROR\n"
    )
    (proj / "app").mkdir()
    (proj / "app" / "h.py").write_text("def h(x):\n    return eval(x)\n")
    argv = [semgrep, "--config", "rules.yml", "--metrics=off", "--disable-version-check"]
    argv += ["--error", "app"]
    quiet = {"SEMGREP_SEND_METRICS": "off", "SEMGREP_ENABLE_VERSION_CHECK": "0"}
    code, recs = scan(proj, argv, **quiet)
    assert code == 1
    [rec] = recs
    edit = mark_reviewed(rec, ws_of(proj))
    apply_edits([edit], ws_of(proj))
    assert (proj / "app" / "h.py").read_text().splitlines()[1] == (
        "    return eval(x)  # nosemgrep: python-eval-user-input"
    )
    code, recs = scan(proj, argv, **quiet)
    assert code == 0 and recs == []


def _finding(
    tool_name: str, file: str, line: int, code: str | None = None, **hint
) -> FailureRecord:
    return FailureRecord(
        failure_type="trust_gate",
        severity="blocking",
        signal="finding",
        source_file=file,
        source_line=line,
        auto_recoverable=False,
        recipe="recipes/trust_gate.md",
        id="t1",
        tool=tool_name,
        code=code,
        hint=hint,
    )


def test_gitleaks_gets_its_fingerprint_line_in_gitleaksignore(proj):
    (proj / "deploy").mkdir()
    (proj / "deploy" / "app.env").write_text("API_KEY=x\n")
    (proj / ".gitleaksignore").write_text("# reviewed\nold:rule:1")
    rec = _finding(
        "gitleaks",
        "deploy/app.env",
        1,
        "generic-api-key",
        fingerprint="deploy/app.env:generic-api-key:1",
    )
    apply_edits([mark_reviewed(rec, ws_of(proj))], ws_of(proj))
    assert (proj / ".gitleaksignore").read_text() == (
        "# reviewed\nold:rule:1\ndeploy/app.env:generic-api-key:1\n"
    )


def test_entries_use_the_files_comment_leader_and_refuse_odd_rule_names(proj):
    assert comment_prefix("deploy/app.env") == "#"
    assert comment_prefix(".env.local") == "#"
    assert comment_prefix("Dockerfile") == "#"
    assert comment_prefix("src/a.ts") == "//"
    (proj / "a.js").write_text("x = eval(y);\n")
    rec = _finding("semgrep", "a.js", 1, "js-eval")
    assert mark_reviewed(rec, ws_of(proj)).new_text == "  // nosemgrep: js-eval"
    bad = _finding("eslint", "a.js", 1, "security/x */ alert(1) /*")
    with pytest.raises(UnsafeEdit):
        mark_reviewed(bad, ws_of(proj))
    odd = _finding("semgrep", "a.js", 1, "rule\nid")
    assert mark_reviewed(odd, ws_of(proj)).new_text == "  // nosemgrep"


@pytest.mark.real_tool
def test_faultlens_run_recover_escalates_a_finding_and_leaves_the_file_alone(proj):
    bandit = needs("bandit")
    (proj / "app.py").write_text(f'password = "{SECRET}"\n')
    before = (proj / "app.py").read_bytes()
    res = faultlens_run_recover([bandit, "-q", "app.py"], proj)
    summary = res.stderr.split("faultlens: [1/", 1)[-1]
    assert "escalated  trust_gate" in res.stderr, res.stderr
    assert SECRET not in summary
    assert res.returncode == 1
    assert (proj / "app.py").read_bytes() == before
