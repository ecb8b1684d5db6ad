"""The JavaScript test runners the test recipe can drive: vitest, jest, mocha,
node:test and uvu (titles regex-escaped, test files checked)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from .runner_argv import (
    Inside,
    Refused,
    Runner,
    Selection,
    SingleTest,
    base_name,
    check_path,
    drop_positionals,
    find_word,
    no_option,
    regex_escape,
    without_flags,
)


def _title_pattern(tests: Sequence[SingleTest]) -> str:
    """The full names (suite titles and the test's, joined by one space: what
    jest/vitest `-t` and mocha `--grep` match), escaped, as one anchored pattern."""
    names = sorted({t.test_id for t in tests})
    alt = "|".join(regex_escape(n) for n in names)
    return f"^(?:{alt})$"


def _js_files(tests: Sequence[SingleTest], inside: Inside) -> list[str]:
    files: list[str] = []
    for t in tests:
        if t.file:
            check_path(t.file, inside, "test file")
            no_option(t.file, "test file")
            if t.file not in files:
                files.append(t.file)
    return files


_JEST_VALUE_FLAGS = frozenset(
    [
        "-c",
        "--config",
        "-t",
        "--testNamePattern",
        "--reporters",
        "--reporter",
        "--project",
        "--projects",
        "--root",
        "--dir",
        "--environment",
        "--pool",
        "--shard",
        "--maxWorkers",
        "-w",
        "--coverage.provider",
        "--mode",
        "--outputFile",
        "--testTimeout",
        "--rootDir",
        "--selectProjects",
        "--testPathPattern",
    ]
)


def _select_jest_like(name: str) -> Callable[..., list[Selection]]:
    def select(
        argv: list[str], at: int, tests: list[SingleTest], inside: Inside
    ) -> list[Selection]:
        head, rest = argv[: at + 1], argv[at + 1 :]
        rest = without_flags(rest, ("-t", "--testNamePattern", "--grep"))
        if name == "vitest":
            sub = rest[:1]
            if sub and sub[0] in ("run", "watch", "dev", "related"):
                rest = rest[1:]
            head = [*head, "run"]  # never watch mode
        kept = drop_positionals(rest, _JEST_VALUE_FLAGS, lambda a: True)
        files = _js_files(tests, inside)
        return [Selection(name, [*head, *kept, *files, "-t", _title_pattern(tests)], list(tests))]

    return select


_MOCHA_VALUE_FLAGS = frozenset(
    [
        "-R",
        "--reporter",
        "-O",
        "--reporter-option",
        "--reporter-options",
        "--config",
        "--package",
        "-r",
        "--require",
        "--ui",
        "-u",
        "-t",
        "--timeout",
        "-s",
        "--slow",
        "--extension",
        "--file",
        "--ignore",
        "--exclude",
        "--spec",
        "-j",
        "--jobs",
        "-g",
        "--grep",
        "-f",
        "--fgrep",
    ]
)


def _select_mocha(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    head, rest = argv[: at + 1], argv[at + 1 :]
    rest = without_flags(rest, ("-g", "--grep", "-f", "--fgrep", "--spec"))
    kept = drop_positionals(rest, _MOCHA_VALUE_FLAGS, lambda a: True)
    files = _js_files(tests, inside)
    return [Selection("mocha", [*head, *kept, *files, "--grep", _title_pattern(tests)], tests)]


def _detect_node_test(argv: Sequence[str]) -> int | None:
    if argv and base_name(argv[0]) in ("node", "nodejs") and "--test" in argv:
        return argv.index("--test")
    return None


def _select_node_test(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    head, rest = argv[: at + 1], argv[at + 1 :]
    rest = without_flags(rest, ("--test-name-pattern",))
    node_flags = frozenset({"--test-reporter", "--test-reporter-destination", "--import", "-r"})
    kept = drop_positionals(rest, node_flags, lambda a: True)
    files = _js_files(tests, inside)
    # node:test 20 matches each test's own name, later versions the names of
    # the test and its suites joined by spaces: either, anchored.
    names = sorted(
        {t.path[-1] if t.path else t.test_id for t in tests}
        | {" ".join(t.path) for t in tests if len(t.path) > 1}
    )
    pattern = "^(?:" + "|".join(regex_escape(n) for n in names) + ")$"
    return [
        Selection("node", [*head, *kept, f"--test-name-pattern={pattern}", *files], list(tests))
    ]


_UVU_VALUE_FLAGS = frozenset({"-i", "--ignore", "-r", "--require"})


def _select_uvu(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    """uvu selects test files, not tests: `uvu [dir] [pattern]`, the pattern a
    RegExp over each file's path relative to dir.  The tests' files, anchored."""
    head, rest = argv[: at + 1], argv[at + 1 :]
    if any(a in ("-c", "--cwd") or a.startswith("--cwd=") for a in rest):
        raise Refused("uvu --cwd moves where its files are read: not re-run")
    flags: list[str] = []
    positionals: list[str] = []
    skip = False
    for arg in rest:
        if skip:
            flags.append(arg)
            skip = False
        elif arg.startswith("-"):
            flags.append(arg)
            skip = arg in _UVU_VALUE_FLAGS
        else:
            positionals.append(arg)
    folder = positionals[0] if positionals else "."
    check_path(folder, inside, "uvu folder")
    files = _js_files(tests, inside)
    if not files:
        raise Refused("uvu re-runs test files, and these failures name none")
    rels = [os.path.relpath(f, folder).replace(os.sep, "/") for f in files]
    if any(r.startswith("..") for r in rels):
        raise Refused(f"a failing test's file lies outside uvu's folder {folder!r}")
    pattern = "^(?:" + "|".join(regex_escape(r) for r in rels) + ")$"
    return [Selection("uvu", [*head, *flags, folder, pattern], list(tests))]


JS_RUNNERS: list[Runner] = [
    Runner("vitest", lambda a: find_word(a, ("vitest",)), _select_jest_like("vitest")),
    Runner("jest", lambda a: find_word(a, ("jest",)), _select_jest_like("jest")),
    Runner("mocha", lambda a: find_word(a, ("mocha", "_mocha")), _select_mocha),
    Runner("node", _detect_node_test, _select_node_test),
    Runner("uvu", lambda a: find_word(a, ("uvu",)), _select_uvu, _UVU_VALUE_FLAGS),
]
