"""The server's pure parts: settings, globs, ranges, argv validation, the store."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as T
from pygls.workspace import PositionCodec

from faultlens.classifier.record import FailureRecord
from faultlens.server import convert, runner, watch
from faultlens.server.placement import Placement, key_line
from faultlens.server.settings import Settings, describe, parse_settings
from faultlens.server.store import Entry, FailureStore


def record(**kw: object) -> FailureRecord:
    base: dict[str, object] = dict(
        failure_type="compile",
        severity="blocking",
        signal="x",
        auto_recoverable=True,
        recipe="recipes/compile.md",
        id="a1",
    )
    base.update(kw)
    return FailureRecord.from_json(base)


def test_bad_settings_fall_back_per_field_with_a_message():
    s, problems = parse_settings(
        {
            "faultlens": {
                "autoRecover": "maybe",
                "watchGlobs": ["a/*.log"],
                "logDir": "state",
                "unknown": 1,
            }
        }
    )
    assert s.auto_recover is False and s.watch_globs == ["a/*.log"] and s.state_dir == "state"
    assert len(problems) == 1 and "autoRecover" in problems[0]
    assert parse_settings("nonsense")[1] and parse_settings(None) == (Settings(), [])


def test_run_commands_given_as_strings_are_split_not_shelled():
    s, _ = parse_settings({"runCommands": {"build": "make -k 'all targets'"}})
    assert s.run_commands == {"build": ["make", "-k", "all targets"]}


def test_every_setting_is_documented():
    assert all(desc for _, _, desc in describe())


@pytest.mark.parametrize(
    ("path", "ok"),
    [
        (".faultlens/inbox/build.log", True),
        (".faultlens/inbox/sub/build.log", False),
        ("junit.xml", True),
        ("a/b/junit-report.xml", True),
        ("a/b/report.xml", False),
    ],
)
def test_default_globs(path: str, ok: bool):
    assert watch.matches(path, list(Settings().watch_globs)) is ok


def test_ranges_cover_the_named_word_and_use_the_client_encoding():
    lines = ["const s = '😀'; let user: UserProfile = x;\n"]
    col = lines[0].index("UserProfile")
    p = Placement(path=Path("/x"), line=0, column=col)
    cp = convert.code_point_range(p, lines)
    assert (cp.start.character, cp.end.character) == (col, col + len("UserProfile"))
    utf16 = convert.client_range(p, lines, PositionCodec(T.PositionEncodingKind.Utf16))
    assert utf16.start.character == col + 1  # the emoji is two UTF-16 units


def test_a_line_past_the_end_is_clamped():
    r = convert.code_point_range(Placement(path=Path("/x"), line=10), ["  a\n", "  bb\n"])
    assert r.start == T.Position(line=1, character=2) and r.end.character == 4


def test_argv_validation():
    assert runner.to_argv("tsc -p 'my project'") == ["tsc", "-p", "my project"]
    for bad in ("", [], [1, 2], "a 'b"):
        with pytest.raises(runner.BadCommand):
            runner.to_argv(bad)  # type: ignore[arg-type]


def test_cwd_must_stay_inside_the_root(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    assert runner.working_dir(tmp_path, "sub") == (tmp_path / "sub").resolve()
    with pytest.raises(runner.BadCommand):
        runner.working_dir(tmp_path, "..")


def test_the_child_never_gets_the_servers_stdin_or_stdout(tmp_path: Path):
    chunks: list[bytes] = []

    async def keep(chunk: bytes) -> None:
        chunks.append(chunk)

    script = "import sys; print(sys.stdin.read() == '', flush=True); print('err', file=sys.stderr)"
    result = asyncio.run(
        runner.run_command([sys.executable, "-c", script], tmp_path, on_output=keep)
    )
    assert result.exit_code == 0 and b"".join(chunks).split() == [b"True", b"err"]


def test_a_new_run_replaces_a_tasks_failures_and_reports_cleared_files():
    store = FailureStore()
    a, b = Path("/w/a.py"), Path("/w/b.py")
    e1 = Entry(record(id="1"), "t", Path("/w"), Placement(path=a, line=0))
    e2 = Entry(record(id="2"), "t", Path("/w"), Placement(path=b, line=0))
    assert store.replace("t", [e1, e2]) == {a, b}
    e3 = Entry(record(id="3"), "t", Path("/w"), Placement(path=b, line=1))
    assert store.replace("t", [e3]) == {a, b}  # a is cleared, b re-published
    assert store.for_path(a) == [] and store.get("3") is e3
    assert store.remove("3") == {b} and store.entries() == []


def test_key_line_finds_a_json_key(tmp_path: Path):
    f = tmp_path / "c.json"
    f.write_text('{\n  "servers": {\n    "tickets": {}\n  }\n}\n')
    p = key_line(f, "tickets", tmp_path)
    assert p is not None and (p.line, p.column) == (2, 4)


def test_faultlens_own_logs_are_not_classified_when_opened(tmp_path: Path):
    from faultlens.server.app import is_log_document

    state = tmp_path / ".faultlens"
    assert is_log_document(convert.path_to_uri(tmp_path / "build.log"), tmp_path, state)
    for own in ("runs/x.log", "logs/session-2026-01-20.log"):
        assert not is_log_document(convert.path_to_uri(state / own), tmp_path, state)
    assert not is_log_document(convert.path_to_uri(tmp_path / "a.txt"), tmp_path, state)


def _offer(rec: FailureRecord) -> Any:
    from faultlens.recipes import Refusal
    from faultlens.server.actions import Offer

    return Offer(
        record=rec,
        store_task="t",
        plan=Refusal("needs a human"),
        enabled=False,
        reason="needs a human",
        attempts=0,
        retries_used=0,
        max_retries=2,
        escalated=True,
    )


def test_mark_reviewed_is_offered_for_a_scanner_finding_not_for_a_refused_push() -> None:
    from faultlens.server.actions import build

    finding = record(failure_type="trust_gate", tool="bandit", rule="security.bandit")
    push = record(failure_type="trust_gate", tool="git", rule="git.push_declined")
    titles = [a.title for a in build(_offer(finding), None, disabled_support=True)]
    assert "faultlens: mark reviewed (allow-list this finding)" in titles
    titles = [a.title for a in build(_offer(push), None, disabled_support=True)]
    assert not any("mark reviewed" in t for t in titles)


SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
@pytest.mark.parametrize(
    ("encoding", "starts"),
    [
        # 0-based starts of undefined_a / _b / _c in code points, UTF-16 units, UTF-8 bytes
        ("utf-32", [33, 9, 30]),
        ("utf-16", [33, 9, 30]),
        ("utf-8", [34, 9, 34]),
    ],
)
def test_a_compilers_column_highlights_the_token_it_names_on_tabs_and_wide_text(
    compiler, encoding, starts
):
    """gcc counts display columns (a tab to 8, a wide character 2), clang bytes;
    both land on the name the error is about, in the client's encoding.
    Fixture: tests/samples/c/<compiler>-columns-tabs-wide (real output)."""
    from faultlens.classifier import Options, classify_file
    from faultlens.server.placement import place

    case = SAMPLES / "c" / f"{compiler}-columns-tabs-wide"
    lines = (case / "cols.c").read_text(encoding="utf-8").splitlines(keepends=True)
    records = classify_file(case / "output.txt", Options(cwd=str(case)))
    assert [r.hint["name"] for r in records] == ["undefined_a", "undefined_b", "undefined_c"]
    codec = PositionCodec(encoding)
    for rec, start in zip(records, starts, strict=True):
        p = place(rec, case, case)
        assert p is not None
        cp = convert.code_point_range(p, lines)
        text = lines[cp.start.line][cp.start.character : cp.end.character]
        assert text == rec.hint["name"], (compiler, rec.source_column, text)
        assert convert.client_range(p, lines, codec).start.character == start
