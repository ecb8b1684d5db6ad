"""One timed run of faultlens classify and of each peer on the same log file.

Each tool runs as a child process pinned to one CPU (`taskset -c CPU`) when
taskset exists; its wall time is measured here and its CPU time and peak RSS
come from the kernel (`os.wait4`'s rusage of the child).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .lsp_client import LspClient

ROOT = Path(__file__).resolve().parent.parent
NA = "n/a"

# Vim errorformats for the failure formats the generated log contains: C/C++
# and Go compilers, javac, tsc (both styles), rustc's location line, Python
# traceback frames, and FILE:LINE: messages (pytest, mypy, make); every other
# line is ignored (%-G), as a tuned editor setup would.
VIM_FORMATS = (
    r"%f:%l:%c: %trror: %m",
    r"%f:%l:%c: %tarning: %m",
    r"%f:%l: %trror: %m",
    r"%f(%l\,%c): %trror TS%n: %m",
    r"%f:%l:%c - %trror TS%n: %m",
    r"%\s%#--> %f:%l:%c",
    r'%\s%#File "%f"\, line %l\, in %m',
    r"%f:%l:%c: %m",
    r"%f:%l: %m",
    r"%-G%.%#",
)
# efm-langserver with a single pattern (its own default's first), as issue 7 measured it.
EFM_FORMATS = ("%f:%l:%m",)


@dataclass(slots=True)
class Result:
    name: str
    what: str
    wall: float | None  # seconds; None: the tool is missing or failed
    cpu: float | None = None  # user + sys seconds of the child
    rss_kb: int | None = None
    found: int | None = None  # records / matching lines / quickfix entries / diagnostics
    note: str = ""


def pinned(argv: Sequence[str], cpu: int | None) -> list[str]:
    if cpu is None or shutil.which("taskset") is None:
        return list(argv)
    return ["taskset", "-c", str(cpu), *argv]


TIME = "/usr/bin/time"


def measured(argv: Sequence[str], cpu: int | None, report: Path) -> list[str]:
    """argv pinned, under GNU time writing "peak-RSS-KiB user sys" to `report`.

    Without /usr/bin/time the caller falls back to the child's rusage, whose
    peak RSS is an upper bound (a forked child's high-water mark starts at the
    forking Python's size)."""
    cmd = pinned(argv, cpu)
    if os.access(TIME, os.X_OK):
        return [TIME, "-f", "%M %U %S", "-o", str(report), *cmd]
    return cmd


def read_report(report: Path, ru: Any) -> tuple[float, int]:
    """(cpu seconds, peak RSS KiB) from GNU time's report, else from rusage."""
    try:
        rss, user, sys_ = report.read_text().split()[-3:]
        return float(user) + float(sys_), int(rss)
    except (OSError, ValueError):
        if ru is None:
            return 0.0, 0
        return ru.ru_utime + ru.ru_stime, int(ru.ru_maxrss)


def timed(
    argv: Sequence[str],
    cpu: int | None,
    stdout: int | None = None,
    env: dict[str, str] | None = None,
) -> tuple[float, float, int, int]:
    """(wall seconds, cpu seconds, peak RSS KiB, exit status) of one child run."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "time"
        t0 = time.perf_counter()
        p = subprocess.Popen(
            measured(argv, cpu, report),
            stdout=stdout if stdout is not None else subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=env,
        )
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        cpu_s, rss = read_report(report, ru)
    return wall, cpu_s, rss, p.returncode


def faultlens_classify(log: Path, cpu: int | None, *, cold: bool = False) -> Result:
    """`faultlens classify` on the log; `cold`: as on a machine that never ran
    it (an empty cache folder: the prefilter's database and the rules'
    regex programs are compiled, then kept)."""
    name = "faultlens classify" + (", first run" if cold else "")
    what = "every rule of every category" + (", empty cache folder" if cold else "")
    with tempfile.TemporaryFile() as out, tempfile.TemporaryDirectory() as cache:
        argv = [sys.executable, "-m", "faultlens.cli", "classify", "--format", "json", str(log)]
        env = dict(os.environ, XDG_CACHE_HOME=cache) if cold else None
        wall, cpu_s, rss, code = timed(argv, cpu, stdout=out.fileno(), env=env)
        out.seek(0)
        if code not in (0, 1):
            return Result(name, what, None, note=f"exit {code}")
        found = len(json.loads(out.read() or b"[]"))
    return Result(name, what, wall, cpu_s, rss, found)


def faultlens_errorformat(log: Path, cpu: int | None) -> Result:
    """faultlens with Vim's own job: VIM_FORMATS as its only (project) rule."""
    what = f"a project rule of the same {len(VIM_FORMATS)} errorformats, built-ins off"
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / ".git").mkdir()
        formats = ", ".join(json.dumps(f) for f in VIM_FORMATS)
        (Path(tmp) / ".faultlens.toml").write_text(
            f'disable = ["*"]\n[[rules]]\nid = "bench.efm"\ncategory = "compile"\n'
            f"errorformat = [{formats}]\n"
        )
        with tempfile.TemporaryFile() as out:
            argv = [sys.executable, "-m", "faultlens.cli", "classify", "--format", "jsonl"]
            argv += ["--cwd", tmp, str(log)]
            wall, cpu_s, rss, code = timed(argv, cpu, stdout=out.fileno())
            out.seek(0)
            if code not in (0, 1):
                return Result("faultlens errorformat", what, None, note=f"exit {code}")
            found = sum(1 for line in out.read().splitlines() if line.strip())
    return Result("faultlens errorformat", what, wall, cpu_s, rss, found)


def _ere(literal: str) -> str:
    return "".join("\\" + c if c in ".[]()*+?{}|^$\\" else c for c in literal)


def grep_keywords(log: Path, cpu: int | None, keywords: Sequence[str]) -> Result:
    what = f"grep -E -c, the {len(keywords)} trigger keywords"
    if shutil.which("grep") is None:
        return Result("grep -E", what, None, note=NA)
    with tempfile.NamedTemporaryFile("w", suffix=".ere", delete=False) as f:
        f.write("\n".join(_ere(k) for k in keywords) + "\n")
    try:
        with tempfile.TemporaryFile() as out:
            env = dict(os.environ, LC_ALL="C")
            argv = ["grep", "-E", "-c", "-f", f.name, str(log)]
            wall, cpu_s, rss, code = timed(argv, cpu, stdout=out.fileno(), env=env)
            out.seek(0)
            text = out.read().strip()
    finally:
        os.unlink(f.name)
    if code not in (0, 1):
        return Result("grep -E", what, None, note=f"exit {code}")
    return Result(
        "grep -E", what, wall, cpu_s, rss, int(text or 0), "finds lines, classifies nothing"
    )


def vim_errorformat(log: Path, cpu: int | None) -> Result:
    what = f"vim -es :cgetfile, {len(VIM_FORMATS)} errorformats"
    vim = shutil.which("vim")
    if vim is None:
        return Result("vim errorformat", what, None, note=NA)
    with tempfile.TemporaryDirectory() as tmp:
        count = Path(tmp) / "count"
        script = Path(tmp) / "efm.vim"
        efm = ",".join(f.replace("'", "''") for f in VIM_FORMATS)
        script.write_text(
            f"let &errorformat = '{efm}'\n"
            f"cgetfile {log}\n"
            f"call writefile([len(filter(getqflist(), 'v:val.valid'))], '{count}')\n"
            "qa!\n"
        )
        argv = [vim, "-es", "-N", "-u", "NONE", "-i", "NONE", "--noplugin", "-S", str(script)]
        wall, cpu_s, rss, _ = timed(argv, cpu)
        if not count.exists():
            return Result("vim errorformat", what, None, note="vim failed")
        found = int(count.read_text().strip() or 0)
    return Result("vim errorformat", what, wall, cpu_s, rss, found)


def efm_config(folder: Path) -> Path:
    cfg = folder / "efm.yaml"
    formats = "".join(f"        - '{f}'\n" for f in EFM_FORMATS)
    cfg.write_text(
        "version: 2\n"
        "lint-debounce: 0s\n"
        "languages:\n"
        "  log:\n"
        "    - lint-command: 'cat'\n"
        "      lint-stdin: true\n"
        "      lint-ignore-exit-code: true\n"
        "      lint-workspace: false\n"
        "      lint-formats:\n" + formats
    )
    return cfg


class Efm:
    """A running efm-langserver (pinned), for didOpen -> publishDiagnostics timings."""

    def __init__(self, folder: Path, cpu: int | None) -> None:
        exe = shutil.which("efm-langserver")
        if exe is None:
            raise FileNotFoundError("efm-langserver")
        cfg = efm_config(folder)
        self.report = folder / "efm.time"
        self.client = LspClient(measured([exe, "-c", str(cfg)], cpu, self.report), cwd=str(folder))
        self.client.initialize(folder)
        self.opened = 0

    def open_and_wait(self, path: Path, text: str) -> tuple[float, int]:
        """(seconds from didOpen to the last publishDiagnostics, diagnostics)."""
        c = self.client
        self.opened += 1
        data = c.encode(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": path.as_uri(),
                        "languageId": "log",
                        "version": self.opened,
                        "text": text,
                    }
                },
            }
        )
        after = len(c.notifications)
        t0 = time.perf_counter()
        c.send_raw(data)
        last = c.wait_quiet("textDocument/publishDiagnostics", after, quiet=0.3, timeout=600)
        diags = sum(
            len(m.body["params"].get("diagnostics") or [])
            for m in c.notifications[after:]
            if m.body.get("method") == "textDocument/publishDiagnostics"
        )
        c.notify("textDocument/didClose", {"textDocument": {"uri": path.as_uri()}})
        return last - t0, diags

    def close(self) -> tuple[float, int]:
        """Stop; (cpu seconds, peak RSS KiB) of the server."""
        self.client.close()
        return read_report(self.report, self.client.rusage)


def efm_langserver(log: Path, cpu: int | None) -> Result:
    what = f"didOpen -> publishDiagnostics, {len(EFM_FORMATS)} errorformat"
    if shutil.which("efm-langserver") is None:
        return Result("efm-langserver", what, None, note=f"{NA} (not installed)")
    text = log.read_text("utf-8", "replace")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            efm = Efm(Path(tmp), cpu)
        except (OSError, TimeoutError) as exc:
            return Result("efm-langserver", what, None, note=f"{NA} ({exc})")
        try:
            seconds, diags = efm.open_and_wait(log, text)
        except TimeoutError:
            efm.close()
            return Result("efm-langserver", what, None, note=f"{NA} (no diagnostics)")
        cpu_s, rss = efm.close()
    return Result(
        "efm-langserver",
        what,
        seconds,
        cpu_s,
        rss,
        diags,
        "lint-workspace off (its fastest): only the opened file's own diagnostics are published",
    )
