"""Nothing unexplained: the record for a failed command that no rule matched.

When a command exits non-zero and no rule recognised its output, faultlens
still reports one failure, classified from the command that ran (a test
runner → test, a compiler or bundler → compile, git → branch_divergence, an
agent CLI → prompt_delivery, anything else → infra), with the most
error-like lines of the output as its signal, rule ``fallback`` and a low
confidence.  An authentication or network failure is infra whatever the
command was ("Permission denied (publickey)" on a `git push`).

Pure functions: the engine hands over the lines it kept.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .lazyre import lazy_compile
from .redact import shown_command
from .taxonomy import FailureType

CONFIDENCE = 0.3
MAX_LINES = 3

_TEST_TOOLS = frozenset(
    {
        "pytest",
        "py.test",
        "jest",
        "vitest",
        "mocha",
        "ava",
        "tap",
        "karma",
        "playwright",
        "cypress",
        "ctest",
        "rspec",
        "phpunit",
        "tox",
        "nox",
        "nextest",
        "gotestsum",
        "unittest",
        "nose2",
        "ward",
    }
)
_COMPILE_TOOLS = frozenset(
    {
        "tsc",
        "esbuild",
        "vite",
        "webpack",
        "rollup",
        "parcel",
        "turbo",
        "swc",
        "babel",
        "gcc",
        "g++",
        "cc",
        "c++",
        "clang",
        "clang++",
        "make",
        "cmake",
        "ninja",
        "meson",
        "bazel",
        "rustc",
        "javac",
        "kotlinc",
        "scalac",
        "swiftc",
        "zig",
        "mypy",
        "pyright",
        "ruff",
        "flake8",
        "pylint",
        "eslint",
        "tslint",
        "biome",
        "py_compile",
        "compileall",
        "msbuild",
        # linters and format checkers (their rules: docs/rules.md)
        "shellcheck",
        "hadolint",
        "yamllint",
        "actionlint",
        "markdownlint",
        "markdownlint-cli2",
        "stylelint",
        "prettier",
        "standard",
        "black",
        "isort",
        "pydocstyle",
        "golangci-lint",
        "staticcheck",
        "go-staticcheck",
        "sqlfluff",
        "codespell",
    }
)
_AGENT_TOOLS = frozenset(
    {
        "claude",
        "codex",
        "aider",
        "gemini",
        "cursor-agent",
        "copilot",
        "goose",
        "amp",
        "opencode",
        "llm",
        "openai",
        "anthropic",
        "cline",
    }
)
# Subcommands of multi-purpose tools: (tool, subcommand) → category.
_SUBCOMMANDS: dict[str, dict[str, FailureType]] = {
    "cargo": {
        "test": FailureType.TEST,
        "nextest": FailureType.TEST,
        "build": FailureType.COMPILE,
        "check": FailureType.COMPILE,
        "clippy": FailureType.COMPILE,
        "run": FailureType.COMPILE,
    },
    "go": {
        "test": FailureType.TEST,
        "build": FailureType.COMPILE,
        "vet": FailureType.COMPILE,
        "run": FailureType.COMPILE,
        "install": FailureType.COMPILE,
    },
    "dotnet": {"test": FailureType.TEST, "build": FailureType.COMPILE},
    "mvn": {
        "test": FailureType.TEST,
        "verify": FailureType.TEST,
        "compile": FailureType.COMPILE,
        "package": FailureType.COMPILE,
        "install": FailureType.COMPILE,
    },
    "gradle": {
        "test": FailureType.TEST,
        "check": FailureType.TEST,
        "build": FailureType.COMPILE,
        "assemble": FailureType.COMPILE,
        "compileJava": FailureType.COMPILE,
    },
    "bun": {"test": FailureType.TEST, "build": FailureType.COMPILE},
    "deno": {"test": FailureType.TEST, "check": FailureType.COMPILE},
    "swift": {"test": FailureType.TEST, "build": FailureType.COMPILE},
}
_SUBCOMMANDS["./mvnw"] = _SUBCOMMANDS["mvnw"] = _SUBCOMMANDS["mvn"]
_SUBCOMMANDS["./gradlew"] = _SUBCOMMANDS["gradlew"] = _SUBCOMMANDS["gradle"]
# Wrappers whose first real argument is the command that matters.
_WRAPPERS = frozenset(
    {"sudo", "env", "time", "nice", "timeout", "xvfb-run", "stdbuf", "command", "exec", "nohup"}
)
_RUNNERS = {"npx": 1, "pnpx": 1, "bunx": 1, "uvx": 1, "pipx": 2}  # tool after n words
_PKG_RUN = frozenset({"npm", "pnpm", "yarn", "bun"})
_PY_RUN = {("uv", "run"), ("poetry", "run"), ("pdm", "run"), ("hatch", "run"), ("pipenv", "run")}
_PYTHON = lazy_compile(r"^python(?:\d(?:\.\d+)?)?$")

# Failures that are infra whatever command printed them.
_INFRA_LINE = lazy_compile(
    r"Permission denied \(publickey|Host key verification failed|Could not read from remote repository"
    r"|Authentication failed|could not resolve host|Could not resolve hostname|Connection refused"
    r"|Connection reset|Connection timed out|Network is unreachable|No space left on device"
    r"|SSL certificate problem|The requested URL returned error: 5\d\d",
    re.IGNORECASE,
)
_ERRORISH = lazy_compile(
    r"\b(?:error|errors|fatal|panic|panicked|exception|traceback|failed|failure|fail"
    r"|segmentation fault|core dumped|denied|refused|not found|no such file|cannot|can't|could not"
    r"|unable to|timed out|timeout|killed|aborted|abort|invalid|missing|unexpected|exit (?:code|status))\b",
    re.IGNORECASE,
)
_STRONG = lazy_compile(
    r"^\s*(?:error|fatal|panic|E|FAIL|FAILED|ERR!?)\b[:\[ ]|Error:|Exception:", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Fallback:
    """What the fallback record says."""

    category: FailureType
    signal: str
    message: str
    log_line: int | None
    lines: tuple[str, ...]
    command: str


def argv_of(command: Sequence[str] | str | None) -> list[str]:
    """The command as an argv list (a string is split like a shell would,
    never run)."""
    if command is None:
        return []
    if isinstance(command, str):
        try:
            return shlex.split(command)
        except ValueError:
            return command.split()
    return [str(a) for a in command]


def _script_category(name: str) -> FailureType:
    low = name.lower()
    if "test" in low or "spec" in low or low in {"e2e", "check"}:
        return FailureType.TEST
    if any(
        w in low for w in ("build", "compile", "typecheck", "type-check", "tsc", "lint", "bundle")
    ):
        return FailureType.COMPILE
    return FailureType.INFRA


def _unwrap(argv: list[str]) -> list[str]:
    """The argv from the program that does the work: past `VAR=value`
    words, wrappers (sudo, env, timeout...), runners (npx, uvx, `uv run`)
    and `python -m`."""
    while argv:
        word = argv[0]
        name = os.path.basename(word)
        rest = argv[1:]
        if "=" in word and not word.startswith("-") and name == word:  # VAR=value
            argv = rest
        elif name in _WRAPPERS:
            argv = [a for a in rest if not a.startswith("-")] if name != "timeout" else rest[1:]
        elif name in _RUNNERS:
            argv = [a for a in rest if not a.startswith("-")][_RUNNERS[name] - 1 :]
        elif (rest and (name, rest[0]) in _PY_RUN) or (
            _PYTHON.match(name) and len(rest) >= 2 and rest[0] == "-m"
        ):
            argv = rest[1:]  # `uv run X`, `python -m X`
        else:
            return argv
    return argv


def command_tool(command: Sequence[str] | str | None) -> str | None:
    """The program a command runs, past wrappers and runners (`npx eslint`
    → eslint, `python -m flake8` → flake8), or None."""
    argv = _unwrap(argv_of(command))
    return os.path.basename(argv[0]) if argv else None


def command_category(command: Sequence[str] | str | None) -> FailureType:
    """The category a failed run of `command` most likely belongs to."""
    argv = _unwrap(argv_of(command))
    while argv:
        word = argv[0]
        name = os.path.basename(word)
        rest = argv[1:]
        if _PYTHON.match(name):
            return FailureType.INFRA
        if name in _PKG_RUN:
            words = [a for a in rest if not a.startswith("-")]
            if not words:
                return FailureType.INFRA
            if words[0] in {"run", "run-script"} and len(words) > 1:
                return _script_category(words[1])
            if words[0] in {"test", "t", "tst"}:
                return FailureType.TEST
            if words[0] in {"exec", "dlx", "x"} and len(words) > 1:
                argv = _unwrap(words[1:])
                continue
            return _script_category(words[0])
        if name in _TEST_TOOLS:
            return FailureType.TEST
        if name in _COMPILE_TOOLS:
            if name == "make" and any(w in {"test", "check"} for w in rest):
                return FailureType.TEST
            if name == "vite" and rest[:1] == ["test"]:
                return FailureType.TEST
            return FailureType.COMPILE
        if name in _SUBCOMMANDS:
            words = [a for a in rest if not a.startswith("-")]
            return _SUBCOMMANDS[name].get(words[0] if words else "", FailureType.COMPILE)
        if name in {"git", "gh", "hub", "glab"}:
            return FailureType.BRANCH_DIVERGENCE
        if name in _AGENT_TOOLS:
            return FailureType.PROMPT_DELIVERY
        if name == "node" and "--test" in rest:
            return FailureType.TEST
        return FailureType.INFRA
    return FailureType.INFRA


def score(line: str) -> int:
    """How error-like a line looks (0: not at all)."""
    text = line.strip()
    if len(text) < 3 or not any(c.isalpha() for c in text):
        return 0
    s = 2 * len(_ERRORISH.findall(text))
    if _STRONG.search(text):
        s += 3
    if _INFRA_LINE.search(text):
        s += 5
    return s


def pick_lines(candidates: Iterable[tuple[int, str]], n: int = MAX_LINES) -> list[tuple[int, str]]:
    """The n most error-like lines, in output order (later lines win ties,
    as a failure is usually told last); the last non-blank line when none
    looks like an error."""
    seen: dict[int, str] = {}
    for no, line in candidates:
        if line.strip():
            seen[no] = line.rstrip()
    if not seen:
        return []
    ranked = sorted(seen.items(), key=lambda it: (score(it[1]), it[0]), reverse=True)
    best = [it for it in ranked[:n] if score(it[1]) > 0]
    if not best:
        last = max(seen)
        best = [(last, seen[last])]
    return sorted(best)


def build(
    command: Sequence[str] | str | None,
    exit_code: int,
    candidates: Iterable[tuple[int, str]],
) -> Fallback:
    """The fallback record's content for a failed command."""
    argv = argv_of(command)
    shown = shown_command(argv) if argv else "the command"
    lines = pick_lines(candidates)
    category = command_category(argv)
    if any(_INFRA_LINE.search(text) for _, text in lines):
        category = FailureType.INFRA
    head = f"{shown} exited with status {exit_code}"
    if lines:
        top = max(lines, key=lambda it: (score(it[1]), it[0]))
        signal, log_line = top[1].strip(), top[0]
        message = f"{head}; no rule matched. Output: " + " | ".join(t.strip() for _, t in lines)
    else:
        signal, log_line = head, None
        message = f"{head} and printed nothing."
    return Fallback(
        category=category,
        signal=signal,
        message=message,
        log_line=log_line,
        lines=tuple(t.strip() for _, t in lines),
        command=shown,
    )
