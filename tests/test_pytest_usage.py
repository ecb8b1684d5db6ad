"""pytest refusing an option of a plugin that is not installed (rule
pytest.usage_error): r1chardj0n3s/parse 1.22.4's pyproject.toml sets
`addopts = "--cov=parse ..."`, so a fresh clone run without pytest-cov prints
`error: unrecognized arguments: --cov=...` and runs nothing.  That is a
missing package (compile), on the config line that names the option, not a
test failure "that could not be identified".  Sample:
tests/samples/python_test/pytest-plugin-option-missing (same shape, small)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.classifier.rules.pytest_usage import plugin_for
from faultlens.recipes import Workspace
from faultlens.recipes.model import Plan, Refusal
from faultlens.recipes.planning import plan

SAMPLE = Path(__file__).parent / "samples/python_test/pytest-plugin-option-missing"
CMD = [sys.executable, "-m", "pytest", "-q"]


def _record(d: Path):
    (rec,) = classify_bytes(
        (d / "output.txt").read_bytes(), Options(cwd=str(d), command=CMD, exit_code=4)
    )
    return rec


def test_an_option_of_a_missing_plugin_is_that_package_missing_at_the_config_line():
    rec = _record(SAMPLE)
    assert (rec.failure_type.value, rec.rule) == ("compile", "pytest.usage_error")
    assert (rec.source_file, rec.source_line) == ("pyproject.toml", 6)  # addopts = "--cov=..."
    assert (rec.hint["package"], rec.hint["config_option"]) == ("pytest-cov", "--cov")
    assert "the plugin pytest-cov is not installed" in rec.message


def test_an_undeclared_plugin_is_suggested_not_installed(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLE, proj)
    result = plan(_record(proj), Workspace.at(proj), command=CMD)
    assert isinstance(result, Refusal)
    assert "'pytest-cov' is not declared in pyproject.toml" in result.reason
    assert result.suggestions == [f"{sys.executable} -m pip install pytest-cov"]


def test_a_declared_plugin_is_installed_and_verified_by_the_rerun(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLE, proj)
    pyproject = proj / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            'version = "1.0"\n',
            'version = "1.0"\noptional-dependencies = {test = ["pytest-cov"]}\n',
        )
    )
    result = plan(_record(proj), Workspace.at(proj), command=CMD)
    assert isinstance(result, Plan), result
    (step,) = result.commands
    assert step.argv[-1] == "pytest-cov" and "install" in step.argv
    assert result.verify is not None and result.verify.argv == CMD


@pytest.mark.parametrize(
    ("option", "plugin"),
    [
        ("--cov=parse", "pytest-cov"),
        ("--cov-report=term-missing", "pytest-cov"),
        ("-n", "pytest-xdist"),
        ("--numprocesses=4", "pytest-xdist"),
        ("--timeout=30", "pytest-timeout"),
        ("--benchmark-skip", "pytest-benchmark"),
        ("--nope", None),
        ("-x", None),
    ],
)
def test_which_plugin_an_option_belongs_to(option, plugin):
    assert plugin_for(option) == plugin
