"""Vim errorformat project rules inside faultlens: several start formats,
multi-line entries, the directory and file stacks, %>, compilers by name,
and bad rules that never stop the others (issue 14, 19.13, 19.15, 19.16).

The quickfix semantics themselves are proved against real Vim in
tests/test_errorformat_vim.py; here the inputs are small outputs whose
expected entries that test's oracle agrees with."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.config import parse_config
from faultlens.classifier.config_rules import OFFLINE, build_rule
from faultlens.classifier.errorformat import ErrorformatError, compile_errorformat, parts
from faultlens.classifier.project_rules import case_variants, efm_triggers
from faultlens.classifier.quickfix import parse_lines
from faultlens.cli.main import main

SAMPLES = Path(__file__).parent / "samples"


def project(tmp_path: Path, toml: str, name: str = ".faultlens.toml") -> Path:
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / name).write_text(toml)
    return tmp_path


def efm_rule(efm, **extra):
    return build_rule({"id": "t.efm", "category": "compile", "errorformat": efm, **extra})


def test_two_start_formats_load_and_both_classify(tmp_path):
    """19.15: `["%f:%l:%c: %m", "%f:%l: %m"]` raised re.error (a group name
    defined twice) and turned every rule off."""
    cwd = project(
        tmp_path,
        '[[rules]]\nid = "team.lint"\ncategory = "compile"\n'
        'errorformat = ["%f:%l:%c: %m", "%f:%l: %m"]\n',
    )
    out = "lint: src/a.py:3:7: bad thing\nsrc/b.py:9: other thing\n"
    recs = classify_text(out, Options(cwd=str(cwd)))
    assert [(r.source_file, r.source_line, r.source_column, r.rule) for r in recs] == [
        ("lint: src/a.py", 3, 7, "team.lint"),
        ("src/b.py", 9, None, "team.lint"),
    ]
    tsc = "src/x.ts(1,1): error TS2304: Cannot find name 'X'.\n"
    (rec,) = classify_text(tsc, Options(cwd=str(cwd)))
    assert rec.rule.startswith("tsc.")  # the built-ins still work beside it


def test_a_multi_line_entry_collects_its_continuation_lines():
    rule = efm_rule(["%E%f:%l: error: %m", "%C    %m", "%Z"])
    out = "x\nlib/a.c:4: error: broken\n    first detail\n    second detail\n\nafter\n"
    (rec,) = classify_text(out, Options(rules=[rule]))
    assert (rec.source_file, rec.source_line, rec.log_line) == ("lib/a.c", 4, 2)
    assert rec.message == "broken\nfirst detail\nsecond detail"


def test_the_directory_stack_finds_files_under_entered_directories(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "sub" / "m.c").write_text("int x;\n")
    rule = efm_rule("%Dmake: Entering directory '%f',%Xmake: Leaving directory '%f',%f:%l: %m")
    out = (
        "make: Entering directory 'pkg'\n"
        "make: Entering directory 'sub'\n"
        "m.c:1: error: bad\n"
        "make: Leaving directory 'sub'\n"
        "make: Leaving directory 'pkg'\n"
        "top.c:2: error: worse\n"
    )
    recs = classify_text(out, Options(cwd=str(tmp_path), rules=[rule]))
    assert [(r.source_file, r.source_line) for r in recs] == [("pkg/sub/m.c", 1), ("top.c", 2)]


def test_the_file_stack_names_the_file_of_entries_that_name_none(tmp_path):
    (tmp_path / "doc.tex").write_text("x\n")
    rule = efm_rule(["%+P(%f%r", "%+Q)%r", "%El.%l %m", "%-G%.%#"])
    out = "(doc.tex\nl.7 Undefined control sequence\n)\n"
    (rec,) = classify_text(out, Options(cwd=str(tmp_path), rules=[rule]))
    assert (rec.source_file, rec.source_line) == ("doc.tex", 7)


def test_percent_greater_continues_the_next_line_at_the_same_format():
    """`:help efm-%>`: the line after the %E one is not tried against the
    general format before it, which would take it."""
    efm = ["%+Gunknown%m", "%E%>Error in line %l of %f:", "%Z%m"]
    out = 'Error in line 123 of foo.c:\nunknown variable "i"\n'
    (rec,) = classify_text(out, Options(rules=[efm_rule(efm)]))
    assert (rec.source_file, rec.source_line, rec.message) == ("foo.c", 123, 'unknown variable "i"')
    without = [f.replace("%>", "") for f in efm]
    (rec,) = classify_text(out, Options(rules=[efm_rule(without)]))
    assert rec.message == "Error in line 123 of foo.c:"  # the general format took line 2


def test_warnings_and_general_lines_are_not_failures_unless_asked():
    efm = "%f:%l: %t%*[a-z]: %m,%+GSummary: %m"
    out = "a.c:1: warning: unused\na.c:2: error: broken\nSummary: 1 error\n"
    quiet = efm_rule(efm)
    loud = efm_rule(efm, include_warnings=True)
    assert [r.source_line for r in classify_text(out, Options(rules=[quiet]))] == [2]
    assert [r.source_line for r in classify_text(out, Options(rules=[loud]))] == [1, 2]


def test_an_ignored_line_inside_an_entry_is_still_seen_by_the_built_ins():
    """`%-G%.%#` after an open %E swallows every line in Vim; faultlens keeps
    reading them with its own rules too."""
    rule = efm_rule(["%EERR %f:%l %m", "%-G%.%#"])
    tsc = "src/x.ts(1,1): error TS2304: Cannot find name 'X'.\n"
    out = "ERR a.txt:3 first\n" + tsc
    recs = classify_text(out, Options(rules=[rule, *_tsc_rules()]))
    assert {r.rule for r in recs} == {"t.efm", "tsc.plain"}


def _tsc_rules():
    from faultlens.classifier.rules.registry import all_rules

    return [r for r in all_rules() if r.id.startswith("tsc.")]


def test_real_gcc_output_read_with_vims_gcc_errorformat(tmp_path):
    """The gcc samples' real output, read with Vim's own gcc compiler
    errorformat as a project rule (the built-in C rules turned off)."""
    pytest.importorskip("faultlens.classifier.vimcompiler")
    from faultlens.classifier.vimcompiler import CompilerError, errorformat

    try:
        errorformat("gcc")
    except CompilerError as exc:
        pytest.skip(str(exc))
    cwd = project(
        tmp_path,
        'disable = ["c.*"]\n[[rules]]\nid = "team.gcc"\ncategory = "compile"\ncompiler = "gcc"\n',
    )
    # a gcc sample by name: the first of a glob is whatever the file system lists
    text = (SAMPLES / "c" / "gcc-undeclared-in-function" / "output.txt").read_text(errors="replace")
    recs = classify_text(text, Options(cwd=str(cwd)))
    errors = {
        tuple(ln.split(":")[:2]) for ln in text.splitlines() if ": error: " in ln and ln[:1] != " "
    }
    found = {(r.source_file, str(r.source_line)) for r in recs}
    assert errors and errors <= found
    assert all(r.rule == "team.gcc" and r.source_line for r in recs)


# -- bad rules ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("efm", "needle"),
    [
        ("%f:%l:%l: %m", "%l appears twice"),
        ("%f:%l:%y", "unknown item %y"),
        ("%Dx%m", "%m cannot be used in a %D format"),
        ("%f:%r", "%r is only for %O, %P and %Q"),
        ("%*x%m", "%*x is not supported"),
        ("%f:%*[abc", "%*[ without a closing ]"),
        ("a%Eb%m", "unknown item %E"),
        ("%-", "prefix letter must follow"),
        ("%f%\\(%m", "unmatched \\("),
        ("%m%~", "last substitute string"),
    ],
)
def test_an_errorformat_vim_refuses_is_refused_with_the_reason(efm, needle):
    with pytest.raises(ErrorformatError) as err:
        compile_errorformat(efm)
    assert needle in str(err.value)


def test_catastrophic_backtracking_is_cut_off_and_reported_once(tmp_path, capsys):
    """19.13: `(a+)+$` on `ERR aaaa…b` hung classify.  Project patterns now run
    in the `regex` module, which gets through that one at once, under a time
    limit per line: a pattern that still backtracks for ever (`(a|aa)+$`)
    gives up, is named once, and every other rule goes on."""
    cwd = project(
        tmp_path,
        '[[rules]]\nid = "issue.re"\ncategory = "infra"\nregex = "ERR (a+)+$"\n'
        '[[rules]]\nid = "evil.re"\ncategory = "infra"\nregex = "ERR (a|aa)+$"\n',
    )
    log = tmp_path / "out.log"
    bad = "ERR " + "a" * 40 + "b\n"
    log.write_text(bad * 50 + "src/x.ts(1,1): error TS2304: Cannot find name 'X'.\n")
    t0 = time.monotonic()
    assert main(["classify", "--json", "--cwd", str(cwd), str(log)]) == 2
    elapsed = time.monotonic() - t0
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "'evil.re'" in err[0] and ".faultlens.toml" in err[0], err
    assert "backtracks" in err[0]
    assert '"tsc.plain"' in captured.out  # the built-ins still classified
    assert elapsed < 30  # without the guard this runs for hours


def test_catastrophic_errorformat_is_cut_off_too():
    from faultlens.classifier import Classifier

    rule = efm_rule("%f:%\\(a%\\|aa%\\)%\\+!")
    line = "x.c:" + "a" * 40 + "b\n"
    t0 = time.monotonic()
    c = Classifier(Options(rules=[rule]))
    c.feed((line * 20).encode())
    c.close()
    assert time.monotonic() - t0 < 20
    assert [rid for rid, _ in c.rule_errors] == ["t.efm"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("tool = 1\n[project]\nname = 'x'\n", "`tool` must be a table"),
        ("[tool]\nfaultlens = 'on'\n", "[tool.faultlens] must be a table, not a string"),
        ("[tool.faultlens]\ndisable = 'python.*'\n", "`disable` must be a list"),
        ("[tool.faultlens]\nrules = 3\n", "`rules` must be an array of tables"),
        ("[tool.faultlens]\nrules = [1]\n", "must be a table, not an integer"),
        ("[tool.faultlens]\ndisabel = []\n", "unknown key `disabel`"),
        ("[tool.faultlens]\nvscode_tasks = 'yes'\n", "`vscode_tasks` must be true or false"),
    ],
)
def test_odd_config_shapes_are_one_line_errors_not_tracebacks(tmp_path, capsys, text, needle):
    """19.16: `tool = 1` in pyproject.toml raised TypeError; now every shape
    of config gets the same one-line errors as a bad rule."""
    cwd = project(tmp_path, text, "pyproject.toml")
    log = tmp_path / "o.log"
    log.write_text("src/x.ts(1,1): error TS2304: Cannot find name 'X'.\n")
    assert main(["classify", "--json", "--cwd", str(cwd), str(log)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and needle in err[0] and "pyproject.toml" in err[0], err
    assert '"tsc.plain"' in captured.out


def test_parse_config_is_a_function_of_path_and_bytes():
    cfg = parse_config(
        Path("/nowhere/.faultlens.toml"),
        b'[[rules]]\nid = "a.b"\ncategory = "compile"\nerrorformat = "%f:%l: %m"\n'
        b'[[rules]]\nid = "a.c"\ncategory = "compile"\ncompiler = "gcc"\n',
        OFFLINE,
    )
    assert [r.id for r in cfg.rules] == ["a.b"]
    (err,) = cfg.errors
    assert "rule 'a.c'" in err and "Vim's runtime" in err
    assert (
        parse_config(Path("x.toml"), b"\xff\xfe", OFFLINE)
        .errors[0]
        .endswith("not UTF-8 text (invalid start byte at byte 0)")
    )


# -- pieces -----------------------------------------------------------------------
def test_formats_split_at_unescaped_commas_and_skip_the_spaces_after():
    assert parts("%f:%l:%m, %f\\,%l,,x") == [
        ("%f:%l:%m", ","),
        ("%f\\,%l", ","),
        ("", ","),
        ("x", ""),
    ]


def test_triggers_come_from_each_start_format_in_every_common_case():
    fmts = compile_errorformat(["%f:%l: error: %m", "%-G%.%#", "%C  %m"])
    assert efm_triggers(fmts) == tuple(case_variants(": error: "))
    assert case_variants("error:") == ["error:", "ERROR:", "Error:"]
    assert efm_triggers(compile_errorformat("%E%m")) is None  # no literal: every line


def test_a_format_without_literal_text_sees_every_line():
    rule = efm_rule("%Z--,%E%m")
    (rec,) = classify_text("whatever broke\n--\n", Options(rules=[rule]))
    assert rec.message == "whatever broke"


def test_numbers_read_past_their_group_as_vims_atol_does():
    (e,) = [x for x in parse_lines(compile_errorformat("%f:%l%c:%m"), ["a.c:11:x"]) if x.valid]
    assert (e.lnum, e.col) == (11, 1)


def test_errorformat_warnings_count_when_warnings_failed_the_run():
    """A %W entry is a warning (classifier/warnings_policy.py): a record when
    the run failed with nothing but warnings, not beside an error."""
    rule = efm_rule("%f:%l: %t%*[a-z]: %m")
    only = "a.c:1: warning: unused\n"
    failed = Options(rules=[rule], exit_code=1, command=["lint", "a.c"])
    (rec,) = classify_text(only, failed)
    assert rec.source_line == 1 and rec.hint.get("warning")
    both = only + "a.c:2: error: broken\n"
    assert [r.source_line for r in classify_text(both, failed)] == [2]
