"""The test runners the test recipe can drive: how to recognise one in a command,
and the command that re-runs only some of its tests, keeping the original
command's own flags (`--offline`, `--release`, `--features`, `-c` config files,
`-p` packages, reporters).

Pure: no process is started here and nothing is read but what the caller
passes in.  Test ids taken from output go to the runner as single argv
elements, escaped for the runner's own matching (a regex-escaped title for
jest/vitest/mocha/node:test, `regexp.QuoteMeta` per Go subtest level,
pytest node ids and cargo names as they are); safety is "argv only, no shell,
nothing outside the workspace", checked by the `inside` callback the caller
gives for every path-like part of every value.

Adding a runner: write a `Runner` (detect + select) and append it to
`RUNNERS`; its output summary goes in `recipes/rerun_proof.py` (`TALLIES`).
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from faultlens.classifier.lazyre import lazy_compile

# Whether a path (relative to the run's cwd, or absolute) lies inside the workspace.
Inside = Callable[[str], bool]


@dataclass(slots=True, frozen=True)
class SingleTest:
    """One failing test, as a runner can be told to run it."""

    framework: str  # a Runner.name
    test_id: str  # pytest node id / unittest dotted id / full title / Go or Rust name
    package: str | None = None  # Go: the package's directory (./pkg)
    file: str | None = None  # the test file (JS runners), relative to the run's cwd
    path: tuple[str, ...] = ()  # JS: suite names then the test name


@dataclass(slots=True)
class Selection:
    """One command re-running some tests of one runner."""

    runner: str
    argv: list[str]
    tests: list[SingleTest]
    cwd: str = "."  # relative to the run's cwd


class Refused(ValueError):
    """The tests cannot be re-run safely (the message says why)."""


@dataclass(slots=True, frozen=True)
class Runner:
    name: str
    detect: Callable[[Sequence[str]], int | None]  # index of the runner's word in argv
    select: Callable[[list[str], int, list[SingleTest], Inside], list[Selection]]
    # Flags the runner takes with a separate value (so the value is not a path).
    value_flags: frozenset[str] = field(default_factory=frozenset)


def _base(arg: str) -> str:
    name = os.path.basename(arg)
    return name[:-4] if name.endswith((".cmd", ".exe")) else name


def regex_escape(text: str) -> str:
    """Escape a title for a JavaScript RegExp (jest/vitest `-t`, mocha `--grep`,
    node `--test-name-pattern`), like the spec's RegExp.escape for what matters."""
    escaped = re.sub(r"([\\^$.*+?()\[\]{}|/-])", r"\\\1", text)
    # A control character (a NUL in a title) cannot be an argv byte: \xNN in the pattern.
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\x{ord(m.group()):02x}", escaped)


def go_quote_meta(text: str) -> str:
    """Go's regexp.QuoteMeta."""
    return re.sub(r"([\\.+*?()|\[\]{}^$])", r"\\\1", text)


def _check_path(value: str, inside: Inside, what: str) -> None:
    if not value or "\x00" in value:
        raise Refused(f"empty or NUL {what} from output")
    if not inside(value):
        raise Refused(f"{what} {value!r} lies outside the workspace")


def _no_option(value: str, what: str) -> None:
    if value.startswith("-"):
        raise Refused(f"{what} {value!r} would be read as an option")


def _drop_positionals(
    args: list[str], value_flags: frozenset[str], is_path: Callable[[str], bool]
) -> list[str]:
    """The arguments without the path-like positionals (the original selection)."""
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            out.append(arg)
            skip = False
            continue
        if arg.startswith("-"):
            out.append(arg)
            if arg in value_flags:
                skip = True
            continue
        if is_path(arg):
            continue
        out.append(arg)
    return out


def _find(argv: Sequence[str], names: tuple[str, ...]) -> int | None:
    for i, arg in enumerate(argv):
        if _base(arg) in names:
            return i
    return None


# -- pytest ---------------------------------------------------------------------------
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
        if _base(arg) in ("pytest", "py.test"):
            return i
        if arg == "-m" and i + 1 < len(argv) and argv[i + 1] == "pytest" and i > 0:
            return i + 1
    return None


def _select_pytest(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    ids = []
    for t in tests:
        _no_option(t.test_id, "pytest node id")
        file = t.test_id.split("::", 1)[0].split("[", 1)[0]
        _check_path(file, inside, "test file")
        ids.append(t.test_id)
    head, rest = argv[: at + 1], argv[at + 1 :]
    # pytest's positionals are all file_or_dir: the original selection.
    kept = _drop_positionals(rest, _PYTEST_VALUE_FLAGS, lambda a: True)
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
            _check_path(top, inside, "unittest top-level directory")
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


# -- JavaScript runners -------------------------------------------------------------------
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
            _check_path(t.file, inside, "test file")
            _no_option(t.file, "test file")
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


def _without(args: list[str], flags: tuple[str, ...]) -> list[str]:
    """`args` without the given flags (and their separate or `=` values)."""
    out, skip = [], False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in flags:
            skip = True
            continue
        if any(arg.startswith(f + "=") for f in flags):
            continue
        out.append(arg)
    return out


def _select_jest_like(name: str) -> Callable[..., list[Selection]]:
    def select(
        argv: list[str], at: int, tests: list[SingleTest], inside: Inside
    ) -> list[Selection]:
        head, rest = argv[: at + 1], argv[at + 1 :]
        rest = _without(rest, ("-t", "--testNamePattern", "--grep"))
        if name == "vitest":
            sub = rest[:1]
            if sub and sub[0] in ("run", "watch", "dev", "related"):
                rest = rest[1:]
            head = [*head, "run"]  # never watch mode
        kept = _drop_positionals(rest, _JEST_VALUE_FLAGS, lambda a: True)
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
    rest = _without(rest, ("-g", "--grep", "-f", "--fgrep", "--spec"))
    kept = _drop_positionals(rest, _MOCHA_VALUE_FLAGS, lambda a: True)
    files = _js_files(tests, inside)
    return [Selection("mocha", [*head, *kept, *files, "--grep", _title_pattern(tests)], tests)]


def _detect_node_test(argv: Sequence[str]) -> int | None:
    if argv and _base(argv[0]) in ("node", "nodejs") and "--test" in argv:
        return argv.index("--test")
    return None


def _select_node_test(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    head, rest = argv[: at + 1], argv[at + 1 :]
    rest = _without(rest, ("--test-name-pattern",))
    node_flags = frozenset({"--test-reporter", "--test-reporter-destination", "--import", "-r"})
    kept = _drop_positionals(rest, node_flags, lambda a: True)
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
    _check_path(folder, inside, "uvu folder")
    files = _js_files(tests, inside)
    if not files:
        raise Refused("uvu re-runs test files, and these failures name none")
    rels = [os.path.relpath(f, folder).replace(os.sep, "/") for f in files]
    if any(r.startswith("..") for r in rels):
        raise Refused(f"a failing test's file lies outside uvu's folder {folder!r}")
    pattern = "^(?:" + "|".join(regex_escape(r) for r in rels) + ")$"
    return [Selection("uvu", [*head, *flags, folder, pattern], list(tests))]


# -- go test ----------------------------------------------------------------------------
_GO_VALUE_FLAGS = frozenset(
    [
        "-run",
        "-bench",
        "-count",
        "-cpu",
        "-parallel",
        "-timeout",
        "-tags",
        "-coverprofile",
        "-covermode",
        "-coverpkg",
        "-o",
        "-exec",
        "-p",
        "-ldflags",
        "-gcflags",
        "-mod",
        "-modfile",
        "-C",
        "-skip",
        "-shuffle",
        "-benchtime",
    ]
)


def _detect_go(argv: Sequence[str]) -> int | None:
    if len(argv) >= 2 and _base(argv[0]) == "go" and argv[1] == "test":
        return 1
    return None


def go_run_pattern(names: Sequence[str]) -> str:
    """One `-run` pattern selecting the named tests (and subtests), each level
    anchored and QuoteMeta'd; levels with several names become alternations."""
    levels: list[list[str]] = []
    for name in names:
        for depth, part in enumerate(name.split("/")):
            if len(levels) <= depth:
                levels.append([])
            quoted = go_quote_meta(part)
            if quoted not in levels[depth]:
                levels[depth].append(quoted)
    return "/".join(f"^{lv[0]}$" if len(lv) == 1 else f"^(?:{'|'.join(lv)})$" for lv in levels)


def _select_go(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    head, rest = argv[: at + 1], argv[at + 1 :]
    rest = _without(rest, ("-run", "-count", "-skip"))
    # Everything after -args goes to the test binary: keep it in place.
    tail: list[str] = []
    if "-args" in rest:
        cut = rest.index("-args")
        rest, tail = rest[:cut], rest[cut:]
    kept = _drop_positionals(rest, _GO_VALUE_FLAGS, lambda a: True)
    if "-v" not in kept and "-test.v" not in kept:
        kept.append("-v")  # `--- PASS: TestX` lines: the per-test verdict
    by_pkg: dict[str, list[SingleTest]] = {}
    for t in tests:
        pkg = t.package or "./..."
        _no_option(pkg, "go package")
        _check_path(pkg.removesuffix("/...") or ".", inside, "go package")
        by_pkg.setdefault(pkg, []).append(t)
    return [
        Selection(
            "go",
            [
                *head,
                *kept,
                "-count=1",
                "-run",
                go_run_pattern([t.test_id for t in group]),
                pkg,
                *tail,
            ],
            group,
        )
        for pkg, group in by_pkg.items()
    ]


# -- cargo test --------------------------------------------------------------------------
_CARGO_VALUE_FLAGS = frozenset(
    [
        "-p",
        "--package",
        "--exclude",
        "-F",
        "--features",
        "--target",
        "--target-dir",
        "--manifest-path",
        "-j",
        "--jobs",
        "--profile",
        "--color",
        "--message-format",
        "--config",
        "-Z",
        "--test",
        "--bin",
        "--example",
        "--bench",
        "--lockfile-path",
    ]
)


def _detect_cargo(argv: Sequence[str]) -> int | None:
    if len(argv) >= 2 and _base(argv[0]) == "cargo":
        for i, arg in enumerate(argv[1:3], 1):
            if arg == "test":
                return i
    return None


_CARGO_TARGET = lazy_compile(
    r"--(?:lib|doc|bins|tests)|--(?:test|bin|example|bench) [A-Za-z0-9_-]+"
)
_CARGO_TARGET_FLAGS = ("--lib", "--doc", "--bins", "--tests", "--test", "--bin", "--example",
                       "--bench", "--all-targets")  # fmt: skip


def _select_cargo(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    head, rest = argv[: at + 1], argv[at + 1 :]
    harness: list[str] = []
    if "--" in rest:
        cut = rest.index("--")
        rest, harness = rest[:cut], rest[cut + 1 :]
    kept = _drop_positionals(rest, _CARGO_VALUE_FLAGS, lambda a: True)
    for flag in ("--manifest-path",):
        if flag in kept:
            value = kept[kept.index(flag) + 1] if kept.index(flag) + 1 < len(kept) else ""
            _check_path(value, inside, "cargo manifest")
    for t in tests:
        _no_option(t.test_id, "cargo test name")
    harness = [a for a in _without(harness, ("--skip",)) if a.startswith("-") and a != "--exact"]
    # One command per test binary named by cargo's own "to rerun pass `--lib`", so
    # the other binaries are not built and run; unless the command chose its own.
    own_target = any(a in _CARGO_TARGET_FLAGS for a in kept)
    groups: dict[str, list[SingleTest]] = {}
    for t in tests:
        target = t.package if t.package and _CARGO_TARGET.fullmatch(t.package) else ""
        groups.setdefault("" if own_target else target, []).append(t)
    return [
        Selection(
            "cargo",
            [*head, *kept, *target.split(), "--", *harness, "--exact", *(t.test_id for t in group)],
            group,
        )
        for target, group in groups.items()
    ]


# -- JVM, Ruby, PHP ----------------------------------------------------------------------------
def _detect_maven(argv: Sequence[str]) -> int | None:
    return 0 if argv and _base(argv[0]) in ("mvn", "mvnw") and "test" in argv else None


def _select_maven(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    names = []
    for t in tests:
        if not re.fullmatch(r"[\w.$]+(?:#[\w$]+)?", t.test_id):
            raise Refused(f"not a JUnit test id: {t.test_id!r}")
        names.append(t.test_id)
    kept = [a for a in argv if not a.startswith("-Dtest=")]
    return [
        Selection(
            "maven",
            [*kept, "-Dtest=" + ",".join(names), "-Dsurefire.failIfNoSpecifiedTests=true"],
            list(tests),
        )
    ]


def _detect_gradle(argv: Sequence[str]) -> int | None:
    if argv and _base(argv[0]) in ("gradle", "gradlew"):
        return next((i for i, a in enumerate(argv) if a in ("test", ":test")), None)
    return None


def _select_gradle(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    extra: list[str] = []
    for t in tests:
        if not re.fullmatch(r"[\w.$]+(?:\.[\w$]+)?", t.test_id):
            raise Refused(f"not a JUnit test id: {t.test_id!r}")
        extra += ["--tests", t.test_id]
    return [Selection("gradle", [*argv[: at + 1], *extra, *argv[at + 1 :]], list(tests))]


def _detect_rspec(argv: Sequence[str]) -> int | None:
    return _find(argv, ("rspec",))


def _select_rspec(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    ids = []
    for t in tests:
        _no_option(t.test_id, "rspec id")
        _check_path(re.split(r"[:\[]", t.test_id, maxsplit=1)[0], inside, "spec file")
        ids.append(t.test_id)
    kept = _drop_positionals(
        argv[at + 1 :],
        frozenset({"-r", "--require", "-f", "--format", "-o", "--out", "-e", "--example"}),
        lambda a: True,
    )
    return [Selection("rspec", [*argv[: at + 1], *kept, *ids], list(tests))]


def _detect_minitest(argv: Sequence[str]) -> int | None:
    """`ruby [-Ilib -Itest] test/x_test.rb [minitest options]`: the index of
    the test file (minitest/autorun reads the options after it)."""
    at = _find(argv, ("ruby",))
    if at is None:
        return None
    return next((i for i in range(at + 1, len(argv)) if argv[i].endswith(".rb")), None)


def _select_minitest(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    """`-n /^(?:name|name)$/`: the methods, spec-style names with spaces too
    (`test_0001_totals the prices`); minitest matches a method or Class#method."""
    names = []
    for t in tests:
        method = t.test_id.rsplit("#", 1)[-1]
        if not method.startswith("test_") or "\n" in method:
            raise Refused(f"not a Minitest test: {t.test_id!r}")
        names.append(method)
    pattern = "/^(?:" + "|".join(re.escape(n) for n in sorted(set(names))) + ")$/"
    kept = _without(argv[at + 1 :], ("-n", "--name"))
    kept = [a for a in kept if not a.startswith(("--name=", "-n/"))]
    return [Selection("minitest", [*argv[: at + 1], *kept, "-n", pattern], list(tests))]


def _detect_phpunit(argv: Sequence[str]) -> int | None:
    return _find(argv, ("phpunit",))


def _select_phpunit(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    names = sorted({t.test_id.rsplit("::", 1)[-1] for t in tests})
    pattern = "/^(?:" + "|".join(re.escape(n) for n in names).replace("/", "\\/") + r")(?:\s|$)/"
    kept = _without(argv[at + 1 :], ("--filter",))
    return [Selection("phpunit", [*argv[: at + 1], *kept, "--filter", pattern], list(tests))]


RUNNERS: list[Runner] = [
    Runner("pytest", _detect_pytest, _select_pytest, _PYTEST_VALUE_FLAGS),
    Runner("unittest", _detect_unittest, _select_unittest),
    Runner("vitest", lambda a: _find(a, ("vitest",)), _select_jest_like("vitest")),
    Runner("jest", lambda a: _find(a, ("jest",)), _select_jest_like("jest")),
    Runner("mocha", lambda a: _find(a, ("mocha", "_mocha")), _select_mocha),
    Runner("node", _detect_node_test, _select_node_test),
    Runner("uvu", lambda a: _find(a, ("uvu",)), _select_uvu, _UVU_VALUE_FLAGS),
    Runner("go", _detect_go, _select_go, _GO_VALUE_FLAGS),
    Runner("cargo", _detect_cargo, _select_cargo, _CARGO_VALUE_FLAGS),
    Runner("maven", _detect_maven, _select_maven),
    Runner("gradle", _detect_gradle, _select_gradle),
    Runner("rspec", _detect_rspec, _select_rspec),
    Runner("minitest", _detect_minitest, _select_minitest),
    Runner("phpunit", _detect_phpunit, _select_phpunit),
]
BY_NAME = {r.name: r for r in RUNNERS}
# What the classifier's rules call a runner, in their `runner` hint or `tool`.
ALIASES = {
    "node:test": "node",
    "node-test": "node",
    "nodetest": "node",
    "go test": "go",
    "cargo test": "cargo",
    "libtest": "cargo",
    "junit": "maven",
}


def runner_name(value: str | None) -> str | None:
    if not value:
        return None
    v = value.lower()
    v = ALIASES.get(v, v)
    return v if v in BY_NAME else None


def detect(argv: Sequence[str]) -> tuple[Runner, int] | None:
    """The runner a command invokes directly, and where its word is."""
    for runner in RUNNERS:
        at = runner.detect(argv)
        if at is not None:
            return runner, at
    return None


_SCRIPT_RUNNERS = ("npm", "pnpm", "yarn", "bun")


def script_invocation(argv: Sequence[str]) -> str | None:
    """The package.json script a command runs (`npm test`, `pnpm run test`), or None."""
    if not argv or _base(argv[0]) not in _SCRIPT_RUNNERS:
        return None
    words = [a for a in argv[1:] if not a.startswith("-")]
    if not words:
        return None
    if words[0] in ("test", "t", "tst") and len(words) == 1:
        return "test"
    if words[0] in ("run", "run-script") and len(words) == 2:
        return words[1]
    return None


def select(
    tests: Sequence[SingleTest],
    command: Sequence[str],
    inside: Inside,
    *,
    script: str | None = None,
) -> list[Selection]:
    """The commands (one per runner, or per Go package) that re-run `tests`.

    `command` is the original command; `script` the text of the package.json
    script it runs, when it runs one (`npm test`).  Raises Refused when a test
    cannot be re-run safely or the command is not a known runner.
    """
    argv = list(command)
    wrapper: list[str] | None = None
    found = detect(argv)
    if found is None and script is not None:
        import shlex

        try:
            words = shlex.split(script)
        except ValueError:
            raise Refused(f"cannot read the test script {script!r}") from None
        found = detect(words)
        if found is not None:
            # Extra arguments go through the package manager to the script.
            wrapper = [*argv, "--"] if _base(argv[0]) == "npm" else list(argv)
            argv = words
    if found is None:
        from faultlens.classifier.redact import shown_command

        raise Refused(f"`{shown_command(command)}` is not a test runner faultlens knows")
    runner, at = found
    picked = [t for t in tests if runner_name(t.framework) in (runner.name, None)]
    if not picked:
        raise Refused(f"the failing tests were not reported by {runner.name}")
    out = runner.select(argv, at, picked, inside)
    if any("\x00" in a for sel in out for a in sel.argv):
        raise Refused(f"a test id holds a NUL byte, which no {runner.name} command line can carry")
    if wrapper is not None:
        for sel in out:
            sel.argv = _rewrap(wrapper, argv, sel.argv)
    return out


def _rewrap(wrapper: list[str], script: list[str], argv: list[str]) -> list[str]:
    """A runner command built from a script's words, as arguments to the script:
    what the selection added or changed after the script's own words."""
    common = 0
    while common < min(len(script), len(argv)) and script[common] == argv[common]:
        common += 1
    return [*wrapper, *argv[common:]]
