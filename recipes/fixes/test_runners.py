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

The runners live by family (python_runners.py, js_runners.py,
go_rust_runners.py, jvm_ruby_php_runners.py, on the shared types and argv
helpers of runner_argv.py); this module is their one table, in the order
they are tried, and the entry points.  Adding a runner: write a `Runner`
(detect + select) in its family's module and add it to that family's list;
its output summary goes in `recipes/rerun_proof.py` (`TALLIES`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .go_rust_runners import GO_RUST_RUNNERS, go_quote_meta, go_run_pattern
from .js_runners import JS_RUNNERS
from .jvm_ruby_php_runners import JVM_RUBY_PHP_RUNNERS
from .python_runners import PYTHON_RUNNERS
from .runner_argv import (
    Inside,
    Refused,
    Runner,
    Selection,
    SingleTest,
    base_name,
    regex_escape,
)

__all__ = [
    "ALIASES",
    "BY_NAME",
    "RUNNERS",
    "Inside",
    "Refused",
    "Runner",
    "Selection",
    "SingleTest",
    "detect",
    "go_quote_meta",
    "go_run_pattern",
    "regex_escape",
    "runner_name",
    "script_invocation",
    "select",
]

RUNNERS: list[Runner] = [*PYTHON_RUNNERS, *JS_RUNNERS, *GO_RUST_RUNNERS, *JVM_RUBY_PHP_RUNNERS]
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
    if not argv or base_name(argv[0]) not in _SCRIPT_RUNNERS:
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
            wrapper = [*argv, "--"] if base_name(argv[0]) == "npm" else list(argv)
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
