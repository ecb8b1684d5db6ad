"""Child process for the crash tests: apply a multi-file edit over and over,
switching every file between version A and version B (argv: root, files...).

Prints `applied N` after each apply returns, so the parent knows some applies
completed before it sends SIGKILL."""

from __future__ import annotations

import sys
from pathlib import Path

from faultlens.recipes import TextEdit, Workspace, apply_edits
from faultlens.recipes.edits import line_starts


def whole_file_edit(root: Path, rel: str, new: str) -> TextEdit:
    text = (root / rel).read_text(encoding="utf-8")
    starts = line_starts(text)
    return TextEdit(rel, 0, 0, len(starts) - 1, len(text) - starts[-1], new)


def version(rel: str, which: str, size: int) -> str:
    line = f"{which} {rel} " + which * 60 + "\n"
    return line * (size // len(line))


def main() -> None:
    root = Path(sys.argv[1])
    size = int(sys.argv[2])
    files = sys.argv[3:]
    ws = Workspace.at(root)
    versions = {w: {f: version(f, w, size) for f in files} for w in "AB"}
    n = 0
    while True:
        which = "B" if (root / files[0]).read_text(encoding="utf-8").startswith("A") else "A"
        apply_edits([whole_file_edit(root, f, versions[which][f]) for f in files], ws)
        n += 1
        print(f"applied {n}", flush=True)


if __name__ == "__main__":
    main()
