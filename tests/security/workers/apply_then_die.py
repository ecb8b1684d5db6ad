"""Child process for the roll-back tests: apply a multi-file edit and SIGKILL
itself right after the Nth target was swapped in (argv: root, N, then the
edits as JSON: [[path, start_line, start_col, end_line, end_col, text], ...]).

Only swaps of workspace files count (not the journal's own writes), so the
kill lands exactly between two targets: some files new, the rest old."""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

from faultlens.recipes import TextEdit, Workspace, apply_edits


def main() -> None:
    root, after, raw = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    real = os.replace
    swapped = 0

    def replace(src: Any, dst: Any, **kw: Any) -> None:
        nonlocal swapped
        real(src, dst, **kw)
        if str(dst).startswith(root) and ".faultlens" not in str(dst):
            swapped += 1
            if swapped == after:
                os.kill(os.getpid(), signal.SIGKILL)

    os.replace = replace  # type: ignore[assignment]
    apply_edits([TextEdit(*e) for e in raw], Workspace.at(root))
    print("applied without being killed", flush=True)


if __name__ == "__main__":
    main()
