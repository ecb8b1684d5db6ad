"""The Python test runners the test recipe can drive: pytest and unittest."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .runner_argv import (
    Inside,
    Refused,
    Runner,
    Selection,
    SingleTest,
    base_name,
    check_path,
    drop_positionals,
    no_option,
)

_PYTEST_VALUE_FLAGS = frozenset(
    [
        "-k",
        "-m",
        "-c",
        "-p",
        "-o",
        "-W",
        "-n",
        "--rootdir",
        "--confcutdir",
        "--deselect",
        "--ignore",
        "--ignore-glob",
        "--tb",
        "--maxfail",
        "--junitxml",
        "--junit-xml",
        "--cov",
        "--cov-report",
        "--cov-config",
        "--basetemp",
        "-r",
        "--durations",
        "--log-level",
        "--import-mode",
        "--capture",
        "--dist",
        "--override-ini",
        "--config-file",
        "--timeout",
    ]
)


def _detect_pytest(argv: Sequence[str]) -> int | None:
    for i, arg in enumerate(argv):
        if base_name(arg) in ("pytest", "py.test"):
            return i
        if arg == "-m" and i + 1 < len(argv) and argv[i + 1] == "pytest" and i > 0:
            return i + 1
    return None


def _select_pytest(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    ids = []
    for t in tests:
        no_option(t.test_id, "pytest node id")
        file = t.test_id.split("::", 1)[0].split("[", 1)[0]
        check_path(file, inside, "test file")
        ids.append(t.test_id)
    head, rest = argv[: at + 1], argv[at + 1 :]
    # pytest's positionals are all file_or_dir: the original selection.
    kept = drop_positionals(rest, _PYTEST_VALUE_FLAGS, lambda a: True)
    # -rA lists every test's outcome (the per-test verdict); the cache is left alone.
    extra = ["-rA"] if _cache_off(kept) else ["-p", "no:cacheprovider", "-rA"]
    return [Selection("pytest", [*head, *kept, *extra, *ids], list(tests))]


def _cache_off(argv: Sequence[str]) -> bool:
    """Whether a pytest command already says `-p no:cacheprovider`."""
    pairs = itertools.pairwise([*argv, ""])
    return any(a == "-pno:cacheprovider" or (a, b) == ("-p", "no:cacheprovider") for a, b in pairs)


# -- unittest ---------------------------------------------------------------------------
def _detect_unittest(argv: Sequence[str]) -> int | None:
    for i, arg in enumerate(argv):
        if arg == "-m" and i + 1 < len(argv) and argv[i + 1] == "unittest" and i > 0:
            return i + 1
    return None


def _dotted(value: str) -> bool:
    parts = value.split(".")
    return len(parts) >= 2 and all(p.isidentifier() for p in parts)


def _select_unittest(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    head, rest = argv[: at + 1], argv[at + 1 :]
    cwd = "."
    kept: list[str] = []
    if rest[:1] == ["discover"]:
        # `discover -s DIR [-t TOP]`: ids are importable from TOP (default: DIR).
        opts = {"-s": "", "-t": "", "--start-directory": "", "--top-level-directory": ""}
        i, positional = 1, []
        while i < len(rest):
            arg = rest[i]
            if arg in opts and i + 1 < len(rest):
                opts[arg] = rest[i + 1]
                i += 2
                continue
            if arg.startswith("-"):
                if arg in ("-p", "--pattern", "-k"):
                    i += 2
                    continue
                kept.append(arg)
            else:
                positional.append(arg)
            i += 1
        start = opts["-s"] or opts["--start-directory"] or (positional[0] if positional else "")
        top = (
            opts["-t"]
            or opts["--top-level-directory"]
            or (positional[2] if len(positional) > 2 else start)
        )
        if top and top != ".":
            check_path(top, inside, "unittest top-level directory")
            cwd = top
    else:
        kept = [a for a in rest if a.startswith("-") and a not in ("-k", "-p")]
    ids = []
    for t in tests:
        if not _dotted(t.test_id):
            raise Refused(f"not a unittest dotted id: {t.test_id!r}")
        ids.append(t.test_id)
    if "-v" not in kept and "--verbose" not in kept:
        kept.append("-v")  # every test's outcome, for the per-test verdict
    return [Selection("unittest", [*head, *kept, *ids], list(tests), cwd)]


PYTHON_RUNNERS: list[Runner] = [
    Runner("pytest", _detect_pytest, _select_pytest, _PYTEST_VALUE_FLAGS),
    Runner("unittest", _detect_unittest, _select_unittest),
]
