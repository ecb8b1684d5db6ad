"""`faultlens classify`: formats, exit statuses, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.cli.main import main

SAMPLE = Path(__file__).parent / "samples/typescript/tsc-plain-ts2304"
OUT = str(SAMPLE / "output.txt")


def run(*argv: str) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", *argv], capture_output=True, text=True, timeout=60
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_json_output_is_an_array_of_records_and_exit_status_is_1(capsys):
    assert main(["classify", "--json", "--cwd", str(SAMPLE), OUT]) == 1
    (rec,) = json.loads(capsys.readouterr().out)
    assert (rec["failure_type"], rec["source_file"], rec["source_line"]) == (
        "compile",
        "src/auth/middleware.ts",
        42,
    )


def test_clean_output_exits_0_with_a_readable_message(tmp_path, capsys):
    clean = tmp_path / "ok.txt"
    clean.write_text("Build succeeded, 0 errors, 0 warnings\n")
    assert main(["classify", str(clean)]) == 0
    assert "no failures" in capsys.readouterr().out


def test_text_format_is_a_table_with_a_summary(capsys):
    main(["classify", "--cwd", str(SAMPLE), OUT])
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["CATEGORY", "SEVERITY", "LOCATION", "SIGNAL"]
    assert "src/auth/middleware.ts:42:15" in out
    assert out.rstrip().endswith("1 failure: 1 compile")


def test_jsonl_gives_one_record_per_line(capsys):
    main(["classify", "--format", "jsonl", "--cwd", str(SAMPLE), OUT, OUT])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(json.loads(x)["code"] == "TS2304" for x in lines)


def test_sarif_is_version_2_1_0_with_a_located_result(capsys):
    main(["classify", "--format", "sarif", "--cwd", str(SAMPLE), OUT])
    doc = json.loads(capsys.readouterr().out)
    assert doc["version"] == "2.1.0"
    (result,) = doc["runs"][0]["results"]
    loc = result["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "src/auth/middleware.ts"
    assert loc["region"]["startLine"] == 42 and result["level"] == "error"


def test_github_format_is_a_workflow_error_command(capsys):
    main(["classify", "--format", "github", "--cwd", str(SAMPLE), OUT])
    out = capsys.readouterr().out
    assert out.startswith(
        "::error file=src/auth/middleware.ts,line=42,col=15,title=faultlens compile::"
    )


def test_stdin_is_read_when_no_file_is_given():
    proc = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", "classify", "--json", "--cwd", str(SAMPLE)],
        input=(SAMPLE / "output.txt").read_bytes(),
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 1 and json.loads(proc.stdout)[0]["source_line"] == 42


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["classify", "/no/such/file.log"], "cannot read /no/such/file.log"),
        (["classify", "--cwd", "/no/such/dir", OUT], "is not a directory"),
        (["classify", "--format", "xml", OUT], "invalid choice"),
        (["classify", str(SAMPLE)], "is a directory"),
    ],
)
def test_bad_usage_or_unreadable_input_exits_2_with_one_line_and_no_traceback(argv, needle):
    status, _out, err = run(*argv)
    assert status == 2
    assert needle in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_schema_command_prints_the_record_json_schema(capsys):
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    seed = [
        "failure_type",
        "severity",
        "signal",
        "source_file",
        "source_line",
        "auto_recoverable",
        "recipe",
        "recovery_attempted",
        "recovery_result",
    ]
    assert all(k in schema["properties"] for k in seed)
    assert set(schema["required"]) >= {"failure_type", "severity", "signal", "auto_recoverable"}
