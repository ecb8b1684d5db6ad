"""The plugin_startup recipe: a manifest with one obvious JSON repair is repaired
(verified by re-parsing and by re-running the real tool: npm, node, python's
json.tool), a missing plugin package the project declares is installed with its
own package manager (real npm, real ESLint), the rest escalated with what a
human needs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from faultlens.classifier.record import FailureRecord
from faultlens.recipes import Plan, Refusal, attempt, plan
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.fixes.json_repair import candidates, unambiguous_repair

from .helpers import faultlens_run_recover, run_classified
from .helpers import workspace_beside as ws_of

ROOT = Path(__file__).resolve().parent.parent
ESLINT = ROOT / "tools" / "node" / "node_modules" / ".bin" / "eslint"


def run_and_classify(proj: Path, cmd: list[str]) -> list[FailureRecord]:
    res, recs = run_classified(proj, cmd, timeout=120)
    assert res.returncode != 0, res.stdout + res.stderr
    return [r for r in recs if r.failure_type == "plugin_startup"]


def json_tool(rel: str) -> list[str]:
    """python -m json.tool as a CI step runs it: `bash -x` echoes the command (and so
    the file name, which json.tool's own message leaves out)."""
    return ["bash", "-xc", f"{sys.executable} -m json.tool {rel} > /dev/null"]


@pytest.fixture
def proj(tmp_path):
    p = tmp_path / "proj"
    p.mkdir()
    return p


# -- the repairs themselves ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("broken", "kind", "fixed"),
    [
        (
            '{\n  "a": 1,\n  "b": [1, 2,],\n}\n',
            "trailing-comma",
            '{\n  "a": 1,\n  "b": [1, 2]\n}\n',
        ),
        ('{\n  "a": "x"\n  "b": true\n}\n', "missing-comma", '{\n  "a": "x",\n  "b": true\n}\n'),
        ('{\n  "a": ["x"]\n', "missing-closer", '{\n  "a": ["x"]\n}\n'),
        ('{"a": "x, }"\n "b": 2}', "missing-comma", '{"a": "x, }",\n "b": 2}'),
    ],
)
def test_one_obvious_repair_is_found_and_the_result_parses(broken, kind, fixed):
    repair = unambiguous_repair(broken)
    assert repair is not None and repair.kind == kind
    out = apply_to_text(broken, repair.edits)
    assert out == fixed
    json.loads(out)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1,}\n{',  # two problems: no single repair
        '{"a": 1,\n  "b": \n',  # a missing value
        '{"a": tru}',
        '{"a": 1}',  # valid already
    ],
)
def test_no_repair_when_it_is_not_obvious(text):
    assert unambiguous_repair(text) is None
    assert all(r.kind for r in candidates(text))


# -- manifests, end to end ------------------------------------------------------------------------
@pytest.mark.real_tool
def test_npm_package_json_with_a_trailing_comma_is_repaired_and_npm_then_works(proj):
    (proj / "package.json").write_text(
        '{\n  "name": "demo",\n  "version": "1.0.0",\n  "private": true,\n}\n'
    )
    cmd = ["npm", "install", "--no-audit", "--no-fund", "--offline"]
    [rec] = run_and_classify(proj, cmd)
    assert rec.source_file == "package.json"
    p = plan(rec, ws_of(proj))
    assert isinstance(p, Plan)
    assert p.title == "Repair package.json: remove the trailing comma(s) (1 place(s))"
    out = attempt(rec, ws_of(proj))
    assert out.result == "recovered", out.reason
    assert (proj / "package.json").read_text() == (
        '{\n  "name": "demo",\n  "version": "1.0.0",\n  "private": true\n}\n'
    )


@pytest.mark.real_tool
def test_a_plugin_manifest_missing_its_closing_brace_is_closed_and_node_loads_it(proj):
    manifest = proj / "plugins" / "hello" / "plugin.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text('{\n  "name": "hello",\n  "events": ["onSave"]\n')
    [rec] = run_and_classify(proj, ["node", "-e", 'require("./plugins/hello/plugin.json")'])
    assert rec.hint["manifest"] == "plugins/hello/plugin.json"
    out = attempt(rec, ws_of(proj))
    assert out.result == "recovered", out.reason
    assert json.loads(manifest.read_text()) == {"name": "hello", "events": ["onSave"]}


@pytest.mark.real_tool
def test_a_missing_comma_found_by_json_tool_is_inserted(proj):
    manifest = proj / ".claude-plugin" / "plugin.json"
    manifest.parent.mkdir()
    manifest.write_text('{\n  "name": "fmt",\n  "version": "0.1.0"\n  "hooks": {}\n}\n')
    [rec] = run_and_classify(proj, json_tool(".claude-plugin/plugin.json"))
    out = attempt(rec, ws_of(proj))
    assert out.result == "recovered", out.reason
    assert manifest.read_text().splitlines()[2] == '  "version": "0.1.0",'


@pytest.mark.real_tool
def test_a_manifest_without_one_obvious_repair_is_escalated_untouched(proj):
    manifest = proj / "plugin.json"
    manifest.write_text('{\n  "name": "x",\n  "events": ["a",],\n')  # a comma AND a brace
    before = manifest.read_bytes()
    [rec] = run_and_classify(proj, json_tool("plugin.json"))
    p = plan(rec, ws_of(proj))
    assert isinstance(p, Refusal) and "no single obvious repair" in p.reason
    assert any(d.startswith("Manifest: plugin.json:") for d in p.details)
    assert any(d.startswith("Parser: ") for d in p.details)
    out = attempt(rec, ws_of(proj))
    assert out.result == "escalated"
    assert manifest.read_bytes() == before


# -- missing plugin packages ------------------------------------------------------------------------
def eslint_project(proj: Path, declared: bool) -> None:
    plugin = proj / "eslint-plugin-local"
    plugin.mkdir()
    (plugin / "package.json").write_text(
        '{"name": "eslint-plugin-local", "version": "1.0.0", "main": "index.js"}\n'
    )
    (plugin / "index.js").write_text(
        'module.exports = { rules: { "no-foo": { create(ctx) { return { Identifier(n) {'
        ' if (n.name === "foo") ctx.report({ node: n, message: "no foo" }); } }; } } } };\n'
    )
    deps = {"devDependencies": {"eslint-plugin-local": "file:./eslint-plugin-local"}}
    manifest = {"name": "demo", "version": "1.0.0", "private": True, "type": "module"}
    (proj / "package.json").write_text(json.dumps({**manifest, **(deps if declared else {})}))
    (proj / "eslint.config.js").write_text(
        'import local from "eslint-plugin-local";\n'
        'export default [{ plugins: { local }, rules: { "local/no-foo": "error" } }];\n'
    )
    (proj / "a.js").write_text("const bar = 1;\nexport default bar;\n")


@pytest.mark.real_tool
def test_a_declared_eslint_plugin_that_is_not_installed_is_installed_with_npm(proj):
    if not ESLINT.exists():
        pytest.skip("eslint is not installed (scripts/install-tools.sh node)")
    eslint_project(proj, declared=True)
    [rec] = run_and_classify(proj, [str(ESLINT), "a.js"])
    assert rec.hint["dependency"] == "eslint-plugin-local"
    p = plan(rec, ws_of(proj))
    assert isinstance(p, Plan) and p.automatic
    assert p.commands[0].argv == ["npm", "install"]
    out = attempt(rec, ws_of(proj))
    assert out.result == "recovered", out.reason
    assert (proj / "node_modules" / "eslint-plugin-local").exists()


@pytest.mark.real_tool
def test_an_undeclared_plugin_is_only_proposed_never_installed(proj):
    if not ESLINT.exists():
        pytest.skip("eslint is not installed (scripts/install-tools.sh node)")
    eslint_project(proj, declared=False)
    [rec] = run_and_classify(proj, [str(ESLINT), "a.js"])
    p = plan(rec, ws_of(proj))
    assert isinstance(p, Plan) and not p.automatic
    assert p.commands[0].argv == ["npm", "install", "eslint-plugin-local"]
    out = attempt(rec, ws_of(proj))
    assert out.result == "escalated" and "not automatic" in out.reason
    assert not (proj / "node_modules").exists()


def _dep_record(dependency: str, ecosystem: str, manifest: str) -> FailureRecord:
    return FailureRecord(
        failure_type="plugin_startup",
        severity="degraded",
        signal=f"Error importing plugin {dependency!r}",
        source_file=manifest,
        source_line=1,
        auto_recoverable="partial",
        recipe="recipes/plugin_startup.md",
        id="pl1",
        tool="plugin-loader",
        hint={"dependency": dependency, "ecosystem": ecosystem, "manifest": manifest},
    )


@pytest.mark.parametrize(
    ("files", "argv"),
    [
        (
            {"uv.lock": "", "pyproject.toml": '[project]\ndependencies = ["pydantic-settings"]\n'},
            ["uv", "sync", "--frozen", "--inexact"],
        ),
        (
            {
                "poetry.lock": "",
                "pyproject.toml": "[tool.poetry.dependencies]\npydantic-settings = '*'\n",
            },
            ["poetry", "install"],
        ),
        (
            {"requirements.txt": "pydantic_settings==2.0\n"},
            ["PY", "-m", "pip", "install", "pydantic_settings==2.0"],
        ),
    ],
)
def test_python_plugins_use_the_projects_package_manager(proj, files, argv):
    for name, text in files.items():
        (proj / name).write_text(text)
    (proj / "mypy.ini").write_text("[mypy]\nplugins = pydantic_settings.mypy_plugin\n")
    p = plan(_dep_record("pydantic_settings", "pypi", "mypy.ini"), ws_of(proj))
    assert isinstance(p, Plan) and p.automatic
    got = p.commands[0].argv
    assert [("PY" if a.endswith(("python", "python3")) else a) for a in got] == argv


@pytest.mark.parametrize(
    "name", ["--index-url=http://evil", "a b", "$(id)", "../x", "pkg;rm -rf /"]
)
def test_hostile_plugin_names_are_refused(proj, name):
    (proj / "package.json").write_text('{"name": "d"}')
    p = plan(_dep_record(name, "npm", "package.json"), ws_of(proj))
    assert isinstance(p, Refusal)


def test_other_plugin_failures_are_escalated_with_what_a_human_needs(proj):
    rec = FailureRecord(
        failure_type="plugin_startup",
        severity="degraded",
        signal='[plugins] Plugin "markdown-preview" not found in ./plugins',
        auto_recoverable="partial",
        recipe="recipes/plugin_startup.md",
        id="pl2",
        hint={"plugin": "markdown-preview", "kind": "not_found", "manifest": "settings.json"},
    )
    (proj / "settings.json").write_text('{"plugins": ["markdown-preview"]}\n')
    p = plan(rec, ws_of(proj))
    assert isinstance(p, Refusal)
    assert "Plugin: markdown-preview" in p.details
    assert "Manifest: settings.json" in p.details


@pytest.mark.real_tool
def test_faultlens_run_recover_repairs_a_manifest(proj):
    (proj / "plugin.json").write_text('{\n  "name": "x",\n  "events": ["a",]\n}\n')
    res = faultlens_run_recover(json_tool("plugin.json"), proj)
    assert "recovered  plugin_startup" in res.stderr, res.stderr
    assert res.returncode == 0
    assert json.loads((proj / "plugin.json").read_text()) == {"name": "x", "events": ["a"]}


# -- misspelt pytest hooks ----------------------------------------------------------------------
@pytest.fixture
def quick_pytest(monkeypatch):
    # The runs (and the recipe's re-run, which inherits the environment) skip the
    # plugins installed in this venv: faster, and only the conftest's hook counts.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


def pytest_project(proj: Path, hook_def: str) -> list[str]:
    (proj / "tests").mkdir()
    (proj / "tests" / "conftest.py").write_text(
        "import pytest\n\n\n" + hook_def + "\n    print('hook ran')\n"
    )
    (proj / "tests" / "test_a.py").write_text("def test_a():\n    assert True\n")
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]


@pytest.mark.real_tool
def test_a_misspelt_pytest_hook_is_renamed_to_the_one_close_hook(proj, quick_pytest):
    cmd = pytest_project(proj, "def pytest_runtest_setpu(item):")
    [rec] = run_and_classify(proj, cmd)
    assert rec.hint["hook"] == "pytest_runtest_setpu"
    out = attempt(rec, ws_of(proj))
    assert out.result == "recovered", out.reason
    assert "def pytest_runtest_setup(item):" in (proj / "tests" / "conftest.py").read_text()


@pytest.mark.real_tool
def test_a_hook_close_to_several_known_hooks_is_escalated(proj, quick_pytest):
    cmd = pytest_project(proj, "def pytest_configur(config):")
    [rec] = run_and_classify(proj, cmd)
    p = plan(rec, ws_of(proj))
    assert isinstance(p, Refusal)
    assert "pytest_configure" in p.reason and "pytest_unconfigure" in p.reason
