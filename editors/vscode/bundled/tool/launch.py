"""Start the faultlens language server bundled in the VS Code extension.

    python -I bundled/tool/launch.py serve --stdio

The extension carries faultlens and its dependencies in bundled/libs/:
`common/` holds the pure-Python packages, `cpXY/` the compiled ones built for
CPython X.Y on this platform (scripts/bundle_vscode.py).  This script puts the
folder of the running interpreter's version first on sys.path, then runs the
`faultlens` command.  Run with `-I` (isolated): neither PYTHONPATH nor the
user's site-packages can put another pydantic or pygls in front of ours.
"""

import os
import sys

MINIMUM = (3, 11)


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    libs = os.path.join(os.path.dirname(here), "libs")
    version = "%d.%d" % sys.version_info[:2]
    if sys.version_info[:2] < MINIMUM:
        print(f"faultlens: needs Python 3.11 or newer; {sys.executable} is {version}", file=sys.stderr)
        return 3
    compiled = os.path.join(libs, "cp%d%d" % sys.version_info[:2])
    common = os.path.join(libs, "common")
    if not os.path.isdir(common) or not os.path.isdir(compiled):
        have = sorted(d[2:3] + "." + d[3:] for d in os.listdir(libs) if d.startswith("cp")) if os.path.isdir(libs) else []
        print(
            f"faultlens: this extension carries no libraries for Python {version} "
            f"(it has: {', '.join(have) or 'none'}); set faultlens.interpreter or faultlens.serverPath",
            file=sys.stderr,
        )
        return 3
    sys.path[0:0] = [compiled, common]
    from faultlens.cli.main import main as faultlens

    return faultlens(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
