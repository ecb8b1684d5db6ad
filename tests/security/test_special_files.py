"""Special files named in output: a FIFO, a symlink to /dev/zero, a file of
1.5 GB (sparse), a symlink out of the workspace.  A failure can name any path;
showing it, hovering it and offering its code actions reads that file.  Every
such read goes through `faultlens.classifier.files`: regular files only,
bounded, never blocking on open, and (in the server) only inside the roots.

The server is driven over stdio (tests/security/lsp_raw.py) with its address
space limited to 2 GiB, so a read without bound fails the test instead of
exhausting the machine.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from faultlens.classifier import files
from faultlens.classifier.locate import read_in_tree
from faultlens.server.placement import key_line

from .lsp_raw import RawClient

BIG = 1536 * 1024 * 1024  # 1.5 GiB, sparse: no disk used
SERVER_MEMORY = 2 * 1024**3


@pytest.fixture
def specials(tmp_path: Path) -> dict[str, Path]:
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    outside = tmp_path / "outside.ts"
    outside.write_text("export const secret = 1;\n")
    paths = {
        "fifo": ws / "src" / "pipe.ts",
        "zero": ws / "src" / "zero.ts",
        "big": ws / "src" / "big.ts",
        "out": ws / "src" / "out.ts",
        "plain": ws / "src" / "plain.ts",
    }
    os.mkfifo(paths["fifo"])
    os.symlink("/dev/zero", paths["zero"])
    with open(paths["big"], "wb") as fh:
        fh.truncate(BIG)
    os.symlink(outside, paths["out"])
    paths["plain"].write_text("let a = missingName;\n")
    paths["ws"] = ws
    paths["outside"] = outside
    return paths


# -- the helper -------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["fifo", "zero", "big"])
def test_a_special_or_huge_file_is_refused_at_once(specials, kind):
    t0 = time.monotonic()
    with pytest.raises(files.UnreadableFile):
        files.read_bytes(specials[kind])
    assert files.text_or_none(specials[kind]) is None
    assert time.monotonic() - t0 < 5


def test_a_regular_file_reads_like_path_read_text(tmp_path):
    f = tmp_path / "crlf.txt"
    f.write_bytes(b"one\r\ntwo\rthree\n\xff")
    assert files.read_text(f, errors="replace") == f.read_text(errors="replace")
    with pytest.raises(files.UnreadableFile):
        files.read_bytes(f, limit=4)


def test_a_stream_is_opened_only_on_a_regular_file(specials):
    with pytest.raises(files.UnreadableFile):
        files.open_stream(specials["fifo"])
    with files.open_stream(specials["plain"]) as fh:
        assert fh.read().startswith(b"let a")


def test_inside_resolves_symlinks_before_answering(specials):
    ws = specials["ws"]
    assert files.inside(specials["plain"], [ws]) == specials["plain"].resolve()
    assert files.inside(specials["out"], [ws]) is None
    assert files.inside(ws / "src" / ".." / ".." / "outside.ts", [ws]) is None


@pytest.mark.parametrize("kind", ["fifo", "zero", "big", "out"])
def test_the_classifier_reads_no_special_file_and_nothing_outside_the_tree(specials, kind):
    rel = str(specials[kind].relative_to(specials["ws"]))
    assert read_in_tree(specials["ws"], rel, 1024 * 1024) is None


@pytest.mark.parametrize("kind", ["fifo", "zero", "big", "out"])
def test_a_config_entry_is_never_looked_up_in_a_special_file(specials, kind):
    assert key_line(specials[kind], "secret", specials["ws"]) is None


# -- the server ---------------------------------------------------------------------------
@pytest.fixture
def server(specials) -> Iterator[tuple[RawClient, dict[str, Path]]]:
    c = RawClient(specials["ws"], memory_limit=SERVER_MEMORY)
    assert "result" in c.initialize()
    yield c, specials
    c.close()


def _tsc(name: str) -> str:
    return f"src/{name}(1,9): error TS2304: Cannot find name 'missingName'.\n"


def test_failures_in_special_files_are_shown_and_the_server_keeps_answering(server):
    c, p = server
    names = [p[k].name for k in ("fifo", "zero", "big", "out", "plain")]
    c.notify("faultlens/ingest", {"output": "".join(_tsc(n) for n in names), "task": "sp"})
    plain = c.diagnostics_for(p["plain"].as_uri(), timeout=30)
    assert plain[0]["range"]["start"] == {"line": 0, "character": 8}
    listed = c.request("faultlens/failures", {"task": "sp"}, timeout=30)["result"]["failures"]
    assert sorted(Path(f["uri"]).name for f in listed if f["uri"]) == sorted(names)
    for kind in ("fifo", "zero", "big", "out"):
        uri = p[kind].as_uri()
        pos = {"line": 0, "character": 8}
        hover = c.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": pos}, timeout=30
        )
        assert "TS2304" in hover["result"]["contents"]["value"], kind
        actions = c.request(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": uri},
                "range": {"start": pos, "end": pos},
                "context": {"diagnostics": []},
            },
            timeout=30,
        )
        assert "result" in actions, (kind, actions)
    assert c.proc.poll() is None


@pytest.mark.parametrize("kind", ["fifo", "zero", "big"])
def test_planning_a_fix_reads_no_special_file(specials, kind):
    import threading

    from faultlens.classifier import Options, classify_text
    from faultlens.recipes import Workspace, plan

    ws = specials["ws"]
    (rec,) = classify_text(_tsc(specials[kind].name), Options(cwd=str(ws)))
    done: list[object] = []
    worker = threading.Thread(
        target=lambda: done.append(plan(rec, Workspace(roots=[ws])) or True), daemon=True
    )
    worker.start()
    worker.join(20)
    assert done, f"planning a fix for a failure in a {kind} did not return"
