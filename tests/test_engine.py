"""The streaming engine: input hygiene, chunking, bounded memory, stable ids."""

from __future__ import annotations

import io
import tracemalloc

import pytest

from faultlens.classifier import Classifier, Options, classify_bytes, classify_text
from faultlens.classifier.fingerprint import fingerprint
from faultlens.classifier.text import decode, visible

TSC = b"src/auth/middleware.ts(42,15): error TS2304: Cannot find name 'UserProfile'.\n"


def test_plain_tsc_line_gives_the_seed_record(tmp_path):
    (rec,) = classify_bytes(TSC, Options(cwd=str(tmp_path)))
    data = rec.to_json()
    assert {k: data[k] for k in list(data)[:9]} == {
        "failure_type": "compile",
        "severity": "blocking",
        "signal": "error TS2304: Cannot find name 'UserProfile'",
        "source_file": "src/auth/middleware.ts",
        "source_line": 42,
        "auto_recoverable": True,
        "recipe": "recipes/compile.md",
        "recovery_attempted": False,
        "recovery_result": None,
    }
    assert rec.source_column == 15 and rec.code == "TS2304" and rec.rule == "tsc.plain"


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64, 4096])
def test_records_do_not_depend_on_how_the_input_is_split(size):
    data = b"noise\r\n" * 50 + TSC.replace(b"\n", b"\r\n") + b"more noise\n" * 10 + TSC
    whole = [r.to_json() for r in classify_bytes(data)]
    c = Classifier()
    for i in range(0, len(data), size):
        c.feed(data[i : i + size])
    assert [r.to_json() for r in c.close()] == whole
    assert whole[0]["log_line"] == 51


def test_ansi_crlf_nul_and_invalid_utf8_are_tolerated():
    data = (
        b"\x1b[96msrc/a.ts\x1b[0m:\x1b[93m3\x1b[0m:\x1b[93m1\x1b[0m - \x1b[91merror\x1b[0m"
        b"\x1b[90m TS2304: \x1b[0mCannot find name 'X\xff\xfe'.\r\n\x00\x00garbage\xc3\n"
    )
    (rec,) = classify_bytes(data)
    assert rec.source_file == "src/a.ts" and rec.source_line == 3
    assert "\x1b" not in rec.signal and "\x00" not in rec.signal
    assert "\ufffd" in rec.message  # invalid bytes shown as replacement characters


def test_c1_escape_sequences_never_reach_a_record():
    """U+009B is CSI to a terminal, like `ESC [`; a record carrying it could
    restyle or move the cursor of the terminal that prints it."""
    data = "\x9b96msrc/a.ts\x9b0m(3,1): error TS2304: Cannot find name 'X'.\x9b0m\x85\n"
    (rec,) = classify_bytes(data.encode("utf-8"))
    assert rec.source_file == "src/a.ts" and rec.source_line == 3 and rec.code == "TS2304"
    assert not any("\x80" <= ch <= "\x9f" for ch in rec.signal + (rec.message or ""))
    assert decode(b"\xc2\xa9 2026") == "\u00a9 2026"  # Latin-1 text is left alone


def test_output_without_final_newline_is_classified():
    assert len(classify_bytes(TSC.rstrip(b"\n"))) == 1


def test_progress_bar_redraws_keep_only_the_visible_text():
    assert visible("downloading 10%\rdownloading 100%\r") == "downloading 100%"
    assert decode(b"a\r\nb\r\n") == "a\nb\n"


def test_a_line_of_many_megabytes_is_cut_not_held_and_later_lines_still_count():
    data = b"x" * (20 * 1024 * 1024) + b"\n" + TSC
    c = Classifier()
    stream = io.BytesIO(data)
    c.feed_stream(stream, chunk=256 * 1024)
    (rec,) = c.close()
    assert rec.log_line == 2
    assert len(c._pending) == 0


def test_memory_does_not_grow_with_the_size_of_the_output(monkeypatch):
    from faultlens.classifier import prefilter

    noise = b"compiling module 1234 of 99999 ... ok, 0 errors, no error found\n" * 16384  # ~1 MiB
    monkeypatch.setattr(prefilter, "HYPERSCAN_AFTER", 4 << 20)  # the last scanner from the start
    c = Classifier()
    tracemalloc.start()
    for _ in range(8):
        c.feed(noise)
    _, first = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    for _ in range(64):
        c.feed(noise)
    _, later = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    c.close()
    assert later < first * 1.5 + 512 * 1024, (first, later)


def test_the_same_failure_printed_twice_is_one_record():
    assert len(classify_bytes(TSC + b"noise\n" + TSC)) == 1


def test_same_message_at_two_lines_is_two_records_with_distinct_ids():
    second = TSC.replace(b"(42,15)", b"(50,3)")
    a, b = classify_bytes(TSC + second)
    assert a.id != b.id and a.id.split(".")[0] == b.id.split(".")[0]


def test_id_survives_an_import_inserted_above_the_failure():
    before = classify_text("src/a.ts(10,5): error TS2304: Cannot find name 'User'.\n")[0]
    after = classify_text("src/a.ts(11,5): error TS2304: Cannot find name 'User'.\n")[0]
    assert before.id == after.id
    assert before.id == fingerprint("compile", "TS2304", "src/a.ts", "Cannot find name 'User'.")


def test_a_rule_that_raises_is_skipped_and_reported():
    from faultlens.classifier.rules import all_rules
    from faultlens.classifier.rules.base import Rule

    def boom(m, ctx):
        raise RuntimeError("broken rule")

    bad = Rule(
        id="test.boom",
        category=all_rules()[0].category,
        tool="x",
        pattern=__import__("re").compile("error"),
        triggers=("error",),
        func=boom,
        family="test",
        priority=100,
    )
    c = Classifier(Options(rules=[bad, *all_rules()]))
    c.feed(TSC)
    assert [r.rule for r in c.close()] == ["tsc.plain"]
    assert c.rule_errors and c.rule_errors[0][0] == "test.boom"


def test_absolute_ci_runner_path_is_mapped_onto_the_cwd(tmp_path):
    (tmp_path / "src" / "auth").mkdir(parents=True)
    (tmp_path / "src" / "auth" / "middleware.ts").write_text("x\n")
    line = b"/home/runner/work/app/app/src/auth/middleware.ts(42,15): error TS2304: Cannot find name 'U'.\n"
    (rec,) = classify_bytes(line, Options(cwd=str(tmp_path)))
    assert rec.source_file == "src/auth/middleware.ts"


def test_absolute_path_inside_the_cwd_is_made_relative_and_unknown_paths_stay_as_printed(tmp_path):
    inside = f"{tmp_path}/lib/x.ts(1,1): error TS1005: ';' expected.\n".encode()
    outside = b"/nowhere/y.ts(1,1): error TS1005: ';' expected.\n"
    a, b = classify_bytes(inside + outside, Options(cwd=str(tmp_path)))
    assert a.source_file == "lib/x.ts"
    assert b.source_file == "/nowhere/y.ts"


def test_existing_path_in_another_copy_of_the_same_tree_maps_onto_the_cwd(tmp_path):
    for root in (tmp_path / "ci" / "app", tmp_path / "dev" / "app"):
        (root / "src").mkdir(parents=True)
        (root / "src" / "x.ts").write_text("let a = 1;\n")
    other = tmp_path / "dev" / "app" / "src" / "x.ts"
    line = f"{other}(1,5): error TS2304: Cannot find name 'b'.\n".encode()
    (rec,) = classify_bytes(line, Options(cwd=str(tmp_path / "ci" / "app")))
    assert rec.source_file == "src/x.ts"


def test_github_actions_log_timestamps_do_not_hide_failures():
    stamped = b"2026-11-30T10:25:00.1234567Z " + TSC
    (rec,) = classify_bytes(b"2026-11-30T10:24:59.0000000Z Run npx tsc\n" + stamped)
    assert rec.source_line == 42 and not rec.signal.startswith("2026")


def test_a_projects_own_pkg_folder_is_project_code_but_the_go_module_cache_is_not(tmp_path):
    from faultlens.classifier.locate import Locator

    for rel in ("pkg/store/db.go", "go/pkg/mod/github.com/x/y@v1/y.go"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("package x\n")
    loc = Locator(tmp_path)
    assert loc.in_project("pkg/store/db.go")
    assert not loc.in_project("go/pkg/mod/github.com/x/y@v1/y.go")


@pytest.mark.parametrize(
    "printed",
    [
        "D:/a/app/app/src/auth/middleware.ts",
        "D:\\a\\app\\app\\src\\auth\\middleware.ts",
        "d:\\a\\app\\app\\src\\auth\\middleware.ts",
    ],
)
def test_a_windows_ci_runner_path_is_mapped_onto_the_cwd(tmp_path, printed):
    (tmp_path / "src" / "auth").mkdir(parents=True)
    (tmp_path / "src" / "auth" / "middleware.ts").write_text("x\n")
    line = f"{printed}(42,15): error TS2304: Cannot find name 'U'.\n".encode()
    (rec,) = classify_bytes(line, Options(cwd=str(tmp_path)))
    assert rec.source_file == "src/auth/middleware.ts"


def test_a_windows_path_that_names_no_file_here_is_kept_absolute_and_never_climbs_out(tmp_path):
    (tmp_path / "ws").mkdir()
    (tmp_path / "secret.ts").write_text("x\n")
    lines = (
        b"D:\\a\\app\\app\\src\\gone.ts(1,1): error TS1005: ';' expected.\n"
        b"D:\\a\\..\\..\\..\\secret.ts(1,1): error TS1005: ';' expected.\n"
    )
    gone, climb = classify_bytes(lines, Options(cwd=str(tmp_path / "ws")))
    assert gone.source_file == "D:/a/app/app/src/gone.ts"
    assert climb.source_file == "D:/secret.ts"  # `..` folded first: never ../secret.ts


def test_two_failures_on_one_line_differing_only_in_numbers_are_two_records_with_stable_ids():
    out = (
        "calls.ts({n},33): error TS2554: Expected 2 arguments, but got 3.\n"
        "calls.ts({n},38): error TS2554: Expected 1 arguments, but got 0.\n"
    )
    before = classify_text(out.format(n=3))
    after = classify_text(out.format(n=4))  # a line inserted above both
    assert [r.message for r in before] == [
        "Expected 2 arguments, but got 3.",
        "Expected 1 arguments, but got 0.",
    ]
    assert len({r.id for r in before}) == 2
    assert [r.id for r in before] == [r.id for r in after]


def test_one_failure_printed_twice_is_still_one_record():
    line = "calls.ts(3,33): error TS2554: Expected 2 arguments,  but got 3.\n"
    assert len(classify_text(line + line.replace("  ", " "))) == 1


def test_a_rule_sees_a_line_only_when_its_trigger_survives_decoding():
    """The prefilter reads raw bytes; a rule is tried only when one of its
    triggers is still in the line as decoded: not when a CR redraw, a CI
    the long-line cut removed it, but whenever the
    line decodes byte for byte (then no trigger is looked for again)."""
    from faultlens.classifier.rules import all_rules
    from faultlens.classifier.rules.base import Hit, Rule

    def hit(m, ctx):
        return Hit(signal=ctx.line, message=ctx.line)

    probe = Rule(
        id="test.probe",
        category=all_rules()[0].category,
        tool="x",
        pattern=__import__("re").compile(""),  # matches any line it is tried on
        triggers=("BOOM", "Übel"),
        func=hit,
        family="test",
    )
    lines = [
        b"BOOM at start\n",  # kept
        b"BOOM\rprogress 100%\n",  # redrawn: the trigger is gone
        b"2024-05-01T10:00:00.1234567Z BOOM\n",  # a runner's stamp cut off: looked for, kept
        b"ein \xc3\x9cbel hier\n",  # a multi-byte trigger, decoded: kept
        b"x" * 70_000 + b" BOOM\n",  # past the cut
        b"mid \xff BOOM\n",  # an invalid byte decodes to one character: kept
    ]
    c = Classifier(Options(rules=[probe]))
    c.feed(b"".join(lines))
    assert [r.log_line for r in c.close()] == [1, 3, 4, 6]
