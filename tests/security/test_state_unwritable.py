"""A state dir that cannot be written never stops the command (issue 19,
items 10 and 17).

* `.faultlens` read-only (a fresh one, or one holding a ledger), full (a
  64 KiB tmpfs, when this machine lets a test mount one in a private mount
  namespace), or a symlink out of the workspace: `faultlens run` runs the
  command, passes its output and exit status through, says once that the
  state cannot be written, and shows no traceback.
* A line of events.jsonl torn by a full disk is never merged with the next
  event: the next one starts on a line of its own and readers skip the torn
  one.  Proved with a real file size limit (RLIMIT_FSIZE: the kernel cuts
  the write short exactly as a full disk does) and on a real full tmpfs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.classifier import classify_text
from faultlens.recipes import EventLog, Workspace

ROOT = Path(__file__).resolve().parents[2]
FAILING = (
    "import sys\n"
    "print('the command ran')\n"
    "sys.stderr.write('Traceback (most recent call last):\\n"
    '  File "app.py", line 3, in <module>\\n'
    "    import missing_mod\\n"
    "ModuleNotFoundError: No module named missing_mod\\n')\n"
    "sys.exit(3)\n"
)
TSC = "src/a.ts(3,1): error TS2304: Cannot find name 'X'.\n"


def _faultlens(*args: str) -> list[str]:
    return [sys.executable, "-m", "faultlens.cli.main", *args]


def _without_root_powers() -> list[str]:
    """An argv prefix under which a read-only folder is read-only (root
    ignores permissions unless it drops the capabilities that let it)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only folder cannot be made")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]


def _run(root: Path, prefix: list[str], *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            *prefix,
            *_faultlens("run", "--workspace", str(root), "--cwd", str(root), *extra),
            "--",
            sys.executable,
            "-c",
            FAILING,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _check_ran(proc: subprocess.CompletedProcess[str], reason: str) -> None:
    assert proc.returncode == 3, proc.stderr
    assert "the command ran" in proc.stdout
    assert "Traceback" not in proc.stderr.replace(
        'Traceback (most recent call last):\n  File "app.py"', ""
    )
    said = [ln for ln in proc.stderr.splitlines() if "state cannot be written" in ln]
    assert len(said) == 1, proc.stderr
    assert reason in said[0], said[0]


@pytest.mark.parametrize("with_ledger", [False, True])
@pytest.mark.parametrize("recover", [False, True])
def test_a_read_only_state_dir_still_runs_the_command_and_says_so_once(
    tmp_path, with_ledger, recover
):
    root = tmp_path / "repo"
    root.mkdir()
    prefix = _without_root_powers()
    if with_ledger:
        first = _run(root, [])
        assert first.returncode == 3 and (root / ".faultlens" / "ledger.sqlite3").exists()
        for p in (root / ".faultlens").rglob("*"):
            if p.is_dir():
                p.chmod(0o555)
            else:
                p.chmod(0o444)
    else:
        (root / ".faultlens").mkdir()
    (root / ".faultlens").chmod(0o555)
    try:
        proc = _run(root, prefix, *(["--recover"] if recover else []))
    finally:
        for p in [root / ".faultlens", *(root / ".faultlens").rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
    _check_ran(proc, "Permission denied")
    if recover:
        assert "recipes are not attempted" in proc.stderr
        # the totals still name what was found, and that nothing was tried
        (total,) = [ln for ln in proc.stderr.splitlines() if "; exit 3" in ln]
        assert re.match(r"faultlens: 1 \w+ failure; no recipe attempted; exit 3$", total), total


def test_a_state_dir_linked_out_of_the_workspace_gets_nothing_and_the_command_runs(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".faultlens").symlink_to(outside, target_is_directory=True)
    proc = _run(root, [], "--recover")
    _check_ran(proc, "outside the workspace")
    assert list(outside.iterdir()) == []


# -- torn lines --------------------------------------------------------------------------
_TEAR = """
import os, resource, signal, sys
from faultlens.classifier import classify_text
from faultlens.recipes import EventLog, Workspace
state = sys.argv[1]
size = os.path.getsize(os.path.join(state, "events.jsonl"))
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 300, resource.RLIM_INFINITY))
(rec,) = classify_text("src/a.ts(3,1): error TS2304: Cannot find name 'X'.\\n")
rec.hint["padding"] = "x" * 4000
EventLog(Workspace.at(os.path.dirname(state))).emit("failure.classified", rec, note="torn")
print("survived")
"""


def test_an_event_torn_by_a_full_file_system_never_eats_the_next_one(tmp_path):
    ws = Workspace.at(tmp_path)
    events = EventLog(ws)
    (rec,) = classify_text(TSC)
    events.emit("failure.classified", rec, note="before")
    proc = subprocess.run(
        [sys.executable, "-c", _TEAR, str(tmp_path / ".faultlens")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    raw = (tmp_path / ".faultlens" / "events.jsonl").read_bytes()
    assert not raw.endswith(b"\n"), "the write was not cut short: the test proves nothing"
    assert proc.returncode == 0 and "survived" in proc.stdout, proc.stderr
    events.emit("failure.classified", rec, note="after")
    notes = [e.get("note") for e in EventLog(ws).read_events()]
    assert notes == ["before", "after"]
    lines = (tmp_path / ".faultlens" / "events.jsonl").read_bytes().split(b"\n")
    assert json.loads(lines[-2])["note"] == "after"


def _can_mount_tmpfs() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("mount"):
        return False
    probe = subprocess.run(
        [
            "unshare",
            "-m",
            "--propagation",
            "private",
            "mount",
            "-t",
            "tmpfs",
            "-o",
            "size=64k",
            "tmpfs",
            "/mnt",
        ],
        capture_output=True,
    )
    return probe.returncode == 0


_FULL_DISK = r"""
set -eu
state="$1"; out="$2"; shift 2
mount -t tmpfs -o size=512k tmpfs "$state"
"$@" > /dev/null 2> "$out/run0.err"  || true
head -c 4000000 /dev/zero > "$state/filler" 2> /dev/null || true
"$@" > "$out/run1.out" 2> "$out/run1.err" || echo "$?" > "$out/run1.code"
"$@" > /dev/null 2>> "$out/runs.err" || true
"$@" > /dev/null 2>> "$out/runs.err" || true
rm -f "$state/filler"
"$@" > /dev/null 2> "$out/last.err" || true
cp "$state/events.jsonl" "$out/events.jsonl"
"""


@pytest.mark.slow
def test_on_a_really_full_disk_the_command_runs_and_events_stay_one_per_line(tmp_path):
    if not _can_mount_tmpfs():
        pytest.skip("cannot mount a tmpfs in a private mount namespace here")
    root = tmp_path / "repo"
    (root / ".faultlens").mkdir(parents=True)
    out = tmp_path / "out"
    out.mkdir()
    cmd = [
        *_faultlens("run", "--workspace", str(root), "--cwd", str(root), "--recover"),
        "--",
        sys.executable,
        "-c",
        FAILING,
    ]
    subprocess.run(
        [
            "unshare",
            "-m",
            "--propagation",
            "private",
            "sh",
            "-c",
            _FULL_DISK,
            "sh",
            str(root / ".faultlens"),
            str(out),
            *cmd,
        ],
        cwd=ROOT,
        check=True,
        timeout=600,
    )
    assert (out / "run1.code").read_text().strip() == "3"
    assert "the command ran" in (out / "run1.out").read_text()
    errors = (out / "run1.err").read_text() + (out / "runs.err").read_text()
    assert 'Traceback (most recent call last):\n  File "/' not in errors
    assert "No space left on device" in errors or "full" in errors
    lines = (out / "events.jsonl").read_bytes().split(b"\n")
    parsed = []
    for ln in lines:
        try:
            parsed.append(json.loads(ln))
        except ValueError:
            assert b'}{"ts"' not in ln  # a torn line never holds the start of the next event
    assert parsed, "no event was written at all"
    # The run after space came back wrote whole events of its own.
    assert parsed[-1]["event"] in (
        "failure.classified",
        "recovery.escalated",
        "recovery.attempted",
        "recovery.skipped",
        "recovery.succeeded",
    )


@pytest.mark.parametrize("command", ["recover", "status"])
def test_other_commands_refuse_a_linked_out_state_dir_in_one_line(tmp_path, command):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".faultlens").symlink_to(outside, target_is_directory=True)
    args = ["0123456789abcdef"] if command == "recover" else []
    proc = subprocess.run(
        _faultlens(command, *args, "--workspace", str(root), "--cwd", str(root)),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "outside the workspace" in proc.stderr
    assert list(outside.iterdir()) == []


# -- a disk that fills up during the run (issue 27, item 10) --------------------------------------
UNITTEST = "import unittest\n\nclass T(unittest.TestCase):\n    def test_one(self):\n        self.assertEqual(1, 2)\n"


@pytest.fixture
def small_disk(tmp_path):
    """A real 512 KiB file system (tmpfs): the disk that fills up."""
    import subprocess

    disk = tmp_path / "disk"
    disk.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(disk)], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def _fill(disk: Path, keep_kib: int) -> None:
    free = os.statvfs(disk)
    left = free.f_bavail * free.f_frsize - keep_kib * 1024
    with open(disk / "filler", "wb") as fh:
        fh.write(b"\0" * max(0, left))


@pytest.mark.parametrize("keep_kib", [48, 12])
def test_a_disk_that_fills_up_mid_run_is_one_line_and_no_traceback(small_disk, keep_kib):
    import subprocess
    import sys

    ws = small_disk / "ws"
    (ws / ".git").mkdir(parents=True)
    (ws / "test_fails.py").write_text(UNITTEST)
    faultlens = [sys.executable, "-m", "faultlens.cli", "run"]
    first = subprocess.run([*faultlens, "--", sys.executable, "-c", "pass"], cwd=ws, timeout=120)
    assert first.returncode == 0 and (ws / ".faultlens" / "ledger.sqlite3").is_file()
    _fill(small_disk, keep_kib)
    res = subprocess.run(
        [*faultlens, "--recover", "--task", "T", "--", sys.executable, "-m", "unittest"],
        cwd=ws,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 1  # the command's own status
    assert res.stderr.count("Traceback") == 1  # unittest's own, passed through
    assert "crashed" not in res.stderr and "sqlite3." not in res.stderr
    said = [ln for ln in res.stderr.splitlines() if "state cannot be written in" in ln]
    assert len(said) == 1, res.stderr
