"""VS Code problem matchers as project rules: in .faultlens.toml, from the
workspace's .vscode/tasks.json, and VS Code's built-in names.

Outputs are real captures where the tool runs here (tsc: tests/samples;
the others are each tool's documented format, as VS Code's own matchers for
them read it: eslint's compact formatter left eslint's core in v9, and no
MSBuild, jshint, lessc or node-sass is installed on these machines)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.config import build_rule, load_config
from faultlens.classifier.problem_matcher import (
    BUILTIN_NAMES,
    Background,
    BuiltinRef,
    loads_jsonc,
    parse_matcher,
    resolve_builtin,
)
from faultlens.cli.main import main

SAMPLES = Path(__file__).parent / "samples"


def project(tmp_path: Path, toml: str) -> Path:
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / ".faultlens.toml").write_text(toml)
    return tmp_path


def toml(value) -> str:
    """A value as TOML (inline tables), for writing a matcher into .faultlens.toml."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def rule(matcher, **extra):
    return build_rule({"id": "t.pm", "category": "compile", "problemMatcher": matcher, **extra})


def test_a_single_pattern_with_named_groups_classifies():
    r = rule(
        {
            "owner": "acme",
            "pattern": {
                "regexp": r"^ACME (?<sev>ERROR|WARN) (.+?)@(\d+):(\d+) (.*)$",
                "severity": 1,
                "file": 2,
                "line": 3,
                "column": 4,
                "message": 5,
            },
        }
    )
    out = "ACME WARN a.txt@1:1 meh\nACME ERROR src/app.acme@12:3 it broke\n"
    (rec,) = classify_text(out, Options(rules=[r]))
    assert (rec.source_file, rec.source_line, rec.source_column, rec.message) == (
        "src/app.acme",
        12,
        3,
        "it broke",
    )
    assert rec.tool == "acme"


def test_the_default_groups_of_a_single_pattern_are_file_line_column_and_the_whole_line():
    r = rule({"pattern": {"regexp": r"^(\S+):(\d+):(\d+) oops$"}})
    (rec,) = classify_text("x.py:3:4 oops\n", Options(rules=[r]))
    assert (rec.source_file, rec.source_line, rec.source_column, rec.message) == (
        "x.py",
        3,
        4,
        "x.py:3:4 oops",
    )


def test_a_multi_line_pattern_with_loop_reports_every_problem_of_the_file():
    """$eslint-stylish's shape: a file line, then one problem a line."""
    r = rule(
        {
            "pattern": [
                {"regexp": r"^([^\s].*)$", "file": 1},
                {
                    "regexp": r"^\s+(\d+):(\d+)\s+(error|warning|info)\s+(.*?)(?:\s\s+(.*))?$",
                    "line": 1,
                    "column": 2,
                    "severity": 3,
                    "message": 4,
                    "code": 5,
                    "loop": True,
                },
            ]
        }
    )
    out = (SAMPLES / "javascript/eslint-stylish-errors/output.txt").read_text()
    recs = classify_text(out, Options(rules=[r]))
    errors = [ln for ln in out.splitlines() if "  error  " in ln]
    assert recs and len(recs) == len(errors)
    assert all(r.rule == "t.pm" and r.source_file and r.source_line and r.log_line for r in recs)


def test_tsc_output_through_a_tasks_json_matcher_with_a_base_path(tmp_path):
    sample = SAMPLES / "typescript" / "tsc-plain-ts2304"
    (tmp_path / ".vscode").mkdir()
    (tmp_path / ".vscode" / "tasks.json").write_text(
        """{
  // VS Code reads comments and trailing commas here
  "version": "2.0.0",
  "tasks": [
    {
      "label": "build web",
      "type": "shell",
      "command": "tsc -p web",
      "problemMatcher": {
        "owner": "typescript",
        "fileLocation": ["relative", "${workspaceFolder}/web"],
        "pattern": {
          "regexp": "^([^\\\\s].*)\\\\((\\\\d+|\\\\d+,\\\\d+|\\\\d+,\\\\d+,\\\\d+,\\\\d+)\\\\):\\\\s+(error|warning|info)\\\\s+(TS\\\\d+)\\\\s*:\\\\s*(.*)$",
          "file": 1, "location": 2, "severity": 3, "code": 4, "message": 5,
        },
      },
    },
    { "label": "lint", "problemMatcher": ["$eslint-stylish", "$tsc"], },
  ],
}
"""
    )
    cwd = project(tmp_path, 'vscode_tasks = true\ndisable = ["tsc.*"]\n')
    cfg = load_config(cwd)
    assert cfg.errors == []
    assert [r.id for r in cfg.rules] == ["vscode.build_web"]
    assert "tsc.*" in cfg.enable  # "$tsc" keeps the built-ins on despite `disable`
    (rec,) = classify_text((sample / "output.txt").read_text(), Options(cwd=str(cwd)))
    assert rec.rule == "vscode.build_web"
    assert (rec.source_file, rec.source_line, rec.source_column) == (
        "web/src/auth/middleware.ts",
        42,
        15,
    )


def test_builtin_names_resolve_to_faultlens_rules_or_its_own_matchers():
    wanted = {
        "$tsc",
        "$tsc-watch",
        "$gcc",
        "$eslint-stylish",
        "$eslint-compact",
        "$msCompile",
        "$go",
        "$jshint",
        "$lessc",
        "$node-sass",
    }
    assert wanted <= set(BUILTIN_NAMES)
    from faultlens.classifier.rules.registry import all_rules

    ids = [r.id for r in all_rules()]
    import fnmatch

    for name in wanted:
        found = resolve_builtin(name)
        if isinstance(found, BuiltinRef):
            assert all(any(fnmatch.fnmatchcase(i, g) for i in ids) for g in found.rules), name


@pytest.mark.parametrize(
    ("name", "output", "where"),
    [
        (
            "$eslint-compact",
            "src/a.js: line 3, col 7, Error - 'x' is assigned a value but never used. (no-unused-vars)\n",
            ("src/a.js", 3, 7, "no-unused-vars"),
        ),
        (
            "$msCompile",
            "Program.cs(10,13): error CS0103: The name 'x' does not exist in the current context [/w/app.csproj]\n",
            ("Program.cs", 10, 13, "CS0103"),
        ),
        (
            "$jshint",
            "lib/b.js: line 4, col 9, Missing semicolon. (W033)\n",
            ("lib/b.js", 4, 9, "W033"),
        ),
        (
            "$lessc",
            "SyntaxError: Unrecognised input in /w/style.less on line 4, column 3:\n",
            ("/w/style.less", 4, 3, None),
        ),
        (
            "$node-sass",
            'Error: Invalid CSS after "a {": expected "}", was ""\n        on line 3 of src/x.scss\n',
            ("src/x.scss", 3, None, None),
        ),
    ],
)
def test_faultlens_own_matchers_for_vs_codes_builtin_names(name, output, where):
    (rec,) = classify_text(output, Options(rules=[rule(name)]))
    assert (rec.source_file, rec.source_line, rec.source_column, rec.code) == where


def test_tsc_watch_keeps_its_background_patterns_for_a_watcher(tmp_path):
    cwd = project(
        tmp_path,
        '[[rules]]\nid = "team.watch"\ncategory = "compile"\nproblemMatcher = "$tsc-watch"\n',
    )
    cfg = load_config(cwd)
    bg = cfg.matchers["team.watch"].background
    assert isinstance(bg, Background) and bg.active_on_start
    assert bg.begins_at("[10:00:01 AM] Starting compilation in watch mode...")
    assert bg.begins_at("10:00:03 - File change detected. Starting incremental compilation...")
    assert bg.ends_at("[10:00:02 AM] Found 1 error. Watching for file changes.")
    assert not bg.ends_at("src/a.ts(1,1): error TS2304: Cannot find name 'X'.")


def test_an_objects_background_patterns_are_kept_too():
    m = parse_matcher(
        {
            "pattern": {"regexp": r"^(.*):(\d+): (.*)$", "file": 1, "line": 2, "message": 3},
            "background": {
                "beginsPattern": "^build start",
                "endsPattern": {"regexp": "^build done"},
            },
        }
    )
    assert m.background is not None and m.background.ends_at("build done in 3s")


@pytest.mark.parametrize(
    ("matcher", "needle"),
    [
        ("$nope", "unknown problem matcher '$nope'"),
        ({"pattern": {"regexp": "(unclosed"}}, "not a valid regular expression"),
        ({"pattern": {"regexp": r"^(\S+) (.*)$", "file": 1, "message": 5}}, "regexp has 2"),
        (
            {"pattern": [{"regexp": r"^x (.*)$", "file": 1}, {"regexp": r"^(\d+)", "line": 1}]},
            "file and a message",
        ),
        ({"pattern": [{"regexp": "^a", "loop": True}, {"regexp": "b"}]}, "only the last"),
        ({"pattern": {"regexp": r"^(.*):(\d+)$"}, "fileLocation": "sideways"}, "fileLocation"),
        (3, "must be a table or a built-in matcher's name"),
    ],
)
def test_a_bad_matcher_is_one_line_naming_the_rule(tmp_path, capsys, matcher, needle):
    cwd = project(
        tmp_path,
        f'[[rules]]\nid = "a.pm"\ncategory = "compile"\nproblemMatcher = {toml(matcher)}\n',
    )
    log = tmp_path / "o.log"
    log.write_text("src/x.ts(1,1): error TS2304: Cannot find name 'X'.\n")
    assert main(["classify", "--json", "--cwd", str(cwd), str(log)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and needle in err[0] and "rule 'a.pm'" in err[0], err
    assert '"tsc.plain"' in captured.out


def test_tasks_json_problems_are_one_line_each(tmp_path):
    (tmp_path / ".vscode").mkdir()
    (tmp_path / ".vscode" / "tasks.json").write_text(
        '{"tasks": [{"label": "x", "problemMatcher": "$zz"}, 5]}'
    )
    cfg = load_config(project(tmp_path, "vscode_tasks = true\n"))
    assert len(cfg.errors) == 2
    assert "task #2 is not an object" in cfg.errors[0]
    assert (
        "tasks.json task 'x'" in cfg.errors[1] and "unknown problem matcher '$zz'" in cfg.errors[1]
    )


def test_jsonc_reads_comments_and_trailing_commas_but_not_inside_strings():
    assert loads_jsonc('{"a": "x // y", /* c */ "b": [1, 2,], // end\n}') == {
        "a": "x // y",
        "b": [1, 2],
    }
    with pytest.raises(ValueError, match="not valid JSON"):
        loads_jsonc('{"a" 1}')
