"""Shell: bash and dash errors (`bash -n`, a failing script) and bats
failures.  ShellCheck is read by `shellcheck.py`."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, match_above
from .registry import rule

ECOSYSTEM = "Shell"

_SHELLS = ("bash", "sh", "dash", "/bin/bash", "/bin/sh", "/usr/bin/bash", "/usr/bin/env")
_INFRA = ("No such file or directory", "Permission denied", "No space left on device")
_NOT_FOUND = lazy_compile(r"^(?P<name>[^\s:]+): (?:command )?not found$")
# bash's report of a job a signal ended: `1234 Killed   python train.py`.
_SIGNALLED = lazy_compile(
    r"^(?P<pid>\d+ )?(?P<what>Killed|Segmentation fault|Aborted|Terminated|Bus error)"
    r"(?: \(core dumped\))?(?:\s+(?P<command>.+))?$"
)
# A shell function's name (`format_cents`): snake_case, no path, no dash.
_FUNCTION_NAME = lazy_compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")


def missing_tool(ctx: LineContext, file: str, name: str) -> bool:
    """Whether `name: command not found` says a program is missing on the
    machine (infra) rather than a script calling a function it never
    defined (compile): the latter only in a script of the project, for a
    snake_case name."""
    return not (ctx.exists(file) and _FUNCTION_NAME.match(name))


def _shell_hit(ctx: LineContext, file: str, line: int, message: str, tool: str) -> Hit | None:
    if message.startswith("`") and message.endswith("'"):
        return None  # bash's second line: the source line it could not parse
    if file not in _SHELLS and "/" not in file and "." not in file and not ctx.exists(file):
        return None  # `Error: line 5: ...` of some other tool, not a script's path
    hint: dict[str, Any] = {}
    category = FailureType.INFRA if any(text in message for text in _INFRA) else None
    if (signalled := _SIGNALLED.match(message)) and signalled.group("what") == "Killed":
        # SIGKILL from outside the program: on a CI runner, the kernel's OOM
        # killer (exit 137) or the runner stopping the step
        category = FailureType.INFRA
        hint.update(kind="killed", transient=False, signal="SIGKILL", oom_suspected=True)
        if signalled.group("command"):
            hint["program"] = signalled.group("command").split()[0]
    if nf := _NOT_FOUND.match(message):
        hint["name"] = nf.group("name")
        if missing_tool(ctx, file, nf.group("name")):
            category = FailureType.INFRA
            hint.update(kind="missing_tool", transient=False, program=nf.group("name"))
    if file in _SHELLS or (file.startswith(("bash", "sh")) and not ctx.exists(file)):
        file_: str | None = None  # `bash -c '...'`: no file to point at
    else:
        file_ = file
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=file_,
        line=line if file_ else None,
        tool=tool,
        category=category,
        hint=hint,
    )


@rule(
    id="shell.bash",
    category=FailureType.COMPILE,
    tool="bash",
    pattern=r"(?:^|(?<= ))(?P<file>[^\s:][^\s:]*): line (?P<line>\d+): (?P<message>.+)$",
    triggers=(": line ",),
    url="https://www.gnu.org/software/bash/manual/bash.html#Invoking-Bash",
)
def shell_bash(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A bash error: a syntax error (`bash -n`, or when the script runs) or
    a failing command in a script.

    What it detects: `lib/cart.sh: line 15: syntax error near unexpected
    token `}'` (the next line, which quotes the source, is part of it),
    `lib/cart.sh: line 23: syntax error: unexpected end of file`,
    `lib/cart.sh: line 22: format_cents: command not found` (hint["name"])
    and the other errors bash reports at a script line (`bad
    substitution`, `ambiguous redirect`, `integer expression expected`).
    A command not found is a program missing on the machine (infra,
    permanent, hint `kind: missing_tool`, `program`: `bash: line 1:
    protoc: command not found`, a CI runner's step script), except a
    snake_case name in a script of the project, a function it calls and
    never defined (compile).  bash's `line 1: 1234 Killed   python
    train.py` (a job SIGKILL ended, exit 137: on a CI runner the kernel's
    OOM killer or the runner itself) is infra, permanent, hint `kind:
    killed`, `oom_suspected`.  A missing file or a permission error is infra; a required environment
    variable is infra.env_not_set's.  `bash -c` errors (`bash: line 1:
    ...`) have no file to point at.  The error may follow other output on
    its line (`Total: lib/cart.sh: line 22: ...` after a `printf` without a
    newline).

    Example output (`bash -n lib/cart.sh`, GNU bash 5.2.15):
        lib/cart.sh: line 15: syntax error near unexpected token `}'
        lib/cart.sh: line 15: `}'

    Recipe: compile, escalated with the location; infra for a missing
    program (named, never installed from the message).

    References: https://www.gnu.org/software/bash/manual/bash.html#Invoking-Bash
    """
    return _shell_hit(
        ctx, m.group("file"), int(m.group("line")), m.group("message").strip(), "bash"
    )


@rule(
    id="shell.dash",
    category=FailureType.COMPILE,
    tool="sh",
    pattern=r"(?:^|(?<= ))(?P<file>[^\s:][^\s:]*): (?P<line>\d+): (?P<message>Syntax error: .+|[^\s:]+: not found|cannot open .+|Bad substitution|[^\s:]+: Permission denied)$",
    triggers=(
        ": Syntax error: ",
        ": not found",
        ": cannot open ",
        ": Bad substitution",
        ": Permission denied",
    ),
    url="https://manpages.debian.org/bookworm/dash/dash.1.en.html",
)
def shell_dash(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A POSIX sh (dash, Debian's and Ubuntu's /bin/sh) error.

    What it detects: `lib/cart.sh: 7: Syntax error: "fi" unexpected
    (expecting "}")` (`sh -n`), `bin/checkout: 22: format_cents: not found`
    (hint["name"]) and `cannot open ...`; `sh: 1: protoc: not found` is a
    program missing on the machine (infra, as for shell.bash).  dash names the script it runs
    with the line of the sourced file where the error is: the location is
    as printed.

    Example output (`sh -n lib/cart.sh`, dash 0.5.12):
        lib/cart.sh: 7: Syntax error: "fi" unexpected (expecting "}")

    Recipe: compile, escalated with the location.

    References: https://manpages.debian.org/bookworm/dash/dash.1.en.html
    """
    return _shell_hit(ctx, m.group("file"), int(m.group("line")), m.group("message").strip(), "sh")


_BATS_NAME = lazy_compile(r"(?:^not ok \d+ (?P<tap>.+?)(?: # .*)?|\u2717 (?P<pretty>.+?))\s*$")


class _BatsFailure:
    """`# (in test file test/cart.bats, line 15)` and the failed command
    lines under it."""

    max_lines = 100

    def __init__(self, m: re.Match[str], ctx: LineContext, name: str | None) -> None:
        self.name = name
        self.file = m.group("file")
        self.line = int(m.group("line"))
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.tap = ctx.line.lstrip().startswith("#")
        self.lines: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if self.tap:
            if not text.startswith("#"):
                return False
            text = text[1:].strip()
        elif not line.startswith("  ") or not text:
            return False
        if "in test file " in text:
            return False
        self.lines.append(text)
        return True

    def finish(self) -> Iterable[Hit]:
        message = self.lines[0] if self.lines else "test failed"
        hint: dict[str, Any] = {"runner": "bats", "test_file": self.file}
        if self.name:
            hint["test_id"] = self.name
            hint["test_name"] = self.name
        return [
            Hit(
                signal=self.signal,
                message=f"{self.name}: {message}" if self.name else message,
                file=self.file,
                line=self.line,
                log_line=self.log_line,
                hint=hint,
                # bats' TAP `not ok 1 counts the quantities` is the same record
                key=("tap", self.name, None) if self.name else None,
            )
        ]


@rule(
    id="shell.bats",
    category=FailureType.TEST,
    tool="bats",
    pattern=r"^\s*#?\s*\((?:from function .*?,? )?in test file (?P<file>\S+?), line (?P<line>\d+)\)$",
    triggers=("in test file ",),
    url="https://bats-core.readthedocs.io/en/stable/usage.html",
)
def shell_bats(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing bats test.

    What it detects: the location bats prints under a failed test, `#
    (in test file test/cart.bats, line 15)` (TAP, the default when the
    output is not a terminal) or `   (in test file ..., line 15)` (the pretty
    formatter), and the failed command under it (`` `[ "$output" = "3" ]'
    failed``); a failure in a hook is `# (from function `setup' in test
    file test/cart.bats, line 2)`, with what the command printed under it.  The test's name comes from the `not ok 1 counts the
    quantities` (or ` ✗ counts the quantities`) line above, which is the
    same record.  `2 tests, 0 failures` gives nothing.

    Example output (`bats test`, Bats 1.8.2):
        not ok 1 counts the quantities
        # (in test file test/cart.bats, line 15)
        #   `[ "$output" = "3" ]' failed

    Recipe: test. Re-run the one test (`bats --filter "counts the
    quantities" test/cart.bats`); a real failure is escalated.

    References: https://bats-core.readthedocs.io/en/stable/usage.html
    """
    head = match_above(ctx, _BATS_NAME, 4, search=True)
    name = (head.group("tap") or head.group("pretty")) if head else None
    return _BatsFailure(m, ctx, name)


@rule(
    id="shell.timeout",
    category=FailureType.INFRA,
    tool="timeout",
    pattern=r"^timeout: sending signal (?P<sig>\w+) to command [‘'`](?P<program>[^’']+)[’']$",
    triggers=("timeout: sending signal ",),
    url="https://www.gnu.org/software/coreutils/manual/html_node/timeout-invocation.html",
    priority=10,
)
def shell_timeout(m: re.Match[str], ctx: LineContext) -> Hit:
    """A wrapper's own time limit: coreutils `timeout` stopping the command
    it runs.

    What it detects: `timeout: sending signal TERM to command 'X'`, what
    `timeout --verbose DURATION X` prints when X outlives the limit (then
    it exits 124). The command did not fail, it was stopped: infra,
    transient (kind `timeout`, hint `program`, `signal`); a test the test
    runner's own limit stopped is the test's failure instead
    (pytest.timeout, go test's `panic: test timed out`).

    Example output (`timeout --verbose 1 python -m pytest -q test_slow.py`,
    GNU coreutils 9.1):
        timeout: sending signal TERM to command ‘/venv/bin/python’

    Recipe: infra, transient: retried once; a limit hit every time is a
    human's to raise.

    References: https://www.gnu.org/software/coreutils/manual/html_node/timeout-invocation.html
    """
    return Hit(
        signal=ctx.line.strip(),
        message=f"{m.group('program')} was stopped by its time limit (timeout sent {m.group('sig')})",
        code="timeout",
        hint={
            "kind": "timeout",
            "transient": True,
            "program": m.group("program"),
            "signal": m.group("sig"),
        },
    )
