"""A lint runner that stopped before linting: pre-commit's own errors.
(ESLint's `Oops! Something went wrong!` is eslint.crash; a flake8 plugin
that raises ends in a Python traceback, python.traceback's.)"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .causes import network_kind
from .registry import rule

ECOSYSTEM = "Any tool (pre-commit hooks)"
_CONFIG_ERRORS = ("InvalidConfigError", "InvalidManifestError")
_AT_FILE = lazy_compile(r"^==> File (?P<file>\S.*)$")
_WHY = lazy_compile(r"^=====> (?P<why>.+)$")


class _PrecommitError:
    """`An error has occurred: X:` and the lines pre-commit prints under
    it, to its `Check the log at ...`."""

    max_lines = 200

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.exc = m.group("exc")
        self.message = m.group("message").strip()
        self.unexpected = m.group("unexpected") is not None
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.file: str | None = None
        self.why: str | None = None
        self.lines: list[str] = []
        self.done = False

    def feed(self, line: str, line_no: int) -> bool | None:
        if self.done:
            return False
        text = line.strip()
        if text.startswith("Check the log at "):
            self.done = True
            return True
        if at := _AT_FILE.match(text):
            self.file = self.file or at.group("file")
        elif why := _WHY.match(text):
            self.why = why.group("why")
        else:
            if text:
                self.lines.append(text)
            # the lines it quotes (a command's stderr) are the other rules' too
            return None if len(self.lines) < 150 else False
        return True

    def finish(self) -> Iterable[Hit]:
        config = self.exc in _CONFIG_ERRORS
        if self.unexpected and network_kind(" ".join([self.message, *self.lines])):
            return  # a hook repository it could not fetch: infra.network's record
        hint: dict[str, Any] = {"runner": "pre-commit", "exception": self.exc}
        if not config:
            hint.update(kind="crash", transient=False)
        why = self.why or self.message or self.exc
        yield Hit(
            signal=self.signal,
            message=f"pre-commit stopped: {self.exc}: {why}",
            file=self.file if config else None,
            code=self.exc,
            category=FailureType.COMPILE if config else FailureType.INFRA,
            log_line=self.log_line,
            hint=hint,
        )


@rule(
    id="lint_crash.precommit_error",
    category=FailureType.INFRA,
    tool="pre-commit",
    pattern=r"^An (?P<unexpected>unexpected )?error has occurred: (?P<exc>\w+):(?P<message>.*)$",
    triggers=("An error has occurred: ", "An unexpected error has occurred: "),
    url="https://pre-commit.com/#usage",
    priority=20,
)
def precommit_error(m: re.Match[str], ctx: LineContext) -> _PrecommitError:
    """pre-commit stopping before any hook ran.

    What it detects: `An error has occurred: InvalidConfigError:` with the
    `==> File .pre-commit-config.yaml` / `==> At key: ...` / `=====>
    Missing required key: name` lines pre-commit prints under it (the
    configuration is wrong: compile, at the configuration file, hint
    `exception`), and `An unexpected error has occurred: X: ...` (pre-commit
    itself failed: infra, permanent; a hook repository it could not fetch,
    `Could not resolve host`, is left to infra.network, transient), up to
    its `Check the log at ...`.

    Example output (`pre-commit run --all-files`, pre-commit 4.5):
        An error has occurred: InvalidConfigError:
        ==> File .pre-commit-config.yaml
        ==> At Config()
        ==> At key: repos
        ==> At Repository(repo='local')
        ==> At key: hooks
        ==> At Hook(id='check')
        =====> Missing required key: name
        Check the log at /root/.cache/pre-commit/pre-commit.log

    Recipe: compile (fix the configuration) or infra (escalated).

    References: https://pre-commit.com/#usage
    """
    return _PrecommitError(m, ctx)
