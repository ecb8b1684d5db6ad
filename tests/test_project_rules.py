"""Project rules from `[tool.faultlens]` / `.faultlens.toml`: regexes,
Vim errorformats, disabled built-ins, and clear errors for bad rules."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.config import required_literal
from faultlens.classifier.errorformat import ErrorformatError, compile_errorformat
from faultlens.cli.main import main

SAMPLES = Path(__file__).parent / "samples"


def project(tmp_path: Path, toml: str, name: str = ".faultlens.toml") -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / name).write_text(toml)
    return tmp_path


def test_regex_rule_with_named_groups_classifies_and_locates(tmp_path):
    cwd = project(
        tmp_path,
        """
[[rules]]
id = "acme.deploy"
category = "infra"
regex = 'DEPLOY FAILED at (?P<file>[^:]+):(?P<line>\\d+): (?P<message>.+)'
""",
    )
    (rec,) = classify_text(
        "ok\nDEPLOY FAILED at deploy/app.yaml:12: quota exceeded\n", Options(cwd=str(cwd))
    )
    assert (rec.failure_type, rec.source_file, rec.source_line) == ("infra", "deploy/app.yaml", 12)
    assert rec.rule == "acme.deploy" and rec.message == "quota exceeded"


def test_pyproject_table_is_read_and_builtin_rules_can_be_disabled(tmp_path):
    cwd = project(
        tmp_path, '[project]\nname = "x"\n[tool.faultlens]\ndisable = ["tsc.*"]\n', "pyproject.toml"
    )
    out = "src/a.ts(1,1): error TS2304: Cannot find name 'X'.\n"
    assert classify_text(out, Options(cwd=str(cwd))) == []


def test_vim_errorformat_multiline_entry_from_real_gcc_output(tmp_path):
    """The gcc sample's real output, read with the errorformat a Vim user has
    for gcc; the built-in C rules are disabled so the project rule is the
    one that speaks."""
    sample = next((SAMPLES / "c").glob("*/output.txt"), None)
    if sample is None:
        pytest.skip("no gcc sample yet")
    cwd = project(
        tmp_path,
        """
disable = ["c.*"]
[[rules]]
id = "team.gcc"
category = "compile"
errorformat = '%f:%l:%c: %trror: %m,%-G%f:%l:%c: warning: %m,%-G%.%#'
""",
    )
    text = sample.read_text(errors="replace")
    records = classify_text(text, Options(cwd=str(cwd)))
    errors = [ln for ln in text.splitlines() if ": error: " in ln and ln[:1] not in " \t"]
    assert len(records) == len(
        {e.split(": error: ", 1)[0] + e.split(": error: ", 1)[1] for e in errors}
    )
    assert all(r.rule == "team.gcc" and r.source_line for r in records)


def test_errorformat_start_continuation_end():
    out = "Error in src/x.c line 3\n    missing semicolon\n    before '}'\n--\nunrelated\n"
    efm = ["%ESrc error", "%EError in %f line %l", "%C    %m", "%Z--"]
    from faultlens.classifier.config_rules import build_rule

    rule = build_rule({"id": "t.multi", "category": "compile", "errorformat": efm})
    (rec,) = classify_text(out, Options(rules=[rule]))
    assert (rec.source_file, rec.source_line) == ("src/x.c", 3)
    assert rec.message == "missing semicolon\nbefore '}'"
    assert rec.log_line == 1


def test_errorformat_type_w_is_not_a_failure_unless_asked():
    from faultlens.classifier.config_rules import build_rule

    efm = "%f:%l: %t%*[a-z]: %m"
    out = "a.c:1: warning: unused\na.c:2: error: broken\n"
    quiet = build_rule({"id": "t.w", "category": "compile", "errorformat": efm})
    loud = build_rule(
        {"id": "t.w2", "category": "compile", "errorformat": efm, "include_warnings": True}
    )
    assert [r.source_line for r in classify_text(out, Options(rules=[quiet]))] == [2]
    assert [r.source_line for r in classify_text(out, Options(rules=[loud]))] == [1, 2]


@pytest.mark.parametrize(
    ("regex", "literal"),
    [
        (r"DEPLOY FAILED at (?P<file>\S+)", "DEPLOY FAILED at "),
        (r"^(?P<file>\S+): error: (?P<message>.+)$", ": error: "),
        (r"errors?: x", "error"),
        (r"a|b", None),
        (r"(?P<file>\S+)", None),
    ],
)
def test_required_literal_is_read_from_the_regex(regex, literal):
    assert required_literal(regex) == literal


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        (
            'id = "bad id"\ncategory = "compile"\nregex = "x: (?P<message>.+)"',
            "`id` must look like",
        ),
        ('id = "a.b"\ncategory = "typo"\nregex = "xx"', "`category` must be one of"),
        ('id = "a.b"\ncategory = "compile"\nregex = "(unclosed"', "does not compile"),
        ('id = "a.b"\ncategory = "compile"\nregex = "(?P<file>\\\\S+)"', "give `triggers`"),
        ('id = "a.b"\ncategory = "compile"\nregex = "xx (?P<weird>.)"', "unknown named groups"),
        ('id = "a.b"\ncategory = "compile"\nerrorformat = "%f:%l:%y"', "unknown item %y"),
        ('id = "a.b"\ncategory = "compile"\nerrorformat = "%D%f"', "can report no failure"),
        ('id = "a.b"\ncategory = "compile"\ncompiler = "no-such-tool"', "no-such-tool"),
        ('id = "a.b"\ncategory = "compile"\nregex = "xx"\nerrorformat = "%f"', "exactly one of"),
        ('id = "a.b"\ncategory = "compile"\nregex = "xx"\ntypo = 1', "unknown key `typo`"),
        ('id = "tsc.plain"\ncategory = "compile"\nregex = "xx"', "already used"),
        ('id = "a.b"\ncategory = "compile"', "exactly one of"),
    ],
)
def test_a_bad_rule_is_one_clear_error_naming_it_and_classify_exits_2(
    tmp_path, capsys, spec, needle
):
    cwd = project(tmp_path, f"[[rules]]\n{spec}\n")
    log = tmp_path / "out.log"
    log.write_text("nothing\n")
    assert main(["classify", "--cwd", str(cwd), str(log)]) == 2
    err = capsys.readouterr().err
    assert needle in err and ".faultlens.toml" in err and len(err.strip().splitlines()) == 1


def test_bad_rules_never_stop_the_good_ones(tmp_path):
    cwd = project(
        tmp_path,
        '[[rules]]\nid = "a.bad"\ncategory = "nope"\nregex = "xx"\n'
        '[[rules]]\nid = "a.good"\ncategory = "infra"\nregex = "BOOM (?P<message>.+)"\n',
    )
    (rec,) = classify_text("BOOM disk on fire\n", Options(cwd=str(cwd)))
    assert rec.rule == "a.good"


def test_invalid_toml_is_reported_with_the_file_name(tmp_path, capsys):
    cwd = project(tmp_path, "[[rules]\n")
    assert main(["classify", "--cwd", str(cwd), "/dev/null"]) == 2
    assert "invalid TOML" in capsys.readouterr().err


def test_errorformat_compile_errors_say_which_format():
    with pytest.raises(ErrorformatError, match="unknown item %y"):
        compile_errorformat("%f:%l:%y")


def test_config_in_a_parent_folder_applies_to_a_subfolder(tmp_path):
    cwd = project(
        tmp_path, '[[rules]]\nid = "a.up"\ncategory = "infra"\nregex = "UPSTREAM (?P<message>.+)"\n'
    )
    sub = cwd / "pkg" / "sub"
    sub.mkdir(parents=True)
    (rec,) = classify_text("UPSTREAM gone\n", Options(cwd=str(sub)))
    assert rec.rule == "a.up"
    shutil.rmtree(sub)


def test_json_cli_output_carries_the_project_rule_id(tmp_path, capsys):
    cwd = project(
        tmp_path,
        '[[rules]]\nid = "a.cli"\ncategory = "test"\nregex = "SPEC FAIL (?P<message>.+)"\n',
    )
    log = tmp_path / "o.log"
    log.write_text("SPEC FAIL login works\n")
    assert main(["classify", "--json", "--cwd", str(cwd), str(log)]) == 1
    assert json.loads(capsys.readouterr().out)[0]["rule"] == "a.cli"


# A project rule that gives up while classifying: one line, no traceback, once
# (issue 27, item 10).  The CLI runs as a process: under pytest the log
# records never reach stderr, which hid the engine's and the guard's own
# warnings (three copies of the message, one with a traceback).
GIVE_UP_RULES = {
    "a regex that backtracks without end": (
        'regex = "ERR (a|aa)+$"',
        ("ERR " + "a" * 40 + "b\n") * 3,
        "backtracks",
    ),
    "an errorformat that backtracks without end": (
        "errorformat = '%f:%\\(a%\\|aa%\\)%\\+!'",
        ("x.c:" + "a" * 40 + "b\n") * 3,
        "backtracks",
    ),
}


def _cli(cwd: Path, *args: str) -> tuple[int, str, str]:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "faultlens.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, done.stdout, done.stderr


def _give_up_project(tmp_path: Path, spec: str, output: str) -> Path:
    cwd = project(
        tmp_path,
        f'[[rules]]\nid = "a.quits"\ncategory = "compile"\n{spec}\n'
        '[[rules]]\nid = "a.good"\ncategory = "infra"\nregex = "BOOM (?P<message>.+)"\n',
    )
    (cwd / "out.log").write_text(output + "BOOM disk on fire\n" + output)
    return cwd


@pytest.mark.parametrize("kind", sorted(GIVE_UP_RULES))
def test_a_rule_that_gives_up_is_one_line_in_classify_and_the_others_classify(tmp_path, kind):
    spec, output, needle = GIVE_UP_RULES[kind]
    cwd = _give_up_project(tmp_path, spec, output)
    code, out, err = _cli(cwd, "classify", "--json", "out.log")
    assert code == 2, err  # the configuration needs mending
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "'a.quits'" in lines[0] and needle in lines[0], lines
    assert ".faultlens.toml" in lines[0]
    assert "a.good" in {r["rule"] for r in json.loads(out)}


@pytest.mark.parametrize("kind", sorted(GIVE_UP_RULES))
def test_a_rule_that_gives_up_is_one_line_in_faultlens_run(tmp_path, kind):
    spec, output, needle = GIVE_UP_RULES[kind]
    cwd = _give_up_project(tmp_path, spec, output)
    _, _, err = _cli(cwd, "run", "--", "cat", "out.log")
    assert "Traceback" not in err
    said = [line for line in err.splitlines() if "a.quits" in line]
    assert len(said) == 1 and needle in said[0] and ".faultlens.toml" in said[0], err
    assert "1 infra failure" in err  # the other rule's record


def test_a_rule_that_raises_on_every_line_is_one_rule_error_and_logs_no_traceback(caplog):
    import dataclasses
    import logging

    from faultlens.classifier import Classifier
    from faultlens.classifier.project_rules import regex_rule
    from faultlens.classifier.taxonomy import FailureType

    rule = regex_rule("t.raises", FailureType.COMPILE, "t", "RAISE (?P<message>.+)", ["RAISE"])

    def boom(m, ctx):  # type: ignore[no-untyped-def]
        raise KeyError("no such group")

    c = Classifier(Options(rules=[dataclasses.replace(rule, func=boom)]))
    with caplog.at_level(logging.DEBUG, logger="faultlens"):
        c.feed(b"RAISE one\nRAISE two\nRAISE three\n")
        c.close()
    assert c.rule_errors == [("t.raises", "KeyError: 'no such group'")]
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not loud, [r.getMessage() for r in loud]


@pytest.mark.parametrize("number", ["\u00b2", "\u0663", "9" * 5000, "0" * 30 + "7"])
def test_a_line_number_no_int_can_hold_is_no_line_and_the_rule_does_not_raise(tmp_path, number):
    """`²` is a digit to str.isdigit() and none to int(); 5000 digits are over
    int()'s limit: each made every rule reading a line group raise at match
    time (the record lost), not a record without a line."""
    from faultlens.classifier import Classifier

    cwd = project(
        tmp_path,
        '[[rules]]\nid = "a.loc"\ncategory = "compile"\n'
        'regex = "LOC (?P<file>\\\\S+):(?P<line>[^:]+): (?P<message>.+)"\n'
        '[[rules]]\nid = "a.pm"\ncategory = "compile"\n'
        'problemMatcher = {pattern = {regexp = "^PM (\\\\S+):(\\\\d+): (.+)$", '
        "file = 1, line = 2, message = 3}}\n",
    )
    c = Classifier(Options(cwd=str(cwd)))
    c.feed(f"LOC a.c:{number}: bad\nPM b.c:{number}: worse\n".encode())
    records = c.close()
    assert not c.rule_errors, c.rule_errors
    by_rule = {r.rule: r for r in records}
    assert by_rule["a.loc"].source_file == "a.c" and by_rule["a.loc"].message == "bad"
    if number.isascii() and len(number.lstrip("0")) < 10:
        assert by_rule["a.loc"].source_line == 7
        assert by_rule["a.pm"].source_line == 7
    else:
        assert by_rule["a.loc"].source_line is None


def test_vim_reads_a_number_of_thousands_of_digits_as_the_largest_long():
    from faultlens.classifier.quickfix_text import atol

    assert atol("9" * 5000, 0) == 2**63 - 1
    assert atol("-" + "0" * 40 + "12", 0) == -12
