"""The JVM, Ruby and PHP test runners the test recipe can drive: Maven,
Gradle, RSpec, Minitest and PHPUnit."""

from __future__ import annotations

import re
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
    find_word,
    no_option,
    without_flags,
)


def _detect_maven(argv: Sequence[str]) -> int | None:
    return 0 if argv and base_name(argv[0]) in ("mvn", "mvnw") and "test" in argv else None


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
    if argv and base_name(argv[0]) in ("gradle", "gradlew"):
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
    return find_word(argv, ("rspec",))


def _select_rspec(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    ids = []
    for t in tests:
        no_option(t.test_id, "rspec id")
        check_path(re.split(r"[:\[]", t.test_id, maxsplit=1)[0], inside, "spec file")
        ids.append(t.test_id)
    kept = drop_positionals(
        argv[at + 1 :],
        frozenset({"-r", "--require", "-f", "--format", "-o", "--out", "-e", "--example"}),
        lambda a: True,
    )
    return [Selection("rspec", [*argv[: at + 1], *kept, *ids], list(tests))]


def _detect_minitest(argv: Sequence[str]) -> int | None:
    """`ruby [-Ilib -Itest] test/x_test.rb [minitest options]`: the index of
    the test file (minitest/autorun reads the options after it)."""
    at = find_word(argv, ("ruby",))
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
    kept = without_flags(argv[at + 1 :], ("-n", "--name"))
    kept = [a for a in kept if not a.startswith(("--name=", "-n/"))]
    return [Selection("minitest", [*argv[: at + 1], *kept, "-n", pattern], list(tests))]


def _detect_phpunit(argv: Sequence[str]) -> int | None:
    return find_word(argv, ("phpunit",))


def _select_phpunit(
    argv: list[str], at: int, tests: list[SingleTest], inside: Inside
) -> list[Selection]:
    names = sorted({t.test_id.rsplit("::", 1)[-1] for t in tests})
    pattern = "/^(?:" + "|".join(re.escape(n) for n in names).replace("/", "\\/") + r")(?:\s|$)/"
    kept = without_flags(argv[at + 1 :], ("--filter",))
    return [Selection("phpunit", [*argv[: at + 1], *kept, "--filter", pattern], list(tests))]


JVM_RUBY_PHP_RUNNERS: list[Runner] = [
    Runner("maven", _detect_maven, _select_maven),
    Runner("gradle", _detect_gradle, _select_gradle),
    Runner("rspec", _detect_rspec, _select_rspec),
    Runner("minitest", _detect_minitest, _select_minitest),
    Runner("phpunit", _detect_phpunit, _select_phpunit),
]
