"""Capture one evaluation case: run a project's own command in its folder
and keep the output, the command and the project's file names.

    python -m eval.capture eval/cases/python/requests-removed-import \
        --project "pypi:requests==2.32.3" --ecosystem Python \
        --how "removed 'import os' from src/requests/utils.py" \
        --cwd /work/scratch/eval/requests -- python -m pytest tests/test_utils.py -x -q

Writes output.txt (stdout and stderr, as printed) and case.json with an
empty `labels` list: label it by hand from the output (eval/README.md),
never from what faultlens says. `files` lists the project's files the
output names (the scorer recreates them empty); nothing else of the
project is kept.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

_PATHISH = re.compile(r"[\w./\\@+-]*[\w-]\.[\w]+|[\w./-]*(?:Makefile|Dockerfile)")


def named_files(output: str, cwd: Path) -> list[str]:
    """The files under `cwd` that the output names (relative, absolute, or by a tail)."""
    root = cwd.resolve()
    found: set[str] = set()
    for token in set(_PATHISH.findall(output)):
        token = token.strip("./") if token.startswith("./") else token
        candidates = [Path(token)]
        parts = Path(token).parts
        candidates += [Path(*parts[i:]) for i in range(1, len(parts))]
        for cand in candidates:
            path = cand if cand.is_absolute() else root / cand
            try:
                real = path.resolve()
            except OSError:
                continue
            if real.is_file() and real.is_relative_to(root):
                found.add(real.relative_to(root).as_posix())
                break
    return sorted(found)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m eval.capture")
    p.add_argument("case", type=Path)
    p.add_argument(
        "--project", required=True, help="where the code came from (repo@commit, pypi:x==v)"
    )
    p.add_argument("--ecosystem", required=True)
    p.add_argument("--how", required=True, help="how it was broken (or 'unchanged')")
    p.add_argument("--cwd", type=Path, required=True, help="the project's folder")
    p.add_argument("--version", default="", help="a command printing the tool's version")
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        p.error("the command to run is missing (after --)")
    cut = argv.index("--")
    args = p.parse_args(argv[:cut])
    cmd = argv[cut + 1 :]
    if not cmd:
        p.error("the command to run is missing (after --)")
    args.case.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        cmd, cwd=args.cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False
    )
    (args.case / "output.txt").write_bytes(proc.stdout)
    version = ""
    if args.version:
        v = subprocess.run(
            shlex.split(args.version), cwd=args.cwd, capture_output=True, text=True, check=False
        )
        version = (
            (v.stdout or v.stderr).strip().splitlines()[0] if (v.stdout or v.stderr).strip() else ""
        )
    meta_path = args.case / "case.json"
    old = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
    meta = {
        "ecosystem": args.ecosystem,
        "project": args.project,
        "how": args.how,
        "command": shlex.join(cmd),
        "version": version,
        "exit_code": proc.returncode,
        "cwd_name": os.path.basename(os.path.abspath(args.cwd)),
        "labels": old.get("labels", []),
        "files": named_files(proc.stdout.decode("utf-8", "replace"), args.cwd),
    }
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    print(
        f"{args.case}: exit {proc.returncode}, {len(meta['files'])} files named; label it by hand"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
