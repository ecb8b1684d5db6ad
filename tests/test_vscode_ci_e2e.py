"""The CI offer in a real VS Code (code-server + Chromium, editors/vscode-e2e):
opening the checkout whose branch's last run failed on GitHub (the loopback
stand-in of tests/ci_standin.py, named by GITHUB_API_URL in the editor's
environment), the extension shows "CI failed" in the status bar; clicking it
shows the failed jobs' failures in the Problems panel, each named by its job."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from .ci_standin import git, github_run, listed_runs, make_checkout, serving
from .test_vscode_e2e import ARTIFACTS, HARNESS, VENV_BIN, harness_node, vsix  # noqa: F401

pytestmark = [pytest.mark.vscode, pytest.mark.slow]
TOKEN = "ghp_vscodeSTANDIN0123456789abcdefABCDEF"


def test_a_failed_last_run_is_offered_and_one_click_shows_its_failures(
    tmp_path: Path,
    vsix: Path,  # noqa: F811
) -> None:
    node = harness_node()
    root = make_checkout(tmp_path)
    artifacts = ARTIFACTS / "ci-offer"
    result_file = tmp_path / "result.json"
    with serving() as api, serving() as downloads:
        github_run(api, downloads, sha=git(root, "rev-parse", "HEAD"))
        listed_runs(api)  # the branch's runs: run 77 failed
        scenario = {
            "workspace": str(root),
            "vsix": str(vsix),
            "artifacts": str(artifacts),
            "result": str(result_file),
            "extraPath": str(VENV_BIN),
            "settings": {"faultlens.serverPath": str(VENV_BIN / "faultlens")},
            "ciOffer": {"source": "ci: ", "expectProblems": 2},
        }
        scenario_file = tmp_path / "scenario.json"
        scenario_file.write_text(json.dumps(scenario, indent=2))
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))},
            "GITHUB_API_URL": api.url,
            "GH_TOKEN": TOKEN,  # code-server takes GITHUB_TOKEN out of the environment for itself
            "XDG_CACHE_HOME": str(tmp_path / "cache"),  # no answer kept from another run
        }
        done = subprocess.run(
            [node, "run-e2e.mjs", str(scenario_file)],
            cwd=HARNESS, env=env, capture_output=True, text=True, timeout=420, check=False,
        )  # fmt: skip
        asked = [s.path for s in api.seen]
    assert result_file.exists(), done.stdout + done.stderr
    result = json.loads(result_file.read_text())
    progress = done.stderr[-3000:]
    log = result.get("extensionLog", "")[-3000:]
    assert "error" not in result, f"{result['error']}\n{progress}\n{log}\n{asked}\nsee {artifacts}"
    assert "CI failed" in result["ciItem"]["text"]
    rows = " | ".join(r["text"] for r in result["problems"])
    assert re.search(r"Cannot find name 'UserProfile'.*ci: typecheck", rows), rows
    assert re.search(r"'unused' is assigned a value.*ci: lint", rows), rows
    # the offer asked for the branch's runs once; the click read the run, its jobs, two logs
    assert asked.count("/repos/acme/shop/actions/runs") == 1, asked
    assert sorted(p for p in asked if p.endswith("/logs")) == [
        "/repos/acme/shop/actions/jobs/901/logs",
        "/repos/acme/shop/actions/jobs/902/logs",
    ]
    assert TOKEN not in json.dumps(result)
