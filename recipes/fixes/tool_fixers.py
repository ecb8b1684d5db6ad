"""The tool's own fixer as the recipe when the failing command is that tool's
check: `ruff check` -> `ruff check --fix` (ruff's safe fixes only), `ruff
format --check` -> `ruff format`, `black --check` -> `black`, `prettier
--check` -> `prettier --write`, `gofmt -l` -> `gofmt -w`, `cargo fmt --check`
-> `cargo fmt`, `eslint` -> `eslint --fix`; for the files the check named,
as an argv (the command's own way of starting the tool: a path, `python -m
ruff`, `npx prettier`), never a shell.  Pure."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

_FLAG_VALUE = frozenset({"--config", "-c", "--ignore-path", "--rulesdir", "--format", "-f"})


def _tool_at(argv: Sequence[str], tools: Sequence[str]) -> int | None:
    """Where the tool's name is in `argv` (its path, or after `-m`, `npx`)."""
    for i, word in enumerate(argv[:4]):
        base = os.path.basename(word)
        for tool in tools:
            if base in (tool, f"{tool}.exe", f"{tool}.cmd", f"{tool}.js"):
                return i
    return None


def _ruff(argv: Sequence[str], at: int, files: list[str]) -> list[str] | None:
    rest = list(argv[at + 1 :])
    if rest[:1] == ["check"] and "--fix" not in rest and "--no-fix" not in rest:
        return [*argv[: at + 1], "check", "--fix", *files]
    if rest[:1] == ["format"] and ("--check" in rest or "--diff" in rest):
        return [*argv[: at + 1], "format", *files]
    return None


def _black(argv: Sequence[str], at: int, files: list[str]) -> list[str] | None:
    rest = argv[at + 1 :]
    if "--check" in rest or "--diff" in rest:
        return [*argv[: at + 1], *files]
    return None


def _prettier(argv: Sequence[str], at: int, files: list[str]) -> list[str] | None:
    rest = argv[at + 1 :]
    if "--check" in rest or "-c" in rest or "--list-different" in rest or "-l" in rest:
        return [*argv[: at + 1], "--write", *files]
    return None


def _gofmt(argv: Sequence[str], at: int, files: list[str]) -> list[str] | None:
    rest = argv[at + 1 :]
    if "-l" in rest or "-d" in rest:
        return [*argv[: at + 1], "-w", *files]
    return None


def _cargo(argv: Sequence[str], at: int, files: list[str]) -> list[str] | None:
    rest = list(argv[at + 1 :])
    if rest[:1] == ["fmt"] and "--check" in rest:
        return [*argv[: at + 1], "fmt"]
    return None


def _eslint(argv: Sequence[str], at: int, files: list[str]) -> list[str] | None:
    rest = argv[at + 1 :]
    if "--fix" in rest or "--fix-dry-run" in rest:
        return None
    return [*argv[: at + 1], "--fix", *files]


FIXERS: dict[str, Callable[[Sequence[str], int, list[str]], list[str] | None]] = {
    "ruff": _ruff,
    "black": _black,
    "prettier": _prettier,
    "gofmt": _gofmt,
    "cargo": _cargo,
    "eslint": _eslint,
}


LINTERS = frozenset({("ruff", "check"), ("eslint", "")})


def is_lint(argv: Sequence[str]) -> bool:
    """Whether a fixer's argv applies a linter's fixes (made only for a finding
    the linter marks fixable), not a formatter's format."""
    at = _tool_at(argv, tuple(FIXERS))
    if at is None:
        return False
    tool = os.path.basename(argv[at]).split(".")[0]
    sub = argv[at + 1] if at + 1 < len(argv) and tool == "ruff" else ""
    return (tool, sub) in LINTERS


def fixer_for(command: Sequence[str] | None, files: list[str]) -> list[str] | None:
    """The argv that fixes `files` when `command` is a tool's check, else None."""
    if not command or not files or any(f.startswith("-") for f in files):
        return None
    at = _tool_at(command, tuple(FIXERS))
    if at is None:
        return None
    tool = os.path.basename(command[at]).split(".")[0]
    return FIXERS[tool](command, at, files)
