"""How long the name indexes take to build (cold: an empty cache folder) and
to load (warm: from the cache folder, in a fresh process's memory), per
ecosystem (see docs/benchmarks.md, "Name indexes").  Targets: under 5 s
cold, under 1 s warm.

    python -m benchmarks.names [--repeat 3] [--python /path/to/python]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable


def _python(exe: str) -> Callable[[], int]:
    from faultlens.recipes.names import py_index

    def build() -> int:
        py_index._MEMO.clear()
        index = py_index.index_for(exe)
        return len(index.exports) + len(index.installed)

    return build


def _node() -> int:
    from faultlens.recipes.names import js_names

    js_names._MEMO.clear()
    return len(js_names.node_names().get("builtins") or {})


def _go() -> int:
    from faultlens.recipes.fixes import go_imports

    go_imports.std_packages.cache_clear()
    return len(go_imports.std_packages())


def _c() -> int:
    from faultlens.recipes.names import c_std

    c_std._MEMO.clear()
    cc = c_std.compiler_of(["gcc"])
    return len(c_std.index(cc)) if cc else 0


def _java() -> int:
    from faultlens.recipes.names import java_index

    java_index._MEMO.clear()
    home = java_index.jdk_home(["javac"], os.environ.get("JAVA_HOME"))
    tiers = java_index.index(home) if home else {}
    return sum(len(names) for names in tiers.values())


def _csharp() -> int:
    from faultlens.recipes.names import cs_index

    cs_index._MEMO.clear()
    return len(cs_index.index().get("types", {}))


def measure(name: str, build: Callable[[], int], repeat: int) -> tuple[float, float, int]:
    """(best cold seconds, best warm seconds, entries)."""
    cold = warm = float("inf")
    size = 0
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="faultlens-names-") as home:
            os.environ["XDG_CACHE_HOME"] = home
            start = time.perf_counter()
            size = build()
            cold = min(cold, time.perf_counter() - start)
            start = time.perf_counter()
            build()
            warm = min(warm, time.perf_counter() - start)
    return cold, warm, size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args(argv)
    print("| index | entries | cold (build) | warm (cache folder) |")
    print("|---|---|---|---|")
    for name, build in (
        (f"Python ({args.python})", _python(args.python)),
        ("Node (globals, built-in modules' exports)", _node),
        ("Go (`go list std`)", _go),
        ("C (the compiler's include folders' `#define`s)", _c),
        ("Java (the JDK's SE classes, `jimage list`)", _java),
        ("C# (Mono's base class library types)", _csharp),
    ):
        cold, warm, size = measure(name, build, args.repeat)
        print(f"| {name} | {size} | {cold:.2f} s | {warm:.3f} s |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
