"""`faultlens run`, `demo`, `status` and `recover` as a user runs them."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "broken-app"


def faultlens(
    *args: str, cwd: Path | None = None, timeout: float = 300, **extra_env: str
) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **extra_env}
    return subprocess.run(
        [sys.executable, "-m", "faultlens.cli", *args],
        cwd=cwd,
        capture_output=True,
        timeout=timeout,
        env=env,
    )


def test_output_passes_through_byte_for_byte_and_the_exit_status_is_kept(tmp_path):
    script = (
        "import sys\n"
        "sys.stdout.buffer.write(b'out \\xff\\xfe raw\\r\\nline2')\n"
        "sys.stdout.flush()\n"
        "sys.stderr.buffer.write(b'err \\x00 bytes\\n')\n"
        "sys.exit(3)\n"
    )
    res = faultlens("run", "--cwd", str(tmp_path), "--", sys.executable, "-c", script)
    assert res.returncode == 3
    assert res.stdout == b"out \xff\xfe raw\r\nline2"
    assert res.stderr.startswith(b"err \x00 bytes\n")


@pytest.mark.parametrize(("sig", "status"), [("SIGSEGV", 139), ("SIGKILL", 137), ("SIGTERM", 143)])
def test_a_command_killed_by_a_signal_exits_as_a_shell_says_128_plus_n(tmp_path, sig, status):
    script = f"import os, signal; os.kill(os.getpid(), signal.{sig})"
    res = faultlens("run", "--cwd", str(tmp_path), "--", sys.executable, "-c", script)
    assert res.returncode == status, res.stderr.decode()[-500:]
    assert f"exit {status}".encode() in res.stderr


def test_the_command_never_goes_through_a_shell(tmp_path):
    res = faultlens("run", "--cwd", str(tmp_path), "--", "echo", "$(id)", ";", "touch", "pwned")
    assert res.returncode == 0
    assert res.stdout == b"$(id) ; touch pwned\n"
    assert not (tmp_path / "pwned").exists()


def test_a_missing_command_or_program_is_reported(tmp_path):
    assert faultlens("run").returncode == 2
    res = faultlens("run", "--cwd", str(tmp_path), "--", "no-such-program-xyz")
    assert res.returncode == 127
    assert b"cannot run no-such-program-xyz" in res.stderr


def _copy_example(tmp_path: Path) -> Path:
    proj = tmp_path / "broken-app"
    shutil.copytree(EXAMPLE, proj, ignore=shutil.ignore_patterns("__pycache__", ".faultlens"))
    subprocess.run(["git", "init", "-q"], cwd=proj, check=True)
    return proj


def _events(proj: Path) -> list[dict]:
    return [json.loads(x) for x in (proj / ".faultlens/events.jsonl").read_text().splitlines()]


def test_run_recover_fixes_the_compile_failure_and_escalates_the_real_test(tmp_path):
    proj = _copy_example(tmp_path)
    res = faultlens(
        "run", "--recover", "--task", "TASK-9", "--", sys.executable, "-m", "unittest", cwd=proj
    )
    err = res.stderr.decode()
    assert res.returncode == 1, err
    assert re.search(r"recovered\s+compile\s+shop/cart\.py:7\s+Import Money from shop\.money", err)
    assert re.search(r"escalated\s+test\s+tests/test_pricing\.py:8", err)
    assert "1 recovered, 1 escalated, 0 skipped" in err
    assert "║  ERROR: Test" in err and "Expected: 1080" in err and "Actual: 1008" in err
    assert "from shop.money import Money" in (proj / "shop/cart.py").read_text()
    events = _events(proj)
    names = [e["event"] for e in events]
    assert names.count("failure.classified") == 2
    assert names.count("recovery.succeeded") == 1 and names.count("recovery.escalated") == 1
    session = next((proj / ".faultlens/logs").glob("session-*.log")).read_text()
    assert re.search(r"^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\] ERROR cli TASK-9 test$", session, re.M)
    assert (proj / ".faultlens/logs/errors/TASK-9-failure.log").exists()

    # A second run on the same failure does not try the recipe again: it escalates.
    again = faultlens(
        "run", "--recover", "--task", "TASK-9", "--", sys.executable, "-m", "unittest", cwd=proj
    )
    assert again.returncode == 1
    assert "anti-loop" in again.stderr.decode()
    new = _events(proj)[len(events) :]
    assert [e["event"] for e in new] == ["failure.classified", "recovery.escalated"]

    status = faultlens("status", "--json", cwd=proj)
    data = json.loads(status.stdout)
    (task,) = data["tasks"]
    assert task["task"] == "TASK-9" and task["status"] == "failed"
    assert task["attempts"] == {"recovered": 1, "escalated": 1}
    text = faultlens("status", cwd=proj).stdout.decode()
    assert "TASK-9" in text and "Escalations: 1" in text


def test_recover_applies_one_recipe_by_hand_once(tmp_path):
    proj = _copy_example(tmp_path)
    first = faultlens("run", "--format", "json", "--", sys.executable, "-m", "unittest", cwd=proj)
    assert first.returncode == 1
    summary = json.loads(first.stderr.decode().strip().splitlines()[-1])
    compile_id = next(r["id"] for r in summary["records"] if r["failure_type"] == "compile")
    dry = faultlens("recover", compile_id[:8], "--dry-run", cwd=proj)
    assert b"Import Money from shop.money" in dry.stdout
    assert "import Money" not in (proj / "shop/cart.py").read_text()  # a dry run changes nothing
    done = faultlens("recover", compile_id[:8], cwd=proj)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"recovered: Import Money from shop.money")
    # Asked again: its settled state, no second attempt and no box.
    events = (proj / ".faultlens/events.jsonl").read_text()
    again = faultlens("recover", compile_id, cwd=proj)
    assert again.returncode == 0
    assert again.stdout.startswith(b"recovered: Import Money from shop.money (already recovered")
    assert b"\xe2\x95\x94" not in again.stdout + again.stderr  # no box
    assert (proj / ".faultlens/events.jsonl").read_text() == events


def _tree_hash(path: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(path.rglob("*")):
        if "__pycache__" in p.parts:
            continue
        h.update(str(p.relative_to(path)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def _table(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if re.match(r"^(recovered|escalated|skipped)\s", ln)]


@pytest.mark.slow
def test_demo_recovers_a_copy_twice_alike_and_leaves_the_checkout_untouched(tmp_path):
    before = _tree_hash(EXAMPLE)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    one = faultlens("demo", cwd=tmp_path, TMPDIR=str(scratch))
    two = faultlens("demo", cwd=tmp_path, TMPDIR=str(scratch))
    assert one.returncode == 0, one.stderr.decode()[-2000:]
    assert two.returncode == 0
    err = one.stderr.decode()
    assert "as designed" in err
    assert "╔" in err and "ERROR: Test" in err
    assert "+from shop.money import Money" in err  # the diff of the fix
    assert _table(err) == _table(two.stderr.decode())
    assert len(_table(err)) == 2
    assert _tree_hash(EXAMPLE) == before
    assert "faultlens-demo-" in err  # the copy was made under TMPDIR ...
    assert not list(scratch.iterdir())  # ... and removed (no --keep)


@pytest.mark.slow
def test_demo_keep_leaves_the_copy_for_inspection(tmp_path):
    keep = tmp_path / "demo"
    res = faultlens("demo", "--keep", str(keep))
    assert res.returncode == 0
    assert "from shop.money import Money" in (keep / "broken-app/shop/cart.py").read_text()
    assert (keep / "broken-app/.faultlens/ledger.sqlite3").exists()
    assert faultlens("demo", "--keep", str(keep)).returncode == 2  # not empty any more


def test_interrupting_faultlens_run_stops_the_command_too(tmp_path):
    import signal
    import time

    marker = tmp_path / "still-running"
    script = (
        "import time, pathlib\n"
        "print('started', flush=True)\n"
        "for _ in range(100):\n"
        f"    pathlib.Path({str(marker)!r}).write_text(str(time.time()))\n"
        "    time.sleep(0.1)\n"
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "faultlens.cli",
            "run",
            "--cwd",
            str(tmp_path),
            "--",
            sys.executable,
            "-c",
            script,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # our own group, as a terminal would give it
        # and Ctrl-C handled as a terminal would: a shell's background job (how
        # CI may be started) inherits SIGINT ignored, and so would faultlens
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"started\n"
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C goes to the whole foreground group
    assert proc.wait(30) == 130

    def written() -> str | None:  # None: stopped before its first write
        return marker.read_text() if marker.exists() else None

    time.sleep(0.5)
    before = written()
    time.sleep(0.5)
    assert written() == before  # the command stopped with it


def test_a_sigterm_to_faultlens_alone_ends_what_the_command_started(tmp_path):
    """`kill <faultlens>` reaches faultlens only (no terminal signals the
    group): a runner's own child (npm's jest, a shell's job) would outlive the
    command killed alone; the command's whole tree ends with faultlens."""
    import signal
    import time

    pidfile = tmp_path / "grandchild.pid"
    grandchild = "import time\nwhile True: time.sleep(0.1)\n"
    script = (
        "import subprocess, sys, time, pathlib\n"
        f"p = subprocess.Popen([sys.executable, '-c', {grandchild!r}])\n"
        f"pathlib.Path({str(pidfile)!r}).write_text(str(p.pid))\n"
        "print('started', flush=True)\n"
        "time.sleep(300)\n"
    )
    argv = [sys.executable, "-m", "faultlens.cli", "run", "--cwd", str(tmp_path), "--"]
    proc = subprocess.Popen(
        [*argv, sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"started\n"
    pid = int(pidfile.read_text())
    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(30) == 128 + signal.SIGTERM

    def gone() -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")

    deadline = time.monotonic() + 10
    while not gone() and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = not gone()
    if alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive, "the command's child outlived faultlens"
