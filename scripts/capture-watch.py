#!/usr/bin/env python3
"""Capture a watcher's real output across file changes (the watch-mode samples).

    scripts/capture-watch.py CASE_DIR [--version "tool --version"] \
        [--change FILE=REPLACEMENT ...] [--quiet 4] [--path DIR] -- CMD ARGS...

Runs CMD (no shell) inside tests/samples/watch/CASE_DIR, which holds the
smallest broken input.  After each quiet spell (no output for --quiet
seconds: the watcher finished a cycle) (and, with --settle REGEX, one more match of REGEX
in the output: the cycle's closing line) the next --change is made: FILE (in
the case folder) gets the content of REPLACEMENT (a file in the case folder,
usually `*.fixed` / `*.broken`).  After the last change's cycle the process
group is stopped.  The combined output goes to output.txt, the command, the
tool's version and the changes to cmd.txt; every changed file is put back as
it was, so the folder keeps the broken input.  Colour is switched off
(NO_COLOR=1, FORCE_COLOR=0) and CI is unset, as in an editor's terminal.
"""

from __future__ import annotations

import argparse
import os
import re
import selectors
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("case")
    p.add_argument("--version", default="")
    p.add_argument("--change", action="append", default=[])
    p.add_argument("--quiet", type=float, default=4.0)
    p.add_argument("--first-quiet", type=float, default=None)
    p.add_argument("--path", action="append", default=[])
    p.add_argument("--limit", type=float, default=180.0)
    p.add_argument(
        "--settle", default=None, help="a change waits for this regex too (a cycle's last line)"
    )
    argv = sys.argv[1:]
    if "--" not in argv:
        p.error("the command goes after --")
    split = argv.index("--")
    a = p.parse_args(argv[:split])
    cmd = argv[split + 1 :]
    case = Path(a.case).resolve()
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
    env.update({"NO_COLOR": "1", "FORCE_COLOR": "0"})
    if a.path:
        env["PATH"] = os.pathsep.join([*a.path, env.get("PATH", "")])
    changes = []
    for spec in a.change:
        target, _, replacement = spec.partition("=")
        changes.append((case / target, case / replacement))
    saved = {t: t.read_bytes() if t.exists() else None for t, _ in changes}
    version = ""
    if a.version:
        # the version command is the capturer's own snippet (as in new-sample.sh)
        shown = subprocess.run(
            ["bash", "-c", a.version], capture_output=True, text=True, env=env, cwd=case
        )
        version = (shown.stdout.strip().splitlines() or [""])[0]
    proc = subprocess.Popen(
        cmd,
        cwd=case,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    assert proc.stdout is not None
    out = bytearray()
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    began = last = time.monotonic()
    pending = list(changes)
    quiet = a.first_quiet or a.quiet
    made: list[str] = []
    settle = re.compile(a.settle, re.MULTILINE) if a.settle else None
    try:
        while time.monotonic() - began < a.limit:
            if sel.select(timeout=0.2):
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                out += chunk
                print(f"{time.monotonic() - began:7.1f}s  +{len(chunk)} bytes", file=sys.stderr)
                last = time.monotonic()
                continue
            if time.monotonic() - last < quiet:
                continue
            if settle is not None and len(settle.findall(out.decode("utf-8", "replace"))) <= len(
                made
            ):
                continue
            if not pending:
                break
            target, replacement = pending.pop(0)
            target.write_bytes(replacement.read_bytes())
            made.append(f"{target.relative_to(case)} := {replacement.relative_to(case)}")
            print(f"{time.monotonic() - began:7.1f}s  {made[-1]}", file=sys.stderr)
            last = time.monotonic()
            quiet = a.quiet
    finally:
        with_status = proc.poll()
        if with_status is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for target, content in saved.items():
            if content is None:
                target.unlink(missing_ok=True)
            else:
                target.write_bytes(content)
    (case / "output.txt").write_bytes(bytes(out))
    lines = [shlex.join(cmd) + (f"   ({version})" if version else "")]
    lines.append(
        "# watch capture (scripts/capture-watch.py): after each quiet spell of "
        f"{a.quiet:g} s, one change:"
    )
    lines += [f"#   {m}" for m in made]
    lines.append(
        "# stopped by faultlens after the last cycle"
        if with_status is None
        else f"# exit status {with_status}"
    )
    (case / "cmd.txt").write_text("\n".join(lines) + "\n")
    print(f"captured {case} ({len(out)} bytes, {len(made)} change(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
