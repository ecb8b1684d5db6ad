"""When a warning is a failure: one policy for every rule (docs/warnings.md).

Rules report what they saw: a finding that does not fail the tool's run by
the tool's defaults is a hit with ``warning=True`` (gcc's `warning:`,
eslint's `warning`, yamllint's `warning`).  Whether it becomes a record is
decided here, once the whole output has been read, from what the classifier
knows of the run:

1. the run succeeded (exit status 0): no warning is a failure;
2. the output says warnings failed it ("ESLint found too many warnings
   (maximum: 0)", a hit keyed ``WARNINGS_FAILED``): they are;
3. the command makes warnings fatal (``-Werror``, ``-D warnings``,
   ``--max-warnings 0``, ``--strict``, ...): they are;
4. the run failed (exit status known and non-zero) and nothing but warnings
   was found: they are what failed it (a linter's non-zero exit);
5. otherwise (a saved log, or errors that explain the failure): they are not.

The same knowledge makes a linter's findings advisory: a linter run that
exited 0 (`pylint --exit-zero`, `flake8 --exit-zero`, `hadolint --no-fail`,
`|| true`) failed nothing, so none of its findings is a record.

Pure: the engine hands over the command, the exit status and what it found.
"""

from __future__ import annotations

from collections.abc import Sequence

from .fallback import argv_of

# Flags that turn every warning into a failure, as one argv word.
_FATAL_WORDS = frozenset(
    {
        "-Werror",  # gcc, clang, javac, kotlinc, ghc, swiftc (-warnings-as-errors too)
        "-Dwarnings",  # rustc, cargo clippy -- -Dwarnings
        "--deny=warnings",
        "--max-warnings=0",  # eslint, stylelint
        "--strict",  # yamllint, mkdocs, sphinx-lint...
        "--warnings-as-errors",  # mix compile, credo
        "-warnings-as-errors",  # swiftc
        "-Xfatal-warnings",  # scalac 2
        "-Werror:all",
        "-fatal-warnings",
        "--fatal-warnings",  # dart analyze, flutter analyze
        "--fatal-infos",
        "/warnaserror",  # csc, msbuild
        "-warnaserror",
        "/warnaserror+",
        "-warnaserror+",
        "-p:TreatWarningsAsErrors=true",
        "/p:TreatWarningsAsErrors=true",
        "--fail-on-warning",  # sphinx-build
        "--error-on-warnings",
        "--warnings-as-errors=true",
        "--deny-warnings",  # oxlint
    }
)
# Flags that do so with the next word: `-D warnings`, `--max-warnings 0`.
_FATAL_PAIRS = frozenset({("-D", "warnings"), ("--deny", "warnings"), ("--max-warnings", "0")})
# Environment assignments that carry such a flag: RUSTFLAGS="-D warnings".
_FLAG_VARS = frozenset({"RUSTFLAGS", "CFLAGS", "CXXFLAGS", "RUSTDOCFLAGS", "GOFLAGS"})


def fatal_flag(command: Sequence[str] | str | None) -> str | None:
    """The flag in `command` that makes warnings fatal, as printed, else None."""
    argv = argv_of(command)
    for i, word in enumerate(argv):
        if word in _FATAL_WORDS:
            return word
        if i + 1 < len(argv) and (word, argv[i + 1]) in _FATAL_PAIRS:
            return f"{word} {argv[i + 1]}"
        name, eq, value = word.partition("=")
        if eq and name in _FLAG_VARS:
            inner = value.split()
            if flag := fatal_flag(inner):
                return f"{name}={flag}"
    return None


def warnings_fail(
    command: Sequence[str] | str | None,
    exit_code: int | None,
    *,
    errors: bool,
    promoted: str | None = None,
) -> str | None:
    """Why the run's warnings are failures, or None when they are not.

    `errors`: something other than a warning was found; `promoted`: the line
    of output that said warnings failed the run, if any."""
    if exit_code == 0:
        return None
    if promoted:
        return f"the output says so: {promoted}"
    if flag := fatal_flag(command):
        return f"the command makes warnings fatal ({flag})"
    if exit_code is not None and not errors:
        return f"the run exited with status {exit_code} and reported only warnings"
    return None


# The linters whose findings are advisory in a run that exited 0 (the
# record's `tool`): the tool said the run passed.
LINTERS = frozenset(
    {
        "shellcheck",
        "hadolint",
        "yamllint",
        "actionlint",
        "markdownlint",
        "stylelint",
        "eslint",
        "oxlint",
        "standard",
        "prettier",
        "black",
        "isort",
        "ruff",
        "flake8",
        "pylint",
        "pydocstyle",
        "golangci-lint",
        "staticcheck",
        "sqlfluff",
        "codespell",
    }
)
# Flags that make a linter exit 0 whatever it finds.
_ADVISORY_WORDS = frozenset(
    {"--exit-zero", "--no-fail", "--nofail", "--issues-exit-code=0", "--exit-zero-even-if-changed"}
)


def findings_advisory(command: Sequence[str] | str | None, exit_code: int | None) -> str | None:
    """Why the linters' findings of this run are not failures, or None."""
    if exit_code == 0:
        return "the run exited with status 0"
    argv = argv_of(command)
    for i, word in enumerate(argv):
        if word in _ADVISORY_WORDS:
            return f"the command makes findings advisory ({word})"
        if word == "--issues-exit-code" and argv[i + 1 : i + 2] == ["0"]:
            return "the command makes findings advisory (--issues-exit-code 0)"
    return None
