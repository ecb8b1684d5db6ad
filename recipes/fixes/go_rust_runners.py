"""The Go and Rust test runners the test recipe can drive: `go test` (a
QuoteMeta'd `-run` pattern per package) and `cargo test` (exact names, one
command per test binary)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from faultlens.classifier.lazyre import lazy_compile

from .runner_argv import (
    Inside,
    Runner,
    Selection,
    SingleTest,
    base_name,
    check_path,
    drop_positionals,
    no_option,
    without_flags,
)

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
    if len(argv) >= 2 and base_name(argv[0]) == "go" and argv[1] == "test":
        return 1
    return None


def go_quote_meta(text: str) -> str:
    """Go's regexp.QuoteMeta."""
    return re.sub(r"([\\.+*?()|\[\]{}^$])", r"\\\1", text)


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
    rest = without_flags(rest, ("-run", "-count", "-skip"))
    # Everything after -args goes to the test binary: keep it in place.
    tail: list[str] = []
    if "-args" in rest:
        cut = rest.index("-args")
        rest, tail = rest[:cut], rest[cut:]
    kept = drop_positionals(rest, _GO_VALUE_FLAGS, lambda a: True)
    if "-v" not in kept and "-test.v" not in kept:
        kept.append("-v")  # `--- PASS: TestX` lines: the per-test verdict
    by_pkg: dict[str, list[SingleTest]] = {}
    for t in tests:
        pkg = t.package or "./..."
        no_option(pkg, "go package")
        check_path(pkg.removesuffix("/...") or ".", inside, "go package")
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
    if len(argv) >= 2 and base_name(argv[0]) == "cargo":
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
    kept = drop_positionals(rest, _CARGO_VALUE_FLAGS, lambda a: True)
    for flag in ("--manifest-path",):
        if flag in kept:
            value = kept[kept.index(flag) + 1] if kept.index(flag) + 1 < len(kept) else ""
            check_path(value, inside, "cargo manifest")
    for t in tests:
        no_option(t.test_id, "cargo test name")
    harness = [
        a for a in without_flags(harness, ("--skip",)) if a.startswith("-") and a != "--exact"
    ]
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


GO_RUST_RUNNERS: list[Runner] = [
    Runner("go", _detect_go, _select_go, _GO_VALUE_FLAGS),
    Runner("cargo", _detect_cargo, _select_cargo, _CARGO_VALUE_FLAGS),
]
